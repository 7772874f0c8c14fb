// dynamic_query_test.cpp - queries whose terms are given at run time
// (laige/detail/dynamic_query.h, the TypeScript Query's engine) visit
// exactly what the equivalent Query<Terms...> visits: the same matched
// archetypes and rows, the same change-filtered rows with the same "since",
// under random adds, removes, destroys and Write walks; bad specs are
// refused; a restore that cuts the archetype list back rebuilds the match.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "laige/changes.h"
#include "laige/detail/dynamic_query.h"
#include "laige/detail/ecs_state.h"
#include "laige/query_object.h"
#include "laige/world.h"

namespace laige {
namespace {

struct DqPos {
  std::int32_t x;
};
LAIGE_COMPONENT(DqPos, x);
struct DqVel {
  std::int32_t x;
};
LAIGE_COMPONENT(DqVel, x);
struct DqTag {
  std::int32_t v;
};
LAIGE_COMPONENT(DqTag, v);

using detail::DynamicQuery;
using detail::QueryAccess;
using detail::TermKind;

World makeWorld() {
  World::Options o;
  o.capacity = 64;
  o.seed = 9;
  o.churnPerFrameBudget = 0;
  World w = World::create(o).takeValue();
  EXPECT_EQ(w.registerComponent<DqPos>().value(), 1u);
  EXPECT_EQ(w.registerComponent<DqVel>().value(), 2u);
  EXPECT_EQ(w.registerComponent<DqTag>().value(), 3u);
  return w;
}

DynamicQuery make(const World& w, std::vector<ComponentTypeId> ids, std::vector<TermKind> kinds) {
  DynamicQuery q;
  std::vector<std::uint8_t> k;
  for (const TermKind t : kinds) k.push_back(static_cast<std::uint8_t>(t));
  EXPECT_TRUE(QueryAccess::init(w, q, ids.data(), k.data(), static_cast<std::uint32_t>(ids.size())).ok());
  return q;
}

// The slot ids a dynamic walk visits (runs expanded), in visit order.
std::vector<std::uint32_t> visit(World& w, DynamicQuery& q) {
  std::vector<std::uint32_t> out;
  detail::ChangeRun change;
  const Status st = QueryAccess::begin(w, q, change, [&](const detail::Archetype& a, std::uint32_t start, std::uint32_t rows) {
    for (std::uint32_t r = start; r < start + rows; ++r) out.push_back(a.slots[r]);
  });
  EXPECT_TRUE(st.ok());
  if (st.ok()) QueryAccess::end(w, q, change);
  return out;
}

template <class Q>
std::vector<std::uint32_t> visitTyped(World& w, Q& q) {
  std::vector<std::uint32_t> out;
  EXPECT_TRUE(q.each(w, [&](Entity e, auto&&...) { out.push_back(e.id()); }).ok());
  return out;
}

TEST(DynamicQuery, VisitsWhatTheTypedQueryVisitsUnderRandomOps) {
  World w = makeWorld();
  DynamicQuery moved = make(w, {1, 1, 3}, {TermKind::Read, TermKind::Changed, TermKind::Without});
  Query<Reads<DqPos>, Changed<DqPos>, Without<DqTag>> movedTyped;
  DynamicQuery fresh = make(w, {2, 2}, {TermKind::Write, TermKind::Added});
  Query<Writes<DqVel>, Added<DqVel>> freshTyped;
  DynamicQuery all = make(w, {1, 2}, {TermKind::Read, TermKind::OptionalRead});
  Query<Reads<DqPos>, Optional<DqVel>> allTyped;
  Query<Writes<DqPos>> writer;
  std::uint32_t s = 12345;
  auto rnd = [&](std::uint32_t n) {
    s = s * 1664525u + 1013904223u;
    return (s >> 8) % n;
  };
  std::vector<Entity> live;
  for (int step = 0; step < 800; ++step) {
    const std::uint32_t r = rnd(100);
    if (r < 25 && live.size() < 50) {
      Entity e = w.create().value();
      if (rnd(2) != 0) {
        ASSERT_TRUE(w.addComponent(e, DqPos{step}).ok());
      }
      if (rnd(2) != 0) {
        ASSERT_TRUE(w.addComponent(e, DqVel{step}).ok());
      }
      if (rnd(4) == 0) {
        ASSERT_TRUE(w.addComponent(e, DqTag{step}).ok());
      }
      live.push_back(e);
    } else if (r < 45 && !live.empty()) {
      const Entity e = live[rnd(static_cast<std::uint32_t>(live.size()))];
      const Status st = rnd(2) != 0 ? w.addComponent(e, DqPos{step}) : w.addComponent(e, DqVel{step});
      ASSERT_TRUE(st.ok());
    } else if (r < 55 && !live.empty()) {
      const Entity e = live[rnd(static_cast<std::uint32_t>(live.size()))];
      if (w.hasComponent(e, 2)) {
        ASSERT_TRUE(w.removeComponentById(e, 2).ok());
      }
    } else if (r < 62 && !live.empty()) {
      const std::uint32_t i = rnd(static_cast<std::uint32_t>(live.size()));
      ASSERT_TRUE(w.destroy(live[i]).ok());
      live.erase(live.begin() + i);
    } else if (r < 70) {
      ASSERT_TRUE(writer.each(w, [](Entity, DqPos& p) { p.x += 1; }).ok());
    } else {
      // Each dynamic query and its typed twin run back to back: both with
      // nothing in between, so their "since" windows cover the same marks.
      const auto a = visit(w, moved);
      const auto b = visitTyped(w, movedTyped);
      ASSERT_EQ(a, b) << "step " << step;
      const auto c = visit(w, fresh);
      const auto d = visitTyped(w, freshTyped);
      ASSERT_EQ(c.size(), d.size()) << "step " << step;
      ASSERT_EQ(visit(w, all), visitTyped(w, allTyped)) << "step " << step;
      ASSERT_EQ(QueryAccess::count(w, all), allTyped.count(w));
    }
  }
}

TEST(DynamicQuery, BadSpecsAreRefusedAndLeaveTheQueryAsItWas) {
  World w = makeWorld();
  DynamicQuery q;
  const ComponentTypeId ids[] = {1, 9};
  const std::uint8_t kinds[] = {0, 8};
  EXPECT_EQ(QueryAccess::init(w, q, ids, kinds, 0).reason(), std::string("query_invalid"));
  EXPECT_EQ(QueryAccess::init(w, q, ids, kinds, 2).reason(), std::string("query_invalid"));  // kind 8
  const std::uint8_t ok[] = {0, 0};
  EXPECT_EQ(QueryAccess::init(w, q, ids, ok, 2).reason(), std::string("query_invalid"));  // id 9 unregistered
  const std::uint8_t without[] = {3};
  EXPECT_EQ(QueryAccess::init(w, q, ids, without, 1).reason(), std::string("query_invalid"));  // nothing required
  EXPECT_EQ(q.count, 0u);
}

TEST(DynamicQuery, ARestoreThatCutsTheArchetypesBackRebuildsTheMatch) {
  World w = makeWorld();
  Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, DqPos{1}).ok());
  std::vector<std::uint8_t> snap(w.snapshotSize());
  ASSERT_TRUE(w.snapshot(snap).ok());
  DynamicQuery q = make(w, {2}, {TermKind::Read});
  ASSERT_TRUE(w.addComponent(e, DqVel{2}).ok());  // archetype {Pos, Vel}
  EXPECT_EQ(QueryAccess::count(w, q), 1u);
  ASSERT_TRUE(w.restore(snap).ok());
  EXPECT_EQ(QueryAccess::count(w, q), 0u);
  const detail::IdSet256 m = QueryAccess::matched(w, q);
  EXPECT_EQ(m.words[0] | m.words[1] | m.words[2] | m.words[3], 0u);
}

}  // namespace
}  // namespace laige
