// replay_config.h - the ReplayConfig of a world's replay from the binding
// layer's arguments (the tick rate and the math backend; the rest is the
// world's options): shared by the recorder, runner and diff (replay.cpp) and
// the player (replay_player.cpp).
#pragma once

#include <cstdint>

#include "laige/replay.h"
#include "laige/world.h"

namespace laige_wasm {

inline laige::ReplayConfig configOf(const laige::World& world, std::uint32_t tickRateHz, std::uint32_t math) {
  const laige::World::Options o = world.options();
  laige::ReplayConfig c;
  c.tickRateHz = tickRateHz;
  c.entityCapacity = o.capacity;
  c.churnPerFrameBudget = o.churnPerFrameBudget;
  c.seed = o.seed;
  c.determinism.enabled = o.deterministic;
  c.determinism.math = static_cast<laige::SimMathBackend>(math);
  return c;
}

}  // namespace laige_wasm
