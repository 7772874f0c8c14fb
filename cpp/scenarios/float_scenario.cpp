// float_scenario.cpp - `float`, the pinned fp32 backend scenario
// (docs/scenarios.md#float).
//
// 256 bodies orbit the origin under a softened central force, in IEEE
// binary32 through SimMath<Fp32Pinned>, using only + - * / and sqrt (each
// one IEEE operation rounded once; -ffp-contract=off keeps the compilers
// from fusing them). Every tick FloatGravity computes the accelerations and
// gives one PRNG-picked body a random kick; FloatIntegrate integrates with a
// 1/16 step, damps, and bounces the bodies off the walls of a 200-unit box.
// Initial orbits are circular: speed sqrt(G / r), direction perpendicular
// to the radius (a normalised random vector, no trigonometry). No
// expression can produce a NaN (the softening keeps every divisor >= 1), and
// the state hash asserts that in debug builds.
#include "laige/prng.h"
#include "laige/system.h"
#include "laige/world.h"
#include "scenario_list.h"

namespace laige::scenarios {

namespace flt {

using Fp = SimMath<Fp32Pinned>;

struct FPos {
  float x, y;
};
LAIGE_COMPONENT(FPos, x, y);
struct FVel {
  float x, y;
};
LAIGE_COMPONENT(FVel, x, y);
struct FAccel {
  float x, y;
};
LAIGE_COMPONENT(FAccel, x, y);

constexpr std::uint32_t kBodies = 256;
constexpr float kG = 40.0f;
constexpr float kSoftening = 1.0f;
constexpr float kDt = 0.0625f;  // 1/16: exact in binary32
constexpr float kDamping = 0.9995f;
constexpr float kWall = 100.0f;
constexpr float kKick = 0.5f;

void gravity(World&, SystemContext& ctx) {
  if (ctx.rng == nullptr) return;
  // A fixed number of draws per tick, made before the walk.
  const std::uint32_t pick = ctx.rng->next_range(0, kBodies);
  const float kx = Fp::mul(Fp::sub(ctx.rng->next_float01(), 0.5f), kKick);
  const float ky = Fp::mul(Fp::sub(ctx.rng->next_float01(), 0.5f), kKick);
  std::uint32_t index = 0;
  (void)ctx.each<FPos, FAccel>(
      [&](Entity, const FPos& p, FAccel& a) {
        const float r2 = Fp::add(Fp::add(Fp::mul(p.x, p.x), Fp::mul(p.y, p.y)), kSoftening);
        const float inv = Fp::div(kG, Fp::mul(r2, Fp::sqrt(r2)));  // G / (r2 * sqrt(r2))
        a.x = Fp::negate(Fp::mul(p.x, inv));
        a.y = Fp::negate(Fp::mul(p.y, inv));
        if (index == pick) {
          a.x = Fp::add(a.x, kx);
          a.y = Fp::add(a.y, ky);
        }
        ++index;
      },
      Read{}, Write{});
}

// One axis of the wall bounce: mirror the coordinate back inside, reverse
// the velocity.
void bounce(float& x, float& v) noexcept {
  if (Fp::greater(x, kWall)) {
    x = Fp::sub(Fp::mul(2.0f, kWall), x);
    v = Fp::negate(v);
  } else if (Fp::less(x, -kWall)) {
    x = Fp::sub(Fp::mul(-2.0f, kWall), x);
    v = Fp::negate(v);
  }
}

void integrate(World&, SystemContext& ctx) {
  (void)ctx.each<FAccel, FVel, FPos>(
      [](Entity, const FAccel& a, FVel& v, FPos& p) {
        v.x = Fp::mul(Fp::add(v.x, Fp::mul(a.x, kDt)), kDamping);
        v.y = Fp::mul(Fp::add(v.y, Fp::mul(a.y, kDt)), kDamping);
        p.x = Fp::add(p.x, Fp::mul(v.x, kDt));
        p.y = Fp::add(p.y, Fp::mul(v.y, kDt));
        bounce(p.x, v.x);
        bounce(p.y, v.y);
      },
      Read{}, Write{}, Write{});
}

Status setup(World& world, std::uint64_t seed) noexcept {
  LAIGE_SCENARIO_TRY(addComponentType<FPos>(world));
  LAIGE_SCENARIO_TRY(addComponentType<FVel>(world));
  LAIGE_SCENARIO_TRY(addComponentType<FAccel>(world));
  LAIGE_SCENARIO_TRY(addSystem(world, SystemDef{"FloatGravity", &gravity, units(1), nullptr, nullptr},
                               Io<FPos, Read>{}, Io<FAccel, Write>{}));
  LAIGE_SCENARIO_TRY(addSystem(world, SystemDef{"FloatIntegrate", &integrate, units(1), "FloatGravity", nullptr},
                               Io<FAccel, Read>{}, Io<FVel, Write>{}, Io<FPos, Write>{}));
  Prng rng(seed);
  for (std::uint32_t i = 0; i < kBodies; ++i) {
    auto e = world.create();
    if (e.isError()) return e.status();
    const float r = Fp::add(10.0f, Fp::mul(60.0f, rng.next_float01()));
    const Fp::Vec2 u{Fp::sub(Fp::mul(2.0f, rng.next_float01()), 1.0f),
                     Fp::sub(Fp::mul(2.0f, rng.next_float01()), 1.0f)};
    const Fp::Vec2 dir = Fp::normalize(u);  // the zero vector stays zero: a body at rest in the centre
    const float speed = Fp::sqrt(Fp::div(kG, r));
    LAIGE_SCENARIO_TRY(world.addComponent(e.value(), FPos{Fp::mul(dir.x, r), Fp::mul(dir.y, r)}));
    LAIGE_SCENARIO_TRY(world.addComponent(e.value(), FVel{Fp::negate(Fp::mul(dir.y, speed)), Fp::mul(dir.x, speed)}));
    LAIGE_SCENARIO_TRY(world.addComponent(e.value(), FAccel{0.0f, 0.0f}));
  }
  return Status{};
}

}  // namespace flt

const Scenario kFloatScenario = {
    "float",
    "256 bodies orbiting under a softened central force in pinned fp32 (+ - * / sqrt only)",
    0xf10a7f10a7ull, 600, 60, 256, kDefaultChurnPerFrameBudget, SimMathBackend::FloatPinned32,
    &flt::setup, nullptr};

}  // namespace laige::scenarios
