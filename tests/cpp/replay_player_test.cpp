// replay_player_test.cpp - ReplayPlayer: seeking to random ticks in random
// order equals a straight run at every tick (hash and snapshot bytes), with
// and without keyframes; stepBack's checkpoints; step's keyframe check; and
// every refusal leaves the world as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "laige/prng.h"
#include "laige/replay.h"
#include "laige/replay_player.h"
#include "support/counting_allocator.h"
#include "support/log_capture.h"
#include "support/replay_scene.h"

namespace laige {
namespace {

using Bytes = std::vector<std::uint8_t>;
using Payloads = std::vector<std::vector<std::uint8_t>>;

/// A straight run of the scene: its log (keyframes every `every`), and its
/// hash and snapshot at every tick.
struct Straight {
  Bytes log;
  std::vector<std::uint64_t> hashes;
  std::vector<Bytes> snapshots;
};
Straight straightRun(const ReplayConfig& c, const Payloads& payloads, std::uint64_t every) {
  Straight out;
  World w = test::rpWorld(c);
  SystemSchedule s;
  EXPECT_TRUE(w.scheduleSystems(s).ok());
  ReplayWriter writer = ReplayWriter::create(makeReplayIdentity(w, c), 0, every).takeValue();
  auto keep = [&] {
    Bytes snap(w.snapshotSize());
    EXPECT_TRUE(w.snapshot(snap).ok());
    out.snapshots.push_back(std::move(snap));
    out.hashes.push_back(w.stateHash(w.systemTicksRun()));
    if (writer.keyframeDue()) {
      EXPECT_TRUE(writer.writeKeyframe(w).ok());
    }
  };
  keep();
  for (std::size_t i = 0; i < payloads.size(); ++i) {
    const auto& p = payloads[i];
    w.beginFrame();
    EXPECT_TRUE(w.runSystems(s, TickInput{p.empty() ? nullptr : p.data(), static_cast<std::uint32_t>(p.size())}).ok());
    EXPECT_TRUE(writer.writeFrame(i + 1, p.data(), static_cast<std::uint32_t>(p.size())).ok());
    keep();
  }
  EXPECT_TRUE(writer.finish().ok());
  out.log = writer.takeBytes();
  return out;
}

ReplayLog parse(const Bytes& b) { return parseReplay(b.data(), b.size()).takeValue(); }

Bytes snapshotOf(const World& w) {
  Bytes b(w.snapshotSize());
  EXPECT_TRUE(w.snapshot(b).ok());
  return b;
}

class ReplayPlayerSeek : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(ReplayPlayerSeek, RandomSeeksEqualTheStraightRunAtEveryTick) {
  const std::uint64_t every = GetParam();
  const ReplayConfig c = test::rpConfig();
  const Straight run = straightRun(c, test::rpPayloads(90), every);
  World w = test::rpWorld(c);
  ReplayPlayer p = ReplayPlayer::open(parse(run.log), w, c).takeValue();
  EXPECT_EQ(p.tick(), 0u);
  EXPECT_EQ(p.tickCount(), 90u);
  Prng rng(0x5eec + every);
  for (int i = 0; i < 200; ++i) {
    const std::uint64_t t = rng.next_range(0, 91);
    ASSERT_TRUE(p.seek(t).ok()) << t;
    ASSERT_EQ(p.tick(), t);
    ASSERT_EQ(p.stateHash(), run.hashes[t]) << "tick " << t << " K " << every;
    ASSERT_EQ(w.systemTicksRun(), t);
    if (i % 16 == 0) {
      ASSERT_EQ(snapshotOf(w), run.snapshots[t]) << t;
    }
  }
  // Every tick in order, then every tick backward.
  ASSERT_TRUE(p.seek(0).ok());
  for (std::uint64_t t = 1; t <= 90; ++t) {
    ASSERT_TRUE(p.step().ok());
    ASSERT_EQ(p.stateHash(), run.hashes[t]) << t;
  }
  EXPECT_EQ(p.step().reason(), std::string("tick_out_of_range"));
  for (std::uint64_t t = 90; t-- > 0;) {
    ASSERT_TRUE(p.stepBack().ok());
    ASSERT_EQ(p.tick(), t);
    ASSERT_EQ(p.stateHash(), run.hashes[t]) << t;
  }
  EXPECT_EQ(snapshotOf(w), run.snapshots[0]);
}

INSTANTIATE_TEST_SUITE_P(EveryK, ReplayPlayerSeek, ::testing::Values(0u, 1u, 7u, 30u, 200u));

TEST(ReplayPlayer, AJumpRestoresTheNearestKeyframeAndSimulatesTheRest) {
  const ReplayConfig c = test::rpConfig();
  const Straight run = straightRun(c, test::rpPayloads(100), 25);
  World w = test::rpWorld(c);
  ReplayPlayer p = ReplayPlayer::open(parse(run.log), w, c).takeValue();
  EXPECT_EQ(p.keyframeAtOrBefore(74), 50u);
  EXPECT_EQ(p.keyframeAtOrBefore(75), 75u);
  ASSERT_TRUE(p.seek(60).ok());
  EXPECT_EQ(p.stats().restores, 1u);
  EXPECT_EQ(p.stats().ticksSimulated, 10u);
  ASSERT_TRUE(p.seek(74).ok());  // forward in the interval: no restore
  EXPECT_EQ(p.stats().restores, 1u);
  EXPECT_EQ(p.stats().ticksSimulated, 24u);
  ASSERT_TRUE(p.seek(76).ok());  // past the next keyframe: restores it
  EXPECT_EQ(p.stats().restores, 2u);
  EXPECT_EQ(p.stats().ticksSimulated, 25u);
  ASSERT_TRUE(p.seek(10).ok());  // back: keyframe 0
  EXPECT_EQ(p.stats().restores, 3u);
  EXPECT_EQ(p.stats().ticksSimulated, 35u);
  EXPECT_EQ(p.stateHash(), run.hashes[10]);
}

TEST(ReplayPlayer, WithoutKeyframesAJumpSimulatesFromTheStart) {
  const ReplayConfig c = test::rpConfig();
  const Straight run = straightRun(c, test::rpPayloads(50), 0);
  World w = test::rpWorld(c);
  ReplayPlayer p = ReplayPlayer::open(parse(run.log), w, c).takeValue();
  ASSERT_TRUE(p.seek(40).ok());
  ASSERT_TRUE(p.seek(39).ok());
  EXPECT_EQ(p.stats().ticksSimulated, 79u);
  EXPECT_EQ(p.stateHash(), run.hashes[39]);
}

TEST(ReplayPlayer, RepeatedStepBackUsesCheckpoints) {
  const ReplayConfig c = test::rpConfig();
  const Straight run = straightRun(c, test::rpPayloads(100), 100);
  World w = test::rpWorld(c);
  ReplayPlayer p = ReplayPlayer::open(parse(run.log), w, c).takeValue();
  ASSERT_TRUE(p.seek(99).ok());
  const std::uint64_t before = p.stats().ticksSimulated;
  for (int i = 0; i < 99; ++i) ASSERT_TRUE(p.stepBack().ok());
  EXPECT_EQ(p.stateHash(), run.hashes[0]);
  // Without checkpoints 99 steps back would simulate 98 + 97 + ... = 4,851 ticks.
  EXPECT_LT(p.stats().ticksSimulated - before, 1200u);
}

TEST(ReplayPlayer, SeeksAndStepsAllocateNothingOnceWarm) {
  const ReplayConfig c = test::rpConfig();
  // Payloads without spawns or destroys: no archetype grows between ticks.
  const Straight run = straightRun(c, Payloads(100, std::vector<std::uint8_t>{1, 2, 3}), 10);
  World w = test::rpWorld(c);
  ReplayPlayer p = ReplayPlayer::open(parse(run.log), w, c).takeValue();
  ASSERT_TRUE(p.seek(95).ok());
  ASSERT_TRUE(p.seek(3).ok());
  test::AllocationWindow window;
  Prng rng(77);
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(p.seek(rng.next_range(0, 101)).ok());
  ASSERT_TRUE(p.seek(0).ok());
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(p.step().ok());  // 10 keyframe comparisons
  EXPECT_EQ(window.allocations(), 0u);
  EXPECT_EQ(p.stateHash(), run.hashes[100]);
}

TEST(ReplayPlayer, StepComparesTheKeyframesItLandsOn) {
  const ReplayConfig c = test::rpConfig();
  const Straight run = straightRun(c, test::rpPayloads(30), 10);
  World w = test::rpWorld(c);
  ReplayPlayer p = ReplayPlayer::open(parse(run.log), w, c).takeValue();
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(p.step().ok());
  EXPECT_EQ(p.stats().keyframesVerified, 3u);  // 10, 20, 30
}

/// A system named like the scene's whose arithmetic differs: the same setup
/// identity, another state after the first tick.
void otherApply(World& world, SystemContext& ctx) {
  test::rpApplyInput(world, ctx);
  (void)ctx.each<test::RpAccum>([](Entity, test::RpAccum& a) { a.value += 1; }, Write{});
}
World otherWorld(const ReplayConfig& c, bool sameSystems) {
  World w = World::create(worldOptionsFor(c)).takeValue();
  (void)w.registerComponent<test::RpAccum>();
  (void)w.registerComponent<test::RpPos>();
  SystemDef d;
  d.name = sameSystems ? "RpApplyInput" : "Other";
  d.run = &otherApply;
  d.budgetMs = fpx16_16::fromInt32(100);
  SystemIo io[2] = {{w.componentId<test::RpAccum>(), Access::Write}, {w.componentId<test::RpPos>(), Access::Write}};
  (void)w.registerSystem(d, io, 2);
  for (int i = 0; i < 3; ++i) {
    const Entity e = w.create().value();
    (void)w.addComponent(e, test::RpAccum{i, static_cast<std::uint32_t>(i * 7)});
  }
  return w;
}

TEST(ReplayPlayer, AStepThatMissesAKeyframeIsReported) {
  test::LogCapture logs;
  const ReplayConfig c = test::rpConfig();
  const Straight run = straightRun(c, test::rpPayloads(20), 5);
  World w = otherWorld(c, true);
  ReplayPlayer p = ReplayPlayer::open(parse(run.log), w, c).takeValue();
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(p.step().ok());
  const Status st = p.step();
  EXPECT_EQ(st.error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(st.reason(), std::string("keyframe_diverged"));
  EXPECT_EQ(st.fieldValue("tick"), std::string("5"));
  EXPECT_EQ(logs.count("replay", "keyframe_diverged"), 1u);
  // The next call restores keyframe 5 instead of simulating on from the diverged state.
  const std::uint64_t restores = p.stats().restores;
  ASSERT_TRUE(p.seek(7).ok());
  EXPECT_EQ(p.stats().restores, restores + 1);
  ASSERT_TRUE(p.seek(10).ok());
  EXPECT_EQ(p.stateHash(), run.hashes[10]);
}

TEST(ReplayPlayer, BadInputIsRefusedAndTheWorldIsUnchanged) {
  test::LogCapture logs;
  const ReplayConfig c = test::rpConfig();
  const Straight run = straightRun(c, test::rpPayloads(40), 10);
  World w = test::rpWorld(c);
  ReplayPlayer p = ReplayPlayer::open(parse(run.log), w, c).takeValue();
  ASSERT_TRUE(p.seek(17).ok());
  const Bytes before = snapshotOf(w);
  const ReplayPlayerStats stats = p.stats();
  for (std::uint64_t t : {41ull, 1000ull, ~0ull}) {
    const Status st = p.seek(t);
    EXPECT_EQ(st.error(), ErrorCode::InvalidArgument);
    EXPECT_EQ(st.reason(), std::string("tick_out_of_range"));
    EXPECT_EQ(st.fieldValue("tick_count"), std::string("40"));
  }
  EXPECT_EQ(logs.count("replay", "tick_out_of_range"), 1u);  // rate-limited after the first
  EXPECT_EQ(p.tick(), 17u);
  EXPECT_EQ(snapshotOf(w), before);
  EXPECT_EQ(p.stats().restores, stats.restores);
  ASSERT_TRUE(p.seek(0).ok());
  EXPECT_EQ(p.stepBack().reason(), std::string("tick_out_of_range"));
  EXPECT_EQ(snapshotOf(w), run.snapshots[0]);
}

TEST(ReplayPlayer, OpenRefusesAWrongWorldAndLeavesItAsItWas) {
  test::LogCapture logs;
  const ReplayConfig c = test::rpConfig();
  const Straight run = straightRun(c, test::rpPayloads(20), 5);
  {  // Other systems: the keyframes' setup identity differs.
    World w = otherWorld(c, false);
    const Bytes before = snapshotOf(w);
    const auto r = ReplayPlayer::open(parse(run.log), w, c);
    EXPECT_EQ(r.error(), ErrorCode::InvalidArgument);
    EXPECT_EQ(r.status().reason(), std::string("keyframe_mismatch"));
    EXPECT_EQ(r.status().fieldValue("cause"), std::string("snapshot_setup_mismatch"));
    EXPECT_EQ(snapshotOf(w), before);
  }
  {  // The same setup, another state after it: keyframe 0 differs.
    World w = test::rpWorld(c);
    (void)w.addComponent(w.create().value(), test::RpAccum{9, 9});
    const Bytes before = snapshotOf(w);
    const auto r = ReplayPlayer::open(parse(run.log), w, c);
    EXPECT_EQ(r.status().reason(), std::string("keyframe_mismatch"));
    EXPECT_EQ(r.status().fieldValue("cause"), std::string("state"));
    EXPECT_EQ(snapshotOf(w), before);
  }
  {  // Another seed: the identity.
    World w = test::rpWorld(test::rpConfig(8));
    const auto r = ReplayPlayer::open(parse(run.log), w, test::rpConfig(8));
    EXPECT_EQ(r.status().reason(), std::string("identity_mismatch"));
  }
  {  // A world that already ran a tick.
    World w = test::rpWorld(c);
    SystemSchedule s;
    ASSERT_TRUE(w.scheduleSystems(s).ok());
    ASSERT_TRUE(w.runSystems(s).ok());
    const Bytes before = snapshotOf(w);
    const auto r = ReplayPlayer::open(parse(run.log), w, c);
    EXPECT_EQ(r.status().reason(), std::string("config_world_mismatch"));
    EXPECT_EQ(snapshotOf(w), before);
  }
  {  // A hand-built log whose keyframes are out of order.
    ReplayLog log = parse(run.log);
    std::swap(log.keyframes[1], log.keyframes[2]);
    World w = test::rpWorld(c);
    const auto r = ReplayPlayer::open(std::move(log), w, c);
    EXPECT_EQ(r.error(), ErrorCode::MalformedInput);
    EXPECT_EQ(r.status().reason(), std::string("log_invalid"));
  }
}

TEST(ReplayPlayer, Version1And2LogsPlayFromTheStart) {
  const ReplayConfig c = test::rpConfig();
  const Straight run = straightRun(c, test::rpPayloads(25), 0);
  for (std::uint8_t v : {std::uint8_t{1}, std::uint8_t{2}}) {
    Bytes b = run.log;
    b[4] = v;
    const std::uint64_t h = replayFileHash(b.data(), b.size() - 16);
    for (int i = 0; i < 8; ++i) b[b.size() - 8 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(h >> (8 * i));
    const ReplayLog log = parse(b);
    // A version 1 log carries the old schema hash: rebuild it for this world.
    ReplayLog fixed = log;
    World w = test::rpWorld(c);
    fixed.identity = makeReplayIdentity(w, c, v);
    ReplayPlayer p = ReplayPlayer::open(std::move(fixed), w, c).takeValue();
    ASSERT_TRUE(p.seek(25).ok());
    EXPECT_EQ(p.stateHash(), run.hashes[25]) << int{v};
    ASSERT_TRUE(p.stepBack().ok());
    EXPECT_EQ(p.stateHash(), run.hashes[24]) << int{v};
  }
}

}  // namespace
}  // namespace laige
