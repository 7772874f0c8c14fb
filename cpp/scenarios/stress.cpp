// stress.cpp - `stress`, the reference sim tick of docs/scenarios.md
// (docs/scenarios.md#stress; the bench is bench/stress_bench.cpp).
//
// 10,000 entities in a world of capacity 10,000: 2,000 dynamic ones with
// Position2D + BenchVel (Q16.16), 8,000 bare. Initial grid x = (i/50)%50 -
// 25, y = i%50 (rows 0..49); vx in -3..3, vy in -5..5 whole units, drawn
// from Prng(seed). Systems: BenchMove (1 ms budget: pos += vel via
// SimMath::add) and BenchHash (2 ms: the per-tick World::stateHash). The
// positions are not wrapped (as upstream): Q16.16 saturates after ~6,500
// ticks at the fastest velocity, deterministically.
#include "laige/prng.h"
#include "laige/system.h"
#include "laige/world.h"
#include "scenario_list.h"

namespace laige::scenarios {

namespace stress {

struct Position2D {
  fpx16_16 x, y;
};
LAIGE_COMPONENT(Position2D, x, y);
struct BenchVel {
  fpx16_16 vx, vy;
};
LAIGE_COMPONENT(BenchVel, vx, vy);

constexpr std::uint32_t kEntities = 10000;
constexpr std::uint32_t kDynamic = 2000;

void benchMove(World&, SystemContext& ctx) {
  (void)ctx.each<Position2D, BenchVel>(
      [](Entity, Position2D& p, const BenchVel& v) {
        p.x = Fx::add(p.x, v.vx);
        p.y = Fx::add(p.y, v.vy);
      },
      Write{}, Read{});
}

// The hash a server would publish per tick. Its value is not kept: the
// call is the measured work (a non-inline call the optimiser cannot drop),
// and the runner hashes the finished tick again for the stream.
void benchHash(World& world, SystemContext& ctx) {
  const std::uint64_t h = world.stateHash(ctx.tick);
  static_cast<void>(h);
}

LAIGE_SCENARIO_SETUP Status setup(World& world, std::uint64_t seed) noexcept {
  LAIGE_SCENARIO_TRY(addComponentType<Position2D>(world));
  LAIGE_SCENARIO_TRY(addComponentType<BenchVel>(world));
  LAIGE_SCENARIO_TRY(addSystem(world, SystemDef{"BenchMove", &benchMove, units(1), nullptr, nullptr},
                               Io<Position2D, Write>{}, Io<BenchVel, Read>{}));
  LAIGE_SCENARIO_TRY(addSystem(world, SystemDef{"BenchHash", &benchHash, units(2), "BenchMove", nullptr}));
  Prng rng(seed);
  for (std::uint32_t i = 0; i < kEntities; ++i) {
    auto e = world.create();
    if (e.isError()) return e.status();
    if (i >= kDynamic) continue;
    const auto x = static_cast<std::int32_t>((i / 50) % 50) - 25;
    const auto y = static_cast<std::int32_t>(i % 50);
    const auto vx = static_cast<std::int32_t>(rng.next_range(0, 7)) - 3;
    const auto vy = static_cast<std::int32_t>(rng.next_range(0, 11)) - 5;
    LAIGE_SCENARIO_TRY(world.addComponent(e.value(), Position2D{units(x), units(y)}));
    LAIGE_SCENARIO_TRY(world.addComponent(e.value(), BenchVel{units(vx), units(vy)}));
  }
  return Status{};
}

}  // namespace stress

const Scenario kStressScenario = {
    "stress",
    "the reference tick: 10,000 entities, 2,000 moving (Q16.16), BenchMove + per-tick stateHash",
    0x1F055EEDull, 4000, 60, 10000, kDefaultChurnPerFrameBudget, SimMathBackend::FixedPoint16_16,
    &stress::setup, nullptr};

}  // namespace laige::scenarios
