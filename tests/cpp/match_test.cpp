// match_test.cpp - one match of the match server (cpp/tools/match.h): the
// confirmed hashes equal a plain ScenarioRun fed the same combined inputs
// (the model), late joiners and spectators catch up from snapshot + tail,
// the reconnect window and the missing-player rule (the empty input), and
// every refusal leaves the match (its world's state hash, its tick) as it was.
#include "match.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support/counting_allocator.h"
#include "support/serve_lines.h"

namespace laige::serve {
namespace {

using test::catchUpFrom;
using test::hex;
using test::linesFor;
using test::playerInput;
using test::splitLines;
using test::words;

constexpr ConnId kA = 11;
constexpr ConnId kB = 22;
constexpr ConnId kC = 33;
constexpr ConnId kD = 44;

const Scenario& inputScenario() { return *findScenario("input"); }

Match makeMatch(std::uint32_t players, MatchOptions options = {}) {
  Result<Match> m = Match::create("m1", inputScenario(), 7, players, options);
  EXPECT_TRUE(m.ok());
  return std::move(m).takeValue();
}

// Sends player `conn`'s generated input (as player `p`) for `tick`.
std::string send(Match& m, ConnId conn, std::uint32_t p, std::uint64_t tick) {
  std::string out;
  const std::vector<std::uint8_t> in = playerInput(p, tick);
  m.input(conn, tick, in.data(), static_cast<std::uint32_t>(in.size()), out);
  return out;
}

// A plain run stepped with the concatenation of each player's input (an
// empty vector for a missing player).
struct Model {
  ScenarioRun run = ScenarioRun::create(inputScenario(), 7).takeValue();
  void step(const std::vector<std::vector<std::uint8_t>>& inputs) {
    const std::vector<std::uint8_t> all = test::concatInputs(inputs);
    TickInput in;
    in.data = all.empty() ? nullptr : all.data();
    in.size = static_cast<std::uint32_t>(all.size());
    ASSERT_TRUE(run.step(in).ok());
  }
};

// Two connected players of a started match.
Match startedPair(MatchOptions options = {}) {
  Match m = makeMatch(2, options);
  std::string out;
  m.join(kA, false, out);
  m.join(kB, false, out);
  return m;
}

std::string tokenOf(const std::string& out, ConnId conn) {
  for (const std::string& line : linesFor(splitLines(out), conn)) {
    const std::vector<std::string> w = words(line);
    if (w[0] == "joined") return w[4];
  }
  return {};
}

TEST(Match, TwoPlayersConfirmTicksWithThePlainRunsHashes) {
  Match m = makeMatch(2);
  std::string out;
  m.join(kA, false, out);
  m.join(kB, false, out);
  const auto lines = splitLines(out);
  EXPECT_EQ(linesFor(lines, kA).back(), "start m1 0");
  EXPECT_EQ(linesFor(lines, kB).back(), "start m1 0");
  Model model;
  for (std::uint64_t t = 1; t <= 100; ++t) {
    // Player B runs ahead by one tick: a tick confirms when A's input lands.
    if (t == 1) send(m, kB, 1, 1);
    if (t < 100) send(m, kB, 1, t + 1);
    const std::string reply = send(m, kA, 0, t);
    EXPECT_EQ(m.confirmedTick(), t);
    model.step({playerInput(0, t), playerInput(1, t)});
    ASSERT_EQ(m.confirmedHash(), model.run.hash()) << "tick " << t;
    // A's input is relayed to B only.
    EXPECT_EQ(linesFor(splitLines(reply), kB).at(0), "input m1 0 " + std::to_string(t) + " " + hex(playerInput(0, t)));
    EXPECT_TRUE(linesFor(splitLines(reply), kA).empty());
  }
  std::string verdict;
  m.reportHash(kA, 100, model.run.hash(), verdict);
  EXPECT_EQ(verdict, "11 verdict m1 100 ok\n");
  verdict.clear();
  m.reportHash(kB, 99, 0x1234, verdict);
  EXPECT_EQ(verdict.rfind("22 desync m1 99 player=1 expected=", 0), 0u) << verdict;
  EXPECT_NE(verdict.find(" got=0000000000001234"), std::string::npos) << verdict;
  EXPECT_EQ(m.statsSnapshot().desyncs, 1u);
}

// The world itself may allocate on some ticks (an archetype growing): the
// match must add nothing to that, so it is compared with a plain run.
TEST(Match, RelayingAndConfirmingAllocateNothingBeyondTheWorldOnceWarm) {
  MatchOptions o;
  o.snapshotEvery = 1000;  // no snapshot inside the window
  Match m = startedPair(o);
  std::string out;
  out.reserve(1 << 16);
  std::vector<std::vector<std::uint8_t>> in[2];
  for (std::uint32_t p = 0; p < 2; ++p) {
    for (std::uint64_t t = 1; t <= 200; ++t) in[p].push_back(playerInput(p, t));
  }
  std::uint64_t matchAllocations = 0;
  for (std::uint64_t t = 1; t <= 200; ++t) {
    const laige::test::AllocationWindow window;
    out.clear();
    for (std::uint32_t p = 0; p < 2; ++p) {
      const std::vector<std::uint8_t>& b = in[p][t - 1];
      m.input(p == 0 ? kA : kB, t, b.data(), static_cast<std::uint32_t>(b.size()), out);
    }
    if (t > 50) matchAllocations += window.allocations();
  }
  EXPECT_EQ(m.confirmedTick(), 200u);
  Model model;
  std::vector<std::uint8_t> all;
  all.reserve(64);
  std::uint64_t plainAllocations = 0;
  for (std::uint64_t t = 1; t <= 200; ++t) {
    const laige::test::AllocationWindow window;
    all.clear();
    all.insert(all.end(), in[0][t - 1].begin(), in[0][t - 1].end());
    all.insert(all.end(), in[1][t - 1].begin(), in[1][t - 1].end());
    ASSERT_TRUE(model.run.step(TickInput{all.data(), static_cast<std::uint32_t>(all.size())}).ok());
    if (t > 50) plainAllocations += window.allocations();
  }
  EXPECT_EQ(matchAllocations, plainAllocations);
  EXPECT_EQ(m.confirmedHash(), model.run.hash());
}

TEST(Match, NoTickRunsBeforeEveryPlayerJoined) {
  Match m = makeMatch(2);
  std::string out;
  m.join(kA, false, out);
  send(m, kA, 0, 1);
  send(m, kA, 0, 2);
  EXPECT_EQ(m.confirmedTick(), 0u);
  out.clear();
  m.join(kB, false, out);
  // B is told A's inputs already sent; nothing confirms until B sends.
  const auto forB = linesFor(splitLines(out), kB);
  EXPECT_NE(std::find(forB.begin(), forB.end(), "input m1 0 1 " + hex(playerInput(0, 1))), forB.end());
  EXPECT_EQ(m.confirmedTick(), 0u);
  send(m, kB, 1, 1);
  send(m, kB, 1, 2);
  EXPECT_EQ(m.confirmedTick(), 2u);
}

TEST(Match, SpectatorGetsConfirmedInputsOnlyAndCannotSendInput) {
  Match m = startedPair();
  std::string out;
  m.join(kC, true, out);
  out.clear();
  send(m, kA, 0, 1);
  const std::string reply = send(m, kB, 1, 1);
  const auto forC = linesFor(splitLines(reply), kC);
  ASSERT_EQ(forC.size(), 1u);
  const std::vector<std::string> w = words(forC[0]);
  ASSERT_EQ(w.size(), 6u);
  EXPECT_EQ(w[0], "confirmed");
  EXPECT_EQ(w[4], hex(playerInput(0, 1)));
  EXPECT_EQ(w[5], hex(playerInput(1, 1)));
  // Refused, nothing changes.
  const std::uint64_t hash = m.run().world().stateHash(m.confirmedTick());
  const std::vector<std::uint8_t> in = playerInput(0, 2);
  m.input(kC, 2, in.data(), static_cast<std::uint32_t>(in.size()), out);
  EXPECT_EQ(out, "33 error match_spectator_input\n");
  EXPECT_EQ(m.confirmedTick(), 1u);
  EXPECT_EQ(m.run().world().stateHash(m.confirmedTick()), hash);
  // Its hash report is checked like a player's.
  out.clear();
  m.reportHash(kC, 1, m.confirmedHash(), out);
  EXPECT_EQ(out, "33 verdict m1 1 ok\n");
}

TEST(Match, LateSpectatorRestoresTheSnapshotAndReachesTheConfirmedHash) {
  MatchOptions o;
  o.snapshotEvery = 30;
  Match m = startedPair(o);
  for (std::uint64_t t = 1; t <= 75; ++t) {
    send(m, kA, 0, t);
    send(m, kB, 1, t);
  }
  std::string out;
  m.join(kC, true, out);
  const auto forC = linesFor(splitLines(out), kC);
  ASSERT_GE(forC.size(), 2u);
  EXPECT_EQ(forC[0], "joined m1 spectator - - 2 input 0x7");
  EXPECT_EQ(words(forC[1])[2], "60");  // the latest kept snapshot
  ScenarioRun run = ScenarioRun::create(inputScenario(), 7).takeValue();
  EXPECT_EQ(catchUpFrom(forC, run), 15);  // ticks 61 .. 75
  EXPECT_EQ(run.tick(), 75u);
  EXPECT_EQ(run.hash(), m.confirmedHash());
}

// --spectator-delay: spectators are sent tick t when t + delay confirms; a
// late spectator catches up to confirmed - delay from the kept snapshot
// before it (older than the players'); a live tick is never sent nor
// checkable by a spectator; every line equals the plain run (catchUpFrom
// checks each hash).
TEST(Match, SpectatorsRunBehindByTheDelayAndNeverSeeALiveTick) {
  MatchOptions o;
  o.snapshotEvery = 10;
  o.spectatorDelay = 25;
  Match m = startedPair(o);
  std::string early;
  m.join(kC, true, early);  // at tick 0: the snapshot of tick 0, no tail
  for (std::uint64_t t = 1; t <= 40; ++t) {
    send(m, kA, 0, t);
    early += send(m, kB, 1, t);
  }
  const auto forC = linesFor(splitLines(early), kC);
  ScenarioRun run = ScenarioRun::create(inputScenario(), 7).takeValue();
  EXPECT_EQ(catchUpFrom(forC, run), 15);  // ticks 1 .. 40 - 25
  EXPECT_EQ(run.tick(), 15u);
  EXPECT_EQ(words(forC.back())[2], "15");

  // Far past the snapshot interval: a late spectator at 200 starts from 170.
  for (std::uint64_t t = 41; t <= 200; ++t) {
    send(m, kA, 0, t);
    send(m, kB, 1, t);
  }
  std::string out;
  m.join(kD, true, out);
  const auto forD = linesFor(splitLines(out), kD);
  ASSERT_GE(forD.size(), 2u);
  EXPECT_EQ(words(forD[1])[2], "170");
  ScenarioRun late = ScenarioRun::create(inputScenario(), 7).takeValue();
  EXPECT_EQ(catchUpFrom(forD, late), 5);  // 171 .. 175
  EXPECT_EQ(late.tick(), 175u);
  // A player joining now would get the newest snapshot (200): the stats say so.
  EXPECT_EQ(m.statsSnapshot().snapshotTick, 200u);

  // Bad input: the live tick's hash, asked by a spectator, is refused (the
  // delay would leak otherwise); its input too; nothing changes.
  const std::uint64_t hash = m.run().world().stateHash(200);
  out.clear();
  m.reportHash(kD, 176, late.hash(), out);
  EXPECT_EQ(out, "44 error match_hash_unknown_tick tick=176 confirmed=175 oldest=0\n");
  out.clear();
  const std::vector<std::uint8_t> in = playerInput(0, 201);
  m.input(kD, 201, in.data(), static_cast<std::uint32_t>(in.size()), out);
  EXPECT_EQ(out, "44 error match_spectator_input\n");
  EXPECT_EQ(m.confirmedTick(), 200u);
  EXPECT_EQ(m.run().world().stateHash(200), hash);
  out.clear();
  m.reportHash(kD, 175, late.hash(), out);
  EXPECT_EQ(out, "44 verdict m1 175 ok\n");
  // A player still reports the live tick.
  out.clear();
  m.reportHash(kA, 200, m.confirmedHash(), out);
  EXPECT_EQ(out, "11 verdict m1 200 ok\n");
  // The next confirmed tick sends the spectators tick 176.
  send(m, kA, 0, 201);
  const auto next = linesFor(splitLines(send(m, kB, 1, 201)), kD);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(catchUpFrom(next, late), 1);
  EXPECT_EQ(late.tick(), 176u);
}

TEST(Match, ReconnectInsideTheWindowResumesTheSlot) {
  MatchOptions o;
  o.reconnectTicks = 10;
  o.snapshotEvery = 4;
  Model model;
  Match m = makeMatch(2, o);
  std::string out;
  m.join(kA, false, out);
  m.join(kB, false, out);
  const std::string tokenB = tokenOf(out, kB);
  for (std::uint64_t t = 1; t <= 5; ++t) {
    send(m, kA, 0, t);
    send(m, kB, 1, t);
    model.step({playerInput(0, t), playerInput(1, t)});
  }
  out.clear();
  m.closed(kB, out);
  EXPECT_EQ(linesFor(splitLines(out), kA), std::vector<std::string>{"player m1 1 away 5"});
  EXPECT_EQ(m.slotState(1), SlotState::Away);
  // A plays on; B's input is the empty one, sent to A like a real one.
  for (std::uint64_t t = 6; t <= 13; ++t) {
    const std::string reply = send(m, kA, 0, t);
    EXPECT_EQ(linesFor(splitLines(reply), kA), std::vector<std::string>{"input m1 1 " + std::to_string(t) + " ."});
    model.step({playerInput(0, t), {}});
    ASSERT_EQ(m.confirmedHash(), model.run.hash());
  }
  // Back through a new connection with the slot's token.
  out.clear();
  std::uint64_t token = 0;
  ASSERT_TRUE(peer::parseHash(tokenB, token));
  m.rejoin(kC, 1, token + 1, out);
  EXPECT_EQ(out, "33 error match_bad_token player=1\n");
  out.clear();
  m.rejoin(kC, 1, token, out);
  const auto forC = linesFor(splitLines(out), kC);
  EXPECT_EQ(forC.at(0).rfind("joined m1 player 1 ", 0), 0u);
  ScenarioRun run = ScenarioRun::create(inputScenario(), 7).takeValue();
  EXPECT_EQ(catchUpFrom(forC, run), 1);  // snapshot of tick 12, then tick 13
  EXPECT_EQ(run.hash(), m.confirmedHash());
  EXPECT_EQ(linesFor(splitLines(out), kA), std::vector<std::string>{"player m1 1 back 13"});
  send(m, kA, 0, 14);
  send(m, kC, 1, 14);
  model.step({playerInput(0, 14), playerInput(1, 14)});
  EXPECT_EQ(m.confirmedTick(), 14u);
  EXPECT_EQ(m.confirmedHash(), model.run.hash());
}

TEST(Match, PastTheWindowThePlayerIsDroppedAndItsSlotCanBeTakenByALateJoiner) {
  MatchOptions o;
  o.reconnectTicks = 3;
  o.snapshotEvery = 8;
  Match m = makeMatch(2, o);
  std::string out;
  m.join(kA, false, out);
  m.join(kB, false, out);
  std::uint64_t token = 0;
  ASSERT_TRUE(peer::parseHash(tokenOf(out, kB), token));
  send(m, kA, 0, 1);
  send(m, kB, 1, 1);
  m.closed(kB, out);
  out.clear();
  send(m, kA, 0, 2);
  send(m, kA, 0, 3);
  EXPECT_EQ(m.slotState(1), SlotState::Away);
  out = send(m, kA, 0, 4);
  EXPECT_EQ(m.slotState(1), SlotState::Dropped);
  const auto forA = linesFor(splitLines(out), kA);
  EXPECT_EQ(forA.back(), "player m1 1 dropped 4");
  out.clear();
  m.rejoin(kB, 1, token, out);
  EXPECT_EQ(out, "22 error match_not_away player=1\n");
  // The match goes on without it (the empty input) until a late joiner takes the slot.
  for (std::uint64_t t = 5; t <= 10; ++t) send(m, kA, 0, t);
  EXPECT_EQ(m.confirmedTick(), 10u);
  out.clear();
  m.join(kC, false, out);
  const auto forC = linesFor(splitLines(out), kC);
  EXPECT_EQ(forC.at(0).rfind("joined m1 player 1 ", 0), 0u);
  ScenarioRun run = ScenarioRun::create(inputScenario(), 7).takeValue();
  EXPECT_EQ(catchUpFrom(forC, run), 2);  // snapshot of tick 8, ticks 9 and 10
  EXPECT_EQ(run.hash(), m.confirmedHash());
  // It plays from the next tick; its hash reports are checked.
  send(m, kC, 1, 11);
  send(m, kA, 0, 11);
  EXPECT_EQ(m.confirmedTick(), 11u);
  const std::vector<std::uint8_t> all = test::concatInputs({playerInput(0, 11), playerInput(1, 11)});
  ASSERT_TRUE(run.step(TickInput{all.data(), static_cast<std::uint32_t>(all.size())}).ok());
  out.clear();
  m.reportHash(kC, 11, run.hash(), out);
  EXPECT_EQ(out, "33 verdict m1 11 ok\n");
}

// One test per refusal class of a match: the reply, and nothing changed.
class MatchRefusal : public ::testing::Test {
 protected:
  void SetUp() override {
    for (std::uint64_t t = 1; t <= 3; ++t) {
      send(m, kA, 0, t);
      send(m, kB, 1, t);
    }
    send(m, kA, 0, 4);
    tick = m.confirmedTick();
    hash = m.run().world().stateHash(tick);
  }
  void expectUnchanged() {
    EXPECT_EQ(m.confirmedTick(), tick);
    EXPECT_EQ(m.run().world().stateHash(tick), hash);
    // And the match still works: B's tick 4 confirms.
    send(m, kB, 1, 4);
    EXPECT_EQ(m.confirmedTick(), tick + 1);
  }
  Match m = startedPair();
  std::uint64_t tick = 0;
  std::uint64_t hash = 0;
  std::string out;
};

TEST_F(MatchRefusal, ReplayedTick) {
  out = send(m, kA, 0, 3);
  EXPECT_EQ(out, "11 error match_tick_order expected=5 got=3\n");
  out = send(m, kA, 0, 4);
  EXPECT_EQ(out, "11 error match_tick_order expected=5 got=4\n");
  expectUnchanged();
}

TEST_F(MatchRefusal, TickOutOfOrder) {
  out = send(m, kB, 1, 6);
  EXPECT_EQ(out, "22 error match_tick_order expected=4 got=6\n");
  expectUnchanged();
}

TEST_F(MatchRefusal, InputTooFarAhead) {
  for (std::uint64_t t = 5; t <= 3 + kMatchInputLead; ++t) ASSERT_EQ(send(m, kA, 0, t).find("error"), std::string::npos);
  out = send(m, kA, 0, 4 + kMatchInputLead);
  EXPECT_EQ(out, "11 error match_input_ahead tick=68 confirmed=3 lead=64\n");
  expectUnchanged();
}

TEST_F(MatchRefusal, InputTooLarge) {
  const std::vector<std::uint8_t> big(kInputScenarioPlayerInputBytes + 1, 1);
  m.input(kB, 4, big.data(), static_cast<std::uint32_t>(big.size()), out);
  EXPECT_EQ(out, "22 error match_input_too_large size=13 max=12\n");
  expectUnchanged();
}

TEST_F(MatchRefusal, InputFromANonMember) {
  out = send(m, kC, 1, 4);
  EXPECT_EQ(out, "33 error match_not_member\n");
  expectUnchanged();
}

TEST_F(MatchRefusal, HashForAnUnknownTick) {
  m.reportHash(kA, 4, 0, out);
  EXPECT_EQ(out, "11 error match_hash_unknown_tick tick=4 confirmed=3 oldest=0\n");
  out.clear();
  m.reportHash(kC, 1, 0, out);
  EXPECT_EQ(out, "33 error match_not_member\n");
  expectUnchanged();
}

TEST_F(MatchRefusal, JoinWhenFullOrTwice) {
  m.join(kC, false, out);
  EXPECT_EQ(out, "33 error match_full players=2\n");
  out.clear();
  m.join(kA, true, out);
  EXPECT_EQ(out, "11 error match_already_joined\n");
  out.clear();
  m.rejoin(kC, 5, 0, out);
  EXPECT_EQ(out, "33 error match_bad_player player=5 players=2\n");
  out.clear();
  m.rejoin(kC, 1, 0, out);
  EXPECT_EQ(out, "33 error match_not_away player=1\n");
  expectUnchanged();
}

TEST(Match, HashHistoryIsBounded) {
  MatchOptions o;
  o.hashHistory = 4;
  Match m = startedPair(o);
  for (std::uint64_t t = 1; t <= 10; ++t) {
    send(m, kA, 0, t);
    send(m, kB, 1, t);
  }
  std::string out;
  m.reportHash(kA, 6, 0, out);
  EXPECT_EQ(out, "11 error match_hash_unknown_tick tick=6 confirmed=10 oldest=7\n");
  out.clear();
  m.reportHash(kA, 7, 0, out);
  EXPECT_EQ(out.rfind("11 desync m1 7 player=0", 0), 0u) << out;
}

TEST(Match, LeaveDropsAtOnceAndTheLastMemberAbandonsTheMatch) {
  Match m = startedPair();
  std::string out;
  m.leave(kB, out);
  EXPECT_EQ(linesFor(splitLines(out), kB), std::vector<std::string>{"left m1"});
  EXPECT_EQ(m.slotState(1), SlotState::Dropped);
  EXPECT_FALSE(m.abandoned());
  m.closed(kA, out);
  EXPECT_TRUE(m.abandoned());
}

TEST(Match, CreateRefusesABadPlayerCount) {
  EXPECT_EQ(Match::create("m", inputScenario(), 1, 0, {}).status().reason(), std::string("match_bad_players"));
  EXPECT_EQ(Match::create("m", inputScenario(), 1, kMaxMatchPlayers + 1, {}).status().reason(),
            std::string("match_bad_players"));
}

}  // namespace
}  // namespace laige::serve
