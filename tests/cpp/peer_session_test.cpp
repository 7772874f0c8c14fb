// peer_session_test.cpp - laige-peer's protocol (cpp/tools/peer_session.h):
// the per-tick hashes of a stepped scenario are the golden stream's lines,
// an explicit payload is what the systems read, refused requests change
// nothing, and the snapshot reply restores into a world with the same hash.
#include "peer_session.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "peer_text.h"
#include "support/counting_allocator.h"

#ifndef LAIGE_SOURCE_DIR
#error "LAIGE_SOURCE_DIR must name the source tree (CMakeLists.txt sets it for laige_tests)"
#endif

namespace laige::peer {
namespace {

std::vector<std::string> goldenLines(const char* name) {
  std::vector<std::string> lines;
  const std::string path = std::string(LAIGE_SOURCE_DIR) + "/tests/golden/" + name + ".txt";
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return lines;
  std::string cur;
  for (int c = 0; (c = std::fgetc(f)) != EOF;) {
    if (c == '\n') {
      lines.push_back(cur);
      cur.clear();
    } else {
      cur += static_cast<char>(c);
    }
  }
  std::fclose(f);
  return lines;
}

std::string ask(PeerSession& s, const std::string& line) {
  std::string out;
  EXPECT_TRUE(s.handle(line, out));
  return out;
}

TEST(PeerSession, HelloNamesTheProtocolAndEveryScenario) {
  const std::string h = PeerSession::hello();
  EXPECT_EQ(h.rfind("hello laige-peer 1 ", 0), 0u) << h;
  EXPECT_NE(h.find("swarm"), std::string::npos);
  EXPECT_EQ(h.back(), '\n');
}

TEST(PeerSession, GeneratedInputReproducesTheGoldenStream) {
  const std::vector<std::string> golden = goldenLines("swarm");
  ASSERT_GE(golden.size(), 601u);
  PeerSession s;
  EXPECT_EQ(ask(s, "open swarm"), "ready swarm 0x5a4b3c2d1e0f " + golden[0] + "\n");
  for (int t = 1; t <= 600; ++t) {
    ASSERT_EQ(ask(s, "step " + std::to_string(t) + " -"), "hash " + golden[static_cast<std::size_t>(t)] + "\n") << t;
  }
}

TEST(PeerSession, AnExplicitPayloadIsTheInputTheSystemsRead) {
  const std::vector<std::string> golden = goldenLines("swarm");
  ASSERT_GE(golden.size(), 301u);
  // Ticks 120..239 carry a generated attractor, the others none: feeding
  // the generator's bytes as hex (or `.`) equals `-`, and an attractor where
  // the generator writes none (ticks 240..300) changes the stream.
  PeerSession gen;
  PeerSession hex;
  PeerSession other;
  ask(gen, "open swarm");
  ask(hex, "open swarm");
  ask(other, "open swarm");
  for (std::uint64_t t = 1; t <= 300; ++t) {
    const TickInput in = gen.run()->generatedInput(t);
    std::string bytes;
    char b[3];
    for (std::uint32_t i = 0; i < in.size; ++i) {
      std::snprintf(b, sizeof b, "%02x", in.data[i]);
      bytes += b;
    }
    const std::string ts = std::to_string(t);
    const std::string a = ask(gen, "step " + ts + " -");
    EXPECT_EQ(ask(hex, "step " + ts + " " + (bytes.empty() ? "." : bytes)), a) << t;
    ask(other, "step " + ts + " " + std::string(t >= 240 ? "0000100000001000" : (bytes.empty() ? "." : bytes)));
  }
  EXPECT_EQ(ask(gen, "step 301 -"), "hash " + golden[301] + "\n");
  EXPECT_NE(ask(other, "step 301 -"), "hash " + golden[301] + "\n");
}

TEST(PeerSession, RefusedRequestsAnswerTheirReasonAndRunNoTick) {
  PeerSession s;
  EXPECT_EQ(ask(s, "step 1 -"), "error peer_no_scenario\n");
  EXPECT_EQ(ask(s, "snapshot"), "error peer_no_scenario\n");
  EXPECT_EQ(ask(s, "open nope").rfind("error scenario_unknown scenario=nope", 0), 0u);
  EXPECT_EQ(ask(s, "open swarm 0xzz"), "error peer_bad_request seed=0xzz\n");
  ask(s, "open swarm");
  const std::uint64_t h0 = s.run()->hash();
  EXPECT_EQ(ask(s, "step 2 -"), "error peer_tick_order expected=1 got=2\n");
  EXPECT_EQ(ask(s, "step 1 abc"), "error peer_bad_payload hex_digits=3\n");
  EXPECT_EQ(ask(s, "step 1 zz"), "error peer_bad_payload at=zz\n");
  EXPECT_EQ(ask(s, "step 1 " + std::string(2 * 257, '0')), "error peer_bad_payload hex_digits=514\n");
  EXPECT_EQ(ask(s, "step x -"), "error peer_bad_request step=x\n");
  EXPECT_EQ(ask(s, "step 1 - 12345"), "error peer_bad_request page_hash=12345\n");
  EXPECT_EQ(ask(s, "step 1 - 00000000000000zz"), "error peer_bad_request page_hash=00000000000000zz\n");
  EXPECT_EQ(ask(s, "jump"), "error peer_bad_request verb=jump\n");
  EXPECT_EQ(ask(s, std::string(kMaxRequestLine + 1, 'a')).rfind("error peer_line_too_long", 0), 0u);
  EXPECT_EQ(s.run()->tick(), 0u);
  EXPECT_EQ(s.run()->hash(), h0);
  std::string out;
  EXPECT_FALSE(s.handle("quit", out));
  EXPECT_TRUE(out.empty());
}

TEST(PeerSession, AStepAllocatesNothingOnceTheReplyBufferIsWarm) {
  PeerSession s;
  std::string out;
  out.reserve(256);
  s.handle("open swarm", out);
  // Every other line carries the page's hash (the reference run's: no divergence).
  PeerSession reference;
  std::string scratch;
  reference.handle("open swarm", scratch);
  std::string lines[40];
  for (int t = 0; t < 40; ++t) {
    lines[t] = "step " + std::to_string(t + 1) + (t % 2 == 0 ? " -" : " 0000140000000a00");
    scratch.clear();
    reference.handle(lines[t], scratch);
    if (t % 4 == 1) lines[t] += " " + scratch.substr(scratch.rfind(' ') + 1, 16);
  }
  for (int t = 0; t < 4; ++t) {
    out.clear();
    s.handle(lines[t], out);
  }
  const test::AllocationWindow window;
  for (int t = 4; t < 40; ++t) {
    out.clear();
    s.handle(lines[t], out);
  }
  EXPECT_EQ(window.allocations(), 0u);
  EXPECT_EQ(out.rfind("hash 40 ", 0), 0u) << out;
}

TEST(PeerSession, TheSnapshotReplyRestoresTheSameState) {
  PeerSession s;
  ask(s, "open swarm");
  for (int t = 1; t <= 30; ++t) ask(s, "step " + std::to_string(t) + " -");
  const std::string reply = ask(s, "snapshot");
  ASSERT_EQ(reply.rfind("snapshot 30 ", 0), 0u);
  const std::string hex = reply.substr(12, reply.size() - 13);
  ASSERT_EQ(hex.size() % 2, 0u);
  std::vector<std::uint8_t> bytes(hex.size() / 2);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  PeerSession fresh;
  ask(fresh, "open swarm");
  ASSERT_TRUE(fresh.run()->world().restore(bytes).ok());
  EXPECT_EQ(fresh.run()->world().stateHash(30), s.run()->hash());
}

TEST(PeerSession, TheSnapshotIsTakenAtTheFirstTickWhoseHashDiffersFromThePages) {
  PeerSession reference;
  PeerSession s;
  ask(reference, "open swarm");
  ask(s, "open swarm");
  std::uint64_t hashAt12 = 0;
  for (int t = 1; t <= 20; ++t) {
    const std::string step = "step " + std::to_string(t) + " -";
    const std::string r = ask(reference, step);
    std::uint64_t h = 0;
    ASSERT_TRUE(parseHash(r.substr(r.rfind(' ') + 1, 16), h));
    if (t == 12) hashAt12 = h;
    // From tick 12 on the page reports another hash (its state was perturbed).
    char page[17];
    std::snprintf(page, sizeof page, "%016llx", static_cast<unsigned long long>(t >= 12 ? h ^ 1u : h));
    EXPECT_EQ(ask(s, step + " " + page), r);  // the peer's own answer is unchanged
  }
  const std::string reply = ask(s, "snapshot");
  ASSERT_EQ(reply.rfind("snapshot 12 ", 0), 0u) << reply.substr(0, 40);
  std::vector<std::uint8_t> bytes;
  decodeHex(std::string_view(reply).substr(12, reply.size() - 13), bytes);
  PeerSession fresh;
  ask(fresh, "open swarm");
  ASSERT_TRUE(fresh.run()->world().restore(bytes).ok());
  EXPECT_EQ(fresh.run()->world().stateHash(12), hashAt12);
  EXPECT_EQ(s.run()->tick(), 20u);
  // A new open starts over: the snapshot is the current state again.
  ask(s, "open swarm");
  EXPECT_EQ(ask(s, "snapshot").rfind("snapshot 0 ", 0), 0u);
}

}  // namespace
}  // namespace laige::peer
