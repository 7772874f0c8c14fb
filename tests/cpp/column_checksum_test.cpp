// column_checksum_test.cpp - columnChecksum, columnChecksumCached and
// columnChecksumOfSnapshot (docs/determinism.md#the-column-checksum), and
// the trusted restore and unsealed snapshot of a rollback session's ring
// (docs/snapshots.md#trusted-restores): known answers (the same constants
// natively and in wasm), the stream against a plain reference built from
// the public API, the cached value against the from-scratch one after every
// operation of random op streams (writes through every path, structural
// changes, destroys, restores, trusted restores, systems, commands), the
// cache forgotten by a restore, a trusted restore equal to a validated one,
// the session's Columns checksum, and zero allocation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "laige/changes.h"
#include "laige/prng.h"
#include "laige/rollback.h"
#include "laige/snapshot.h"
#include "laige/state_hash.h"
#include "laige/system.h"
#include "laige/world.h"
#include "snapshot/snapshot_internal.h"
#include "support/checksum_reference.h"
#include "support/counting_allocator.h"

namespace laige {
namespace {

struct KPos {
  std::int32_t x, y;
};
LAIGE_COMPONENT(KPos, x, y);
struct KOdd {  // 3 bytes
  std::uint8_t a, b, c;
};
LAIGE_COMPONENT(KOdd, a, b, c);
struct KTag {};
LAIGE_COMPONENT(KTag);
struct KVec {  // all f32
  float x, y;
};
LAIGE_COMPONENT(KVec, x, y);

// Writes every KVec through a Write walk (a tick of the model).
void driftSystem(World& w, SystemContext& ctx) {
  std::uint32_t step = ctx.rng != nullptr ? ctx.rng->next_range(1, 4) : 1;
  for (std::uint32_t i = 0; i < ctx.inputSize; ++i) step += ctx.input[i];  // a session's inputs matter
  (void)w.each<KVec>([&](Entity, KVec& v) { v.x += static_cast<float>(step); }, Write{});
}

World makeWorld(std::uint32_t capacity, std::uint64_t seed = 0x5eed) {
  World::Options o;
  o.capacity = capacity;
  o.seed = seed;
  o.deterministic = true;
  return World::create(o).takeValue();
}

void registerAll(World& w, SystemSchedule& sched) {
  ASSERT_TRUE(w.registerComponent<KPos>().ok());
  ASSERT_TRUE(w.registerComponent<KOdd>().ok());
  ASSERT_TRUE(w.registerComponent<KTag>().ok());
  ASSERT_TRUE(w.registerComponent<KVec>().ok());
  SystemDef drift{"Drift", &driftSystem, fpx16_16::one(), nullptr, nullptr};
  ASSERT_TRUE(w.registerSystem(drift, Io<KVec, Write>{}).ok());
  ASSERT_TRUE(w.scheduleSystems(sched).ok());
}

std::uint64_t referenceColumnChecksum(World& w, std::uint64_t tick) {
  return test::referenceChecksum(w, tick, test::ChecksumForm::Column);
}

std::vector<std::uint8_t> snapshotOf(const World& w) {
  std::vector<std::uint8_t> bytes(w.snapshotSize());
  EXPECT_TRUE(w.snapshot(bytes).ok());
  return bytes;
}

// Known answers: the same constants natively and in wasm (this file runs in
// both). A change here is a change of the documented stream.
TEST(ColumnChecksum, KnownAnswers) {
  World empty = makeWorld(16);
  EXPECT_EQ(columnChecksum(empty, 0), 0x5a927721118ffa0dull) << std::hex << columnChecksum(empty, 0);
  World w = makeWorld(16, 7);
  SystemSchedule sched;
  registerAll(w, sched);
  const Entity a = w.create().value();
  const Entity b = w.create().value();
  const Entity c = w.create().value();
  ASSERT_TRUE(w.addComponent(a, KPos{1, -2}).ok());
  ASSERT_TRUE(w.addComponent(c, KPos{0, 1}).ok());
  ASSERT_TRUE(w.addComponent(c, KOdd{1, 2, 3}).ok());
  ASSERT_TRUE(w.addComponent(c, KTag{}).ok());
  ASSERT_TRUE(w.addComponent(b, KVec{0.5f, -0.25f}).ok());
  ASSERT_TRUE(w.destroy(b).ok());
  EXPECT_EQ(columnChecksum(w, 5), 0x1a70c97e35ceaec0ull) << std::hex << columnChecksum(w, 5);
  EXPECT_EQ(columnChecksum(w, 5), referenceColumnChecksum(w, 5));
  EXPECT_NE(columnChecksum(w, 5), w.stateChecksum(5));
}

// One random operation on `w` (through every write path the cache must
// see); `snaps` collects snapshots to restore later.
void randomOp(World& w, SystemSchedule& sched, Prng& rng, std::vector<Entity>& live,
              std::vector<std::vector<std::uint8_t>>& snaps) {
  const std::uint32_t what = rng.next_range(0, 16);
  if (what < 2 || live.empty()) {
    if (auto e = w.create(); e.ok()) live.push_back(e.value());
    return;
  }
  const std::size_t k = rng.next_range(0, static_cast<std::uint32_t>(live.size()));
  const Entity e = live[k];
  const std::int32_t v = static_cast<std::int32_t>(rng.next_u32() >> rng.next_range(0, 32));
  switch (what) {
    case 2: ASSERT_TRUE(w.addComponent(e, KPos{v, 1}).ok()); break;  // structural or overwrite
    case 3: ASSERT_TRUE(w.addComponent(e, KOdd{static_cast<std::uint8_t>(v), 0, 7}).ok()); break;
    case 4: ASSERT_TRUE(w.addComponent(e, KTag{}).ok()); break;
    case 5: ASSERT_TRUE(w.addComponent(e, KVec{static_cast<float>(v & 0xffff), -1.5f}).ok()); break;
    case 6:  // a Write ref (non-const get)
      if (KPos* p = w.get<KPos>(e)) p->x ^= v | 1;
      break;
    case 7:  // bytes through a Write ref by id
      if (void* p = w.getBytes(e, w.componentId<KOdd>())) static_cast<std::uint8_t*>(p)[1] ^= 0x5a;
      break;
    case 8:  // a Write walk outside systems
      (void)w.each<KPos>([&](Entity, KPos& p) { p.y += 3; }, Write{});
      break;
    case 9:  // memory written through a kept pointer, then reported
      if (w.has<KPos>(e)) {
        auto* p = static_cast<std::uint8_t*>(w.getBytes(e, w.componentId<KPos>()));
        (void)w.stateChecksum(0);  // any read in between
        (void)columnChecksumCached(w, 0);
        p[0] ^= 0x10;
        ASSERT_TRUE(markChanged(w, e, w.componentId<KPos>()).ok());
      }
      break;
    case 10:
      if (rng.next_range(0, 2) == 0) {
        ASSERT_TRUE(w.removeComponent<KPos>(e).ok());
      } else {
        ASSERT_TRUE(w.destroy(e).ok());
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      }
      break;
    case 11:  // commands
      ASSERT_TRUE(w.defer([&](CommandBuffer& cb) {
                     (void)cb.add(e, KVec{1.0f, static_cast<float>(v & 0xff)});
                     (void)cb.remove<KOdd>(e);
                   }).ok());
      break;
    case 12: ASSERT_TRUE(w.runSystems(sched).ok()); break;
    case 13: snaps.push_back(snapshotOf(w)); break;
    case 14:
    case 15:
      if (!snaps.empty()) {
        const std::vector<std::uint8_t>& s = snaps[rng.next_range(0, static_cast<std::uint32_t>(snaps.size()))];
        const Status st = what == 14 ? w.restore(s) : detail::restoreSnapshot(w, s, true);
        ASSERT_TRUE(st.ok()) << st.reason();
        live.clear();
        for (std::uint32_t id = 0; id < w.capacity(); ++id) {
          const Entity h = w.handleAt(static_cast<std::uint16_t>(id));
          if (w.isValid(h)) live.push_back(h);
        }
      }
      break;
    default: break;
  }
}

// The model test: after every operation the cached checksum equals the
// from-scratch one (and, every few operations, the plain reference).
TEST(ColumnChecksum, CachedEqualsFromScratchAfterRandomOps) {
  std::uint32_t divergences = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    World w = makeWorld(200, seed);
    SystemSchedule sched;
    registerAll(w, sched);
    Prng rng(seed * 7919 + 11);
    std::vector<Entity> live;
    std::vector<std::vector<std::uint8_t>> snaps;
    for (int op = 0; op < 1500; ++op) {
      randomOp(w, sched, rng, live, snaps);
      if (::testing::Test::HasFatalFailure()) return;
      const std::uint64_t tick = static_cast<std::uint64_t>(op);
      const std::uint64_t cached = columnChecksumCached(w, tick);
      const std::uint64_t scratch = columnChecksum(w, tick);
      if (cached != scratch) ++divergences;
      if (op % 50 == 0) {
        EXPECT_EQ(scratch, referenceColumnChecksum(w, tick)) << "seed " << seed << " op " << op;
        const std::vector<std::uint8_t> bytes = snapshotOf(w);
        EXPECT_EQ(columnChecksumOfSnapshot(w, bytes).value(), columnChecksum(w, w.systemTicksRun()));
      }
    }
  }
  EXPECT_EQ(divergences, 0u);
}

// A restore replaces the columns in place (the same archetypes): every
// cached hash goes, so the checksum after it is the restored state's.
TEST(ColumnChecksum, ARestoreForgetsTheCache) {
  for (const bool trusted : {false, true}) {
    World w = makeWorld(64);
    SystemSchedule sched;
    registerAll(w, sched);
    for (int i = 0; i < 20; ++i) ASSERT_TRUE(w.addComponent(w.create().value(), KVec{1.0f, 2.0f}).ok());
    const std::vector<std::uint8_t> before = snapshotOf(w);
    const std::uint64_t atBefore = columnChecksumCached(w, 1);
    ASSERT_TRUE(w.runSystems(sched).ok());
    const std::uint64_t atAfter = columnChecksumCached(w, 1);
    EXPECT_NE(atBefore, atAfter);
    const Status st = trusted ? detail::restoreSnapshot(w, before, true) : w.restore(before);
    ASSERT_TRUE(st.ok());
    EXPECT_EQ(columnChecksumCached(w, 1), atBefore) << "trusted " << trusted;
    EXPECT_EQ(columnChecksum(w, 1), atBefore);
  }
}

// The rule for memory written directly: markChanged makes the cache see it.
TEST(ColumnChecksum, MarkChangedReportsADirectWrite) {
  World w = makeWorld(16);
  SystemSchedule sched;
  registerAll(w, sched);
  const Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, KPos{1, 2}).ok());
  auto* kept = static_cast<std::int32_t*>(w.getBytes(e, w.componentId<KPos>()));
  (void)columnChecksumCached(w, 0);
  kept[0] = 99;  // unseen until reported
  ASSERT_TRUE(markChanged(w, e, w.componentId<KPos>()).ok());
  EXPECT_EQ(columnChecksumCached(w, 0), columnChecksum(w, 0));
}

// A checksum taken inside a Write walk caches nothing: the walk may still
// write rows after it.
TEST(ColumnChecksum, InsideAWriteWalkNothingIsCached) {
  World w = makeWorld(16);
  SystemSchedule sched;
  registerAll(w, sched);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(w.addComponent(w.create().value(), KPos{i, 0}).ok());
  (void)columnChecksumCached(w, 0);
  int row = 0;
  (void)w.each<KPos>([&](Entity, KPos& p) {
    if (row++ == 1) (void)columnChecksumCached(w, 0);
    p.y += 5;
  }, Write{});
  EXPECT_EQ(columnChecksumCached(w, 0), columnChecksum(w, 0));
}

// A trusted restore (the session's ring) makes the same world as the
// validated one: the same state, hashes, snapshot bytes and next handles.
TEST(TrustedRestore, EqualsTheValidatedRestore) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    World a = makeWorld(200, seed);
    World b = makeWorld(200, seed);
    SystemSchedule sa, sb;
    registerAll(a, sa);
    registerAll(b, sb);
    Prng rng(seed);
    std::vector<Entity> live;
    std::vector<std::vector<std::uint8_t>> snaps;
    for (int op = 0; op < 600; ++op) {
      randomOp(a, sa, rng, live, snaps);
      if (::testing::Test::HasFatalFailure()) return;
    }
    const std::vector<std::uint8_t> target = snapshotOf(a);
    // b goes elsewhere first (other archetypes and rows), then both restore.
    for (int i = 0; i < 30; ++i) ASSERT_TRUE(b.addComponent(b.create().value(), KOdd{1, 2, 3}).ok());
    std::vector<std::uint8_t> unsealed(target.size());
    ASSERT_TRUE(detail::writeSnapshot(a, unsealed, false).ok());
    ASSERT_TRUE(a.restore(target).ok());
    ASSERT_TRUE(detail::restoreSnapshot(b, unsealed, true).ok());
    EXPECT_EQ(a.stateHash(3), b.stateHash(3));
    EXPECT_EQ(snapshotOf(a), snapshotOf(b));
    EXPECT_EQ(a.create().value(), b.create().value());
    // The unsealed bytes differ from the sealed ones only in the checksum field.
    std::vector<std::uint8_t> sealed = target;
    ASSERT_GE(sealed.size(), kSnapshotChecksumOffset + 8);
    std::fill_n(sealed.begin() + kSnapshotChecksumOffset, 8, std::uint8_t{0});
    EXPECT_EQ(sealed, unsealed);
  }
}

// A trusted restore still checks the setup and the bounds: a snapshot of
// another setup or a truncated one is refused and changes nothing.
TEST(TrustedRestore, RefusesAnotherSetupAndChangesNothing) {
  World w = makeWorld(32);
  SystemSchedule sched;
  registerAll(w, sched);
  ASSERT_TRUE(w.addComponent(w.create().value(), KPos{4, 5}).ok());
  World other = makeWorld(32);
  ASSERT_TRUE(other.registerComponent<KVec>().ok());
  const std::vector<std::uint8_t> foreign = snapshotOf(other);
  const std::uint64_t before = w.stateHash(0);
  EXPECT_EQ(detail::restoreSnapshot(w, foreign, true).reason(), std::string("snapshot_setup_mismatch"));
  std::vector<std::uint8_t> cut = snapshotOf(w);
  cut.resize(cut.size() - 8);
  EXPECT_FALSE(detail::restoreSnapshot(w, cut, true).ok());
  EXPECT_EQ(w.stateHash(0), before);
  EXPECT_FALSE(columnChecksumOfSnapshot(w, cut).ok());
  EXPECT_EQ(w.stateHash(0), before);
}

// A Columns session over late, differing inputs confirms the same
// checksums as one that had every input in time, and each equals
// columnChecksum of that tick's state.
TEST(ColumnChecksum, SessionConfirmsWhatAnInTimeSessionDoes) {
  struct Peer {
    World world = makeWorld(128, 3);
    SystemSchedule sched;
    RollbackSession session;
    std::vector<std::uint64_t> confirmed;
  };
  auto make = [](Peer& p) {
    registerAll(p.world, p.sched);
    for (int i = 0; i < 40; ++i) ASSERT_TRUE(p.world.addComponent(p.world.create().value(), KVec{1.0f, 0.0f}).ok());
    RollbackSession::Options o;
    o.players = 2;
    o.depth = 10;
    o.maxInputBytes = 4;
    o.checksum = RollbackChecksum::Columns;
    o.combine = &RollbackSession::combineConcatenated;
    o.onConfirmed = [](void* ctx, std::uint64_t, std::uint64_t value) noexcept {
      static_cast<Peer*>(ctx)->confirmed.push_back(value);
    };
    o.onConfirmedContext = &p;
    p.session = RollbackSession::create(p.world, p.sched, o).takeValue();
  };
  Peer inTime, late;
  make(inTime);
  make(late);
  if (::testing::Test::HasFatalFailure()) return;
  auto remote = [](std::uint64_t t) { return static_cast<std::uint8_t>((t * 5) % 3); };
  for (std::uint64_t t = 1; t <= 120; ++t) {
    const std::uint8_t mine = static_cast<std::uint8_t>(t & 1);
    for (Peer* p : {&inTime, &late}) ASSERT_TRUE(p->session.setLocalInput(t, std::span<const std::uint8_t>(&mine, 1)).ok());
    const std::uint8_t r = remote(t);
    ASSERT_TRUE(inTime.session.addRemoteInput(1, t, std::span<const std::uint8_t>(&r, 1)).ok());
    ASSERT_TRUE(inTime.session.advance().ok());
    EXPECT_EQ(inTime.confirmed.back(), columnChecksum(inTime.world, inTime.world.systemTicksRun()));
    if (t > 6) {
      const std::uint8_t old = remote(t - 6);
      ASSERT_TRUE(late.session.addRemoteInput(1, t - 6, std::span<const std::uint8_t>(&old, 1)).ok());
    }
    ASSERT_TRUE(late.session.advance().ok());
  }
  ASSERT_GT(late.session.stats().rollbacks, 0u);
  ASSERT_GE(late.confirmed.size(), 100u);
  for (std::size_t i = 0; i < late.confirmed.size(); ++i) EXPECT_EQ(late.confirmed[i], inTime.confirmed[i]) << i;
}

TEST(ColumnChecksum, AllocatesNothing) {
  World w = makeWorld(300, 5);
  SystemSchedule sched;
  registerAll(w, sched);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(w.addComponent(w.create().value(), KVec{1.0f, 2.0f}).ok());
  const std::vector<std::uint8_t> bytes = snapshotOf(w);
  std::vector<std::uint8_t> ring(bytes.size());
  (void)columnChecksumCached(w, 1);
  ASSERT_TRUE(detail::restoreSnapshot(w, bytes, true).ok());
  test::AllocationWindow window;
  const std::uint64_t cached = columnChecksumCached(w, 1);
  const std::uint64_t scratch = columnChecksum(w, 1);
  const Result<std::uint64_t> fromSnapshot = columnChecksumOfSnapshot(w, bytes);
  const Status written = detail::writeSnapshot(w, ring, false);
  const Status restored = detail::restoreSnapshot(w, ring, true);
  EXPECT_EQ(window.allocations(), 0u);
  EXPECT_EQ(cached, scratch);
  EXPECT_TRUE(fromSnapshot.ok());
  EXPECT_TRUE(written.ok());
  EXPECT_TRUE(restored.ok());
}

}  // namespace
}  // namespace laige
