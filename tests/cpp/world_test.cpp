// world_test.cpp - World entity storage, the stale-handle matrix, the entity-budget
// and churn guardrails, and ownership (docs/entity.md).
#include "laige/world.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "laige/assert.h"
#include "support/counting_allocator.h"
#include "support/log_capture.h"

namespace laige {
namespace {

World makeWorld(std::uint32_t capacity, std::uint32_t churnBudget = kDefaultChurnPerFrameBudget) {
  World::Options o;
  o.capacity = capacity;
  o.churnPerFrameBudget = churnBudget;
  return World::create(o).takeValue();
}

TEST(World, CreateRejectsCapacityAboveTheIdSpace) {
  test::LogCapture logs;
  World::Options o;
  o.capacity = Entity::kMaxEntities + 1;
  auto r = World::create(o);
  ASSERT_TRUE(r.isError());
  EXPECT_EQ(r.error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("ecs", "capacity_invalid"), 1u);
  o.capacity = Entity::kMaxEntities;
  auto full = World::create(o);
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full.value().capacity(), Entity::kMaxEntities);
}

TEST(World, OptionsAreKept) {
  World::Options o;
  o.capacity = 10;
  o.churnPerFrameBudget = 3;
  o.seed = 0x1F055EED;
  o.deterministic = false;
  World w = World::create(o).takeValue();
  EXPECT_EQ(w.options().capacity, 10u);
  EXPECT_EQ(w.options().churnPerFrameBudget, 3u);
  EXPECT_EQ(w.options().seed, 0x1F055EEDu);
  EXPECT_FALSE(w.options().deterministic);
  const World::Options d;
  EXPECT_EQ(d.capacity, 0u);
  EXPECT_EQ(d.churnPerFrameBudget, 256u);
  EXPECT_EQ(d.seed, 0u);
  EXPECT_TRUE(d.deterministic);
}

TEST(World, SlotsAscendFreshThenLifoAndGenerationsStartAtOne) {
  World w = makeWorld(8);
  const Entity a = w.create().value();
  const Entity b = w.create().value();
  const Entity c = w.create().value();
  EXPECT_EQ(a, Entity(0, 1));
  EXPECT_EQ(b, Entity(1, 1));
  EXPECT_EQ(c, Entity(2, 1));
  ASSERT_TRUE(w.destroy(a).ok());
  ASSERT_TRUE(w.destroy(c).ok());
  EXPECT_EQ(w.create().value(), Entity(2, 2));
  EXPECT_EQ(w.create().value(), Entity(0, 2));
  EXPECT_EQ(w.create().value(), Entity(3, 1));
  EXPECT_FALSE(w.isValid(Entity{}));
  EXPECT_FALSE(w.isValid(Entity(0, 0)));
}

TEST(World, BudgetExhausted) {
  test::LogCapture logs;
  World w = makeWorld(2);
  ASSERT_TRUE(w.create().ok());
  ASSERT_TRUE(w.create().ok());
  auto r = w.create();
  ASSERT_TRUE(r.isError());
  EXPECT_EQ(r.error(), ErrorCode::BudgetExhausted);
  EXPECT_EQ(w.entityCount(), 2u);
  World zero = makeWorld(0);
  EXPECT_EQ(zero.create().error(), ErrorCode::BudgetExhausted);
}

TEST(World, CheckAndIsValid) {
  test::LogCapture logs;
  World w = makeWorld(4);
  const Entity e = w.create().value();
  EXPECT_TRUE(w.isValid(e));
  EXPECT_TRUE(w.check(e).ok());
  ASSERT_TRUE(w.destroy(e).ok());
  EXPECT_FALSE(w.isValid(e));
  const Status s = w.check(e);
  ASSERT_TRUE(s.isError());
  EXPECT_EQ(s.error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("ecs", "stale_entity_access"), 1u);
  const auto& rec = logs.sink->records().back();
  EXPECT_EQ(rec.fieldValue("entity_id"), "0");
  EXPECT_EQ(rec.fieldValue("generation"), "1");
  EXPECT_EQ(rec.message.rfind("stale_entity_access | ", 0), 0u);
  // Out of range and never issued.
  EXPECT_EQ(w.check(Entity(3, 1)).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.check(Entity(60000, 1)).error(), ErrorCode::InvalidArgument);
}

TEST(World, StaleCheckWarnsOncePerRateWindow) {
  test::LogCapture logs;
  World w = makeWorld(4);
  const Entity e = w.create().value();
  ASSERT_TRUE(w.destroy(e).ok());
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(w.check(e).isError());
  EXPECT_EQ(logs.count("ecs", "stale_entity_access"), 1u);
  test::LogCapture::advance(5000);
  EXPECT_TRUE(w.check(e).isError());
  EXPECT_EQ(logs.count("ecs", "rate_limited"), 1u);
  EXPECT_EQ(logs.count("ecs", "stale_entity_access"), 2u);
}

#if LAIGE_DEBUG_ASSERTS
TEST(WorldDeathTest, DestroyStaleAssertsInDebug) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  World w = makeWorld(4);
  const Entity e = w.create().value();
  ASSERT_TRUE(w.destroy(e).ok());
  EXPECT_DEATH((void)w.destroy(e), "misuse");
  EXPECT_DEATH((void)w.destroy(Entity(3, 1)), "misuse");
}
#else
TEST(World, DestroyStaleDegradesInRelease) {
  test::LogCapture logs;
  World w = makeWorld(4);
  const Entity e = w.create().value();
  const Entity keep = w.create().value();
  ASSERT_TRUE(w.destroy(e).ok());
  const Status again = w.destroy(e);  // destroy twice
  ASSERT_TRUE(again.isError());
  EXPECT_EQ(again.error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.destroy(Entity(3, 1)).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.destroy(Entity{}).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("ecs", "stale_entity_destroy"), 1u);  // warn-once
  EXPECT_EQ(w.entityCount(), 1u);
  EXPECT_TRUE(w.isValid(keep));
  // The freed slot is handed out exactly once.
  EXPECT_EQ(w.create().value(), Entity(0, 2));
  EXPECT_EQ(w.create().value(), Entity(2, 1));
}
#endif

TEST(World, ClearStalesEveryHandleAndIsIdempotent) {
  World w = makeWorld(8);
  std::vector<Entity> hs;
  for (int i = 0; i < 5; ++i) hs.push_back(w.create().value());
  ASSERT_TRUE(w.destroy(hs[2]).ok());
  ASSERT_TRUE(w.clear().ok());
  EXPECT_EQ(w.entityCount(), 0u);
  for (Entity e : hs) EXPECT_FALSE(w.isValid(e));
  ASSERT_TRUE(w.clear().ok());  // clear twice
  EXPECT_EQ(w.capacity(), 8u);
  // Reusable at once, lowest slots first, with raised generations.
  // (slot 2 was destroyed before the clear, so it is at generation 2 as well).
  EXPECT_EQ(w.create().value(), Entity(0, 2));
  EXPECT_EQ(w.create().value(), Entity(1, 2));
  EXPECT_EQ(w.create().value(), Entity(2, 2));
  EXPECT_EQ(w.create().value(), Entity(3, 2));
  EXPECT_EQ(w.create().value(), Entity(4, 2));
  EXPECT_EQ(w.create().value(), Entity(5, 1));
  EXPECT_EQ(w.stats().totalDestroyed, 5u);
}

TEST(World, StatsAccounting) {
  World w = makeWorld(100);
  std::vector<Entity> hs;
  for (int i = 0; i < 10; ++i) hs.push_back(w.create().value());
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(w.destroy(hs[i]).ok());
  const EntityStats st = w.stats();
  EXPECT_EQ(st.capacity, 100u);
  EXPECT_EQ(st.inUse, 6u);
  EXPECT_EQ(st.peakInUse, 10u);
  EXPECT_EQ(st.totalCreated, 10u);
  EXPECT_EQ(st.totalDestroyed, 4u);
  EXPECT_EQ(st.bytesCapacity, 1100u);
  EXPECT_EQ(st.bytesInUse, 66u);
}

TEST(World, MoveOnlyAndMovedFromIsAValidEmptyWorld) {
  static_assert(!std::is_copy_constructible_v<World>);
  static_assert(std::is_nothrow_move_constructible_v<World>);
  test::LogCapture logs;
  World a = makeWorld(4);
  const Entity e = a.create().value();
  World b(std::move(a));
  EXPECT_TRUE(b.isValid(e));
  // NOLINTBEGIN(bugprone-use-after-move): the moved-from state is the contract.
  EXPECT_FALSE(a.isLive());
  EXPECT_EQ(a.capacity(), 0u);
  EXPECT_EQ(a.entityCount(), 0u);
  EXPECT_FALSE(a.isValid(e));
  EXPECT_EQ(a.create().error(), ErrorCode::BudgetExhausted);
  EXPECT_EQ(a.check(e).error(), ErrorCode::InvalidArgument);
  EXPECT_TRUE(a.clear().ok());
  a.beginFrame();
  EXPECT_EQ(a.guardrailStats().capacity, 0u);
  EXPECT_EQ(a.stats().capacity, 0u);
#if !LAIGE_DEBUG_ASSERTS
  EXPECT_EQ(a.destroy(e).error(), ErrorCode::InvalidArgument);
#endif
  World c;
  c = std::move(b);
  EXPECT_TRUE(c.isValid(e));
  EXPECT_FALSE(b.isValid(e));
  // NOLINTEND(bugprone-use-after-move)
}

TEST(WorldGuardrails, EntityBudgetLevelsFireOncePerLevelPerFrame) {
  test::LogCapture logs;
  World w = makeWorld(8);
  std::vector<Entity> hs;
  for (int i = 0; i < 8; ++i) hs.push_back(w.create().value());
  EXPECT_EQ(logs.count("ecs", "entity_budget_25"), 1u);
  EXPECT_EQ(logs.count("ecs", "entity_budget_50"), 1u);
  EXPECT_EQ(logs.count("ecs", "entity_budget_100"), 1u);
  const auto& rec = logs.sink->records().back();
  EXPECT_EQ(rec.event, "entity_budget_100");
  EXPECT_EQ(rec.fieldValue("entity_count"), "8");
  EXPECT_EQ(rec.fieldValue("capacity"), "8");
  EXPECT_EQ(rec.fieldValue("level"), "100");
  EXPECT_EQ(rec.hasField("advice"), LAIGE_DEBUG_ASSERTS != 0);
  EXPECT_EQ(rec.message,
            "entity_budget_100 | live entities reached 100% of the declared scene budget | the "
            "scene budget is full; the next create() fails with BudgetExhausted | destroy "
            "entities before spawning more, or raise the scene budget through typed "
            "configuration | docs/entity.md#guardrails");
  // Dip and re-cross within the frame: no new warn.
  ASSERT_TRUE(w.destroy(hs.back()).ok());
  hs.back() = w.create().value();
  GuardrailStats g = w.guardrailStats();
  EXPECT_EQ(g.entityBudgetWarns[2], 1u);
  EXPECT_EQ(g.entityBudgetLevel, 100u);
  // Next frame: re-crossing warns again (counted even when the log limiter swallows it).
  w.beginFrame();
  ASSERT_TRUE(w.destroy(hs.back()).ok());
  hs.back() = w.create().value();
  g = w.guardrailStats();
  EXPECT_EQ(g.entityBudgetWarns[0], 1u);
  EXPECT_EQ(g.entityBudgetWarns[1], 1u);
  EXPECT_EQ(g.entityBudgetWarns[2], 2u);
  EXPECT_EQ(g.capacity, 8u);
  EXPECT_EQ(g.entityCount, 8u);
}

TEST(WorldGuardrails, ZeroThresholdsNeverFire) {
  test::LogCapture logs;
  World two = makeWorld(2);
  ASSERT_TRUE(two.create().ok());
  ASSERT_TRUE(two.create().ok());
  EXPECT_EQ(two.guardrailStats().entityBudgetWarns[0], 0u);  // 25% of 2 = 0
  EXPECT_EQ(two.guardrailStats().entityBudgetWarns[1], 1u);
  EXPECT_EQ(two.guardrailStats().entityBudgetWarns[2], 1u);
  World one = makeWorld(1);
  ASSERT_TRUE(one.create().ok());
  EXPECT_EQ(one.guardrailStats().entityBudgetWarns[0], 0u);
  EXPECT_EQ(one.guardrailStats().entityBudgetWarns[1], 0u);
  EXPECT_EQ(one.guardrailStats().entityBudgetWarns[2], 1u);
}

TEST(WorldGuardrails, SeedCapacity2000Thresholds) {
  test::LogCapture logs;
  World w = makeWorld(2000);
  for (int i = 0; i < 499; ++i) ASSERT_TRUE(w.create().ok());
  EXPECT_EQ(w.guardrailStats().entityBudgetLevel, 0u);
  ASSERT_TRUE(w.create().ok());  // 500
  EXPECT_EQ(w.guardrailStats().entityBudgetLevel, 25u);
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(w.create().ok());  // 1000
  EXPECT_EQ(w.guardrailStats().entityBudgetLevel, 50u);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(w.create().ok());  // 2000
  EXPECT_EQ(w.guardrailStats().entityBudgetLevel, 100u);
  EXPECT_EQ(w.create().error(), ErrorCode::BudgetExhausted);
}

TEST(WorldGuardrails, ChurnWarnsOncePerFrameStrictlyAboveBudget) {
  test::LogCapture logs;
  World w = makeWorld(8, /*churnBudget=*/4);
  w.noteChurn(4);
  EXPECT_EQ(w.guardrailStats().churnWarns, 0u);  // == budget is legal
  w.noteChurn();
  EXPECT_EQ(w.guardrailStats().churnWarns, 1u);
  w.noteChurn(10);
  EXPECT_EQ(w.guardrailStats().churnWarns, 1u);  // once per frame
  EXPECT_EQ(w.guardrailStats().frameChurn, 15u);
  EXPECT_EQ(logs.count("ecs", "churn_per_frame"), 1u);
  const auto& rec = logs.sink->records().back();
  EXPECT_EQ(rec.fieldValue("frame_churn"), "5");
  EXPECT_EQ(rec.fieldValue("churn_budget"), "4");
  w.beginFrame();
  EXPECT_EQ(w.guardrailStats().frameChurn, 0u);
  w.noteChurn(5);
  EXPECT_EQ(w.guardrailStats().churnWarns, 2u);
  EXPECT_EQ(w.guardrailStats().churnPerFrameBudget, 4u);
}

TEST(WorldGuardrails, ZeroChurnBudgetDisables) {
  test::LogCapture logs;
  World w = makeWorld(8, 0);
  w.noteChurn(100000);
  EXPECT_EQ(w.guardrailStats().churnWarns, 0u);
  EXPECT_EQ(logs.count("ecs", "churn_per_frame"), 0u);
}

TEST(World, HotPathAllocatesNothing) {
  World w = makeWorld(10000);
  w.beginFrame();
  test::AllocationWindow window;
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 10000; ++i) ASSERT_TRUE(w.create().ok());
    for (std::uint32_t id = 0; id < 10000; ++id) {
      const Entity e = w.handleAt(static_cast<std::uint16_t>(id));
      ASSERT_TRUE(w.check(e).ok());
      ASSERT_TRUE(w.isValid(e));
      ASSERT_TRUE(w.destroy(e).ok());
    }
    w.beginFrame();
    (void)w.guardrailStats();
    (void)w.stats();
  }
  EXPECT_EQ(window.allocations(), 0u) << "create/check/destroy/beginFrame must not allocate";
}

TEST(World, SameOperationsGiveSameHandles) {
  auto run = [] {
    World w = makeWorld(64);
    std::vector<std::uint32_t> out;
    std::vector<Entity> live;
    std::uint32_t x = 12345;
    for (int i = 0; i < 500; ++i) {
      x = x * 1103515245u + 12345u;
      if (live.empty() || (x >> 16) % 3 != 0) {
        auto r = w.create();
        if (r.ok()) {
          live.push_back(r.value());
          out.push_back(r.value().bits());
        }
      } else {
        const std::size_t k = (x >> 8) % live.size();
        EXPECT_TRUE(w.destroy(live[k]).ok());
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      }
    }
    return out;
  };
  EXPECT_EQ(run(), run());
}

TEST(World, GenerationTableBuildsTheLiveHandles) {
  World w = makeWorld(16);
  const std::uint16_t* table = w.generationTable();
  ASSERT_NE(table, nullptr);
  std::vector<Entity> live;
  for (int i = 0; i < 10; ++i) live.push_back(w.create().value());
  ASSERT_TRUE(w.destroy(live[3]).ok());
  ASSERT_TRUE(w.destroy(live[7]).ok());
  const Entity again = w.create().value();  // slot 7 again (LIFO), one generation up
  EXPECT_EQ(again.id(), live[7].id());
  EXPECT_EQ(w.generationTable(), table) << "allocated at creation: stable for the world's lifetime";
  for (std::uint16_t id = 0; id < 10; ++id) {
    const Entity h = w.handleAt(id);
    if (id == 3) {
      EXPECT_FALSE(w.isValid(Entity(id, table[id])));  // a dead slot's entry is its next generation
      continue;
    }
    EXPECT_EQ(Entity(id, table[id]), h) << "slot " << id;
  }
  EXPECT_EQ(table[7], static_cast<std::uint16_t>(live[7].generation() + 1));
  World moved = std::move(w);
  EXPECT_EQ(w.generationTable(), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is defined
  EXPECT_EQ(moved.generationTable(), table);
}

}  // namespace
}  // namespace laige
