// desync_peer_lines_test.cpp - laige-peer's desync lines (rollback_peer.h,
// docs/desync.md#across-peers): two peer sessions (the `input` scenario,
// players 0 and 1, one of them with the test fault) exchange their inputs
// and then their `desync <hex>` lines only; the walking side's report lines
// name the fault's tick, system and component field. Bad lines are refused
// with a reason and change nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "peer_session.h"

namespace laige::peer {
namespace {

std::string ask(PeerSession& s, const std::string& line) {
  std::string out;
  EXPECT_TRUE(s.handle(line, out));
  return out;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (std::size_t nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1) out.push_back(text.substr(at, nl - at));
  return out;
}

// The words of `line` after its verb.
std::string after(const std::string& line, std::size_t words) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < words; ++i) at = line.find(' ', at) + 1;
  return line.substr(at);
}

TEST(DesyncPeerLines, TwoPeersFindTheFaultThroughTheirLinesAlone) {
  PeerSession a;
  PeerSession b;
  ASSERT_EQ(ask(a, "session input - 2 0 10 0").rfind("session input ", 0), 0u);
  ASSERT_EQ(ask(b, "session input - 2 1 10 0").rfind("session input ", 0), 0u);
  ASSERT_EQ(ask(b, "fault 6 InputMove PawnPos 1 9 3"), "ok\n");
  std::string hashA;
  std::string hashB;
  for (int t = 1; t <= 8; ++t) {
    const std::vector<std::string> ra = lines(ask(a, "advance"));
    const std::vector<std::string> rb = lines(ask(b, "advance"));
    // Each side's local input reaches the other after both advanced (a rollback on each side).
    for (const std::string& l : ra) {
      if (l.rfind("local ", 0) == 0) {
        EXPECT_EQ(ask(b, "input 0 " + after(l, 1)), "ok\n");
      }
    }
    for (const std::string& l : rb) {
      if (l.rfind("local ", 0) == 0) {
        EXPECT_EQ(ask(a, "input 1 " + after(l, 1)), "ok\n");
      }
    }
  }
  EXPECT_NE(ask(a, "hash 6"), ask(b, "hash 6"));
  EXPECT_EQ(ask(a, "hash 5"), ask(b, "hash 5"));
  // A walks B's tree of tick 6 through the lines.
  std::vector<std::string> toB;
  std::vector<std::string> report;
  for (const std::string& l : lines(ask(a, "desync-start 6"))) {
    if (l.rfind("desync ", 0) == 0) toB.push_back(l);
  }
  for (int round = 0; round < 10 && !toB.empty(); ++round) {
    std::vector<std::string> toA;
    for (const std::string& m : toB) {
      for (const std::string& l : lines(ask(b, m))) {
        if (l.rfind("desync ", 0) == 0) {
          toA.push_back(l);
        } else {
          EXPECT_EQ(l, "ok");
        }
      }
    }
    toB.clear();
    for (const std::string& m : toA) {
      for (const std::string& l : lines(ask(a, m))) {
        if (l.rfind("desync ", 0) == 0) toB.push_back(l);
        else if (l != "ok") report.push_back(l);
      }
    }
  }
  ASSERT_FALSE(report.empty());
  EXPECT_EQ(report.front().rfind("report 6 InputMove ", 0), 0u) << report.front();
  EXPECT_EQ(report.back(), "end");
  bool named = false;
  for (const std::string& l : report) named = named || l.find(" PawnPos y ") != std::string::npos;
  EXPECT_TRUE(named);
}

TEST(DesyncPeerLines, BadLinesAreRefusedWithNothingChanged) {
  PeerSession s;
  EXPECT_EQ(ask(s, "desync 00").rfind("error peer_no_session", 0), 0u);
  ASSERT_EQ(ask(s, "session input - 2 0 10 0").rfind("session input ", 0), 0u);
  const std::string hash0 = ask(s, "stats");
  EXPECT_EQ(ask(s, "desync zz").rfind("error peer_bad_payload", 0), 0u);
  EXPECT_EQ(ask(s, "desync").rfind("error peer_bad_payload", 0), 0u);
  EXPECT_EQ(ask(s, "desync 0101000011000000030000000000000000").rfind("error desync_message_malformed", 0), 0u);
  EXPECT_EQ(ask(s, "desync-start x").rfind("error peer_bad_request", 0), 0u);
  EXPECT_EQ(ask(s, "desync-start 3").rfind("error desync_tick_unavailable", 0), 0u);
  EXPECT_EQ(ask(s, "fault 3 Nope PawnPos 0 5 2").rfind("error peer_bad_request", 0), 0u);
  EXPECT_EQ(ask(s, "fault 3 InputMove Nope 0 5 2").rfind("error peer_bad_request", 0), 0u);
  EXPECT_EQ(ask(s, "fault 3 InputMove PawnPos 9 5 2").rfind("error peer_bad_request", 0), 0u);
  // A request for a tick not confirmed: its Error answer, then the refusal.
  const std::vector<std::string> r = lines(ask(s, "desync 020100001c0000000900000000000000000000000000000000000000"));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].rfind("desync 07", 0), 0u);
  EXPECT_EQ(r[1].rfind("error desync_tick_unavailable", 0), 0u);
  // A desync line may be longer than other requests, up to its own limit.
  EXPECT_EQ(ask(s, "desync " + std::string(4000, '0')).rfind("error desync_message_malformed", 0), 0u);
  EXPECT_EQ(ask(s, "desync " + std::string(kMaxDesyncLine, '0')).rfind("error peer_line_too_long", 0), 0u);
  EXPECT_EQ(ask(s, "stats"), hash0);
}

}  // namespace
}  // namespace laige::peer
