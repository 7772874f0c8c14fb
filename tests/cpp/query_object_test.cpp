// query_object_test.cpp - Query<Terms...>: each term kind against a brute
// force reference (has/get per live entity, ordered by archetype id then
// slot id), the cache across archetype creation, late registration,
// clear(), world moves and a second world, visit order identical to
// world.each, the legality guard under a query, count(), and a warm query
// call allocating nothing.
#include "laige/query_object.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "laige/assert.h"
#include "laige/prng.h"
#include "laige/world.h"
#include "support/counting_allocator.h"
#include "support/log_capture.h"

namespace laige {
namespace {

struct OA {
  std::int32_t v;
};
LAIGE_COMPONENT(OA, v);
struct OB {
  std::int32_t v;
};
LAIGE_COMPONENT(OB, v);
struct OC {
  std::int32_t v;
};
LAIGE_COMPONENT(OC, v);
struct OTag {};
LAIGE_COMPONENT(OTag);
struct OLate {
  std::int32_t v;
};
LAIGE_COMPONENT(OLate, v);

World makeWorld(std::uint32_t capacity = 256) {
  World::Options o;
  o.capacity = capacity;
  o.churnPerFrameBudget = 0;
  World w = World::create(o).takeValue();
  EXPECT_TRUE(w.registerComponent<OA>().ok());
  EXPECT_TRUE(w.registerComponent<OB>().ok());
  EXPECT_TRUE(w.registerComponent<OC>().ok());
  EXPECT_TRUE(w.registerComponent<OTag>().ok());
  return w;
}

// Bit 0 A, 1 B, 2 C, 3 Tag.
void give(World& w, Entity e, std::uint32_t mask, std::int32_t v) {
  if (mask & 1u) {
    ASSERT_TRUE(w.addComponent(e, OA{v}).ok());
  }
  if (mask & 2u) {
    ASSERT_TRUE(w.addComponent(e, OB{v * 10}).ok());
  }
  if (mask & 4u) {
    ASSERT_TRUE(w.addComponent(e, OC{v * 100}).ok());
  }
  if (mask & 8u) {
    ASSERT_TRUE(w.addComponent(e, OTag{}).ok());
  }
}

// One visit: slot and the values the callback saw (-1 for a null optional).
using Visit = std::tuple<std::uint32_t, std::int32_t, std::int32_t>;

// The reference: every live entity whose components satisfy `pred`, in
// ascending (archetype id, slot id), with `value(e)` for the visit.
template <class Pred, class Value>
std::vector<Visit> reference(World& w, Pred pred, Value value) {
  std::vector<std::pair<std::pair<ArchetypeId, std::uint32_t>, Visit>> rows;
  for (std::uint32_t id = 0; id < w.capacity(); ++id) {
    const Entity e = w.handleAt(static_cast<std::uint16_t>(id));
    if (!w.isValid(e) || !pred(e)) continue;
    const auto [a, b] = value(e);
    rows.push_back({{w.archetypeOf(e), id}, Visit{id, a, b}});
  }
  std::sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<Visit> out;
  for (const auto& r : rows) out.push_back(r.second);
  return out;
}

void populate(World& w, Prng& rng, std::uint32_t n) {
  for (std::uint32_t i = 0; i < n; ++i) {
    const Entity e = w.create().value();
    give(w, e, rng.next_range(0, 16), static_cast<std::int32_t>(i + 1));
  }
}

TEST(QueryObject, EveryTermKindMatchesTheReference) {
  World w = makeWorld();
  Prng rng(7);
  populate(w, rng, 120);
  // Reads + Without.
  Query<Reads<OA>, Without<OC>> noC(w);
  std::vector<Visit> seen;
  ASSERT_TRUE(noC.each(w, [&](Entity e, const OA& a) { seen.push_back({e.id(), a.v, 0}); }).ok());
  EXPECT_EQ(seen, reference(w, [&](Entity e) { return w.has<OA>(e) && !w.has<OC>(e); },
                            [&](Entity e) { return std::pair{w.get<OA>(e)->v, 0}; }));
  EXPECT_FALSE(seen.empty());
  // Writes + With (a tag: no argument).
  seen.clear();
  Query<Writes<OB>, With<OTag>> tagged(w);
  ASSERT_TRUE(tagged.each(w, [&](Entity e, OB& b) {
                      static_assert(!std::is_const_v<std::remove_reference_t<decltype(b)>>);
                      seen.push_back({e.id(), b.v, 0});
                    }).ok());
  EXPECT_EQ(seen, reference(w, [&](Entity e) { return w.has<OB>(e) && w.has<OTag>(e); },
                            [&](Entity e) { return std::pair{w.get<OB>(e)->v, 0}; }));
  // Optional: nullptr exactly where the entity lacks the component.
  seen.clear();
  Query<Reads<OA>, Optional<OC>> maybeC(w);
  ASSERT_TRUE(maybeC.each(w, [&](Entity e, const OA& a, const OC* c) {
                      seen.push_back({e.id(), a.v, c != nullptr ? c->v : -1});
                    }).ok());
  EXPECT_EQ(seen, reference(w, [&](Entity e) { return w.has<OA>(e); },
                            [&](Entity e) {
                              const OC* c = std::as_const(w).get<OC>(e);
                              return std::pair{w.get<OA>(e)->v, c != nullptr ? c->v : -1};
                            }));
  // Optional<T, Write> hands out T* and writes land.
  Query<With<OA>, Optional<OB, Write>> bumpB(w);
  ASSERT_TRUE(bumpB.each(w, [&](Entity, OB* b) {
                     if (b != nullptr) b->v += 1;
                   }).ok());
  for (std::uint32_t id = 0; id < 120; ++id) {
    const Entity e = w.handleAt(static_cast<std::uint16_t>(id));
    if (w.has<OB>(e)) {
      EXPECT_EQ(w.get<OB>(e)->v, static_cast<std::int32_t>((id + 1) * 10 + (w.has<OA>(e) ? 1 : 0)));
    }
  }
  // Several filters at once; count() and archetypeCount() agree.
  Query<With<OA>, With<OB>, Without<OTag>, Without<OC>> plain(w);
  std::uint32_t visits = 0;
  ASSERT_TRUE(plain.each(w, [&](Entity e) {
                     ++visits;
                     EXPECT_TRUE(w.has<OA>(e) && w.has<OB>(e) && !w.has<OTag>(e) && !w.has<OC>(e));
                   }).ok());
  EXPECT_EQ(plain.count(w), visits);
  EXPECT_GT(visits, 0u);
  EXPECT_EQ(plain.archetypeCount(w), 1u);  // exactly the set {A, B}
}

TEST(QueryObject, VisitOrderIsWorldEachOrder) {
  World w = makeWorld();
  Prng rng(11);
  populate(w, rng, 200);
  // Churn so that archetypes hold tails and holes before the ordered read.
  for (std::uint32_t id = 0; id < 200; id += 3) {
    const Entity e = w.handleAt(static_cast<std::uint16_t>(id));
    if (w.has<OB>(e)) ASSERT_TRUE(w.removeComponent<OB>(e).ok());
    else ASSERT_TRUE(w.addComponent(e, OB{1}).ok());
  }
  std::vector<std::uint32_t> a;
  std::vector<std::uint32_t> b;
  ASSERT_TRUE((w.each<OA, OB>([&](Entity e, const OA&, const OB&) { a.push_back(e.id()); }, Read{}, Read{}).ok()));
  Query<Reads<OA>, Reads<OB>> q(w);
  ASSERT_TRUE(q.each(w, [&](Entity e, const OA&, const OB&) { b.push_back(e.id()); }).ok());
  EXPECT_EQ(a, b);
  EXPECT_GT(a.size(), 10u);
}

TEST(QueryObject, CacheFollowsNewArchetypesLateRegistrationClearAndMoves) {
  World w = makeWorld();
  Query<Reads<OA>, Without<OLate>> q;  // unbuilt: the first call builds it
  const Entity a = w.create().value();
  give(w, a, 1, 1);
  EXPECT_EQ(q.count(w), 1u);
  // A new archetype that matches, created after the query was built.
  const Entity ab = w.create().value();
  give(w, ab, 3, 2);
  EXPECT_EQ(q.count(w), 2u);
  EXPECT_EQ(q.archetypeCount(w), 2u);
  // OLate registered after the query: the excluded term resolves now.
  ASSERT_TRUE(w.registerComponent<OLate>().ok());
  ASSERT_TRUE(w.addComponent(ab, OLate{5}).ok());
  EXPECT_EQ(q.count(w), 1u);
  EXPECT_FALSE(q.matches(w.archetypeOf(ab)));
  // clear(): rows go, archetypes stay; the cache stays right.
  ASSERT_TRUE(w.clear().ok());
  EXPECT_EQ(q.count(w), 0u);
  const Entity c = w.create().value();
  give(w, c, 5, 3);  // {A, C}: a new archetype
  std::vector<std::uint32_t> seen;
  ASSERT_TRUE(q.each(w, [&](Entity e, const OA& v) {
                 seen.push_back(e.id());
                 EXPECT_EQ(v.v, 3);
               }).ok());
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{c.id()}));
  // A world move: the cache moves with the world's state.
  World moved = std::move(w);
  const Entity d = moved.create().value();
  give(moved, d, 1, 4);
  EXPECT_EQ(q.count(moved), 2u);
  EXPECT_EQ(q.count(w), 0u);  // the moved-from world is empty
  ASSERT_TRUE(q.each(w, [&](Entity, const OA&) { ADD_FAILURE(); }).ok());
  // Another world: the cache is rebuilt for it (ids resolved afresh).
  World other = World::create(16).takeValue();
  ASSERT_TRUE(other.registerComponent<OTag>().ok());
  ASSERT_TRUE(other.registerComponent<OA>().ok());  // a different id there
  const Entity o = other.create().value();
  ASSERT_TRUE(other.addComponent(o, OA{9}).ok());
  seen.clear();
  ASSERT_TRUE(q.each(other, [&](Entity e, const OA& v) {
                 seen.push_back(e.id());
                 EXPECT_EQ(v.v, 9);
               }).ok());
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{o.id()}));
  EXPECT_EQ(q.count(moved), 2u);  // and back
}

// The JS-driven form of a query with Without terms matches the same
// archetypes, in the same order, as the query object.
TEST(QueryObject, BeginIterationWithExclusionMatchesTheQuery) {
  World w = makeWorld();
  Prng rng(3);
  populate(w, rng, 80);
  Query<Reads<OA>, Without<OC>, Without<OTag>> q(w);
  const ComponentTypeId ids[] = {w.componentId<OA>()};
  const Access access[] = {Access::Read};
  const ComponentTypeId without[] = {w.componentId<OC>(), w.componentId<OTag>()};
  ASSERT_TRUE(w.beginIteration(ids, access, without).ok());
  std::vector<ArchetypeId> js;
  for (std::uint32_t k = 0; k < w.iterationArchetypeCount(); ++k) js.push_back(w.iterationArchetype(k));
  w.endIteration();
  std::vector<ArchetypeId> native;
  for (ArchetypeId a = 1; a <= w.archetypeCount(); ++a) {
    if (q.matches(a)) native.push_back(a);
  }
  EXPECT_EQ(js, native);
  EXPECT_EQ(js.size(), q.archetypeCount(w));
  EXPECT_FALSE(js.empty());
  // A component both listed and excluded is rejected, changing nothing.
  const ComponentTypeId clash[] = {w.componentId<OA>()};
  const Status st = w.beginIteration(ids, access, clash);
  EXPECT_EQ(st.error(), ErrorCode::InvalidArgument);
  EXPECT_STREQ(st.fieldValue("reason"), "component_repeated");
  EXPECT_FALSE(w.isIterating());
}

TEST(QueryObject, UnregisteredRequiredTermMatchesNothingUntilRegistered) {
  World w = makeWorld();
  Query<Reads<OLate>> late(w);
  EXPECT_EQ(late.count(w), 0u);
  const std::uint32_t archetypes = w.archetypeCount();
  ASSERT_TRUE(late.each(w, [&](Entity, const OLate&) { ADD_FAILURE(); }).ok());
  EXPECT_EQ(w.archetypeCount(), archetypes);
  ASSERT_TRUE(w.registerComponent<OLate>().ok());
  const Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, OLate{1}).ok());
  EXPECT_EQ(late.count(w), 1u);
}

TEST(QueryObject, ArchetypeCreatedDuringTheWalkIsNotVisitedButNextCallSeesIt) {
  World w = makeWorld();
  const Entity a = w.create().value();
  give(w, a, 1, 1);
  const Entity bc = w.create().value();
  give(w, bc, 6, 2);  // {B, C}
  Query<Reads<OA>> q(w);
  std::vector<std::uint32_t> seen;
  ASSERT_TRUE(q.each(w, [&](Entity e, const OA&) {
                 seen.push_back(e.id());
                 // {A, B, C} does not exist yet: the move into it is legal
                 // (the matched set was fixed at begin) and not visited.
                 EXPECT_TRUE(w.addComponent(bc, OA{7}).ok());
                 EXPECT_EQ(q.count(w), 2u);  // counts see it; the walk does not
               }).ok());
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{a.id()}));
  seen.clear();
  ASSERT_TRUE(q.each(w, [&](Entity e, const OA&) { seen.push_back(e.id()); }).ok());
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{a.id(), bc.id()}));
}

#if !LAIGE_DEBUG_ASSERTS
TEST(QueryObject, TheLegalityGuardAppliesAsInWorldEach) {
  test::LogCapture logs;
  World w = makeWorld();
  const Entity e = w.create().value();
  give(w, e, 7, 1);  // {A, B, C}
  const Entity other = w.create().value();
  give(w, other, 2, 2);  // {B}
  Query<Reads<OA>, Writes<OB>, Optional<OC>> q(w);
  const std::uint64_t before = w.stateHash(0);
  ASSERT_TRUE(q.each(w, [&](Entity x, const OA&, OB&, const OC*) {
                 EXPECT_EQ(w.addComponent(x, OA{5}).error(), ErrorCode::InvalidArgument);  // Reads
                 EXPECT_EQ(w.addComponent(x, OC{5}).error(), ErrorCode::InvalidArgument);  // Optional read
                 EXPECT_EQ(w.removeComponent<OB>(x).error(), ErrorCode::InvalidArgument);  // structural
                 EXPECT_EQ(w.destroy(x).error(), ErrorCode::InvalidArgument);
                 EXPECT_EQ(w.clear().error(), ErrorCode::InvalidArgument);
                 const Status nested = q.each(w, [](Entity, const OA&, OB&, const OC*) {});
                 EXPECT_EQ(nested.error(), ErrorCode::InvalidArgument);
                 EXPECT_STREQ(nested.reason(), "iteration_nested");
                 EXPECT_TRUE(w.addComponent(other, OB{3}).ok());  // {B} is not matched: legal
               }).ok());
  ASSERT_TRUE(w.addComponent(other, OB{20}).ok());  // undo the legal write
  EXPECT_EQ(w.stateHash(0), before);  // every rejected call changed nothing
  EXPECT_GE(logs.count("ecs", "iteration_write_during_read"), 1u);
  EXPECT_GE(logs.count("ecs", "iteration_mutation"), 1u);
  // After the call, the same changes are legal.
  EXPECT_TRUE(w.addComponent(e, OA{5}).ok());
  EXPECT_TRUE(w.removeComponent<OB>(e).ok());
}
#else
TEST(QueryObjectDeathTest, TheLegalityGuardAssertsInDebugBuilds) {
  World w = makeWorld();
  const Entity e = w.create().value();
  give(w, e, 7, 1);
  Query<Reads<OA>, Writes<OB>, Optional<OC>> q(w);
  EXPECT_DEATH((void)q.each(w, [&](Entity x, const OA&, OB&, const OC*) { (void)w.addComponent(x, OC{5}); }),
               "misuse");
  EXPECT_DEATH((void)q.each(w, [&](Entity x, const OA&, OB&, const OC*) { (void)w.destroy(x); }), "misuse");
  EXPECT_DEATH((void)q.each(w, [&](Entity, const OA&, OB&, const OC*) {
                 (void)q.each(w, [](Entity, const OA&, OB&, const OC*) {});
               }),
               "misuse");
  // The legal side in the same build.
  ASSERT_TRUE(q.each(w, [&](Entity x, const OA&, OB&, const OC*) {
                 EXPECT_TRUE(w.addComponent(x, OB{4}).ok());
               }).ok());
  EXPECT_EQ(w.get<OB>(e)->v, 4);
}
#endif

TEST(QueryObject, WorldQueryBuildsAndWarmCallsAllocateNothing) {
  constexpr std::uint32_t kN = 5000;
  World w = makeWorld(kN);
  for (std::uint32_t i = 0; i < kN; ++i) {
    const Entity e = w.create().value();
    give(w, e, 1u | (i % 4 == 0 ? 4u : 0u) | (i % 3 == 0 ? 8u : 0u), static_cast<std::int32_t>(i));
  }
  auto q = w.query<Writes<OA>, Without<OTag>, Optional<OC>>();
  ASSERT_TRUE(q.each(w, [](Entity, OA&, const OC*) {}).ok());  // warm: normalised
  std::uint64_t visits = 0;
  test::AllocationWindow window;
  for (int pass = 0; pass < 3; ++pass) {
    ASSERT_TRUE(q.each(w, [&](Entity, OA& a, const OC* c) {
                   ++visits;
                   a.v += c != nullptr ? 1 : 2;
                 }).ok());
    ASSERT_TRUE((w.each<OA>([&](Entity, const OA&) { ++visits; }, Read{}).ok()));
  }
  EXPECT_EQ(window.allocations(), 0u);
  EXPECT_EQ(visits, 3u * (q.count(w) + kN));
}

}  // namespace
}  // namespace laige
