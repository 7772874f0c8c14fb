// scenario_test.cpp - the reference scenarios (cpp/scenarios): the registry,
// the golden `<tick> <hash>` streams (tests/golden, checked natively AND in
// the wasm build, which reads the same files through NODERAWFS), and the
// properties each scenario promises (docs/scenarios.md).
#include "scenario.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "laige/game_loop.h"
#include "laige/prng.h"
#include "laige/system.h"
#include "laige/world.h"
#include "support/counting_allocator.h"

#ifndef LAIGE_SOURCE_DIR
#error "LAIGE_SOURCE_DIR must name the source tree (CMakeLists.txt sets it for laige_tests)"
#endif

namespace laige {
namespace {

constexpr std::uint32_t kMinGoldenTicks = 600;

std::vector<std::string> readLines(const std::string& path) {
  std::vector<std::string> lines;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return lines;
  std::string cur;
  int c = 0;
  while ((c = std::fgetc(f)) != EOF) {
    if (c == '\n') {
      lines.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur.push_back(static_cast<char>(c));
    }
  }
  if (!cur.empty()) lines.push_back(cur);
  std::fclose(f);
  return lines;
}

struct Collected {
  std::vector<std::string> lines;
};

void collect(void* context, std::uint64_t tick, std::uint64_t hash) noexcept {
  char line[kHashLineCapacity];
  const std::uint32_t n = formatHashLine(tick, hash, line);
  static_cast<Collected*>(context)->lines.emplace_back(line, n - 1);  // without '\n'
}

std::vector<std::string> stream(const Scenario& s, std::uint64_t seed, std::uint32_t ticks) {
  Collected c;
  const auto r = runScenario(s, seed, ticks, &collect, &c);
  EXPECT_TRUE(r.ok()) << s.name;
  return c.lines;
}

TEST(Scenario, RegistryHoldsTheReferenceScenarios) {
  std::set<std::string> names;
  for (std::uint32_t i = 0; i < scenarioCount(); ++i) {
    const Scenario* s = scenarioAt(i);
    ASSERT_NE(s, nullptr);
    EXPECT_TRUE(names.insert(s->name).second) << "duplicate " << s->name;
    EXPECT_EQ(findScenario(s->name), s);
    EXPECT_NE(s->description, nullptr);
    EXPECT_GE(s->tickRateHz, kMinTickRateHz);
    EXPECT_LE(s->tickRateHz, kMaxTickRateHz);
    EXPECT_GT(s->capacity, 0u);
    EXPECT_NE(s->setup, nullptr);
  }
  for (const char* n : {"hello", "synthetic", "synthetic-perturbed", "swarm", "stress", "float", "input"}) {
    EXPECT_NE(findScenario(n), nullptr) << n;
  }
  EXPECT_EQ(findScenario("nope"), nullptr);
  EXPECT_EQ(scenarioAt(scenarioCount()), nullptr);
  EXPECT_EQ(findScenario("float")->math, SimMathBackend::FloatPinned32);
  EXPECT_EQ(findScenario("swarm")->math, SimMathBackend::FixedPoint16_16);
  const auto unknown = runScenario("nope", 0, 1, nullptr, nullptr);
  ASSERT_TRUE(unknown.isError());
  EXPECT_EQ(unknown.error(), ErrorCode::InvalidArgument);
  EXPECT_TRUE(runScenario("hello", 0, kMaxScenarioTicks + 1, nullptr, nullptr).isError());
}

TEST(Scenario, HashLineFormat) {
  char line[kHashLineCapacity];
  EXPECT_EQ(formatHashLine(0, 0x88201fb960ff6465ull, line), 19u);
  EXPECT_STREQ(line, "0 88201fb960ff6465\n");
  EXPECT_EQ(formatHashLine(18446744073709551615ull, 0xaull, line), 38u);
  EXPECT_STREQ(line, "18446744073709551615 000000000000000a\n");
  formatHashLine(600, 0xFFFFFFFFFFFFFFFFull, line);
  EXPECT_STREQ(line, "600 ffffffffffffffff\n");
}

// The golden streams: every scenario, every tick, against the committed
// file. The same test runs in the wasm build; the files are minted by the
// native release build (scripts/mint-goldens.sh).
TEST(Scenario, GoldenStreams) {
  for (std::uint32_t i = 0; i < scenarioCount(); ++i) {
    const Scenario& s = *scenarioAt(i);
    const std::string path = std::string(LAIGE_SOURCE_DIR) + "/tests/golden/" + s.name + ".txt";
    const std::vector<std::string> golden = readLines(path);
    ASSERT_GE(golden.size(), kMinGoldenTicks + 1)
        << "missing or short golden stream " << path << " (at least " << kMinGoldenTicks
        << " ticks). Mint it with: bash scripts/mint-goldens.sh";
    const auto ticks = static_cast<std::uint32_t>(golden.size() - 1);
    const std::vector<std::string> got = stream(s, s.defaultSeed, ticks);
    ASSERT_EQ(got.size(), golden.size());
    for (std::size_t t = 0; t < golden.size(); ++t) {
      if (got[t] == golden[t]) continue;
      ADD_FAILURE() << "scenario '" << s.name << "' diverges from " << path << " at tick " << t
                    << "\n  golden: " << golden[t] << "\n  this build: " << got[t]
                    << "\nIf the simulation changed ON PURPOSE, re-mint the goldens with "
                       "`bash scripts/mint-goldens.sh` and commit tests/golden/ with the change. If "
                       "only this build disagrees (wasm vs native, one compiler or flag set), that is "
                       "a determinism bug of the highest priority: do NOT re-mint; see "
                       "docs/determinism.md.";
      break;
    }
  }
}

TEST(Scenario, RunsAreReproducibleAndSeedSensitive) {
  for (std::uint32_t i = 0; i < scenarioCount(); ++i) {
    const Scenario& s = *scenarioAt(i);
    const auto a = stream(s, s.defaultSeed, 40);
    const auto b = stream(s, s.defaultSeed, 40);
    EXPECT_EQ(a, b) << s.name;
    const auto c = stream(s, s.defaultSeed + 1, 40);
    // Another seed: another substream seed, so tick 0 already differs.
    ASSERT_EQ(c.size(), a.size());
    EXPECT_NE(a[0], c[0]) << s.name;
  }
}

TEST(Scenario, SyntheticPerturbedDivergesAtTickSeven) {
  const auto a = stream(*findScenario("synthetic"), 0x1de7c0de, 64);
  const auto b = stream(*findScenario("synthetic-perturbed"), 0x1de7c0de, 64);
  for (std::size_t t = 0; t < 7; ++t) EXPECT_EQ(a[t], b[t]) << t;
  for (std::size_t t = 7; t < a.size(); ++t) EXPECT_NE(a[t], b[t]) << t;
}

TEST(Scenario, HelloIsOneBodyOnTheDiagonal) {
  auto run = ScenarioRun::create(*findScenario("hello"), 0x1F055EED).takeValue();
  EXPECT_EQ(run.world().entityCount(), 1u);
  EXPECT_EQ(run.world().systemCount(), 1u);
  for (int t = 0; t < 33; ++t) ASSERT_TRUE(run.step().ok());
  // 33 units along the diagonal in a 32-unit box: (1, 1).
  const std::uint8_t* col = run.world().archetypeColumn(1, 1);
  ASSERT_NE(col, nullptr);
  std::int32_t xy[2];
  std::memcpy(xy, col, 8);
  EXPECT_EQ(xy[0], 65536);
  EXPECT_EQ(xy[1], 65536);
}

std::uint32_t nonEmptyArchetypes(World& w) {
  std::uint32_t n = 0;
  for (std::uint32_t a = 1; a <= w.archetypeCount(); ++a) n += w.archetypeRowCount(static_cast<ArchetypeId>(a)) != 0;
  return n;
}

TEST(Scenario, SwarmShape) {
  auto run = ScenarioRun::create(*findScenario("swarm"), findScenario("swarm")->defaultSeed).takeValue();
  World& w = run.world();
  EXPECT_GE(w.systemCount(), 4u);
  EXPECT_GE(w.entityCount(), 2001u);  // agents + the controller
  EXPECT_GE(nonEmptyArchetypes(w), 3u);
  std::uint64_t despawned = 0;
  for (int t = 0; t < 300; ++t) ASSERT_TRUE(run.step().ok());
  EXPECT_GE(w.entityCount(), 2001u);
  EXPECT_GE(nonEmptyArchetypes(w), 3u);
  // Churn happened: generations moved on some slots.
  for (std::uint32_t slot = 0; slot < w.capacity(); ++slot) {
    const Entity e = w.handleAt(static_cast<std::uint16_t>(slot));
    if (w.isValid(e) && e.generation() > 1) ++despawned;
  }
  EXPECT_GT(despawned, 100u);
}

TEST(Scenario, SwarmAttractorComesFromTheInput) {
  // The generator's first attractor window starts at tick 120: until then
  // the generated input is empty, and a run fed explicit empty inputs
  // agrees; from then on it does not.
  const Scenario& s = *findScenario("swarm");
  auto a = ScenarioRun::create(s, s.defaultSeed).takeValue();
  auto b = ScenarioRun::create(s, s.defaultSeed).takeValue();
  for (int t = 1; t <= 121; ++t) {
    ASSERT_TRUE(a.step().ok());
    ASSERT_TRUE(b.step(TickInput{}).ok());
    if (t < 120) {
      ASSERT_EQ(a.hash(), b.hash()) << t;
    } else {
      EXPECT_NE(a.hash(), b.hash()) << t;
    }
  }
  EXPECT_EQ(a.generatedInput(119).size, 0u);
  EXPECT_EQ(a.generatedInput(120).size, 8u);
}

// ScenarioRun::createLoop: a GameLoop drives the run frame by frame. Its
// default provider is the scenario's generator, so frames of any number of
// ticks give the golden stream; an override feeds an external payload.
struct LoopHashes {
  std::uint64_t hashes[kMinGoldenTicks + 1] = {};
  std::uint64_t calls = 0;
};

Status recordLoopHash(void* ctx, World& world, std::uint64_t tick) noexcept {
  auto& c = *static_cast<LoopHashes*>(ctx);
  ++c.calls;
  if (tick <= kMinGoldenTicks) c.hashes[tick] = world.stateHash(tick);
  return Status{};
}

struct FakeClock {
  std::int64_t now = 1'000'000'000;
  static std::int64_t read(void* ctx) noexcept { return static_cast<FakeClock*>(ctx)->now; }
};
constexpr std::int64_t kTickNs = 16'666'667;  // one tick at 60 Hz, rounded up

TEST(Scenario, AGameLoopDrivingARunReproducesTheGoldenStream) {
  for (const char* name : {"swarm", "input"}) {
    const Scenario& s = *findScenario(name);
    const std::vector<std::string> golden =
        readLines(std::string(LAIGE_SOURCE_DIR) + "/tests/golden/" + s.name + ".txt");
    ASSERT_GE(golden.size(), kMinGoldenTicks + 1) << name;
    auto run = ScenarioRun::create(s, s.defaultSeed).takeValue();
    auto hashes = std::make_unique<LoopHashes>();
    hashes->hashes[0] = run.hash();
    FakeClock clock;
    GameLoop::Options o;
    o.tickRateHz = s.tickRateHz;
    o.maxCatchUpTicks = 3;
    o.nowNs = &FakeClock::read;
    o.clockContext = &clock;
    o.onTick = &recordLoopHash;
    o.onTickContext = hashes.get();
    GameLoop loop = run.createLoop(o).takeValue();
    ASSERT_TRUE(loop.frame().ok());
    std::uint64_t allocations = 0;
    for (std::uint32_t k = 0; loop.currentTick() < kMinGoldenTicks; ++k) {
      // Frames of 1, 2, 3, 0, 1, 2, 3, 0, ... ticks (none dropped).
      const std::uint64_t left = kMinGoldenTicks - loop.currentTick();
      const std::uint64_t due = (k + 1) % 4 < left ? (k + 1) % 4 : left;
      clock.now += static_cast<std::int64_t>(due) * kTickNs;
      const bool watch = loop.currentTick() >= 240 && loop.currentTick() < 300;  // warm: the no-allocation guard
      test::AllocationWindow window;
      ASSERT_TRUE(loop.frame().ok()) << name << " frame " << k;
      if (watch) allocations += window.allocations();
    }
    EXPECT_EQ(allocations, 0u) << name;
    EXPECT_EQ(loop.stats().droppedTicks, 0u);
    EXPECT_EQ(run.tick(), kMinGoldenTicks);
    EXPECT_EQ(hashes->calls, kMinGoldenTicks);
    for (std::uint32_t t = 0; t <= kMinGoldenTicks; ++t) {
      char line[kHashLineCapacity];
      const std::uint32_t n = formatHashLine(t, hashes->hashes[t], line);
      ASSERT_EQ(std::string(line, n - 1), golden[t]) << name << " tick " << t;
    }
  }
}

struct Steer {
  ScenarioRun* run;
  std::uint64_t until;  // the attractor for the run's ticks 1..until, then the generator
  std::uint8_t payload[8] = {0, 0, 20, 0, 0, 0, 0xF6, 0xFF};  // (20, -10) in Q16.16, little-endian
};

Status steer(void* ctx, std::uint64_t loopTick, TickInput& input) noexcept {
  Steer& st = *static_cast<Steer*>(ctx);
  if (st.run->tick() + 1 > st.until) return ScenarioRun::generatedTickInput(st.run, loopTick, input);
  input = TickInput{st.payload, 8};
  return Status{};
}

TEST(Scenario, ALoopProviderOverridesTheGeneratedInput) {
  const Scenario& s = *findScenario("swarm");
  auto looped = ScenarioRun::create(s, s.defaultSeed).takeValue();
  auto stepped = ScenarioRun::create(s, s.defaultSeed).takeValue();
  auto plain = ScenarioRun::create(s, s.defaultSeed).takeValue();
  Steer st{&looped, 30};
  GameLoop::Options o;
  o.tickInput = &steer;
  o.tickInputContext = &st;
  GameLoop loop = looped.createLoop(o).takeValue();
  // The loop and step() share the run's tick: mix them.
  ASSERT_TRUE(looped.step(TickInput{st.payload, 8}).ok());
  ASSERT_TRUE(stepped.step(TickInput{st.payload, 8}).ok());
  ASSERT_TRUE(plain.step().ok());
  EXPECT_EQ(looped.tick(), 1u);
  for (std::uint64_t t = 2; t <= 150; t += 2) {
    ASSERT_TRUE(loop.step(2).ok());
    for (int i = 0; i < 2; ++i) {
      ASSERT_TRUE(stepped.tick() + 1 <= 30 ? stepped.step(TickInput{st.payload, 8}).ok() : stepped.step().ok());
      ASSERT_TRUE(plain.step().ok());
    }
    ASSERT_EQ(looped.tick(), t + 1);
    ASSERT_EQ(looped.hash(), stepped.hash()) << t;
  }
  EXPECT_NE(looped.hash(), plain.hash());
  EXPECT_EQ(loop.currentTick(), 150u);
}

TEST(Scenario, StressShape) {
  const Scenario& s = *findScenario("stress");
  auto run = ScenarioRun::create(s, s.defaultSeed).takeValue();
  World& w = run.world();
  EXPECT_EQ(w.capacity(), 10000u);
  EXPECT_EQ(w.entityCount(), 10000u);
  std::uint32_t dynamic = 0;
  for (std::uint32_t a = 1; a <= w.archetypeCount(); ++a) dynamic += w.archetypeRowCount(static_cast<ArchetypeId>(a));
  EXPECT_EQ(dynamic, 2000u);
  EXPECT_EQ(w.systemCount(), 2u);  // BenchMove, BenchHash
}

TEST(Scenario, InputStreamDrivesTheInputScenario) {
  const Scenario& s = *findScenario("input");
  ASSERT_NE(s.input, nullptr);
  // The generator is a pure function of (seed, tick).
  std::uint8_t x[kMaxScenarioInputBytes], y[kMaxScenarioInputBytes];
  std::uint32_t nonEmpty = 0;
  for (std::uint64_t t = 1; t <= 200; ++t) {
    const std::uint32_t n = s.input(s.defaultSeed, t, x, sizeof x);
    ASSERT_EQ(s.input(s.defaultSeed, t, y, sizeof y), n);
    EXPECT_EQ(std::memcmp(x, y, n), 0);
    nonEmpty += n != 0;
  }
  EXPECT_GT(nonEmpty, 100u);
  // Without its input the run is another run.
  auto a = ScenarioRun::create(s, s.defaultSeed).takeValue();
  auto b = ScenarioRun::create(s, s.defaultSeed).takeValue();
  bool differed = false;
  for (int t = 0; t < 60; ++t) {
    ASSERT_TRUE(a.step().ok());
    ASSERT_TRUE(b.step(TickInput{}).ok());
    differed = differed || a.hash() != b.hash();
  }
  EXPECT_TRUE(differed);
}

TEST(Scenario, InputScenarioSurvivesGarbagePayloads) {
  // Replay payloads are untrusted: random bytes of random lengths must run
  // (deterministically) without crashing.
  const Scenario& s = *findScenario("input");
  auto a = ScenarioRun::create(s, 1).takeValue();
  auto b = ScenarioRun::create(s, 1).takeValue();
  Prng rng(99);
  std::uint8_t buf[kMaxScenarioInputBytes];
  for (int t = 0; t < 300; ++t) {
    const std::uint32_t n = rng.next_range(0, kMaxScenarioInputBytes + 1);
    for (std::uint32_t i = 0; i < n; ++i) buf[i] = static_cast<std::uint8_t>(rng.next_u32());
    ASSERT_TRUE(a.step(TickInput{n != 0 ? buf : nullptr, n}).ok());
    ASSERT_TRUE(b.step(TickInput{n != 0 ? buf : nullptr, n}).ok());
    ASSERT_EQ(a.hash(), b.hash());
  }
}

TEST(Scenario, StepsAllocateNothingOnceWarm) {
  // No allocation in a tick, for the scenario ticks: after a warm-up (archetype creation and
  // growth are setup-like events), a tick allocates nothing.
  for (const char* name : {"hello", "synthetic", "stress", "float", "swarm", "input"}) {
    const Scenario& s = *findScenario(name);
    auto run = ScenarioRun::create(s, s.defaultSeed).takeValue();
    for (int t = 0; t < 240; ++t) ASSERT_TRUE(run.step().ok());
    test::AllocationWindow window;
    for (int t = 0; t < 20; ++t) {
      ASSERT_TRUE(run.step().ok());
      (void)run.hash();
    }
    EXPECT_EQ(window.allocations(), 0u) << name;
  }
}

}  // namespace
}  // namespace laige
