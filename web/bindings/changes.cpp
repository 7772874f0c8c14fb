// changes.cpp - reacting to change from TypeScript (docs/changes.md):
// observers through one trampoline, the removed logs of a running system,
// markChanged and the Write ref a field handle's set takes
// (part of the binding layer: web/bindings/common.h says how it is built).
// Cold setup and per-event paths: compiled with -Oz (CMakeLists.txt).
#include "common.h"
#include "laige/changes.h"

using namespace laige_wasm;

namespace {

// Calls Module.laigeObserver(world, observer, event, component, entity,
// value, depth, resimulating): 0 = ok, else the observer threw (the TS
// router keeps the error and rethrows it after the call that drained).
EM_JS(std::int32_t, laige_js_observer,
      (std::uintptr_t world, std::uint32_t observer, std::uint32_t event, std::uint32_t component,
       std::uint32_t entity, std::uintptr_t value, std::uint32_t depth, std::int32_t resimulating),
      {
        try {
          return Module['laigeObserver'](world, observer, event, component, entity, value, depth, resimulating !== 0);
        } catch (e) {
          return 1;
        }
      });

// Every TypeScript observer is this function; userData packs the JsWorld
// pointer, and the TS observer number travels in the record's order (the
// router maps (world, ObserverId) to the JS function).
struct JsObserverTag {
  std::uintptr_t world;
  std::uint32_t id;
};

laige::Status jsObserverTrampoline(laige::ObserverContext& ctx) {
  const auto* tag = static_cast<const JsObserverTag*>(ctx.userData);
  const std::int32_t r = laige_js_observer(tag->world, tag->id, static_cast<std::uint32_t>(ctx.event), ctx.component,
                                           ctx.entity.bits(), reinterpret_cast<std::uintptr_t>(ctx.value), ctx.depth,
                                           ctx.resimulating ? 1 : 0);
  if (r == 0) return laige::Status{};
  return laige::Status::failure(ErrorCode::Unknown, "observer_threw").with("component_id", ctx.component);
}

// The tags live as long as the module (observers cannot be removed; a
// disposed world's tags are a few bytes each).
std::vector<std::unique_ptr<JsObserverTag>>& tags() {
  static std::vector<std::unique_ptr<JsObserverTag>> all;
  return all;
}

// eachRemoved of the running system, gathered: per entry the entity bits
// (u32), 4 bytes of padding, then the value at an 8-aligned stride. The
// buffer is reused (it grows by doubling and never shrinks).
struct RemovedGather {
  std::vector<std::uint8_t> bytes;
  std::uint32_t stride = 0;
  std::uint32_t size = 0;
  std::uint32_t count = 0;
};
RemovedGather& gather() {
  static RemovedGather g;
  return g;
}

}  // namespace

// Written by hand: a few bytes each, and a direct
// call from JS (web/src/boundary/raw.ts HOT_EXPORTS).
extern "C" {

// observe: out = the ObserverId (dense from 1 per world).
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_changes_observe(std::uintptr_t w, std::uint32_t event, std::uint32_t component, std::uintptr_t out) {
  auto tag = std::make_unique<JsObserverTag>();
  tag->world = w;
  // The id the core will give: the observers registered so far + 1.
  tag->id = laige::observerStats(W(w).world).observers + 1;
  auto r = laige::observe(W(w).world, static_cast<laige::ObserverEvent>(event), component, &jsObserverTrampoline,
                          tag.get());
  if (r.isError()) return code(r);
  *at<std::uint32_t>(out) = r.value().value;
  tags().push_back(std::move(tag));
  return 0;
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_changes_flush_observers(std::uintptr_t w) { return code(laige::flushObservers(W(w).world)); }
// ObserverStats as f64: observers, pending, calls, failures, depthExceeded.
EMSCRIPTEN_KEEPALIVE void laige_changes_observer_stats(std::uintptr_t w, std::uintptr_t out) {
  const laige::ObserverStats s = laige::observerStats(W(w).world);
  double* o = at<double>(out);
  o[0] = s.observers;
  o[1] = s.pending;
  o[2] = static_cast<double>(s.calls);
  o[3] = static_cast<double>(s.failures);
  o[4] = static_cast<double>(s.depthExceeded);
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_changes_track(std::uintptr_t w, std::uint32_t c) { return code(laige::trackChanges(W(w).world, c)); }
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_changes_tracks(std::uintptr_t w, std::uint32_t c) { return laige::tracksChanges(W(w).world, c) ? 1 : 0; }
EMSCRIPTEN_KEEPALIVE double laige_changes_tick(std::uintptr_t w) { return laige::changeTick(W(w).world); }
EMSCRIPTEN_KEEPALIVE double laige_changes_added_tick(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  return laige::addedTick(W(w).world, ent(e), c);
}
EMSCRIPTEN_KEEPALIVE double laige_changes_changed_tick(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  return laige::changedTick(W(w).world, ent(e), c);
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_changes_mark_changed(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  return code(laige::markChanged(W(w).world, ent(e), c));
}
EMSCRIPTEN_KEEPALIVE void laige_changes_set_resimulating(std::uintptr_t w, std::uint32_t on) { laige::setResimulating(W(w).world, on != 0); }
// A field handle's write: the Write ref (non-const getBytes), which marks a
// tracked component changed, as World::get<T> for writing does in C++.
EMSCRIPTEN_KEEPALIVE std::uintptr_t laige_changes_get_for_write(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  return reinterpret_cast<std::uintptr_t>(W(w).world.getBytes(ent(e), c));
}

// out: [pointer, count, stride] as u32.
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_changes_each_removed(std::uintptr_t w, std::uint32_t c, std::uint32_t size, std::uintptr_t out) {
  RemovedGather& g = gather();
  g.count = 0;
  g.size = size;
  g.stride = 8 + ((size + 7u) & ~7u);
  laige::World& world = W(w).world;
  laige::SystemContext ctx{world, nullptr, 0, nullptr, 0, laige::SystemId{}, nullptr, world.commands()};
  const Status s = laige::detail::eachRemovedBytes(
      ctx, c,
      [](void* closure, laige::Entity e, const void* value) {
        auto& gg = *static_cast<RemovedGather*>(closure);
        const std::size_t at = static_cast<std::size_t>(gg.count) * gg.stride;
        if (gg.bytes.size() < at + gg.stride) gg.bytes.resize(std::max<std::size_t>(at + gg.stride, gg.bytes.size() * 2));
        const std::uint32_t bits = e.bits();
        std::memcpy(gg.bytes.data() + at, &bits, 4);
        std::memcpy(gg.bytes.data() + at + 8, value, gg.size);
        ++gg.count;
      },
      &g);
  if (!s.ok()) return code(s);
  auto* o = at<std::uint32_t>(out);
  o[0] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(g.bytes.data()));
  o[1] = g.count;
  o[2] = g.stride;
  return 0;
}

}  // extern "C"

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_CHANGES
#include "registrations.gen.inc"
