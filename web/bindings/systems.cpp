// systems.cpp - systems in the C++ registry (TypeScript systems via a trampoline) and the game loop
// (part of the binding layer: web/bindings/common.h says how it is built).
#include "common.h"
#include "layouts.gen.h"

using namespace laige_wasm;

namespace {

// ---------------------------------------------------------------------------
// Systems (docs/typescript.md): every TypeScript system is the same C++
// trampoline; the JS side tells them apart by (world, system id).
// ---------------------------------------------------------------------------

// Calls Module.laigeRunSystem(world, id, tick, rng, input, inputSize). The
// TS function catches everything itself; the try here is a second fence.
EM_JS(void, laige_js_run_system,
      (std::uintptr_t world, std::uint32_t id, double tick, std::uintptr_t rng, std::uintptr_t input,
       std::uint32_t inputSize),
      {
        try {
          Module['laigeRunSystem'](world, id, tick, rng, input, inputSize);
        } catch (e) {
          if (typeof Module['laigeSystemError'] === 'function') Module['laigeSystemError'](world, id, e);
        }
      });

// The timing clock of a world whose clock was handed to JS (tests).
EM_JS(double, laige_js_clock_ns, (std::uintptr_t world), {
  try {
    return Module['laigeClockNs'](world);
  } catch (e) {
    return 0;
  }
});

void jsSystemTrampoline(laige::World& /*world*/, laige::SystemContext& ctx) {
  laige_js_run_system(reinterpret_cast<std::uintptr_t>(ctx.userData), ctx.id.value, static_cast<double>(ctx.tick),
                      reinterpret_cast<std::uintptr_t>(ctx.rng), reinterpret_cast<std::uintptr_t>(ctx.input),
                      ctx.inputSize);
}

std::int64_t jsClock(void* ctx) noexcept {
  return static_cast<std::int64_t>(laige_js_clock_ns(reinterpret_cast<std::uintptr_t>(ctx)));
}

// io: n u32 component ids at `ids`, n u8 accesses at `access`.
LAIGE_COLD_BINDING std::uint32_t worldRegisterSystem(std::uintptr_t w, std::string_view name, std::int32_t budgetRaw, std::string_view dependsOn,
                                  std::uintptr_t ids, std::uintptr_t access, std::uint32_t n, std::uintptr_t out) {
  JsWorld& jw = W(w);
  // A C string ends at NUL: a name or dependsOn holding one would be cut
  // short by the registry, so it is refused whole (laige/names.h).
  if (name.find('\0') != std::string::npos || dependsOn.find('\0') != std::string::npos) {
    return static_cast<std::uint32_t>(laige::ErrorCode::InvalidArgument);
  }
  std::vector<laige::SystemIo> io(n + 1);
  for (std::uint32_t i = 0; i < n; ++i) {
    io[i].component = at<const std::uint32_t>(ids)[i];
    io[i].access = static_cast<laige::Access>(at<const std::uint8_t>(access)[i]);
  }
  auto nameStr = std::make_unique<std::string>(name);
  auto depStr = std::make_unique<std::string>(dependsOn);
  laige::SystemDef def;
  def.name = nameStr->c_str();
  def.run = &jsSystemTrampoline;
  def.budgetMs = laige::fpx16_16::fromRaw(budgetRaw);
  def.dependsOn = depStr->c_str();
  def.userData = reinterpret_cast<void*>(w);
  auto r = jw.world.registerSystem(def, io.data(), n);
  if (r.isError()) return code(r);
  jw.strings.push_back(std::move(nameStr));
  jw.strings.push_back(std::move(depStr));
  *at<std::uint32_t>(out) = r.value().value;
  return 0;
}
LAIGE_COLD_BINDING std::uint32_t worldScheduleSystems(std::uintptr_t w) {
  JsWorld& jw = W(w);
  return code(jw.world.scheduleSystems(jw.schedule));
}
std::uint32_t worldScheduledCount(std::uintptr_t w) { return W(w).schedule.systemCount; }
LAIGE_COLD_BINDING void worldScheduleOrder(Json& out, std::uintptr_t w) {
  const laige::SystemSchedule& s = W(w).schedule;
  out.beginArray();
  for (std::uint32_t i = 0; i < s.systemCount; ++i) out.integer(s.order[i]);
  out.endArray();
}
std::uint32_t worldRunSystems(std::uintptr_t w, std::uintptr_t input, std::uint32_t size) {
  JsWorld& jw = W(w);
  laige::TickInput in;
  in.data = at<const std::uint8_t>(input);
  in.size = size;
  return code(jw.world.runSystems(jw.schedule, in));
}
std::uint32_t worldSystemCount(std::uintptr_t w) { return W(w).world.systemCount(); }
double worldSystemTicksRun(std::uintptr_t w) { return static_cast<double>(W(w).world.systemTicksRun()); }
// {id, name, budgetRaw, dependsOn, io: [[component, access]...]} or null.
LAIGE_COLD_BINDING void worldSystemInfo(Json& out, std::uintptr_t w, std::uint32_t id) {
  auto r = W(w).world.system(laige::SystemId{id});
  if (r.isError()) {
    out.null();
    return;
  }
  const laige::SystemInfo& si = r.value();
  out.beginObject()
      .field("id", si.id.value)
      .field("name", si.def.name != nullptr ? si.def.name : "")
      .field("budgetRaw", si.def.budgetMs.raw)
      .field("dependsOn", si.def.dependsOn != nullptr ? si.def.dependsOn : "")
      .field("native", si.def.run != &jsSystemTrampoline);
  out.key("io").beginArray();
  for (std::uint32_t i = 0; i < si.ioCount(); ++i) {
    const laige::SystemIo x = si.ioAt(i);
    out.beginArray().integer(x.component).integer(static_cast<std::uint32_t>(x.access)).endArray();
  }
  out.endArray().endObject();
}
// SystemTimingStats as web/layouts.json lays it out (layouts.gen.h).
LAIGE_COLD_BINDING std::uint32_t worldSystemTimingStats(std::uintptr_t w, std::uint32_t id, std::uintptr_t out) {
  auto r = W(w).world.systemTimingStats(laige::SystemId{id});
  if (r.isError()) return code(r);
  laige_layout::SystemTimingStats::write(r.value(), at<double>(out));
  return 0;
}
// The rolling window: HistogramStats, then up to `max` samples, oldest first.
LAIGE_COLD_BINDING std::uint32_t worldSystemTimingWindow(std::uintptr_t w, std::uint32_t id, std::uintptr_t out, std::uint32_t max) {
  const laige::Histogram* h = W(w).world.systemTimingWindow(laige::SystemId{id});
  if (h == nullptr) return code(W(w).world.systemTimingStats(laige::SystemId{id}));  // its system_unknown
  double* o = at<double>(out);
  laige_layout::HistogramStats::write(h->stats(), o);
  for (std::uint32_t i = 0; i < h->size() && i < max; ++i) o[laige_layout::HistogramStats::kCount + i] = h->sample(i);
  return 0;
}
// SystemRngState: u32 id, u32 hasSubstream, then seed, state1, state2 as u64.
LAIGE_COLD_BINDING std::uint32_t worldSystemRngState(std::uintptr_t w, std::uint32_t id, std::uintptr_t out) {
  auto r = W(w).world.systemRngState(laige::SystemId{id});
  if (r.isError()) return code(r);
  auto* o = at<std::uint32_t>(out);
  o[0] = r.value().id.value;
  o[1] = r.value().hasSubstream ? 1u : 0u;
  putU64(out + 8, r.value().seed);
  putU64(out + 16, r.value().state1);
  putU64(out + 24, r.value().state2);
  return 0;
}
// true: the timing clock is Module.laigeClockNs(world); false: steady_clock.
LAIGE_COLD_BINDING void worldSetJsTimingClock(std::uintptr_t w, bool js) {
  JsWorld& jw = W(w);
  jw.timingClockJs = js;
  if (js) {
    jw.world.setTimingClock(&jsClock, reinterpret_cast<void*>(w));
  } else {
    jw.world.setTimingClock(nullptr, nullptr);
  }
}

// The PRNG a system run receives (SystemContext::rng), valid during the run.
std::uint32_t prngNextU32(std::uintptr_t p) { return at<laige::Prng>(p)->next_u32(); }
void prngNextU64(std::uintptr_t p, std::uintptr_t out) { putU64(out, at<laige::Prng>(p)->next_u64()); }
std::uint32_t prngNextRange(std::uintptr_t p, std::uint32_t min, std::uint32_t max) {
  return at<laige::Prng>(p)->next_range(min, max);
}
float prngNextFloat01(std::uintptr_t p) { return at<laige::Prng>(p)->next_float01(); }

// ---------------------------------------------------------------------------
// GameLoop (frameAt: the browser's requestAnimationFrame time in ns)
// ---------------------------------------------------------------------------

// A loop as JS holds it: the GameLoop, the scenario run it drives (nullptr
// for a plain world) and the buffer a JS input callback writes each tick's
// payload into (grown on demand, reused across ticks).
struct JsLoop {
  laige::GameLoop loop;
  laige::ScenarioRun* run = nullptr;
  std::vector<std::uint8_t> input;
};

// Module.laigeTickInput(loop, tick): the payload size, -1 = default, -2 = error.
EM_JS(double, laige_js_tick_input, (std::uintptr_t loop, double tick), {
  try {
    return Module['laigeTickInput'](loop, tick);
  } catch (e) {
    return -2;
  }
});
// Module.laigeAfterTick(loop, tick): 0 = go on, else end the frame.
EM_JS(std::int32_t, laige_js_after_tick, (std::uintptr_t loop, double tick), {
  try {
    return Module['laigeAfterTick'](loop, tick);
  } catch (e) {
    return 1;
  }
});

Status jsTickInput(void* ctx, std::uint64_t tick, laige::TickInput& in) noexcept {
  auto& jl = *static_cast<JsLoop*>(ctx);
  const double n = laige_js_tick_input(reinterpret_cast<std::uintptr_t>(ctx), static_cast<double>(tick));
  if (n == -1) return jl.run != nullptr ? laige::ScenarioRun::generatedTickInput(jl.run, tick, in) : Status{};
  if (!(n >= 0) || n > static_cast<double>(jl.input.size())) {
    return Status::failure(ErrorCode::Unknown, "tick_input_failed").with("tick", tick);
  }
  in.size = static_cast<std::uint32_t>(n);
  in.data = in.size > 0 ? jl.input.data() : nullptr;
  return Status{};
}
Status jsAfterTick(void* ctx, laige::World& /*world*/, std::uint64_t tick) noexcept {
  const std::int32_t r = laige_js_after_tick(reinterpret_cast<std::uintptr_t>(ctx), static_cast<double>(tick));
  return r == 0 ? Status{} : Status::failure(ErrorCode::Unknown, "tick_ended").with("tick", tick);
}

LAIGE_COLD_BINDING std::uint32_t loopCreate(std::uintptr_t w, std::uint32_t tickRateHz, std::uint32_t maxCatchUp, bool jsInput,
                         bool jsAfter, std::uintptr_t out) {
  JsWorld& jw = W(w);
  auto jl = std::make_unique<JsLoop>();
  jl->run = jw.run ? &*jw.run : nullptr;
  laige::GameLoop::Options o;
  o.tickRateHz = tickRateHz;
  o.maxCatchUpTicks = maxCatchUp;
  if (jsInput) {
    o.tickInput = &jsTickInput;
    o.tickInputContext = jl.get();
  }
  if (jsAfter) {
    o.onTick = &jsAfterTick;
    o.onTickContext = jl.get();
  }
  auto r = jl->run != nullptr ? jl->run->createLoop(o) : laige::GameLoop::create(jw.world, jw.schedule, o);
  if (r.isError()) return code(r);
  jl->loop = std::move(r).takeValue();
  *at<std::uint32_t>(out) = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(jl.release()));
  return 0;
}
void loopDestroy(std::uintptr_t l) { delete at<JsLoop>(l); }
std::uintptr_t loopInputBuffer(std::uintptr_t l, std::uint32_t size) {
  std::vector<std::uint8_t>& b = at<JsLoop>(l)->input;
  if (b.size() < size) b.resize(size);
  return reinterpret_cast<std::uintptr_t>(b.data());
}
std::uint32_t loopFrameAt(std::uintptr_t l, double nowNs) {
  return code(at<JsLoop>(l)->loop.frameAt(static_cast<std::int64_t>(nowNs)));
}
std::uint32_t loopStep(std::uintptr_t l, double n) {
  return code(at<JsLoop>(l)->loop.step(static_cast<std::uint64_t>(n)));
}
// GameLoopStats and the loop's start reference, as web/layouts.json lays them out.
LAIGE_COLD_BINDING void loopStats(std::uintptr_t l, std::uintptr_t out) {
  const laige::GameLoop& loop = at<JsLoop>(l)->loop;
  struct {
    laige::GameLoopStats stats;
    std::int64_t startReferenceNs;
  } const s{loop.stats(), loop.startReferenceNs()};
  laige_layout::GameLoopStats::write(s, at<double>(out));
}


}  // namespace

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_SYSTEMS
#include "registrations.gen.inc"
