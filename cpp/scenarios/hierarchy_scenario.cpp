// hierarchy_scenario.cpp - `hierarchy`: suns, planets and moons in a ChildOf
// hierarchy (docs/scenarios.md#hierarchy, docs/relations.md).
//
// 3 suns circle the origin; each has 4 planets, each planet 3 moons, every
// body on a circular orbit around its parent (HLocal: angle, radius, angular
// speed, Q16.16). One system, HOrbits, runs three steps per tick (one
// system, so that no reader of a component runs before its writer):
// - churn: every 40 ticks one planet is destroyed (its moons go with it:
//   onTargetDestroyed Destroy) and a new one with 1-3 moons is created under
//   a PRNG-picked sun; every 40 ticks, 20 ticks apart from that, one moon
//   moves to another planet (a reparent). Outside any walk, with a fixed
//   number of PRNG draws per decision;
// - spin: every angle advances by its speed;
// - place: the suns' positions, then a walk of the ChildOf hierarchy parents
//   first (eachCascade), so that one pass places every planet at its sun's
//   new position plus its own offset, and every moon at its planet's.
#include <array>

#include "laige/prng.h"
#include "laige/relations.h"
#include "laige/sim_math_fn.h"
#include "laige/system.h"
#include "laige/world.h"
#include "scenario_list.h"

namespace laige::scenarios {

namespace hier {

struct HLocal {
  fpx16_16 angle, radius, speed;
};
LAIGE_COMPONENT(HLocal, angle, radius, speed);
struct HPos {
  fpx16_16 x, y;
};
LAIGE_COMPONENT(HPos, x, y);
// The relation is registered by name (one field `target`), as the bindings
// register TypeScript's relations: the module links one registration path.
constexpr const char* kChildOf = "HChildOf";
/// 0 sun, 1 planet, 2 moon.
struct HLevel {
  std::uint32_t level;
};
LAIGE_COMPONENT(HLevel, level);

constexpr std::uint32_t kSuns = 3;
constexpr std::uint32_t kPlanetsPerSun = 4;
constexpr std::uint32_t kMoonsPerPlanet = 3;
constexpr std::uint32_t kMaxBodies = 128;
constexpr std::uint64_t kChurnEvery = 40;
// 2 pi in Q16.16 (round(2 pi 65536)).
constexpr fpx16_16 kTwoPi = fpx16_16::fromRaw(411775);

fpx16_16 wrapAngle(fpx16_16 a) noexcept { return Fx::greaterEqual(a, kTwoPi) ? Fx::sub(a, kTwoPi) : a; }

/// parent + radius (cos angle, sin angle).
HPos orbit(const HPos& parent, const HLocal& l) noexcept {
  return HPos{Fx::add(parent.x, Fx::mul(l.radius, Fx::cos(l.angle))),
              Fx::add(parent.y, Fx::mul(l.radius, Fx::sin(l.angle)))};
}

/// An orbit for a body of `level`: radius and speed by level, angle and jitter from `rng` (3 draws).
HLocal randomOrbit(Prng& rng, std::uint32_t level) noexcept {
  const std::int32_t radius[3] = {40, 12, 3};
  const std::int32_t speedRaw[3] = {300, 1500, 5000};  // radians per tick, raw Q16.16
  const fpx16_16 angle = fpx16_16::fromRaw(static_cast<std::int32_t>(rng.next_range(0, 411775)));
  const fpx16_16 r = Fx::add(units(radius[level]), jitterRaw(rng, 2 << 16 >> level));
  const fpx16_16 speed = fpx16_16::fromRaw(speedRaw[level] + static_cast<std::int32_t>(rng.next_range(0, 400)));
  return HLocal{angle, r, speed};
}

/// A body of `level` under `parent` (none for a sun); its position is set by the next HPlace.
Result<Entity> spawn(World& w, Prng& rng, std::uint32_t level, Entity parent) noexcept {
  auto e = w.create();
  if (e.isError()) return e;
  LAIGE_SCENARIO_TRY(w.addComponent(e.value(), randomOrbit(rng, level)));
  LAIGE_SCENARIO_TRY(w.addComponent(e.value(), HPos{units(0), units(0)}));
  LAIGE_SCENARIO_TRY(w.addComponent(e.value(), HLevel{level}));
  if (level > 0) LAIGE_SCENARIO_TRY(addRelation(w, e.value(), w.componentIdByName(kChildOf), parent));
  return e;
}

void spin(SystemContext& ctx) {
  (void)ctx.each<HLocal>([](Entity, HLocal& l) { l.angle = wrapAngle(Fx::add(l.angle, l.speed)); }, Write{});
}

void place(World& w, SystemContext& ctx) {
  const HPos origin{units(0), units(0)};
  (void)ctx.each<HLocal, HLevel, HPos>(
      [&](Entity, const HLocal& l, const HLevel& k, HPos& p) {
        if (k.level == 0) p = orbit(origin, l);
      },
      Read{}, Read{}, Write{});
  // Parents first: a planet reads its sun's position of this tick, a moon its planet's.
  const World& r = w;
  (void)eachCascade(w, w.componentIdByName(kChildOf), [&](Entity s, Entity parent) {
    const HPos* up = r.get<HPos>(parent);
    const HLocal* l = r.get<HLocal>(s);
    HPos* p = w.get<HPos>(s);
    if (up != nullptr && l != nullptr && p != nullptr) *p = orbit(*up, *l);
  });
}

// The bodies of `level` in slot order (at most kMaxBodies), for a PRNG pick.
std::uint32_t bodiesOf(SystemContext& ctx, std::uint32_t level, std::array<Entity, kMaxBodies>& out) {
  std::uint32_t n = 0;
  (void)ctx.each<HLevel>(
      [&](Entity e, const HLevel& k) {
        if (k.level == level && n < kMaxBodies) out[n++] = e;
      },
      Read{});
  return n;
}

void churn(World& w, SystemContext& ctx) {
  if (ctx.rng == nullptr || ctx.tick % (kChurnEvery / 2) != 0) return;
  std::array<Entity, kMaxBodies> planets{};
  std::array<Entity, kMaxBodies> others{};
  const std::uint32_t np = bodiesOf(ctx, 1, planets);
  if (ctx.tick % kChurnEvery == 0) {
    // A planet goes (its moons with it) and a new one comes, under a picked sun.
    const std::uint32_t gone = static_cast<std::uint32_t>(ctx.rng->next_range(0, np));
    const std::uint32_t sun = static_cast<std::uint32_t>(ctx.rng->next_range(0, kSuns));
    const std::uint32_t moons = static_cast<std::uint32_t>(ctx.rng->next_range(1, 4));
    if (np > 0) (void)w.destroy(planets[gone]);
    const std::uint32_t ns = bodiesOf(ctx, 0, others);
    if (ns == 0) return;
    auto planet = spawn(w, *ctx.rng, 1, others[sun % ns]);
    if (planet.isError()) return;
    for (std::uint32_t m = 0; m < moons; ++m) (void)spawn(w, *ctx.rng, 2, planet.value());
    return;
  }
  // A moon moves to another planet.
  const std::uint32_t nm = bodiesOf(ctx, 2, others);
  const std::uint32_t moon = static_cast<std::uint32_t>(ctx.rng->next_range(0, nm > 0 ? nm : 1));
  const std::uint32_t to = static_cast<std::uint32_t>(ctx.rng->next_range(0, np > 0 ? np : 1));
  if (nm > 0 && np > 0) (void)addRelation(w, others[moon], w.componentIdByName(kChildOf), planets[to]);
}

void orbits(World& w, SystemContext& ctx) {
  churn(w, ctx);
  spin(ctx);
  place(w, ctx);
}

Status setup(World& world, std::uint64_t seed) noexcept {
  LAIGE_SCENARIO_TRY(addComponentType<HLocal>(world));
  LAIGE_SCENARIO_TRY(addComponentType<HPos>(world));
  LAIGE_SCENARIO_TRY(addComponentType<HLevel>(world));
  RelationOptions childOf;
  childOf.onTargetDestroyed = OnTargetDestroyed::Destroy;
  auto rel = registerRelation(world, kChildOf, childOf);
  if (rel.isError()) return rel.status();
  const SystemIo io[4] = {{world.componentId<HLocal>(), Access::Write},
                          {world.componentId<HPos>(), Access::Write},
                          {world.componentId<HLevel>(), Access::Read},
                          {rel.value(), Access::Write}};
  if (auto r = world.registerSystem(SystemDef{"HOrbits", &orbits, units(1), nullptr, nullptr}, io, 4); r.isError()) {
    return r.status();
  }
  Prng rng(seed);
  for (std::uint32_t s = 0; s < kSuns; ++s) {
    auto sun = spawn(world, rng, 0, Entity{});
    if (sun.isError()) return sun.status();
    for (std::uint32_t p = 0; p < kPlanetsPerSun; ++p) {
      auto planet = spawn(world, rng, 1, sun.value());
      if (planet.isError()) return planet.status();
      for (std::uint32_t m = 0; m < kMoonsPerPlanet; ++m) {
        if (auto moon = spawn(world, rng, 2, planet.value()); moon.isError()) return moon.status();
      }
    }
  }
  // The first cascade pass allocates its order: here, at setup, not in a tick.
  return eachCascade(world, rel.value(), [](Entity, Entity) {});
}

}  // namespace hier

const Scenario kHierarchyScenario = {
    "hierarchy",
    "3 suns, 12 planets, 36 moons in a ChildOf hierarchy placed parents first; planets replaced, moons reparented",
    0x41e7a7c4ull, 600, 60, hier::kMaxBodies, kDefaultChurnPerFrameBudget, SimMathBackend::FixedPoint16_16,
    &hier::setup, nullptr};

}  // namespace laige::scenarios
