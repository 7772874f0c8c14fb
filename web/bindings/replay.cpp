// replay.cpp - replays (record, parse, run, diff), scenarios and scenario runs
// (part of the binding layer: web/bindings/common.h says how it is built).
#include "common.h"
#include "replay_config.h"

using namespace laige_wasm;

namespace {

// ---------------------------------------------------------------------------
// Replay: in-memory recording, parse, run, diff (bytes in and out)
// ---------------------------------------------------------------------------

void identityObject(Json& out, const laige::ReplayIdentity& id) {
  out.beginObject();
  out.key("seed").hex64(id.seed);
  out.field("tickRateHz", id.tickRateHz);
  out.key("componentSchemaHash").hex64(id.componentSchemaHash);
  out.field("mathBackendId", id.mathBackendId);
  out.key("configHash").hex64(id.configHash);
  out.endObject();
}

// A recorder of world `w` (keyframeEvery 0: none); its pointer as a u32 at `out`.
std::uint32_t replayWriterCreateKeyframed(std::uintptr_t w, std::uint32_t tickRateHz, std::uint32_t math,
                                          double maxBytes, std::uint32_t keyframeEvery, std::uintptr_t out) {
  const laige::World& world = W(w).world;
  auto r = laige::ReplayWriter::create(laige::makeReplayIdentity(world, configOf(world, tickRateHz, math)),
                                       static_cast<std::uint64_t>(maxBytes), keyframeEvery);
  if (r.isError()) return code(r);
  auto* writer = new laige::ReplayWriter(std::move(r).takeValue());
  *at<std::uint32_t>(out) = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(writer));
  return 0;
}
std::uint32_t replayWriterCreate(std::uintptr_t w, std::uint32_t tickRateHz, std::uint32_t math, double maxBytes,
                                 std::uintptr_t out) {
  return replayWriterCreateKeyframed(w, tickRateHz, math, maxBytes, 0, out);
}
std::uint32_t replayWriterKeyframe(std::uintptr_t r, std::uintptr_t w) {
  return code(at<laige::ReplayWriter>(r)->writeKeyframe(W(w).world));
}
double replayWriterKeyframeCount(std::uintptr_t r) {
  return static_cast<double>(at<laige::ReplayWriter>(r)->keyframeCount());
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
std::span<const std::uint8_t> replayWriterBytes(std::uintptr_t r) {
  const std::vector<std::uint8_t>& b = at<laige::ReplayWriter>(r)->bytes();
  return {b.data(), b.size()};
}

// {code, reason, offset, identity, frameCount, frames: [[tick, size]...]}
void replayParse(Json& out, std::uintptr_t data, std::uint32_t size) {
  laige::ReplayParseError why;
  auto r = laige::parseReplay(at<const std::uint8_t>(data), size, &why);
  out.beginObject()
      .field("code", code(r))
      .field("reason", why.reason != nullptr ? why.reason : "")
      .field("offset", std::uint64_t{why.offset});
  if (r.ok()) {
    const laige::ReplayLog& log = r.value();
    out.key("identity");
    identityObject(out, log.identity);
    out.field("frameCount", std::uint64_t{log.frameCount()});
    out.key("frames").beginArray();
    for (const laige::ReplayFrame& f : log.frames) out.beginArray().integer(std::uint64_t{f.tick}).integer(f.size).endArray();
    out.endArray();
    out.field("formatVersion", std::uint32_t{log.formatVersion});
    out.key("keyframes").beginArray();
    for (const laige::ReplayKeyframe& k : log.keyframes) {
      out.beginArray().integer(std::uint64_t{k.tick}).integer(std::uint64_t{k.size}).endArray();
    }
    out.endArray();
  }
  out.endObject();
}

// Runs the log into world `w` (fresh, set up like the recording).
// {code, hashes: [lo, hi, lo, hi, ...]} (the u64 hashes as u32 halves).
void replayRun(Json& out, std::uintptr_t w, std::uintptr_t data, std::uint32_t size, std::uint32_t tickRateHz, std::uint32_t math) {
  out.beginObject();
  auto log = laige::parseReplay(at<const std::uint8_t>(data), size);
  if (log.isError()) {
    out.field("code", code(log)).endObject();
    return;
  }
  laige::World& world = W(w).world;
  auto r = laige::runReplay(log.value(), world, configOf(world, tickRateHz, math));
  out.field("code", code(r));
  if (r.ok()) {
    out.key("hashes").beginArray();
    for (const std::uint64_t h : r.value().tickHashes) {
      out.integer(static_cast<std::uint32_t>(h)).integer(static_cast<std::uint32_t>(h >> 32));
    }
    out.endArray();
  }
  out.endObject();
}

// ---------------------------------------------------------------------------
// Scenarios (docs/scenarios.md): the same C++ as laige-detcheck
// ---------------------------------------------------------------------------

void scenarioList(Json& out) {
  out.beginArray();
  for (std::uint32_t i = 0; i < laige::scenarioCount(); ++i) {
    const laige::Scenario* s = laige::scenarioAt(i);
    out.beginObject().field("name", s->name).field("description", s->description);
    out.key("defaultSeed").hex64(s->defaultSeed);
    out.field("defaultTicks", s->defaultTicks)
        .field("tickRateHz", s->tickRateHz)
        .field("capacity", s->capacity)
        .field("churnPerFrameBudget", s->churnPerFrameBudget)
        .field("math", static_cast<std::uint32_t>(s->math))
        .endObject();
  }
  out.endArray();
}

void appendHashLine(void* ctx, std::uint64_t tick, std::uint64_t hash) noexcept {
  char line[laige::kHashLineCapacity];
  const std::uint32_t n = laige::formatHashLine(tick, hash, line);
  static_cast<std::string*>(ctx)->append(line, n);
}

// {code, text}: text is the `<tick> <hash>` stream laige-detcheck prints.
void scenarioRun(Json& out, std::string_view name, std::uint32_t seedLo, std::uint32_t seedHi, bool defaultSeed,
                 std::uint32_t ticks, bool defaultTicks) {
  out.beginObject();
  const laige::Scenario* s = laige::findScenario(name);
  if (s == nullptr) {
    out.field("code", code(laige::scenarioUnknown(name))).endObject();
    return;
  }
  std::string text;
  auto r = laige::runScenario(*s, defaultSeed ? s->defaultSeed : u64(seedLo, seedHi),
                              defaultTicks ? s->defaultTicks : ticks, &appendHashLine, &text);
  out.field("code", code(r));
  if (r.ok()) out.field("text", std::string_view(text));
  out.endObject();
}

// ---------------------------------------------------------------------------
// Scenario runs: a C++ scenario stepped tick by tick inside a world the TS
// World wrapper reads (the demo's live view). The handle is a JsWorld
// pointer: the world* bindings and worldDestroy take it as is.
// ---------------------------------------------------------------------------

std::uint32_t scenarioOpen(std::string_view name, std::uint32_t seedLo, std::uint32_t seedHi, bool defaultSeed,
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
std::span<const std::uint8_t> scenarioGeneratedInput(std::uintptr_t w, double tick) {
  JsWorld& jw = W(w);
  if (!jw.run) return {};
  const laige::TickInput in = jw.run->generatedInput(static_cast<std::uint64_t>(tick));
  return {in.data, in.size};
}
double scenarioTick(std::uintptr_t w) { return W(w).run ? static_cast<double>(W(w).run->tick()) : 0.0; }
void scenarioHash(std::uintptr_t w, std::uintptr_t out) { putU64(out, W(w).run ? W(w).run->hash() : 0); }


}  // namespace

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_REPLAY
#include "registrations.gen.inc"
