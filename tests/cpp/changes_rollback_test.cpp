// changes_rollback_test.cpp - change tracking and observers under
// snapshots and rollback (docs/changes.md#snapshots, #rollback): a restore
// answers filtered queries, removed logs and pending observer events
// exactly as the run that never rolled back; two rollback peers over a
// simulated network with random latency, whose systems use Changed, Added
// and removed filters and whose observers create and destroy entities,
// confirm every tick with the hash of the run that had every input in
// time (2,000 ticks; the wasm build of this file runs the same); a world
// without change state keeps writing version-1 snapshots and its hash.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "laige/changes.h"
#include "laige/rollback.h"
#include "laige/snapshot.h"
#include "laige/system.h"
#include "laige/world.h"
#include "support/changes_sim.h"
#include "support/rollback_net.h"

namespace laige {
namespace {

using namespace test::changes_sim;  // NOLINT: the sim's components and systems
using test::inputScenarioPlayerInput;
using test::NetMessage;
using test::SimNetwork;

constexpr std::uint32_t kPlayers = 2;
constexpr std::uint32_t kTicks = 2000;
constexpr std::uint32_t kFlush = 16;

struct Sim {
  World world;
  SystemSchedule schedule;
  ObserverTally tally;
};

std::unique_ptr<Sim> makeSim() {
  auto sim = std::make_unique<Sim>();
  World::Options o;
  o.capacity = kCapacity;
  o.seed = 11;
  o.churnPerFrameBudget = 0;
  sim->world = World::create(o).takeValue();
  const Status st = setup(sim->world, sim->schedule, sim->tally);
  EXPECT_TRUE(st.ok()) << st.reason();
  return sim;
}

std::uint32_t combinedInput(std::uint64_t t, std::uint8_t* buf) {
  std::uint32_t n = 0;
  for (std::uint32_t p = 0; p < kPlayers; ++p) n += inputScenarioPlayerInput(p, t, buf + n);
  return n;
}

Status step(Sim& sim, std::uint64_t t) {
  std::uint8_t buf[kPlayers * 12];
  const std::uint32_t n = combinedInput(t, buf);
  TickInput in;
  in.data = n != 0 ? buf : nullptr;
  in.size = n;
  return sim.world.runSystems(sim.schedule, in);
}

// The no-latency run's hash per tick, by the checksum a session uses
// (stateChecksum for Fast, stateHash for StateHash).
std::vector<std::uint64_t> referenceHashes(std::uint32_t ticks, ObserverTally* tallyOut = nullptr,
                                           RollbackChecksum checksum = RollbackChecksum::StateHash) {
  std::unique_ptr<Sim> sim = makeSim();
  std::vector<std::uint64_t> h(ticks + 1);
  const auto hash = [&](std::uint64_t t) {
    return checksum == RollbackChecksum::Fast ? sim->world.stateChecksum(t) : sim->world.stateHash(t);
  };
  h[0] = hash(0);
  for (std::uint64_t t = 1; t <= ticks; ++t) {
    EXPECT_TRUE(step(*sim, t).ok());
    h[t] = hash(t);
  }
  if (tallyOut != nullptr) *tallyOut = sim->tally;
  return h;
}

TEST(ChangesSnapshot, RestoreAnswersAsTheRunThatNeverRolledBack) {
  std::unique_ptr<Sim> a = makeSim();
  for (std::uint64_t t = 1; t <= 150; ++t) ASSERT_TRUE(step(*a, t).ok());
  std::vector<std::uint8_t> bytes(a->world.snapshotSize());
  ASSERT_TRUE(a->world.snapshot(bytes).ok());
  EXPECT_EQ(bytes[8], 2u);  // change state in use: version 2
  const std::uint64_t atSnapshot = a->world.stateHash(150);
  std::vector<std::uint64_t> straight;
  for (std::uint64_t t = 151; t <= 300; ++t) {
    ASSERT_TRUE(step(*a, t).ok());
    straight.push_back(a->world.stateHash(t));
  }
  // Into the same world (rolled back) and into a fresh one.
  for (int into = 0; into < 2; ++into) {
    std::unique_ptr<Sim> fresh = into == 1 ? makeSim() : nullptr;
    Sim& b = into == 1 ? *fresh : *a;
    ASSERT_TRUE(b.world.restore(bytes).ok());
    EXPECT_EQ(b.world.stateHash(150), atSnapshot);
    for (std::uint64_t t = 151; t <= 300; ++t) {
      ASSERT_TRUE(step(b, t).ok());
      ASSERT_EQ(b.world.stateHash(t), straight[t - 151]) << "into " << into << " tick " << t;
    }
  }
}

TEST(ChangesSnapshot, TheChangeStateIsHashedWhileInUse) {
  std::unique_ptr<Sim> a = makeSim();
  std::unique_ptr<Sim> b = makeSim();
  for (std::uint64_t t = 1; t <= 20; ++t) {
    ASSERT_TRUE(step(*a, t).ok());
    ASSERT_TRUE(step(*b, t).ok());
  }
  ASSERT_EQ(a->world.stateHash(20), b->world.stateHash(20));
  // Same values, one more change mark: the hash differs.
  const Entity e = a->world.handleAt(1);
  ASSERT_TRUE(a->world.isValid(e));
  const CsPos p = *std::as_const(a->world).get<CsPos>(e);
  ASSERT_TRUE(a->world.addComponent(e, p).ok());
  EXPECT_NE(a->world.stateHash(20), b->world.stateHash(20));
  EXPECT_EQ(a->world.componentStateHash(20), b->world.componentStateHash(20));
}

TEST(ChangesSnapshot, AWorldWithoutChangeStateWritesVersionOneAndHashesAsBefore) {
  World::Options o;
  o.capacity = 16;
  World w = World::create(o).takeValue();
  ASSERT_TRUE(w.registerComponent<CsPos>().ok());
  const Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, CsPos{1, 2}).ok());
  const std::uint64_t h = w.stateHash(4);
  std::vector<std::uint8_t> bytes(w.snapshotSize());
  ASSERT_TRUE(w.snapshot(bytes).ok());
  EXPECT_EQ(bytes[8], 1u);
  // A filtered query starts tracking: the hash covers it from then on.
  Query<Reads<CsPos>, Changed<CsPos>> q;
  int n = 0;
  ASSERT_TRUE(q.each(w, [&](Entity, const CsPos&) { ++n; }).ok());
  EXPECT_EQ(n, 1);
  EXPECT_NE(w.stateHash(4), h);
  // A version-1 snapshot restores "nothing tracked" exactly.
  ASSERT_TRUE(w.restore(bytes).ok());
  EXPECT_EQ(w.stateHash(4), h);
  EXPECT_FALSE(tracksChanges(w, 1));
}

// The restore resets the per-component change state only up to the highest
// id that ever had it (ChangeState::allocatedUpTo): tracking the last of
// three ids, then restoring a version-1 snapshot, must still end it.
TEST(ChangesSnapshot, AVersionOneSnapshotEndsTrackingOfTheHighestIdToo) {
  World::Options o;
  o.capacity = 16;
  World w = World::create(o).takeValue();
  ASSERT_TRUE(w.registerComponent<CsPos>().ok());
  ASSERT_TRUE(w.registerComponent<CsVel>().ok());
  const ComponentTypeId hp = w.registerComponent<CsHp>().value();
  const Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, CsHp{5}).ok());
  const std::uint64_t h = w.stateHash(4);
  std::vector<std::uint8_t> bytes(w.snapshotSize());
  ASSERT_TRUE(w.snapshot(bytes).ok());
  ASSERT_EQ(bytes[8], 1u);
  Query<Writes<CsHp>, Changed<CsHp>> q;
  ASSERT_TRUE(q.each(w, [](Entity, CsHp& v) { v.v += 1; }).ok());
  ASSERT_TRUE(tracksChanges(w, hp));
  ASSERT_TRUE(w.destroy(e).ok());  // a removal logged for the tracked id
  ASSERT_TRUE(w.restore(bytes).ok());
  EXPECT_FALSE(tracksChanges(w, hp));
  EXPECT_EQ(w.stateHash(4), h);
  // Restored again from its own version-1 bytes: byte for byte the same.
  std::vector<std::uint8_t> again(w.snapshotSize());
  ASSERT_TRUE(w.snapshot(again).ok());
  EXPECT_EQ(again, bytes);
}

// A system that starts using a change filter at tick 5 (tracking starts then).
using LateQ = Query<Writes<CsPos>, Changed<CsPos>>;
LAIGE_SYSTEM(CsLate, 10.0);
void CsLate(World& w, SystemContext& ctx) {
  static LateQ q;
  if (ctx.tick >= 5) (void)ctx.each(q, [](Entity, CsPos& p) { p.x += 1; });
  if (ctx.tick % 3 == 0) {
    const Entity e = w.create().value();
    (void)ctx.commands.add(e, CsPos{static_cast<std::int32_t>(ctx.tick), 0});
  }
}

TEST(ChangesSnapshot, AVersionOneSnapshotBeforeTrackingStartsReplaysExactly) {
  World::Options o;
  o.capacity = 64;
  World w = World::create(o).takeValue();
  ASSERT_TRUE(w.registerComponent<CsPos>().ok());
  ASSERT_TRUE(w.registerSystem(CsLate_Def, Io<CsPos, Write>{}).ok());
  SystemSchedule sched;
  ASSERT_TRUE(w.scheduleSystems(sched).ok());
  for (int t = 0; t < 2; ++t) ASSERT_TRUE(w.runSystems(sched).ok());
  std::vector<std::uint8_t> bytes(w.snapshotSize());
  ASSERT_TRUE(w.snapshot(bytes).ok());
  ASSERT_EQ(bytes[8], 1u);
  std::vector<std::uint64_t> straight;
  for (int t = 3; t <= 12; ++t) {
    ASSERT_TRUE(w.runSystems(sched).ok());
    straight.push_back(w.stateHash(static_cast<std::uint64_t>(t)));
  }
  ASSERT_TRUE(tracksChanges(w, 1));
  ASSERT_TRUE(w.restore(bytes).ok());
  ASSERT_FALSE(tracksChanges(w, 1));
  for (int t = 3; t <= 12; ++t) {
    ASSERT_TRUE(w.runSystems(sched).ok());
    ASSERT_EQ(w.stateHash(static_cast<std::uint64_t>(t)), straight[static_cast<std::size_t>(t - 3)]) << t;
  }
}

struct Confirmed {
  std::vector<std::uint64_t> hashes;
};
void collect(void* ctx, std::uint64_t /*tick*/, std::uint64_t hash) noexcept {
  static_cast<Confirmed*>(ctx)->hashes.push_back(hash);
}

// Both checksums: Fast (the default) reads confirmed ticks' state from the
// ring's version-2 snapshots, StateHash hashes the live world after each tick.
void twoPeersConfirmTheNoLatencyRun(RollbackChecksum checksum) {
  ObserverTally refTally;
  const std::vector<std::uint64_t> ref = referenceHashes(kTicks + kFlush, &refTally, checksum);
  EXPECT_EQ(refTally.resimulated, 0u);
  struct Peer {
    std::unique_ptr<Sim> sim;
    RollbackSession session;
    Confirmed confirmed;
  } peers[2];
  for (std::uint32_t i = 0; i < 2; ++i) {
    peers[i].sim = makeSim();
    RollbackSession::Options o;
    o.players = kPlayers;
    o.localPlayer = i;
    o.depth = 12;
    o.maxInputBytes = 12;
    o.combine = &RollbackSession::combineConcatenated;
    o.onConfirmed = &collect;
    o.onConfirmedContext = &peers[i].confirmed;
    o.checksum = checksum;
    auto s = RollbackSession::create(peers[i].sim->world, peers[i].sim->schedule, o);
    ASSERT_TRUE(s.ok()) << s.status().reason();
    peers[i].session = std::move(s).takeValue();
  }
  SimNetwork net(5, 8, 6);
  std::uint8_t buf[12];
  for (std::uint64_t now = 1; now <= kTicks + kFlush; ++now) {
    for (std::uint32_t i = 0; i < 2; ++i) {
      Peer& me = peers[i];
      const std::uint64_t first = now == 1 ? 1 : now + 1;
      for (std::uint64_t t = first; t <= now + 1; ++t) {
        const std::uint32_t n = inputScenarioPlayerInput(i, t, buf);
        const std::span<const std::uint8_t> bytes(buf, n);
        ASSERT_TRUE(me.session.setLocalInput(t, bytes).ok());
        net.send(now, i, 1 - i, t, bytes);
      }
      net.deliver(now, i, [&](const NetMessage& m) {
        ASSERT_TRUE(me.session.addRemoteInput(m.from, m.tick, m.bytes).ok());
      });
      const Status st = me.session.advance();
      ASSERT_TRUE(st.ok()) << st.reason() << " at " << now;
    }
  }
  for (std::uint32_t i = 0; i < 2; ++i) {
    const Peer& p = peers[i];
    ASSERT_GE(p.confirmed.hashes.size(), kTicks);
    for (std::size_t k = 0; k < p.confirmed.hashes.size(); ++k) {
      ASSERT_EQ(p.confirmed.hashes[k], ref[k + 1]) << "peer " << i << " tick " << k + 1;
    }
    EXPECT_GT(p.session.stats().rollbacks, 100u);
    // Observers ran in re-simulation too, and said so.
    EXPECT_GT(p.sim->tally.resimulated, 0u);
    EXPECT_GE(p.sim->tally.calls - p.sim->tally.resimulated, refTally.calls / 2);
  }
  // The filters did work: movers were steered, removals seen.
  const CsStats* stats = std::as_const(peers[0].sim->world).get<CsStats>(peers[0].sim->world.handleAt(0));
  ASSERT_NE(stats, nullptr);
  EXPECT_GT(stats->seenChanged, 100u);
  EXPECT_GT(stats->removed, 10u);
  EXPECT_GT(stats->seenAdded, 10u);
  std::printf("[ changes ] seenChanged %u, seenAdded %u, removed %u, observer calls %llu\n", stats->seenChanged, stats->seenAdded, stats->removed,
              static_cast<unsigned long long>(refTally.calls));
}

TEST(ChangesRollback, TwoPeersWithRandomLatencyConfirmTheNoLatencyRunFast) {
  twoPeersConfirmTheNoLatencyRun(RollbackChecksum::Fast);
}

TEST(ChangesRollback, TwoPeersWithRandomLatencyConfirmTheNoLatencyRunStateHash) {
  twoPeersConfirmTheNoLatencyRun(RollbackChecksum::StateHash);
}

}  // namespace
}  // namespace laige
