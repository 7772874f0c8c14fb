// player_input_test.cpp - the scenarios' per-player input generators
// (cpp/scenarios/player_input.h, docs/rollback.md#player-inputs): the
// registry, and a sweep of the `input` scenario's bytes over players and
// ticks (up to 2^64 - 1) written as tests/golden/rollback/input_player_inputs.txt.
// Vitest reads the same file through sim.scenarioPlayerInput (the wasm
// module's binding of this very function), so the TypeScript side is
// checked against bytes the C++ generator produced.
#include "player_input.h"
#include <gtest/gtest.h>
#include <cstdint>
#include <cstdio>
#include <string>

#include "support/golden_file.h"

#ifndef LAIGE_SOURCE_DIR
#error "LAIGE_SOURCE_DIR must name the source tree (CMakeLists.txt sets it for laige_tests)"
#endif

namespace {

using laige::findPlayerInputGenerator;
using laige::PlayerInputGenerator;

TEST(PlayerInput, RegistryHasTheInputScenarioOnly) {
  const PlayerInputGenerator* g = findPlayerInputGenerator("input");
  ASSERT_NE(g, nullptr);
  EXPECT_STREQ(g->scenario, "input");
  EXPECT_EQ(g->maxInputBytes, laige::kInputScenarioPlayerInputBytes);
  EXPECT_LE(g->maxInputBytes, laige::kMaxPlayerInputBytes);
  EXPECT_TRUE(g->concatenate);
  EXPECT_EQ(g->input, &laige::inputScenarioPlayerInput);
  EXPECT_EQ(findPlayerInputGenerator("swarm"), nullptr);
  EXPECT_EQ(findPlayerInputGenerator("nope"), nullptr);
  EXPECT_EQ(findPlayerInputGenerator(""), nullptr);
  EXPECT_EQ(findPlayerInputGenerator("inputs"), nullptr);
}

// `<player> <tick> <hex bytes, or . for none>` per line.
std::string sweep() {
  static constexpr std::uint32_t kPlayers[] = {0, 1, 2, 3, 7, 31, 255, 4294967295u};
  static constexpr std::uint64_t kFarTicks[] = {4294967295ull, 4294967296ull, 4294967300ull, 9007199254740991ull,
                                                9007199254740992ull, 18446744073709551615ull};
  std::string text;
  auto line = [&text](std::uint32_t player, std::uint64_t tick) {
    std::uint8_t buf[laige::kMaxPlayerInputBytes];
    // A sentinel past the end: the generator writes at most maxInputBytes.
    for (std::uint8_t& b : buf) b = 0xa5;
    const std::uint32_t n = laige::inputScenarioPlayerInput(player, tick, buf);
    EXPECT_LE(n, laige::kInputScenarioPlayerInputBytes);
    EXPECT_EQ(n % 6, 0u);
    for (std::uint32_t i = n; i < sizeof buf; ++i) EXPECT_EQ(buf[i], 0xa5) << player << " " << tick;
    char head[48];
    std::snprintf(head, sizeof head, "%u %llu ", player, static_cast<unsigned long long>(tick));
    text += head;
    if (n == 0) text += '.';
    for (std::uint32_t i = 0; i < n; ++i) {
      char hex[3];
      std::snprintf(hex, sizeof hex, "%02x", buf[i]);
      text += hex;
    }
    text += '\n';
  };
  for (const std::uint32_t p : kPlayers) {
    for (std::uint64_t t = 0; t < 48; ++t) line(p, t);
    for (const std::uint64_t t : kFarTicks) line(p, t);
  }
  return text;
}

TEST(PlayerInput, InputScenarioSweepIsTheGoldenFile) {
  const std::string path = std::string(LAIGE_SOURCE_DIR) + "/tests/golden/rollback/input_player_inputs.txt";
  const std::string text = sweep();
  laige::test::expectGoldenFile(path, text, "LAIGE_WRITE_PLAYER_INPUT_GOLDEN");
}

// The generator through the registry is the same function the sweep calls.
TEST(PlayerInput, RegistryEntryGivesTheSameBytes) {
  const PlayerInputGenerator* g = findPlayerInputGenerator("input");
  ASSERT_NE(g, nullptr);
  for (std::uint32_t p = 0; p < 4; ++p) {
    for (std::uint64_t t = 0; t < 64; ++t) {
      std::uint8_t a[laige::kMaxPlayerInputBytes] = {};
      std::uint8_t b[laige::kMaxPlayerInputBytes] = {};
      ASSERT_EQ(g->input(p, t, a), laige::inputScenarioPlayerInput(p, t, b));
      EXPECT_EQ(std::string(reinterpret_cast<char*>(a), sizeof a), std::string(reinterpret_cast<char*>(b), sizeof b));
    }
  }
}

}  // namespace
