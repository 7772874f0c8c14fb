// rollback_burst_test.cpp - rollbacks after a burst of late remote inputs
// (a remote player silent for several ticks, then all its inputs at once):
// the re-run of a tick whose inputs are all known skips the snapshot of the
// state before it (no rollback can reach that state any more), and what the
// session computes stays what a run with every input in time gives: the
// confirmed checksums of every tick (Fast, Columns, StateHash), the later
// rollbacks to the first tick after a burst (they restore the snapshot that
// is still taken), the undo of an advance that failed inside such a
// rollback, and no allocation after warm-up (on swarm: the input
// scenario's own world grows now and then).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "laige/rollback.h"
#include "laige/state_hash.h"
#include "laige/world.h"
#include "scenario.h"
#include "support/counting_allocator.h"
#include "support/rollback_net.h"
#include "support/rollback_swarm.h"

namespace laige {
namespace {

using test::inputScenarioPlayerInput;

constexpr std::uint64_t kTicks = 240;

std::unique_ptr<ScenarioRun> openRun() {
  const Scenario* sc = findScenario("input");
  EXPECT_NE(sc, nullptr);
  auto r = ScenarioRun::create(*sc, sc->defaultSeed);
  EXPECT_TRUE(r.ok());
  return std::make_unique<ScenarioRun>(std::move(r).takeValue());
}

std::uint64_t checksumOf(const ScenarioRun& run, RollbackChecksum kind) {
  const World& w = run.world();
  switch (kind) {
    case RollbackChecksum::StateHash:
      return run.hash();
    case RollbackChecksum::Columns:
      return columnChecksum(w, w.systemTicksRun());
    case RollbackChecksum::Fast:
      break;
  }
  return w.stateChecksum(w.systemTicksRun());
}

// The checksum after each tick 1..ticks of a run with both players' inputs in time.
std::vector<std::uint64_t> reference(RollbackChecksum kind, std::uint64_t ticks) {
  std::unique_ptr<ScenarioRun> run = openRun();
  std::vector<std::uint64_t> sums(ticks + 1, 0);
  std::uint8_t buf[24];
  for (std::uint64_t t = 1; t <= ticks; ++t) {
    std::uint32_t n = inputScenarioPlayerInput(0, t, buf);
    n += inputScenarioPlayerInput(1, t, buf + n);
    TickInput in;
    in.data = n != 0 ? buf : nullptr;
    in.size = n;
    EXPECT_TRUE(run->step(in).ok());
    sums[t] = checksumOf(*run, kind);
  }
  return sums;
}

struct Confirmed {
  std::vector<std::uint64_t> sum = std::vector<std::uint64_t>(kTicks + 1, 0);
  std::uint64_t count = 0;
};
void onConfirmed(void* ctx, std::uint64_t tick, std::uint64_t hash) noexcept {
  auto* c = static_cast<Confirmed*>(ctx);
  if (tick < c->sum.size()) c->sum[tick] = hash;
  ++c->count;
}

// Fails the combine of one tick once (the undo of a failed rollback).
struct FailOnce {
  std::uint64_t tick = 0;
};
Status combineFailingOnce(void* ctx, std::uint64_t tick, const RollbackTickInputs& in, std::span<std::uint8_t> out,
                          std::uint32_t& written) noexcept {
  auto* f = static_cast<FailOnce*>(ctx);
  if (tick == f->tick) {
    f->tick = 0;
    return Status::failure(ErrorCode::Unknown, "test_combine_failed");
  }
  return RollbackSession::combineConcatenated(nullptr, tick, in, out, written);
}

struct Burst {
  std::unique_ptr<ScenarioRun> run = openRun();
  RollbackSession session;
  Confirmed confirmed;
  FailOnce fail;
  std::uint64_t remoteSent = 0;  // player 1's inputs given: ticks 1..remoteSent

  explicit Burst(RollbackChecksum kind) {
    RollbackSession::Options o;
    o.players = 2;
    o.localPlayer = 0;
    o.depth = 12;
    o.maxInputBytes = 12;
    o.checksum = kind;
    o.combine = &combineFailingOnce;
    o.combineContext = &fail;
    o.onConfirmed = &onConfirmed;
    o.onConfirmedContext = &confirmed;
    auto s = RollbackSession::create(run->world(), run->schedule(), o);
    EXPECT_TRUE(s.ok()) << s.status().reason();
    if (s.ok()) session = std::move(s).takeValue();
  }
  // Player 1's inputs for ticks remoteSent + 1 .. upTo, all at once.
  void burst(std::uint64_t upTo) {
    std::uint8_t buf[12];
    for (std::uint64_t t = remoteSent + 1; t <= upTo; ++t) {
      const std::uint32_t n = inputScenarioPlayerInput(1, t, buf);
      ASSERT_TRUE(session.addRemoteInput(1, t, std::span<const std::uint8_t>(buf, n)).ok());
    }
    if (upTo > remoteSent) remoteSent = upTo;
  }
  void local(std::uint64_t t) {
    std::uint8_t buf[12];
    const std::uint32_t n = inputScenarioPlayerInput(0, t, buf);
    ASSERT_TRUE(session.setLocalInput(t, std::span<const std::uint8_t>(buf, n)).ok());
  }
};

// Player 1 silent for `gap` ticks (3..11, cycling), then every input it
// owes in one burst before the next advance.
std::uint64_t gapAt(std::uint64_t k) { return 3 + (k * 5) % 9; }

void runBursts(RollbackChecksum kind, bool failInside) {
  const std::vector<std::uint64_t> want = reference(kind, kTicks);
  Burst b(kind);
  std::uint64_t nextBurst = gapAt(0);
  std::uint64_t bursts = 0;
  std::uint64_t undone = 0;
  for (std::uint64_t t = 1; t <= kTicks; ++t) {
    b.local(t);
    if (t - 1 == nextBurst) {
      b.burst(t - 1);
      nextBurst = t - 1 + gapAt(++bursts);
      const std::uint64_t from = b.session.pendingRollbackTick();
      if (failInside && from != 0 && from + 2 < t) {
        // Fail the re-run two ticks into the rollback: undone, then retried.
        const std::uint64_t hash = b.run->hash();
        b.fail.tick = from + 2;
        EXPECT_STREQ(b.session.advance().reason(), "test_combine_failed");
        EXPECT_EQ(b.run->hash(), hash);
        EXPECT_EQ(b.session.pendingRollbackTick(), from);
        ++undone;
      }
    }
    const Status st = b.session.advance();
    ASSERT_TRUE(st.ok()) << st.reason() << " at tick " << t;
  }
  // Every tick up to the last burst is confirmed, with the reference's checksum.
  EXPECT_EQ(b.session.confirmedTick(), b.remoteSent);
  ASSERT_GT(b.remoteSent, kTicks / 2);
  for (std::uint64_t t = 1; t <= b.remoteSent; ++t) {
    ASSERT_EQ(b.confirmed.sum[t], want[t]) << "tick " << t;
  }
  EXPECT_EQ(b.confirmed.count, b.remoteSent);
  EXPECT_GT(b.session.stats().rollbacks, bursts / 2);
  if (failInside) {
    EXPECT_GT(undone, 10u);
  }
  // The rest arrives: every tick is confirmed with the reference's checksum.
  b.burst(kTicks);
  b.local(kTicks + 1);
  ASSERT_TRUE(b.session.advance().ok());
  EXPECT_EQ(b.session.confirmedTick(), kTicks);
  for (std::uint64_t t = 1; t <= kTicks; ++t) {
    ASSERT_EQ(b.confirmed.sum[t], want[t]) << "tick " << t;
  }
}

TEST(RollbackBurst, AdvanceAllocatesNothingAfterWarmUp) {
  test::SwarmSession swarm;
  ASSERT_NE(swarm.run, nullptr);
  RollbackSession& session = swarm.session;
  std::uint64_t sent = 0;
  std::uint64_t nextBurst = gapAt(0);
  std::uint64_t bursts = 0;
  auto step = [&](std::uint64_t t) {
    ASSERT_TRUE(session.setLocalInput(t, std::span<const std::uint8_t>{}).ok());
    if (t - 1 == nextBurst) {
      for (std::uint64_t k = sent + 1; k < t; ++k) {
        std::uint8_t a[8];
        test::swarmAttractorInput(k / 3, a);
        ASSERT_TRUE(session.addRemoteInput(1, k, a).ok());
      }
      sent = t - 1;
      nextBurst = t - 1 + gapAt(++bursts);
    }
    ASSERT_TRUE(session.advance().ok());
  };
  for (std::uint64_t t = 1; t <= 80; ++t) step(t);
  const RollbackStats warm = session.stats();
  test::AllocationWindow window;
  for (std::uint64_t t = 81; t <= 160; ++t) step(t);
  EXPECT_EQ(window.allocations(), 0u);
  EXPECT_GT(session.stats().rollbacks - warm.rollbacks, 5u);
}

TEST(RollbackBurst, FastSessionMatchesTheRunWithEveryInputInTime) { runBursts(RollbackChecksum::Fast, false); }
TEST(RollbackBurst, ColumnsSessionMatchesTheRunWithEveryInputInTime) { runBursts(RollbackChecksum::Columns, false); }
TEST(RollbackBurst, StateHashSessionMatchesTheRunWithEveryInputInTime) {
  runBursts(RollbackChecksum::StateHash, false);
}
TEST(RollbackBurst, FailedRollbackAfterABurstIsUndoneAndRetried) { runBursts(RollbackChecksum::Fast, true); }

}  // namespace
}  // namespace laige
