// scenario_test.cpp - the reference scenarios (cpp/scenarios): the registry,
// the golden `<tick> <hash>` streams (tests/golden, checked natively AND in
// the wasm build, which reads the same files through NODERAWFS), and the
// properties each scenario promises (docs/scenarios.md).
#include "scenario.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
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
  // G-R1 for the scenario ticks: after a warm-up (archetype creation and
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
