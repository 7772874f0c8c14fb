// replay.cpp - replays (record, parse, run, diff), scenarios and scenario runs
// (part of the embind layer: web/bindings/common.h says how it is built).
#include "common.h"

using namespace laige_wasm;
using emscripten::val;

namespace {

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
std::uint32_t replayWriterCanWrite(std::uintptr_t r, std::uint32_t len) {
  return code(at<laige::ReplayWriter>(r)->canWriteFrame(len));
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
// Scenarios (docs/scenarios.md): the same C++ as laige-detcheck
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
    o.set("code", code(laige::scenarioUnknown(name)));
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
  if (s == nullptr) return code(laige::scenarioUnknown(name));
  auto r = laige::ScenarioRun::create(*s, defaultSeed ? s->defaultSeed : u64(seedLo, seedHi));
  if (r.isError()) return code(r);
  auto* jw = new JsWorld(std::move(r).takeValue());
  *at<std::uint32_t>(out) = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(jw));
  return 0;
}
// given: run the tick with `size` bytes at `data` as its input payload (size
// 0 = no payload); else with the scenario's own generated input.
std::uint32_t scenarioStep(std::uintptr_t w, bool given, std::uintptr_t data, std::uint32_t size) {
  JsWorld& jw = W(w);
  if (!jw.run) return fail(ErrorCode::InvalidArgument, "scenario_not_a_run");
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

// The exports and embind registrations web/boundary.json lists for this file.
#define LAIGE_BINDINGS_REPLAY
#include "registrations.gen.inc"
