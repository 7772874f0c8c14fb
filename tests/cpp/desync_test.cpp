// desync_test.cpp - per-system checkpoints and the desync report
// (laige/desync.h, docs/desync.md): checkpoints equal the column checksum
// taken from scratch between systems (a plain reference), leave the state
// hash stream unchanged, allocate nothing per tick, refuse bad input with
// nothing changed; and the report of two worlds of which one flipped one
// bit in one system at a random tick names that tick, that system, that
// entity and that field, for several seeds.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "laige/desync.h"
#include "laige/prng.h"
#include "laige/state_hash.h"
#include "support/counting_allocator.h"
#include "support/desync_scene.h"

namespace laige {
namespace {

using test::DHp;
using test::DPos;
using test::DVel;
using test::Fault;
using test::makeDesyncWorld;

TEST(SystemCheckpoints, OffByDefaultAndEmpty) {
  SystemSchedule sched;
  World w = makeDesyncWorld(50, 1, nullptr, sched);
  EXPECT_FALSE(systemCheckpointsOn(w));
  ASSERT_TRUE(w.runSystems(sched).ok());
  EXPECT_TRUE(systemCheckpoints(w).empty());
  EXPECT_EQ(systemCheckpointTick(w), 0u);
  const Result<std::uint64_t> missing = systemCheckpointOf(w, SystemId{1});
  ASSERT_FALSE(missing.ok());
  EXPECT_STREQ(missing.status().reason(), "checkpoint_missing");
}

// The reference: the column checksum from scratch, taken by a probe at the
// start of every system (= the state after the previous one) and after the tick.
struct Probe {
  std::vector<std::uint64_t> seen;
};
Probe* gProbe = nullptr;
void probeAndRun(World& w, SystemContext& ctx, void (*body)(World&, SystemContext&)) {
  if (gProbe != nullptr && ctx.id.value != 1) gProbe->seen.push_back(columnChecksum(w, ctx.tick));
  body(w, ctx);
}
void probeMove(World& w, SystemContext& ctx) { probeAndRun(w, ctx, &test::moveSystem); }
void probeSteer(World& w, SystemContext& ctx) { probeAndRun(w, ctx, &test::steerSystem); }
void probeDamage(World& w, SystemContext& ctx) { probeAndRun(w, ctx, &test::damageSystem); }

TEST(SystemCheckpoints, EqualTheChecksumFromScratchAfterEverySystem) {
  World::Options o;
  o.capacity = 400;
  o.seed = 77;
  World w = World::create(o).takeValue();
  ASSERT_TRUE(w.registerComponent<DPos>().ok());
  ASSERT_TRUE(w.registerComponent<DVel>().ok());
  ASSERT_TRUE(w.registerComponent<DHp>().ok());
  const fpx16_16 budget = fpx16_16::fromInt32(100);
  ASSERT_TRUE(w.registerSystem(SystemDef{"Move", &probeMove, budget, nullptr, nullptr}, Io<DPos, Write>{},
                               Io<DVel, Read>{}).ok());
  ASSERT_TRUE(w.registerSystem(SystemDef{"Steer", &probeSteer, budget, nullptr, nullptr}, Io<DVel, Write>{},
                               Io<DPos, Read>{}).ok());
  ASSERT_TRUE(w.registerSystem(SystemDef{"Damage", &probeDamage, budget, nullptr, nullptr}, Io<DHp, Write>{}).ok());
  SystemSchedule sched;
  ASSERT_TRUE(w.scheduleSystems(sched).ok());
  for (std::int32_t i = 0; i < 300; ++i) {
    const Entity e = w.create().value();
    ASSERT_TRUE(w.addComponent(e, DPos{i, -i}).ok());
    ASSERT_TRUE(w.addComponent(e, DVel{i % 5 - 2, 1}).ok());
    if (i % 4 != 0) {
      ASSERT_TRUE(w.addComponent(e, DHp{i % 13 + 1, 0}).ok());
    }
  }
  ASSERT_TRUE(setSystemCheckpoints(w, true).ok());
  EXPECT_TRUE(systemCheckpointsOn(w));
  Probe probe;
  gProbe = &probe;
  for (std::uint64_t tick = 1; tick <= 40; ++tick) {
    probe.seen.clear();
    ASSERT_TRUE(w.runSystems(sched).ok());
    probe.seen.push_back(columnChecksum(w, tick));
    const std::span<const SystemCheckpoint> cps = systemCheckpoints(w);
    ASSERT_EQ(cps.size(), 3u);
    EXPECT_EQ(systemCheckpointTick(w), tick);
    for (std::uint32_t i = 0; i < 3; ++i) {
      EXPECT_EQ(cps[i].system, sched.order[i]);
      EXPECT_EQ(cps[i].position, i);
      EXPECT_EQ(cps[i].checksum, probe.seen[i]) << "tick " << tick << " position " << i;
      EXPECT_EQ(systemCheckpointOf(w, SystemId{cps[i].system}).value(), cps[i].checksum);
    }
  }
  gProbe = nullptr;
}

// The same values natively and in wasm (this test runs in both).
TEST(SystemCheckpoints, KnownAnswer) {
  SystemSchedule sched;
  World w = makeDesyncWorld(200, 42, nullptr, sched);
  ASSERT_TRUE(setSystemCheckpoints(w, true).ok());
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(w.runSystems(sched).ok());
  const std::span<const SystemCheckpoint> cps = systemCheckpoints(w);
  ASSERT_EQ(cps.size(), 3u);
  EXPECT_EQ(cps[0].checksum, 0x734c4ae93cc4924cull) << std::hex << cps[0].checksum;
  EXPECT_EQ(cps[1].checksum, 0x96dc6773a2fd8f15ull) << std::hex << cps[1].checksum;
  EXPECT_EQ(cps[2].checksum, 0x771602a7bcda6a29ull) << std::hex << cps[2].checksum;
  EXPECT_EQ(stateTreeRoot(w, 3), 0xd2fc0d29bbe1c9e0ull) << std::hex << stateTreeRoot(w, 3);
}

TEST(SystemCheckpoints, LeaveTheStateHashStreamUnchanged) {
  SystemSchedule sa;
  SystemSchedule sb;
  World a = makeDesyncWorld(300, 5, nullptr, sa);
  World b = makeDesyncWorld(300, 5, nullptr, sb);
  ASSERT_TRUE(setSystemCheckpoints(b, true).ok());
  for (std::uint64_t tick = 1; tick <= 60; ++tick) {
    ASSERT_TRUE(a.runSystems(sa).ok());
    ASSERT_TRUE(b.runSystems(sb).ok());
    ASSERT_EQ(a.stateHash(tick), b.stateHash(tick)) << tick;
    ASSERT_EQ(a.stateChecksum(tick), b.stateChecksum(tick)) << tick;
    if (tick == 30) {  // off again: the last tick's stay
      ASSERT_TRUE(setSystemCheckpoints(b, false).ok());
    }
  }
  EXPECT_EQ(systemCheckpointTick(b), 30u);
  EXPECT_EQ(systemCheckpoints(b).size(), 3u);
}

TEST(SystemCheckpoints, AllocateNothingPerTick) {
  SystemSchedule sched;
  World w = makeDesyncWorld(500, 9, nullptr, sched);
  ASSERT_TRUE(setSystemCheckpoints(w, true).ok());
  ASSERT_TRUE(w.runSystems(sched).ok());  // warm: the command buffer's first growth
  test::AllocationWindow window;
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(w.runSystems(sched).ok());
  const std::span<const SystemCheckpoint> cps = systemCheckpoints(w);
  const Result<std::uint64_t> one = systemCheckpointOf(w, SystemId{2});
  EXPECT_EQ(window.allocations(), 0u);
  EXPECT_EQ(cps.size(), 3u);
  EXPECT_TRUE(one.ok());
}

World* gToggleWorld = nullptr;
Status gToggleStatus;
void toggleInside(World& w, SystemContext& ctx) {
  gToggleStatus = setSystemCheckpoints(*gToggleWorld, false);
  test::moveSystem(w, ctx);
}

TEST(SystemCheckpoints, BadInputRefusedWithNothingChanged) {
  SystemSchedule sched;
  World w = makeDesyncWorld(40, 3, nullptr, sched);
  ASSERT_TRUE(setSystemCheckpoints(w, true).ok());
  ASSERT_TRUE(w.runSystems(sched).ok());
  const std::uint64_t hash = w.stateHash(1);
  const std::vector<SystemCheckpoint> before(systemCheckpoints(w).begin(), systemCheckpoints(w).end());
  for (std::uint32_t id : {0u, 4u, 999u}) {
    const Result<std::uint64_t> r = systemCheckpointOf(w, SystemId{id});
    ASSERT_FALSE(r.ok());
    EXPECT_STREQ(r.status().reason(), "checkpoint_unknown_system");
    EXPECT_EQ(r.status().error(), ErrorCode::InvalidArgument);
  }
  World moved = std::move(w);
  EXPECT_STREQ(setSystemCheckpoints(w, true).reason(), "world_moved_from");
  EXPECT_TRUE(systemCheckpoints(w).empty());
  EXPECT_FALSE(systemCheckpointsOn(w));
  EXPECT_STREQ(systemCheckpointOf(w, SystemId{1}).status().reason(), "checkpoint_unknown_system");
  EXPECT_EQ(moved.stateHash(1), hash);
  const std::span<const SystemCheckpoint> after = systemCheckpoints(moved);
  ASSERT_EQ(after.size(), before.size());
  EXPECT_EQ(std::memcmp(after.data(), before.data(), before.size() * sizeof(SystemCheckpoint)), 0);

  // Switching from inside a tick is refused and the tick records all its checkpoints.
  World::Options o;
  o.capacity = 8;
  World t = World::create(o).takeValue();
  ASSERT_TRUE(t.registerComponent<DPos>().ok());
  ASSERT_TRUE(t.registerComponent<DVel>().ok());
  ASSERT_TRUE(t.registerSystem(SystemDef{"Toggle", &toggleInside, fpx16_16::one(), nullptr, nullptr},
                               Io<DPos, Write>{}, Io<DVel, Read>{}).ok());
  SystemSchedule ts;
  ASSERT_TRUE(t.scheduleSystems(ts).ok());
  ASSERT_TRUE(setSystemCheckpoints(t, true).ok());
  gToggleWorld = &t;
  ASSERT_TRUE(t.runSystems(ts).ok());
  gToggleWorld = nullptr;
  EXPECT_STREQ(gToggleStatus.reason(), "checkpoints_inside_tick");
  EXPECT_TRUE(systemCheckpointsOn(t));
  EXPECT_EQ(systemCheckpoints(t).size(), 1u);
}

TEST(SystemCheckpoints, FirstDifferingCheckpoint) {
  const SystemCheckpoint a[3] = {{1, 0, 10}, {2, 1, 20}, {3, 2, 30}};
  SystemCheckpoint b[3] = {{1, 0, 10}, {2, 1, 20}, {3, 2, 30}};
  EXPECT_EQ(firstDifferingCheckpoint(a, b), -1);
  b[1].checksum = 21;
  EXPECT_EQ(firstDifferingCheckpoint(a, b), 1);
  b[1].checksum = 20;
  b[2].system = 4;
  EXPECT_EQ(firstDifferingCheckpoint(a, b), 2);
  EXPECT_EQ(firstDifferingCheckpoint(std::span(a, 2), std::span(a, 3)), 2);
  EXPECT_EQ(firstDifferingCheckpoint({}, {}), -1);
  const std::uint64_t ha[4] = {1, 2, 3, 4};
  const std::uint64_t hb[4] = {1, 2, 5, 4};
  EXPECT_EQ(firstDifferingTick(ha, hb), 2);
  EXPECT_EQ(firstDifferingTick(ha, ha), -1);
}

// The one-bit divergence: two worlds, one with a fault at a random tick in a
// random system; per-tick checksums find the tick, the report the rest.
TEST(DesyncReport, NamesTheTickSystemEntityAndFieldOfAOneBitDivergence) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    Prng rng(seed * 7919);
    Fault fault;
    fault.tick = rng.next_range(1, 60);
    fault.system = rng.next_range(1, 4);
    fault.pick = rng.next_range(0, 400);
    fault.field = rng.next_range(0, 2);
    fault.bit = rng.next_range(0, 32);
    SystemSchedule sa;
    SystemSchedule sb;
    World a = makeDesyncWorld(300, seed, nullptr, sa);
    World b = makeDesyncWorld(300, seed, &fault, sb);
    ASSERT_TRUE(setSystemCheckpoints(a, true).ok());
    ASSERT_TRUE(setSystemCheckpoints(b, true).ok());
    std::vector<std::uint64_t> ha;
    std::vector<std::uint64_t> hb;
    std::int64_t first = -1;
    for (std::uint64_t tick = 1; tick <= 80 && first < 0; ++tick) {
      ASSERT_TRUE(a.runSystems(sa).ok());
      ASSERT_TRUE(b.runSystems(sb).ok());
      ha.push_back(a.stateChecksum(tick));
      hb.push_back(b.stateChecksum(tick));
      first = firstDifferingTick(ha, hb);
    }
    ASSERT_TRUE(fault.fired) << "seed " << seed;
    ASSERT_EQ(first + 1, static_cast<std::int64_t>(fault.tick)) << "seed " << seed;
    std::vector<DesyncItem> items;
    const Result<DesyncReport> report = desyncReport(a, b, 64, [&](const DesyncItem& d) { items.push_back(d); });
    ASSERT_TRUE(report.ok()) << report.status().reason();
    const DesyncReport& r = report.value();
    EXPECT_EQ(r.tick, fault.tick);
    EXPECT_TRUE(r.checkpointsCompared);
    EXPECT_EQ(r.firstSystem.value, fault.system) << "seed " << seed;
    EXPECT_NE(r.checksumA, r.checksumB);
    const ComponentTypeId flipped = fault.system;  // Move -> DPos (1), Steer -> DVel (2), Damage -> DHp (3)
    bool named = false;
    for (const DesyncItem& d : items) {
      if (d.item.slot != fault.slot || d.item.componentId != flipped) continue;
      named = true;
      EXPECT_EQ(d.field, fault.field) << "seed " << seed;
      EXPECT_EQ(d.fieldName, a.componentInfo(flipped).value().fields[fault.field].name);
      ASSERT_NE(d.item.bytesA, nullptr);
      ASSERT_NE(d.item.bytesB, nullptr);
      std::uint32_t va;
      std::uint32_t vb;
      std::memcpy(&va, d.item.bytesA + 4 * fault.field, 4);
      std::memcpy(&vb, d.item.bytesB + 4 * fault.field, 4);
      EXPECT_EQ(va ^ vb, 1u << fault.bit);
    }
    EXPECT_TRUE(named) << "seed " << seed << " slot " << fault.slot;
    EXPECT_EQ(r.differences, items.size());

    // The same from B's tree answers and checkpoints only (as from a remote peer).
    std::vector<DesyncTreeItem> rows;
    std::vector<std::uint8_t> scratch(2 * stateTreeLeafCapacity(a));
    const Result<DesyncReport> remote = desyncReportFromTree(
        a, stateTreeSourceOf(b), systemCheckpoints(b), scratch, 64,
        [](void* c, const DesyncTreeItem& d) noexcept { static_cast<std::vector<DesyncTreeItem>*>(c)->push_back(d); },
        &rows);
    ASSERT_TRUE(remote.ok()) << remote.status().reason();
    EXPECT_EQ(remote.value().tick, fault.tick);
    EXPECT_EQ(remote.value().firstSystem.value, fault.system) << "seed " << seed;
    bool rowNamed = false;
    for (const DesyncTreeItem& d : rows) {
      if (d.row.slot != fault.slot || d.row.componentId != flipped) continue;
      rowNamed = true;
      EXPECT_EQ(d.field, fault.field);
      EXPECT_EQ(d.fieldName, a.componentInfo(flipped).value().fields[fault.field].name);
    }
    EXPECT_TRUE(rowNamed) << "seed " << seed;
  }
}

TEST(SystemCheckpoints, ARestoredTickRunAgainRecordsTheSameCheckpoints) {
  SystemSchedule sched;
  World w = makeDesyncWorld(400, 21, nullptr, sched);
  ASSERT_TRUE(setSystemCheckpoints(w, true).ok());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(w.runSystems(sched).ok());
  std::vector<std::uint8_t> snap(w.snapshotSize());
  ASSERT_TRUE(w.snapshot(snap).ok());
  std::vector<std::vector<SystemCheckpoint>> first;
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(w.runSystems(sched).ok());
    first.emplace_back(systemCheckpoints(w).begin(), systemCheckpoints(w).end());
  }
  ASSERT_TRUE(w.restore(snap).ok());
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(w.runSystems(sched).ok());
    const std::span<const SystemCheckpoint> again = systemCheckpoints(w);
    ASSERT_EQ(again.size(), first[i].size());
    for (std::size_t k = 0; k < again.size(); ++k) EXPECT_EQ(again[k].checksum, first[i][k].checksum) << i << " " << k;
  }
}

TEST(DesyncReport, EqualWorldsReportNothing) {
  SystemSchedule sa;
  SystemSchedule sb;
  World a = makeDesyncWorld(100, 4, nullptr, sa);
  World b = makeDesyncWorld(100, 4, nullptr, sb);
  ASSERT_TRUE(setSystemCheckpoints(a, true).ok());
  ASSERT_TRUE(setSystemCheckpoints(b, true).ok());
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(a.runSystems(sa).ok());
    ASSERT_TRUE(b.runSystems(sb).ok());
  }
  int calls = 0;
  const Result<DesyncReport> r = desyncReport(a, b, 10, [&](const DesyncItem&) { ++calls; });
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.value().checkpointsCompared);
  EXPECT_EQ(r.value().firstSystem.value, 0u);
  EXPECT_EQ(r.value().differences, 0u);
  EXPECT_EQ(r.value().checksumA, r.value().checksumB);
  EXPECT_EQ(calls, 0);
}

TEST(DesyncReport, BadInputRefused) {
  SystemSchedule sa;
  SystemSchedule sb;
  World a = makeDesyncWorld(20, 4, nullptr, sa);
  World b = makeDesyncWorld(20, 4, nullptr, sb);
  ASSERT_TRUE(a.runSystems(sa).ok());
  const std::uint64_t ha = a.stateHash(1);
  const std::uint64_t hb = b.stateHash(0);
  int calls = 0;
  const auto count = [&](const DesyncItem&) { ++calls; };
  Result<DesyncReport> r = desyncReport(a, b, 10, count);
  ASSERT_FALSE(r.ok());
  EXPECT_STREQ(r.status().reason(), "desync_tick_mismatch");
  World c = World::create(40).takeValue();  // no components registered
  r = desyncReport(b, c, 10, count);
  ASSERT_FALSE(r.ok());
  EXPECT_STREQ(r.status().reason(), "desync_setup_mismatch");
  World gone = std::move(c);
  r = desyncReport(b, c, 10, count);
  ASSERT_FALSE(r.ok());
  EXPECT_STREQ(r.status().reason(), "world_moved_from");
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(a.stateHash(1), ha);
  EXPECT_EQ(b.stateHash(0), hb);
  std::vector<std::uint8_t> scratch(2 * stateTreeLeafCapacity(a));
  const auto none = [](void*, const DesyncTreeItem&) noexcept {};
  EXPECT_STREQ(desyncReportFromTree(c, stateTreeSourceOf(a), {}, scratch, 10, none, nullptr).status().reason(),
               "world_moved_from");
  EXPECT_STREQ(desyncReportFromTree(a, stateTreeSourceOf(b), {}, std::span(scratch).first(8), 10, none, nullptr)
                   .status()
                   .reason(),
               "state_tree_buffer_too_small");
  // Without checkpoints the report still names the differences.
  ASSERT_TRUE(b.runSystems(sb).ok());
  DHp* hp = nullptr;
  for (std::uint16_t s = 0; hp == nullptr; ++s) hp = b.get<DHp>(b.handleAt(s));
  hp->armor ^= 4u;
  r = desyncReport(a, b, 10, count);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.value().checkpointsCompared);
  EXPECT_EQ(r.value().differences, 1u);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace laige
