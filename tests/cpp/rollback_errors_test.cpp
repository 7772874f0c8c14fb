// rollback_errors_test.cpp - RollbackSession's refusals (each with its
// reason, and nothing changed: the same state hash, tick, stats and
// inputs), the undo of an advance that failed half-way, the prediction
// limit, and no allocation in advance() (the counting allocator).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "laige/rollback.h"
#include "laige/system.h"
#include "laige/world.h"
#include "scenario.h"
#include "support/counting_allocator.h"
#include "support/rollback_net.h"
#include "support/rollback_swarm.h"

namespace laige {
namespace {

using test::inputScenarioPlayerInput;

std::unique_ptr<ScenarioRun> openRun(const char* name) {
  const Scenario* sc = findScenario(name);
  EXPECT_NE(sc, nullptr);
  auto r = ScenarioRun::create(*sc, sc->defaultSeed);
  EXPECT_TRUE(r.ok());
  return std::make_unique<ScenarioRun>(std::move(r).takeValue());
}

struct Fixture {
  std::unique_ptr<ScenarioRun> run = openRun("input");
  RollbackSession session;

  explicit Fixture(RollbackSession::Options o = base()) {
    auto s = RollbackSession::create(run->world(), run->schedule(), o);
    EXPECT_TRUE(s.ok()) << s.status().reason();
    if (s.ok()) session = std::move(s).takeValue();
  }
  static RollbackSession::Options base() {
    RollbackSession::Options o;
    o.players = 2;
    o.localPlayer = 0;
    o.depth = 8;
    o.maxInputBytes = 12;
    o.combine = &RollbackSession::combineConcatenated;
    return o;
  }
  // Local input for ticks 1..n and n advances; player 1 silent (predicted).
  void advanceTo(std::uint64_t n) {
    std::uint8_t buf[12];
    while (session.currentTick() < n) {
      const std::uint64_t t = session.currentTick() + 1;
      const std::uint32_t k = inputScenarioPlayerInput(0, t, buf);
      const Status st = session.setLocalInput(t, std::span<const std::uint8_t>(buf, k));
      ASSERT_TRUE(st.ok()) << st.reason();
      ASSERT_TRUE(session.advance().ok());
    }
  }
};

// What "changed nothing" compares.
struct Observed {
  std::uint64_t hash, tick, confirmed, pending, advances, misses, duplicates;
  static Observed of(const Fixture& f) {
    const RollbackStats s = f.session.stats();
    return {f.run->hash(), f.session.currentTick(), f.session.confirmedTick(), f.session.pendingRollbackTick(),
            s.advances, s.predictionMisses, s.duplicateInputs};
  }
  bool operator==(const Observed&) const = default;
};

#define EXPECT_REFUSED(call, reasonText)                   \
  do {                                                     \
    const Observed before_ = Observed::of(f);              \
    const Status st_ = (call);                             \
    EXPECT_TRUE(st_.isError());                            \
    EXPECT_STREQ(st_.reason(), reasonText);                \
    EXPECT_TRUE(Observed::of(f) == before_) << reasonText; \
  } while (0)

const std::uint8_t kTwo[] = {1, 2};
const std::uint8_t kOther[] = {1, 3};

TEST(RollbackErrors, OptionsOutOfRange) {
  std::unique_ptr<ScenarioRun> run = openRun("input");
  auto bad = [&](auto edit, const char* option) {
    RollbackSession::Options o = Fixture::base();
    edit(o);
    auto r = RollbackSession::create(run->world(), run->schedule(), o);
    ASSERT_TRUE(r.isError()) << option;
    EXPECT_STREQ(r.status().reason(), "rollback_option_invalid");
    EXPECT_STREQ(r.status().fieldValue("option"), option);
  };
  bad([](auto& o) { o.players = 0; }, "players");
  bad([](auto& o) { o.players = 9; }, "players");
  bad([](auto& o) { o.localPlayer = 2; }, "localPlayer");
  bad([](auto& o) { o.depth = 0; }, "depth");
  bad([](auto& o) { o.depth = kMaxRollbackDepth + 1; }, "depth");
  bad([](auto& o) { o.maxInputBytes = 256; }, "maxInputBytes");
  bad([](auto& o) { o.inputLead = 0; }, "inputLead");
  bad([](auto& o) { o.maxPredictionTicks = 9; }, "maxPredictionTicks");
  bad([](auto& o) { o.checksum = static_cast<RollbackChecksum>(3); }, "checksum");
  World moved;
  SystemSchedule none;
  auto r = RollbackSession::create(moved, none, Fixture::base());
  EXPECT_STREQ(r.status().reason(), "world_moved_from");
}

// The ring is (depth + 2) x snapshotCapacity bytes: with a 32-bit size_t
// (wasm) that product can pass SIZE_MAX. It is refused, never allocated
// with the wrapped (too small) size: 4 slots of 1 GiB wrapped to 0 bytes,
// and advance() would have written the snapshots past the allocation.
TEST(RollbackErrors, RingLargerThanSizeTIsRefused) {
  if constexpr (sizeof(std::size_t) > 4) {
    GTEST_SKIP() << "a 64-bit size_t holds every ring size";
  } else {
    std::unique_ptr<ScenarioRun> run = openRun("input");
    RollbackSession::Options o = Fixture::base();
    o.depth = 2;
    o.snapshotCapacity = std::size_t{1} << 30;
    auto r = RollbackSession::create(run->world(), run->schedule(), o);
    ASSERT_TRUE(r.isError());
    EXPECT_STREQ(r.status().reason(), "rollback_alloc_failed");
    EXPECT_STREQ(r.status().fieldValue("bytes"), "4294967296");
  }
}

TEST(RollbackErrors, BadPlayerIndex) {
  Fixture f;
  f.advanceTo(3);
  EXPECT_REFUSED(f.session.addRemoteInput(2, 2, kTwo), "player_invalid");
  EXPECT_REFUSED(f.session.addRemoteInput(0, 2, kTwo), "player_invalid");  // the local player
  const Status st = f.session.addRemoteInput(7, 2, kTwo);
  EXPECT_STREQ(st.fieldValue("players"), "2");
  EXPECT_STREQ(st.fieldValue("local"), "0");
}

TEST(RollbackErrors, OversizedInput) {
  Fixture f;
  f.advanceTo(2);
  const std::vector<std::uint8_t> big(13, 1);
  EXPECT_REFUSED(f.session.addRemoteInput(1, 3, big), "input_too_large");
  EXPECT_REFUSED(f.session.setLocalInput(3, big), "input_too_large");
  const Status st = f.session.setLocalInput(3, big);
  EXPECT_STREQ(st.fieldValue("size"), "13");
  EXPECT_STREQ(st.fieldValue("max"), "12");
}

TEST(RollbackErrors, WrongTickOrder) {
  Fixture f;
  f.advanceTo(5);
  // A local input for a tick already run, and for tick 0 (never run); the
  // bytes a tick ran with, given again, are a duplicate.
  EXPECT_REFUSED(f.session.setLocalInput(4, kOther), "local_input_passed");
  std::uint8_t ran[12];
  EXPECT_TRUE(f.session.setLocalInput(4, std::span<const std::uint8_t>(ran, inputScenarioPlayerInput(0, 4, ran))).ok());
  EXPECT_REFUSED(f.session.setLocalInput(0, kOther), "local_input_passed");
  // Beyond the input lead.
  EXPECT_REFUSED(f.session.setLocalInput(5 + kDefaultRollbackInputLead + 1, kTwo), "input_too_early");
  EXPECT_REFUSED(f.session.addRemoteInput(1, 5 + kDefaultRollbackInputLead + 1, kTwo), "input_too_early");
  // advance() without the local input of the next tick.
  EXPECT_REFUSED(f.session.advance(), "local_input_missing");
  EXPECT_STREQ(f.session.advance().fieldValue("tick"), "6");
  // The same local input again is a no-op; other bytes are a conflict.
  ASSERT_TRUE(f.session.setLocalInput(6, kTwo).ok());
  EXPECT_TRUE(f.session.setLocalInput(6, kTwo).ok());
  EXPECT_REFUSED(f.session.setLocalInput(6, kOther), "input_conflict");
}

TEST(RollbackErrors, TooLateInput) {
  Fixture f;  // depth 8
  f.advanceTo(20);
  EXPECT_EQ(f.session.oldestTick(), 13u);
  EXPECT_REFUSED(f.session.addRemoteInput(1, 12, kTwo), "input_too_late");
  EXPECT_REFUSED(f.session.addRemoteInput(1, 0, kTwo), "input_too_late");
  const Status st = f.session.addRemoteInput(1, 12, kTwo);
  EXPECT_STREQ(st.fieldValue("tick"), "12");
  EXPECT_STREQ(st.fieldValue("oldest"), "13");
  // The oldest tick still in the ring is accepted (and rolls back 8 ticks).
  ASSERT_TRUE(f.session.addRemoteInput(1, 13, kTwo).ok());
  EXPECT_EQ(f.session.pendingRollbackTick(), 13u);
  f.advanceTo(21);
  EXPECT_EQ(f.session.stats().lastAdvanceRolledBackTicks, 8u);
  EXPECT_EQ(f.session.stats().deepestRollback, 8u);
}

TEST(RollbackErrors, ConflictingInputForAConfirmedTick) {
  Fixture f;
  for (std::uint64_t t = 1; t <= 6; ++t) ASSERT_TRUE(f.session.addRemoteInput(1, t, kTwo).ok());
  f.advanceTo(6);
  ASSERT_EQ(f.session.confirmedTick(), 6u);
  EXPECT_TRUE(f.session.addRemoteInput(1, 4, kTwo).ok());  // a duplicate
  EXPECT_REFUSED(f.session.addRemoteInput(1, 4, kOther), "input_conflict");
  const Status st = f.session.addRemoteInput(1, 4, kOther);
  EXPECT_STREQ(st.fieldValue("confirmed"), "true");
  EXPECT_STREQ(st.fieldValue("tick"), "4");
  // A received but unconfirmed tick's input cannot change either.
  ASSERT_TRUE(f.session.addRemoteInput(1, 9, kTwo).ok());
  EXPECT_REFUSED(f.session.addRemoteInput(1, 9, kOther), "input_conflict");
  EXPECT_STREQ(f.session.addRemoteInput(1, 9, kOther).fieldValue("confirmed"), "false");
  // Long after: the bytes are gone, a duplicate of a received tick is a no-op.
  f.advanceTo(100);
  EXPECT_TRUE(f.session.addRemoteInput(1, 2, kTwo).ok());
}

TEST(RollbackErrors, ConfirmedHashOutsideTheHistory) {
  Fixture f;
  f.advanceTo(4);  // player 1 never sent: nothing confirmed
  const Result<std::uint64_t> h = f.session.confirmedHash(1);
  ASSERT_TRUE(h.isError());
  EXPECT_STREQ(h.status().reason(), "hash_unavailable");
  EXPECT_STREQ(h.status().fieldValue("confirmed"), "0");
}

// One advance can confirm up to depth + 1 ticks; even with hashHistory = 1
// every one of them can be looked up after it.
TEST(RollbackErrors, ConfirmedHashesOfOneAdvanceStayAvailable) {
  RollbackSession::Options o = Fixture::base();
  o.hashHistory = 1;
  Fixture f(o);
  f.advanceTo(8);
  for (std::uint64_t t = 1; t <= 9; ++t) ASSERT_TRUE(f.session.addRemoteInput(1, t, kTwo).ok());
  f.advanceTo(9);
  ASSERT_EQ(f.session.confirmedTick(), 9u);
  EXPECT_EQ(f.session.stats().lastAdvanceRolledBackTicks, 8u);
  for (std::uint64_t t = 1; t <= 9; ++t) EXPECT_TRUE(f.session.confirmedHash(t).ok()) << t;
  EXPECT_EQ(f.session.confirmedHash(9).value(), f.run->world().stateChecksum(f.run->world().systemTicksRun()));
  for (std::uint64_t t = 10; t <= 30; ++t) ASSERT_TRUE(f.session.addRemoteInput(1, t, kTwo).ok());
  f.advanceTo(30);
  EXPECT_STREQ(f.session.confirmedHash(9).status().reason(), "hash_unavailable");
  EXPECT_TRUE(f.session.confirmedHash(30).ok());
}

TEST(RollbackErrors, PredictionLimitWaitsForTheLatePeer) {
  RollbackSession::Options o = Fixture::base();
  o.maxPredictionTicks = 4;
  Fixture f(o);
  f.advanceTo(4);
  ASSERT_TRUE(f.session.setLocalInput(5, kTwo).ok());
  EXPECT_REFUSED(f.session.advance(), "prediction_limit");
  ASSERT_TRUE(f.session.addRemoteInput(1, 1, kTwo).ok());
  ASSERT_TRUE(f.session.advance().ok());  // 4 - 1 < 4
  EXPECT_EQ(f.session.confirmedTick(), 1u);
  ASSERT_TRUE(f.session.setLocalInput(6, kTwo).ok());
  EXPECT_REFUSED(f.session.advance(), "prediction_limit");  // 5 - 1 >= 4
}

TEST(RollbackErrors, MovedFromSession) {
  Fixture f;
  RollbackSession taken = std::move(f.session);
  EXPECT_FALSE(f.session.isLive());
  EXPECT_STREQ(f.session.advance().reason(), "session_moved_from");
  EXPECT_STREQ(f.session.setLocalInput(1, kTwo).reason(), "session_moved_from");
  EXPECT_STREQ(f.session.addRemoteInput(1, 1, kTwo).reason(), "session_moved_from");
  EXPECT_TRUE(taken.setLocalInput(1, kTwo).ok());
  EXPECT_TRUE(taken.advance().ok());
}

// A combiner that fails at one tick: the advance that reaches it fails,
// the world is back where it was (hash, tick), the rollback stays pending,
// and the next advance without the failure gives the right hashes.
struct FailAt {
  std::uint64_t tick = 0;
  int calls = 0;
};
Status failingCombine(void* ctx, std::uint64_t tick, const RollbackTickInputs& in, std::span<std::uint8_t> out,
                      std::uint32_t& written) noexcept {
  auto* f = static_cast<FailAt*>(ctx);
  ++f->calls;
  if (tick == f->tick) return Status::failure(ErrorCode::Unknown, "test_combine_failed");
  return RollbackSession::combineConcatenated(nullptr, tick, in, out, written);
}

TEST(RollbackErrors, FailedAdvanceIsUndone) {
  FailAt fail;
  RollbackSession::Options o = Fixture::base();
  o.combine = &failingCombine;
  o.combineContext = &fail;
  Fixture f(o);
  f.advanceTo(10);
  const std::uint64_t hash10 = f.run->hash();
  std::uint8_t buf[12];
  ASSERT_TRUE(f.session.setLocalInput(11, std::span<const std::uint8_t>(buf, inputScenarioPlayerInput(0, 11, buf))).ok());
  // A miss at tick 5: the next advance rolls back 6 ticks and fails at tick 8.
  const std::uint8_t fire[] = {2, 9, 0, 1, 0, 1};
  ASSERT_TRUE(f.session.addRemoteInput(1, 5, fire).ok());
  fail.tick = 8;
  const RollbackStats before = f.session.stats();
  const Status st = f.session.advance();
  EXPECT_STREQ(st.reason(), "test_combine_failed");
  EXPECT_EQ(f.run->hash(), hash10);
  EXPECT_EQ(f.run->tick(), 10u);
  EXPECT_EQ(f.session.currentTick(), 10u);
  EXPECT_EQ(f.session.pendingRollbackTick(), 5u);
  EXPECT_EQ(f.session.stats().rollbacks, before.rollbacks);
  EXPECT_EQ(f.session.stats().advances, before.advances);
  // A failure on the plain path (no rollback pending) is undone too.
  fail.tick = 0;
  ASSERT_TRUE(f.session.advance().ok());
  EXPECT_EQ(f.session.stats().lastAdvanceRolledBackTicks, 6u);
  // The result equals a run that had the miss's input at tick 5 from the start.
  std::unique_ptr<ScenarioRun> plain = openRun("input");
  for (std::uint64_t t = 1; t <= 11; ++t) {
    std::uint8_t in[18];
    std::uint32_t n = inputScenarioPlayerInput(0, t, in);
    if (t >= 5) {  // player 1: silent before 5, then its tick-5 input repeated (the prediction)
      std::memcpy(in + n, fire, sizeof fire);
      n += sizeof fire;
    }
    TickInput ti;
    ti.data = n != 0 ? in : nullptr;
    ti.size = n;
    ASSERT_TRUE(plain->step(ti).ok());
  }
  EXPECT_EQ(f.run->hash(), plain->hash());
  ASSERT_TRUE(f.session.setLocalInput(12, kTwo).ok());
  fail.tick = 12;
  const std::uint64_t hash11 = f.run->hash();
  EXPECT_STREQ(f.session.advance().reason(), "test_combine_failed");
  EXPECT_EQ(f.run->hash(), hash11);
  EXPECT_EQ(f.session.currentTick(), 11u);
}

// advance() from a hook of the same session is refused.
struct Reenter {
  RollbackSession* session = nullptr;
  Status seen;
};
Status reenteringAfterTick(void* ctx, World&, std::uint64_t) noexcept {
  auto* r = static_cast<Reenter*>(ctx);
  r->seen = r->session->advance();
  if (r->seen.ok()) return Status{};
  const std::uint8_t b[] = {1};
  const Status in = r->session->setLocalInput(r->session->currentTick() + 3, b);
  if (in.ok() || std::string(in.reason()) != "input_inside_advance") r->seen = Status{};
  return Status{};
}

TEST(RollbackErrors, AdvanceInsideItsOwnHookIsRefused) {
  Reenter re;
  RollbackSession::Options o = Fixture::base();
  o.afterTick = &reenteringAfterTick;
  o.afterTickContext = &re;
  Fixture f(o);
  re.session = &f.session;
  f.advanceTo(1);
  EXPECT_STREQ(re.seen.reason(), "tick_inside_callback");
  EXPECT_STREQ(re.seen.fieldValue("callback"), "rollback_hook");
  EXPECT_EQ(f.session.currentTick(), 1u);
}

// swarm (2,400 agents): a remote input 8 ticks late and different from the
// prediction every 4th tick, so most advances roll back; after warm-up no
// advance allocates.
TEST(RollbackAllocation, AdvanceAllocatesNothingAfterWarmUp) {
  test::SwarmSession swarm;
  ASSERT_NE(swarm.run, nullptr);
  RollbackSession& session = swarm.session;
  auto step = [&](std::uint64_t t) {
    ASSERT_TRUE(session.setLocalInput(t, std::span<const std::uint8_t>{}).ok());
    if (t > 8) {
      std::uint8_t a[8];
      test::swarmAttractorInput((t - 8) / 4, a);
      ASSERT_TRUE(session.addRemoteInput(1, t - 8, a).ok());
    }
    ASSERT_TRUE(session.advance().ok());
  };
  for (std::uint64_t t = 1; t <= 80; ++t) step(t);
  test::AllocationWindow window;
  for (std::uint64_t t = 81; t <= 160; ++t) step(t);
  EXPECT_EQ(window.allocations(), 0u);
  EXPECT_GT(session.stats().rollbacks, 10u);
  EXPECT_EQ(session.stats().deepestRollback, 8u);
}

}  // namespace
}  // namespace laige
