// changes_sim.h - a small input-driven simulation that uses every change
// feature (tests: changes_rollback_test.cpp): Changed/Added filters in
// systems, a removed log read with last values, and observers that create
// and destroy entities through their command buffer. Its whole behaviour
// depends on the change state, so a rollback that restored it wrongly
// diverges in the state hash.
//
// Input: 6-byte commands (the `input` scenario's generator): u8 op, u8 k,
// i16 a, i16 b. Odd op: spawn a mover (Pos, Vel (a, b) / 64, Hp 20 + k % 16).
// Even op: give mover slot k % 64 the velocity (a, b) / 64 (a Write ref).
#pragma once

#include <cstdint>

#include "laige/changes.h"
#include "laige/query_object.h"
#include "laige/system.h"
#include "laige/world.h"

namespace laige::test::changes_sim {

struct CsPos {
  std::int32_t x, y;
};
LAIGE_COMPONENT(CsPos, x, y);
struct CsVel {
  std::int32_t x, y;
};
LAIGE_COMPONENT(CsVel, x, y);
struct CsHp {
  std::int32_t v;
};
LAIGE_COMPONENT(CsHp, v);
struct CsBadge {  // added by an observer of CsHp OnAdd
  std::uint32_t bornTick;
};
LAIGE_COMPONENT(CsBadge, bornTick);
struct CsDebris {  // created by an observer of CsPos OnRemove
  std::int32_t x, y, ttl;
};
LAIGE_COMPONENT(CsDebris, x, y, ttl);
struct CsStats {  // one entity (slot 0): what the watchers saw
  std::uint32_t seenChanged, seenAdded, removed;
  std::int32_t removedHpSum, lastX;
};
LAIGE_COMPONENT(CsStats, seenChanged, seenAdded, removed, removedHpSum, lastX);

constexpr std::uint32_t kCapacity = 256;

using SteeredQ = Query<Writes<CsPos>, Reads<CsVel>, Changed<CsVel>>;
using DrainQ = Query<Writes<CsHp>>;
using WatchQ = Query<Reads<CsPos>, Changed<CsPos>>;
using NewQ = Query<Reads<CsHp>, Added<CsHp>>;
using DebrisQ = Query<Writes<CsDebris>>;

inline Entity statsEntity(const World& w) { return w.handleAt(0); }

inline void csApply(World& w, SystemContext& ctx) {
  const std::uint8_t* p = ctx.input;
  const std::uint32_t n = p != nullptr ? ctx.inputSize / 6 : 0;
  for (std::uint32_t i = 0; i < n; ++i, p += 6) {
    const std::uint8_t op = p[0];
    const std::uint8_t k = p[1];
    const auto a = static_cast<std::int16_t>(p[2] | p[3] << 8);
    const auto b = static_cast<std::int16_t>(p[4] | p[5] << 8);
    if ((op & 1) != 0) {
      auto e = w.create();
      if (!e.ok()) continue;
      (void)ctx.commands.add(e.value(), CsPos{k * 8, -k * 8});
      (void)ctx.commands.add(e.value(), CsVel{a / 64, b / 64});
      (void)ctx.commands.add(e.value(), CsHp{20 + k % 16});
    } else {
      const Entity e = w.handleAt(static_cast<std::uint16_t>(1 + k % 64));
      if (!w.isValid(e) || !w.has<CsVel>(e)) continue;
      *w.get<CsVel>(e) = CsVel{a / 64, b / 64};  // a Write ref: marks CsVel
    }
  }
}
LAIGE_SYSTEM(CsApply, 10.0);
inline void CsApply(World& w, SystemContext& ctx) { csApply(w, ctx); }

inline SteeredQ& steeredQ() {
  static SteeredQ q;
  return q;
}
inline DrainQ& drainQ() {
  static DrainQ q;
  return q;
}
inline WatchQ& watchQ() {
  static WatchQ q;
  return q;
}
inline NewQ& newQ() {
  static NewQ q;
  return q;
}
inline DebrisQ& debrisQ() {
  static DebrisQ q;
  return q;
}

// Moves only the movers steered since it last ran (a Changed<CsVel> walk),
// drains every mover's hp (an unfiltered Write walk), destroys the dead.
LAIGE_SYSTEM(CsMove, 10.0, CsApply);
inline void CsMove(World& /*w*/, SystemContext& ctx) {
  (void)ctx.each(steeredQ(), [&](Entity, CsPos& p, const CsVel& v) {
    p.x += v.x * 4;
    p.y += v.y * 4;
  });
  (void)ctx.each(drainQ(), [&](Entity e, CsHp& hp) {
    if (--hp.v <= 0) (void)ctx.commands.destroy(e);
  });
}

// Sees positions changed and hp added since it last ran, and the removals.
LAIGE_SYSTEM(CsWatch, 10.0, CsMove);
inline void CsWatch(World& w, SystemContext& ctx) {
  CsStats* stats = w.get<CsStats>(statsEntity(w));
  if (stats == nullptr) return;
  (void)ctx.each(watchQ(), [&](Entity e, const CsPos& p) {
    ++stats->seenChanged;
    // Wrapping (unsigned) arithmetic: a signed overflow would be undefined.
    stats->lastX = static_cast<std::int32_t>(static_cast<std::uint32_t>(stats->lastX) * 31u +
                                             static_cast<std::uint32_t>(p.x) + e.id());
  });
  (void)ctx.each(newQ(), [&](Entity, const CsHp&) { ++stats->seenAdded; });
  (void)eachRemoved<CsHp>(ctx, [&](Entity e, const CsHp& last) {
    ++stats->removed;
    stats->removedHpSum = static_cast<std::int32_t>(static_cast<std::uint32_t>(stats->removedHpSum) * 7u +
                                                    static_cast<std::uint32_t>(last.v) + e.id());
  });
  (void)ctx.each(debrisQ(), [&](Entity e, CsDebris& d) {
    if (--d.ttl <= 0) (void)ctx.commands.destroy(e);
  });
}

/// Observer counters (outside the world: what a renderer would do).
struct ObserverTally {
  std::uint64_t calls = 0;
  std::uint64_t resimulated = 0;
};

inline Status onHpAdded(ObserverContext& ctx) {
  auto* t = static_cast<ObserverTally*>(ctx.userData);
  ++t->calls;
  if (ctx.resimulating) ++t->resimulated;
  return ctx.commands.add(ctx.entity, CsBadge{static_cast<std::uint32_t>(ctx.world.systemTicksRun())});
}
inline Status onPosRemoved(ObserverContext& ctx) {
  auto* t = static_cast<ObserverTally*>(ctx.userData);
  ++t->calls;
  if (ctx.resimulating) ++t->resimulated;
  const auto* last = static_cast<const CsPos*>(ctx.value);
  auto e = ctx.commands.create();
  if (!e.ok()) return Status{};  // the arena is full: no debris
  return ctx.commands.add(e.value(), CsDebris{last->x, last->y, 3});
}

/// Registers everything; the stats entity takes slot 0.
inline Status setup(World& w, SystemSchedule& schedule, ObserverTally& tally) {
  if (Status st = w.registerComponent<CsPos>().status(); !st.ok()) return st;
  if (Status st = w.registerComponent<CsVel>().status(); !st.ok()) return st;
  if (Status st = w.registerComponent<CsHp>().status(); !st.ok()) return st;
  if (Status st = w.registerComponent<CsBadge>().status(); !st.ok()) return st;
  if (Status st = w.registerComponent<CsDebris>().status(); !st.ok()) return st;
  if (Status st = w.registerComponent<CsStats>().status(); !st.ok()) return st;
  if (Status st = w.registerSystem(CsApply_Def, Io<CsPos, Read>{}, Io<CsVel, Write>{}, Io<CsHp, Read>{}).status();
      !st.ok()) {
    return st;
  }
  if (Status st = w.registerSystem(CsMove_Def, QueryIo<SteeredQ, DrainQ>{}, Io<CsBadge, Read>{}).status(); !st.ok()) {
    return st;
  }
  if (Status st = w.registerSystem(CsWatch_Def, QueryIo<WatchQ, NewQ, DebrisQ>{}, Io<CsStats, Write>{}).status();
      !st.ok()) {
    return st;
  }
  if (Status st = observe<CsHp>(w, ObserverEvent::OnAdd, &onHpAdded, &tally).status(); !st.ok()) return st;
  if (Status st = observe<CsPos>(w, ObserverEvent::OnRemove, &onPosRemoved, &tally).status(); !st.ok()) return st;
  const Entity stats = w.create().value();
  if (Status st = w.addComponent(stats, CsStats{}); !st.ok()) return st;
  return w.scheduleSystems(schedule);
}

}  // namespace laige::test::changes_sim
