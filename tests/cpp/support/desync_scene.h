// desync_scene.h - a small simulation for the desync tests (desync_test.cpp,
// state_tree_test.cpp): movers with velocities and hit points, three systems
// (Move, Steer, Damage) using their PRNG substreams and commands, and a
// fault that flips one bit of one field of one entity inside one system at
// one tick (the "one-bit divergence" of docs/desync.md).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "laige/prng.h"
#include "laige/system.h"
#include "laige/world.h"

namespace laige::test {

// Two's complement arithmetic that wraps (C++20 defines the conversion
// back): the fault may flip a field's top bit, and the scene's arithmetic
// on that value must stay defined (UBSan checks it) and the same natively
// and in wasm.
inline std::int32_t wrapAdd(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
inline std::int32_t wrapNeg(std::int32_t a) { return static_cast<std::int32_t>(0u - static_cast<std::uint32_t>(a)); }

struct DPos {
  std::int32_t x, y;
};
LAIGE_COMPONENT(DPos, x, y);
struct DVel {
  std::int32_t dx, dy;
};
LAIGE_COMPONENT(DVel, dx, dy);
struct DHp {
  std::int32_t hp;
  std::uint32_t armor;
};
LAIGE_COMPONENT(DHp, hp, armor);

/// Where and what to flip (armed when tick != 0). The system writes the
/// component it flips: Move -> DPos, Steer -> DVel, Damage -> DHp.
struct Fault {
  std::uint64_t tick = 0;
  std::uint32_t system = 0;  // SystemId value (1 Move, 2 Steer, 3 Damage)
  std::uint32_t pick = 0;    // the entity: the first live one with the component from slot pick % capacity
  std::uint32_t field = 0;   // 0 or 1
  std::uint32_t bit = 0;     // 0..31
  // Filled by the fault when it fires.
  bool fired = false;
  std::uint32_t slot = 0;
};

template <class T>
inline void flip(World& w, Fault& f) {
  for (std::uint32_t k = 0; k < w.capacity(); ++k) {
    const auto slot = static_cast<std::uint16_t>((f.pick + k) % w.capacity());
    const Entity e = w.handleAt(slot);
    T* value = w.isValid(e) ? w.get<T>(e) : nullptr;
    if (value == nullptr) continue;
    std::uint32_t bits;
    std::memcpy(&bits, reinterpret_cast<std::uint8_t*>(value) + 4 * f.field, 4);
    bits ^= 1u << f.bit;
    std::memcpy(reinterpret_cast<std::uint8_t*>(value) + 4 * f.field, &bits, 4);
    f.fired = true;
    f.slot = slot;
    return;
  }
}

inline void maybeFault(World& w, SystemContext& ctx) {
  auto* f = static_cast<Fault*>(ctx.userData);
  if (f == nullptr || f->tick != ctx.tick || f->system != ctx.id.value) return;
  if (f->system == 1) flip<DPos>(w, *f);
  if (f->system == 2) flip<DVel>(w, *f);
  if (f->system == 3) flip<DHp>(w, *f);
}

inline void moveSystem(World& w, SystemContext& ctx) {
  (void)w.each<DPos, DVel>([](Entity, DPos& p, const DVel& v) { p.x = wrapAdd(p.x, v.dx); p.y = wrapAdd(p.y, v.dy); }, Write{}, Read{});
  maybeFault(w, ctx);
}

inline void steerSystem(World& w, SystemContext& ctx) {
  Prng& rng = *ctx.rng;
  const std::uint32_t phase = static_cast<std::uint32_t>(ctx.tick % 7);
  (void)w.each<DVel, DPos>(
      [&](Entity e, DVel& v, const DPos& p) {
        if (p.x > 1000 || p.x < -1000) v.dx = wrapNeg(v.dx);
        if (p.y > 1000 || p.y < -1000) v.dy = wrapNeg(v.dy);
        if (e.index() % 7 == phase) v.dx = wrapAdd(v.dx, static_cast<std::int32_t>(rng.next_range(0, 3)) - 1);
      },
      Write{}, Read{});
  maybeFault(w, ctx);
}

inline void damageSystem(World& w, SystemContext& ctx) {
  Prng& rng = *ctx.rng;
  const std::uint32_t phase = static_cast<std::uint32_t>(ctx.tick % 5);
  (void)w.each<DHp>(
      [&](Entity e, DHp& h) {
        if (e.index() % 5 != phase) return;
        h.hp = wrapAdd(h.hp, -static_cast<std::int32_t>(rng.next_range(0, 3)));
        // Out of hit points: it loses DHp (a structural change, by command).
        if (h.hp <= 0) (void)ctx.commands.remove<DHp>(e);
      },
      Write{});
  maybeFault(w, ctx);
}

/// Builds the scene: `entities` movers (every third without DHp), the
/// three systems with `fault` (may be null) as their userData.
inline World makeDesyncWorld(std::uint32_t entities, std::uint64_t seed, Fault* fault, SystemSchedule& sched) {
  World::Options o;
  o.capacity = entities + 16;
  o.seed = seed;
  o.churnPerFrameBudget = 0;
  World w = World::create(o).takeValue();
  EXPECT_TRUE(w.registerComponent<DPos>().ok());
  EXPECT_TRUE(w.registerComponent<DVel>().ok());
  EXPECT_TRUE(w.registerComponent<DHp>().ok());
  EXPECT_TRUE(w.registerSystem(SystemDef{"Move", &moveSystem, fpx16_16::fromInt32(100), nullptr, fault},
                               Io<DPos, Write>{}, Io<DVel, Read>{})
                  .ok());
  EXPECT_TRUE(w.registerSystem(SystemDef{"Steer", &steerSystem, fpx16_16::fromInt32(100), nullptr, fault},
                               Io<DVel, Write>{}, Io<DPos, Read>{})
                  .ok());
  EXPECT_TRUE(w.registerSystem(SystemDef{"Damage", &damageSystem, fpx16_16::fromInt32(100), nullptr, fault},
                               Io<DHp, Write>{})
                  .ok());
  EXPECT_TRUE(w.scheduleSystems(sched).ok());
  Prng rng(seed ^ 0x9e3779b97f4a7c15ull);
  for (std::uint32_t i = 0; i < entities; ++i) {
    const Entity e = w.create().value();
    const auto x = static_cast<std::int32_t>(rng.next_range(0, 2000)) - 1000;
    const auto y = static_cast<std::int32_t>(rng.next_range(0, 2000)) - 1000;
    EXPECT_TRUE(w.addComponent(e, DPos{x, y}).ok());
    EXPECT_TRUE(w.addComponent(e, DVel{static_cast<std::int32_t>(rng.next_range(0, 9)) - 4, 1}).ok());
    if (i % 3 != 2) {
      EXPECT_TRUE(w.addComponent(e, DHp{static_cast<std::int32_t>(rng.next_range(20, 60)), i}).ok());
    }
  }
  return w;
}

}  // namespace laige::test
