// observers.cpp - observers (docs/changes.md#observers): registration,
// the deferred event queue and its drain. Events are queued by the
// structural paths (change_ticks.cpp) in the order they happen and run
// after the system or top-level call that caused them; an observer's
// structural changes go through the command buffer and may queue further
// events, one level deeper, up to kMaxObserverDepth.
#include <cstring>

#include "laige/changes.h"
#include "laige/detail/world_state.h"
#include "laige/logging.h"
#include "laige/world.h"
#include "logging/log_texts.h"

namespace laige {

namespace {

Status refuse(const char* reason, log::TextId text, std::uint32_t component, std::uint32_t event) noexcept {
  LAIGE_LOG_WARN("ecs", reason, text, log::field("component_id", component), log::field("event", event));
  return Status::failure(ErrorCode::InvalidArgument, reason)
      .with("component_id", component)
      .with("event", event);
}

}  // namespace

namespace detail {

void queueEvent(WorldState& ws, std::uint8_t event, ComponentTypeId c, Entity e, const void* value) noexcept {
  ChangeState& cs = ws.changes;
  const std::uint32_t size = ws.ecs.components[c - 1]->size;
  QueuedEvent h;
  h.event = event;
  h.component = static_cast<std::uint16_t>(c);
  h.entityBits = e.bits();
  h.depth = cs.draining ? cs.depth + 1 : 0;
  const std::size_t at = cs.queue.size();
  cs.queue.resize(at + sizeof h + size);
  std::memcpy(cs.queue.data() + at, &h, sizeof h);
  if (size != 0) std::memcpy(cs.queue.data() + at + sizeof h, value, size);
  ++cs.queued;
}

Status drainObservers(World& w) noexcept {
  WorldState* wsp = ChangeAccess::state(w);
  if (wsp == nullptr) return Status{};
  WorldState& ws = *wsp;
  ChangeState& cs = ws.changes;
  if (cs.queued == 0 || cs.draining || cs.holdDrain != 0 || ws.systems.current != 0 || ws.ecs.guard.active ||
      ws.deferDepth != 0) {
    return Status{};
  }
  cs.draining = true;
  Status first;
  std::size_t off = 0;
  while (off < cs.queue.size()) {
    QueuedEvent h;
    std::memcpy(&h, cs.queue.data() + off, sizeof h);
    off += sizeof h;
    const std::uint32_t size = ws.ecs.components[h.component - 1]->size;
    // A copy: an observer's changes append to the queue (it may move).
    cs.valueScratch.assign(cs.queue.data() + off, cs.queue.data() + off + size);
    off += size;
    if (h.depth > kMaxObserverDepth) {
      ++cs.depthExceeded;
      LAIGE_LOG_WARN("ecs", "observer_depth_exceeded", log::texts::ObserverDepthExceeded, log::field("component_id", h.component),
                     log::field("event", h.event), log::field("depth", h.depth));
      if (first.ok()) {
        first = Status::failure(ErrorCode::InvalidArgument, "observer_depth_exceeded")
                    .with("component_id", h.component)
                    .with("depth", h.depth)
                    .with("max_depth", kMaxObserverDepth);
      }
      continue;
    }
    const Entity e = Entity::fromBits(h.entityBits);
    for (std::size_t i = 0; i < cs.observers.size(); ++i) {
      const ObserverRecord rec = cs.observers[i];
      if (rec.event != h.event || rec.component != h.component) continue;
      ObserverContext ctx{w,      static_cast<ObserverEvent>(h.event), h.component, e, cs.valueScratch.data(),
                          w.commands(), h.depth, cs.resimulating, rec.userData};
      cs.depth = h.depth;
      cs.inObserver = true;
      ++ws.deferDepth;  // a command phase: what it records applies right after it
      const Status st = reinterpret_cast<ObserverFn>(rec.fn)(ctx);
      --ws.deferDepth;
      cs.inObserver = false;
      ++cs.calls;
      if (ws.commands.pending() != 0) ChangeAccess::applyCommands(w);
      if (!st.ok()) {
        ++cs.failures;
        LAIGE_LOG_WARN("ecs", "observer_failed", log::texts::ObserverFailed, log::field("component_id", h.component),
                       log::field("event", h.event), log::field("reason", st.reason()));
        if (first.ok()) first = st;
      }
    }
  }
  cs.queue.clear();
  cs.queued = 0;
  cs.depth = 0;
  cs.draining = false;
  return first;
}

}  // namespace detail

Result<ObserverId> observe(World& world, ObserverEvent event, ComponentTypeId id, ObserverFn fn,
                           void* userData) noexcept {
  detail::WorldState* ws = detail::ChangeAccess::state(world);
  const auto ev = static_cast<std::uint32_t>(event);
  if (ws == nullptr) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  if (ws->systems.current != 0 || ws->ecs.guard.active || ws->deferDepth != 0 || ws->changes.draining) {
    return refuse("observe_inside_callback", log::texts::ObserveInsideCallback, id, ev);
  }
  if (id == 0 || id > ws->ecs.components.size()) return refuse("component_unregistered", log::texts::ComponentUnregisteredObserver, id, ev);
  if (ev >= kObserverEventCount) return refuse("unknown_event", log::texts::UnknownEvent, id, ev);
  if (fn == nullptr) return refuse("observer_invalid", log::texts::ObserverInvalid, id, ev);
  detail::ChangeState& cs = ws->changes;
  cs.observers.push_back(detail::ObserverRecord{static_cast<std::uint8_t>(ev), id,
                                                reinterpret_cast<void*>(fn), userData});
  cs.observedEvents[id] = static_cast<std::uint8_t>(cs.observedEvents[id] | (1u << ev));
  cs.anyHook = true;
  return ObserverId{static_cast<std::uint32_t>(cs.observers.size())};
}

void setResimulating(World& world, bool on) noexcept {
  if (detail::WorldState* ws = detail::ChangeAccess::state(world)) ws->changes.resimulating = on;
}

Status flushObservers(World& world) noexcept { return detail::drainObservers(world); }

ObserverStats observerStats(const World& world) noexcept {
  ObserverStats st;
  const detail::WorldState* ws = detail::ChangeAccess::state(world);
  if (ws == nullptr) return st;
  st.observers = static_cast<std::uint32_t>(ws->changes.observers.size());
  st.pending = ws->changes.queued;
  st.calls = ws->changes.calls;
  st.failures = ws->changes.failures;
  st.depthExceeded = ws->changes.depthExceeded;
  return st;
}

}  // namespace laige
