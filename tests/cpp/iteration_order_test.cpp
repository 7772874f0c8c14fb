// iteration_order_test.cpp - the deterministic visit contract
// (docs/iteration_order.md): ascending archetype id (first-seen order), then ascending slot
// id; each<> in ascending slot id; and the convergence property - two
// histories that reach the same live state (slots, handles, archetype
// assignment, archetype ids, values) visit identically, whatever their
// interleaving, holes, tails and normalisations were.
//
// The scenario: a 20-slot world; entity i takes slot 19 - i (the LIFO free
// list after 20 creates and 20 ascending destroys); 16 entities; the dead set
// is i % 5 == 2; components A, B, C with final sets by i % 4:
// 0 -> {A}, 1 -> {A,C}, 2 -> {B,C}, 3 -> {A,B}. The archetypes are primed in
// one canonical order by entity 0: {A}=1 {A,B}=2 {B}=3 {B,C}=4 {C}=5 {A,C}=6,
// so archetype 2 starts at slot 4, below archetype 1's top slot 19 (groups
// interleave in slot space: never a global slot sort).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "laige/prng.h"
#include "laige/world.h"

namespace laige {
namespace {

struct IoA {
  std::int32_t v;
};
LAIGE_COMPONENT(IoA, v);
struct IoB {
  std::int32_t v;
};
LAIGE_COMPONENT(IoB, v);
struct IoC {
  std::int32_t v, w;
};
LAIGE_COMPONENT(IoC, v, w);

constexpr int kEntities = 16;
constexpr unsigned kA = 1, kB = 2, kC = 4;
// The sets that exist after priming (and the empty set): every walk and
// every noise toggle stays inside them, so no history creates another set.
constexpr unsigned kFamily[] = {0, kA, kA | kB, kB, kB | kC, kC, kA | kC};

unsigned finalSet(int i) {
  static constexpr unsigned kSets[4] = {kA, kA | kC, kB | kC, kA | kB};
  return kSets[i % 4];
}
bool inFamily(unsigned set) {
  return std::find(std::begin(kFamily), std::end(kFamily), set) != std::end(kFamily);
}
bool dead(int i) { return i % 5 == 2; }

std::uint64_t testSeed() {
  const char* env = std::getenv("LAIGE_TEST_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 0) : 0x1F055EEDull;
}

// One visit: (slot, generation, value bytes of the listed components).
struct Visit {
  std::uint32_t slot, generation;
  std::int32_t values[3];
  bool operator==(const Visit&) const = default;
};

struct Scenario {
  World world = World::create(20).takeValue();
  std::vector<Entity> es;

  Scenario() {
    EXPECT_EQ(world.registerComponent<IoA>().value(), 1u);
    EXPECT_EQ(world.registerComponent<IoB>().value(), 2u);
    EXPECT_EQ(world.registerComponent<IoC>().value(), 3u);
    std::vector<Entity> tmp;
    for (int i = 0; i < 20; ++i) tmp.push_back(world.create().value());
    for (Entity e : tmp) EXPECT_TRUE(world.destroy(e).ok());
    for (int i = 0; i < kEntities; ++i) es.push_back(world.create().value());
    // Prime the archetypes in the canonical order (entity 0 walks).
    const Entity e = es[0];
    EXPECT_TRUE(world.addComponent(e, IoA{0}).ok());
    EXPECT_TRUE(world.addComponent(e, IoB{0}).ok());
    EXPECT_TRUE(world.removeComponent<IoA>(e).ok());
    EXPECT_TRUE(world.addComponent(e, IoC{0, 0}).ok());
    EXPECT_TRUE(world.removeComponent<IoB>(e).ok());
    EXPECT_TRUE(world.addComponent(e, IoA{0}).ok());
    EXPECT_TRUE(world.removeComponent<IoC>(e).ok());
    EXPECT_EQ(world.archetypeCount(), 6u);
  }

  unsigned setOf(Entity e) const {
    return (world.has<IoA>(e) ? kA : 0) | (world.has<IoB>(e) ? kB : 0) | (world.has<IoC>(e) ? kC : 0);
  }
  // Toggles component `bit` (with value `v`).
  void toggle(Entity e, unsigned bit, std::int32_t v) {
    const bool has = (setOf(e) & bit) != 0;
    if (bit == kA) {
      EXPECT_TRUE((has ? world.removeComponent<IoA>(e) : world.addComponent(e, IoA{v})).ok());
    }
    if (bit == kB) {
      EXPECT_TRUE((has ? world.removeComponent<IoB>(e) : world.addComponent(e, IoB{v})).ok());
    }
    if (bit == kC) {
      EXPECT_TRUE((has ? world.removeComponent<IoC>(e) : world.addComponent(e, IoC{v, -v})).ok());
    }
  }
  // Moves e to `target` through family sets only: remove extras, then add
  // the missing ones (every single component and every family pair exists).
  void walkTo(Entity e, unsigned target, std::int32_t v) {
    for (unsigned bit : {kC, kB, kA}) {
      if ((setOf(e) & bit) != 0 && (target & bit) == 0) toggle(e, bit, v);
    }
    for (unsigned bit : {kA, kB, kC}) {
      if ((setOf(e) & bit) == 0 && (target & bit) != 0) toggle(e, bit, v);
    }
    EXPECT_EQ(setOf(e), target);
  }
  // Writes entity i's final values.
  void settle(int i) {
    const Entity e = es[i];
    walkTo(e, finalSet(i), 0);
    if (world.has<IoA>(e)) {
      EXPECT_TRUE(world.addComponent(e, IoA{100 + i}).ok());
    }
    if (world.has<IoB>(e)) {
      EXPECT_TRUE(world.addComponent(e, IoB{200 + i}).ok());
    }
    if (world.has<IoC>(e)) {
      EXPECT_TRUE(world.addComponent(e, IoC{300 + i, -i}).ok());
    }
  }

  template <class... Ts>
  std::vector<Visit> visits() {
    std::vector<Visit> out;
    Status s;
    if constexpr (sizeof...(Ts) == 0) {
      s = world.each<>([&](Entity e) { out.push_back(Visit{e.id(), e.generation(), {}}); });
    } else {
      s = world.each<Ts...>([&](Entity e, const Ts&... c) {
        Visit v{e.id(), e.generation(), {}};
        int k = 0;
        ((v.values[k++] = c.v), ...);
        out.push_back(v);
      }, (static_cast<void>(sizeof(Ts)), Read{})...);
    }
    EXPECT_TRUE(s.ok());
    return out;
  }
};

// The serial history: each entity settles in order, then the dead die.
void serialHistory(Scenario& s) {
  for (int i = 0; i < kEntities; ++i) s.settle(i);
  for (int i = 0; i < kEntities; ++i) {
    if (dead(i)) {
      EXPECT_TRUE(s.world.destroy(s.es[i]).ok());
    }
  }
}

// The interleaved history: a PRNG-driven chaos phase (toggles inside the
// family, junk overwrites, ordered reads at random points, deaths at random
// times), then every survivor settles in a random order.
void interleavedHistory(Scenario& s, Prng& rng) {
  std::vector<bool> destroyed(kEntities, false);
  for (int step = 0; step < 400; ++step) {
    const int i = static_cast<int>(rng.next_range(0, kEntities));
    if (destroyed[static_cast<std::size_t>(i)]) continue;
    const Entity e = s.es[static_cast<std::size_t>(i)];
    const std::uint32_t op = rng.next_range(0, 10);
    if (op < 6) {
      const unsigned bit = 1u << rng.next_range(0, 3);
      if (inFamily(s.setOf(e) ^ bit)) s.toggle(e, bit, static_cast<std::int32_t>(rng.next_u32() & 0xFFFF));
    } else if (op < 8) {
      if (s.world.has<IoA>(e)) {
        EXPECT_TRUE(s.world.addComponent(e, IoA{-1}).ok());
      }
    } else if (op == 8) {
      (void)s.visits<IoA>();  // an ordered read mid-history normalises
    } else if (dead(i)) {
      EXPECT_TRUE(s.world.destroy(e).ok());
      destroyed[static_cast<std::size_t>(i)] = true;
    }
  }
  std::vector<int> order;
  for (int i = 0; i < kEntities; ++i) order.push_back(i);
  for (int k = kEntities - 1; k > 0; --k) {
    std::swap(order[static_cast<std::size_t>(k)], order[rng.next_range(0, static_cast<std::uint32_t>(k) + 1)]);
  }
  for (int i : order) {
    if (!dead(i)) s.settle(i);
    else if (!destroyed[static_cast<std::size_t>(i)]) {
      EXPECT_TRUE(s.world.destroy(s.es[static_cast<std::size_t>(i)]).ok());
    }
  }
}

std::vector<std::uint32_t> slots(const std::vector<Visit>& v) {
  std::vector<std::uint32_t> out;
  for (const Visit& x : v) out.push_back(x.slot);
  return out;
}

TEST(IterOrder, DeterministicVisitOrderKAT) {
  Scenario s;
  serialHistory(s);
  // Live: i in 0..15 minus {2, 7, 12}, at slots 19 - i.
  EXPECT_EQ(slots(s.visits<>()), (std::vector<std::uint32_t>{4, 5, 6, 8, 9, 10, 11, 13, 14, 15, 16, 18, 19}));
  // {A}=1: 11 15 19 | {A,B}=2: 4 8 16 | {A,C}=6: 6 10 14 18
  EXPECT_EQ(slots(s.visits<IoA>()), (std::vector<std::uint32_t>{11, 15, 19, 4, 8, 16, 6, 10, 14, 18}));
  EXPECT_EQ((slots(s.visits<IoA, IoB>())), (std::vector<std::uint32_t>{4, 8, 16}));
  // {A,B}=2 | {B}=3 (empty) | {B,C}=4: 5 9 13
  EXPECT_EQ(slots(s.visits<IoB>()), (std::vector<std::uint32_t>{4, 8, 16, 5, 9, 13}));
  // {B,C}=4 | {C}=5 (empty) | {A,C}=6
  EXPECT_EQ(slots(s.visits<IoC>()), (std::vector<std::uint32_t>{5, 9, 13, 6, 10, 14, 18}));
  // Archetype 2 starts at slot 4, below archetype 1's top slot 19.
  EXPECT_EQ(s.world.archetypeSlots(1)[2], 19u);
  EXPECT_EQ(s.world.archetypeSlots(2)[0], 4u);
  // Values and handles: entity 15 (slot 4) is {A,B} with its final values.
  const Visit first = s.visits<IoA, IoB>().front();
  EXPECT_EQ(first, (Visit{4, 2, {115, 215, 0}}));
}

TEST(IterOrder, SerialAndInterleavedHistoriesConverge) {
  Scenario serial;
  serialHistory(serial);
  for (std::uint64_t sub = 1005; sub <= 1007; ++sub) {
    SCOPED_TRACE(::testing::Message() << "LAIGE_TEST_SEED=" << testSeed() << " substream " << sub);
    Prng rng = Prng::deriveSubstream(testSeed(), sub);
    Scenario mixed;
    interleavedHistory(mixed, rng);
    EXPECT_EQ(mixed.world.entityCount(), serial.world.entityCount());
    EXPECT_EQ(mixed.world.archetypeCount(), serial.world.archetypeCount());
    EXPECT_EQ(mixed.visits<>(), serial.visits<>());
    EXPECT_EQ(mixed.visits<IoA>(), serial.visits<IoA>());
    EXPECT_EQ((mixed.visits<IoA, IoB>()), (serial.visits<IoA, IoB>()));
    EXPECT_EQ(mixed.visits<IoB>(), serial.visits<IoB>());
    EXPECT_EQ(mixed.visits<IoC>(), serial.visits<IoC>());
    EXPECT_EQ((mixed.visits<IoC, IoA>()), (serial.visits<IoC, IoA>()));
  }
}

TEST(IterOrder, RandomizedHistoriesConverge) {
  // Many seeds: every interleaving converges to the serial visit sequences.
  Scenario serial;
  serialHistory(serial);
  const auto expectA = serial.visits<IoA>();
  const auto expectB = serial.visits<IoB>();
  const auto expectC = serial.visits<IoC>();
  const auto expectAll = serial.visits<>();
  for (std::uint64_t sub = 1; sub <= 40; ++sub) {
    SCOPED_TRACE(::testing::Message() << "LAIGE_TEST_SEED=" << testSeed() << " substream " << sub);
    Prng rng = Prng::deriveSubstream(testSeed(), 5000 + sub);
    Scenario mixed;
    interleavedHistory(mixed, rng);
    ASSERT_EQ(mixed.visits<IoA>(), expectA);
    ASSERT_EQ(mixed.visits<IoB>(), expectB);
    ASSERT_EQ(mixed.visits<IoC>(), expectC);
    ASSERT_EQ(mixed.visits<>(), expectAll);
  }
}

TEST(IterOrder, OrderIsNotCreationOrderNorValueOrder) {
  World w = World::create(8).takeValue();
  ASSERT_TRUE(w.registerComponent<IoA>().ok());
  std::vector<Entity> es;
  for (int i = 0; i < 5; ++i) es.push_back(w.create().value());
  // Added in descending slot order with descending values: visits ascend by slot.
  for (int i = 4; i >= 0; --i) ASSERT_TRUE(w.addComponent(es[static_cast<std::size_t>(i)], IoA{10 - i}).ok());
  std::vector<std::uint32_t> seen;
  ASSERT_TRUE(w.each<IoA>([&](Entity e, const IoA&) { seen.push_back(e.id()); }, Read{}).ok());
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
}

}  // namespace
}  // namespace laige
