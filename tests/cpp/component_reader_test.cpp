// component_reader_test.cpp - World::reader<T> / ComponentReader<T>
// (laige/component_reader.h, docs/archetype.md#readers): equal to
// World::get on random worlds (the model), right across adds, removes,
// destroys, re-creates and archetype growth, nullptr for stale and
// out-of-range handles without a log, the stale reader (an archetype
// created, a restore) asserting in native debug and degrading elsewhere,
// and no allocation.
#include "laige/component_reader.h"

#include <gtest/gtest.h>

#include <vector>

#include "laige/assert.h"
#include "laige/prng.h"
#include "laige/world.h"
#include "support/counting_allocator.h"
#include "support/log_capture.h"

namespace laige {
namespace {

struct RPos {
  float x, y;
};
LAIGE_COMPONENT(RPos, x, y);
struct RVel {
  std::int32_t vx, vy;
};
LAIGE_COMPONENT(RVel, vx, vy);
struct RTag {};
LAIGE_COMPONENT(RTag);
struct RNever {
  std::uint8_t b;
};
LAIGE_COMPONENT(RNever, b);

World makeWorld(std::uint32_t capacity) {
  World::Options o;
  o.capacity = capacity;
  World w = World::create(o).takeValue();
  EXPECT_TRUE(w.registerComponent<RPos>().ok());
  EXPECT_TRUE(w.registerComponent<RVel>().ok());
  EXPECT_TRUE(w.registerComponent<RTag>().ok());
  return w;
}

// Every combination of the three components, so later ops create no archetype.
void createAllArchetypes(World& w) {
  const Entity e = w.create().value();
  for (int mask = 1; mask < 8; ++mask) {
    if (mask & 1) {
      ASSERT_TRUE(w.addComponent(e, RPos{}).ok());
    }
    if (mask & 2) {
      ASSERT_TRUE(w.addComponent(e, RVel{}).ok());
    }
    if (mask & 4) {
      ASSERT_TRUE(w.addComponent(e, RTag{}).ok());
    }
    ASSERT_TRUE(w.removeComponent<RPos>(e).ok());
    ASSERT_TRUE(w.removeComponent<RVel>(e).ok());
    ASSERT_TRUE(w.removeComponent<RTag>(e).ok());
  }
  ASSERT_TRUE(w.destroy(e).ok());
}

TEST(ComponentReader, EqualsWorldGetAcrossChangesThatCreateNoArchetype) {
  for (std::uint64_t round = 0; round < 6; ++round) {
    World w = makeWorld(600);
    createAllArchetypes(w);
    const auto pos = w.reader<RPos>();
    const auto vel = w.reader<RVel>();
    Prng rng(round + 11);
    std::vector<Entity> all;  // live and dead handles
    for (int op = 0; op < 3000; ++op) {
      const std::uint32_t what = rng.next_range(0, 8);
      if (what < 2 || all.empty()) {
        if (auto e = w.create(); e.ok()) all.push_back(e.value());
        continue;
      }
      const Entity e = all[rng.next_range(0, static_cast<std::uint32_t>(all.size()))];
      if (!w.isValid(e)) continue;
      switch (what) {
        case 2: ASSERT_TRUE(w.addComponent(e, RPos{static_cast<float>(op), -1.0f}).ok()); break;
        case 3: ASSERT_TRUE(w.addComponent(e, RVel{op, -op}).ok()); break;
        case 4: ASSERT_TRUE(w.addComponent(e, RTag{}).ok()); break;
        case 5: ASSERT_TRUE(w.removeComponent<RPos>(e).ok()); break;
        case 6: ASSERT_TRUE(w.removeComponent<RTag>(e).ok()); break;
        default: ASSERT_TRUE(w.destroy(e).ok());
      }
      if (op % 250 == 0) (void)w.stateHash(0);  // normalises: rows move
      if (op % 50 != 0) continue;
      ASSERT_TRUE(pos.valid());
      for (const Entity h : all) {
        const RPos* want = static_cast<const World&>(w).get<RPos>(h);
        ASSERT_EQ(pos.get(h), want) << "round " << round << " op " << op;
        ASSERT_EQ(vel.get(h), static_cast<const World&>(w).get<RVel>(h));
        ASSERT_EQ(pos.has(h), w.has<RPos>(h));
      }
    }
  }
}

TEST(ComponentReader, StaleAndOutOfRangeHandlesReadNullWithoutALog) {
  test::LogCapture logs;
  World w = makeWorld(4);
  const Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, RPos{1, 2}).ok());
  const auto pos = w.reader<RPos>();
  EXPECT_EQ(pos.get(e)->y, 2.0f);
  ASSERT_TRUE(w.destroy(e).ok());
  EXPECT_EQ(pos.get(e), nullptr);
  const Entity again = w.create().value();  // the same slot, a new generation
  ASSERT_EQ(again.id(), e.id());
  EXPECT_EQ(pos.get(again), nullptr);  // no RPos yet
  EXPECT_EQ(pos.get(e), nullptr);
  EXPECT_EQ(pos.get(Entity(900, 1)), nullptr);  // past the capacity
  EXPECT_EQ(pos.get(Entity{}), nullptr);
  const auto never = w.reader<RNever>();  // unregistered
  EXPECT_EQ(never.get(again), nullptr);
  World moved;
  EXPECT_EQ(moved.reader<RPos>().get(e), nullptr);
  EXPECT_EQ(logs.count("ecs", "stale_reader"), 0u);
  EXPECT_EQ(logs.count("ecs", "stale_entity_access"), 0u);
}

TEST(ComponentReader, SurvivesColumnGrowth) {
  World w = makeWorld(5000);
  const Entity first = w.create().value();
  ASSERT_TRUE(w.addComponent(first, RPos{7, 8}).ok());
  const auto pos = w.reader<RPos>();
  for (int i = 0; i < 4000; ++i) ASSERT_TRUE(w.addComponent(w.create().value(), RPos{}).ok());
  ASSERT_TRUE(pos.valid());
  ASSERT_EQ(pos.get(first), static_cast<const World&>(w).get<RPos>(first));
  EXPECT_EQ(pos.get(first)->x, 7.0f);
}

#if LAIGE_DEBUG_ASSERTS
TEST(ComponentReaderDeathTest, AStaleReaderAssertsInDebug) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  World w = makeWorld(8);
  const Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, RPos{}).ok());
  const auto pos = w.reader<RPos>();
  ASSERT_TRUE(w.addComponent(e, RVel{}).ok());  // a new archetype {RPos, RVel}
  EXPECT_FALSE(pos.valid());
  EXPECT_DEATH((void)pos.get(e), "misuse");
}
#else
TEST(ComponentReader, AStaleReaderDegradesToNullAndAWarn) {
  test::LogCapture logs;
  World w = makeWorld(8);
  const Entity e = w.create().value();
  const Entity other = w.create().value();
  ASSERT_TRUE(w.addComponent(e, RPos{}).ok());
  ASSERT_TRUE(w.addComponent(other, RPos{}).ok());
  const auto pos = w.reader<RPos>();
  ASSERT_TRUE(pos.valid());
  ASSERT_TRUE(w.addComponent(e, RVel{}).ok());  // a new archetype {RPos, RVel}
  EXPECT_FALSE(pos.valid());
  EXPECT_EQ(pos.get(e), nullptr);
  EXPECT_EQ(logs.count("ecs", "stale_reader"), 1u);
  // A restore replaces archetypes: stale too, even for an old archetype's row.
  std::vector<std::uint8_t> snap(w.snapshotSize());
  ASSERT_TRUE(w.snapshot(snap).ok());
  const auto fresh = w.reader<RPos>();
  ASSERT_NE(fresh.get(other), nullptr);
  ASSERT_TRUE(w.restore(snap).ok());
  if (!fresh.valid()) {
    EXPECT_EQ(fresh.get(other), nullptr);
  }
  EXPECT_NE(w.reader<RPos>().get(other), nullptr);
}
#endif

TEST(ComponentReader, AllocatesNothing) {
  World w = makeWorld(100);
  std::vector<Entity> es;
  for (int i = 0; i < 100; ++i) {
    es.push_back(w.create().value());
    ASSERT_TRUE(w.addComponent(es.back(), RPos{static_cast<float>(i), 0}).ok());
  }
  test::AllocationWindow window;
  const auto pos = w.reader<RPos>();
  float sum = 0;
  for (const Entity e : es) sum += pos.get(e)->x;
  EXPECT_EQ(window.allocations(), 0u);
  EXPECT_EQ(sum, 4950.0f);
}

}  // namespace
}  // namespace laige
