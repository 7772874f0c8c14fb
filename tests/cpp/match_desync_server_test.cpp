// match_desync_server_test.cpp - `desync-msg` through the match server
// (cpp/tools/match_server.h, docs/netplay-protocol.md#desync-reports):
// one refusal test per class of bad message (malformed words, malformed
// hex, oversized, unknown match, not a player, no investigation open, out
// of order, malformed or unknown exchange message), each leaving both
// matches' hashes and ticks as they were, the investigation still
// answering and the other match still playing; and the transcript
// docs/desync.md#the-match-server shows, checked line by line.
#include "match_server.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "match_desync.h"
#include "support/faulty_player.h"
#include "support/inline_server.h"
#include "support/serve_lines.h"

#ifndef LAIGE_SOURCE_DIR
#error "LAIGE_SOURCE_DIR must name the source tree (CMakeLists.txt sets it for laige_tests)"
#endif

namespace laige::serve {
namespace {

using test::ConnLine;
using test::hex;
using test::linesFor;
using test::playerInput;
using test::splitLines;
using test::words;

// Snapshots every 10 ticks, so that a tick past its keyframe is re-run when pinned.
struct Inline : test::InlineServer {
  Inline() : InlineServer(options()) {}
  static MatchServer::Options options() {
    MatchServer::Options o = InlineServer::options();
    o.match.snapshotEvery = 10;
    return o;
  }
};

std::string hexOf(const std::vector<std::uint8_t>& b) { return hex(b); }

// An exchange message: kind, tick, body (the size field filled in).
std::vector<std::uint8_t> message(std::uint8_t kind, std::uint64_t tick, std::vector<std::uint8_t> body = {}) {
  std::vector<std::uint8_t> m = {kind, 1, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 8; ++i) m.push_back(static_cast<std::uint8_t>(tick >> (8 * i)));
  m.insert(m.end(), body.begin(), body.end());
  m[4] = static_cast<std::uint8_t>(m.size());
  return m;
}

// Two matches: m1 (players on 1 and 2, a spectator on 3) with player 0's
// investigation of tick 12 open, m2 (players on 4 and 5), both at tick 12.
class DesyncRefusal : public ::testing::Test {
 protected:
  void SetUp() override {
    s.ask("1 create m1 input 7 2");
    s.ask("2 join m1 player");
    s.ask("3 join m1 spectator");
    s.ask("4 create m2 input 9 2");
    s.ask("5 join m2 player");
    for (std::uint64_t t = 1; t <= 12; ++t) play(t);
    const auto r = s.ask("1 hash m1 12 0000000000000000");
    ASSERT_EQ(r.size(), 2u);
    ASSERT_EQ(words(r[1].second)[0], "desync-open");
    before = {statsOf("m1"), statsOf("m2")};
  }
  void play(std::uint64_t t) {
    for (const char* m : {"m1", "m2"}) {
      const bool one = std::string(m) == "m1";
      s.ask(std::string(one ? "1" : "4") + " input " + m + " " + std::to_string(t) + " " + hex(playerInput(0, t)));
      s.ask(std::string(one ? "2" : "5") + " input " + m + " " + std::to_string(t) + " " + hex(playerInput(1, t)));
    }
  }
  // "hash=<h> tick=<t>" of a match.
  std::string statsOf(const std::string& id) {
    const std::vector<std::string> w = words(s.ask("4 stats " + id).at(0).second);
    return w[2] + " " + w[3];
  }
  // The one refusal line `request` gets (after any desync-msg lines).
  std::string refusal(const std::string& request) {
    const auto r = s.ask(request);
    EXPECT_FALSE(r.empty()) << request;
    return r.empty() ? std::string() : r.back().second;
  }
  // Nothing changed: both matches' hashes and ticks; the investigation still
  // answers; m2 still confirms ticks (and then m1 too).
  void expectUnchanged() {
    EXPECT_EQ(statsOf("m1"), before[0]);
    EXPECT_EQ(statsOf("m2"), before[1]);
    const auto r = s.ask("1 desync-msg m1 " + hexOf(message(1, 12)));
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].second.rfind("desync-msg m1 ", 0), 0u) << r[0].second;
    play(13);
    EXPECT_EQ(words(statsOf("m2"))[1], "tick=13");
    EXPECT_EQ(words(statsOf("m1"))[1], "tick=13");
  }
  Inline s;
  std::vector<std::string> before;
};

const std::string kRequest = hexOf(message(1, 12));

TEST_F(DesyncRefusal, MalformedWords) {
  EXPECT_EQ(refusal("1 desync-msg m1"), "error server_bad_request verb=desync-msg");
  EXPECT_EQ(refusal("1 desync-msg m1 " + kRequest + " extra"), "error server_bad_request verb=desync-msg");
  expectUnchanged();
}

TEST_F(DesyncRefusal, MalformedHex) {
  EXPECT_EQ(refusal("1 desync-msg m1 zz" + kRequest.substr(2)), "error server_bad_payload at=0");
  EXPECT_EQ(refusal("1 desync-msg m1 " + kRequest + "0"), "error server_bad_payload at=33");
  EXPECT_EQ(refusal("1 desync-msg m1 ."), "error desync_message_malformed size=0 kind=0 what=header");
  expectUnchanged();
}

TEST_F(DesyncRefusal, Oversized) {
  const std::string big(2 * (kMaxDesyncRequestBytes + 1), 'a');
  EXPECT_EQ(refusal("1 desync-msg m1 " + big), "error match_desync_too_large bytes=97 max=96");
  // The exchange's own limit is far above: a 96-byte message is the exchange's to judge.
  std::vector<std::uint8_t> m = message(7, 12, std::vector<std::uint8_t>(80, 0));
  EXPECT_EQ(refusal("1 desync-msg m1 " + hexOf(m)), "error desync_message_malformed size=96 kind=7 what=reason");
  expectUnchanged();
}

TEST_F(DesyncRefusal, UnknownMatch) {
  EXPECT_EQ(refusal("1 desync-msg m9 " + kRequest), "error match_unknown");
  EXPECT_EQ(refusal("1 desync-msg m*1 " + kRequest), "error match_bad_id bytes=3");
  expectUnchanged();
}

TEST_F(DesyncRefusal, NotAPlayer) {
  EXPECT_EQ(refusal("3 desync-msg m1 " + kRequest), "error match_not_player");
  EXPECT_EQ(refusal("9 desync-msg m1 " + kRequest), "error match_not_member");
  EXPECT_EQ(refusal("4 desync-msg m1 " + kRequest), "error match_not_member");  // a player of another match
  expectUnchanged();
}

TEST_F(DesyncRefusal, NoInvestigationOpen) {
  EXPECT_EQ(refusal("2 desync-msg m1 " + kRequest), "error match_desync_not_open player=1");
  EXPECT_EQ(refusal("4 desync-msg m2 " + kRequest), "error match_desync_not_open player=0");
  expectUnchanged();
}

TEST_F(DesyncRefusal, OutOfOrder) {
  // An answer nobody asked for: the server never walks.
  std::vector<std::uint8_t> children = message(5, 12, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(refusal("1 desync-msg m1 " + hexOf(children)), "error desync_answer_unexpected kind=5 tick=12");
  // A request for another tick than the pinned one: the exchange's error
  // message goes back first (the player's session learns it), then the refusal.
  const auto r = s.ask("1 desync-msg m1 " + hexOf(message(1, 11)));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(words(r[0].second)[0], "desync-msg");
  EXPECT_EQ(r[0].second.substr(14, 2), "07");  // kind 7: error
  EXPECT_EQ(r[1].second, "error desync_already_pinned tick=11 pinned=12");
  // The player's own error message (its session refused something).
  std::vector<std::uint8_t> reason = {4, 0, 0, 0, 'o', 'o', 'p', 's'};
  std::vector<std::uint8_t> error = message(7, 12, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  error.insert(error.end(), reason.begin(), reason.end());
  error[4] = static_cast<std::uint8_t>(error.size());
  EXPECT_EQ(refusal("1 desync-msg m1 " + hexOf(error)), "error desync_remote_refused reason=oops tick=12");
  expectUnchanged();
}

TEST_F(DesyncRefusal, MalformedOrUnknownMessage) {
  std::vector<std::uint8_t> m = message(1, 12);
  EXPECT_EQ(refusal("1 desync-msg m1 " + hexOf(std::vector<std::uint8_t>(m.begin(), m.begin() + 8))),
            "error desync_message_malformed size=8 kind=1 what=header");
  m[4] = 17;
  EXPECT_EQ(refusal("1 desync-msg m1 " + hexOf(m)), "error desync_message_malformed size=16 kind=1 what=size");
  m = message(1, 12);
  m[1] = 2;
  EXPECT_EQ(refusal("1 desync-msg m1 " + hexOf(m)), "error desync_message_malformed size=16 kind=1 what=version");
  EXPECT_EQ(refusal("1 desync-msg m1 " + hexOf(message(9, 12))), "error desync_message_unknown_kind kind=9");
  // A node outside the tree: answered with an error message, then refused.
  const auto r = s.ask("1 desync-msg m1 " + hexOf(message(2, 12, {9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].second.rfind("error state_tree_node_invalid ", 0), 0u) << r[1].second;
  expectUnchanged();
}

// --- The transcript of docs/desync.md#the-match-server ------------------------

std::string readDoc(const char* name) {
  const std::string path = std::string(LAIGE_SOURCE_DIR) + "/docs/" + name;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return {};
  std::string doc;
  for (int c = 0; (c = std::fgetc(f)) != EOF;) doc += static_cast<char>(c);
  std::fclose(f);
  return doc;
}

// The fenced block after `<!-- transcript: NAME -->`.
std::string transcriptBlock(const std::string& doc, const std::string& name) {
  const std::size_t mark = doc.find("<!-- transcript: " + name + " -->");
  if (mark == std::string::npos) return {};
  const std::size_t open = doc.find("```\n", mark);
  const std::size_t close = doc.find("\n```", open + 4);
  if (open == std::string::npos || close == std::string::npos) return {};
  return doc.substr(open + 4, close - open - 4 + 1);
}

TEST(MatchDesync, TheTranscriptInTheDocsIsWhatTheServerWrites) {
  Inline s;
  std::string transcript;
  const auto exchange = [&](const std::string& request) {
    transcript += "> " + request + "\n";
    std::vector<std::string> replies;
    for (const auto& [conn, line] : s.ask(request)) {
      transcript += "< " + std::to_string(conn) + " " + line + "\n";
      replies.push_back(line);
    }
    return replies;
  };
  // A one-player match of the `hello` scenario; the player's MovePlayer
  // flips bit 0 of its body's position x at tick 3.
  s.ask("1 create d hello 1");
  test::BitFault fault;
  fault.tick = 3;
  fault.system = "MovePlayer";
  fault.component = "PlayerPos";
  test::FaultyPlayer player("hello", findScenario("hello")->defaultSeed, 1, fault);
  for (std::uint64_t t = 1; t <= 4; ++t) {
    ASSERT_TRUE(player.step(t, {{}}));
    s.ask("1 input d " + std::to_string(t) + " .");
  }
  char hash[20];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(player.confirmedHash(3)));
  exchange(std::string("1 hash d 3 ") + hash);
  ASSERT_TRUE(player.exchange().start(3).ok());
  for (auto outbox = player.takeOutbox(); !outbox.empty(); outbox = player.takeOutbox()) {
    for (const auto& m : outbox) {
      for (const std::string& line : exchange("1 desync-msg d " + hexOf(m))) {
        std::vector<std::uint8_t> bytes;
        ASSERT_EQ(peer::decodeHex(words(line)[2], bytes), std::string_view::npos) << line;
        ASSERT_TRUE(player.exchange().receive(bytes).ok()) << line;
      }
    }
  }
  ASSERT_TRUE(player.exchange().hasReport());
  const DesyncExchangeReport& r = player.exchange().report();
  ASSERT_EQ(r.items.size(), 1u);
  const DesyncExchangeItem& d = r.items[0];
  transcript += "# the player's report: tick " + std::to_string(r.summary.tick) + ", first system " +
                player.world().system(r.summary.firstSystem).value().def.name + ", " +
                std::to_string(r.summary.differences) + " difference\n";
  transcript += "# slot " + std::to_string(d.slot) + " " +
                std::string(player.world().componentInfo(d.componentId).value().name) + "." + std::string(d.fieldName) +
                ": " + hexOf(d.bytesA) + " (the player) vs " + hexOf(d.bytesB) + " (the server)\n";
  EXPECT_EQ(transcriptBlock(readDoc("desync.md"), "match-desync"), transcript) << transcript;
}

}  // namespace
}  // namespace laige::serve
