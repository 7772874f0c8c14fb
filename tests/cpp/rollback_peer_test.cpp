// rollback_peer_test.cpp - laige-peer's rollback mode (cpp/tools/rollback_peer.h):
// two peers driven through the protocol only, exchanging the inputs their
// `advance` replies report through the simulated network (latency 0..8,
// jitter, reordering, duplicates), confirm the golden stream of the `input`
// scenario (tests/golden/rollback/input_confirmed_fast.txt: the session's default fast checksum); refused requests
// answer their reason and change nothing.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "peer_session.h"
#include "peer_text.h"
#include "support/rollback_net.h"

#ifndef LAIGE_SOURCE_DIR
#error "LAIGE_SOURCE_DIR must name the source tree (CMakeLists.txt sets it for laige_tests)"
#endif

namespace laige::peer {
namespace {

std::string ask(PeerSession& s, const std::string& line) {
  std::string out;
  EXPECT_TRUE(s.handle(line, out));
  return out;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> v;
  std::size_t i = 0;
  for (std::size_t j; (j = text.find('\n', i)) != std::string::npos; i = j + 1) v.push_back(text.substr(i, j - i));
  return v;
}

std::map<std::uint64_t, std::string> goldenConfirmed() {
  std::map<std::uint64_t, std::string> m;
  const std::string path = std::string(LAIGE_SOURCE_DIR) + "/tests/golden/rollback/input_confirmed_fast.txt";
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return m;
  char buf[64];
  while (std::fgets(buf, sizeof buf, f) != nullptr) {
    std::string_view l(buf);
    const std::string_view tick = nextWord(l);
    std::string_view hash = nextWord(l);
    if (!hash.empty() && hash.back() == '\n') hash.remove_suffix(1);
    std::uint64_t t = 0;
    if (parseU64(tick, t)) m[t] = std::string(hash);
  }
  std::fclose(f);
  return m;
}

TEST(RollbackPeer, TwoPeersOverTheSimulatedNetworkConfirmTheGoldenStream) {
  const std::map<std::uint64_t, std::string> golden = goldenConfirmed();
  ASSERT_EQ(golden.size(), 2000u);
  constexpr std::uint64_t kTicks = 600;
  PeerSession peers[2];
  EXPECT_EQ(ask(peers[0], "session input - 2 0 12 1").rfind("session input 0x1a9e7 ", 0), 0u);
  EXPECT_EQ(ask(peers[1], "session input 0x1a9e7 2 1 12 1").rfind("session input 0x1a9e7 ", 0), 0u);
  test::SimNetwork net(0x9e1, 8, 6);
  std::map<std::uint64_t, std::string> confirmed[2];
  std::vector<std::uint8_t> bytes;
  for (std::uint64_t now = 1; now <= kTicks; ++now) {
    for (std::uint32_t i = 0; i < 2; ++i) {
      net.deliver(now, i, [&](const test::NetMessage& m) {
        std::string hex;
        appendHex(m.bytes.data(), m.bytes.size(), hex);
        EXPECT_EQ(ask(peers[i], "input " + std::to_string(m.from) + " " + std::to_string(m.tick) + " " + hex), "ok\n");
      });
      const std::vector<std::string> reply = lines(ask(peers[i], "advance"));
      ASSERT_FALSE(reply.empty());
      ASSERT_EQ(reply.back().rfind("advanced " + std::to_string(now) + " ", 0), 0u) << reply.back();
      for (const std::string& l : reply) {
        std::string_view rest = l;
        const std::string_view verb = nextWord(rest);
        std::uint64_t tick = 0;
        ASSERT_TRUE(parseU64(nextWord(rest), tick)) << l;
        const std::string_view value = nextWord(rest);
        if (verb == "local") {
          // The generator's bytes, for the ticks up to now + delay, each once.
          std::uint8_t want[12];
          std::string wantHex;
          appendHex(want, inputScenarioPlayerInput(i, tick, want), wantHex);
          EXPECT_EQ(value, wantHex) << l;
          ASSERT_EQ(decodeHex(value, bytes), std::string_view::npos);
          net.send(now, i, 1 - i, tick, bytes);
        } else if (verb == "confirmed") {
          EXPECT_TRUE(confirmed[i].emplace(tick, std::string(value)).second) << l;
        } else {
          EXPECT_EQ(verb, "advanced") << l;
        }
      }
    }
  }
  for (std::uint32_t i = 0; i < 2; ++i) {
    ASSERT_GE(confirmed[i].size(), kTicks - 8);
    for (const auto& [tick, hash] : confirmed[i]) EXPECT_EQ(hash, golden.at(tick)) << "peer " << i << " tick " << tick;
    const std::uint64_t last = confirmed[i].rbegin()->first;
    EXPECT_EQ(ask(peers[i], "hash " + std::to_string(last)), "confirmed " + std::to_string(last) + " " + golden.at(last) + "\n");
    const std::string st = ask(peers[i], "stats");
    EXPECT_EQ(st.rfind("stats advances=600 rollbacks=", 0), 0u) << st;
    EXPECT_NE(st.find(" confirmed=" + std::to_string(last) + "\n"), std::string::npos) << st;
    EXPECT_EQ(st.find(" rollbacks=0 "), std::string::npos) << st;
  }
}

TEST(RollbackPeer, RefusedRequestsAnswerTheirReasonAndChangeNothing) {
  PeerSession s;
  for (const char* verb : {"input 1 1 .", "advance", "hash 1", "stats"}) EXPECT_EQ(ask(s, verb), "error peer_no_session\n") << verb;
  EXPECT_EQ(ask(s, "session nope - 2 0 12 1").rfind("error scenario_unknown scenario=nope", 0), 0u);
  EXPECT_EQ(ask(s, "session swarm - 2 0 12 1"), "error peer_no_player_input scenario=swarm\n");
  EXPECT_EQ(ask(s, "session input 0xzz 2 0 12 1"), "error peer_bad_request seed=0xzz\n");
  EXPECT_EQ(ask(s, "session input - 2 0 12"), "error peer_bad_request delay=missing\n");
  EXPECT_EQ(ask(s, "session input - 2 0 12 32"), "error peer_bad_request delay=32\n");
  EXPECT_EQ(ask(s, "session input - 9 0 12 1").rfind("error rollback_option_invalid option=players value=9", 0), 0u);
  EXPECT_EQ(ask(s, "session input - 2 2 12 1").rfind("error rollback_option_invalid option=localPlayer", 0), 0u);
  EXPECT_EQ(ask(s, "advance"), "error peer_no_session\n");  // nothing was created
  ask(s, "session input - 2 0 8 2");
  for (int t = 1; t <= 20; ++t) ASSERT_EQ(lines(ask(s, "advance")).back(), "advanced " + std::to_string(t) + " 0");
  EXPECT_EQ(ask(s, "input 1 13 0100010002"), "ok\n");
  const std::string before = ask(s, "stats");
  EXPECT_EQ(ask(s, "input 1 13 0100010003").rfind("error input_conflict player=1 tick=13", 0), 0u);
  EXPECT_EQ(ask(s, "input 1 12 0100010002").rfind("error input_too_late tick=12 oldest=13", 0), 0u);
  EXPECT_EQ(ask(s, "input 0 14 .").rfind("error player_invalid player=0", 0), 0u);
  EXPECT_EQ(ask(s, "input 1 14 " + std::string(26, '0')).rfind("error input_too_large player=1 size=13 max=12", 0), 0u);
  EXPECT_EQ(ask(s, "input 1 14 abc"), "error peer_bad_payload at=3\n");
  EXPECT_EQ(ask(s, "input 1 14 zz"), "error peer_bad_payload at=0\n");
  EXPECT_EQ(ask(s, "input x 14 ."), "error peer_bad_request player=x\n");
  EXPECT_EQ(ask(s, "input 1 -3 ."), "error peer_bad_request tick=-3\n");
  EXPECT_EQ(ask(s, "input 1 14"), "error peer_bad_request payload=missing\n");
  EXPECT_EQ(ask(s, "hash 19").rfind("error hash_unavailable tick=19", 0), 0u);
  EXPECT_EQ(ask(s, "stats"), before);
  // The miss at tick 13 rolls back 8 ticks (13..20) on the next advance.
  EXPECT_EQ(lines(ask(s, "advance")).back(), "advanced 21 8");
}

}  // namespace
}  // namespace laige::peer
