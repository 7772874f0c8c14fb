// relations_sources_test.cpp - the relation term for one target,
// Query::eachSourceOf (docs/relations.md#query-terms): the sources of a
// target the terms match, in ascending slot order, with the target's Up
// value; a model test against a plain reference over random forests; the
// refusals (state hash unchanged); commands applying after the pass; the
// allocation-free pass; system io.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "laige/assert.h"
#include "laige/prng.h"
#include "laige/query_object.h"
#include "laige/relations.h"
#include "laige/snapshot.h"
#include "laige/system.h"
#include "laige/world.h"
#include "support/counting_allocator.h"

namespace laige {
namespace {

struct SParent {
  Entity target;
};
LAIGE_COMPONENT(SParent, target);
struct SPos {
  std::int32_t v;
};
LAIGE_COMPONENT(SPos, v);
struct SMark {
  std::int32_t v;
};
LAIGE_COMPONENT(SMark, v);

using Kids = Query<Writes<SPos>>;

struct Rig {
  World w;
  ComponentTypeId parent = 0;
  explicit Rig(std::uint32_t capacity = 64) : w(World::create(capacity).value()) {
    RelationOptions o;
    o.onTargetDestroyed = OnTargetDestroyed::Destroy;
    parent = registerRelation<SParent>(w, o).value();
    EXPECT_TRUE(w.registerComponent<SPos>().ok());
    EXPECT_TRUE(w.registerComponent<SMark>().ok());
  }
  Entity make(std::int32_t v) {
    const Entity e = w.create().value();
    EXPECT_TRUE(w.addComponent(e, SPos{v}).ok());
    return e;
  }
};

std::string reasonOf(const Status& s) { return std::string(s.reason()); }

std::vector<std::uint32_t> visit(Rig& r, Kids& q, Entity target) {
  std::vector<std::uint32_t> seen;
  const Status st = q.eachSourceOf(r.w, r.parent, target, [&](Entity e, SPos&) { seen.push_back(e.id()); });
  EXPECT_TRUE(st.ok()) << st.reason();
  return seen;
}

// The children of one parent, ascending slot, whatever their archetype;
// the terms filter them; Up is the target's value.
TEST(RelationSources, VisitsTheSourcesOfOneTargetInSlotOrder) {
  Rig r;
  std::vector<Entity> e;
  for (int i = 0; i < 8; ++i) e.push_back(r.make(i * 10));
  // 0 <- 5, 0 <- 2, 0 <- 7, 2 <- 3, 1 <- 4.
  const int edges[][2] = {{5, 0}, {2, 0}, {7, 0}, {3, 2}, {4, 1}};
  for (const auto& ed : edges) ASSERT_TRUE(addRelation(r.w, e[ed[0]], r.parent, e[ed[1]]).ok());
  ASSERT_TRUE(r.w.addComponent(e[7], SMark{1}).ok());  // another archetype
  Kids q(r.w);
  EXPECT_EQ(visit(r, q, e[0]), (std::vector<std::uint32_t>{2, 5, 7}));
  EXPECT_EQ(visit(r, q, e[2]), (std::vector<std::uint32_t>{3}));
  EXPECT_EQ(visit(r, q, e[6]), (std::vector<std::uint32_t>{}));
  // A source the terms do not match is skipped.
  ASSERT_TRUE(r.w.removeComponent<SPos>(e[5]).ok());
  EXPECT_EQ(visit(r, q, e[0]), (std::vector<std::uint32_t>{2, 7}));
  // With Up: the target's value (written here: world = parent + own).
  ASSERT_TRUE(q.eachSourceOf<SPos>(r.w, r.parent, e[0], [&](Entity, SPos& p, const SPos* up) {
                 ASSERT_NE(up, nullptr);
                 p.v += up->v + 1;
               }).ok());
  EXPECT_EQ(r.w.get<SPos>(e[2])->v, 20 + 0 + 1);
  EXPECT_EQ(r.w.get<SPos>(e[7])->v, 70 + 0 + 1);
  // A target without Up gives nullptr.
  ASSERT_TRUE(r.w.removeComponent<SPos>(e[1]).ok());
  std::uint32_t n = 0;
  ASSERT_TRUE(q.eachSourceOf<SPos>(r.w, r.parent, e[1], [&](Entity, SPos&, const SPos* up) {
                 EXPECT_EQ(up, nullptr);
                 ++n;
               }).ok());
  EXPECT_EQ(n, 1u);
  // Reparenting moves a child from one list to the other.
  ASSERT_TRUE(addRelation(r.w, e[7], r.parent, e[2]).ok());
  EXPECT_EQ(visit(r, q, e[0]), (std::vector<std::uint32_t>{2}));
  EXPECT_EQ(visit(r, q, e[2]), (std::vector<std::uint32_t>{3, 7}));
}

// Random forests against a plain parent map: after every op, the sources
// the pass visits for a random target are the reference's children of it
// that have SPos, ascending slot; values written through the pass land.
TEST(RelationSources, ModelTestAgainstAPlainReference) {
  constexpr std::uint32_t kCap = 64;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    Rig r(kCap);
    Kids q(r.w);
    Prng rng(seed);
    std::vector<Entity> live;
    std::uint32_t divergences = 0;
    std::vector<std::uint8_t> snapshot;
    for (std::uint32_t op = 0; op < 3000; ++op) {
      const std::uint32_t k = rng.next_u32() % 8;
      const auto pick = [&] { return live[rng.next_u32() % live.size()]; };
      if (live.size() < 4 || k == 0) {
        if (live.size() < kCap) live.push_back(r.make(static_cast<std::int32_t>(op)));
      } else if (k == 1 || k == 2) {
        (void)addRelation(r.w, pick(), r.parent, pick());  // cycles and self links refused
      } else if (k == 3) {
        (void)removeRelation(r.w, pick(), r.parent);
      } else if (k == 4) {
        const Entity x = pick();
        if (r.w.has<SPos>(x)) {
          (void)r.w.removeComponent<SPos>(x);
        } else {
          (void)r.w.addComponent(x, SPos{static_cast<std::int32_t>(op)});
        }
      } else if (k == 5 && rng.next_u32() % 4 == 0) {
        (void)r.w.destroy(pick());  // cascades to the subtree
      } else if (k == 6) {
        if (snapshot.empty() || rng.next_u32() % 2 == 0) {
          snapshot.assign(r.w.snapshotSize(), 0);
          (void)r.w.snapshot(snapshot);
        } else {
          ASSERT_TRUE(r.w.restore(snapshot).ok());
        }
      }
      live.clear();
      (void)r.w.each<>([&](Entity e) { live.push_back(e); });
      if (live.empty()) continue;
      const Entity t = pick();
      std::vector<std::uint32_t> expect;
      for (const Entity s : live) {
        if (targetOf(r.w, s, r.parent) == t && r.w.has<SPos>(s)) expect.push_back(s.id());
      }
      std::vector<std::uint32_t> seen;
      const Status st = q.eachSourceOf(r.w, r.parent, t, [&](Entity e, SPos& p) {
        seen.push_back(e.id());
        p.v = static_cast<std::int32_t>(op);
      });
      if (!st.ok() || seen != expect) ++divergences;
      for (const std::uint32_t s : expect) {
        if (r.w.get<SPos>(r.w.handleAt(static_cast<std::uint16_t>(s)))->v != static_cast<std::int32_t>(op)) ++divergences;
      }
      ASSERT_TRUE(checkRelations(r.w).ok());
    }
    EXPECT_EQ(divergences, 0u) << "seed " << seed;
  }
}

// Every refusal visits nothing and leaves the state hash unchanged;
// relation changes inside go through commands and apply after the pass.
TEST(RelationSources, RefusalsAndCommands) {
  Rig r;
  const Entity a = r.make(1), b = r.make(2), c = r.make(3), gone = r.make(4);
  ASSERT_TRUE(addRelation(r.w, b, r.parent, a).ok());
  ASSERT_TRUE(addRelation(r.w, c, r.parent, a).ok());
  ASSERT_TRUE(r.w.destroy(gone).ok());
  Kids q(r.w);
  const std::uint64_t before = r.w.stateHash(0);
  std::uint32_t visits = 0;
  const auto count = [&](Entity, SPos&) { ++visits; };
  EXPECT_EQ(reasonOf(q.eachSourceOf(r.w, r.parent, gone, count)), "stale_entity_access");
  EXPECT_EQ(reasonOf(q.eachSourceOf(r.w, r.parent, Entity{}, count)), "stale_entity_access");
  EXPECT_EQ(reasonOf(q.eachSourceOf(r.w, r.w.componentId<SMark>(), a, count)), "relation_not_registered");
  ASSERT_TRUE(sourcesOf(r.w, a, r.parent, [&](Entity) {
                EXPECT_EQ(reasonOf(q.eachSourceOf(r.w, r.parent, a, count)), "relation_walk_mutation");
              }).ok());
#if !LAIGE_DEBUG_ASSERTS  // (a nested iteration asserts in debug builds)
  ASSERT_TRUE(r.w.each<SPos>(
                   [&](Entity, const SPos&) {
                     EXPECT_EQ(reasonOf(q.eachSourceOf(r.w, r.parent, a, count)), "iteration_nested");
                   },
                   Read{})
                  .ok());
#endif
  EXPECT_EQ(visits, 0u);
  EXPECT_EQ(r.w.stateHash(0), before);
  std::vector<std::string> reasons;
  ASSERT_TRUE(q.eachSourceOf(r.w, r.parent, a, [&](Entity x, SPos&) {
                 if (x != c) return;
                 reasons.push_back(reasonOf(removeRelation(r.w, c, r.parent)));
                 reasons.push_back(reasonOf(r.w.destroy(a)));
                 ASSERT_TRUE(r.w.commands().destroy(b).ok());
                 ASSERT_TRUE(r.w.commands().add(c, SMark{7}).ok());
               }).ok());
  EXPECT_EQ(reasons, (std::vector<std::string>{"relation_walk_mutation", "relation_walk_mutation"}));
  EXPECT_FALSE(r.w.isValid(b));
  EXPECT_EQ(r.w.get<SMark>(c)->v, 7);
  EXPECT_EQ(visit(r, q, a), (std::vector<std::uint32_t>{c.id()}));
}

TEST(RelationSources, PassesAllocateNothing) {
  Rig r(256);
  std::vector<Entity> e;
  for (int i = 0; i < 64; ++i) e.push_back(r.make(i));
  for (int i = 1; i < 64; ++i) ASSERT_TRUE(addRelation(r.w, e[i], r.parent, e[i < 4 ? 0 : i % 4]).ok());
  Kids q(r.w);
  std::uint32_t visits = 0;
  const auto pass = [&](Entity t) {
    ASSERT_TRUE(q.eachSourceOf<SPos>(r.w, r.parent, t, [&](Entity, SPos& p, const SPos* up) {
                   p.v = up != nullptr ? up->v + 1 : 0;
                   ++visits;
                 }).ok());
  };
  pass(e[0]);  // allocates the rows (16 bytes per slot)
  ASSERT_TRUE(r.w.addComponent(e[4], SMark{0}).ok());  // the archetype the moves below use
  ASSERT_TRUE(r.w.removeComponent<SMark>(e[4]).ok());
  visits = 0;
  test::AllocationWindow window;
  for (int round = 0; round < 10; ++round) {
    for (int t = 0; t < 4; ++t) pass(e[t]);
    ASSERT_TRUE(r.w.addComponent(e[4 + round], SMark{round}).ok());
    ASSERT_TRUE(r.w.removeComponent<SMark>(e[4 + round]).ok());
  }
  EXPECT_EQ(window.allocations(), 0u);
  EXPECT_EQ(visits, 10u * 63u);
}

ComponentTypeId gRel = 0;
Entity gTarget;
Status gStatus;
void childrenSystem(World& w, SystemContext&) {
  Kids q;
  gStatus = q.eachSourceOf(w, gRel, gTarget, [](Entity, SPos& p) { p.v += 1; });
}

// Inside a system the pass needs the relation declared (read) besides the terms.
TEST(RelationSources, InsideASystemTheRelationMustBeDeclared) {
  Rig r;
  const Entity a = r.make(1), b = r.make(2);
  ASSERT_TRUE(addRelation(r.w, b, r.parent, a).ok());
  gRel = r.parent;
  gTarget = a;
  const SystemDef def{"Children", &childrenSystem, fpx16_16::fromDouble(1000.0), nullptr, nullptr};
  ASSERT_TRUE(r.w.registerSystem(def, Io<SPos, Write>{}, Io<SParent, Read>{}).ok());
  SystemSchedule schedule;
  ASSERT_TRUE(r.w.scheduleSystems(schedule).ok());
  ASSERT_TRUE(r.w.runSystems(schedule).ok());
  EXPECT_TRUE(gStatus.ok()) << gStatus.reason();
  EXPECT_EQ(r.w.get<SPos>(b)->v, 3);
#if !LAIGE_DEBUG_ASSERTS
  Rig u;
  const Entity ua = u.make(1), ub = u.make(2);
  ASSERT_TRUE(addRelation(u.w, ub, u.parent, ua).ok());
  gRel = u.parent;
  gTarget = ua;
  ASSERT_TRUE(u.w.registerSystem(def, Io<SPos, Write>{}).ok());
  SystemSchedule s2;
  ASSERT_TRUE(u.w.scheduleSystems(s2).ok());
  const std::uint64_t before = u.w.stateHash(0);
  (void)u.w.runSystems(s2);
  EXPECT_EQ(reasonOf(gStatus), "system_io_violation");
  EXPECT_EQ(u.w.stateHash(0), before);
#endif
}

}  // namespace
}  // namespace laige
