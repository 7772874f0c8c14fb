// scenario_list.h - the built-in scenarios (internal to cpp/scenarios) and
// the small helpers several of them share.
#pragma once

#include <cstdint>

#include "laige/fpx16_16.h"
#include "laige/sim_math.h"
#include "scenario.h"

namespace laige::scenarios {

/// The matrix scenario: one body walking diagonally.
extern const Scenario kHelloScenario;
/// The built-in synthetic: 32 Q16.16 bodies and a PRNG nudge.
extern const Scenario kSyntheticScenario;
/// synthetic plus one extra unit on body 3's x at tick 7.
extern const Scenario kSyntheticPerturbedScenario;
/// The demo scene: a swarm of at least 2,000 agents.
extern const Scenario kSwarmScenario;
/// The reference tick: 10,000 entities, 2,000 dynamic.
extern const Scenario kStressScenario;
/// Orbiting bodies on the pinned fp32 backend.
extern const Scenario kFloatScenario;
/// Pawns and projectiles driven by a generated input stream.
extern const Scenario kInputScenario;
/// Suns, planets and moons in a ChildOf hierarchy, placed parents first.
extern const Scenario kHierarchyScenario;

/// A mark for the setup function of a scenario whose systems are compiled
/// for speed (swarm, stress: the benchmarks time their ticks): setup runs
/// once per world, so the wasm build compiles it for size
/// (docs/build.md#the-wasm-modules-size); native builds are untouched.
#if defined(__EMSCRIPTEN__)
#define LAIGE_SCENARIO_SETUP [[clang::minsize]]
#else
#define LAIGE_SCENARIO_SETUP
#endif

/// The Q16.16 backend every fixed-point scenario uses.
using Fx = SimMath<Fpx16_16>;

/// `v` wrapped into [lo, lo + size) for |v - lo| < 2 * size (one step each
/// way: the scenarios move less than a box per tick).
[[nodiscard]] constexpr fpx16_16 wrapInto(fpx16_16 v, fpx16_16 lo, fpx16_16 size) noexcept {
  const fpx16_16 hi = Fx::add(lo, size);
  if (Fx::greaterEqual(v, hi)) return Fx::sub(v, size);
  if (Fx::less(v, lo)) return Fx::add(v, size);
  return v;
}

/// Whole units as Q16.16.
[[nodiscard]] constexpr fpx16_16 units(std::int32_t n) noexcept { return fpx16_16::fromInt32(n); }

/// A Q16.16 value uniform in [-halfRaw, halfRaw] (raw units) from `rng`.
[[nodiscard]] inline fpx16_16 jitterRaw(Prng& rng, std::uint32_t halfRaw) noexcept {
  return fpx16_16::fromRaw(static_cast<std::int32_t>(rng.next_range(0, 2 * halfRaw + 1)) -
                           static_cast<std::int32_t>(halfRaw));
}

/// Little-endian int32 at `p` (input payloads are little-endian).
[[nodiscard]] inline std::int32_t readLe32(const std::uint8_t* p) noexcept {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
                                   static_cast<std::uint32_t>(p[2]) << 16 |
                                   static_cast<std::uint32_t>(p[3]) << 24);
}
/// Writes `v` little-endian at `p`.
inline void writeLe32(std::uint8_t* p, std::int32_t v) noexcept {
  const auto u = static_cast<std::uint32_t>(v);
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(u >> (8 * i));
}

/// Registers a system with its typed I/O and turns the Result into a
/// Status (setup code chains these).
template <class... Io>
Status addSystem(World& world, const SystemDef& def, Io... io) noexcept {
  auto r = world.registerSystem(def, io...);
  return r.status();
}

/// The first failing status of a setup sequence.
#define LAIGE_SCENARIO_TRY(expr)                  \
  do {                                            \
    if (const ::laige::Status st_ = (expr); st_.isError()) return st_; \
  } while (0)

/// Registers component T, as a Status.
template <class T>
Status addComponentType(World& world) noexcept {
  auto r = world.registerComponent<T>();
  return r.status();
}

}  // namespace laige::scenarios
