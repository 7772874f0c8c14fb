// replay_run_test.cpp - runReplay: the payload really drives the systems
// (SystemContext::input and ::tick per frame), the hash stream's shape, the
// rejections in their order with their events, and no per-tick allocation.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "laige/replay.h"
#include "scenario.h"
#include "support/counting_allocator.h"
#include "support/log_capture.h"
#include "support/replay_scene.h"

namespace laige {
namespace {

using Payloads = std::vector<std::vector<std::uint8_t>>;

/// A component only some worlds register (a schema difference).
struct RpExtra {
  std::uint32_t v;
};
LAIGE_COMPONENT(RpExtra, v);

ReplayLog parse(const std::vector<std::uint8_t>& bytes) {
  return parseReplay(bytes.data(), bytes.size()).takeValue();
}

/// The scene's observable state: every live slot's handle and components.
std::vector<std::int64_t> snapshot(World& w) {
  std::vector<std::int64_t> out;
  for (std::uint32_t s = 0; s < w.capacity(); ++s) {
    const Entity e = w.handleAt(static_cast<std::uint16_t>(s));
    if (e.isNull()) continue;
    out.push_back(e.bits());
    if (const auto* a = w.get<test::RpAccum>(e)) out.insert(out.end(), {a->value, a->mix});
    if (const auto* p = w.get<test::RpPos>(e)) out.insert(out.end(), {p->x, p->y});
  }
  return out;
}

/// Runs the scene live (no replay): the reference the replay must equal.
std::vector<std::int64_t> liveRun(const ReplayConfig& c, const Payloads& payloads) {
  World w = test::rpWorld(c);
  SystemSchedule s;
  EXPECT_TRUE(w.scheduleSystems(s).ok());
  for (const auto& p : payloads) {
    w.beginFrame();
    const TickInput in{p.empty() ? nullptr : p.data(), static_cast<std::uint32_t>(p.size())};
    EXPECT_TRUE(w.runSystems(s, in).ok());
  }
  return snapshot(w);
}

TEST(ReplayRun, ReplayEqualsTheLiveRunAndHasFramesPlusOneHashes) {
  const ReplayConfig c = test::rpConfig();
  const Payloads payloads = test::rpPayloads(60);
  const ReplayLog log = parse(test::rpRecord(c, payloads));
  World w = test::rpWorld(c);
  const Result<ReplayRunResult> r = runReplay(log, w, c);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().tickHashes.size(), 61u);
  EXPECT_EQ(w.systemTicksRun(), 60u);
  EXPECT_EQ(snapshot(w), liveRun(c, payloads));
  // Spawns (0xFF) and destroys (0xFE) happened, so structure was replayed too.
  EXPECT_NE(w.entityCount(), 3u);
}

TEST(ReplayRun, SameLogGivesTheSameHashStream) {
  const ReplayConfig c = test::rpConfig();
  const ReplayLog log = parse(test::rpRecord(c, test::rpPayloads(40)));
  World a = test::rpWorld(c);
  World b = test::rpWorld(c);
  EXPECT_EQ(runReplay(log, a, c).value().tickHashes, runReplay(log, b, c).value().tickHashes);
}

TEST(ReplayRun, IndexZeroIsTheInitialState) {
  const ReplayConfig c = test::rpConfig();
  World a = test::rpWorld(c);
  const auto empty = runReplay(parse(test::rpRecord(c, {})), a, c).value().tickHashes;
  ASSERT_EQ(empty.size(), 1u);
  World b = test::rpWorld(c);
  const auto full = runReplay(parse(test::rpRecord(c, test::rpPayloads(5))), b, c).value().tickHashes;
  EXPECT_EQ(full[0], empty[0]);
  EXPECT_NE(full[1], full[0]);
}

TEST(ReplayRun, OnePayloadByteChangesTheStreamFromItsTickOn) {
  const ReplayConfig c = test::rpConfig();
  Payloads payloads = test::rpPayloads(30);
  World a = test::rpWorld(c);
  const auto base = runReplay(parse(test::rpRecord(c, payloads)), a, c).value().tickHashes;
  ASSERT_FALSE(payloads[11].empty());
  payloads[11].back() ^= 0x40;  // tick 12
  World b = test::rpWorld(c);
  const auto changed = runReplay(parse(test::rpRecord(c, payloads)), b, c).value().tickHashes;
  ASSERT_EQ(changed.size(), base.size());
  for (std::size_t t = 0; t < 12; ++t) EXPECT_EQ(changed[t], base[t]) << "tick " << t;
  for (std::size_t t = 12; t < base.size(); ++t) EXPECT_NE(changed[t], base[t]) << "tick " << t;
}

// A system that records what it is handed (the test's own bookkeeping may allocate).
struct Seen {
  std::vector<std::uint64_t> ticks;
  Payloads inputs;
  std::vector<bool> nullInput;
};
void recordInput(World&, SystemContext& ctx) {
  auto& seen = *static_cast<Seen*>(ctx.userData);
  seen.ticks.push_back(ctx.tick);
  seen.inputs.emplace_back(ctx.input, ctx.input + ctx.inputSize);
  seen.nullInput.push_back(ctx.input == nullptr);
}

TEST(ReplayRun, SystemsSeeEachFramesPayloadAndTick) {
  const ReplayConfig c = test::rpConfig();
  Seen seen;
  World w = World::create(worldOptionsFor(c)).takeValue();
  SystemDef d;
  d.name = "Recorder";
  d.run = &recordInput;
  d.budgetMs = fpx16_16::fromInt32(100);
  d.userData = &seen;
  ASSERT_TRUE(w.registerSystem(d, nullptr, 0).ok());
  ReplayLog log;
  log.identity = makeReplayIdentity(w, c);
  const Payloads payloads = {{1, 2, 3}, {}, {0xff}, {9, 8}};
  for (const auto& p : payloads) ASSERT_TRUE(log.appendFrame(p.data(), static_cast<std::uint32_t>(p.size())).ok());
  ASSERT_TRUE(runReplay(log, w, c).ok());
  EXPECT_EQ(seen.ticks, (std::vector<std::uint64_t>{1, 2, 3, 4}));
  EXPECT_EQ(seen.inputs, payloads);
  EXPECT_TRUE(seen.nullInput[1]);  // an empty payload is nullptr + 0
  EXPECT_FALSE(seen.nullInput[0]);
}

TEST(ReplayRun, HandBuiltLogEqualsTheParsedOne) {
  const ReplayConfig c = test::rpConfig();
  const Payloads payloads = test::rpPayloads(20);
  World w0 = test::rpWorld(c);
  ReplayLog built;
  built.identity = makeReplayIdentity(w0, c);
  for (const auto& p : payloads) {
    ASSERT_TRUE(built.appendFrame(p.data(), static_cast<std::uint32_t>(p.size())).ok());
  }
  EXPECT_EQ(built.appendFrame(nullptr, 3).error(), ErrorCode::InvalidArgument);
  const ReplayLog parsed = parse(test::rpRecord(c, payloads));
  EXPECT_EQ(built.identity, parsed.identity);
  EXPECT_EQ(built.payload, parsed.payload);
  World a = test::rpWorld(c);
  World b = test::rpWorld(c);
  EXPECT_EQ(runReplay(built, a, c).value().tickHashes, runReplay(parsed, b, c).value().tickHashes);
}

TEST(ReplayRun, IdentityMismatchReportsEachFieldWithBothValues) {
  test::LogCapture logs;
  const ReplayConfig c = test::rpConfig();
  const ReplayLog log = parse(test::rpRecord(c, test::rpPayloads(3)));

  struct Case {
    const char* field;
    const char* key;
    ReplayConfig config;
  };
  std::vector<Case> cases;
  ReplayConfig x = c;
  x.seed = 8;
  cases.push_back({"seed", "log_seed", x});
  x = c;
  x.tickRateHz = 30;
  cases.push_back({"tickRateHz", "log_tick_rate_hz", x});
  x = c;
  x.determinism.math = SimMathBackend::FloatPinned32;
  cases.push_back({"mathBackendId", "log_math_backend_id", x});
  x = c;
  x.churnPerFrameBudget = 9;  // only the config hash sees it
  cases.push_back({"configHash", "log_config_hash", x});
  for (const Case& k : cases) {
    logs.sink->clear();
    logs.advance(10'000);  // a new rate-limit window per case
    World w = test::rpWorld(k.config);
    EXPECT_EQ(runReplay(log, w, k.config).error(), ErrorCode::InvalidArgument) << k.field;
    ASSERT_EQ(logs.count("replay", "identity_mismatch"), 1u) << k.field;
    const auto& rec = logs.sink->records().back();
    EXPECT_NE(rec.fieldValue("mismatch").find(k.field), std::string::npos) << rec.line;
    EXPECT_TRUE(rec.hasField(k.key)) << rec.line;
    EXPECT_EQ(w.systemTicksRun(), 0u);  // rejected before running anything
  }
  // The schema: one more registered component.
  logs.sink->clear();
  logs.advance(10'000);
  World w = test::rpWorld(c);
  ASSERT_TRUE(w.registerComponent<RpExtra>().ok());
  EXPECT_EQ(runReplay(log, w, c).error(), ErrorCode::InvalidArgument);
  ASSERT_EQ(logs.count("replay", "identity_mismatch"), 1u);
  const auto& rec = logs.sink->records().back();
  EXPECT_EQ(rec.fieldValue("mismatch"), "componentSchemaHash");
  EXPECT_EQ(rec.fieldValue("log_component_schema_hash").size(), 16u);
  EXPECT_NE(rec.fieldValue("log_component_schema_hash"), rec.fieldValue("expected_component_schema_hash"));
}

TEST(ReplayRun, DeterminismDisabledIsRejected) {
  test::LogCapture logs;
  ReplayConfig c = test::rpConfig();
  c.determinism.enabled = false;
  const ReplayLog log = parse(test::rpRecord(c, test::rpPayloads(3)));  // identity matches
  World w = test::rpWorld(c);
  EXPECT_EQ(runReplay(log, w, c).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("replay", "determinism_disabled"), 1u);
  EXPECT_EQ(logs.count("replay", "identity_mismatch"), 0u);
}

TEST(ReplayRun, WorldMustBeFreshAndBuiltFromTheConfig) {
  test::LogCapture logs;
  const ReplayConfig c = test::rpConfig();
  const ReplayLog log = parse(test::rpRecord(c, test::rpPayloads(3)));
  ReplayConfig other = c;
  other.entityCapacity = 65;
  World w = test::rpWorld(other);  // a world the config does not describe
  EXPECT_EQ(runReplay(log, w, c).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("replay", "config_world_mismatch"), 1u);

  logs.advance(10'000);
  World used = test::rpWorld(c);
  ASSERT_TRUE(runReplay(log, used, c).ok());
  EXPECT_EQ(runReplay(log, used, c).error(), ErrorCode::InvalidArgument);  // already ran 3 ticks
  EXPECT_EQ(logs.count("replay", "config_world_mismatch"), 2u);
  World moved;
  EXPECT_EQ(runReplay(log, moved, c).error(), ErrorCode::InvalidArgument);
}

TEST(ReplayRun, InconsistentHandBuiltLogIsMalformedInput) {
  test::LogCapture logs;
  const ReplayConfig c = test::rpConfig();
  World w = test::rpWorld(c);
  ReplayLog log;
  log.identity = makeReplayIdentity(w, c);
  ASSERT_TRUE(log.appendFrame(nullptr, 0).ok());
  ASSERT_TRUE(log.appendFrame(nullptr, 0).ok());
  log.frames[1].tick = 5;
  EXPECT_EQ(runReplay(log, w, c).error(), ErrorCode::MalformedInput);
  log.frames[1].tick = 2;
  log.frames[1].size = 4;  // past the payload buffer
  EXPECT_EQ(runReplay(log, w, c).error(), ErrorCode::MalformedInput);
  EXPECT_GE(logs.count("replay", "log_invalid"), 1u);
  EXPECT_EQ(w.systemTicksRun(), 0u);
}

void noop(World&, SystemContext&) {}

TEST(ReplayRun, ScheduleErrorsPropagate) {
  const ReplayConfig c = test::rpConfig();
  World w = World::create(worldOptionsFor(c)).takeValue();
  SystemDef d;
  d.name = "Lonely";
  d.run = &noop;
  d.budgetMs = fpx16_16::fromInt32(1);
  d.dependsOn = "Missing";
  ASSERT_TRUE(w.registerSystem(d, nullptr, 0).ok());
  ReplayLog log;
  log.identity = makeReplayIdentity(w, c);
  EXPECT_EQ(runReplay(log, w, c).error(), ErrorCode::InvalidArgument);
}

TEST(ReplayRun, ProgressIsReportedAtEachIntervalAndAtTheEnd) {
  const ReplayConfig c = test::rpConfig();
  const ReplayLog log = parse(test::rpRecord(c, test::rpPayloads(25)));
  World w = test::rpWorld(c);
  std::vector<std::uint64_t> calls;
  ReplayProgress p;
  p.fn = [](void* ctx, std::uint64_t done, std::uint64_t total) noexcept {
    static_cast<std::vector<std::uint64_t>*>(ctx)->push_back(done * 1000 + total);
  };
  p.ctx = &calls;
  p.interval = 10;
  ASSERT_TRUE(runReplay(log, w, c, &p).ok());
  EXPECT_EQ(calls, (std::vector<std::uint64_t>{10025, 20025, 25025}));
}

TEST(ReplayRun, TicksAllocateNothingBeyondTheResultVector) {
  const ReplayConfig c = test::rpConfig();
  // Payloads without spawns, so no archetype column grows mid-run.
  auto run = [&c](std::uint64_t frames) {
    Payloads p(frames, std::vector<std::uint8_t>{1, 2, 3});
    const ReplayLog log = parse(test::rpRecord(c, p));
    World w = test::rpWorld(c);
    test::AllocationWindow window;
    EXPECT_TRUE(runReplay(log, w, c).ok());
    return window.allocations();
  };
  const std::uint64_t small = run(10);
  const std::uint64_t large = run(2000);
  EXPECT_EQ(small, large);
  EXPECT_LE(small, 1u);  // the tickHashes reservation
}

/// The ReplayConfig a registry scenario's world is created with.
ReplayConfig scenarioConfig(const Scenario& s, std::uint64_t seed) {
  ReplayConfig c;
  c.tickRateHz = s.tickRateHz;
  c.entityCapacity = s.capacity;
  c.churnPerFrameBudget = s.churnPerFrameBudget;
  c.seed = seed;
  c.determinism.math = s.math;
  return c;
}

TEST(ReplayScenario, ARecordedInputScenarioReplaysToItsOwnHashStream) {
  // End to end: the `input` scenario runs live on its generated command
  // stream while a recorder writes each tick's payload; replaying the
  // parsed log into a fresh world reproduces the live stream tick by tick.
  const Scenario* s = findScenario("input");
  ASSERT_NE(s, nullptr);
  ASSERT_NE(s->input, nullptr);
  const ReplayConfig c = scenarioConfig(*s, s->defaultSeed);
  ScenarioRun run = ScenarioRun::create(*s, c.seed).takeValue();
  ReplayWriter writer = ReplayWriter::create(makeReplayIdentity(run.world(), c)).takeValue();
  std::vector<std::uint64_t> live{run.hash()};
  std::uint64_t nonEmpty = 0;
  for (std::uint64_t t = 1; t <= 300; ++t) {
    const TickInput in = run.generatedInput(t);
    ASSERT_TRUE(run.step(in).ok());
    ASSERT_TRUE(writer.writeFrame(t, in.data, in.size).ok());
    live.push_back(run.hash());
    nonEmpty += in.size != 0 ? 1 : 0;
  }
  ASSERT_TRUE(writer.finish().ok());
  EXPECT_GT(nonEmpty, 100u);  // the stream really carries input

  const ReplayLog log = parse(writer.bytes());
  World w = World::create(worldOptionsFor(c)).takeValue();
  ASSERT_TRUE(s->setup(w, c.seed).ok());
  const Result<ReplayRunResult> r = runReplay(log, w, c);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().tickHashes, live);

  // Dropping the input (empty frames) gives another stream: the payload matters.
  ReplayLog silent;
  silent.identity = log.identity;
  for (std::uint64_t t = 0; t < 300; ++t) ASSERT_TRUE(silent.appendFrame(nullptr, 0).ok());
  World w2 = World::create(worldOptionsFor(c)).takeValue();
  ASSERT_TRUE(s->setup(w2, c.seed).ok());
  EXPECT_NE(runReplay(silent, w2, c).value().tickHashes.back(), live.back());
}

}  // namespace
}  // namespace laige
