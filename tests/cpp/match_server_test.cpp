// match_server_test.cpp - `laige-peer --serve` (cpp/tools/match_server.h):
// every reply of the protocol, the server-level refusals (each changes
// nothing), matches spread over a real thread pool giving each connection
// exactly the lines the inline (single-thread) server gives, a hostile
// connection leaving the other matches' streams untouched, and every reason
// documented in docs/errors.md. No sleeps: the threaded runs are checked
// after stop() has finished every queued line.
#include "match_server.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "support/inline_server.h"
#include "support/serve_lines.h"

#ifndef LAIGE_SOURCE_DIR
#error "LAIGE_SOURCE_DIR must name the source tree (CMakeLists.txt sets it for laige_tests)"
#endif

namespace laige::serve {
namespace {

using test::hex;
using test::linesFor;
using test::playerInput;
using test::splitLines;
using test::words;

using Inline = test::InlineServer;
using test::collectReplies;

TEST(MatchServer, HelloNamesTheVersionTheScenariosAndTheCapacity) {
  Inline s;
  const std::string h = s.server.hello();
  EXPECT_EQ(h.rfind("0 hello laige-peer-serve 2 ", 0), 0u) << h;
  EXPECT_NE(h.find("input"), std::string::npos);
  EXPECT_NE(h.find(" threads=0 max_matches=256 spectator_delay=0\n"), std::string::npos) << h;
  const auto r = s.ask("5 hello");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].first, 5u);
  EXPECT_EQ(r[0].second.rfind("hello laige-peer-serve 2 ", 0), 0u);
}

TEST(MatchServer, EveryReplyOfAMatchsLife) {
  Inline s;
  auto r = s.ask("1 create duel input 7 2");
  ASSERT_GE(r.size(), 3u);
  EXPECT_EQ(r[0], (test::ConnLine{1, "created duel input 0x7 2"}));
  EXPECT_EQ(words(r[1].second)[0], "joined");
  EXPECT_EQ(words(r[1].second)[3], "0");
  EXPECT_EQ(words(r[2].second)[0], "snapshot");
  r = s.ask("2 join duel player");
  EXPECT_EQ(linesFor(r, 1), (std::vector<std::string>{"player duel 1 joined 0", "start duel 0"}));
  EXPECT_EQ(linesFor(r, 2).back(), "start duel 0");
  // The joiner's catch-up ends with its own event (a client starts its session after it).
  EXPECT_EQ(linesFor(r, 2).at(linesFor(r, 2).size() - 2), "player duel 1 joined 0");
  r = s.ask("3 join duel spectator");
  EXPECT_EQ(linesFor(r, 3).at(0), "joined duel spectator - - 2 input 0x7");
  r = s.ask("1 input duel 1 " + hex(playerInput(0, 1)));
  EXPECT_EQ(r, (std::vector<test::ConnLine>{{2, "input duel 0 1 " + hex(playerInput(0, 1))}}));
  r = s.ask("2 input duel 1 " + hex(playerInput(1, 1)));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0], (test::ConnLine{1, "input duel 1 1 " + hex(playerInput(1, 1))}));
  EXPECT_EQ(r[1].first, 3u);
  const std::vector<std::string> confirmed = words(r[1].second);
  EXPECT_EQ(confirmed[0], "confirmed");
  r = s.ask("1 hash duel 1 " + confirmed[3]);
  EXPECT_EQ(r, (std::vector<test::ConnLine>{{1, "verdict duel 1 ok"}}));
  r = s.ask("2 hash duel 1 0000000000000000");
  EXPECT_EQ(r.at(0).second, "desync duel 1 player=1 expected=" + confirmed[3] + " got=0000000000000000");
  r = s.ask("1 stats duel");
  EXPECT_EQ(r.at(0).second.rfind("stats duel hash=" + confirmed[3] + " tick=1 players=2 connected=2 spectators=1 verdicts=1 desyncs=1 "
                                 "refused=0 snapshot_tick=0 snapshot_bytes=",
                                 0),
            0u)
      << r.at(0).second;
  r = s.ask("1 health");
  EXPECT_EQ(r.at(0).second, "health ok matches=1 capacity=256 free=255 threads=0");
  r = s.ask("3 leave duel");
  EXPECT_EQ(r, (std::vector<test::ConnLine>{{3, "left duel"}}));
  r = s.ask("2 closed");
  EXPECT_EQ(r, (std::vector<test::ConnLine>{{1, "player duel 1 away 1"}}));
  r = s.ask("1 closed");
  EXPECT_TRUE(r.empty());
  EXPECT_EQ(s.server.matchCount(), 0u);
  r = s.ask("1 stats");
  EXPECT_EQ(r.at(0).second.rfind("stats server matches=0 lines=", 0), 0u) << r.at(0).second;
}

TEST(MatchServer, RejoinAfterClosedResumesTheSlotThroughANewConnection) {
  Inline s;
  s.ask("1 create duel input 7 2");
  const std::string token = words(linesFor(s.ask("2 join duel player"), 2).at(0))[4];
  s.ask("1 input duel 1 " + hex(playerInput(0, 1)));
  s.ask("2 input duel 1 " + hex(playerInput(1, 1)));
  s.ask("2 closed");
  // Player 0 plays tick 2 alone: player 1's input is the empty one.
  EXPECT_EQ(s.ask("1 input duel 2 " + hex(playerInput(0, 2))),
            (std::vector<test::ConnLine>{{1, "input duel 1 2 ."}}));
  const auto r = s.ask("7 rejoin duel 1 " + token);
  const auto for7 = linesFor(r, 7);
  ASSERT_GE(for7.size(), 4u);
  EXPECT_EQ(for7[0], "joined duel player 1 " + token + " 2 input 0x7");
  EXPECT_EQ(words(for7[1])[0], "snapshot");
  EXPECT_EQ(words(for7[2])[2], "1");  // the confirmed tail: ticks 1 and 2
  EXPECT_EQ(words(for7[3])[2], "2");
  EXPECT_EQ(for7.back(), "player duel 1 back 2");  // the end of the rejoiner's catch-up
  EXPECT_EQ(linesFor(r, 1), std::vector<std::string>{"player duel 1 back 2"});
  EXPECT_EQ(linesFor(s.ask("7 input duel 3 ."), 1), std::vector<std::string>{"input duel 1 3 ."});
}

TEST(MatchServer, DrainRefusesNewMatchesAndReportsItInHealth) {
  Inline s;
  s.ask("1 create a input 2");
  EXPECT_EQ(s.ask("1 drain"), (std::vector<test::ConnLine>{{1, "draining matches=1"}}));
  EXPECT_EQ(s.ask("2 create b input 2"), (std::vector<test::ConnLine>{{2, "error server_draining"}}));
  EXPECT_EQ(s.ask("2 health").at(0).second, "health draining matches=1 capacity=256 free=0 threads=0");
  // The running match goes on.
  EXPECT_EQ(linesFor(s.ask("2 join a player"), 2).back(), "start a 0");
}

// One test per server-level refusal class: the reply, and the match unchanged.
class ServerRefusal : public ::testing::Test {
 protected:
  void SetUp() override {
    s.ask("1 create duel input 7 2");
    s.ask("2 join duel player");
    s.ask("1 input duel 1 " + hex(playerInput(0, 1)));
    s.ask("2 input duel 1 " + hex(playerInput(1, 1)));
    before = s.ask("1 stats duel").at(0).second;
  }
  void expectRefused(const std::string& line, const std::string& reply) {
    const auto r = s.ask(line);
    ASSERT_EQ(r.size(), 1u) << line;
    EXPECT_EQ(r[0].second, reply) << line;
    // The match's state hash, tick and players are as they were.
    std::string after = s.ask("1 stats duel").at(0).second;
    EXPECT_EQ(words(after)[2], words(before)[2]);
    EXPECT_EQ(words(after)[3], words(before)[3]);
    EXPECT_EQ(words(after)[5], words(before)[5]);
  }
  Inline s;
  std::string before;
};

TEST_F(ServerRefusal, BadPrefix) {
  const auto r = s.ask("x1 input duel 2 00");
  EXPECT_EQ(r, (std::vector<test::ConnLine>{{0, "error server_bad_prefix"}}));
  EXPECT_EQ(s.ask("0 health"), (std::vector<test::ConnLine>{{0, "error server_bad_prefix"}}));
}

TEST_F(ServerRefusal, LineTooLong) {
  expectRefused("1 input duel 2 " + std::string(kMaxServeLine, 'a'), "error server_line_too_long limit=1024");
}

TEST_F(ServerRefusal, UnknownVerbAndMalformedWords) {
  expectRefused("1 explode", "error server_bad_request verb_bytes=7");
  expectRefused("1 input duel two 00", "error server_bad_request verb=input");
  expectRefused("1 input duel 2", "error server_bad_request verb=input");
  expectRefused("1 hash duel 1 123", "error server_bad_request verb=hash");
  expectRefused("1 join duel referee", "error server_bad_request verb=join");
  expectRefused("3 rejoin duel 1 zz", "error server_bad_request verb=rejoin");
  expectRefused("3 create x", "error server_bad_request verb=create");
  expectRefused("3 create x input two", "error server_bad_request verb=create");
  expectRefused("3 create x input 7 2 9", "error server_bad_request verb=create");
}

TEST_F(ServerRefusal, BadPayload) {
  expectRefused("1 input duel 2 0g", "error server_bad_payload at=0");
  expectRefused("1 input duel 2 012", "error server_bad_payload at=3");
}

TEST_F(ServerRefusal, BadMatchId) {
  expectRefused("1 join du/el player", "error match_bad_id bytes=5");
  expectRefused("1 join " + std::string(kMaxMatchIdBytes + 1, 'a') + " player", "error match_bad_id bytes=33");
}

TEST_F(ServerRefusal, UnknownMatchAndDuplicateId) {
  expectRefused("3 join nope player", "error match_unknown");
  expectRefused("3 create duel input 2", "error match_exists");
  expectRefused("3 create other nosuch 2", "error scenario_unknown scenario=nosuch scenarios=" +
                                               std::to_string(scenarioCount()));
  expectRefused("3 create other input 9", "error match_bad_players players=9 max=8");
  EXPECT_EQ(s.server.matchCount(), 1u);
}

TEST_F(ServerRefusal, MatchFullAndServerFull) {
  expectRefused("3 join duel player", "error match_full players=2");
  MatchServer::Options o = Inline::options();
  o.maxMatches = 1;
  Inline one(o);
  one.ask("1 create a input 2");
  EXPECT_EQ(one.ask("2 create b input 2"), (std::vector<test::ConnLine>{{2, "error server_full max_matches=1"}}));
  EXPECT_EQ(one.server.matchCount(), 1u);
}

TEST_F(ServerRefusal, OneConnectionCannotCreateTheWholeCapacity) {
  for (int i = 0; i < 3; ++i) EXPECT_EQ(s.ask("1 create c" + std::to_string(i) + " input 2").at(0).second.rfind("created", 0), 0u);
  expectRefused("1 create c9 input 2", "error server_conn_matches max=4");
  EXPECT_EQ(s.server.matchCount(), 4u);
  // Another connection still can; and once one of conn 1's matches ends, conn 1 can again.
  EXPECT_EQ(s.ask("2 create d input 2").at(0).second, "created d input 0x1a9e7 2");
  s.ask("1 leave c0");
  EXPECT_EQ(s.ask("1 create c9 input 2").at(0).second, "created c9 input 0x1a9e7 2");
}

TEST_F(ServerRefusal, ReplayedAndOutOfOrderTicksAndSpectatorInput) {
  expectRefused("1 input duel 1 " + hex(playerInput(0, 1)), "error match_tick_order expected=2 got=1");
  expectRefused("1 input duel 3 .", "error match_tick_order expected=2 got=3");
  s.ask("3 join duel spectator");
  expectRefused("3 input duel 2 .", "error match_spectator_input");
  expectRefused("1 hash duel 2 0000000000000000", "error match_hash_unknown_tick tick=2 confirmed=1 oldest=0");
}

TEST(MatchServer, AFullQueueOrConnectionQuotaIsRefusedBusyNeverBlocks) {
  MatchServer::Options o;
  o.threads = 1;
  o.connLines = 0;  // no connection may queue anything: every match line is refused
  std::string out;
  {
    MatchServer server(o, &collectReplies, &out);
    server.submit("1 create a input 2");
    server.submit("1 health");
    server.stop();
  }
  const auto r = splitLines(out);
  EXPECT_EQ(r.at(0), (test::ConnLine{1, "error server_busy queue=4096"}));
  EXPECT_EQ(r.at(1), (test::ConnLine{1, "health ok matches=0 capacity=256 free=256 threads=1"}));
}

// The lines of `matches` two-player matches over `ticks` ticks, each with a
// spectator, interleaved match by match; with `hostile`, a connection sends
// garbage between them.
std::vector<std::string> workload(int matches, int ticks, bool hostile) {
  std::vector<std::string> lines;
  const auto conn = [](int m, int k) { return std::to_string(100 + m * 3 + k); };
  for (int m = 0; m < matches; ++m) {
    const std::string id = "m" + std::to_string(m);
    lines.push_back(conn(m, 0) + " create " + id + " input " + std::to_string(m + 1) + " 2");
    lines.push_back(conn(m, 1) + " join " + id + " player");
    lines.push_back(conn(m, 2) + " join " + id + " spectator");
  }
  for (int t = 1; t <= ticks; ++t) {
    for (int m = 0; m < matches; ++m) {
      const std::string id = "m" + std::to_string(m);
      for (std::uint32_t p = 0; p < 2; ++p) {
        lines.push_back(conn(m, static_cast<int>(p)) + " input " + id + " " + std::to_string(t) + " " +
                        hex(playerInput(p, static_cast<std::uint64_t>(t))));
        if (hostile) {
          lines.push_back("9 input " + id + " " + std::to_string(t) + " zz");
          lines.push_back("9 join " + id + " player");
          lines.push_back("9 " + std::string(2000, 'x'));
          lines.push_back("9 create " + id + " input 2");
          lines.push_back("nonsense");
        }
      }
      if (t % 7 == 0) lines.push_back(conn(m, 1) + " hash " + id + " " + std::to_string(t - 3) + " 0000000000000000");
    }
  }
  // Player 1 goes away; player 0 plays on (player 1's inputs are filled);
  // every other match's spectator leaves.
  for (int m = 0; m < matches; ++m) {
    const std::string id = "m" + std::to_string(m);
    lines.push_back(conn(m, 1) + " closed");
    for (int t = ticks + 1; t <= ticks + 3; ++t) {
      lines.push_back(conn(m, 0) + " input " + id + " " + std::to_string(t) + " " +
                      hex(playerInput(0, static_cast<std::uint64_t>(t))));
    }
    if (m % 2 == 0) lines.push_back(conn(m, 2) + " leave " + id);
  }
  return lines;
}

std::map<std::uint64_t, std::vector<std::string>> byConn(const std::string& out) {
  std::map<std::uint64_t, std::vector<std::string>> m;
  for (auto& [conn, line] : splitLines(out)) m[conn].push_back(std::move(line));
  return m;
}

TEST(MatchServer, ThreadPoolGivesEveryConnectionTheInlineServersLines) {
  const std::vector<std::string> lines = workload(12, 40, false);
  Inline single;
  for (const std::string& l : lines) single.server.submit(l);
  const auto expected = byConn(single.out);
  MatchServer::Options o = Inline::options();
  o.threads = 4;
  std::string out;
  {
    MatchServer pool(o, &collectReplies, &out);
    for (const std::string& l : lines) pool.submit(l);
    pool.stop();
  }
  const auto got = byConn(out);
  EXPECT_EQ(got.size(), 36u);
  EXPECT_EQ(got, expected);
  // Each match ran all 43 ticks: its spectator saw 43 confirmed lines.
  for (int m = 0; m < 12; ++m) {
    int confirmed = 0;
    for (const std::string& l : got.at(static_cast<std::uint64_t>(100 + m * 3 + 2))) confirmed += l.rfind("confirmed ", 0) == 0;
    EXPECT_EQ(confirmed, 43) << m;
  }
}

TEST(MatchServer, AHostileConnectionChangesNoOtherConnectionsLines) {
  Inline clean;
  for (const std::string& l : workload(6, 30, false)) clean.server.submit(l);
  MatchServer::Options o = Inline::options();
  o.threads = 3;
  std::string out;
  {
    MatchServer pool(o, &collectReplies, &out);
    for (const std::string& l : workload(6, 30, true)) pool.submit(l);
    pool.stop();
  }
  auto got = byConn(out);
  const std::vector<std::string> hostile = got[9];
  got.erase(9);
  got.erase(0);
  EXPECT_EQ(got, byConn(clean.out));
  ASSERT_FALSE(hostile.empty());
  for (const std::string& l : hostile) EXPECT_EQ(l.rfind("error ", 0), 0u) << l;
}

TEST(MatchServer, EveryReasonIsDocumentedInErrorsMd) {
  const std::string path = std::string(LAIGE_SOURCE_DIR) + "/docs/errors.md";
  std::FILE* f = std::fopen(path.c_str(), "rb");
  ASSERT_NE(f, nullptr);
  std::string doc;
  for (int c = 0; (c = std::fgetc(f)) != EOF;) doc += static_cast<char>(c);
  std::fclose(f);
  for (const char* reason : kServeReasons) {
    EXPECT_NE(doc.find("id=\"reason-" + std::string(reason) + "\""), std::string::npos) << reason;
  }
}

}  // namespace
}  // namespace laige::serve
