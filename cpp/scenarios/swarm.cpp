// swarm.cpp - `swarm`, the demo scene (docs/scenarios.md#swarm).
//
// 2,400 agents in a 128-unit wrapped world, Q16.16 throughout, four systems
// and four archetypes:
//   seekers  {SwarmPos, SwarmVel, SwarmNext, SwarmSteer, SwarmLife}  mortal, steer
//   drifters {SwarmPos, SwarmVel, SwarmNext, SwarmLife}              mortal, coast
//   anchors  {SwarmPos, SwarmVel, SwarmNext, SwarmSteer}             immortal, slow
//   the controller {SwarmCtl}                                        counters
// Per tick, in order:
//   SwarmChurn      ages the mortal agents, despawns the expired ones and
//                   spawns replacements (PRNG: kind, place, speed, lifetime);
//   SwarmSteer      steers toward the attractor when the tick's input names
//                   one (8 bytes: int32 x, int32 y, Q16.16 raw, little-
//                   endian), plus PRNG jitter, then clamps the speed;
//   SwarmIntegrate  predicts next = pos + vel;
//   SwarmWrap       commits the prediction wrapped into the bounded world.
// The position pipeline is split in two (predict, then constrain) because a
// component has exactly one writer per schedule (the scheduler rejects two).
// The scenario's own input generator moves an attractor around on half of
// the ticks, so the golden stream covers both steering modes; the demo feeds
// the pointer position instead.
#include "laige/prng.h"
#include "laige/system.h"
#include "laige/world.h"
#include "scenario_list.h"

namespace laige::scenarios {

namespace swarm {

struct SwarmPos {
  fpx16_16 x, y;
};
LAIGE_COMPONENT(SwarmPos, x, y);
struct SwarmVel {
  fpx16_16 x, y;
};
LAIGE_COMPONENT(SwarmVel, x, y);
struct SwarmNext {
  fpx16_16 x, y;
};
LAIGE_COMPONENT(SwarmNext, x, y);
struct SwarmSteer {
  fpx16_16 maxSpeed;  // units per tick
  fpx16_16 gain;      // fraction of the velocity error corrected per tick
};
LAIGE_COMPONENT(SwarmSteer, maxSpeed, gain);
struct SwarmLife {
  std::uint32_t age;
  std::uint32_t lifetime;
};
LAIGE_COMPONENT(SwarmLife, age, lifetime);
struct SwarmCtl {
  std::uint32_t spawned;
  std::uint32_t despawned;
  std::uint32_t population;
  std::uint32_t reserved;
};
LAIGE_COMPONENT(SwarmCtl, spawned, despawned, population, reserved);

constexpr std::int32_t kHalf = 64;  // the world is [-64, 64) x [-64, 64)
constexpr std::uint32_t kSeekers = 1800;
constexpr std::uint32_t kDrifters = 400;
constexpr std::uint32_t kAnchors = 200;
constexpr std::uint32_t kMortal = kSeekers + kDrifters;
// The most agents despawned per tick; a backlog waits for the next tick.
constexpr std::uint32_t kMaxDespawnPerTick = 128;
constexpr std::uint32_t kJitterRaw = 1311;  // ~0.02 units per tick
constexpr std::uint32_t kAttractorBytes = 8;

enum class Kind : std::uint8_t { Seeker, Drifter, Anchor };

fpx16_16 randomCoord(Prng& rng) noexcept {
  return fpx16_16::fromRaw(static_cast<std::int32_t>(rng.next_range(0, 2u * kHalf << 16)) - (kHalf << 16));
}

// A few per tick at most (churn) and at setup: out of line and compiled for
// size in wasm, so that neither caller carries a copy.
[[gnu::noinline]] LAIGE_SCENARIO_SETUP Status spawn(World& world, Prng& rng, Kind kind, bool fresh) noexcept {
  auto created = world.create();
  if (created.isError()) return created.status();
  const Entity e = created.value();
  const SwarmPos p{randomCoord(rng), randomCoord(rng)};
  const fpx16_16 speed = kind == Kind::Anchor ? fpx16_16::fromRaw(6554)  // 0.1
                                              : fpx16_16::fromRaw(static_cast<std::int32_t>(rng.next_range(16384, 65537)));
  const SwarmVel v{Fx::mul(jitterRaw(rng, 65536), speed), Fx::mul(jitterRaw(rng, 65536), speed)};
  LAIGE_SCENARIO_TRY(world.addComponent(e, p));
  LAIGE_SCENARIO_TRY(world.addComponent(e, v));
  LAIGE_SCENARIO_TRY(world.addComponent(e, SwarmNext{p.x, p.y}));
  if (kind != Kind::Drifter) {
    const fpx16_16 gain = kind == Kind::Anchor ? fpx16_16::fromRaw(1311)  // 0.02
                                               : fpx16_16::fromRaw(static_cast<std::int32_t>(rng.next_range(3277, 13108)));
    LAIGE_SCENARIO_TRY(world.addComponent(e, SwarmSteer{speed, gain}));
  }
  if (kind != Kind::Anchor) {
    const std::uint32_t lifetime = rng.next_range(120, 601);
    // The initial population starts at random ages so that churn is steady
    // from the first tick instead of arriving in one wave.
    const std::uint32_t age = fresh ? 0 : rng.next_range(0, lifetime);
    LAIGE_SCENARIO_TRY(world.addComponent(e, SwarmLife{age, lifetime}));
  }
  return Status{};
}

void churn(World& world, SystemContext& ctx) {
  if (ctx.rng == nullptr) return;
  Entity expired[kMaxDespawnPerTick];
  std::uint32_t n = 0;
  (void)ctx.each<SwarmLife>(
      [&](Entity e, SwarmLife& life) {
        ++life.age;
        if (life.age >= life.lifetime && n < kMaxDespawnPerTick) expired[n++] = e;
      },
      Write{});
  // Structural changes after the walk: the iteration guard forbids them
  // inside it, and a fixed buffer keeps the tick allocation-free.
  for (std::uint32_t i = 0; i < n; ++i) (void)world.destroy(expired[i]);
  std::uint32_t spawned = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const Kind kind = ctx.rng->next_range(0, 5) == 0 ? Kind::Drifter : Kind::Seeker;
    if (spawn(world, *ctx.rng, kind, true).ok()) ++spawned;
  }
  (void)ctx.each<SwarmCtl>(
      [&](Entity, SwarmCtl& c) {
        c.spawned += spawned;
        c.despawned += n;
        c.population = c.population - n + spawned;
      },
      Write{});
}

void steer(World&, SystemContext& ctx) {
  if (ctx.rng == nullptr) return;
  Prng& rng = *ctx.rng;
  const bool attract = ctx.input != nullptr && ctx.inputSize == kAttractorBytes;
  const Fx::Vec2 target{fpx16_16::fromRaw(attract ? readLe32(ctx.input) : 0),
                        fpx16_16::fromRaw(attract ? readLe32(ctx.input + 4) : 0)};
  const fpx16_16 quarter = fpx16_16::fromRaw(16384);
  const fpx16_16 four = units(4);
  (void)ctx.each<SwarmPos, SwarmVel, SwarmSteer>(
      [&](Entity, const SwarmPos& p, SwarmVel& v, const SwarmSteer& s) {
        Fx::Vec2 vel{v.x, v.y};
        if (attract) {
          // The offset is scaled by 1/4 before its length: Q16.16 squares
          // saturate above ~181 units, and the attractor may sit anywhere.
          const Fx::Vec2 d = Fx::mul(Fx::sub(target, Fx::Vec2{p.x, p.y}), quarter);
          const Fx::Vec2 desired = Fx::mul(Fx::normalize(d), s.maxSpeed);
          vel = Fx::add(vel, Fx::mul(Fx::sub(desired, vel), s.gain));
        }
        vel.x = Fx::add(vel.x, jitterRaw(rng, kJitterRaw));
        vel.y = Fx::add(vel.y, jitterRaw(rng, kJitterRaw));
        // Clamp the speed (the length of a vector of at most a few units
        // never saturates; the x4 keeps precision on slow agents).
        const fpx16_16 speed = Fx::length(Fx::mul(vel, four));
        const fpx16_16 limit = Fx::mul(s.maxSpeed, four);
        if (Fx::greater(speed, limit)) vel = Fx::mul(vel, Fx::div(limit, speed));
        v.x = vel.x;
        v.y = vel.y;
      },
      Read{}, Write{}, Read{});
}

void integrate(World&, SystemContext& ctx) {
  (void)ctx.each<SwarmPos, SwarmVel, SwarmNext>(
      [](Entity, const SwarmPos& p, const SwarmVel& v, SwarmNext& next) {
        next.x = Fx::add(p.x, v.x);
        next.y = Fx::add(p.y, v.y);
      },
      Read{}, Read{}, Write{});
}

void wrap(World&, SystemContext& ctx) {
  (void)ctx.each<SwarmNext, SwarmPos>(
      [](Entity, const SwarmNext& next, SwarmPos& p) {
        p.x = wrapInto(next.x, units(-kHalf), units(2 * kHalf));
        p.y = wrapInto(next.y, units(-kHalf), units(2 * kHalf));
      },
      Read{}, Write{});
}

LAIGE_SCENARIO_SETUP Status setup(World& world, std::uint64_t seed) noexcept {
  LAIGE_SCENARIO_TRY(addComponentType<SwarmPos>(world));
  LAIGE_SCENARIO_TRY(addComponentType<SwarmVel>(world));
  LAIGE_SCENARIO_TRY(addComponentType<SwarmNext>(world));
  LAIGE_SCENARIO_TRY(addComponentType<SwarmSteer>(world));
  LAIGE_SCENARIO_TRY(addComponentType<SwarmLife>(world));
  LAIGE_SCENARIO_TRY(addComponentType<SwarmCtl>(world));
  const fpx16_16 budget = units(2);  // ms each: generous for debug builds
  LAIGE_SCENARIO_TRY(addSystem(world, SystemDef{"SwarmChurn", &churn, budget, nullptr, nullptr},
                               Io<SwarmLife, Write>{}, Io<SwarmCtl, Write>{},
                               // it spawns and despawns agents: a structural change needs
                               // every component it touches declared (Read is enough)
                               Io<SwarmPos, Read>{}, Io<SwarmVel, Read>{}, Io<SwarmNext, Read>{},
                               Io<SwarmSteer, Read>{}));
  // Steering reads the position Wrap committed last tick: the scheduler's
  // read_before_write note is expected (the lag is the design).
  LAIGE_SCENARIO_TRY(addSystem(world, SystemDef{"SwarmSteer", &steer, budget, "SwarmChurn", nullptr},
                               Io<SwarmPos, Read>{}, Io<SwarmVel, Write>{}, Io<SwarmSteer, Read>{}));
  LAIGE_SCENARIO_TRY(addSystem(world, SystemDef{"SwarmIntegrate", &integrate, budget, "SwarmSteer", nullptr},
                               Io<SwarmPos, Read>{}, Io<SwarmVel, Read>{}, Io<SwarmNext, Write>{}));
  LAIGE_SCENARIO_TRY(addSystem(world, SystemDef{"SwarmWrap", &wrap, budget, "SwarmIntegrate", nullptr},
                               Io<SwarmNext, Read>{}, Io<SwarmPos, Write>{}));
  Prng rng(seed);
  auto ctl = world.create();
  if (ctl.isError()) return ctl.status();
  LAIGE_SCENARIO_TRY(world.addComponent(ctl.value(), SwarmCtl{0, 0, kMortal + kAnchors, 0}));
  for (std::uint32_t i = 0; i < kSeekers; ++i) LAIGE_SCENARIO_TRY(spawn(world, rng, Kind::Seeker, false));
  for (std::uint32_t i = 0; i < kDrifters; ++i) LAIGE_SCENARIO_TRY(spawn(world, rng, Kind::Drifter, false));
  for (std::uint32_t i = 0; i < kAnchors; ++i) LAIGE_SCENARIO_TRY(spawn(world, rng, Kind::Anchor, false));
  return Status{};
}

// The scenario's input: an attractor on the ticks of every other 120-tick
// window, sweeping across the world; no payload on the others.
std::uint32_t input(std::uint64_t, std::uint64_t tick, std::uint8_t* out, std::uint32_t capacity) noexcept {
  if ((tick / 120) % 2 == 0 || capacity < kAttractorBytes) return 0;
  const auto sweep = static_cast<std::int32_t>((tick * 3) % 96) - 48;
  const auto lane = static_cast<std::int32_t>((tick / 240) % 3) * 32 - 32;
  writeLe32(out, sweep << 16);
  writeLe32(out + 4, lane << 16);
  return kAttractorBytes;
}

}  // namespace swarm

const Scenario kSwarmScenario = {
    "swarm",
    "the demo scene: 2,400 Q16.16 agents, steering toward an input attractor, churn, wrap",
    0x5a4b3c2d1e0full, 600, 60, 4096, kDefaultChurnPerFrameBudget, SimMathBackend::FixedPoint16_16,
    &swarm::setup, &swarm::input};

}  // namespace laige::scenarios
