// archetype_test.cpp - archetype SoA storage (docs/archetype.md,
// component parts): has/get/add/remove, archetype ids, the deferred slot
// ordering, growth, the limits, churn, destroy/clear detaches, stats,
// the untyped and column APIs, and the steady-state zero-allocation churn.
#include "laige/archetype.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "laige/assert.h"
#include "laige/world.h"
#include "support/counting_allocator.h"
#include "support/log_capture.h"

namespace laige {
namespace {

struct Pos {
  float x, y;
};
LAIGE_COMPONENT(Pos, x, y);
struct Vel {
  float x, y;
};
LAIGE_COMPONENT(Vel, x, y);
struct Hp {
  std::int32_t v;
};
LAIGE_COMPONENT(Hp, v);
struct Tag {};
LAIGE_COMPONENT(Tag);
struct Unreg {
  std::int32_t v;
};
LAIGE_COMPONENT(Unreg, v);

World makeWorld(std::uint32_t capacity, std::uint32_t churn = 0) {
  World::Options o;
  o.capacity = capacity;
  o.churnPerFrameBudget = churn;
  World w = World::create(o).takeValue();
  EXPECT_EQ(w.registerComponent<Pos>().value(), 1u);
  EXPECT_EQ(w.registerComponent<Vel>().value(), 2u);
  EXPECT_EQ(w.registerComponent<Hp>().value(), 3u);
  EXPECT_EQ(w.registerComponent<Tag>().value(), 4u);
  return w;
}

std::vector<std::uint32_t> slotsOf(World& w, ArchetypeId a) {
  const std::uint32_t* s = w.archetypeSlots(a);
  return std::vector<std::uint32_t>(s, s + w.archetypeRowCount(a));
}

TEST(Archetype, AddGetHasRemove) {
  World w = makeWorld(8);
  const Entity e = w.create().value();
  EXPECT_FALSE(w.has<Pos>(e));
  EXPECT_EQ(w.get<Pos>(e), nullptr);
  EXPECT_EQ(w.archetypeOf(e), kNoArchetype);
  ASSERT_TRUE(w.addComponent(e, Pos{1, 2}).ok());
  ASSERT_TRUE(w.has<Pos>(e));
  EXPECT_EQ(w.get<Pos>(e)->x, 1.0f);
  EXPECT_EQ(w.archetypeOf(e), 1u);
  // Create-or-update: an overwrite stays in place.
  ASSERT_TRUE(w.addComponent(e, Pos{3, 4}).ok());
  EXPECT_EQ(w.get<Pos>(e)->y, 4.0f);
  EXPECT_EQ(w.archetypeCount(), 1u);
  ASSERT_TRUE(w.addComponent(e, Vel{5, 6}).ok());
  EXPECT_EQ(w.archetypeOf(e), 2u);
  EXPECT_EQ(w.get<Pos>(e)->x, 3.0f);  // shared components travel with the row
  EXPECT_EQ(w.get<Vel>(e)->x, 5.0f);
  const World& cw = w;
  EXPECT_EQ(cw.get<Vel>(e)->y, 6.0f);
  ASSERT_TRUE(w.removeComponent<Pos>(e).ok());
  EXPECT_FALSE(w.has<Pos>(e));
  EXPECT_EQ(w.archetypeOf(e), 3u);  // {Vel}: a new set, a new id
  EXPECT_EQ(w.get<Vel>(e)->y, 6.0f);
  ASSERT_TRUE(w.removeComponent<Pos>(e).ok());  // absent: a no-op ok
  ASSERT_TRUE(w.removeComponent<Vel>(e).ok());
  EXPECT_EQ(w.archetypeOf(e), kNoArchetype);
  EXPECT_EQ(w.archetypeCount(), 3u);  // archetypes are never destroyed
  EXPECT_EQ(w.archetypeStats().rowsLive, 0u);
}

TEST(Archetype, IdsFollowFirstSightingNotRegistration) {
  World w = makeWorld(8);
  const Entity a = w.create().value();
  ASSERT_TRUE(w.addComponent(a, Hp{1}).ok());   // {Hp} = 1
  ASSERT_TRUE(w.addComponent(a, Pos{}).ok());   // {Pos, Hp} = 2
  const Entity b = w.create().value();
  ASSERT_TRUE(w.addComponent(b, Pos{}).ok());   // {Pos} = 3
  ASSERT_TRUE(w.addComponent(b, Hp{2}).ok());   // {Pos, Hp} again = 2
  EXPECT_EQ(w.archetypeOf(a), 2u);
  EXPECT_EQ(w.archetypeOf(b), 2u);
  EXPECT_EQ(w.archetypeCount(), 3u);
  const auto sig = w.archetypeComponents(2);
  ASSERT_EQ(sig.size(), 2u);
  EXPECT_EQ(sig[0], 1u);  // ascending component ids
  EXPECT_EQ(sig[1], 3u);
  EXPECT_TRUE(w.archetypeComponents(0).empty());
  EXPECT_TRUE(w.archetypeComponents(9).empty());
}

TEST(Archetype, TagsAreStoredWithSizeZero) {
  World w = makeWorld(8);
  const Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, Tag{}).ok());
  EXPECT_TRUE(w.has<Tag>(e));
  EXPECT_NE(w.get<Tag>(e), nullptr);
  ASSERT_TRUE(w.addComponent(e, Pos{1, 1}).ok());
  EXPECT_TRUE(w.has<Tag>(e));
  // {Tag}: 10 rows x (0 + 4 slot bytes); {Pos, Tag}: 10 rows x (8 + 4).
  EXPECT_EQ(w.archetypeStats().rowsReserved, 20u);  // capacity 8 -> row cap 10
  EXPECT_EQ(w.archetypeStats().bytesReserved, 10u * 4u + 10u * 12u);
}

TEST(Archetype, RowsAreVisitedInAscendingSlotOrderAfterAnyHistory) {
  World w = makeWorld(64);
  std::vector<Entity> es;
  for (int i = 0; i < 40; ++i) es.push_back(w.create().value());
  // Descending adds: every add appends below the previous slot.
  for (int i = 39; i >= 0; --i) ASSERT_TRUE(w.addComponent(es[i], Pos{float(i), 0}).ok());
  std::vector<std::uint32_t> expect;
  for (std::uint32_t i = 0; i < 40; ++i) expect.push_back(i);
  EXPECT_EQ(slotsOf(w, 1), expect);
  // Holes and an interleaved tail.
  for (int i = 0; i < 40; i += 3) ASSERT_TRUE(w.addComponent(es[i], Vel{}).ok());
  for (int i = 0; i < 40; i += 6) ASSERT_TRUE(w.removeComponent<Vel>(es[i]).ok());
  std::vector<std::uint32_t> inPos;
  std::vector<std::uint32_t> inBoth;
  for (std::uint32_t i = 0; i < 40; ++i) (i % 3 == 0 && i % 6 != 0 ? inBoth : inPos).push_back(i);
  EXPECT_EQ(slotsOf(w, 1), inPos);
  EXPECT_EQ(slotsOf(w, 2), inBoth);
  for (std::uint32_t i = 0; i < 40; ++i) EXPECT_EQ(w.get<Pos>(es[i])->x, float(i));
  EXPECT_GT(w.archetypeStats().totalRowShifts, 0u);
}

TEST(Archetype, GrowthIsLoggedAndCappedAtCapacityPlusAQuarter) {
  test::LogCapture logs;
  World w = makeWorld(100);
  EXPECT_EQ(logs.count("ecs", "archetype_created"), 0u);
  std::vector<Entity> es;
  for (int i = 0; i < 100; ++i) {
    es.push_back(w.create().value());
    ASSERT_TRUE(w.addComponent(es.back(), Hp{i}).ok());
  }
  ASSERT_EQ(logs.count("ecs", "archetype_created"), 1u);
  const auto& created = logs.sink->records().front();
  EXPECT_EQ(created.event, "archetype_created");
  EXPECT_EQ(created.fieldValue("archetype_id"), "1");
  EXPECT_EQ(created.fieldValue("components"), "1");
  // 16 -> 32 -> 64 -> 125 (capacity + capacity / 4).
  EXPECT_EQ(logs.count("ecs", "archetype_grow"), 3u);
  const log::CaptureSink::Captured* growPtr = nullptr;
  for (const auto& r : logs.sink->records()) {
    if (r.event == "archetype_grow") growPtr = &r;
  }
  ASSERT_NE(growPtr, nullptr);
  const auto& grow = *growPtr;
  EXPECT_EQ(grow.fieldValue("archetype_id"), "1");
  EXPECT_EQ(grow.fieldValue("rows"), "125");
  EXPECT_EQ(grow.fieldValue("components"), "1");
  ArchetypeStats st = w.archetypeStats();
  EXPECT_EQ(st.rowsReserved, 125u);
  EXPECT_EQ(st.totalArchetypeGrowth, 3u);
  EXPECT_EQ(st.totalReservations, 4u);
  // Churn at the cap compacts instead of growing.
  for (int round = 0; round < 5; ++round) {
    for (Entity e : es) ASSERT_TRUE(w.addComponent(e, Tag{}).ok());
    for (Entity e : es) ASSERT_TRUE(w.removeComponent<Tag>(e).ok());
  }
  st = w.archetypeStats();
  EXPECT_EQ(st.rowsLive, 100u);
  for (std::size_t i = 0; i < es.size(); ++i) EXPECT_EQ(w.get<Hp>(es[i])->v, static_cast<int>(i));
  EXPECT_LE(st.rowsReserved, 250u);
}

TEST(Archetype, StatsAndChurnFollowTheG_R4Rules) {
  test::LogCapture logs;
  World w = makeWorld(16, /*churn=*/3);
  const Entity a = w.create().value();
  const Entity b = w.create().value();
  w.beginFrame();
  ASSERT_TRUE(w.addComponent(a, Pos{}).ok());       // add: churn 1
  ASSERT_TRUE(w.addComponent(a, Pos{1, 1}).ok());   // overwrite: churn 2
  ASSERT_TRUE(w.removeComponent<Vel>(a).ok());      // no-op: not churn
  ASSERT_TRUE(w.addComponent(b, Vel{}).ok());       // churn 3
  EXPECT_EQ(w.guardrailStats().frameChurn, 3u);
  EXPECT_EQ(logs.count("ecs", "churn_per_frame"), 0u);
  ASSERT_TRUE(w.removeComponent<Vel>(b).ok());      // churn 4 > 3: warn
  EXPECT_EQ(w.guardrailStats().frameChurn, 4u);
  EXPECT_EQ(logs.count("ecs", "churn_per_frame"), 1u);
  ASSERT_TRUE(w.destroy(a).ok());                   // detach: not churn
  EXPECT_EQ(w.guardrailStats().frameChurn, 4u);
  const ArchetypeStats st = w.archetypeStats();
  EXPECT_EQ(st.archetypeCount, 2u);
  EXPECT_EQ(st.rowsLive, 0u);
  EXPECT_EQ(st.totalAdds, 3u);
  EXPECT_EQ(st.totalRemoves, 1u);
  EXPECT_EQ(st.totalDestroyDetaches, 1u);
  EXPECT_EQ(st.totalReservations, 2u);
  EXPECT_EQ(st.rowsReserved, 32u);
  EXPECT_EQ(st.bytesReserved, 16u * (8 + 4) * 2);
  EXPECT_GT(st.bytesScratch, 0u);
}

TEST(Archetype, DestroyAndClearDetachRows) {
  World w = makeWorld(16);
  std::vector<Entity> es;
  for (int i = 0; i < 6; ++i) {
    es.push_back(w.create().value());
    ASSERT_TRUE(w.addComponent(es.back(), Hp{i}).ok());
  }
  ASSERT_TRUE(w.destroy(es[2]).ok());
  EXPECT_EQ(w.archetypeStats().rowsLive, 5u);
  EXPECT_EQ(slotsOf(w, 1), (std::vector<std::uint32_t>{0, 1, 3, 4, 5}));
  // The recycled slot starts without components.
  const Entity again = w.create().value();
  EXPECT_EQ(again.id(), 2u);
  EXPECT_FALSE(w.has<Hp>(again));
  EXPECT_FALSE(w.has<Hp>(es[2]));
  ASSERT_TRUE(w.clear().ok());
  EXPECT_EQ(w.archetypeStats().rowsLive, 0u);
  EXPECT_EQ(w.archetypeCount(), 1u);
  EXPECT_EQ(w.archetypeRowCount(1), 0u);
  const Entity fresh = w.create().value();
  EXPECT_FALSE(w.has<Hp>(fresh));
  ASSERT_TRUE(w.addComponent(fresh, Hp{9}).ok());
  EXPECT_EQ(w.archetypeOf(fresh), 1u);
}

TEST(Archetype, UnregisteredComponent) {
  test::LogCapture logs;
  World w = makeWorld(8);
  const Entity e = w.create().value();
  EXPECT_FALSE(w.has<Unreg>(e));
  EXPECT_EQ(w.get<Unreg>(e), nullptr);
  EXPECT_EQ(logs.count("ecs", "component_unregistered"), 0u);  // pure queries are silent
  EXPECT_EQ(w.addComponent(e, Unreg{1}).error(), ErrorCode::InvalidArgument);
  ASSERT_EQ(logs.count("ecs", "component_unregistered"), 1u);
  const auto& rec = logs.sink->records().back();
  EXPECT_EQ(rec.fieldValue("entity_id"), "0");
  EXPECT_EQ(rec.fieldValue("generation"), "1");
  EXPECT_EQ(rec.fieldValue("component"), "Unreg");
  test::LogCapture::advance(5000);
  EXPECT_EQ(w.removeComponent<Unreg>(e).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.addComponentBytes(e, 77, nullptr, 0).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.removeComponentById(e, 0).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.archetypeCount(), 0u);
}

TEST(Archetype, BytesApi) {
  test::LogCapture logs;
  World w = makeWorld(8);
  const Entity e = w.create().value();
  const Pos p{7, 8};
  EXPECT_EQ(w.addComponentBytes(e, 1, &p, 4).error(), ErrorCode::InvalidArgument);
  ASSERT_EQ(logs.count("ecs", "component_size_mismatch"), 1u);
  EXPECT_EQ(logs.sink->records().back().fieldValue("expected_size"), "8");
  ASSERT_TRUE(w.addComponentBytes(e, 1, &p, sizeof p).ok());
  EXPECT_TRUE(w.hasComponent(e, 1));
  EXPECT_FALSE(w.hasComponent(e, 2));
  EXPECT_FALSE(w.hasComponent(e, 0));
  EXPECT_FALSE(w.hasComponent(e, 999));
  Pos out{};
  std::memcpy(&out, w.getBytes(e, 1), sizeof out);
  EXPECT_EQ(out.y, 8.0f);
  EXPECT_EQ(w.getBytes(e, 2), nullptr);
  EXPECT_EQ(static_cast<const World&>(w).getBytes(e, 1), w.getBytes(e, 1));
  ASSERT_TRUE(w.addComponentBytes(e, 4, nullptr, 0).ok());  // a tag has no bytes
  ASSERT_TRUE(w.removeComponentById(e, 1).ok());
  EXPECT_FALSE(w.has<Pos>(e));
  EXPECT_TRUE(w.has<Tag>(e));
}

TEST(Archetype, ColumnViews) {
  World w = makeWorld(32);
  std::vector<Entity> es;
  for (int i = 0; i < 10; ++i) es.push_back(w.create().value());
  for (int i = 9; i >= 0; --i) ASSERT_TRUE(w.addComponent(es[i], Hp{i * 10}).ok());
  const std::uint32_t rows = w.archetypeRowCount(1);
  ASSERT_EQ(rows, 10u);
  const std::uint32_t* slots = w.archetypeSlots(1);
  const auto* hp = reinterpret_cast<const Hp*>(w.archetypeColumn(1, 3));
  ASSERT_NE(hp, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(hp) % kArchetypeColumnAlignment, 0u);
  for (std::uint32_t r = 0; r < rows; ++r) {
    EXPECT_EQ(slots[r], r);
    EXPECT_EQ(hp[r].v, static_cast<int>(r) * 10);
  }
  EXPECT_EQ(w.archetypeColumn(1, 1), nullptr);
  EXPECT_EQ(w.archetypeColumn(5, 3), nullptr);
  EXPECT_EQ(w.archetypeSlots(0), nullptr);
  EXPECT_EQ(w.archetypeRowCount(7), 0u);
}

TEST(Archetype, ComponentLimitOf32) {
  test::LogCapture logs;
  World w = World::create(4).takeValue();
  std::vector<std::string> names;
  for (int i = 0; i < 33; ++i) names.push_back("C" + std::to_string(i));
  const ComponentField f[] = {{"v", FieldKind::U8, 1, 0}};
  for (int i = 0; i < 33; ++i) ASSERT_TRUE(w.registerComponentDesc({names[i], 1, 1, f}).ok());
  const Entity e = w.create().value();
  const std::uint8_t v = 1;
  for (ComponentTypeId c = 1; c <= 32; ++c) ASSERT_TRUE(w.addComponentBytes(e, c, &v, 1).ok());
  const std::uint32_t archetypes = w.archetypeCount();
  EXPECT_EQ(w.addComponentBytes(e, 33, &v, 1).error(), ErrorCode::BudgetExhausted);
  ASSERT_EQ(logs.count("ecs", "component_limit"), 1u);
  const auto& rec = logs.sink->records().back();
  EXPECT_EQ(rec.fieldValue("component_id"), "33");
  EXPECT_EQ(rec.fieldValue("components"), "32");
  EXPECT_EQ(rec.fieldValue("entity_id"), "0");
  EXPECT_EQ(w.archetypeCount(), archetypes);
  EXPECT_TRUE(w.hasComponent(e, 32));
  ASSERT_TRUE(w.addComponentBytes(e, 32, &v, 1).ok());  // an overwrite is not over the limit
}

TEST(Archetype, ArchetypeBudgetOf256) {
  test::LogCapture logs;
  World w = World::create(8).takeValue();
  const ComponentField f[] = {{"v", FieldKind::U8, 1, 0}};
  for (int i = 0; i < 9; ++i) {
    const std::string name = "B" + std::to_string(i);
    ASSERT_TRUE(w.registerComponentDesc({name, 1, 1, f}).ok());
  }
  const Entity e = w.create().value();
  const std::uint8_t v = 0;
  // Walk subsets of 9 components (Gray code order: one add or remove per
  // step) until 256 archetypes exist.
  std::uint32_t mask = 0;
  std::uint32_t step = 1;
  while (w.archetypeCount() < kMaxArchetypes) {
    const std::uint32_t gray = step ^ (step >> 1);
    const std::uint32_t bit = gray ^ mask;
    const ComponentTypeId c = static_cast<ComponentTypeId>(__builtin_ctz(bit) + 1);
    if ((mask & bit) != 0) {
      ASSERT_TRUE(w.removeComponentById(e, c).ok());
    }
    else {
      ASSERT_TRUE(w.addComponentBytes(e, c, &v, 1).ok());
    }
    mask = gray;
    ++step;
  }
  EXPECT_EQ(logs.count("ecs", "archetype_budget"), 0u);
  // The next new set fails; a set that exists still works.
  Status s;
  for (;; ++step) {
    const std::uint32_t gray = step ^ (step >> 1);
    const std::uint32_t bit = gray ^ mask;
    const ComponentTypeId c = static_cast<ComponentTypeId>(__builtin_ctz(bit) + 1);
    s = (mask & bit) != 0 ? w.removeComponentById(e, c) : w.addComponentBytes(e, c, &v, 1);
    if (s.isError()) break;
    mask = gray;
  }
  EXPECT_EQ(s.error(), ErrorCode::BudgetExhausted);
  ASSERT_EQ(logs.count("ecs", "archetype_budget"), 1u);
  EXPECT_EQ(logs.sink->records().back().fieldValue("archetype_count"), "256");
  EXPECT_EQ(w.archetypeCount(), 256u);
  EXPECT_EQ(w.archetypeStats().archetypeCount, 256u);
}

#if LAIGE_DEBUG_ASSERTS
TEST(ArchetypeDeathTest, StaleMutationsAssertInDebug) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  World w = makeWorld(4);
  const Entity e = w.create().value();
  ASSERT_TRUE(w.destroy(e).ok());
  EXPECT_DEATH((void)w.addComponent(e, Pos{}), "misuse");
  EXPECT_DEATH((void)w.removeComponent<Pos>(e), "misuse");
  EXPECT_DEATH((void)w.addComponentBytes(e, 1, nullptr, 0), "misuse");
  EXPECT_DEATH((void)w.removeComponentById(e, 1), "misuse");
}
#else
TEST(Archetype, StaleMutationsDegradeInRelease) {
  test::LogCapture logs;
  World w = makeWorld(4);
  const Entity e = w.create().value();
  ASSERT_TRUE(w.destroy(e).ok());
  EXPECT_EQ(w.addComponent(e, Pos{}).error(), ErrorCode::InvalidArgument);
  ASSERT_EQ(logs.count("ecs", "stale_entity_access"), 1u);
  EXPECT_EQ(logs.sink->records().back().fieldValue("generation"), "1");
  EXPECT_EQ(w.removeComponent<Pos>(e).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.removeComponentById(e, 1).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("ecs", "stale_entity_access"), 1u);  // rate-limited
  EXPECT_EQ(w.archetypeCount(), 0u);
}
#endif

TEST(Archetype, StaleReadsAreSafeEverywhere) {
  test::LogCapture logs;
  World w = makeWorld(4);
  const Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, Pos{}).ok());
  ASSERT_TRUE(w.destroy(e).ok());
  EXPECT_FALSE(w.has<Pos>(e));
  EXPECT_FALSE(w.hasComponent(e, 1));
  EXPECT_EQ(logs.count("ecs", "stale_entity_access"), 0u);  // has is a pure query
  EXPECT_EQ(w.get<Pos>(e), nullptr);
  EXPECT_EQ(logs.count("ecs", "stale_entity_access"), 1u);  // get warns, as check()
  EXPECT_EQ(w.getBytes(e, 1), nullptr);
  EXPECT_EQ(w.archetypeOf(e), kNoArchetype);
}

TEST(Archetype, MovedFromWorldIsEmpty) {
  World a = makeWorld(4);
  const Entity e = a.create().value();
  ASSERT_TRUE(a.addComponent(e, Pos{1, 2}).ok());
  World b(std::move(a));
  EXPECT_EQ(b.get<Pos>(e)->y, 2.0f);  // the tables move with the state
  // NOLINTBEGIN(bugprone-use-after-move)
  EXPECT_EQ(a.archetypeCount(), 0u);
  EXPECT_EQ(a.archetypeStats().archetypeCount, 0u);
  EXPECT_FALSE(a.has<Pos>(e));
  EXPECT_EQ(a.archetypeRowCount(1), 0u);
#if !LAIGE_DEBUG_ASSERTS
  EXPECT_EQ(a.addComponent(e, Pos{}).error(), ErrorCode::InvalidArgument);
#endif
  // NOLINTEND(bugprone-use-after-move)
}

// Steady state allocates nothing: after warm-up passes have grown every
// archetype and the scratch, add/remove churn in any order (and the ordered
// reads that normalise) never touch the heap.
TEST(Archetype, ChurnAfterWarmUpAllocatesNothing) {
  constexpr std::uint32_t kN = 10000;
  World w = makeWorld(kN);
  std::vector<Entity> es;
  for (std::uint32_t i = 0; i < kN; ++i) {
    es.push_back(w.create().value());
    ASSERT_TRUE(w.addComponent(es.back(), Pos{float(i), 0}).ok());
    ASSERT_TRUE(w.addComponent(es.back(), Vel{1, 1}).ok());
  }
  auto pass = [&](bool descending, std::uint32_t stride) {
    for (std::uint32_t k = 0; k < kN; ++k) {
      const std::uint32_t i = (descending ? kN - 1 - k : k) * stride % kN;
      if (w.addComponent(es[i], Tag{}).isError() || w.removeComponent<Tag>(es[i]).isError()) return false;
      if (k % 3 == 0 && w.addComponent(es[i], Hp{1}).isError()) return false;
    }
    for (std::uint32_t i = 0; i < kN; ++i) {
      if (w.removeComponent<Hp>(es[i]).isError()) return false;
    }
    return w.archetypeRowCount(1) == 0 && w.archetypeRowCount(2) == kN;
  };
  ASSERT_TRUE(pass(false, 1));  // warm-up: creates archetypes, grows columns and scratch
  ASSERT_TRUE(pass(true, 1));
  ASSERT_TRUE(pass(false, 7919));
  const ArchetypeStats before = w.archetypeStats();
  test::AllocationWindow window;
  bool ok = true;
  for (int round = 0; round < 3; ++round) {
    ok = ok && pass(false, 1) && pass(true, 1) && pass(false, 7919);
  }
  const std::uint64_t allocs = window.allocations();
  const ArchetypeStats after = w.archetypeStats();
  ASSERT_TRUE(ok);
  std::printf("archetype-churn ops=%llu allocs=%llu reservations_delta=%llu row_shifts=%llu\n",
              static_cast<unsigned long long>(after.totalAdds - before.totalAdds +
                                              after.totalRemoves - before.totalRemoves),
              static_cast<unsigned long long>(allocs),
              static_cast<unsigned long long>(after.totalReservations - before.totalReservations),
              static_cast<unsigned long long>(after.totalRowShifts - before.totalRowShifts));
  EXPECT_EQ(allocs, 0u);
  EXPECT_EQ(after.totalReservations, before.totalReservations);
  const std::uint32_t* slots = w.archetypeSlots(2);
  for (std::uint32_t r = 0; r < kN; ++r) ASSERT_EQ(slots[r], r);
  for (std::uint32_t i = 0; i < kN; ++i) ASSERT_EQ(w.get<Pos>(es[i])->x, float(i));
}

}  // namespace
}  // namespace laige
