// relations_test.cpp - relations (docs/relations.md): add / remove /
// reparent, the refusals (world unchanged: state hash equal), the cleanup
// cascade and its order, hierarchy order, snapshots, the state hash, and
// the allocation-free paths.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "laige/relations.h"
#include "laige/snapshot.h"
#include "laige/world.h"
#include "support/counting_allocator.h"

namespace laige {
namespace {

struct RChildOf {
  Entity target;
};
LAIGE_COMPONENT(RChildOf, target);
struct RLikes {
  Entity target;
  std::int32_t weight;
};
LAIGE_COMPONENT(RLikes, target, weight);
struct RPos {
  std::int32_t x;
};
LAIGE_COMPONENT(RPos, x);

struct Rig {
  World w;
  ComponentTypeId childOf = 0;
  ComponentTypeId likes = 0;
  explicit Rig(std::uint32_t capacity = 64) : w(World::create(capacity).value()) {
    RelationOptions destroy;
    destroy.onTargetDestroyed = OnTargetDestroyed::Destroy;
    childOf = registerRelation<RChildOf>(w, destroy).value();
    likes = registerRelation<RLikes>(w, RelationOptions{}).value();
    EXPECT_TRUE(w.registerComponent<RPos>().ok());
  }
  Entity make() { return w.create().value(); }
  std::vector<std::uint16_t> sources(Entity t, ComponentTypeId rel) {
    std::vector<std::uint16_t> out;
    EXPECT_TRUE(sourcesOf(w, t, rel, [&](Entity s) { out.push_back(s.id()); }).ok());
    return out;
  }
};

std::string reasonOf(const Status& s) { return std::string(s.reason()); }

TEST(Relations, AddTargetOfSourcesOfRemove) {
  Rig r;
  const Entity p = r.make(), a = r.make(), b = r.make(), c = r.make();
  ASSERT_TRUE(addRelation(r.w, c, r.childOf, p).ok());
  ASSERT_TRUE(addRelation(r.w, a, r.childOf, p).ok());
  ASSERT_TRUE(r.w.addComponent(b, RChildOf{p}).ok());  // the component path is the same relation
  EXPECT_TRUE(hasRelation(r.w, a, r.childOf));
  EXPECT_FALSE(hasRelation(r.w, p, r.childOf));
  EXPECT_EQ(targetOf(r.w, b, r.childOf), p);
  EXPECT_EQ(targetOf(r.w, p, r.childOf), Entity{});
  EXPECT_EQ(r.sources(p, r.childOf), (std::vector<std::uint16_t>{a.id(), b.id(), c.id()}));  // slot order
  EXPECT_EQ(sourceCount(r.w, p, r.childOf), 3u);
  ASSERT_TRUE(removeRelation(r.w, b, r.childOf).ok());
  EXPECT_FALSE(hasRelation(r.w, b, r.childOf));
  EXPECT_EQ(r.sources(p, r.childOf), (std::vector<std::uint16_t>{a.id(), c.id()}));
  ASSERT_TRUE(removeRelation(r.w, b, r.childOf).ok());  // absent: a no-op
  ASSERT_TRUE(r.w.removeComponent<RChildOf>(a).ok());
  EXPECT_EQ(r.sources(p, r.childOf), (std::vector<std::uint16_t>{c.id()}));
  EXPECT_TRUE(checkRelations(r.w).ok());
}

TEST(Relations, AddingAnotherTargetReparentsAndKeepsThePayload) {
  Rig r;
  const Entity p = r.make(), q = r.make(), a = r.make();
  ASSERT_TRUE(r.w.addComponent(a, RLikes{p, 7}).ok());
  ASSERT_TRUE(addRelation(r.w, a, r.likes, q).ok());
  EXPECT_EQ(targetOf(r.w, a, r.likes), q);
  EXPECT_EQ(r.w.get<RLikes>(a)->weight, 7);
  EXPECT_TRUE(r.sources(p, r.likes).empty());
  EXPECT_EQ(r.sources(q, r.likes), (std::vector<std::uint16_t>{a.id()}));
  ASSERT_TRUE(addRelation(r.w, a, r.likes, q).ok());  // same target: an overwrite
  EXPECT_EQ(sourceCount(r.w, q, r.likes), 1u);
  EXPECT_TRUE(checkRelations(r.w).ok());
}

// Every refusal leaves the world as it was (state hash and index equal).
TEST(Relations, BadInputIsRefusedWithAReasonAndChangesNothing) {
  Rig r;
  const Entity a = r.make(), b = r.make(), c = r.make(), d = r.make();
  ASSERT_TRUE(addRelation(r.w, b, r.childOf, a).ok());
  ASSERT_TRUE(addRelation(r.w, c, r.childOf, b).ok());
  const Entity dead = r.make();
  ASSERT_TRUE(r.w.destroy(dead).ok());
  const Entity reused = r.make();  // same slot, newer generation: `dead` is stale
  ASSERT_EQ(reused.id(), dead.id());
  World other = World::create(64).value();
  Entity foreign;
  for (int i = 0; i < 40; ++i) foreign = other.create().value();  // slot 39: not live in r.w

  struct Case {
    const char* name;
    Status (*op)(Rig&, Entity, Entity, Entity, Entity, Entity, Entity);
    const char* reason;
  };
  const Case cases[] = {
      {"dead target", [](Rig& g, Entity, Entity, Entity, Entity d, Entity dd, Entity) { return addRelation(g.w, d, g.childOf, dd); }, "relation_target_stale"},
      {"null target", [](Rig& g, Entity, Entity, Entity, Entity d, Entity, Entity) { return addRelation(g.w, d, g.childOf, Entity{}); }, "relation_target_stale"},
      {"other world", [](Rig& g, Entity, Entity, Entity, Entity d, Entity, Entity f) { return addRelation(g.w, d, g.childOf, f); }, "relation_target_stale"},
      {"self", [](Rig& g, Entity, Entity, Entity, Entity d, Entity, Entity) { return addRelation(g.w, d, g.childOf, d); }, "relation_self"},
      {"cycle of 2", [](Rig& g, Entity a, Entity b, Entity, Entity, Entity, Entity) { return addRelation(g.w, a, g.childOf, b); }, "relation_cycle"},
      {"cycle of 3", [](Rig& g, Entity a, Entity, Entity c, Entity, Entity, Entity) { return addRelation(g.w, a, g.childOf, c); }, "relation_cycle"},
      {"reparent into own subtree", [](Rig& g, Entity, Entity b, Entity c, Entity, Entity, Entity) { return addRelation(g.w, b, g.childOf, c); }, "relation_cycle"},
      {"component path cycle", [](Rig& g, Entity a, Entity, Entity c, Entity, Entity, Entity) { return g.w.addComponent(a, RChildOf{c}); }, "relation_cycle"},
      {"bytes path self", [](Rig& g, Entity, Entity, Entity, Entity d, Entity, Entity) {
         const std::uint32_t bits = d.bits();
         return g.w.addComponentBytes(d, g.childOf, &bits, 4);
       }, "relation_self"},
      {"not a relation", [](Rig& g, Entity, Entity, Entity, Entity d, Entity, Entity) { return addRelation(g.w, d, g.w.componentId<RPos>(), d); }, "relation_not_registered"},
      {"stale source", [](Rig& g, Entity a, Entity, Entity, Entity, Entity dd, Entity) { return addRelation(g.w, dd, g.childOf, a); }, "stale_entity_access"},
      {"remove: not a relation", [](Rig& g, Entity a, Entity, Entity, Entity, Entity, Entity) { return removeRelation(g.w, a, g.w.componentId<RPos>()); }, "relation_not_registered"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    const std::uint64_t before = r.w.stateHash(0);
    const Status st = k.op(r, a, b, c, d, dead, foreign);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(reasonOf(st), k.reason);
    EXPECT_EQ(r.w.stateHash(0), before);
    EXPECT_TRUE(checkRelations(r.w).ok());
    EXPECT_EQ(r.sources(a, r.childOf), (std::vector<std::uint16_t>{b.id()}));
  }
}

TEST(Relations, RegistrationRefusals) {
  World w = World::create(16).value();
  EXPECT_EQ(reasonOf(registerRelation(w, ComponentTypeId{9}, RelationOptions{})), "component_unregistered");
  const ComponentTypeId pos = w.registerComponent<RPos>().value();  // an I32 at offset 0
  EXPECT_EQ(reasonOf(registerRelation(w, pos, RelationOptions{})), "relation_layout_invalid");
  RelationOptions multi;
  multi.exclusive = false;
  EXPECT_EQ(reasonOf(registerRelation<RChildOf>(w, multi).status()), "relation_options_invalid");
  EXPECT_EQ(w.componentId<RChildOf>(), kInvalidComponentTypeId);  // refused before registering
  RelationOptions bad;
  bad.onTargetDestroyed = static_cast<OnTargetDestroyed>(5);
  EXPECT_EQ(reasonOf(registerRelation(w, "Bad", bad).status()), "relation_options_invalid");
  const ComponentTypeId owns = registerRelation(w, "Owns", RelationOptions{}).value();
  EXPECT_TRUE(isRelation(w, owns));
  EXPECT_EQ(reasonOf(registerRelation(w, owns, RelationOptions{})), "relation_already_registered");
  // A component some entity has already cannot become a relation.
  const ComponentTypeId likes = w.registerComponent<RLikes>().value();
  const Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, RLikes{e, 1}).ok());
  EXPECT_EQ(reasonOf(registerRelation(w, likes, RelationOptions{})), "relation_component_in_use");
  // Not inside a phase.
  Status inside;
  ASSERT_TRUE(w.defer([&](CommandBuffer&) { inside = registerRelation(w, "Later", RelationOptions{}).status(); }).ok());
  EXPECT_EQ(reasonOf(inside), "relation_register_inside_callback");
  World moved;
  EXPECT_EQ(reasonOf(registerRelation(moved, owns, RelationOptions{})), "world_moved_from");
}

// Destroy: the target first, then breadth first through the Destroy
// sources (ascending slots per target); Remove sources lose the relation.
TEST(Relations, DestroyCascadesInBreadthFirstOrderAndRemovesTheRest) {
  Rig r;
  const Entity root = r.make(), a = r.make(), b = r.make(), a1 = r.make(), b1 = r.make(), a2 = r.make();
  const Entity fan = r.make(), bystander = r.make();
  ASSERT_TRUE(addRelation(r.w, b, r.childOf, root).ok());
  ASSERT_TRUE(addRelation(r.w, a, r.childOf, root).ok());
  ASSERT_TRUE(addRelation(r.w, a2, r.childOf, a).ok());
  ASSERT_TRUE(addRelation(r.w, a1, r.childOf, a).ok());
  ASSERT_TRUE(addRelation(r.w, b1, r.childOf, b).ok());
  ASSERT_TRUE(r.w.addComponent(fan, RLikes{a1, 3}).ok());       // Remove policy: survives
  ASSERT_TRUE(r.w.addComponent(bystander, RLikes{fan, 4}).ok());  // untouched
  ASSERT_TRUE(r.w.destroy(root).ok());
  for (Entity e : {root, a, b, a1, b1, a2}) EXPECT_FALSE(r.w.isValid(e));
  EXPECT_TRUE(r.w.isValid(fan));
  EXPECT_FALSE(hasRelation(r.w, fan, r.likes));
  EXPECT_EQ(targetOf(r.w, bystander, r.likes), fan);
  EXPECT_TRUE(checkRelations(r.w).ok());
  // The destroy order: root; its children a, b (ascending slots); a's
  // children a1, a2; b's child b1. The free list hands the slots back last
  // destroyed first.
  std::vector<std::uint16_t> reuse;
  for (int i = 0; i < 6; ++i) reuse.push_back(r.make().id());
  EXPECT_EQ(reuse, (std::vector<std::uint16_t>{b1.id(), a2.id(), a1.id(), b.id(), a.id(), root.id()}));
}

TEST(Relations, CascadeThroughCommandsInsideIteration) {
  Rig r;
  const Entity p = r.make(), c1 = r.make(), c2 = r.make(), g = r.make();
  ASSERT_TRUE(r.w.addComponent(p, RPos{1}).ok());
  ASSERT_TRUE(addRelation(r.w, c1, r.childOf, p).ok());
  ASSERT_TRUE(addRelation(r.w, c2, r.childOf, p).ok());
  ASSERT_TRUE(addRelation(r.w, g, r.childOf, c2).ok());
  ASSERT_TRUE(r.w.each<RPos>([&](Entity e, const RPos&) { ASSERT_TRUE(r.w.commands().destroy(e).ok()); }, Read{}).ok());
  for (Entity e : {p, c1, c2, g}) EXPECT_FALSE(r.w.isValid(e));
  EXPECT_TRUE(checkRelations(r.w).ok());
}

TEST(Relations, MutationsInsideAWalkAreRefused) {
  Rig r;
  const Entity p = r.make(), c = r.make();
  ASSERT_TRUE(addRelation(r.w, c, r.childOf, p).ok());
  std::vector<std::string> reasons;
  ASSERT_TRUE(sourcesOf(r.w, p, r.childOf, [&](Entity s) {
                reasons.push_back(reasonOf(r.w.destroy(s)));
                reasons.push_back(reasonOf(removeRelation(r.w, s, r.childOf)));
                reasons.push_back(reasonOf(addRelation(r.w, p, r.childOf, s)));
                reasons.push_back(reasonOf(r.w.clear()));
                reasons.push_back(reasonOf(eachCascade(r.w, r.childOf, [](Entity, Entity) {})));
              }).ok());
  for (const std::string& s : reasons) EXPECT_EQ(s, "relation_walk_mutation");
  // Through commands they apply after the walk.
  ASSERT_TRUE(r.w.defer([&](CommandBuffer& cmd) {
                ASSERT_TRUE(sourcesOf(r.w, p, r.childOf, [&](Entity s) { ASSERT_TRUE(cmd.destroy(s).ok()); }).ok());
              }).ok());
  EXPECT_FALSE(r.w.isValid(c));
  EXPECT_TRUE(r.w.isValid(p));
}

// Depth by depth: every target is visited (or is a root) before its sources.
TEST(Relations, EachCascadeVisitsParentsBeforeChildrenDepthByDepth) {
  Rig r;
  std::vector<Entity> e;
  for (int i = 0; i < 10; ++i) e.push_back(r.make());
  // Forest: roots 0 and 5. 0 <- 9, 0 <- 3; 3 <- 1; 1 <- 8; 5 <- 2; 2 <- 4; 2 <- 6.
  const int edges[][2] = {{9, 0}, {3, 0}, {1, 3}, {8, 1}, {2, 5}, {4, 2}, {6, 2}};
  for (const auto& ed : edges) ASSERT_TRUE(addRelation(r.w, e[ed[0]], r.childOf, e[ed[1]]).ok());
  std::vector<int> order;
  ASSERT_TRUE(eachCascade(r.w, r.childOf, [&](Entity s, Entity t) {
                EXPECT_EQ(targetOf(r.w, s, r.childOf), t);
                order.push_back(s.id());
              }).ok());
  // Depth 1: root 0's (3, 9), root 5's (2); depth 2: 3's (1), 2's (4, 6); depth 3: 1's (8).
  EXPECT_EQ(order, (std::vector<int>{3, 9, 2, 1, 4, 6, 8}));
  EXPECT_EQ(reasonOf(eachCascade(r.w, r.w.componentId<RPos>(), [](Entity, Entity) {})), "relation_not_registered");
}

TEST(Relations, TheStateHashAndStateDiffSeeAReparent) {
  Rig a, b;
  for (Rig* g : {&a, &b}) {
    const Entity p = g->make(), q = g->make(), c = g->make();
    ASSERT_TRUE(addRelation(g->w, c, g->childOf, p).ok());
    (void)q;
  }
  EXPECT_EQ(a.w.stateHash(0), b.w.stateHash(0));
  ASSERT_TRUE(addRelation(b.w, b.w.handleAt(2), b.childOf, b.w.handleAt(1)).ok());
  EXPECT_NE(a.w.stateHash(0), b.w.stateHash(0));
  std::vector<StateDiffItem> items;
  EXPECT_EQ(a.w.stateDiff(b.w, 8, [&](const StateDiffItem& it) { items.push_back(it); }), 1u);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].slot, 2);
  EXPECT_EQ(items[0].componentId, a.childOf);
}

std::vector<std::uint8_t> snap(const World& w) {
  std::vector<std::uint8_t> out(w.snapshotSize());
  EXPECT_TRUE(w.snapshot(out).ok());
  return out;
}

TEST(Relations, RestoreRebuildsTheIndexExactly) {
  Rig r;
  const Entity p = r.make(), c1 = r.make(), c2 = r.make(), g = r.make();
  ASSERT_TRUE(addRelation(r.w, c2, r.childOf, p).ok());
  ASSERT_TRUE(addRelation(r.w, c1, r.childOf, p).ok());
  ASSERT_TRUE(addRelation(r.w, g, r.childOf, c1).ok());
  const std::vector<std::uint8_t> bytes = snap(r.w);
  const std::uint64_t hash = r.w.stateHash(0);
  ASSERT_TRUE(r.w.destroy(p).ok());
  const Entity n = r.make();
  ASSERT_TRUE(addRelation(r.w, n, r.likes, r.make()).ok());
  ASSERT_TRUE(r.w.restore(bytes).ok());
  EXPECT_EQ(r.w.stateHash(0), hash);
  EXPECT_TRUE(checkRelations(r.w).ok());
  EXPECT_EQ(r.sources(p, r.childOf), (std::vector<std::uint16_t>{c1.id(), c2.id()}));
  EXPECT_EQ(r.sources(c1, r.childOf), (std::vector<std::uint16_t>{g.id()}));
  // Into a fresh world with the same setup; a world without the relations refuses it.
  Rig fresh;
  ASSERT_TRUE(fresh.w.restore(bytes).ok());
  EXPECT_EQ(fresh.w.stateHash(0), hash);
  EXPECT_EQ(fresh.sources(p, fresh.childOf), (std::vector<std::uint16_t>{c1.id(), c2.id()}));
  ASSERT_TRUE(fresh.w.destroy(p).ok());  // the rebuilt index drives the cascade
  EXPECT_EQ(fresh.w.entityCount(), 0u);
  World plain = World::create(64).value();
  ASSERT_TRUE(plain.registerComponent<RChildOf>().ok());
  ASSERT_TRUE(plain.registerComponent<RLikes>().ok());
  ASSERT_TRUE(plain.registerComponent<RPos>().ok());
  EXPECT_EQ(reasonOf(plain.restore(bytes)), "snapshot_setup_mismatch");
}

// A snapshot whose relation value names a dead entity (or itself) is refused.
TEST(Relations, RestoreRefusesAStaleTargetInTheSnapshot) {
  Rig r;
  const Entity p = r.make(), c = r.make();
  ASSERT_TRUE(addRelation(r.w, c, r.childOf, p).ok());
  std::vector<std::uint8_t> bytes = snap(r.w);
  const std::uint32_t good = p.bits();
  for (const std::uint32_t badBits : {Entity(p.id(), static_cast<std::uint16_t>(p.generation() + 1)).bits(),
                                      c.bits(), Entity(40, 1).bits()}) {
    std::vector<std::uint8_t> b = bytes;
    std::size_t at = 0;
    for (std::size_t i = kSnapshotHeaderBytes; i + 4 <= b.size(); i += 4) {
      if (std::memcmp(b.data() + i, &good, 4) == 0) at = i;
    }
    ASSERT_NE(at, 0u);
    std::memcpy(b.data() + at, &badBits, 4);
    const std::uint64_t sum = snapshotChecksum(b);
    std::memcpy(b.data() + kSnapshotChecksumOffset, &sum, 8);
    const std::uint64_t before = r.w.stateHash(0);
    const Status st = r.w.restore(b);
    EXPECT_EQ(reasonOf(st), "snapshot_corrupt");
    EXPECT_EQ(r.w.stateHash(0), before);
    EXPECT_TRUE(checkRelations(r.w).ok());
  }
}

TEST(Relations, ClearEmptiesTheIndex) {
  Rig r;
  const Entity p = r.make(), c = r.make();
  ASSERT_TRUE(addRelation(r.w, c, r.childOf, p).ok());
  ASSERT_TRUE(r.w.clear().ok());
  const Entity p2 = r.make();
  EXPECT_EQ(p2.id(), p.id());
  EXPECT_EQ(sourceCount(r.w, p2, r.childOf), 0u);
  EXPECT_TRUE(checkRelations(r.w).ok());
}

TEST(Relations, CheckRelationsDetectsADirectWriteOfTheTargetField) {
  Rig r;
  const Entity p = r.make(), q = r.make(), c = r.make();
  ASSERT_TRUE(addRelation(r.w, c, r.childOf, p).ok());
  r.w.get<RChildOf>(c)->target = q;  // bypasses the relation rules
  EXPECT_EQ(reasonOf(checkRelations(r.w)), "relation_invariant_broken");
}

// Reparent, remove, re-add (archetypes exist), sourcesOf, eachCascade and a
// cascade destroy allocate nothing.
TEST(Relations, HotPathsAllocateNothing) {
  Rig r(256);
  std::vector<Entity> e;
  for (int i = 0; i < 64; ++i) e.push_back(r.make());
  for (int i = 1; i < 64; ++i) ASSERT_TRUE(addRelation(r.w, e[i], r.childOf, e[(i - 1) / 2]).ok());
  ASSERT_TRUE(removeRelation(r.w, e[63], r.childOf).ok());
  std::uint32_t visits = 0;
  test::AllocationWindow window;
  for (int round = 0; round < 10; ++round) {
    ASSERT_TRUE(addRelation(r.w, e[63], r.childOf, e[round]).ok());
    ASSERT_TRUE(addRelation(r.w, e[63], r.childOf, e[round + 1]).ok());
    ASSERT_TRUE(removeRelation(r.w, e[63], r.childOf).ok());
    ASSERT_TRUE(sourcesOf(r.w, e[0], r.childOf, [&](Entity) { ++visits; }).ok());
    ASSERT_TRUE(eachCascade(r.w, r.childOf, [&](Entity, Entity) { ++visits; }).ok());
  }
  ASSERT_TRUE(r.w.destroy(e[1]).ok());
  EXPECT_EQ(window.allocations(), 0u);
  EXPECT_EQ(visits, 10u * (2 + 62));
  EXPECT_TRUE(checkRelations(r.w).ok());
}

}  // namespace
}  // namespace laige
