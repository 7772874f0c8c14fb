// input_scenario.cpp - `input`, a scenario driven by its input stream
// (docs/scenarios.md#input).
//
// 16 pawns in a 128-unit wrapped arena take commands from the tick's input
// payload (SystemContext::input), fire projectiles, and lose hit points when
// a projectile passes within two units; a pawn at zero is out (destroyed,
// and its slot goes to the next projectile). The payload is a sequence of 6-byte
// commands, little-endian:
//   u8 op, u8 pawn, i16 a, i16 b
//   op 1 MOVE: the pawn's velocity becomes (a, b) / 256 units per tick
//   op 2 FIRE: the pawn spawns a projectile with velocity (a, b) / 256
// Anything else (an unknown op, a pawn index >= 16, a trailing partial
// command, a dead pawn) is ignored: a replay file is untrusted input.
// The scenario's generator produces 0..3 commands per tick from (seed,
// tick) and now and then a malformed one, so a recorded input stream and a
// replay of it exercise the whole path. Systems:
//   InputApply    parses the payload (MOVE, FIRE; structural spawns);
//   InputMove     moves pawns and projectiles (both wrapped);
//   InputResolve  ages projectiles, applies hits (PRNG damage 4..11), and
//                 despawns spent projectiles.
#include <utility>

#include "laige/prng.h"
#include "laige/system.h"
#include "laige/world.h"
#include "scenario_list.h"

namespace laige::scenarios {

namespace input {

struct PawnPos {
  fpx16_16 x, y;
};
LAIGE_COMPONENT(PawnPos, x, y);
struct PawnVel {
  fpx16_16 x, y;
};
LAIGE_COMPONENT(PawnVel, x, y);
struct PawnStats {  // what the pawn did (InputApply)
  std::uint32_t commands;
  std::uint32_t shots;
};
LAIGE_COMPONENT(PawnStats, commands, shots);
struct PawnHealth {  // what happened to it (InputResolve)
  std::int32_t hp;
  std::uint32_t hits;
};
LAIGE_COMPONENT(PawnHealth, hp, hits);
struct Projectile {
  fpx16_16 x, y, vx, vy;
};
LAIGE_COMPONENT(Projectile, x, y, vx, vy);
struct ProjLife {
  std::uint32_t ttl;
  std::uint32_t owner;  // the firing pawn's index
};
LAIGE_COMPONENT(ProjLife, ttl, owner);

constexpr std::uint32_t kPawns = 16;
constexpr std::int32_t kHalf = 64;
constexpr std::uint32_t kCommandBytes = 6;
constexpr std::uint8_t kOpMove = 1;
constexpr std::uint8_t kOpFire = 2;
constexpr std::uint32_t kProjectileTtl = 90;
constexpr std::int32_t kStartHp = 100;
constexpr std::int32_t kHitRadius = 2;  // units, per axis
constexpr std::uint32_t kCapacity = 512;

// Pawns are created first, into slots 0..15: pawn i is the live handle of
// slot i (a destroyed pawn is never replaced, so the index stays unique).
Entity pawnHandle(const World& world, std::uint32_t index) noexcept {
  return world.handleAt(static_cast<std::uint16_t>(index));
}

fpx16_16 fromQ8(std::int16_t v) noexcept { return fpx16_16::fromRaw(std::int32_t{v} * 256); }

void apply(World& world, SystemContext& ctx) {
  const std::uint8_t* p = ctx.input;
  const std::uint32_t count = ctx.input != nullptr ? ctx.inputSize / kCommandBytes : 0;
  for (std::uint32_t c = 0; c < count; ++c, p += kCommandBytes) {
    const std::uint8_t op = p[0];
    const std::uint32_t pawn = p[1];
    const auto a = static_cast<std::int16_t>(p[2] | p[3] << 8);
    const auto b = static_cast<std::int16_t>(p[4] | p[5] << 8);
    if (pawn >= kPawns || (op != kOpMove && op != kOpFire)) continue;
    const Entity e = pawnHandle(world, pawn);
    if (!world.isValid(e)) continue;  // a pawn that is out
    PawnStats* stats = world.get<PawnStats>(e);
    const PawnPos* pos = std::as_const(world).get<PawnPos>(e);  // a read: PawnPos is declared Read
    if (stats == nullptr || pos == nullptr) continue;  // the slot holds a projectile now
    ++stats->commands;
    if (op == kOpMove) {
      if (PawnVel* v = world.get<PawnVel>(e)) *v = PawnVel{fromQ8(a), fromQ8(b)};
      continue;
    }
    const PawnPos from = *pos;  // copied: the spawn below may move columns
    ++stats->shots;
    auto shot = world.create();
    if (shot.isError()) continue;  // the arena is full: the shot is lost
    (void)world.addComponent(shot.value(), Projectile{from.x, from.y, fromQ8(a), fromQ8(b)});
    (void)world.addComponent(shot.value(), ProjLife{kProjectileTtl, pawn});
  }
}

void move(World&, SystemContext& ctx) {
  (void)ctx.each<PawnPos, PawnVel>(
      [](Entity, PawnPos& p, const PawnVel& v) {
        p.x = wrapInto(Fx::add(p.x, v.x), units(-kHalf), units(2 * kHalf));
        p.y = wrapInto(Fx::add(p.y, v.y), units(-kHalf), units(2 * kHalf));
      },
      Write{}, Read{});
  (void)ctx.each<Projectile>(
      [](Entity, Projectile& s) {
        s.x = wrapInto(Fx::add(s.x, s.vx), units(-kHalf), units(2 * kHalf));
        s.y = wrapInto(Fx::add(s.y, s.vy), units(-kHalf), units(2 * kHalf));
      },
      Write{});
}

void resolve(World& world, SystemContext& ctx) {
  if (ctx.rng == nullptr) return;
  // Pawn positions first (a nested each is not allowed), then one pass over
  // the projectiles; the consequences are applied after the walk.
  PawnPos pawns[kPawns] = {};
  bool alive[kPawns] = {};
  (void)ctx.each<PawnPos>(
      [&](Entity e, const PawnPos& p) {
        if (e.id() < kPawns) {
          pawns[e.id()] = p;
          alive[e.id()] = true;
        }
      },
      Read{});
  Entity spent[kCapacity];
  std::uint32_t hitPawn[kCapacity];
  std::uint32_t nSpent = 0;
  const fpx16_16 radius = units(kHitRadius);
  (void)ctx.each<Projectile, ProjLife>(
      [&](Entity e, const Projectile& s, ProjLife& life) {
        --life.ttl;
        std::uint32_t hit = kPawns;
        for (std::uint32_t i = 0; i < kPawns && hit == kPawns; ++i) {
          if (!alive[i] || i == life.owner) continue;
          const fpx16_16 dx = Fx::sub(s.x, pawns[i].x);
          const fpx16_16 dy = Fx::sub(s.y, pawns[i].y);
          if (Fx::lessEqual(dx, radius) && Fx::greaterEqual(dx, Fx::negate(radius)) &&
              Fx::lessEqual(dy, radius) && Fx::greaterEqual(dy, Fx::negate(radius))) {
            hit = i;
          }
        }
        if ((hit != kPawns || life.ttl == 0) && nSpent < kCapacity) {
          spent[nSpent] = e;
          hitPawn[nSpent] = hit;
          ++nSpent;
        }
      },
      Read{}, Write{});
  for (std::uint32_t k = 0; k < nSpent; ++k) {
    if (hitPawn[k] != kPawns) {
      const Entity victim = pawnHandle(world, hitPawn[k]);
      PawnHealth* h = world.isValid(victim) ? world.get<PawnHealth>(victim) : nullptr;
      if (h != nullptr) {
        h->hp -= static_cast<std::int32_t>(4 + ctx.rng->next_range(0, 8));
        ++h->hits;
        // A pawn at zero hit points is out: its slot may be reused by a
        // projectile, never by a pawn, and commands for it are ignored.
        if (h->hp <= 0) (void)world.destroy(victim);
      }
    }
    (void)world.destroy(spent[k]);
  }
}

Status setup(World& world, std::uint64_t seed) noexcept {
  LAIGE_SCENARIO_TRY(addComponentType<PawnPos>(world));
  LAIGE_SCENARIO_TRY(addComponentType<PawnVel>(world));
  LAIGE_SCENARIO_TRY(addComponentType<PawnStats>(world));
  LAIGE_SCENARIO_TRY(addComponentType<Projectile>(world));
  LAIGE_SCENARIO_TRY(addComponentType<ProjLife>(world));
  LAIGE_SCENARIO_TRY(addComponentType<PawnHealth>(world));
  LAIGE_SCENARIO_TRY(addSystem(world, SystemDef{"InputApply", &apply, units(1), nullptr, nullptr},
                               Io<PawnVel, Write>{}, Io<PawnStats, Write>{}, Io<PawnPos, Read>{},
                               // spawns projectiles (a structural add needs the component declared)
                               Io<Projectile, Read>{}, Io<ProjLife, Read>{}));
  LAIGE_SCENARIO_TRY(addSystem(world, SystemDef{"InputMove", &move, units(1), "InputApply", nullptr},
                               Io<PawnPos, Write>{}, Io<PawnVel, Read>{}, Io<Projectile, Write>{}));
  LAIGE_SCENARIO_TRY(addSystem(world, SystemDef{"InputResolve", &resolve, units(1), "InputMove", nullptr},
                               Io<PawnPos, Read>{}, Io<Projectile, Read>{}, Io<ProjLife, Write>{},
                               Io<PawnHealth, Write>{},
                               // destroys pawns: every component of a destroyed entity is declared
                               Io<PawnVel, Read>{}, Io<PawnStats, Read>{}));
  Prng rng(seed);
  for (std::uint32_t i = 0; i < kPawns; ++i) {
    auto e = world.create();
    if (e.isError()) return e.status();
    const PawnPos p{jitterRaw(rng, 48u << 16), jitterRaw(rng, 48u << 16)};
    LAIGE_SCENARIO_TRY(world.addComponent(e.value(), p));
    LAIGE_SCENARIO_TRY(world.addComponent(e.value(), PawnVel{}));
    LAIGE_SCENARIO_TRY(world.addComponent(e.value(), PawnStats{0, 0}));
    LAIGE_SCENARIO_TRY(world.addComponent(e.value(), PawnHealth{kStartHp, 0}));
  }
  return Status{};
}

// The generator: 0..3 commands per tick, from a PRNG keyed by (seed, tick)
// alone, so any tick's payload can be produced without the ones before it.
// Now and then a command is malformed on purpose (unknown op, pawn out of
// range, a truncated tail) to keep the rejection path in every stream.
std::uint32_t generate(std::uint64_t seed, std::uint64_t tick, std::uint8_t* out, std::uint32_t capacity) noexcept {
  Prng rng = Prng::deriveSubstream(seed ^ 0x1a9e7c0de5eedull, tick);
  const std::uint32_t commands = rng.next_range(0, 4);
  std::uint32_t n = 0;
  for (std::uint32_t c = 0; c < commands && n + kCommandBytes <= capacity; ++c) {
    const std::uint32_t roll = rng.next_range(0, 16);
    std::uint8_t op = roll < 7 ? kOpMove : kOpFire;
    std::uint32_t pawn = rng.next_range(0, kPawns);
    if (roll == 15) op = 0xee;           // unknown op
    if (roll == 14) pawn = 200;          // no such pawn
    const auto a = static_cast<std::int16_t>(static_cast<std::int32_t>(rng.next_range(0, 769)) - 384);
    const auto b = static_cast<std::int16_t>(static_cast<std::int32_t>(rng.next_range(0, 769)) - 384);
    out[n + 0] = op;
    out[n + 1] = static_cast<std::uint8_t>(pawn);
    out[n + 2] = static_cast<std::uint8_t>(static_cast<std::uint16_t>(a) & 0xff);
    out[n + 3] = static_cast<std::uint8_t>(static_cast<std::uint16_t>(a) >> 8);
    out[n + 4] = static_cast<std::uint8_t>(static_cast<std::uint16_t>(b) & 0xff);
    out[n + 5] = static_cast<std::uint8_t>(static_cast<std::uint16_t>(b) >> 8);
    n += kCommandBytes;
  }
  if (rng.next_range(0, 32) == 0 && n + 3 <= capacity) {  // a truncated command
    out[n++] = kOpFire;
    out[n++] = 0;
    out[n++] = 1;
  }
  return n;
}

}  // namespace input

const Scenario kInputScenario = {
    "input",
    "16 pawns and their projectiles driven by a generated command stream (replays end to end)",
    0x1a9e7ull, 600, 60, input::kCapacity, kDefaultChurnPerFrameBudget, SimMathBackend::FixedPoint16_16,
    &input::setup, &input::generate};

}  // namespace laige::scenarios
