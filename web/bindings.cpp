// bindings.cpp - the embind layer between the C++ core and web/src (DESIGN.md
// "Layers and data flow"). Thin on purpose: every function forwards to one
// core call and turns its Status into a number (0 = ok, else the ErrorCode
// value). Results travel through out-pointers into wasm memory that the
// TypeScript layer allocated; 64-bit values as two u32 halves (lo, hi) or
// as a u64 slot; handles (World, GameLoop, ReplayWriter) are pointers that
// only the TypeScript objects owning them ever pass back. The raw surface is
// declared in types/laige_wasm.d.ts; change both together.
//
// The core builds with -fno-exceptions: nothing here throws, and a JS
// exception never unwinds through C++ (the TypeScript system trampoline
// catches everything; the EM_JS glue below catches again).
#include <emscripten.h>
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "laige/errors.h"
#include "laige/game_loop.h"
#include "laige/logging.h"
#include "laige/prng.h"
#include "laige/replay.h"
#include "laige/replay_diff.h"
#include "laige/sim.h"
#include "laige/state_hash.h"
#include "laige/system.h"
#include "laige/version.h"
#include "laige/world.h"
#include "scenario.h"

using emscripten::val;

namespace {

using laige::ErrorCode;
using laige::Status;

// A number for JS: 0 for ok, else the ErrorCode value.
std::uint32_t code(Status s) { return s.codeValue(); }
template <class T>
std::uint32_t code(const laige::Result<T>& r) {
  return r.ok() ? 0u : static_cast<std::uint32_t>(r.error());
}
std::uint32_t code(ErrorCode c) { return static_cast<std::uint32_t>(c); }

template <class T>
T* at(std::uintptr_t p) {
  return reinterpret_cast<T*>(p);
}

std::uint64_t u64(std::uint32_t lo, std::uint32_t hi) {
  return (std::uint64_t{hi} << 32) | lo;
}

void putU64(std::uintptr_t out, std::uint64_t v) {
  auto* o = at<std::uint32_t>(out);
  o[0] = static_cast<std::uint32_t>(v);
  o[1] = static_cast<std::uint32_t>(v >> 32);
}

laige::Entity ent(std::uint32_t bits) { return laige::Entity::fromBits(bits); }

// A copy of `n` bytes at `p` as a fresh JS Uint8Array (never a view: views
// die with the next memory growth).
val bytesCopy(const std::uint8_t* p, std::size_t n) {
  val view(emscripten::typed_memory_view(n, p));
  return val::global("Uint8Array").new_(view);
}

val u64Pairs(const std::vector<std::uint64_t>& v) {
  std::vector<std::uint32_t> halves(v.size() * 2);
  for (std::size_t i = 0; i < v.size(); ++i) {
    halves[2 * i] = static_cast<std::uint32_t>(v[i]);
    halves[2 * i + 1] = static_cast<std::uint32_t>(v[i] >> 32);
  }
  val view(emscripten::typed_memory_view(halves.size(), halves.data()));
  return val::global("Uint32Array").new_(view);
}

val hex64(std::uint64_t v) {
  char buf[17];
  static const char* digits = "0123456789abcdef";
  for (int i = 15; i >= 0; --i) {
    buf[i] = digits[v & 0xF];
    v >>= 4;
  }
  buf[16] = '\0';
  return val(std::string(buf));
}

// ---------------------------------------------------------------------------
// Module: version, error registry, logging
// ---------------------------------------------------------------------------

std::string versionString() { return laige::kVersionString; }
std::string errorLine(std::uint32_t c) { return laige::errorText(static_cast<ErrorCode>(c)); }

void logInstallJsSink() {
  laige::log::LoggerOptions o = laige::log::Logger::instance().options();
  o.sink = std::make_shared<laige::log::JsSink>();
  laige::log::Logger::instance().init(o);
}
// Level 0..6 = trace..off.
void logSetLevel(std::uint32_t level) {
  laige::log::Logger::instance().setGlobalMinimum(static_cast<laige::log::Level>(level > 6 ? 6 : level));
}
void logSetRateLimiting(bool on) {
  laige::log::LoggerOptions o = laige::log::Logger::instance().options();
  o.rateLimiting = on;
  laige::log::Logger::instance().init(o);
}
void logShutdown() { laige::log::Logger::instance().shutdown(); }

// ---------------------------------------------------------------------------
// World
// ---------------------------------------------------------------------------

// What the wasm layer keeps per world: the world, its current schedule (a
// GameLoop points at it, so it lives at a fixed address) and the strings a
// SystemDef points at (system names and dependsOn lists outlive the world).
// A scenario run's world (scenarioOpen) is a JsWorld too: `world` then
// refers into `run`, so every world* binding reads it unchanged.
struct JsWorld {
  explicit JsWorld(laige::World w) noexcept : owned(std::move(w)), world(*owned) {}
  explicit JsWorld(laige::ScenarioRun r) noexcept : run(std::move(r)), world(run->world()) {}
  std::optional<laige::World> owned;
  std::optional<laige::ScenarioRun> run;
  laige::World& world;
  laige::SystemSchedule schedule{};
  std::vector<std::unique_ptr<std::string>> strings;
  bool timingClockJs = false;
};

JsWorld& W(std::uintptr_t w) { return *at<JsWorld>(w); }

std::uint32_t worldCreate(std::uint32_t capacity, std::uint32_t churn, std::uint32_t seedLo,
                          std::uint32_t seedHi, bool deterministic, std::uintptr_t out) {
  laige::World::Options o;
  o.capacity = capacity;
  o.churnPerFrameBudget = churn;
  o.seed = u64(seedLo, seedHi);
  o.deterministic = deterministic;
  auto r = laige::World::create(o);
  if (r.isError()) return code(r);
  auto* jw = new JsWorld(std::move(r).takeValue());
  *at<std::uint32_t>(out) = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(jw));
  return 0;
}
void worldDestroy(std::uintptr_t w) { delete at<JsWorld>(w); }

std::uint32_t worldCreateEntity(std::uintptr_t w, std::uintptr_t out) {
  auto r = W(w).world.create();
  if (r.isError()) return code(r);
  *at<std::uint32_t>(out) = r.value().bits();
  return 0;
}
std::uint32_t worldDestroyEntity(std::uintptr_t w, std::uint32_t e) { return code(W(w).world.destroy(ent(e))); }
std::uint32_t worldCheck(std::uintptr_t w, std::uint32_t e) { return code(W(w).world.check(ent(e))); }
bool worldIsValid(std::uintptr_t w, std::uint32_t e) { return W(w).world.isValid(ent(e)); }
std::uint32_t worldCapacity(std::uintptr_t w) { return W(w).world.capacity(); }
std::uint32_t worldEntityCount(std::uintptr_t w) { return W(w).world.entityCount(); }
std::uint32_t worldClear(std::uintptr_t w) { return code(W(w).world.clear()); }
std::uint32_t worldHandleAt(std::uintptr_t w, std::uint32_t id) {
  return id > 0xFFFF ? 0u : W(w).world.handleAt(static_cast<std::uint16_t>(id)).bits();
}
void worldBeginFrame(std::uintptr_t w) { W(w).world.beginFrame(); }

// EntityStats as 7 doubles (the counters stay far below 2^53).
void worldStats(std::uintptr_t w, std::uintptr_t out) {
  const laige::EntityStats s = W(w).world.stats();
  double* o = at<double>(out);
  o[0] = s.capacity;
  o[1] = s.inUse;
  o[2] = s.peakInUse;
  o[3] = static_cast<double>(s.totalCreated);
  o[4] = static_cast<double>(s.totalDestroyed);
  o[5] = static_cast<double>(s.bytesCapacity);
  o[6] = static_cast<double>(s.bytesInUse);
}
// GuardrailStats as 9 u32.
void worldGuardrailStats(std::uintptr_t w, std::uintptr_t out) {
  const laige::GuardrailStats s = W(w).world.guardrailStats();
  std::uint32_t* o = at<std::uint32_t>(out);
  o[0] = s.capacity;
  o[1] = s.entityCount;
  o[2] = s.entityBudgetLevel;
  o[3] = s.entityBudgetWarns[0];
  o[4] = s.entityBudgetWarns[1];
  o[5] = s.entityBudgetWarns[2];
  o[6] = s.frameChurn;
  o[7] = s.churnPerFrameBudget;
  o[8] = s.churnWarns;
}
// ArchetypeStats as 11 doubles.
void worldArchetypeStats(std::uintptr_t w, std::uintptr_t out) {
  const laige::ArchetypeStats s = W(w).world.archetypeStats();
  double* o = at<double>(out);
  o[0] = s.archetypeCount;
  o[1] = s.rowsLive;
  o[2] = s.rowsReserved;
  o[3] = static_cast<double>(s.bytesReserved);
  o[4] = static_cast<double>(s.totalAdds);
  o[5] = static_cast<double>(s.totalRemoves);
  o[6] = static_cast<double>(s.totalArchetypeGrowth);
  o[7] = static_cast<double>(s.totalReservations);
  o[8] = static_cast<double>(s.totalRowShifts);
  o[9] = static_cast<double>(s.totalDestroyDetaches);
  o[10] = static_cast<double>(s.bytesScratch);
}

// ---------------------------------------------------------------------------
// Components
// ---------------------------------------------------------------------------

// fields: a JS array of [name, kind, count]. Lays the fields out in C order
// (layoutComponentFields) and registers them. Returns {code, id, reason, field}.
val worldRegisterComponent(std::uintptr_t w, std::string name, val fields) {
  const std::uint32_t n = fields["length"].as<std::uint32_t>();
  std::vector<std::string> names(n);
  std::vector<laige::ComponentField> fs(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    val f = fields[i];
    names[i] = f[0].as<std::string>();
    fs[i].kind = static_cast<laige::FieldKind>(f[1].as<std::uint32_t>());
    fs[i].count = f[2].as<std::uint32_t>();
  }
  for (std::uint32_t i = 0; i < n; ++i) fs[i].name = names[i];
  val out = val::object();
  laige::ComponentDesc d;
  d.name = name;
  const laige::LayoutCheck lc = laige::layoutComponentFields(fs, d.size, d.alignment);
  if (!lc.ok()) {
    out.set("code", code(lc.code));
    out.set("id", 0);
    out.set("reason", std::string(lc.reason));
    out.set("field", lc.field);
    return out;
  }
  d.fields = fs;
  auto r = W(w).world.registerComponentDesc(d);
  out.set("code", code(r));
  out.set("id", r.ok() ? r.value() : 0u);
  out.set("reason", std::string(r.ok() ? "" : "rejected_by_world"));
  out.set("field", 0);
  return out;
}

// {id, name, size, alignment, fields: [[name, kind, count, offset]...]} or null.
val worldComponentInfo(std::uintptr_t w, std::uint32_t id) {
  auto r = W(w).world.componentInfo(id);
  if (r.isError()) return val::null();
  const laige::ComponentInfo& ci = r.value();
  val out = val::object();
  out.set("id", ci.id);
  out.set("name", std::string(ci.name));
  out.set("size", ci.size);
  out.set("alignment", ci.alignment);
  val fs = val::array();
  for (const laige::ComponentField& f : ci.fields) {
    val a = val::array();
    a.call<void>("push", std::string(f.name), static_cast<std::uint32_t>(f.kind), f.count, f.offset);
    fs.call<void>("push", a);
  }
  out.set("fields", fs);
  return out;
}
std::uint32_t worldComponentCount(std::uintptr_t w) { return W(w).world.componentCount(); }
std::uint32_t worldComponentIdByName(std::uintptr_t w, std::string name) {
  return W(w).world.componentIdByName(name);
}

std::uint32_t worldAdd(std::uintptr_t w, std::uint32_t e, std::uint32_t c, std::uintptr_t bytes,
                       std::uint32_t size) {
  return code(W(w).world.addComponentBytes(ent(e), c, at<const void>(bytes), size));
}
std::uint32_t worldRemove(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  return code(W(w).world.removeComponentById(ent(e), c));
}
bool worldHas(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  return W(w).world.hasComponent(ent(e), c);
}
// The component's bytes in its column (0 when absent): valid until the next
// structural change; the TS layer copies them out at once.
std::uintptr_t worldGet(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  // The const overload: the TS get copies the value out (a read), so inside
  // a system it must not count as a get for writing.
  return reinterpret_cast<std::uintptr_t>(std::as_const(W(w).world).getBytes(ent(e), c));
}
std::uint32_t worldArchetypeOf(std::uintptr_t w, std::uint32_t e) { return W(w).world.archetypeOf(ent(e)); }
std::uint32_t worldArchetypeCount(std::uintptr_t w) { return W(w).world.archetypeCount(); }
val worldArchetypeComponents(std::uintptr_t w, std::uint32_t a) {
  val out = val::array();
  if (a > 0xFFFF) return out;
  for (laige::ComponentTypeId c : W(w).world.archetypeComponents(static_cast<laige::ArchetypeId>(a))) {
    out.call<void>("push", c);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Iteration (seed 004; DESIGN.md decision 5): the TS each runs over column
// views between beginIteration and endIteration.
// ---------------------------------------------------------------------------

std::uint32_t worldBeginIteration(std::uintptr_t w, std::uintptr_t ids, std::uintptr_t access, std::uint32_t n) {
  return code(W(w).world.beginIteration(std::span<const laige::ComponentTypeId>(at<const laige::ComponentTypeId>(ids), n),
                                        std::span<const laige::Access>(at<const laige::Access>(access), n)));
}
void worldEndIteration(std::uintptr_t w) { W(w).world.endIteration(); }
bool worldIsIterating(std::uintptr_t w) { return W(w).world.isIterating(); }

// For every archetype the live iteration matched (at most `max`), writes
// (3 + n) u32: archetype id, rows, slot column, then the column of ids[i]
// for each listed component. Returns the matched count.
std::uint32_t worldIterationCursors(std::uintptr_t w, std::uintptr_t ids, std::uint32_t n, std::uintptr_t out,
                                    std::uint32_t max) {
  laige::World& world = W(w).world;
  const std::uint32_t count = world.iterationArchetypeCount();
  const auto* cids = at<const laige::ComponentTypeId>(ids);
  auto* o = at<std::uint32_t>(out);
  for (std::uint32_t k = 0; k < count && k < max; ++k) {
    const laige::ArchetypeId a = world.iterationArchetype(k);
    std::uint32_t* row = o + k * (3 + n);
    row[0] = a;
    row[1] = world.archetypeRowCount(a);
    row[2] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(world.archetypeSlots(a)));
    for (std::uint32_t i = 0; i < n; ++i) {
      row[3 + i] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(world.archetypeColumn(a, cids[i])));
    }
  }
  return count;
}

// handles[r] = the live handle of slots[r], r < rows: the entity argument of
// the TS each and Chunk.entity (rows of a matched archetype are live, so the
// generation table suffices).
void worldFillHandles(std::uintptr_t w, std::uintptr_t slots, std::uint32_t rows, std::uintptr_t out) {
  const std::uint16_t* generations = W(w).world.generationTable();
  const auto* s = at<const std::uint32_t>(slots);
  auto* o = at<std::uint32_t>(out);
  for (std::uint32_t r = 0; r < rows; ++r) {
    const auto id = static_cast<std::uint16_t>(s[r]);
    o[r] = laige::Entity(id, generations[id]).bits();
  }
}

// Archetype column views outside an iteration (the same accessors the
// cursor uses; re-derive every call).
std::uint32_t worldArchetypeRowCount(std::uintptr_t w, std::uint32_t a) {
  return a > 0xFFFF ? 0u : W(w).world.archetypeRowCount(static_cast<laige::ArchetypeId>(a));
}

// ---------------------------------------------------------------------------
// Systems (DESIGN.md decision 6): every TypeScript system is the same C++
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
std::uint32_t worldRegisterSystem(std::uintptr_t w, std::string name, std::int32_t budgetRaw, std::string dependsOn,
                                  std::uintptr_t ids, std::uintptr_t access, std::uint32_t n, std::uintptr_t out) {
  JsWorld& jw = W(w);
  std::vector<laige::SystemIo> io(n + 1);
  for (std::uint32_t i = 0; i < n; ++i) {
    io[i].component = at<const std::uint32_t>(ids)[i];
    io[i].access = static_cast<laige::Access>(at<const std::uint8_t>(access)[i]);
  }
  auto nameStr = std::make_unique<std::string>(std::move(name));
  auto depStr = std::make_unique<std::string>(std::move(dependsOn));
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
std::uint32_t worldScheduleSystems(std::uintptr_t w) {
  JsWorld& jw = W(w);
  return code(jw.world.scheduleSystems(jw.schedule));
}
std::uint32_t worldScheduledCount(std::uintptr_t w) { return W(w).schedule.systemCount; }
val worldScheduleOrder(std::uintptr_t w) {
  val out = val::array();
  const laige::SystemSchedule& s = W(w).schedule;
  for (std::uint32_t i = 0; i < s.systemCount; ++i) out.call<void>("push", s.order[i]);
  return out;
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
val worldSystemInfo(std::uintptr_t w, std::uint32_t id) {
  auto r = W(w).world.system(laige::SystemId{id});
  if (r.isError()) return val::null();
  const laige::SystemInfo& si = r.value();
  val out = val::object();
  out.set("id", si.id.value);
  out.set("name", std::string(si.def.name != nullptr ? si.def.name : ""));
  out.set("budgetRaw", si.def.budgetMs.raw);
  out.set("dependsOn", std::string(si.def.dependsOn != nullptr ? si.def.dependsOn : ""));
  out.set("native", si.def.run != &jsSystemTrampoline);
  val io = val::array();
  for (std::uint32_t i = 0; i < si.ioCount(); ++i) {
    const laige::SystemIo x = si.ioAt(i);
    val a = val::array();
    a.call<void>("push", x.component, static_cast<std::uint32_t>(x.access));
    io.call<void>("push", a);
  }
  out.set("io", io);
  return out;
}
// SystemTimingStats as 4 doubles: runs, lastMs, warns, errors.
std::uint32_t worldSystemTimingStats(std::uintptr_t w, std::uint32_t id, std::uintptr_t out) {
  auto r = W(w).world.systemTimingStats(laige::SystemId{id});
  if (r.isError()) return code(r);
  double* o = at<double>(out);
  o[0] = static_cast<double>(r.value().runs);
  o[1] = r.value().lastMs;
  o[2] = r.value().warns;
  o[3] = r.value().errors;
  return 0;
}
// The rolling window: 8 doubles of HistogramStats (count, totalRecorded,
// min, max, mean, p50, p95, p99) then up to `max` samples, oldest first.
std::uint32_t worldSystemTimingWindow(std::uintptr_t w, std::uint32_t id, std::uintptr_t out, std::uint32_t max) {
  const laige::Histogram* h = W(w).world.systemTimingWindow(laige::SystemId{id});
  if (h == nullptr) return code(ErrorCode::InvalidArgument);
  const laige::HistogramStats s = h->stats();
  double* o = at<double>(out);
  o[0] = s.count;
  o[1] = static_cast<double>(s.totalRecorded);
  o[2] = s.min;
  o[3] = s.max;
  o[4] = s.mean;
  o[5] = s.p50;
  o[6] = s.p95;
  o[7] = s.p99;
  for (std::uint32_t i = 0; i < h->size() && i < max; ++i) o[8 + i] = h->sample(i);
  return 0;
}
// SystemRngState: u32 id, u32 hasSubstream, then seed, state1, state2 as u64.
std::uint32_t worldSystemRngState(std::uintptr_t w, std::uint32_t id, std::uintptr_t out) {
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
void worldSetJsTimingClock(std::uintptr_t w, bool js) {
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
  if (!(n >= 0) || n > static_cast<double>(jl.input.size())) return ErrorCode::Unknown;
  in.size = static_cast<std::uint32_t>(n);
  in.data = in.size > 0 ? jl.input.data() : nullptr;
  return Status{};
}
Status jsAfterTick(void* ctx, laige::World& /*world*/, std::uint64_t tick) noexcept {
  const std::int32_t r = laige_js_after_tick(reinterpret_cast<std::uintptr_t>(ctx), static_cast<double>(tick));
  return r == 0 ? Status{} : Status(ErrorCode::Unknown);
}

std::uint32_t loopCreate(std::uintptr_t w, std::uint32_t tickRateHz, std::uint32_t maxCatchUp, bool jsInput,
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
std::uint32_t loopInputBuffer(std::uintptr_t l, std::uint32_t size) {
  std::vector<std::uint8_t>& b = at<JsLoop>(l)->input;
  if (b.size() < size) b.resize(size);
  return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(b.data()));
}
std::uint32_t loopFrameAt(std::uintptr_t l, double nowNs) {
  return code(at<JsLoop>(l)->loop.frameAt(static_cast<std::int64_t>(nowNs)));
}
std::uint32_t loopStep(std::uintptr_t l, double n) {
  return code(at<JsLoop>(l)->loop.step(static_cast<std::uint64_t>(n)));
}
// GameLoopStats as 5 doubles: frames, ticks, droppedTicks, droppedFrames, startReferenceNs.
void loopStats(std::uintptr_t l, std::uintptr_t out) {
  const laige::GameLoop& loop = at<JsLoop>(l)->loop;
  const laige::GameLoopStats s = loop.stats();
  double* o = at<double>(out);
  o[0] = static_cast<double>(s.frames);
  o[1] = static_cast<double>(s.ticks);
  o[2] = static_cast<double>(s.droppedTicks);
  o[3] = static_cast<double>(s.droppedFrames);
  o[4] = static_cast<double>(loop.startReferenceNs());
}

// ---------------------------------------------------------------------------
// State hash and diff
// ---------------------------------------------------------------------------

void worldStateHash(std::uintptr_t w, std::uint32_t tickLo, std::uint32_t tickHi, std::uintptr_t out) {
  putU64(out, W(w).world.stateHash(u64(tickLo, tickHi)));
}
void worldComponentStateHash(std::uintptr_t w, std::uint32_t tickLo, std::uint32_t tickHi, std::uintptr_t out) {
  putU64(out, W(w).world.componentStateHash(u64(tickLo, tickHi)));
}
// {total, items: [{slot, componentId, size, presentInA, presentInB, bytesA, bytesB}]}
val worldStateDiff(std::uintptr_t a, std::uintptr_t b, std::uint32_t maxItems) {
  val items = val::array();
  const std::uint32_t total = W(a).world.stateDiff(W(b).world, maxItems, [&](const laige::StateDiffItem& it) {
    val o = val::object();
    o.set("slot", it.slot);
    o.set("componentId", it.componentId);
    o.set("size", it.size);
    o.set("presentInA", it.presentInA);
    o.set("presentInB", it.presentInB);
    o.set("bytesA", it.bytesA != nullptr ? bytesCopy(it.bytesA, it.size) : val::null());
    o.set("bytesB", it.bytesB != nullptr ? bytesCopy(it.bytesB, it.size) : val::null());
    items.call<void>("push", o);
  });
  val out = val::object();
  out.set("total", total);
  out.set("items", items);
  return out;
}

// ---------------------------------------------------------------------------
// Replay: in-memory recording, parse, run, diff (bytes in and out)
// ---------------------------------------------------------------------------

laige::ReplayConfig configOf(const laige::World& world, std::uint32_t tickRateHz, std::uint32_t math) {
  const laige::World::Options o = world.options();
  laige::ReplayConfig c;
  c.tickRateHz = tickRateHz;
  c.entityCapacity = o.capacity;
  c.churnPerFrameBudget = o.churnPerFrameBudget;
  c.seed = o.seed;
  c.determinism.enabled = o.deterministic;
  c.determinism.math = static_cast<laige::SimMathBackend>(math);
  return c;
}

val identityObject(const laige::ReplayIdentity& id) {
  val o = val::object();
  o.set("seed", hex64(id.seed));
  o.set("tickRateHz", id.tickRateHz);
  o.set("componentSchemaHash", hex64(id.componentSchemaHash));
  o.set("mathBackendId", id.mathBackendId);
  o.set("configHash", hex64(id.configHash));
  return o;
}

std::uint32_t replayWriterCreate(std::uintptr_t w, std::uint32_t tickRateHz, std::uint32_t math, double maxBytes,
                                 std::uintptr_t out) {
  const laige::World& world = W(w).world;
  auto r = laige::ReplayWriter::create(laige::makeReplayIdentity(world, configOf(world, tickRateHz, math)),
                                       static_cast<std::uint64_t>(maxBytes));
  if (r.isError()) return code(r);
  auto* writer = new laige::ReplayWriter(std::move(r).takeValue());
  *at<std::uint32_t>(out) = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(writer));
  return 0;
}
void replayWriterDestroy(std::uintptr_t r) { delete at<laige::ReplayWriter>(r); }
std::uint32_t replayWriterFrame(std::uintptr_t r, double tick, std::uintptr_t data, std::uint32_t len) {
  return code(at<laige::ReplayWriter>(r)->writeFrame(static_cast<std::uint64_t>(tick), at<const std::uint8_t>(data), len));
}
std::uint32_t replayWriterFinish(std::uintptr_t r) { return code(at<laige::ReplayWriter>(r)->finish()); }
double replayWriterFrameCount(std::uintptr_t r) { return static_cast<double>(at<laige::ReplayWriter>(r)->frameCount()); }
val replayWriterBytes(std::uintptr_t r) {
  const std::vector<std::uint8_t>& b = at<laige::ReplayWriter>(r)->bytes();
  return bytesCopy(b.data(), b.size());
}

// {code, reason, offset, identity, frameCount, frames: [[tick, size]...]}
val replayParse(std::uintptr_t data, std::uint32_t size) {
  laige::ReplayParseError why;
  auto r = laige::parseReplay(at<const std::uint8_t>(data), size, &why);
  val o = val::object();
  o.set("code", code(r));
  o.set("reason", std::string(why.reason != nullptr ? why.reason : ""));
  o.set("offset", static_cast<double>(why.offset));
  if (r.ok()) {
    const laige::ReplayLog& log = r.value();
    o.set("identity", identityObject(log.identity));
    o.set("frameCount", static_cast<double>(log.frameCount()));
    val frames = val::array();
    for (const laige::ReplayFrame& f : log.frames) {
      val a = val::array();
      a.call<void>("push", static_cast<double>(f.tick), f.size);
      frames.call<void>("push", a);
    }
    o.set("frames", frames);
  }
  return o;
}

// Runs the log into world `w` (fresh, set up like the recording). {code, hashes: Uint32Array (lo, hi)...}
val replayRun(std::uintptr_t w, std::uintptr_t data, std::uint32_t size, std::uint32_t tickRateHz, std::uint32_t math) {
  val o = val::object();
  auto log = laige::parseReplay(at<const std::uint8_t>(data), size);
  if (log.isError()) {
    o.set("code", code(log));
    return o;
  }
  laige::World& world = W(w).world;
  auto r = laige::runReplay(log.value(), world, configOf(world, tickRateHz, math));
  o.set("code", code(r));
  if (r.ok()) o.set("hashes", u64Pairs(r.value().tickHashes));
  return o;
}

// Diffs two logs in two fresh worlds set up alike. {code, identical, firstDivergentTick, ...}
val replayDiff(std::uintptr_t wa, std::uintptr_t wb, std::uintptr_t dataA, std::uint32_t sizeA, std::uintptr_t dataB,
               std::uint32_t sizeB, std::uint32_t tickRateHz, std::uint32_t math, std::uint32_t maxEntries) {
  val o = val::object();
  auto la = laige::parseReplay(at<const std::uint8_t>(dataA), sizeA);
  if (la.isError()) {
    o.set("code", code(la));
    o.set("which", std::string("a"));
    return o;
  }
  auto lb = laige::parseReplay(at<const std::uint8_t>(dataB), sizeB);
  if (lb.isError()) {
    o.set("code", code(lb));
    o.set("which", std::string("b"));
    return o;
  }
  laige::World& a = W(wa).world;
  laige::World& b = W(wb).world;
  auto r = laige::diffReplays(la.value(), lb.value(), a, b, configOf(a, tickRateHz, math), configOf(b, tickRateHz, math),
                              maxEntries);
  o.set("code", code(r));
  if (r.isError()) return o;
  const laige::ReplayDiffResult& d = r.value();
  o.set("identical", d.identical);
  o.set("firstDivergentTick", static_cast<double>(d.firstDivergentTick));
  o.set("lengthDivergence", d.lengthDivergence);
  o.set("fullStateDivergent", d.fullStateDivergent);
  o.set("framesA", static_cast<double>(d.framesA));
  o.set("framesB", static_cast<double>(d.framesB));
  o.set("differingItems", d.differingItems);
  val entries = val::array();
  for (const laige::ReplayDiffEntry& e : d.entries) {
    val x = val::object();
    x.set("slot", e.slot);
    x.set("componentId", e.componentId);
    x.set("size", e.size);
    x.set("presentInA", e.presentInA);
    x.set("presentInB", e.presentInB);
    x.set("bytesA", bytesCopy(e.a.data(), e.a.size()));
    x.set("bytesB", bytesCopy(e.b.data(), e.b.size()));
    entries.call<void>("push", x);
  }
  o.set("entries", entries);
  return o;
}

// ---------------------------------------------------------------------------
// Scenarios (DESIGN.md decision 10): the same C++ as laige-detcheck
// ---------------------------------------------------------------------------

val scenarioList() {
  val out = val::array();
  for (std::uint32_t i = 0; i < laige::scenarioCount(); ++i) {
    const laige::Scenario* s = laige::scenarioAt(i);
    val o = val::object();
    o.set("name", std::string(s->name));
    o.set("description", std::string(s->description));
    o.set("defaultSeed", hex64(s->defaultSeed));
    o.set("defaultTicks", s->defaultTicks);
    o.set("tickRateHz", s->tickRateHz);
    o.set("capacity", s->capacity);
    o.set("churnPerFrameBudget", s->churnPerFrameBudget);
    o.set("math", static_cast<std::uint32_t>(s->math));
    out.call<void>("push", o);
  }
  return out;
}

void appendHashLine(void* ctx, std::uint64_t tick, std::uint64_t hash) noexcept {
  char line[laige::kHashLineCapacity];
  const std::uint32_t n = laige::formatHashLine(tick, hash, line);
  static_cast<std::string*>(ctx)->append(line, n);
}

// {code, text}: text is the `<tick> <hash>` stream laige-detcheck prints.
val scenarioRun(std::string name, std::uint32_t seedLo, std::uint32_t seedHi, bool defaultSeed, std::uint32_t ticks,
                bool defaultTicks) {
  val o = val::object();
  const laige::Scenario* s = laige::findScenario(name);
  if (s == nullptr) {
    o.set("code", code(ErrorCode::InvalidArgument));
    return o;
  }
  std::string text;
  auto r = laige::runScenario(*s, defaultSeed ? s->defaultSeed : u64(seedLo, seedHi),
                              defaultTicks ? s->defaultTicks : ticks, &appendHashLine, &text);
  o.set("code", code(r));
  if (r.ok()) o.set("text", text);
  return o;
}

// ---------------------------------------------------------------------------
// Scenario runs: a C++ scenario stepped tick by tick inside a world the TS
// World wrapper reads (the demo's live view). The handle is a JsWorld
// pointer: the world* bindings and worldDestroy take it as is.
// ---------------------------------------------------------------------------

std::uint32_t scenarioOpen(std::string name, std::uint32_t seedLo, std::uint32_t seedHi, bool defaultSeed,
                           std::uintptr_t out) {
  const laige::Scenario* s = laige::findScenario(name);
  if (s == nullptr) return code(ErrorCode::InvalidArgument);
  auto r = laige::ScenarioRun::create(*s, defaultSeed ? s->defaultSeed : u64(seedLo, seedHi));
  if (r.isError()) return code(r);
  auto* jw = new JsWorld(std::move(r).takeValue());
  *at<std::uint32_t>(out) = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(jw));
  return 0;
}
bool scenarioIsRun(std::uintptr_t w) { return W(w).run.has_value(); }
// given: run the tick with `size` bytes at `data` as its input payload (size
// 0 = no payload); else with the scenario's own generated input.
std::uint32_t scenarioStep(std::uintptr_t w, bool given, std::uintptr_t data, std::uint32_t size) {
  JsWorld& jw = W(w);
  if (!jw.run) return code(ErrorCode::InvalidArgument);
  if (!given) return code(jw.run->step());
  laige::TickInput in;
  in.data = size > 0 ? at<const std::uint8_t>(data) : nullptr;
  in.size = size;
  return code(jw.run->step(in));
}
// The payload the scenario's generator produces for `tick` (a copy; empty
// without a generator or a payload on that tick).
val scenarioGeneratedInput(std::uintptr_t w, double tick) {
  JsWorld& jw = W(w);
  if (!jw.run) return bytesCopy(nullptr, 0);
  const laige::TickInput in = jw.run->generatedInput(static_cast<std::uint64_t>(tick));
  return bytesCopy(in.data, in.size);
}
double scenarioTick(std::uintptr_t w) { return W(w).run ? static_cast<double>(W(w).run->tick()) : 0.0; }
void scenarioHash(std::uintptr_t w, std::uintptr_t out) { putU64(out, W(w).run ? W(w).run->hash() : 0); }

}  // namespace

// ---------------------------------------------------------------------------
// The per-entity hot path as plain wasm exports, not embind functions: an
// embind call runs a generated JS invoker (argument-count check, a wire-type
// conversion per argument, an indirect call through a C++ thunk) that costs
// more than the core call it wraps. raw.ts calls these straight through the
// instance's exports under the embind names the rest of web/src uses. The
// TS layer validates every argument first; booleans come back as 0/1.
// ---------------------------------------------------------------------------
extern "C" {
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_create_entity(std::uintptr_t w, std::uintptr_t out) {
  return worldCreateEntity(w, out);
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_destroy_entity(std::uintptr_t w, std::uint32_t e) {
  return worldDestroyEntity(w, e);
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_is_valid(std::uintptr_t w, std::uint32_t e) {
  return worldIsValid(w, e) ? 1u : 0u;
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_add(std::uintptr_t w, std::uint32_t e, std::uint32_t c,
                                                   std::uintptr_t bytes, std::uint32_t size) {
  return worldAdd(w, e, c, bytes, size);
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_remove(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  return worldRemove(w, e, c);
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_has(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  return worldHas(w, e, c) ? 1u : 0u;
}
EMSCRIPTEN_KEEPALIVE std::uintptr_t laige_world_get(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  return worldGet(w, e, c);
}
// Once per each / eachChunk call.
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_begin_iteration(std::uintptr_t w, std::uintptr_t ids,
                                                               std::uintptr_t access, std::uint32_t n) {
  return worldBeginIteration(w, ids, access, n);
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_iteration_cursors(std::uintptr_t w, std::uintptr_t ids, std::uint32_t n,
                                                                 std::uintptr_t out, std::uint32_t max) {
  return worldIterationCursors(w, ids, n, out, max);
}
EMSCRIPTEN_KEEPALIVE void laige_world_end_iteration(std::uintptr_t w) { worldEndIteration(w); }
EMSCRIPTEN_KEEPALIVE void laige_world_fill_handles(std::uintptr_t w, std::uintptr_t slots, std::uint32_t rows,
                                                   std::uintptr_t out) {
  worldFillHandles(w, slots, rows, out);
}
}  // extern "C"

EMSCRIPTEN_BINDINGS(laige_sim) {
  using emscripten::function;
  // Module
  function("version", &versionString);
  function("errorLine", &errorLine);
  function("logInstallJsSink", &logInstallJsSink);
  function("logSetLevel", &logSetLevel);
  function("logSetRateLimiting", &logSetRateLimiting);
  function("logShutdown", &logShutdown);
  // World
  function("worldCreate", &worldCreate);
  function("worldDestroy", &worldDestroy);
  function("worldCheck", &worldCheck);
  function("worldCapacity", &worldCapacity);
  function("worldEntityCount", &worldEntityCount);
  function("worldClear", &worldClear);
  function("worldHandleAt", &worldHandleAt);
  function("worldBeginFrame", &worldBeginFrame);
  function("worldStats", &worldStats);
  function("worldGuardrailStats", &worldGuardrailStats);
  function("worldArchetypeStats", &worldArchetypeStats);
  // Components
  function("worldRegisterComponent", &worldRegisterComponent);
  function("worldComponentInfo", &worldComponentInfo);
  function("worldComponentCount", &worldComponentCount);
  function("worldComponentIdByName", &worldComponentIdByName);
  function("worldArchetypeOf", &worldArchetypeOf);
  function("worldArchetypeCount", &worldArchetypeCount);
  function("worldArchetypeComponents", &worldArchetypeComponents);
  function("worldArchetypeRowCount", &worldArchetypeRowCount);
  // Iteration
  function("worldBeginIteration", &worldBeginIteration);
  function("worldEndIteration", &worldEndIteration);
  function("worldIsIterating", &worldIsIterating);
  function("worldIterationCursors", &worldIterationCursors);
  function("worldFillHandles", &worldFillHandles);
  // Systems
  function("worldRegisterSystem", &worldRegisterSystem);
  function("worldScheduleSystems", &worldScheduleSystems);
  function("worldScheduledCount", &worldScheduledCount);
  function("worldScheduleOrder", &worldScheduleOrder);
  function("worldRunSystems", &worldRunSystems);
  function("worldSystemCount", &worldSystemCount);
  function("worldSystemTicksRun", &worldSystemTicksRun);
  function("worldSystemInfo", &worldSystemInfo);
  function("worldSystemTimingStats", &worldSystemTimingStats);
  function("worldSystemTimingWindow", &worldSystemTimingWindow);
  function("worldSystemRngState", &worldSystemRngState);
  function("worldSetJsTimingClock", &worldSetJsTimingClock);
  function("prngNextU32", &prngNextU32);
  function("prngNextU64", &prngNextU64);
  function("prngNextRange", &prngNextRange);
  function("prngNextFloat01", &prngNextFloat01);
  // GameLoop
  function("loopCreate", &loopCreate);
  function("loopDestroy", &loopDestroy);
  function("loopInputBuffer", &loopInputBuffer);
  function("loopFrameAt", &loopFrameAt);
  function("loopStep", &loopStep);
  function("loopStats", &loopStats);
  // State hash and diff
  function("worldStateHash", &worldStateHash);
  function("worldComponentStateHash", &worldComponentStateHash);
  function("worldStateDiff", &worldStateDiff);
  // Replay
  function("replayWriterCreate", &replayWriterCreate);
  function("replayWriterDestroy", &replayWriterDestroy);
  function("replayWriterFrame", &replayWriterFrame);
  function("replayWriterFinish", &replayWriterFinish);
  function("replayWriterFrameCount", &replayWriterFrameCount);
  function("replayWriterBytes", &replayWriterBytes);
  function("replayParse", &replayParse);
  function("replayRun", &replayRun);
  function("replayDiff", &replayDiff);
  // Scenarios
  function("scenarioList", &scenarioList);
  function("scenarioRun", &scenarioRun);
  function("scenarioOpen", &scenarioOpen);
  function("scenarioIsRun", &scenarioIsRun);
  function("scenarioStep", &scenarioStep);
  function("scenarioGeneratedInput", &scenarioGeneratedInput);
  function("scenarioTick", &scenarioTick);
  function("scenarioHash", &scenarioHash);
}
