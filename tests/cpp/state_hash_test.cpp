// state_hash_test.cpp - World::stateHash / componentStateHash (docs/entity.md,
// docs/determinism.md#the-state-hash): the empty-world known answer, the stream checked
// against an independent byte-at-a-time reference, sensitivity (tick,
// handle, component byte, archetype, PRNG state), capacity independence,
// convergence equality, NaN canonicalisation and zero allocation. The diff
// contract is in state_diff_test.cpp.
#include "laige/state_hash.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "laige/assert.h"
#include "laige/prng.h"
#include "laige/system.h"
#include "laige/world.h"
#include "support/archetype_order.h"
#include "support/counting_allocator.h"

namespace laige {
namespace {

struct HPos {
  fpx16_16 x, y;
};
LAIGE_COMPONENT(HPos, x, y);
struct HVel {
  std::int32_t vx, vy;
};
LAIGE_COMPONENT(HVel, vx, vy);
struct HOdd {  // 3 bytes: a value that is not a multiple of 8 (or 2)
  std::uint8_t a, b, c;
};
LAIGE_COMPONENT(HOdd, a, b, c);
struct HTag {};
LAIGE_COMPONENT(HTag);
struct HFloat {
  float f;
  std::uint32_t n;
};
LAIGE_COMPONENT(HFloat, f, n);
struct HWide {
  std::uint64_t big;
  std::int16_t s[4];
};
LAIGE_COMPONENT(HWide, big, s);

void drawSystem(World&, SystemContext& ctx) {
  if (ctx.rng != nullptr) (void)ctx.rng->next_u64();
}
void idleSystem(World&, SystemContext&) {}

World makeWorld(std::uint32_t capacity, std::uint64_t seed = 0x5eed, bool deterministic = true) {
  World::Options o;
  o.capacity = capacity;
  o.seed = seed;
  o.deterministic = deterministic;
  return World::create(o).takeValue();
}

void registerAll(World& w) {
  ASSERT_TRUE(w.registerComponent<HPos>().ok());
  ASSERT_TRUE(w.registerComponent<HVel>().ok());
  ASSERT_TRUE(w.registerComponent<HOdd>().ok());
  ASSERT_TRUE(w.registerComponent<HTag>().ok());
  ASSERT_TRUE(w.registerComponent<HFloat>().ok());
  ASSERT_TRUE(w.registerComponent<HWide>().ok());
}

void registerSystems(World& w) {
  SystemDef draw{"Draw", &drawSystem, fpx16_16::one(), nullptr, nullptr};
  SystemDef idle{"Idle", &idleSystem, fpx16_16::one(), nullptr, nullptr};
  ASSERT_TRUE(w.registerSystem(draw).ok());
  ASSERT_TRUE(w.registerSystem(idle).ok());
}

// The stream of state_hash.h, rebuilt from the public API one byte at a
// time: the independent reference the optimised implementation must equal.
std::uint64_t referenceHash(World& w, std::uint64_t tick, bool withSystems) {
  std::uint64_t h = kStateHashFnvBasis;
  h = fnv1a64Word(h, tick);
  h = fnv1a64Word(h, w.entityCount());
  for (std::uint32_t id = 0; id < w.capacity(); ++id) {
    const Entity e = w.handleAt(static_cast<std::uint16_t>(id));
    if (w.isValid(e)) h = fnv1a64Word(h, (std::uint64_t{e.id()} << 16) | e.generation());
  }
  const std::vector<ArchetypeId> order = test::nonEmptyArchetypesInSignatureOrder(w);
  for (const ArchetypeId a : order) {
    const auto comps = w.archetypeComponents(a);
    for (const ComponentTypeId c : comps) h = fnv1a64Word(h, c);
    const std::uint32_t rows = w.archetypeRowCount(a);
    h = fnv1a64Word(h, rows);
    for (std::uint32_t r = 0; r < rows; ++r) {
      for (const ComponentTypeId c : comps) {
        const std::uint32_t size = w.componentInfo(c).value().size;
        if (size == 0) continue;
        h = fnv1a64Bytes(h, w.archetypeColumn(a, c) + std::size_t{r} * size, size);
      }
    }
  }
  if (withSystems) {
    for (std::uint32_t id = 1; id <= w.systemCount(); ++id) {
      const SystemRngState st = w.systemRngState(SystemId{id}).value();
      h = fnv1a64Word(h, id);
      h = fnv1a64Word(h, st.hasSubstream ? 1 : 0);
      h = fnv1a64Word(h, st.seed);
      h = fnv1a64Word(h, st.state1);
      h = fnv1a64Word(h, st.state2);
    }
  }
  return h;
}

TEST(StateHash, EmptyWorldKnownAnswer) {
  // docs/determinism.md#the-state-hash: an empty world hashes as FNV(words [tick, 0]).
  World w = makeWorld(16);
  const std::uint64_t kat0 = fnv1a64Word(fnv1a64Word(kStateHashFnvBasis, 0), 0);
  EXPECT_EQ(kat0, 0x88201fb960ff6465ull);
  EXPECT_EQ(w.stateHash(0), kat0);
  EXPECT_EQ(w.componentStateHash(0), kat0);
  EXPECT_EQ(w.stateHash(7), fnv1a64Word(fnv1a64Word(kStateHashFnvBasis, 7), 0));
  // Registered components without entities add nothing; a moved-from world
  // is an empty world.
  registerAll(w);
  EXPECT_EQ(w.stateHash(0), kat0);
  World moved = std::move(w);
  EXPECT_EQ(w.stateHash(0), kat0);  // NOLINT(bugprone-use-after-move): the documented state
  EXPECT_EQ(World{}.stateHash(0), kat0);
}

TEST(StateHash, OneEntityStreamByHand) {
  World w = makeWorld(4);
  registerAll(w);
  const Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, HVel{-3, 0x01020304}).ok());
  std::uint64_t h = kStateHashFnvBasis;
  for (const std::uint64_t word : {std::uint64_t{5}, std::uint64_t{1}, std::uint64_t{1},  // tick, live, (0 << 16) | 1
                                   std::uint64_t{w.componentId<HVel>()}, std::uint64_t{1}}) {
    h = fnv1a64Word(h, word);
  }
  const std::uint8_t bytes[8] = {0xfd, 0xff, 0xff, 0xff, 0x04, 0x03, 0x02, 0x01};  // little-endian
  h = fnv1a64Bytes(h, bytes, 8);
  EXPECT_EQ(w.componentStateHash(5), h);
  EXPECT_EQ(w.stateHash(5), h);  // no systems
}

TEST(StateHash, MatchesTheByteAtATimeReference) {
  // Random worlds with many zero bytes, odd sizes, tags, several archetypes
  // created out of signature order, destroyed slots and systems: the
  // optimised stream must equal the plain definition bit for bit.
  for (std::uint64_t round = 0; round < 24; ++round) {
    World w = makeWorld(300, round);
    registerAll(w);
    registerSystems(w);
    SystemSchedule sched;
    ASSERT_TRUE(w.scheduleSystems(sched).ok());
    Prng rng(round * 7919 + 1);
    std::vector<Entity> live;
    for (int op = 0; op < 600; ++op) {
      const std::uint32_t what = rng.next_range(0, 10);
      if (what < 3 || live.empty()) {
        if (auto e = w.create(); e.ok()) live.push_back(e.value());
        continue;
      }
      const std::size_t k = rng.next_range(0, static_cast<std::uint32_t>(live.size()));
      const Entity e = live[k];
      // Values skewed towards zero bytes (the stream's fast path).
      auto val = [&] { return rng.next_range(0, 3) == 0 ? 0u : (rng.next_u32() >> rng.next_range(0, 32)); };
      switch (what) {
        case 3: ASSERT_TRUE(w.addComponent(e, HPos{fpx16_16::fromRaw(static_cast<std::int32_t>(val())),
                                                   fpx16_16::fromInt32(static_cast<std::int32_t>(val() % 100))}).ok()); break;
        case 4: ASSERT_TRUE(w.addComponent(e, HVel{static_cast<std::int32_t>(val()), -static_cast<std::int32_t>(val())}).ok()); break;
        case 5: ASSERT_TRUE(w.addComponent(e, HOdd{static_cast<std::uint8_t>(val()), 0, static_cast<std::uint8_t>(val())}).ok()); break;
        case 6: ASSERT_TRUE(w.addComponent(e, HTag{}).ok()); break;
        case 7: ASSERT_TRUE(w.addComponent(e, HWide{std::uint64_t{val()} << 20, {0, static_cast<std::int16_t>(val()), 0, -1}}).ok()); break;
        case 8: ASSERT_TRUE(w.addComponent(e, HFloat{static_cast<float>(val()) * 0.25f, val()}).ok()); break;
        default:
          if (rng.next_range(0, 2) == 0) {
            ASSERT_TRUE(w.removeComponent<HVel>(e).ok());
          } else {
            ASSERT_TRUE(w.destroy(e).ok());
            live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
          }
      }
      if (op % 97 == 0) {
        ASSERT_TRUE(w.runSystems(sched).ok());
      }
    }
    const std::uint64_t tick = rng.next_u64();
    EXPECT_EQ(w.stateHash(tick), referenceHash(w, tick, true)) << "round " << round;
    EXPECT_EQ(w.componentStateHash(tick), referenceHash(w, tick, false)) << "round " << round;
  }
}

TEST(StateHash, TickSensitivity) {
  World w = makeWorld(8);
  registerAll(w);
  ASSERT_TRUE(w.addComponent(w.create().value(), HPos{}).ok());
  EXPECT_NE(w.stateHash(0), w.stateHash(1));
  EXPECT_NE(w.stateHash(1), w.stateHash(std::uint64_t{1} << 40));
  EXPECT_EQ(w.stateHash(3), w.stateHash(3));
}

TEST(StateHash, HandleSensitivity) {
  // Same slot, same bytes, another generation: a different live handle.
  World a = makeWorld(8);
  World b = makeWorld(8);
  const Entity ea = a.create().value();
  const Entity eb0 = b.create().value();
  ASSERT_TRUE(b.destroy(eb0).ok());
  const Entity eb = b.create().value();
  ASSERT_EQ(ea.id(), eb.id());
  ASSERT_NE(ea.generation(), eb.generation());
  EXPECT_NE(a.stateHash(0), b.stateHash(0));
  // Same count, another slot.
  World c = makeWorld(8);
  (void)c.create();
  const Entity c1 = c.create().value();
  ASSERT_TRUE(c.destroy(c.handleAt(0)).ok());
  ASSERT_EQ(c.entityCount(), 1u);
  ASSERT_EQ(c1.id(), 1);
  EXPECT_NE(a.stateHash(0), c.stateHash(0));
}

TEST(StateHash, ComponentByteSensitivity) {
  World w = makeWorld(8);
  registerAll(w);
  const Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, HWide{0, {0, 0, 0, 0}}).ok());
  ASSERT_TRUE(w.addComponent(e, HOdd{0, 0, 0}).ok());
  const std::uint64_t base = w.stateHash(0);
  // Every single bit of every byte matters, zero bytes included.
  for (const ComponentTypeId c : {w.componentId<HWide>(), w.componentId<HOdd>()}) {
    const std::uint32_t size = w.componentInfo(c).value().size;
    auto* bytes = static_cast<std::uint8_t*>(w.getBytes(e, c));
    for (std::uint32_t i = 0; i < size; ++i) {
      for (int bit = 0; bit < 8; ++bit) {
        bytes[i] = static_cast<std::uint8_t>(bytes[i] ^ (1u << bit));
        EXPECT_NE(w.stateHash(0), base) << "component " << c << " byte " << i << " bit " << bit;
        bytes[i] = static_cast<std::uint8_t>(bytes[i] ^ (1u << bit));
      }
    }
  }
  EXPECT_EQ(w.stateHash(0), base);
}

TEST(StateHash, ArchetypeSensitivity) {
  // Same bytes, another component set (a tag adds no bytes).
  World a = makeWorld(8);
  World b = makeWorld(8);
  registerAll(a);
  registerAll(b);
  const Entity ea = a.create().value();
  const Entity eb = b.create().value();
  ASSERT_TRUE(a.addComponent(ea, HPos{}).ok());
  ASSERT_TRUE(b.addComponent(eb, HPos{}).ok());
  EXPECT_EQ(a.stateHash(0), b.stateHash(0));
  ASSERT_TRUE(b.addComponent(eb, HTag{}).ok());
  EXPECT_NE(a.stateHash(0), b.stateHash(0));
  // Same bytes under another component id: {HVel} vs {HPos}, both 8 zero bytes.
  World c = makeWorld(8);
  registerAll(c);
  ASSERT_TRUE(c.addComponent(c.create().value(), HVel{0, 0}).ok());
  EXPECT_NE(a.stateHash(0), c.stateHash(0));
}

TEST(StateHash, PrngStateSensitivityAndTheComponentHashIgnoresIt) {
  World w = makeWorld(8, 0xabc);
  registerAll(w);
  registerSystems(w);
  SystemSchedule sched;
  ASSERT_TRUE(w.scheduleSystems(sched).ok());
  ASSERT_TRUE(w.addComponent(w.create().value(), HPos{}).ok());
  const std::uint64_t full = w.stateHash(0);
  const std::uint64_t comp = w.componentStateHash(0);
  EXPECT_NE(full, comp);  // the system part is in the full hash only
  ASSERT_TRUE(w.runSystems(sched).ok());  // Draw advances its substream
  EXPECT_NE(w.stateHash(0), full);
  EXPECT_EQ(w.componentStateHash(0), comp);
  // Another seed: another substream seed, same components.
  World v = makeWorld(8, 0xabd);
  registerAll(v);
  registerSystems(v);
  ASSERT_TRUE(v.addComponent(v.create().value(), HPos{}).ok());
  EXPECT_NE(v.stateHash(0), full);
  EXPECT_EQ(v.componentStateHash(0), comp);
  // A non-deterministic world hashes its systems as (id, 0, 0, 0, 0).
  World nd = makeWorld(8, 0xabc, false);
  registerAll(nd);
  registerSystems(nd);
  EXPECT_EQ(nd.stateHash(9), referenceHash(nd, 9, true));
  EXPECT_NE(nd.stateHash(9), nd.componentStateHash(9));
}

// Builds one live state: slots 0..3 with fixed components; `variant`
// chooses the history that leads there.
void buildConverged(World& w, int variant) {
  registerAll(w);
  registerSystems(w);
  if (variant == 0) {  // the straight line
    Entity e[4];
    for (auto& x : e) x = w.create().value();
    ASSERT_TRUE(w.addComponent(e[0], HPos{fpx16_16::one(), fpx16_16::zero()}).ok());
    ASSERT_TRUE(w.addComponent(e[0], HVel{1, 2}).ok());
    ASSERT_TRUE(w.addComponent(e[1], HOdd{1, 2, 3}).ok());
    ASSERT_TRUE(w.addComponent(e[2], HPos{fpx16_16::zero(), fpx16_16::one()}).ok());
    ASSERT_TRUE(w.addComponent(e[2], HVel{3, 4}).ok());
    ASSERT_TRUE(w.addComponent(e[3], HVel{5, 6}).ok());
    return;
  }
  // The detour: other archetype creation order, components added in
  // descending slot order (an unsorted tail), a transient entity, removed
  // and re-added components, values overwritten, an extra empty archetype.
  Entity e[5];
  for (auto& x : e) x = w.create().value();
  ASSERT_TRUE(w.addComponent(e[4], HWide{9, {1, 2, 3, 4}}).ok());
  ASSERT_TRUE(w.addComponent(e[3], HVel{5, 6}).ok());
  ASSERT_TRUE(w.addComponent(e[2], HVel{0, 0}).ok());
  ASSERT_TRUE(w.addComponent(e[2], HPos{fpx16_16::zero(), fpx16_16::one()}).ok());
  ASSERT_TRUE(w.addComponent(e[2], HVel{3, 4}).ok());
  ASSERT_TRUE(w.addComponent(e[1], HTag{}).ok());
  ASSERT_TRUE(w.addComponent(e[1], HOdd{1, 2, 3}).ok());
  ASSERT_TRUE(w.removeComponent<HTag>(e[1]).ok());
  ASSERT_TRUE(w.addComponent(e[0], HVel{1, 2}).ok());
  ASSERT_TRUE(w.addComponent(e[0], HPos{fpx16_16::one(), fpx16_16::zero()}).ok());
  ASSERT_TRUE(w.destroy(e[4]).ok());  // slot 4 dead: its generation is not state
}

TEST(StateHash, ConvergedHistoriesHashEqual) {
  World a = makeWorld(16, 42);
  World b = makeWorld(16, 42);
  buildConverged(a, 0);
  buildConverged(b, 1);
  EXPECT_GT(b.archetypeCount(), a.archetypeCount());
  for (std::uint64_t tick : {0ull, 1ull, 600ull}) {
    EXPECT_EQ(a.stateHash(tick), b.stateHash(tick));
    EXPECT_EQ(a.componentStateHash(tick), b.componentStateHash(tick));
  }
  EXPECT_EQ(a.stateDiff(b, 16, [](const StateDiffItem&) {}), 0u);
}

TEST(StateHash, CapacityIndependence) {
  World small = makeWorld(8, 42);
  World large = makeWorld(60000, 42);
  buildConverged(small, 0);
  buildConverged(large, 0);
  EXPECT_EQ(small.stateHash(12), large.stateHash(12));
}

TEST(StateHash, HashingDoesNotChangeTheState) {
  World w = makeWorld(16, 42);
  buildConverged(w, 1);
  const std::uint64_t first = w.stateHash(3);
  EXPECT_EQ(w.stateHash(3), first);
  const ArchetypeStats before = w.archetypeStats();
  EXPECT_EQ(w.stateHash(3), first);
  EXPECT_EQ(w.archetypeStats().totalRowShifts, before.totalRowShifts);  // already normalised
}

TEST(StateHash, AllocatesNothing) {
  World w = makeWorld(2000, 42);
  registerAll(w);
  registerSystems(w);
  for (int i = 0; i < 1500; ++i) ASSERT_TRUE(w.addComponent(w.create().value(), HVel{i, -i}).ok());
  World other = makeWorld(2000, 42);
  registerAll(other);
  registerSystems(other);
  // Dirty archetypes: holes and an unsorted tail, so the hash normalises.
  for (std::uint16_t s = 1400; s > 10; s -= 7) ASSERT_TRUE(w.removeComponent<HVel>(w.handleAt(s)).ok());
  for (std::uint16_t s = 1400; s > 10; s -= 14) ASSERT_TRUE(w.addComponent(w.handleAt(s), HVel{1, 1}).ok());
  test::AllocationWindow window;
  std::uint64_t sink = 0;
  sink ^= w.stateHash(1);
  sink ^= w.componentStateHash(1);
  std::uint32_t seen = 0;
  sink ^= w.stateDiff(other, 64, [&](const StateDiffItem&) { ++seen; });
  EXPECT_EQ(window.allocations(), 0u);
  EXPECT_NE(sink, 0u);
  EXPECT_EQ(seen, 64u);
}

#if !LAIGE_DEBUG_ASSERTS
TEST(StateHash, NanIsCanonicalised) {
  // Release and wasm: any NaN (payload, sign) hashes as the canonical NaN.
  auto hashWith = [](std::uint32_t bits) {
    World w = makeWorld(4);
    registerAll(w);
    HFloat v{};
    std::memcpy(&v.f, &bits, 4);
    v.n = 7;
    EXPECT_TRUE(w.addComponent(w.create().value(), v).ok());
    return w.stateHash(0);
  };
  const std::uint64_t canonical = hashWith(kCanonicalNanF32);
  EXPECT_EQ(hashWith(0x7fc00001u), canonical);
  EXPECT_EQ(hashWith(0xffc00000u), canonical);  // x86's default NaN has the sign bit set
  EXPECT_EQ(hashWith(0x7f800001u), canonical);  // signalling
  EXPECT_NE(hashWith(0x7f800000u), canonical);  // +inf is a number
  EXPECT_NE(hashWith(0x3f800000u), canonical);
}
#elif GTEST_HAS_DEATH_TEST
TEST(StateHashDeathTest, NanAssertsInDebug) {
  World w = makeWorld(4);
  registerAll(w);
  HFloat v{std::numeric_limits<float>::quiet_NaN(), 1};
  ASSERT_TRUE(w.addComponent(w.create().value(), v).ok());
  EXPECT_DEATH((void)w.stateHash(0), "NaN");
}
#endif

}  // namespace
}  // namespace laige
