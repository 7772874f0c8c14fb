// query_test.cpp - World::each (docs/query.md in full): superset match, the
// references by access, the empty query, unregistered types, the visit
// order, the iteration-legality table (both sides of every row, debug
// asserts and release degradation with the events and fields), the
// JS-driven guard API, and the zero-allocation window.
#include "laige/query.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <type_traits>
#include <utility>
#include <vector>

#include "laige/assert.h"
#include "laige/world.h"
#include "support/counting_allocator.h"
#include "support/log_capture.h"

namespace laige {
namespace {

struct QPos {
  float x, y;
};
LAIGE_COMPONENT(QPos, x, y);
struct QVel {
  float x, y;
};
LAIGE_COMPONENT(QVel, x, y);
struct QFlag {
  std::uint32_t bits;
};
LAIGE_COMPONENT(QFlag, bits);
struct QNever {
  std::uint8_t v;
};
LAIGE_COMPONENT(QNever, v);

World makeWorld(std::uint32_t capacity = 64) {
  World::Options o;
  o.capacity = capacity;
  o.churnPerFrameBudget = 0;
  World w = World::create(o).takeValue();
  EXPECT_EQ(w.registerComponent<QPos>().value(), 1u);
  EXPECT_EQ(w.registerComponent<QVel>().value(), 2u);
  EXPECT_EQ(w.registerComponent<QFlag>().value(), 3u);
  return w;
}

Entity spawn(World& w, bool pos, bool vel, bool flag, float x = 0) {
  const Entity e = w.create().value();
  if (pos) {
    EXPECT_TRUE(w.addComponent(e, QPos{x, x}).ok());
  }
  if (vel) {
    EXPECT_TRUE(w.addComponent(e, QVel{1, 2}).ok());
  }
  if (flag) {
    EXPECT_TRUE(w.addComponent(e, QFlag{7}).ok());
  }
  return e;
}

TEST(Query, SupersetMatchAndVisitOrder) {
  World w = makeWorld();
  // Slots 0..5: {P,V} {P} {P,V,F} {P,V} {V} {}
  spawn(w, true, true, false, 0);   // archetype {P} = 1, then {P,V} = 2
  spawn(w, true, false, false, 1);  // {P} = 1
  spawn(w, true, true, true, 2);    // {P,V,F} = 3
  spawn(w, true, true, false, 3);   // {P,V} = 2
  spawn(w, false, true, false, 4);  // {V} = 4
  (void)w.create();                 // component-less
  std::vector<std::uint32_t> seen;
  ASSERT_TRUE((w.each<QPos, QVel>([&](Entity e, const QPos& p, const QVel& v) {
                 seen.push_back(e.id());
                 EXPECT_EQ(p.x, float(e.id()));
                 EXPECT_EQ(v.y, 2.0f);
               }, Read{}, Read{}).ok()));
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{0, 3, 2}));  // archetype 2 then 3
  seen.clear();
  ASSERT_TRUE(w.each<QPos>([&](Entity e, const QPos&) { seen.push_back(e.id()); }, Read{}).ok());
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 0, 3, 2}));
  seen.clear();
  ASSERT_TRUE(w.each<>([&](Entity e) { seen.push_back(e.id()); }).ok());
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5}));
  // The handle is the live generation-checked handle.
  ASSERT_TRUE(w.each<QFlag>([&](Entity e, const QFlag&) { EXPECT_TRUE(w.isValid(e)); }, Read{}).ok());
}

TEST(Query, ReferencesFollowTheTags) {
  World w = makeWorld();
  spawn(w, true, true, false, 1);
  int calls = 0;
  ASSERT_TRUE((w.each<QPos, QVel>([&](Entity, auto& p, auto& v) {
                 static_assert(!std::is_const_v<std::remove_reference_t<decltype(p)>>);
                 static_assert(std::is_const_v<std::remove_reference_t<decltype(v)>>);
                 p.x += v.x;  // the intended write path
                 ++calls;
               }, Write{}, Read{}).ok()));
  EXPECT_EQ(calls, 1);
  const Entity e = w.handleAt(0);
  EXPECT_EQ(w.get<QPos>(e)->x, 2.0f);
  // const-qualified listed types are the same component.
  ASSERT_TRUE(w.each<const QPos>([&](Entity, const QPos& p) { EXPECT_EQ(p.x, 2.0f); }, Read{}).ok());
}

TEST(Query, UnregisteredTypeMatchesNothingAndCreatesNothing) {
  World w = makeWorld();
  spawn(w, true, true, false);
  const std::uint32_t archetypes = w.archetypeCount();
  int calls = 0;
  ASSERT_TRUE((w.each<QPos, QNever>([&](Entity, const QPos&, const QNever&) { ++calls; }, Read{}, Read{}).ok()));
  ASSERT_TRUE(w.each<QNever>([&](Entity, QNever&) { ++calls; }, Write{}).ok());
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(w.archetypeCount(), archetypes);
  EXPECT_FALSE(w.isIterating());
}

TEST(Query, EmptyWorldsAndMovedFromWorlds) {
  World w = makeWorld();
  int calls = 0;
  ASSERT_TRUE(w.each<QPos>([&](Entity, const QPos&) { ++calls; }, Read{}).ok());
  ASSERT_TRUE(w.each<>([&](Entity) { ++calls; }).ok());
  World moved(std::move(w));
  ASSERT_TRUE(w.each<QPos>([&](Entity, const QPos&) { ++calls; }, Read{}).ok());  // NOLINT
  ASSERT_TRUE(w.each<>([&](Entity) { ++calls; }).ok());                         // NOLINT
  EXPECT_EQ(calls, 0);
}

TEST(Query, EmptyQueryWithCreateAndDestroyInside) {
  World w = makeWorld(16);
  std::vector<Entity> es;
  for (int i = 0; i < 6; ++i) es.push_back(w.create().value());
  ASSERT_TRUE(w.destroy(es[4]).ok());  // slot 4 is free (LIFO top)
  std::vector<std::uint32_t> seen;
  ASSERT_TRUE(w.each<>([&](Entity e) {
                 seen.push_back(e.id());
                 if (e.id() == 1) {
                   // Created during the each: not visited, recycled or fresh.
                   EXPECT_EQ(w.create().value().id(), 4u);  // recycled, ahead of the cursor
                   EXPECT_EQ(w.create().value().id(), 6u);  // fresh, past the start
                   EXPECT_TRUE(w.destroy(es[3]).ok());      // ahead: skipped
                   EXPECT_TRUE(w.addComponent(es[2], QPos{}).ok());  // legal: nothing matched
                 }
               }).ok());
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{0, 1, 2, 5}));
}

TEST(Query, LegalMutationsInsideEach) {
  World w = makeWorld();
  const Entity a = spawn(w, true, false, false, 1);   // {P}
  const Entity b = spawn(w, true, false, false, 2);   // {P}
  const Entity other = spawn(w, false, true, false);  // {V}: not matched by each<QPos>
  const Entity bare = w.create().value();
  int calls = 0;
  ASSERT_TRUE(w.each<QPos>([&](Entity e, QPos& p) {
                 ++calls;
                 p.y = 9;  // through the Write reference
                 EXPECT_TRUE(w.addComponent(e, QPos{p.x, 10}).ok());  // in-place, Write-declared
                 if (e == a) {
                   EXPECT_TRUE(w.addComponent(other, QFlag{1}).ok());  // {V} -> {V,F}: outside
                   EXPECT_TRUE(w.removeComponent<QFlag>(other).ok());
                   EXPECT_TRUE(w.addComponent(bare, QVel{}).ok());     // {} -> {V}: outside
                   EXPECT_TRUE(w.destroy(bare).ok());                  // {V} is outside
                   EXPECT_TRUE(w.create().ok());                       // always legal
                   EXPECT_TRUE(w.removeComponent<QFlag>(b).ok());      // a no-op remove
                 }
               }, Write{}).ok());
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(w.get<QPos>(b)->y, 10.0f);
  EXPECT_FALSE(w.has<QFlag>(other));
  EXPECT_FALSE(w.isValid(bare));
  // Unlisted components may be overwritten in place even on matched rows.
  ASSERT_TRUE(w.addComponent(a, QFlag{1}).ok());
  ASSERT_TRUE(w.each<QPos>([&](Entity e, const QPos&) {
                 if (e == a) {
                   EXPECT_TRUE(w.addComponent(a, QFlag{2}).ok());
                 }
               }, Read{}).ok());
  EXPECT_EQ(w.get<QFlag>(a)->bits, 2u);
  // A set created during the iteration is not matched (the matched set is
  // fixed before the first callback): moving into it is legal, and the
  // moved entity is not visited.
  const Entity d = spawn(w, false, true, true);  // {V,F}
  std::vector<std::uint32_t> seen;
  ASSERT_TRUE(w.each<QPos>([&](Entity e, const QPos&) {
                 seen.push_back(e.id());
                 if (seen.size() == 1) {
                   EXPECT_TRUE(w.addComponent(d, QPos{}).ok());  // -> new {P,V,F}
                 }
               }, Read{}).ok());
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{b.id(), a.id()}));  // {P} = 1, then {P,F}
  EXPECT_TRUE(w.has<QPos>(d));
}

#if !LAIGE_DEBUG_ASSERTS
// Release and wasm: every row of the table, rejected side and legal side.
TEST(QueryLegality, InPlaceWriteOfAReadComponentIsRejected) {
  test::LogCapture logs;
  World w = makeWorld();
  const Entity e = spawn(w, true, true, false, 5);
  ASSERT_TRUE((w.each<QPos, QVel>([&](Entity x, const QPos&, QVel&) {
                 EXPECT_EQ(w.addComponent(x, QPos{1, 1}).error(), ErrorCode::InvalidArgument);
                 EXPECT_TRUE(w.addComponent(x, QVel{3, 3}).ok());  // Write-declared
               }, Read{}, Write{}).ok()));
  EXPECT_EQ(w.get<QPos>(e)->x, 5.0f);  // skipped, not half-applied
  EXPECT_EQ(w.get<QVel>(e)->x, 3.0f);
  ASSERT_EQ(logs.count("ecs", "iteration_write_during_read"), 1u);
  const auto& rec = logs.sink->records().back();
  EXPECT_EQ(rec.fieldValue("entity_id"), "0");
  EXPECT_EQ(rec.fieldValue("generation"), "1");
  EXPECT_EQ(rec.fieldValue("component_id"), "1");
  EXPECT_EQ(rec.fieldValue("archetype_id"), "2");
  EXPECT_EQ(rec.message.rfind("iteration_write_during_read | ", 0), 0u);
  // After each returns the same write is legal.
  EXPECT_TRUE(w.addComponent(e, QPos{1, 1}).ok());
}

TEST(QueryLegality, StructuralMovesTouchingAMatchedArchetypeAreRejected) {
  test::LogCapture logs;
  World w = makeWorld();
  const Entity pv = spawn(w, true, true, false);   // {P}=1, {P,V}=2
  const Entity v = spawn(w, false, true, false);   // {V}=3
  const Entity vf = spawn(w, false, true, true);   // {V,F}=4
  ASSERT_TRUE(w.each<QPos>([&](Entity x, const QPos&) {
                 EXPECT_EQ(w.addComponent(x, QFlag{}).error(), ErrorCode::InvalidArgument);  // source
                 EXPECT_EQ(w.removeComponent<QVel>(x).error(), ErrorCode::InvalidArgument);  // source
                 EXPECT_EQ(w.addComponent(v, QPos{}).error(), ErrorCode::InvalidArgument);   // target {P,V}
                 EXPECT_TRUE(w.addComponent(vf, QFlag{9}).ok());                             // in place
                 EXPECT_TRUE(w.removeComponent<QFlag>(vf).ok());  // {V,F} -> {V}: both outside
                 EXPECT_TRUE(w.addComponent(vf, QFlag{1}).ok());  // and back
               }, Read{}).ok());
  EXPECT_TRUE(w.has<QVel>(pv));
  EXPECT_FALSE(w.has<QFlag>(pv));
  EXPECT_FALSE(w.has<QPos>(v));
  ASSERT_EQ(logs.count("ecs", "iteration_mutation"), 1u);  // warn-once per window
  const auto& rec = logs.sink->records().back();
  EXPECT_EQ(rec.fieldValue("entity_id"), "0");
  EXPECT_EQ(rec.fieldValue("generation"), "1");
  EXPECT_EQ(rec.fieldValue("operation"), "add");
  EXPECT_EQ(rec.fieldValue("component_id"), "3");
  EXPECT_EQ(rec.fieldValue("source_archetype"), "2");
  EXPECT_EQ(rec.fieldValue("target_archetype"), "0");  // {P,V,F} does not exist yet
  EXPECT_EQ(rec.fieldValue("archetype_id"), "2");
  EXPECT_EQ(rec.fieldValue("rows"), "1");
  // The target case reports the matched target.
  test::LogCapture::advance(5000);
  ASSERT_TRUE(w.each<QPos>([&](Entity, const QPos&) {
                 EXPECT_EQ(w.addComponent(v, QPos{}).error(), ErrorCode::InvalidArgument);
               }, Read{}).ok());
  const auto& target = logs.sink->records().back();
  EXPECT_EQ(target.event, "iteration_mutation");
  EXPECT_EQ(target.fieldValue("entity_id"), "1");
  EXPECT_EQ(target.fieldValue("source_archetype"), "3");
  EXPECT_EQ(target.fieldValue("target_archetype"), "2");
  EXPECT_EQ(target.fieldValue("archetype_id"), "2");
  // The rate limiter drains a summary of the suppressed repeats.
  EXPECT_EQ(logs.count("ecs", "rate_limited"), 1u);
  // After each returns, every one of them is legal.
  EXPECT_TRUE(w.addComponent(pv, QFlag{}).ok());
  EXPECT_TRUE(w.addComponent(v, QPos{}).ok());
}

TEST(QueryLegality, DestroyOfAMatchedRowIsRejected) {
  test::LogCapture logs;
  World w = makeWorld();
  const Entity p = spawn(w, true, false, false);
  const Entity v = spawn(w, false, true, false);
  const Entity bare = w.create().value();
  ASSERT_TRUE(w.each<QPos>([&](Entity x, const QPos&) {
                 EXPECT_EQ(w.destroy(x).error(), ErrorCode::InvalidArgument);
                 EXPECT_TRUE(w.destroy(v).ok());     // {V}: outside
                 EXPECT_TRUE(w.destroy(bare).ok());  // archetype 0: outside
               }, Read{}).ok());
  EXPECT_TRUE(w.isValid(p));
  ASSERT_EQ(logs.count("ecs", "iteration_mutation"), 1u);
  const auto& rec = logs.sink->records().back();
  EXPECT_EQ(rec.fieldValue("operation"), "destroy");
  EXPECT_EQ(rec.fieldValue("entity_id"), "0");
  EXPECT_EQ(rec.fieldValue("generation"), "1");
  EXPECT_EQ(rec.fieldValue("archetype_id"), "1");
  EXPECT_EQ(rec.fieldValue("rows"), "1");
  EXPECT_TRUE(w.destroy(p).ok());
}

TEST(QueryLegality, ClearWithLiveMatchedRowsIsRejected) {
  test::LogCapture logs;
  World w = makeWorld();
  (void)w.create();
  const Entity p = spawn(w, true, false, false);
  ASSERT_TRUE(w.each<QPos>([&](Entity, const QPos&) {
                 EXPECT_EQ(w.clear().error(), ErrorCode::InvalidArgument);
               }, Read{}).ok());
  EXPECT_TRUE(w.isValid(p));
  ASSERT_EQ(logs.count("ecs", "iteration_clear"), 1u);
  const auto& rec = logs.sink->records().back();
  EXPECT_EQ(rec.fieldValue("entity_id"), "1");
  EXPECT_EQ(rec.fieldValue("generation"), "1");
  EXPECT_EQ(rec.fieldValue("archetype_id"), "1");
  EXPECT_EQ(rec.fieldValue("rows"), "1");
  // Legal when no matched archetype holds live rows...
  const Entity v = spawn(w, false, true, false);
  ASSERT_TRUE(w.removeComponent<QVel>(v).ok());  // {V} exists but is empty
  ASSERT_TRUE(w.each<QVel>([&](Entity, const QVel&) {}, Read{}).ok());
  bool cleared = false;
  ASSERT_TRUE(w.each<>([&](Entity) {  // ...and under the empty query
                 if (!cleared) cleared = w.clear().ok();
               }).ok());
  EXPECT_TRUE(cleared);
  EXPECT_EQ(w.entityCount(), 0u);
}

TEST(QueryLegality, NestedEachIsRejectedAndTheOuterContinues) {
  test::LogCapture logs;
  World w = makeWorld();
  spawn(w, true, false, false);
  spawn(w, true, false, false);
  int outer = 0;
  int inner = 0;
  ASSERT_TRUE(w.each<QPos>([&](Entity, const QPos&) {
                 ++outer;
                 EXPECT_EQ(w.each<>([&](Entity) { ++inner; }).error(), ErrorCode::InvalidArgument);
                 EXPECT_EQ(w.each<QPos>([&](Entity, const QPos&) { ++inner; }, Read{}).error(),
                           ErrorCode::InvalidArgument);
                 EXPECT_TRUE(w.isIterating());  // the outer guard survives
               }, Read{}).ok());
  EXPECT_EQ(outer, 2);
  EXPECT_EQ(inner, 0);
  EXPECT_FALSE(w.isIterating());
  ASSERT_EQ(logs.count("ecs", "iteration_nested"), 1u);
  const auto& rec = logs.sink->records().back();
  EXPECT_EQ(rec.fieldValue("entity_id"), "0");
  EXPECT_EQ(rec.fieldValue("generation"), "0");
  EXPECT_EQ(rec.fieldValue("archetype_count"), "1");
}
#else
// Native debug: every rejected row is a loud misuse crash (SIGABRT).
TEST(QueryLegalityDeathTest, EveryViolationAsserts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  World w = makeWorld();
  const Entity pv = spawn(w, true, true, false);
  const Entity v = spawn(w, false, true, false);
  EXPECT_DEATH((void)w.each<QPos>([&](Entity x, const QPos&) { (void)w.addComponent(x, QPos{}); }, Read{}),
               "misuse");
  EXPECT_DEATH((void)w.each<QPos>([&](Entity x, const QPos&) { (void)w.addComponent(x, QFlag{}); }, Read{}),
               "misuse");
  EXPECT_DEATH((void)w.each<QPos>([&](Entity, const QPos&) { (void)w.addComponent(v, QPos{}); }, Read{}),
               "misuse");
  EXPECT_DEATH((void)w.each<QPos>([&](Entity x, const QPos&) { (void)w.removeComponent<QVel>(x); }, Read{}),
               "misuse");
  EXPECT_DEATH((void)w.each<QPos>([&](Entity x, const QPos&) { (void)w.destroy(x); }, Read{}), "misuse");
  EXPECT_DEATH((void)w.each<QPos>([&](Entity, const QPos&) { (void)w.clear(); }, Read{}), "misuse");
  EXPECT_DEATH((void)w.each<QPos>([&](Entity, const QPos&) { (void)w.each<>([](Entity) {}); }, Read{}),
               "misuse");
  // The legal side of the same rows does not assert.
  ASSERT_TRUE(w.each<QPos>([&](Entity x, const QPos&) {
                 EXPECT_TRUE(w.addComponent(x, QVel{5, 5}).ok());  // unlisted, in place
                 EXPECT_TRUE(w.create().ok());
               }, Read{}).ok());
  EXPECT_EQ(w.get<QVel>(pv)->x, 5.0f);
  EXPECT_TRUE(w.destroy(pv).ok());  // after each returns
}
#endif

TEST(Query, TheJsDrivenGuard) {
  test::LogCapture logs;
  World w = makeWorld();
  spawn(w, true, true, false, 1);
  spawn(w, true, false, false, 2);
  const ComponentTypeId ids[] = {1};
  const Access access[] = {Access::Write};
  ASSERT_TRUE(w.beginIteration(ids, access).ok());
  EXPECT_TRUE(w.isIterating());
  ASSERT_EQ(w.iterationArchetypeCount(), 2u);
  EXPECT_EQ(w.iterationArchetype(0), 1u);
  EXPECT_EQ(w.iterationArchetype(1), 2u);
  EXPECT_EQ(w.iterationArchetype(2), kNoArchetype);
  // Column views of each matched archetype (re-derived per call).
  for (std::uint32_t k = 0; k < w.iterationArchetypeCount(); ++k) {
    const ArchetypeId a = w.iterationArchetype(k);
    auto* pos = reinterpret_cast<QPos*>(w.archetypeColumn(a, 1));
    for (std::uint32_t r = 0; r < w.archetypeRowCount(a); ++r) pos[r].y = 42;
  }
#if !LAIGE_DEBUG_ASSERTS
  EXPECT_EQ(w.destroy(w.handleAt(0)).error(), ErrorCode::InvalidArgument);  // same guard as each
#endif
  w.endIteration();
  EXPECT_FALSE(w.isIterating());
  EXPECT_EQ(w.iterationArchetypeCount(), 0u);
  EXPECT_EQ(w.get<QPos>(w.handleAt(1))->y, 42.0f);
  EXPECT_TRUE(w.destroy(w.handleAt(0)).ok());
  w.endIteration();  // no-op
  // Invalid argument lists.
  const ComponentTypeId two[] = {1, 1};
  const Access twoAccess[] = {Access::Read, Access::Read};
  EXPECT_EQ(w.beginIteration(two, twoAccess).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.beginIteration(ids, twoAccess).error(), ErrorCode::InvalidArgument);
  const Access bogus[] = {static_cast<Access>(7)};
  EXPECT_EQ(w.beginIteration(ids, bogus).error(), ErrorCode::InvalidArgument);
  ASSERT_GE(logs.count("ecs", "iteration_invalid"), 1u);
  EXPECT_FALSE(w.isIterating());
}

// The one-pass cursor table (the TypeScript each's begin) holds what the
// per-archetype accessors give, truncates at `max` but counts all, and
// writes nothing without a live iteration.
TEST(Query, IterationCursorTableMatchesTheAccessors) {
  World w = makeWorld();
  spawn(w, true, true, false, 1);
  spawn(w, true, false, false, 2);
  spawn(w, true, false, false, 3);
  spawn(w, true, true, true, 4);
  spawn(w, false, true, false, 5);  // not matched
  std::uintptr_t table[4 * 6] = {};
  const ComponentTypeId cols[] = {1, 2, 999};  // Pos, Vel (absent in some), out of range
  EXPECT_EQ(w.iterationCursorTable(cols, table, 4), 0u);
  EXPECT_EQ(table[0], 0u);
  const ComponentTypeId ids[] = {1};
  const Access access[] = {Access::Read};
  ASSERT_TRUE(w.beginIteration(ids, access).ok());
  std::uint32_t count = 0;
  {
    test::AllocationWindow window;
    count = w.iterationCursorTable(cols, table, 4);
    EXPECT_EQ(window.allocations(), 0u);
  }
  ASSERT_EQ(count, 3u);
  ASSERT_EQ(count, w.iterationArchetypeCount());
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::uintptr_t* row = table + k * 6;
    const ArchetypeId a = w.iterationArchetype(k);
    EXPECT_EQ(row[0], a);
    EXPECT_EQ(row[1], w.archetypeRowCount(a));
    EXPECT_EQ(row[2], reinterpret_cast<std::uintptr_t>(w.archetypeSlots(a)));
    EXPECT_EQ(row[3], reinterpret_cast<std::uintptr_t>(w.archetypeColumn(a, 1)));
    EXPECT_EQ(row[4], reinterpret_cast<std::uintptr_t>(w.archetypeColumn(a, 2)));
    EXPECT_EQ(row[5], 0u);
  }
  EXPECT_EQ(table[0 * 6 + 1], 2u);  // {Pos} (archetype 1, made on the way to {Pos, Vel}): two rows
  EXPECT_EQ(table[0 * 6 + 4], 0u);  // and no Vel column
  EXPECT_EQ(table[1 * 6 + 1], 1u);  // {Pos, Vel}
  EXPECT_NE(table[1 * 6 + 4], 0u);
  std::uintptr_t small[2 * 6] = {};
  small[6] = 77;
  EXPECT_EQ(w.iterationCursorTable(cols, small, 1), 3u);  // counts all, writes one row
  EXPECT_EQ(small[0], table[0]);
  EXPECT_EQ(small[6], 77u);
  w.endIteration();
  EXPECT_EQ(w.iterationCursorTable(cols, table, 4), 0u);
}

// The zero-allocation evidence (docs/query.md): 10k entities x {Pos, Vel}, a
// Read/Write pass with a legal in-place write per visit and a Read/Read
// pass, inside a counted window; the stats lines are machine-greppable.
TEST(QueryZeroAlloc, TenThousandEntityWindow) {
  constexpr std::uint32_t kN = 10000;
  World w = makeWorld(kN);
  for (std::uint32_t i = 0; i < kN; ++i) spawn(w, true, true, false, float(i));
  // Warm-up: the first each normalises; everything after is steady state.
  ASSERT_TRUE((w.each<QPos, QVel>([](Entity, const QPos&, const QVel&) {}, Read{}, Read{}).ok()));
  const ArchetypeStats before = w.archetypeStats();
  std::uint64_t visits[2] = {0, 0};
  test::AllocationWindow window;
  const Status rw = w.each<QPos, QVel>([&](Entity e, QPos& p, const QVel& v) {
    ++visits[0];
    p.x += v.x;
    (void)w.addComponent(e, QPos{p.x, p.y + v.y});  // legal in-place overwrite (Write)
  }, Write{}, Read{});
  double sum = 0;
  const Status rr = w.each<QPos, QVel>([&](Entity, const QPos& p, const QVel& v) {
    ++visits[1];
    sum += static_cast<double>(p.x + v.y);
  }, Read{}, Read{});
  const std::uint64_t allocs = window.allocations();
  const ArchetypeStats after = w.archetypeStats();
  ASSERT_TRUE(rw.ok() && rr.ok());
  std::printf("query-iteration pass=read_write visits=%llu allocs=%llu reservations_delta=%llu\n",
              static_cast<unsigned long long>(visits[0]), static_cast<unsigned long long>(allocs),
              static_cast<unsigned long long>(after.totalReservations - before.totalReservations));
  std::printf("query-iteration pass=read_read visits=%llu allocs=%llu archetypes=%u rows_live=%u\n",
              static_cast<unsigned long long>(visits[1]), static_cast<unsigned long long>(allocs),
              after.archetypeCount, after.rowsLive);
  EXPECT_EQ(visits[0], kN);
  EXPECT_EQ(visits[1], kN);
  EXPECT_EQ(allocs, 0u);
  EXPECT_EQ(after.totalReservations, before.totalReservations);
  EXPECT_GT(sum, 0.0);
  EXPECT_EQ(w.get<QPos>(w.handleAt(10))->x, 11.0f);
  EXPECT_EQ(w.get<QPos>(w.handleAt(10))->y, 12.0f);
}

}  // namespace
}  // namespace laige
