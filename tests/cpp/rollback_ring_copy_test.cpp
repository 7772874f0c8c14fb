// rollback_ring_copy_test.cpp - the rollback ring's copies of what changed
// (docs/rollback.md#costs): a ring snapshot into a slot copies only the
// sections (entity table, slot columns, component columns) written since
// that slot was last written, and a ring restore copies back only the
// sections changed since the slot was written. The model test runs random
// operation streams (every write path, structural changes, destroys,
// commands, systems, validated / trusted / ring restores) over a ring of
// slots and compares every ring write with a full snapshot taken at the same
// moment, byte for byte, and every ring restore with the state the slot was
// written from (stateHash, the full snapshot's bytes, the column checksum's
// cache). Also: sections not changed are really left alone, World::snapshot
// is unchanged by ring writes, and a session's advances allocate nothing.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "laige/changes.h"
#include "laige/prng.h"
#include "laige/rollback.h"
#include "laige/snapshot.h"
#include "laige/state_hash.h"
#include "laige/system.h"
#include "laige/world.h"
#include "snapshot/snapshot_internal.h"
#include "support/counting_allocator.h"

namespace laige {
namespace {

struct RPos {
  std::int32_t x, y;
};
LAIGE_COMPONENT(RPos, x, y);
struct ROdd {  // 3 bytes
  std::uint8_t a, b, c;
};
LAIGE_COMPONENT(ROdd, a, b, c);
struct RTag {};
LAIGE_COMPONENT(RTag);
struct RVel {
  std::int32_t dx, dy;
};
LAIGE_COMPONENT(RVel, dx, dy);

// A tick of the model: moves every RPos by its RVel (one column written).
void moveSystem(World& w, SystemContext& ctx) {
  const std::int32_t step = ctx.rng != nullptr ? static_cast<std::int32_t>(ctx.rng->next_range(1, 4)) : 1;
  (void)w.each<RPos, RVel>([&](Entity, RPos& p, const RVel& v) { p.x += v.dx * step; p.y += v.dy; }, Write{}, Read{});
}

World makeWorld(std::uint32_t capacity, std::uint64_t seed) {
  World::Options o;
  o.capacity = capacity;
  o.seed = seed;
  o.deterministic = true;
  return World::create(o).takeValue();
}

void registerAll(World& w, SystemSchedule& sched) {
  ASSERT_TRUE(w.registerComponent<RPos>().ok());
  ASSERT_TRUE(w.registerComponent<ROdd>().ok());
  ASSERT_TRUE(w.registerComponent<RTag>().ok());
  ASSERT_TRUE(w.registerComponent<RVel>().ok());
  SystemDef move{"Move", &moveSystem, fpx16_16::one(), nullptr, nullptr};
  ASSERT_TRUE(w.registerSystem(move, Io<RPos, Write>{}, Io<RVel, Read>{}).ok());
  ASSERT_TRUE(w.scheduleSystems(sched).ok());
}

std::vector<std::uint8_t> fullRingBytes(const World& w) {
  std::vector<std::uint8_t> bytes(w.snapshotSize());
  EXPECT_TRUE(detail::writeSnapshot(w, bytes, false).ok());
  return bytes;
}

std::vector<std::uint8_t> sealedSnapshot(const World& w) {
  std::vector<std::uint8_t> bytes(w.snapshotSize());
  EXPECT_TRUE(w.snapshot(bytes).ok());
  return bytes;
}

// One ring slot as a session keeps it.
struct Slot {
  std::vector<std::uint8_t> bytes;
  std::size_t size = 0;
  std::uint64_t clock = 0;
  std::uint64_t hash = 0;  // stateHash of the state written
};

void refreshLive(const World& w, std::vector<Entity>& live) {
  live.clear();
  for (std::uint32_t id = 0; id < w.capacity(); ++id) {
    const Entity h = w.handleAt(static_cast<std::uint16_t>(id));
    if (w.isValid(h)) live.push_back(h);
  }
}

struct Model {
  World w;
  SystemSchedule sched;
  Prng rng;
  std::vector<Entity> live;
  std::vector<Slot> ring = std::vector<Slot>(5);
  std::vector<std::vector<std::uint8_t>> sealed;
  std::uint32_t partialWrites = 0;  // ring writes into a slot holding a state
  std::uint32_t ringRestores = 0;
  explicit Model(std::uint64_t seed) : w(makeWorld(160, seed)), rng(seed * 7919 + 11) { registerAll(w, sched); }
  std::uint64_t hash() { return w.stateHash(w.systemTicksRun()); }

  void ringWrite(Slot& s) {
    const std::size_t need = w.snapshotSize();
    if (need > s.bytes.size()) {  // a grown slot starts empty, as a session's
      s.bytes.assign(need * 2, 0xee);
      s.size = 0;
    }
    detail::RingCopy copy{s.size != 0 ? s.clock : 0, 0};
    ASSERT_TRUE(detail::writeSnapshot(w, std::span<std::uint8_t>(s.bytes), false, &copy).ok());
    const std::vector<std::uint8_t> want = fullRingBytes(w);
    ASSERT_EQ(want.size(), need);
    ASSERT_EQ(0, std::memcmp(s.bytes.data(), want.data(), need)) << "a ring write differs from a full snapshot";
    // Writes into a slot that held a state: the ones that may leave sections.
    if (copy.since != 0) ++partialWrites;
    s.size = need;
    s.clock = copy.taken;
    s.hash = hash();
  }

  void ringRestore(const Slot& s) {
    const Status st = detail::restoreSnapshot(w, std::span<const std::uint8_t>(s.bytes.data(), s.size), true, s.clock);
    ASSERT_TRUE(st.ok()) << st.reason();
    ++ringRestores;
    ASSERT_EQ(hash(), s.hash) << "a ring restore is not the state written";
    const std::vector<std::uint8_t> now = fullRingBytes(w);
    ASSERT_EQ(now.size(), s.size);
    ASSERT_EQ(0, std::memcmp(now.data(), s.bytes.data(), s.size));
    refreshLive(w, live);
  }

  void step() {
    const std::uint32_t what = rng.next_range(0, 22);
    if (what >= 13) {
      Slot& s = ring[rng.next_range(0, static_cast<std::uint32_t>(ring.size()))];
      if (what < 18 || s.size == 0) {
        ringWrite(s);
      } else {
        ringRestore(s);
      }
      return;
    }
    if (what < 2 || live.empty()) {
      if (auto e = w.create(); e.ok()) live.push_back(e.value());
      return;
    }
    const std::size_t k = rng.next_range(0, static_cast<std::uint32_t>(live.size()));
    const Entity e = live[k];
    const std::int32_t v = static_cast<std::int32_t>(rng.next_u32() >> rng.next_range(0, 32));
    switch (what) {
      case 2: ASSERT_TRUE(w.addComponent(e, RPos{v, 1}).ok()); break;  // structural or overwrite
      case 3: ASSERT_TRUE(w.addComponent(e, ROdd{static_cast<std::uint8_t>(v), 0, 7}).ok()); break;
      case 4:
        if (rng.next_range(0, 2) == 0) {
          ASSERT_TRUE(w.addComponent(e, RTag{}).ok());
        } else {
          ASSERT_TRUE(w.addComponent(e, RVel{v & 7, -1}).ok());
        }
        break;
      case 5:  // a Write ref (non-const get), or bytes by id
        if (RPos* p = w.get<RPos>(e)) p->x ^= v | 1;
        if (void* p = w.getBytes(e, w.componentId<ROdd>())) static_cast<std::uint8_t*>(p)[1] ^= 0x5a;
        break;
      case 6:  // memory written through a kept pointer, then reported
        if (w.has<RVel>(e)) {
          auto* p = static_cast<std::uint8_t*>(w.getBytes(e, w.componentId<RVel>()));
          ringWrite(ring[0]);  // a ring write in between
          p[0] ^= 0x10;
          ASSERT_TRUE(markChanged(w, e, w.componentId<RVel>()).ok());
        }
        break;
      case 7:
        if (rng.next_range(0, 2) == 0) {
          ASSERT_TRUE(w.removeComponent<RPos>(e).ok());
        } else {
          ASSERT_TRUE(w.destroy(e).ok());
          live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
        }
        break;
      case 8:  // commands
        ASSERT_TRUE(w.defer([&](CommandBuffer& cb) {
                       (void)cb.add(e, RVel{1, static_cast<std::int32_t>(v & 0xff)});
                       (void)cb.remove<ROdd>(e);
                     }).ok());
        break;
      case 9:
      case 10: ASSERT_TRUE(w.runSystems(sched).ok()); break;
      case 11: sealed.push_back(sealedSnapshot(w)); break;
      case 12:
        if (!sealed.empty()) {
          const std::vector<std::uint8_t>& s = sealed[rng.next_range(0, static_cast<std::uint32_t>(sealed.size()))];
          const Status st = rng.next_range(0, 2) == 0 ? w.restore(s) : detail::restoreSnapshot(w, s, true);
          ASSERT_TRUE(st.ok()) << st.reason();
          refreshLive(w, live);
        }
        break;
      default: break;
    }
  }
};

// The model test: every ring write equals a full snapshot of the same
// moment; every ring restore gives back the state the slot was written from.
TEST(RollbackRingCopy, RingWritesAndRestoresEqualFullCopiesUnderRandomOps) {
  std::uint32_t partial = 0;
  std::uint32_t restores = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    Model m(seed);
    for (int op = 0; op < 2500; ++op) {
      m.step();
      if (::testing::Test::HasFatalFailure()) {
        ADD_FAILURE() << "seed " << seed << " op " << op;
        return;
      }
      // The column checksum's cache stays exact through ring restores.
      ASSERT_EQ(columnChecksumCached(m.w, 7), columnChecksum(m.w, 7)) << "seed " << seed << " op " << op;
    }
    partial += m.partialWrites;
    restores += m.ringRestores;
  }
  // The streams exercise what they test.
  EXPECT_GT(partial, 500u);
  EXPECT_GT(restores, 500u);
}

// The sections not written since are left as they are in the slot (the
// copy is really skipped), and World::snapshot's bytes do not depend on
// ring writes having happened.
TEST(RollbackRingCopy, OnlyTheColumnsWrittenSinceAreCopied) {
  World w = makeWorld(64, 3);
  SystemSchedule sched;
  registerAll(w, sched);
  for (std::int32_t i = 0; i < 40; ++i) {
    const Entity e = w.create().value();
    ASSERT_TRUE(w.addComponent(e, RPos{i, 0}).ok());
    ASSERT_TRUE(w.addComponent(e, RVel{1, 2}).ok());
  }
  const std::vector<std::uint8_t> plainBefore = sealedSnapshot(w);
  std::vector<std::uint8_t> slot(w.snapshotSize() * 2, 0);
  detail::RingCopy copy{0, 0};
  ASSERT_TRUE(detail::writeSnapshot(w, slot, false, &copy).ok());
  EXPECT_EQ(sealedSnapshot(w), plainBefore);
  // Poison one byte of the RVel column in the slot (the last column): a
  // write that copies RVel would repair it.
  const std::size_t size = w.snapshotSize();
  const std::size_t velByte = size - 40 * sizeof(RVel);
  slot[velByte] ^= 0xff;
  ASSERT_TRUE(w.runSystems(sched).ok());  // writes RPos only
  detail::RingCopy again{copy.taken, 0};
  ASSERT_TRUE(detail::writeSnapshot(w, slot, false, &again).ok());
  std::vector<std::uint8_t> want = fullRingBytes(w);
  EXPECT_NE(slot[velByte], want[velByte]) << "RVel was copied although nothing wrote it";
  want[velByte] ^= 0xff;
  EXPECT_EQ(0, std::memcmp(slot.data(), want.data(), size)) << "RPos (written by the tick) was not copied";
  // A Write ref to RVel: now it is copied (the poison is repaired).
  *w.get<RVel>(w.handleAt(0)) = RVel{5, 5};
  detail::RingCopy third{again.taken, 0};
  ASSERT_TRUE(detail::writeSnapshot(w, slot, false, &third).ok());
  EXPECT_EQ(0, std::memcmp(slot.data(), fullRingBytes(w).data(), size));
  // A structural change moves sections: everything is written again.
  ASSERT_TRUE(w.destroy(w.handleAt(3)).ok());
  slot[w.snapshotSize() - 1] ^= 0xff;
  detail::RingCopy fourth{third.taken, 0};
  ASSERT_TRUE(detail::writeSnapshot(w, slot, false, &fourth).ok());
  EXPECT_EQ(0, std::memcmp(slot.data(), fullRingBytes(w).data(), w.snapshotSize()));
}

// A session on the benchmark's world shape (positions moved every tick,
// velocities never): predicted advances and rollbacks allocate nothing, and
// the confirmed checksums are the in-time run's.
void moveOnly(World& w, SystemContext&) {
  (void)w.each<RPos, RVel>([](Entity, RPos& p, const RVel& v) { p.x += v.dx; p.y += v.dy; }, Write{}, Read{});
}

TEST(RollbackRingCopy, AdvancesAndRollbacksAllocateNothingAndConfirmTheInTimeRun) {
  auto build = [](World& w, SystemSchedule& sched) {
    ASSERT_TRUE(w.registerComponent<RPos>().ok());
    ASSERT_TRUE(w.registerComponent<RVel>().ok());
    SystemDef move{"Move", &moveOnly, fpx16_16::one(), nullptr, nullptr};
    ASSERT_TRUE(w.registerSystem(move, Io<RPos, Write>{}, Io<RVel, Read>{}).ok());
    ASSERT_TRUE(w.scheduleSystems(sched).ok());
    for (std::int32_t i = 0; i < 1000; ++i) {
      const Entity e = w.create().value();
      ASSERT_TRUE(w.addComponent(e, RPos{i, -i}).ok());
      ASSERT_TRUE(w.addComponent(e, RVel{1 + (i & 3), 2}).ok());
    }
  };
  // The in-time run: the checksum after every tick.
  World ref = makeWorld(1024, 9);
  SystemSchedule refSched;
  build(ref, refSched);
  std::vector<std::uint64_t> want(401, 0);
  for (std::uint64_t t = 1; t <= 400; ++t) {
    ASSERT_TRUE(ref.runSystems(refSched).ok());
    want[t] = ref.stateChecksum(ref.systemTicksRun());
  }
  World w = makeWorld(1024, 9);
  SystemSchedule sched;
  build(w, sched);
  std::vector<std::uint64_t> got(401, 0);
  RollbackSession::Options o;
  o.players = 2;
  o.localPlayer = 0;
  o.depth = 12;
  o.maxInputBytes = 4;
  o.onConfirmed = [](void* ctx, std::uint64_t tick, std::uint64_t h) noexcept {
    auto* g = static_cast<std::vector<std::uint64_t>*>(ctx);
    if (tick < g->size()) (*g)[tick] = h;
  };
  o.onConfirmedContext = &got;
  auto s = RollbackSession::create(w, sched, o);
  ASSERT_TRUE(s.ok()) << s.status().reason();
  RollbackSession session = std::move(s).takeValue();
  // The remote player's (empty) inputs arrive 8 ticks late, every 8 ticks:
  // one 8-tick rollback per 8 advances, predicted advances in between.
  // Each remote input differs from the one before (the prediction), so
  // every late one is a miss.
  std::uint64_t sent = 0;
  auto step = [&](std::uint64_t t) {
    ASSERT_TRUE(session.setLocalInput(t, std::span<const std::uint8_t>{}).ok());
    if (t % 8 == 0) {
      for (std::uint64_t k = sent + 1; k < t; ++k) {
        const std::uint8_t in[1] = {static_cast<std::uint8_t>(k)};
        ASSERT_TRUE(session.addRemoteInput(1, k, in).ok());
      }
      sent = t - 1;
    }
    ASSERT_TRUE(session.advance().ok());
  };
  for (std::uint64_t t = 1; t < 100; ++t) step(t);
  {
    const test::AllocationWindow window;
    for (std::uint64_t t = 100; t <= 400; ++t) step(t);
    EXPECT_EQ(window.allocations(), 0u);
  }
  EXPECT_GT(session.stats().rollbacks, 40u);
  EXPECT_EQ(session.confirmedTick(), sent);
  for (std::uint64_t t = 1; t <= sent; ++t) ASSERT_EQ(got[t], want[t]) << "tick " << t;
}

}  // namespace
}  // namespace laige
