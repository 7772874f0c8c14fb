// basic_scenarios.cpp - `hello`, `synthetic` and `synthetic-perturbed`, the
// small scenarios of docs/scenarios.md.
#include "laige/prng.h"
#include "laige/system.h"
#include "laige/world.h"
#include "scenario_list.h"

namespace laige::scenarios {

namespace hello {

// docs/scenarios.md: one entity with PlayerPos{Vec2}; MovePlayer moves it one
// unit per tick diagonally and wraps it in a 32-unit box.
struct PlayerPos {
  Fx::Vec2 p;
};
LAIGE_COMPONENT(PlayerPos, p);

constexpr std::int32_t kBox = 32;

void movePlayer(World&, SystemContext& ctx) {
  (void)ctx.each<PlayerPos>(
      [](Entity, PlayerPos& pp) {
        pp.p.x = wrapInto(Fx::add(pp.p.x, fpx16_16::one()), units(0), units(kBox));
        pp.p.y = wrapInto(Fx::add(pp.p.y, fpx16_16::one()), units(0), units(kBox));
      },
      Write{});
}

Status setup(World& world, std::uint64_t) noexcept {
  LAIGE_SCENARIO_TRY(addComponentType<PlayerPos>(world));
  LAIGE_SCENARIO_TRY(addSystem(world, SystemDef{"MovePlayer", &movePlayer, fpx16_16::one(), nullptr, nullptr},
                               Io<PlayerPos, Write>{}));
  auto e = world.create();
  if (e.isError()) return e.status();
  return world.addComponent(e.value(), PlayerPos{});
}

}  // namespace hello

namespace synthetic {

// docs/scenarios.md: 32 Q16.16 bodies; per tick every body integrates (x +=
// vx, y += vy) and wraps into a 64-unit box, then the PRNG picks one body
// and a nudge in [-4, 3] units added to its x. Four raw words per body.
struct SynthBody {
  fpx16_16 x, y, vx, vy;
};
LAIGE_COMPONENT(SynthBody, x, y, vx, vy);

constexpr std::uint32_t kBodies = 32;
constexpr std::int32_t kBox = 64;
// synthetic-perturbed: body 3 gets one extra unit on x at this tick, so the
// two streams agree on ticks 0..6 and diverge from tick 7 on.
constexpr std::uint64_t kPerturbTick = 7;
constexpr std::uint32_t kPerturbBody = 3;

template <bool Perturbed>
void synthStep(World&, SystemContext& ctx) {
  if (ctx.rng == nullptr) return;  // scenario worlds are always deterministic
  // Both draws happen every tick, before the walk: the draw count per tick
  // is fixed, so a perturbation never shifts the random stream.
  const std::uint32_t pick = ctx.rng->next_range(0, kBodies);
  const std::int32_t nudge = static_cast<std::int32_t>(ctx.rng->next_range(0, 8)) - 4;
  const bool perturb = Perturbed && ctx.tick == kPerturbTick;
  std::uint32_t index = 0;  // bodies occupy slots 0..31: visit order is body order
  (void)ctx.each<SynthBody>(
      [&](Entity, SynthBody& b) {
        b.x = wrapInto(Fx::add(b.x, b.vx), units(0), units(kBox));
        b.y = wrapInto(Fx::add(b.y, b.vy), units(0), units(kBox));
        if (index == pick) b.x = Fx::add(b.x, units(nudge));
        if (perturb && index == kPerturbBody) b.x = Fx::add(b.x, units(1));
        ++index;
      },
      Write{});
}

template <bool Perturbed>
Status setup(World& world, std::uint64_t seed) noexcept {
  LAIGE_SCENARIO_TRY(addComponentType<SynthBody>(world));
  // The same system name in both variants: the system part of the hash sees
  // ids and PRNG state only, so the streams agree until the perturbation.
  LAIGE_SCENARIO_TRY(addSystem(world, SystemDef{"SynthStep", &synthStep<Perturbed>, fpx16_16::one(), nullptr, nullptr},
                               Io<SynthBody, Write>{}));
  Prng rng(seed);
  for (std::uint32_t i = 0; i < kBodies; ++i) {
    auto e = world.create();
    if (e.isError()) return e.status();
    SynthBody b;
    b.x = fpx16_16::fromRaw(static_cast<std::int32_t>(rng.next_range(0, kBox << 16)));
    b.y = fpx16_16::fromRaw(static_cast<std::int32_t>(rng.next_range(0, kBox << 16)));
    // Velocities in [-1, 1) units per tick.
    b.vx = fpx16_16::fromRaw(static_cast<std::int32_t>(rng.next_range(0, 2 << 16)) - (1 << 16));
    b.vy = fpx16_16::fromRaw(static_cast<std::int32_t>(rng.next_range(0, 2 << 16)) - (1 << 16));
    LAIGE_SCENARIO_TRY(world.addComponent(e.value(), b));
  }
  return Status{};
}

}  // namespace synthetic

const Scenario kHelloScenario = {
    "hello",
    "one PlayerPos body moving one unit per tick diagonally, wrapped in a 32-unit box (docs/scenarios.md)",
    0x1F055EEDull, 300, 60, 16, kDefaultChurnPerFrameBudget, SimMathBackend::FixedPoint16_16,
    &hello::setup, nullptr};

const Scenario kSyntheticScenario = {
    "synthetic",
    "32 Q16.16 bodies integrating and wrapping in a 64-unit box, one PRNG nudge per tick (docs/scenarios.md)",
    0x1de7c0deull, 256, 60, 32, kDefaultChurnPerFrameBudget, SimMathBackend::FixedPoint16_16,
    &synthetic::setup<false>, nullptr};

const Scenario kSyntheticPerturbedScenario = {
    "synthetic-perturbed",
    "synthetic with one extra unit on body 3's x at tick 7: diverges from synthetic at tick 7",
    0x1de7c0deull, 256, 60, 32, kDefaultChurnPerFrameBudget, SimMathBackend::FixedPoint16_16,
    &synthetic::setup<true>, nullptr};

}  // namespace laige::scenarios
