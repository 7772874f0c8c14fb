// rollback_swarm.h - the swarm rollback session the allocation tests share
// (rollback_errors_test.cpp, rollback_burst_test.cpp): swarm's run (2,400
// agents, a world that no longer grows once warmed up), a 2-player session
// of depth 12 whose combiner passes on the first player's 8-byte attractor
// input, and that attractor input.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>

#include "laige/rollback.h"
#include "scenario.h"

namespace laige::test {

/// The attractor input (8 bytes: i32 x, then zeros) at position `step` of
/// swarm's cycle of 7 attractor positions.
inline void swarmAttractorInput(std::uint64_t step, std::uint8_t (&a)[8]) {
  const std::int32_t x = static_cast<std::int32_t>(step % 7) * 0x40000 - 0xC0000;
  for (int i = 0; i < 4; ++i) a[i] = static_cast<std::uint8_t>(x >> (8 * i));
  for (int i = 4; i < 8; ++i) a[i] = 0;
}

/// The combiner: the attractor of the first player that has one (8 bytes), else none.
inline Status swarmCombine(void*, std::uint64_t, const RollbackTickInputs& in, std::span<std::uint8_t> out,
                           std::uint32_t& written) noexcept {
  written = 0;
  for (std::uint32_t p = 0; p < in.players; ++p) {
    if (in.input[p].size() == 8 && out.size() >= 8) {
      std::memcpy(out.data(), in.input[p].data(), 8);
      written = 8;
      return Status{};
    }
  }
  return Status{};
}

/// swarm's run at its default seed and a session over it: players 2, the
/// local one 0, depth 12, maxInputBytes 8, swarmCombine (the other options
/// at their defaults). A failure to open either is a test failure.
struct SwarmSession {
  std::unique_ptr<ScenarioRun> run;
  RollbackSession session;

  SwarmSession() {
    const Scenario* sc = findScenario("swarm");
    EXPECT_NE(sc, nullptr);
    if (sc == nullptr) return;
    auto r = ScenarioRun::create(*sc, sc->defaultSeed);
    EXPECT_TRUE(r.ok());
    if (!r.ok()) return;
    run = std::make_unique<ScenarioRun>(std::move(r).takeValue());
    RollbackSession::Options o;
    o.players = 2;
    o.localPlayer = 0;
    o.depth = 12;
    o.maxInputBytes = 8;
    o.combine = &swarmCombine;
    auto s = RollbackSession::create(run->world(), run->schedule(), o);
    EXPECT_TRUE(s.ok());
    if (s.ok()) session = std::move(s).takeValue();
  }
};

}  // namespace laige::test
