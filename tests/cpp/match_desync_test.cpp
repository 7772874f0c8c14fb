// match_desync_test.cpp - the match server's desync investigation
// (cpp/tools/match_desync.h, docs/netplay-protocol.md#desync-reports), on
// one match: a C++ player whose one system flips one bit of one entity at
// one tick reports its confirmed hash, gets the `desync` verdict and
// `desync-open`, walks the server's pinned state through `desync-msg`
// lines and gets a report naming that tick, that system, that entity,
// that component and that field, with both values one bit apart; the
// authoritative stream never changes; one investigation per match, one per
// player connection, closed after the window; only the last snapshotEvery
// ticks can be investigated; memory stays bounded. The refusals of
// `desync-msg`, per class, are in match_desync_server_test.cpp.
#include "match.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "laige/desync_exchange.h"
#include "match_desync.h"
#include "support/counting_allocator.h"
#include "support/faulty_player.h"
#include "support/serve_lines.h"

namespace laige::serve {
namespace {

using test::BitFault;
using test::FaultyPlayer;
using test::linesFor;
using test::playerInput;
using test::splitLines;
using test::words;

constexpr ConnId kA = 11;
constexpr ConnId kB = 22;
constexpr ConnId kC = 33;

Match startedPair(MatchOptions o = {}) {
  Match m = Match::create("m1", *findScenario("input"), 7, 2, o).takeValue();
  std::string out;
  m.join(kA, false, out);
  m.join(kB, false, out);
  return m;
}

std::vector<std::vector<std::uint8_t>> inputsOf(std::uint64_t t) { return {playerInput(0, t), playerInput(1, t)}; }

// Both players' inputs of ticks from..to to the match (A's are the faulty
// player's, when there is one, stepped alongside).
void play(Match& m, std::uint64_t from, std::uint64_t to, FaultyPlayer* a = nullptr) {
  std::string out;
  for (std::uint64_t t = from; t <= to; ++t) {
    const auto in = inputsOf(t);
    if (a != nullptr) {
      ASSERT_TRUE(a->step(t, in));
    }
    m.input(kA, t, in[0].data(), static_cast<std::uint32_t>(in[0].size()), out);
    m.input(kB, t, in[1].data(), static_cast<std::uint32_t>(in[1].size()), out);
  }
}

std::vector<std::uint8_t> bytesOf(const std::string& hex) {
  std::vector<std::uint8_t> b;
  EXPECT_EQ(peer::decodeHex(hex, b), std::string_view::npos) << hex;
  return b;
}

// Relays the player's exchange messages to the match and the answers
// back, until neither side has anything to say. Returns every line the
// match wrote for `conn`.
std::vector<std::string> relay(Match& m, ConnId conn, FaultyPlayer& a) {
  std::vector<std::string> all;
  for (auto outbox = a.takeOutbox(); !outbox.empty(); outbox = a.takeOutbox()) {
    for (const auto& msg : outbox) {
      std::string out;
      m.desyncMessage(conn, msg.data(), static_cast<std::uint32_t>(msg.size()), out);
      for (const std::string& line : linesFor(splitLines(out), conn)) {
        all.push_back(line);
        const std::vector<std::string> w = words(line);
        if (w[0] == "desync-msg") {
          EXPECT_TRUE(a.exchange().receive(bytesOf(w[2])).ok()) << line;
        }
      }
    }
  }
  return all;
}

// The player's hash of `tick` to the match: the lines it gets back.
std::vector<std::string> report(Match& m, ConnId conn, std::uint64_t tick, std::uint64_t hash) {
  std::string out;
  m.reportHash(conn, tick, hash, out);
  return linesFor(splitLines(out), conn);
}

TEST(MatchDesync, APlayerFlippingOneBitInOneSystemGetsTheReportAgainstTheServer) {
  for (std::uint32_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE(seed);
    std::uint32_t s = seed * 2654435761u;
    const auto next = [&s](std::uint32_t n) { return (s = s * 1664525u + 1013904223u) % n; };
    BitFault fault;
    fault.tick = 5 + next(50);
    fault.system = "InputMove";
    fault.component = "PawnPos";
    fault.word = next(2);
    fault.bit = next(32);
    fault.pick = next(16);
    MatchOptions o;
    o.snapshotEvery = 16;
    Match m = startedPair(o);
    FaultyPlayer a("input", 7, 2, fault);
    const std::uint64_t reportedAt = fault.tick + next(16);  // the report arrives up to snapshotEvery - 1 ticks late
    play(m, 1, reportedAt, &a);
    ASSERT_NE(a.flippedSlot(), FaultyPlayer::kNoSlot);
    // Ticks before the flip agree; the flipped tick does not.
    EXPECT_EQ(report(m, kA, fault.tick - 1, a.confirmedHash(fault.tick - 1)),
              (std::vector<std::string>{"verdict m1 " + std::to_string(fault.tick - 1) + " ok"}));
    const std::uint64_t authoritative = m.run().world().stateHash(m.confirmedTick());
    const std::vector<std::string> verdict = report(m, kA, fault.tick, a.confirmedHash(fault.tick));
    ASSERT_EQ(verdict.size(), 2u);
    EXPECT_EQ(verdict[0].rfind("desync m1 " + std::to_string(fault.tick) + " player=0 expected=", 0), 0u) << verdict[0];
    const std::string expected = words(verdict[0])[4].substr(9);
    EXPECT_EQ(verdict[1], "desync-open m1 " + std::to_string(fault.tick) + " " + expected);
    EXPECT_EQ(m.investigatedTick(), fault.tick);

    // The player walks the server's pinned state: 4 round trips.
    ASSERT_TRUE(a.exchange().start(fault.tick).ok());
    const std::vector<std::string> lines = relay(m, kA, a);
    for (const std::string& l : lines) EXPECT_EQ(l.rfind("desync-msg m1 ", 0), 0u) << l;
    ASSERT_TRUE(a.exchange().hasReport());
    const DesyncExchangeReport& r = a.exchange().report();
    EXPECT_EQ(r.summary.tick, fault.tick);
    ASSERT_TRUE(r.summary.checkpointsCompared);
    EXPECT_EQ(r.summary.firstSystem.value, a.system());
    EXPECT_STREQ(a.world().system(r.summary.firstSystem).value().def.name, "InputMove");
    EXPECT_EQ(r.summary.differences, 1u);
    ASSERT_EQ(r.items.size(), 1u);
    const DesyncExchangeItem& d = r.items[0];
    EXPECT_EQ(d.componentId, a.component());
    EXPECT_EQ(d.slot, a.flippedSlot());
    EXPECT_EQ(d.entityA, a.world().handleAt(static_cast<std::uint16_t>(a.flippedSlot())));
    EXPECT_EQ(d.fieldName, fault.word == 0 ? "x" : "y");
    ASSERT_EQ(d.bytesA.size(), d.bytesB.size());
    for (std::size_t i = 0; i < d.bytesA.size(); ++i) {
      const std::uint8_t bit = i == 4 * fault.word + fault.bit / 8 ? static_cast<std::uint8_t>(1u << (fault.bit % 8)) : 0;
      EXPECT_EQ(d.bytesA[i] ^ d.bytesB[i], bit) << i;
    }
    // The authoritative world was never touched: its stream goes on as a plain run's.
    EXPECT_EQ(m.run().world().stateHash(m.confirmedTick()), authoritative);
    play(m, reportedAt + 1, reportedAt + 20);
    ScenarioRun model = ScenarioRun::create(*findScenario("input"), 7).takeValue();
    for (std::uint64_t t = 1; t <= m.confirmedTick(); ++t) {
      const std::vector<std::uint8_t> all = test::concatInputs(inputsOf(t));
      ASSERT_TRUE(model.step(TickInput{all.data(), static_cast<std::uint32_t>(all.size())}).ok());
    }
    EXPECT_EQ(m.confirmedHash(), model.hash());
    EXPECT_EQ(m.statsSnapshot().investigations, 1u);
  }
}

TEST(MatchDesync, OneInvestigationPerMatchOnePerConnectionClosedAfterTheWindow) {
  MatchOptions o;
  o.snapshotEvery = 10;
  o.desyncTicks = 30;
  Match m = startedPair(o);
  play(m, 1, 20);
  const std::string e20 = words(report(m, kA, 20, 0)[0])[4].substr(9);  // A's investigation of 20 opens
  EXPECT_EQ(m.investigatedTick(), 20u);
  // The same report again: still open. Another tick, or another player: busy.
  EXPECT_EQ(report(m, kA, 20, 1).at(1), "desync-open m1 20 " + e20);
  EXPECT_EQ(report(m, kA, 19, 1).at(1), "desync-closed m1 19 reason=busy");
  EXPECT_EQ(report(m, kB, 20, 1).at(1), "desync-closed m1 20 reason=busy");
  // A spectator's wrong hash gets the verdict only (spectators have no investigation).
  std::string out;
  m.join(kC, true, out);
  EXPECT_EQ(report(m, kC, 20, 1).size(), 1u);
  // 30 confirmed ticks later the investigation closes, and its player is told.
  out.clear();
  for (std::uint64_t t = 21; t <= 50; ++t) {
    const auto in = inputsOf(t);
    m.input(kA, t, in[0].data(), static_cast<std::uint32_t>(in[0].size()), out);
    m.input(kB, t, in[1].data(), static_cast<std::uint32_t>(in[1].size()), out);
    if (t < 50) {
      EXPECT_EQ(m.investigatedTick(), 20u);
    }
  }
  EXPECT_EQ(m.investigatedTick(), 0u);
  const auto forA = linesFor(splitLines(out), kA);
  EXPECT_EQ(forA.back(), "desync-closed m1 20 reason=expired");
  // B may open one now; A's connection had its one.
  EXPECT_EQ(report(m, kA, 45, 1).at(1), "desync-closed m1 45 reason=done");
  EXPECT_EQ(words(report(m, kB, 45, 1).at(1))[0], "desync-open");
  // B goes away: its investigation ends with it.
  out.clear();
  m.closed(kB, out);
  EXPECT_EQ(m.investigatedTick(), 0u);
  EXPECT_EQ(m.statsSnapshot().investigations, 2u);
}

TEST(MatchDesync, AConnectionThatRejoinsMayHaveAnotherInvestigation) {
  MatchOptions o;
  o.snapshotEvery = 10;
  Match m = Match::create("m1", *findScenario("input"), 7, 2, o).takeValue();
  std::string out;
  m.join(kA, false, out);
  m.join(kB, false, out);
  std::uint64_t token = 0;
  ASSERT_TRUE(peer::parseHash(words(linesFor(splitLines(out), kA).at(0))[4], token));
  play(m, 1, 12);
  EXPECT_EQ(words(report(m, kA, 12, 0).at(1))[0], "desync-open");
  out.clear();
  m.closed(kA, out);
  EXPECT_EQ(m.investigatedTick(), 0u);
  m.rejoin(kC, 0, token, out);
  EXPECT_EQ(words(report(m, kC, 12, 0).at(1))[0], "desync-open");
  EXPECT_EQ(m.statsSnapshot().investigations, 2u);
}

TEST(MatchDesync, AnyOfTheLastSnapshotEveryTicksCanBeInvestigatedOlderOnesNot) {
  MatchOptions o;
  o.snapshotEvery = 8;
  // Confirmed tick c over two snapshot periods, reported tick t from c - 20
  // to c: a tick opens when the keyframe at or before it is still kept (the
  // newest two: snapshotEvery / spectatorDelay + 2) and so are the inputs
  // since it (2 x snapshotEvery ticks), which covers every t >= c - 8.
  // Else tick_unavailable, and nothing is pinned.
  {
    // Tick 0 (the setup, before any system ran) is not a tick an exchange walks.
    Match m = startedPair(o);
    play(m, 1, 3);
    EXPECT_EQ(report(m, kA, 0, 1).at(1), "desync-closed m1 0 reason=tick_unavailable");
  }
  for (std::uint64_t c = 24; c < 40; ++c) {
    for (std::uint64_t t = c - 20; t <= c; ++t) {
      Match m = startedPair(o);
      play(m, 1, c);
      const std::uint64_t keyframe = t / 8 * 8;
      const bool kept = c / 8 * 8 - keyframe <= 8 && c - keyframe <= 16;
      if (t + 8 >= c) {
        ASSERT_TRUE(kept) << c << " " << t;
      }
      const std::vector<std::string> lines = report(m, kA, t, 0);
      ASSERT_EQ(lines.size(), 2u);
      if (kept) {
        EXPECT_EQ(words(lines[1])[0], "desync-open") << "confirmed " << c << ", tick " << t;
        EXPECT_EQ(m.investigatedTick(), t);
      } else {
        EXPECT_EQ(lines[1], "desync-closed m1 " + std::to_string(t) + " reason=tick_unavailable") << c;
        EXPECT_EQ(m.investigatedTick(), 0u);
      }
    }
  }
}

TEST(MatchDesync, MemoryIsBoundedAndFreedWhenTheInvestigationCloses) {
  MatchOptions o;
  o.snapshotEvery = 10;
  o.desyncTicks = 5;
  Match m = startedPair(o);
  play(m, 1, 30);
  std::string out;
  out.reserve(1 << 20);
  const std::int64_t liveBefore = static_cast<std::int64_t>(laige::test::allocationCount() - laige::test::deallocationCount());
  report(m, kA, 25, 0);
  ASSERT_EQ(m.investigatedTick(), 25u);
  // Requests answered over and over keep nothing: live allocations do not grow.
  const std::uint8_t checkpoints[16] = {1, 1, 0, 0, 16, 0, 0, 0, 25};
  const std::uint8_t leaf[28] = {3, 1, 0, 0, 28, 0, 0, 0, 25, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
  m.desyncMessage(kA, checkpoints, 16, out);
  m.desyncMessage(kA, leaf, 28, out);
  const std::int64_t liveOpen = static_cast<std::int64_t>(laige::test::allocationCount() - laige::test::deallocationCount());
  for (int i = 0; i < 500; ++i) {
    out.clear();
    m.desyncMessage(kA, checkpoints, 16, out);
    m.desyncMessage(kA, leaf, 28, out);
    ASSERT_EQ(words(linesFor(splitLines(out), kA).at(1))[0], "desync-msg");
  }
  EXPECT_EQ(static_cast<std::int64_t>(laige::test::allocationCount() - laige::test::deallocationCount()), liveOpen);
  // The window passes: everything the investigation held is freed.
  play(m, 31, 30 + o.desyncTicks);
  EXPECT_EQ(m.investigatedTick(), 0u);
  out.clear();
  const std::int64_t liveAfter = static_cast<std::int64_t>(laige::test::allocationCount() - laige::test::deallocationCount());
  // (the match's own buffers may have grown meanwhile by a few lines)
  EXPECT_LE(liveAfter - liveBefore, 4);
}

TEST(MatchDesync, TheRequestBudgetClosesTheInvestigation) {
  Match m = startedPair();
  play(m, 1, 10);
  report(m, kA, 10, 0);
  const std::uint8_t checkpoints[16] = {1, 1, 0, 0, 16, 0, 0, 0, 10};
  std::string out;
  for (std::uint32_t i = 0; i < kMaxDesyncRequests; ++i) {
    out.clear();
    m.desyncMessage(kA, checkpoints, 16, out);
    ASSERT_EQ(out.rfind("11 desync-msg m1 ", 0), 0u) << i;
  }
  const std::uint64_t refused = m.statsSnapshot().refused;
  out.clear();
  m.desyncMessage(kA, checkpoints, 16, out);
  EXPECT_EQ(splitLines(out), (std::vector<test::ConnLine>{
                                 {kA, "error match_desync_budget requests=4096 bytes=" + std::to_string(4096 * 68)},
                                 {kA, "desync-closed m1 10 reason=budget"}}));
  EXPECT_EQ(m.investigatedTick(), 0u);
  EXPECT_EQ(m.statsSnapshot().refused, refused + 1);
  out.clear();
  m.desyncMessage(kA, checkpoints, 16, out);
  EXPECT_EQ(out, "11 error match_desync_not_open player=0\n");
}

}  // namespace
}  // namespace laige::serve
