// snapshot_test.cpp - World::snapshot / restore (docs/snapshots.md): round
// trips on the stress and swarm scenarios (tick-for-tick hashes, handles,
// archetype ids), every bad-bytes case leaving the world exactly as it was,
// the callback rule, no allocation, and the golden bytes shared with the
// wasm build and Vitest.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "laige/prng.h"
#include "laige/query_object.h"
#include "laige/snapshot.h"
#include "laige/state_hash.h"
#include "laige/system.h"
#include "laige/world.h"
#include "scenario.h"
#include "support/counting_allocator.h"

namespace laige {
namespace {

struct SnapA {
  std::int32_t v;
};
LAIGE_COMPONENT(SnapA, v);
struct SnapB {
  std::int32_t x, y;
};
LAIGE_COMPONENT(SnapB, x, y);
struct SnapC {
  std::uint16_t k;
};
LAIGE_COMPONENT(SnapC, k);
struct SnapD {
  std::int32_t d;
};
LAIGE_COMPONENT(SnapD, d);

std::vector<std::uint8_t> snap(const World& w) {
  std::vector<std::uint8_t> out(w.snapshotSize());
  const Status s = w.snapshot(out);
  EXPECT_TRUE(s.ok()) << s.reason();
  return out;
}

ScenarioRun runOf(const char* name) {
  const Scenario* sc = findScenario(name);
  EXPECT_NE(sc, nullptr);
  auto r = ScenarioRun::create(*sc, sc->defaultSeed);
  EXPECT_TRUE(r.ok());
  return std::move(r).takeValue();
}

// Snapshot at tick t, run k ticks recording hashes, restore, re-run: the
// same hashes tick for tick and the same bytes at the end.
void roundTrip(const char* name, std::uint32_t t, std::uint32_t k) {
  ScenarioRun run = runOf(name);
  for (std::uint32_t i = 0; i < t; ++i) ASSERT_TRUE(run.step().ok());
  const std::vector<std::uint8_t> at = snap(run.world());
  const std::uint64_t hashAt = run.hash();
  std::vector<std::uint64_t> first;
  for (std::uint32_t i = 0; i < k; ++i) {
    ASSERT_TRUE(run.step().ok());
    first.push_back(run.hash());
  }
  const std::vector<std::uint8_t> end = snap(run.world());
  ASSERT_NE(first.back(), hashAt);
  ASSERT_TRUE(run.world().restore(at).ok());
  EXPECT_EQ(run.tick(), t);
  EXPECT_EQ(run.hash(), hashAt);
  for (std::uint32_t i = 0; i < k; ++i) {
    ASSERT_TRUE(run.step().ok());
    EXPECT_EQ(run.hash(), first[i]) << name << " tick " << t + i + 1;
  }
  EXPECT_EQ(snap(run.world()), end);

  // A fresh world of the same setup restores the bytes too (the cross-world
  // and cross-target path) and continues identically.
  ScenarioRun other = runOf(name);
  ASSERT_TRUE(other.world().restore(at).ok());
  EXPECT_EQ(other.hash(), hashAt);
  for (std::uint32_t i = 0; i < k; ++i) {
    ASSERT_TRUE(other.step().ok());
    EXPECT_EQ(other.hash(), first[i]) << name << " (fresh world) tick " << t + i + 1;
  }
}

TEST(Snapshot, RoundTripStress) { roundTrip("stress", 20, 25); }
TEST(Snapshot, RoundTripSwarm) { roundTrip("swarm", 40, 40); }
TEST(Snapshot, RoundTripEveryScenario) {
  for (std::uint32_t i = 0; i < scenarioCount(); ++i) roundTrip(scenarioAt(i)->name, 7, 9);
}

World smallWorld(std::uint32_t capacity = 64) {
  World::Options o;
  o.capacity = capacity;
  o.seed = 99;
  World w = World::create(o).value();
  EXPECT_TRUE(w.registerComponent<SnapA>().ok());
  EXPECT_TRUE(w.registerComponent<SnapB>().ok());
  EXPECT_TRUE(w.registerComponent<SnapC>().ok());
  EXPECT_TRUE(w.registerComponent<SnapD>().ok());  // unused by churnedWorld: new sets later
  return w;
}

// A small world with a history: freed slots, several archetypes, holes.
World churnedWorld() {
  World w = smallWorld();
  Prng rng(5);
  std::vector<Entity> live;
  for (int i = 0; i < 40; ++i) live.push_back(w.create().value());
  for (int i = 0; i < 200; ++i) {
    const std::uint32_t pick = rng.next_range(0, static_cast<std::uint32_t>(live.size()));
    const Entity e = live[pick];
    switch (rng.next_range(0, 5)) {
      case 0: EXPECT_TRUE(w.addComponent(e, SnapA{static_cast<std::int32_t>(i)}).ok()); break;
      case 1: EXPECT_TRUE(w.addComponent(e, SnapB{i, -i}).ok()); break;
      case 2: EXPECT_TRUE(w.removeComponent<SnapA>(e).ok()); break;
      case 3: EXPECT_TRUE(w.addComponent(e, SnapC{static_cast<std::uint16_t>(i)}).ok()); break;
      default:
        EXPECT_TRUE(w.destroy(e).ok());
        live[pick] = w.create().value();
    }
  }
  for (int i = 0; i < 6; ++i) EXPECT_TRUE(w.destroy(live[static_cast<std::size_t>(i) * 3]).ok());
  return w;
}

TEST(Snapshot, HandlesAndArchetypeIdsAfterRestore) {
  World w = churnedWorld();
  World twin = churnedWorld();
  const std::vector<std::uint8_t> at = snap(w);
  const std::uint32_t archetypes = w.archetypeCount();
  const std::uint64_t epoch = w.structureEpoch();
  // Diverge: new handles and new archetypes ({D}, {C, D}).
  std::vector<Entity> made;
  for (int i = 0; i < 8; ++i) made.push_back(w.create().value());
  ASSERT_TRUE(w.addComponent(made[0], SnapD{1}).ok());
  ASSERT_TRUE(w.addComponent(made[0], SnapC{2}).ok());
  ASSERT_GT(w.archetypeCount(), archetypes);
  ASSERT_TRUE(w.restore(at).ok());
  EXPECT_EQ(w.archetypeCount(), archetypes);
  EXPECT_GT(w.structureEpoch(), epoch);
  EXPECT_EQ(w.stateHash(0), twin.stateHash(0));
  // The same operations after the restore give the same handles and ids as
  // the world that never diverged, in another order than before.
  for (int i = 0; i < 8; ++i) {
    const Entity a = w.create().value();
    const Entity b = twin.create().value();
    EXPECT_EQ(a, b);
    // {A}, then {A, D}: created in another order than the diverged run's.
    ASSERT_TRUE(w.addComponent(a, SnapA{i}).ok());
    ASSERT_TRUE(twin.addComponent(b, SnapA{i}).ok());
    ASSERT_TRUE(w.addComponent(a, SnapD{2}).ok());
    ASSERT_TRUE(twin.addComponent(b, SnapD{2}).ok());
    EXPECT_EQ(w.archetypeOf(a), twin.archetypeOf(b));
  }
  EXPECT_EQ(w.archetypeCount(), archetypes + 1);
  EXPECT_EQ(w.archetypeCount(), twin.archetypeCount());
  for (ArchetypeId id = 1; id <= w.archetypeCount(); ++id) {
    const auto x = w.archetypeComponents(id);
    const auto y = twin.archetypeComponents(id);
    EXPECT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end())) << "archetype " << id;
  }
  EXPECT_EQ(w.stateHash(0), twin.stateHash(0));
  EXPECT_EQ(snap(w), snap(twin));
  EXPECT_EQ(w.stats().totalCreated, twin.stats().totalCreated);
}

// A query object's cache of matched archetype ids notices a restore that
// dropped archetypes (World::structureEpoch): after it, the query visits
// exactly what world.each visits, in the same order, also once the dropped
// ids name other component sets.
TEST(Snapshot, QueryCachesRebuildAfterARestoreChangedTheArchetypes) {
  World w = churnedWorld();
  const std::vector<std::uint8_t> at = snap(w);
  using WithD = Query<Reads<SnapD>>;
  WithD q(w);
  auto visits = [&](auto&& each) {
    std::vector<std::uint32_t> out;
    EXPECT_TRUE(each([&](Entity e, const SnapD& d) { out.push_back(e.bits() ^ static_cast<std::uint32_t>(d.d)); }).ok());
    return out;
  };
  auto viaQuery = [&] { return visits([&](auto fn) { return q.each(w, fn); }); };
  auto viaEach = [&] { return visits([&](auto fn) { return w.each<SnapD>(fn, Read{}); }); };
  const Entity a = w.create().value();
  ASSERT_TRUE(w.addComponent(a, SnapD{1}).ok());  // {D}: a new archetype the cache matches
  ASSERT_EQ(viaQuery().size(), 1u);
  ASSERT_TRUE(w.restore(at).ok());
  EXPECT_TRUE(viaQuery().empty());
  // The dropped id now names {A, D}... then {D} again gets the next id.
  const Entity b = w.create().value();
  ASSERT_TRUE(w.addComponent(b, SnapA{5}).ok());
  ASSERT_TRUE(w.addComponent(b, SnapD{2}).ok());
  const Entity c = w.create().value();
  ASSERT_TRUE(w.addComponent(c, SnapC{5}).ok());
  ASSERT_TRUE(w.addComponent(c, SnapD{3}).ok());
  EXPECT_EQ(viaQuery(), viaEach());
  EXPECT_EQ(viaQuery().size(), 2u);
}

TEST(Snapshot, ClearedWorldAndEmptyWorld) {
  World w = churnedWorld();
  const std::vector<std::uint8_t> full = snap(w);
  const std::uint64_t h = w.stateHash(3);
  ASSERT_TRUE(w.clear().ok());
  const std::vector<std::uint8_t> cleared = snap(w);
  ASSERT_TRUE(w.restore(full).ok());
  EXPECT_EQ(w.stateHash(3), h);
  ASSERT_TRUE(w.restore(cleared).ok());
  EXPECT_EQ(w.entityCount(), 0u);
  EXPECT_EQ(w.create().value().id(), 0u);  // clear()'s free order survives
  World empty = smallWorld();
  const std::vector<std::uint8_t> none = snap(empty);
  ASSERT_TRUE(w.restore(none).ok());
  EXPECT_EQ(w.archetypeCount(), 0u);
  EXPECT_EQ(w.stateHash(0), empty.stateHash(0));
  EXPECT_EQ(snap(w), none);
}

// --- Bad bytes: each leaves the world exactly as it was -------------------

struct Before {
  std::uint64_t hash;
  std::vector<std::uint8_t> bytes;
};
Before before(const World& w) { return Before{w.stateHash(1), snap(w)}; }
void expectUnchanged(const World& w, const Before& b, const char* what) {
  EXPECT_EQ(w.stateHash(1), b.hash) << what;
  EXPECT_EQ(snap(w), b.bytes) << what;
}
void reseal(std::vector<std::uint8_t>& b) {
  const std::uint64_t c = snapshotChecksum(b);
  std::memcpy(b.data() + kSnapshotChecksumOffset, &c, 8);
}

TEST(SnapshotBadBytes, TruncatedAtEveryLength) {
  World src = churnedWorld();
  const std::vector<std::uint8_t> good = snap(src);
  World w = smallWorld();
  ASSERT_TRUE(w.addComponent(w.create().value(), SnapA{7}).ok());
  const Before b = before(w);
  for (std::size_t n = 0; n < good.size(); ++n) {
    const Status s = w.restore(std::span<const std::uint8_t>(good.data(), n));
    ASSERT_FALSE(s.ok());
    EXPECT_STREQ(s.reason(), "snapshot_truncated") << n;
    EXPECT_EQ(s.error(), ErrorCode::MalformedInput);
  }
  expectUnchanged(w, b, "truncated");
}

TEST(SnapshotBadBytes, EveryBitFlip) {
  World src = churnedWorld();
  const std::vector<std::uint8_t> good = snap(src);
  World w = smallWorld();
  const Before b = before(w);
  for (std::size_t i = 0; i < good.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::vector<std::uint8_t> bad = good;
      bad[i] ^= static_cast<std::uint8_t>(1u << bit);
      const Status s = w.restore(bad);
      ASSERT_FALSE(s.ok()) << "byte " << i << " bit " << bit;
      const std::string r = s.reason();
      EXPECT_TRUE(r == "snapshot_corrupt" || r == "snapshot_version" || r == "snapshot_truncated" ||
                  r == "snapshot_trailing_bytes" || r == "snapshot_setup_mismatch")
          << r;
    }
  }
  expectUnchanged(w, b, "bit flips");
}

TEST(SnapshotBadBytes, ResealedMutationsNeverHalfApply) {
  // Mutations the checksum no longer catches: the structural checks must.
  World src = churnedWorld();
  const std::vector<std::uint8_t> good = snap(src);
  World w = smallWorld();
  const Before b = before(w);
  Prng rng(11);
  std::uint32_t rejected = 0;
  for (int round = 0; round < 4000; ++round) {
    std::vector<std::uint8_t> bad = good;
    const std::uint32_t at = rng.next_range(40, static_cast<std::uint32_t>(bad.size()));
    bad[at] = static_cast<std::uint8_t>(rng.next_u32());
    reseal(bad);
    const Status s = w.restore(bad);
    if (s.ok()) {
      // Accepted (component bytes are free data): the world is then exactly
      // the mutated state. Put the baseline back.
      EXPECT_EQ(snap(w), bad);
      ASSERT_TRUE(w.restore(b.bytes).ok());
      continue;
    }
    ++rejected;
    EXPECT_STREQ(s.reason(), at < 64 ? s.reason() : "snapshot_corrupt") << at;
    ASSERT_EQ(w.stateHash(1), b.hash) << "offset " << at;
  }
  EXPECT_GT(rejected, 1000u);
  expectUnchanged(w, b, "resealed mutations");
}

// Targeted structural damage behind a valid checksum: each names its check.
TEST(SnapshotBadBytes, StructuralChecksNameTheirCause) {
  World src = churnedWorld();
  const std::vector<std::uint8_t> good = snap(src);
  std::uint32_t high = 0, freeCount = 0, systems = 0;
  std::memcpy(&high, good.data() + 56, 4);
  std::memcpy(&freeCount, good.data() + 60, 4);
  std::memcpy(&systems, good.data() + 48, 4);
  ASSERT_GT(freeCount, 1u);
  const std::size_t gens = 64 + 48 + std::size_t{systems} * 32;
  const std::size_t living = gens + ((std::size_t{high} * 2 + 7) & ~std::size_t{7});
  const std::size_t freed = living + ((std::size_t{high} + 7) & ~std::size_t{7});
  World w = smallWorld();
  const Before b = before(w);
  struct Case {
    const char* what;
    void (*edit)(std::vector<std::uint8_t>&, std::size_t gens, std::size_t living, std::size_t freed);
  };
  const Case cases[] = {
      {"generation", [](auto& v, std::size_t g, std::size_t, std::size_t) { v[g + 6] = v[g + 7] = 0; }},
      {"living_flag", [](auto& v, std::size_t, std::size_t l, std::size_t) { v[l + 3] = 2; }},
      {"free_list", [](auto& v, std::size_t, std::size_t, std::size_t f) {  // a duplicate entry
         v[f + 2] = v[f];
         v[f + 3] = v[f + 1];
       }},
      {"live_count", [](auto& v, std::size_t, std::size_t, std::size_t) { v[64 + 24] ^= 1; }},
      {"archetype_count", [](auto& v, std::size_t, std::size_t, std::size_t) { v[53] = 9; }},
  };
  for (const Case& c : cases) {
    std::vector<std::uint8_t> bad = good;
    c.edit(bad, gens, living, freed);
    reseal(bad);
    const Status s = w.restore(bad);
    EXPECT_STREQ(s.reason(), "snapshot_corrupt") << c.what;
    EXPECT_STREQ(s.fieldValue("what"), c.what);
    EXPECT_EQ(s.error(), ErrorCode::MalformedInput);
  }
  expectUnchanged(w, b, "structural");
}

// The padding bytes of a snapshot of smallWorld's setup, walked from the
// documented layout (docs/snapshots.md#format): [offset, offset + n) each.
std::vector<std::pair<std::size_t, std::size_t>> paddingOf(const std::vector<std::uint8_t>& s) {
  const std::size_t componentSize[] = {4, 8, 2, 4};  // SnapA, SnapB, SnapC, SnapD
  auto u32 = [&](std::size_t at) { std::uint32_t v = 0; std::memcpy(&v, s.data() + at, 4); return std::size_t{v}; };
  auto u16 = [&](std::size_t at) { std::uint16_t v = 0; std::memcpy(&v, s.data() + at, 2); return std::size_t{v}; };
  std::vector<std::pair<std::size_t, std::size_t>> out{{64 + 40, 8}};  // the counters' reserved bytes
  std::size_t at = 64 + 48 + u32(48) * 32;
  auto section = [&](std::size_t used) {
    const std::size_t padded = (used + 7) & ~std::size_t{7};
    if (padded > used) out.emplace_back(at + used, padded - used);
    at += padded;
  };
  section(u32(56) * 2);  // generations
  section(u32(56));      // living flags
  section(u32(60) * 2);  // free list
  for (std::size_t i = 0, n = u32(52); i < n; ++i) {
    const std::size_t count = u32(at), rows = u32(at + 4), sig = at + 8;
    at += 8;
    section(count * 2);
    section(rows * 2);
    for (std::size_t k = 0; k < count; ++k) section(rows * componentSize[u16(sig + 2 * k) - 1]);
  }
  EXPECT_EQ(at, s.size());
  return out;
}

// Every padding byte must be zero: one that is not is refused as "padding"
// (also where a section's padding is 1..7 bytes long in every section kind).
TEST(SnapshotBadBytes, EveryNonZeroPaddingByteIsRefused) {
  World odd = smallWorld();  // 3 slots: the generation and living sections end unaligned
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(odd.addComponent(odd.create().value(), SnapC{7}).ok());
  World w = smallWorld();
  const Before b = before(w);
  std::size_t checked = 0;
  for (const std::vector<std::uint8_t>& good : {snap(churnedWorld()), snap(odd)}) {
    for (const auto& [from, n] : paddingOf(good)) {
      for (std::size_t at = from; at < from + n; ++at) {
        std::vector<std::uint8_t> bad = good;
        bad[at] = 0x01;
        reseal(bad);
        const Status s = w.restore(bad);
        EXPECT_STREQ(s.reason(), "snapshot_corrupt") << at;
        EXPECT_STREQ(s.fieldValue("what"), "padding") << at;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 60u);
  expectUnchanged(w, b, "padding");
}

TEST(SnapshotBadBytes, VersionSetupTrailingAndMagic) {
  World src = churnedWorld();
  std::vector<std::uint8_t> good = snap(src);
  World w = churnedWorld();
  ASSERT_TRUE(w.destroy(w.handleAt(1)).ok());
  const Before b = before(w);

  std::vector<std::uint8_t> v2 = good;
  v2[8] = 3;  // versions 1 and 2 are read (docs/changes.md#snapshots)
  Status s = w.restore(v2);
  EXPECT_STREQ(s.reason(), "snapshot_version");
  EXPECT_EQ(s.error(), ErrorCode::InvalidArgument);

  std::vector<std::uint8_t> trailing = good;
  trailing.push_back(0);
  s = w.restore(trailing);
  EXPECT_STREQ(s.reason(), "snapshot_trailing_bytes");
  EXPECT_EQ(s.error(), ErrorCode::MalformedInput);

  std::vector<std::uint8_t> magic = good;
  magic[0] = 'X';
  EXPECT_STREQ(w.restore(magic).reason(), "snapshot_corrupt");

  // Another setup: a world with one more component, other capacity, a system.
  World more = smallWorld();
  ComponentDesc d;
  const ComponentField fields[] = {{"d", FieldKind::I32, 1, 0}};
  d.name = "SnapE";
  d.size = 4;
  d.alignment = 4;
  d.fields = fields;
  ASSERT_TRUE(more.registerComponentDesc(d).ok());
  s = w.restore(snap(more));
  EXPECT_STREQ(s.reason(), "snapshot_setup_mismatch");
  EXPECT_EQ(s.error(), ErrorCode::InvalidArgument);
  s = w.restore(snap(smallWorld(65)));
  EXPECT_STREQ(s.reason(), "snapshot_setup_mismatch");
  ASSERT_NE(s.fieldCount(), 0u);
  World withSystem = smallWorld();
  SystemDef def;
  def.name = "Noop";
  def.run = [](World&, SystemContext&) {};
  def.budgetMs = fpx16_16::fromInt32(1);
  ASSERT_TRUE(withSystem.registerSystem(def, nullptr, 0).ok());
  EXPECT_STREQ(w.restore(snap(withSystem)).reason(), "snapshot_setup_mismatch");
  // Same counts, other layout: SnapA's field renamed.
  World renamed = World::create(64).value();
  const ComponentField other[] = {{"w", FieldKind::I32, 1, 0}};
  ComponentDesc a;
  a.name = "SnapA";
  a.size = 4;
  a.alignment = 4;
  a.fields = other;
  ASSERT_TRUE(renamed.registerComponentDesc(a).ok());
  ASSERT_TRUE(renamed.registerComponent<SnapB>().ok());
  ASSERT_TRUE(renamed.registerComponent<SnapC>().ok());
  ASSERT_TRUE(renamed.registerComponent<SnapD>().ok());
  s = w.restore(snap(renamed));
  EXPECT_STREQ(s.reason(), "snapshot_setup_mismatch");

  expectUnchanged(w, b, "version/setup/trailing/magic");
}

TEST(Snapshot, BufferTooSmallWritesNothing) {
  World w = churnedWorld();
  std::vector<std::uint8_t> buf(w.snapshotSize() - 1, 0xAB);
  const Status s = w.snapshot(buf);
  EXPECT_EQ(s.error(), ErrorCode::BudgetExhausted);
  EXPECT_STREQ(s.reason(), "snapshot_buffer_too_small");
  for (const std::uint8_t x : buf) ASSERT_EQ(x, 0xAB);
  World moved;
  EXPECT_STREQ(moved.snapshot(buf).reason(), "world_moved_from");
  EXPECT_STREQ(moved.restore(buf).reason(), "world_moved_from");
  EXPECT_EQ(moved.snapshotSize(), 0u);
}

TEST(Snapshot, RestoreInsideCallbackRefused) {
  World w = churnedWorld();
  const std::vector<std::uint8_t> at = snap(w);
  ASSERT_TRUE(w.addComponent(w.create().value(), SnapA{1}).ok());
  const std::uint64_t h = w.stateHash(0);
  int calls = 0;
  ASSERT_TRUE(w.each<SnapA>(
                   [&](Entity, SnapA&) {
                     if (calls++ != 0) return;
                     const Status s = w.restore(at);
                     EXPECT_STREQ(s.reason(), "restore_inside_callback");
                     EXPECT_EQ(s.error(), ErrorCode::InvalidArgument);
                   },
                   Write{})
                  .ok());
  EXPECT_EQ(w.stateHash(0), h);
  std::string inDefer;
  ASSERT_TRUE(w.defer([&](CommandBuffer&) {
                 const Status s = w.restore(at);
                 inDefer = std::string(s.reason()) + "/" + s.fieldValue("inside");
               }).ok());
  EXPECT_EQ(inDefer, "restore_inside_callback/defer");
  EXPECT_EQ(w.stateHash(0), h);

  struct Ctx {
    const std::vector<std::uint8_t>* bytes;
    std::string reason;
  };
  static Ctx ctx;
  ctx = Ctx{&at, {}};
  SystemDef def;
  def.name = "Restorer";
  def.run = [](World& world, SystemContext&) { ctx.reason = world.restore(*ctx.bytes).reason(); };
  def.budgetMs = fpx16_16::fromInt32(100);
  World sys = smallWorld();
  ASSERT_TRUE(sys.registerSystem(def, nullptr, 0).ok());
  SystemSchedule sched;
  ASSERT_TRUE(sys.scheduleSystems(sched).ok());
  const std::vector<std::uint8_t> own = snap(sys);
  ctx.bytes = &own;
  ASSERT_TRUE(sys.runSystems(sched).ok());
  EXPECT_EQ(ctx.reason, "restore_inside_callback");
  EXPECT_EQ(sys.systemTicksRun(), 1u);
  ASSERT_TRUE(sys.restore(own).ok());  // outside the run: fine
  EXPECT_EQ(sys.systemTicksRun(), 0u);
}

TEST(Snapshot, SnapshotAllocatesNothingRestoreNothingWhenTheSetsAgree) {
  ScenarioRun run = runOf("stress");
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(run.step().ok());
  std::vector<std::uint8_t> buf(run.world().snapshotSize());
  {
    const test::AllocationWindow window;
    ASSERT_TRUE(run.world().snapshot(buf).ok());
    EXPECT_EQ(window.allocations(), 0u);
  }
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(run.step().ok());
  {
    const test::AllocationWindow window;
    ASSERT_TRUE(run.world().restore(buf).ok());
    EXPECT_EQ(window.allocations(), 0u);
  }
}

// --- The golden bytes (shared with the wasm gtest and Vitest) ------------

std::vector<std::uint8_t> readBytes(const std::string& path) {
  std::vector<std::uint8_t> out;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return out;
  int c = 0;
  while ((c = std::fgetc(f)) != EOF) out.push_back(static_cast<std::uint8_t>(c));
  std::fclose(f);
  return out;
}

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

TEST(SnapshotGolden, SwarmAtTick60IsTheSameBytesOnEveryTarget) {
  const std::string dir = std::string(LAIGE_SOURCE_DIR) + "/tests/golden/";
  ScenarioRun run = runOf("swarm");
  for (int i = 0; i < 60; ++i) ASSERT_TRUE(run.step().ok());
  const std::vector<std::uint8_t> bytes = snap(run.world());
  const std::string line = hex64(fnv1a64Bytes(kStateHashFnvBasis, bytes.data(), bytes.size())) + " " +
                           std::to_string(bytes.size());
  if (std::getenv("LAIGE_MINT_SNAPSHOT_GOLDEN") != nullptr) {
    std::FILE* f = std::fopen((dir + "snapshot_swarm_t60.fnv").c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fprintf(f, "%s\n", line.c_str());
    std::fclose(f);
    f = std::fopen((dir + "snapshot_swarm_t60.bin").c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
  const std::vector<std::uint8_t> golden = readBytes(dir + "snapshot_swarm_t60.bin");
  const std::vector<std::uint8_t> text = readBytes(dir + "snapshot_swarm_t60.fnv");
  ASSERT_FALSE(golden.empty()) << "mint with LAIGE_MINT_SNAPSHOT_GOLDEN=1 (native)";
  EXPECT_EQ(std::string(text.begin(), text.end()), line + "\n");
  EXPECT_EQ(bytes, golden);

  // The golden bytes restore into a fresh run and continue the golden stream.
  ScenarioRun fresh = runOf("swarm");
  const std::uint64_t tickZero = fresh.hash();
  std::vector<std::uint8_t> bad = golden;
  bad.back() ^= 1;
  EXPECT_STREQ(fresh.world().restore(bad).reason(), "snapshot_corrupt");
  EXPECT_EQ(fresh.hash(), tickZero);
  ASSERT_TRUE(fresh.world().restore(golden).ok());
  EXPECT_EQ(fresh.tick(), 60u);
  EXPECT_EQ(fresh.hash(), run.hash());
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(run.step().ok());
    ASSERT_TRUE(fresh.step().ok());
    ASSERT_EQ(fresh.hash(), run.hash()) << "tick " << fresh.tick();
  }
}

}  // namespace
}  // namespace laige
