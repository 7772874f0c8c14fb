// rollback_test.cpp - RollbackSession (docs/rollback.md): two sessions over
// two worlds exchanging inputs through a simulated network (random latency
// 0..8 ticks, jitter, reordering, duplicates; a seeded laige PRNG) agree
// with a run that had every input in time, tick for tick, for 2,000 ticks;
// the confirmed stream equals tests/golden/rollback/input_confirmed.txt, which the
// wasm build of this file and Vitest's TypeScript session check too (the
// native-vs-wasm pairing). Error paths and the no-allocation rule are in
// rollback_errors_test.cpp.
#include "laige/rollback.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "laige/system.h"
#include "laige/world.h"
#include "scenario.h"
#include "support/golden_file.h"
#include "support/rollback_net.h"

#ifndef LAIGE_SOURCE_DIR
#error "LAIGE_SOURCE_DIR must name the source tree (CMakeLists.txt sets it for laige_tests)"
#endif

namespace laige {
namespace {

using test::inputScenarioPlayerInput;
using test::NetMessage;
using test::SimNetwork;

constexpr std::uint32_t kPlayers = 2;
constexpr std::uint32_t kTicks = 2000;
constexpr std::uint32_t kFlushTicks = 16;

std::unique_ptr<ScenarioRun> openRun(const char* name) {
  const Scenario* sc = findScenario(name);
  EXPECT_NE(sc, nullptr);
  auto r = ScenarioRun::create(*sc, sc->defaultSeed);
  EXPECT_TRUE(r.ok());
  return std::make_unique<ScenarioRun>(std::move(r).takeValue());
}

// A session's checksum of `run`'s world now (Options::checksum).
std::uint64_t checksumOf(const ScenarioRun& run, RollbackChecksum kind) {
  return kind == RollbackChecksum::StateHash ? run.hash() : run.world().stateChecksum(run.world().systemTicksRun());
}

// The `input` scenario with every player's input in time: hash[t] after tick t.
std::vector<std::uint64_t> referenceHashes(std::uint32_t ticks, RollbackChecksum kind) {
  std::unique_ptr<ScenarioRun> run = openRun("input");
  std::vector<std::uint64_t> hashes(ticks + 1);
  hashes[0] = checksumOf(*run, kind);
  std::uint8_t buf[kPlayers * 12];
  for (std::uint64_t t = 1; t <= ticks; ++t) {
    std::uint32_t n = 0;
    for (std::uint32_t p = 0; p < kPlayers; ++p) n += inputScenarioPlayerInput(p, t, buf + n);
    TickInput in;
    in.data = n != 0 ? buf : nullptr;
    in.size = n;
    EXPECT_TRUE(run->step(in).ok());
    hashes[t] = checksumOf(*run, kind);
  }
  return hashes;
}

const std::vector<std::uint64_t>& reference(RollbackChecksum kind = RollbackChecksum::Fast) {
  static const std::vector<std::uint64_t> fast = referenceHashes(kTicks + kFlushTicks, RollbackChecksum::Fast);
  static const std::vector<std::uint64_t> stateHash = referenceHashes(kTicks + kFlushTicks, RollbackChecksum::StateHash);
  return kind == RollbackChecksum::StateHash ? stateHash : fast;
}

struct Confirmed {
  std::vector<std::uint64_t> ticks;
  std::vector<std::uint64_t> hashes;
};

void collectConfirmed(void* ctx, std::uint64_t tick, std::uint64_t hash) noexcept {
  auto* c = static_cast<Confirmed*>(ctx);
  c->ticks.push_back(tick);
  c->hashes.push_back(hash);
}

struct Peer {
  std::unique_ptr<ScenarioRun> run;
  RollbackSession session;
  Confirmed confirmed;
};

struct PairConfig {
  std::uint64_t netSeed = 1;
  std::uint32_t maxLatency = 8;
  std::uint32_t duplicateOneIn = 6;
  std::uint32_t inputDelay = 1;
  std::uint32_t depth = 12;
  RollbackChecksum checksum = RollbackChecksum::Fast;
};

// Two peers, lock-step in time (one advance each per time step); each sends
// its local input for tick now + delay to the other when it sets it.
void runPair(const PairConfig& cfg, Peer (&peers)[2], SimNetwork& net) {
  for (std::uint32_t i = 0; i < 2; ++i) {
    peers[i].run = openRun("input");
    RollbackSession::Options o;
    o.players = kPlayers;
    o.localPlayer = i;
    o.depth = cfg.depth;
    o.checksum = cfg.checksum;
    o.maxInputBytes = 12;
    o.combine = &RollbackSession::combineConcatenated;
    o.onConfirmed = &collectConfirmed;
    o.onConfirmedContext = &peers[i].confirmed;
    auto s = RollbackSession::create(peers[i].run->world(), peers[i].run->schedule(), o);
    ASSERT_TRUE(s.ok()) << s.status().reason();
    peers[i].session = std::move(s).takeValue();
  }
  std::uint8_t buf[12];
  const std::uint64_t total = kTicks + kFlushTicks;
  for (std::uint64_t now = 1; now <= total; ++now) {
    for (std::uint32_t i = 0; i < 2; ++i) {
      Peer& me = peers[i];
      const std::uint64_t first = now == 1 ? 1 : now + cfg.inputDelay;
      for (std::uint64_t t = first; t <= now + cfg.inputDelay; ++t) {
        const std::uint32_t n = inputScenarioPlayerInput(i, t, buf);
        const std::span<const std::uint8_t> bytes(buf, n);
        const Status st = me.session.setLocalInput(t, bytes);
        ASSERT_TRUE(st.ok()) << st.reason() << " tick " << t;
        net.send(now, i, 1 - i, t, bytes);
      }
      net.deliver(now, i, [&](const NetMessage& m) {
        const Status st = me.session.addRemoteInput(m.from, m.tick, m.bytes);
        ASSERT_TRUE(st.ok()) << st.reason() << " tick " << m.tick << " at " << now;
      });
      const Status st = me.session.advance();
      ASSERT_TRUE(st.ok()) << st.reason() << " at " << now;
    }
  }
}

void expectMatchesReference(const PairConfig& cfg) {
  Peer peers[2];
  SimNetwork net(cfg.netSeed, cfg.maxLatency, cfg.duplicateOneIn);
  runPair(cfg, peers, net);
  if (::testing::Test::HasFatalFailure()) return;
  const std::vector<std::uint64_t>& ref = reference(cfg.checksum);
  for (std::uint32_t i = 0; i < 2; ++i) {
    const Peer& p = peers[i];
    ASSERT_GE(p.session.confirmedTick(), kTicks) << "peer " << i;
    ASSERT_EQ(p.confirmed.ticks.size(), p.session.confirmedTick());
    for (std::size_t k = 0; k < p.confirmed.ticks.size(); ++k) {
      const std::uint64_t t = p.confirmed.ticks[k];
      ASSERT_EQ(t, k + 1) << "confirmed in tick order";
      ASSERT_EQ(p.confirmed.hashes[k], ref[t]) << "peer " << i << " tick " << t;
      const Result<std::uint64_t> h = p.session.confirmedHash(t);
      if (t + kDefaultRollbackHashHistory > p.session.confirmedTick()) {
        ASSERT_TRUE(h.ok()) << t;
        EXPECT_EQ(h.value(), ref[t]);
      }
    }
    // The world itself is where the no-latency run is after the same ticks
    // once every input is in (the last ticks may still hold predictions).
    const RollbackStats s = p.session.stats();
    EXPECT_EQ(s.advances, kTicks + kFlushTicks);
    EXPECT_GT(s.rollbacks, 100u) << "the network must make the sessions roll back";
    EXPECT_GT(s.predictionMisses, 100u);
    EXPECT_GT(s.predictionHits, 100u);
    EXPECT_GT(s.duplicateInputs, 50u);
    // An input for tick T is sent at T - delay and arrives by T - delay +
    // maxLatency, when tick T - delay + maxLatency - 1 has run: the deepest
    // rollback is maxLatency - delay ticks.
    EXPECT_GE(s.deepestRollback, cfg.maxLatency - cfg.inputDelay - 1);
    EXPECT_LE(s.deepestRollback, cfg.maxLatency - cfg.inputDelay);
    EXPECT_EQ(s.ringGrowths, 0u);
    std::printf("[ rollback ] peer %u: %llu rollbacks, %llu re-simulated ticks, %llu misses, %llu hits, deepest %llu\n", i,
                static_cast<unsigned long long>(s.rollbacks), static_cast<unsigned long long>(s.resimulatedTicks),
                static_cast<unsigned long long>(s.predictionMisses), static_cast<unsigned long long>(s.predictionHits),
                static_cast<unsigned long long>(s.deepestRollback));
  }
}

TEST(RollbackNetwork, TwoPeersAgreeWithTheRunThatHadEveryInputInTime) { expectMatchesReference(PairConfig{}); }

// The same with the state hash kept instead of the fast checksum: the
// confirmed stream is the golden file's (World::stateHash per tick).
TEST(RollbackNetwork, StateHashSessionsAgreeWithTheStateHashStream) {
  PairConfig c;
  c.checksum = RollbackChecksum::StateHash;
  expectMatchesReference(c);
}

TEST(RollbackNetwork, OtherNetworkSeedsAndDelaysAgreeToo) {
  PairConfig a;
  a.netSeed = 0x5eed0002;
  a.inputDelay = 0;
  expectMatchesReference(a);
  PairConfig b;
  b.netSeed = 0x5eed0003;
  b.inputDelay = 3;
  b.depth = 10;
  b.duplicateOneIn = 2;
  expectMatchesReference(b);
}

// Latency up to 15 ticks over a ring of 8: with maxPredictionTicks = depth
// a peer waits (advance() refuses with prediction_limit) instead of
// predicting past its ring, so no input ever arrives too late, and the
// confirmed hashes still equal the no-latency run's.
TEST(RollbackNetwork, PredictionLimitMeansNoInputIsEverTooLate) {
  for (const std::uint64_t seed : {0x11ull, 0x22ull, 0x33ull}) {
    Peer peers[2];
    SimNetwork net(seed, 15, 4);
    for (std::uint32_t i = 0; i < 2; ++i) {
      peers[i].run = openRun("input");
      RollbackSession::Options o;
      o.players = kPlayers;
      o.localPlayer = i;
      o.depth = 8;
      o.maxPredictionTicks = 8;
      o.maxInputBytes = 12;
      o.combine = &RollbackSession::combineConcatenated;
      o.onConfirmed = &collectConfirmed;
      o.onConfirmedContext = &peers[i].confirmed;
      peers[i].session = RollbackSession::create(peers[i].run->world(), peers[i].run->schedule(), o).takeValue();
    }
    std::uint8_t buf[12];
    std::uint64_t waits = 0;
    const std::uint32_t delay = 2;
    std::uint64_t nextLocal[2] = {1, 1};
    for (std::uint64_t now = 1; peers[0].session.currentTick() < 600 || peers[1].session.currentTick() < 600; ++now) {
      ASSERT_LT(now, 5000u) << "the peers stopped advancing";
      for (std::uint32_t i = 0; i < 2; ++i) {
        Peer& me = peers[i];
        // Local inputs up to currentTick + 1 + delay, each set and sent once.
        for (; nextLocal[i] <= me.session.currentTick() + 1 + delay; ++nextLocal[i]) {
          const std::uint32_t n = inputScenarioPlayerInput(i, nextLocal[i], buf);
          const Status st = me.session.setLocalInput(nextLocal[i], std::span<const std::uint8_t>(buf, n));
          ASSERT_TRUE(st.ok()) << st.reason();
          net.send(now, i, 1 - i, nextLocal[i], std::span<const std::uint8_t>(buf, n));
        }
        net.deliver(now, i, [&](const NetMessage& m) {
          const Status st = me.session.addRemoteInput(m.from, m.tick, m.bytes);
          ASSERT_TRUE(st.ok()) << st.reason() << " tick " << m.tick;  // never input_too_late
        });
        const Status st = me.session.advance();
        if (st.isError()) {
          ASSERT_STREQ(st.reason(), "prediction_limit");
          ++waits;
        }
      }
    }
    EXPECT_GT(waits, 0u) << "a 15-tick latency over an 8-tick ring must make the peers wait";
    const std::vector<std::uint64_t>& ref = reference();
    for (const Peer& p : peers) {
      ASSERT_GE(p.confirmed.ticks.size(), 580u);
      for (std::size_t k = 0; k < p.confirmed.ticks.size(); ++k) ASSERT_EQ(p.confirmed.hashes[k], ref[p.confirmed.ticks[k]]);
    }
  }
}

// The reference stream is the golden file the wasm gtest and Vitest's
// TypeScript session over sim.openScenario('input') check too: a native
// run, a wasm run and a TypeScript session all confirm these hashes.
TEST(RollbackNetwork, ReferenceStreamIsTheGoldenFile) {
  const std::string path = std::string(LAIGE_SOURCE_DIR) + "/tests/golden/rollback/input_confirmed.txt";
  const std::vector<std::uint64_t>& ref = reference(RollbackChecksum::StateHash);
  std::string text;
  char line[kHashLineCapacity];
  for (std::uint64_t t = 1; t <= kTicks; ++t) {
    const std::uint32_t n = formatHashLine(t, ref[t], line);
    text.append(line, n);
  }
  test::expectGoldenFile(path, text, "LAIGE_WRITE_ROLLBACK_GOLDEN");
}

// The same stream under the fast checksum (World::stateChecksum per tick,
// what sessions confirm by default): the wasm gtest and Vitest's
// TypeScript session check this file too.
TEST(RollbackNetwork, FastReferenceStreamIsTheGoldenFile) {
  const std::string path = std::string(LAIGE_SOURCE_DIR) + "/tests/golden/rollback/input_confirmed_fast.txt";
  const std::vector<std::uint64_t>& ref = reference(RollbackChecksum::Fast);
  std::string text;
  char line[kHashLineCapacity];
  for (std::uint64_t t = 1; t <= kTicks; ++t) {
    const std::uint32_t n = formatHashLine(t, ref[t], line);
    text.append(line, n);
  }
  test::expectGoldenFile(path, text, "LAIGE_WRITE_ROLLBACK_GOLDEN");
}

// One player: nothing to predict, every tick confirmed at once, and the run
// is the plain scenario run with that player's input.
TEST(RollbackSession, SinglePlayerIsAPlainRun) {
  std::unique_ptr<ScenarioRun> run = openRun("input");
  RollbackSession::Options o;
  o.players = 1;
  o.maxInputBytes = 12;
  o.combine = &RollbackSession::combineConcatenated;
  auto s = RollbackSession::create(run->world(), run->schedule(), o);
  ASSERT_TRUE(s.ok());
  RollbackSession session = std::move(s).takeValue();
  std::unique_ptr<ScenarioRun> plain = openRun("input");
  std::uint8_t buf[12];
  for (std::uint64_t t = 1; t <= 200; ++t) {
    const std::uint32_t n = inputScenarioPlayerInput(0, t, buf);
    ASSERT_TRUE(session.setLocalInput(t, std::span<const std::uint8_t>(buf, n)).ok());
    ASSERT_TRUE(session.advance().ok());
    TickInput in;
    in.data = n != 0 ? buf : nullptr;
    in.size = n;
    ASSERT_TRUE(plain->step(in).ok());
    ASSERT_EQ(session.confirmedTick(), t);
    ASSERT_EQ(session.confirmedHash(t).value(), checksumOf(*plain, RollbackChecksum::Fast));
    ASSERT_EQ(run->hash(), plain->hash());
  }
  EXPECT_EQ(session.stats().rollbacks, 0u);
}

// The default combiner: [len][bytes] per player, in player order.
TEST(RollbackSession, DefaultCombinerPrefixesEachPlayersInput) {
  RollbackTickInputs in;
  in.players = 3;
  const std::uint8_t a[] = {7, 8};
  const std::uint8_t c[] = {9};
  in.input[0] = a;
  in.input[2] = c;
  std::uint8_t out[16] = {};
  std::uint32_t n = 0;
  ASSERT_TRUE(RollbackSession::combineLengthPrefixed(nullptr, 1, in, out, n).ok());
  const std::vector<std::uint8_t> got(out, out + n);
  EXPECT_EQ(got, (std::vector<std::uint8_t>{2, 7, 8, 0, 1, 9}));
  ASSERT_TRUE(RollbackSession::combineConcatenated(nullptr, 1, in, out, n).ok());
  EXPECT_EQ(std::vector<std::uint8_t>(out, out + n), (std::vector<std::uint8_t>{7, 8, 9}));
  const Status small = RollbackSession::combineLengthPrefixed(nullptr, 1, in, std::span<std::uint8_t>(out, 5), n);
  EXPECT_STREQ(small.reason(), "combined_input_too_large");
}

}  // namespace
}  // namespace laige
