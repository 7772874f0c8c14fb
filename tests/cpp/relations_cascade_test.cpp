// relations_cascade_test.cpp - the cascade query option, Query::eachCascade
// (docs/relations.md#the-cascade-query-option): the hierarchy order and the
// target's value, a model test against a plain reference over random
// forests (reparent, destroy, component changes, restore between passes),
// the refusals (state hash unchanged), commands applying after the pass,
// system io, and the allocation-free pass.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
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

struct CParent {
  Entity target;
};
LAIGE_COMPONENT(CParent, target);
struct CLocal {
  std::int32_t v;
};
LAIGE_COMPONENT(CLocal, v);
struct CWorld {
  std::int32_t v;
};
LAIGE_COMPONENT(CWorld, v);
struct CTag {
  std::int32_t v;
};
LAIGE_COMPONENT(CTag, v);

using Xf = Query<Reads<CLocal>, Writes<CWorld>>;

// The propagation the tests use: world = parent world x 3 + local (wrapping).
std::int32_t compose(const CWorld* up, const CLocal& l) {
  const std::uint32_t p = up != nullptr ? static_cast<std::uint32_t>(up->v) : 0u;
  return static_cast<std::int32_t>(p * 3u + static_cast<std::uint32_t>(l.v));
}

struct Rig {
  World w;
  ComponentTypeId parent = 0;
  explicit Rig(std::uint32_t capacity = 64, OnTargetDestroyed rule = OnTargetDestroyed::Destroy)
      : w(World::create(capacity).value()) {
    RelationOptions o;
    o.onTargetDestroyed = rule;
    parent = registerRelation<CParent>(w, o).value();
    EXPECT_TRUE(w.registerComponent<CLocal>().ok());
    EXPECT_TRUE(w.registerComponent<CWorld>().ok());
    EXPECT_TRUE(w.registerComponent<CTag>().ok());
  }
  Entity make(std::int32_t local) {
    const Entity e = w.create().value();
    EXPECT_TRUE(w.addComponent(e, CLocal{local}).ok());
    EXPECT_TRUE(w.addComponent(e, CWorld{0}).ok());
    return e;
  }
};

std::string reasonOf(const Status& s) { return std::string(s.reason()); }

// Depth by depth (depth 0: the entities without the relation), each depth
// ascending by slot; the target's value is the one this pass wrote.
TEST(RelationCascade, VisitsInHierarchyOrderWithTheTargetsValue) {
  Rig r;
  std::vector<Entity> e;
  for (int i = 0; i < 10; ++i) e.push_back(r.make(i + 1));
  // Forest: roots 0, 5, 7. 0 <- 9, 0 <- 3; 3 <- 1; 1 <- 8; 5 <- 2; 2 <- 4; 2 <- 6.
  const int edges[][2] = {{9, 0}, {3, 0}, {1, 3}, {8, 1}, {2, 5}, {4, 2}, {6, 2}};
  for (const auto& ed : edges) ASSERT_TRUE(addRelation(r.w, e[ed[0]], r.parent, e[ed[1]]).ok());
  std::vector<int> order;
  Xf q(r.w);
  ASSERT_TRUE(q.eachCascade<CWorld>(r.w, r.parent, [&](Entity x, const CLocal& l, CWorld& out, const CWorld* up) {
                 const Entity t = targetOf(r.w, x, r.parent);
                 if (t == Entity{}) {
                   EXPECT_EQ(up, nullptr);
                 } else {
                   EXPECT_EQ(up, r.w.get<CWorld>(t));
                 }
                 out.v = compose(up, l);
                 order.push_back(x.id());
               }).ok());
  EXPECT_EQ(order, (std::vector<int>{0, 5, 7, 2, 3, 9, 1, 4, 6, 8}));
  // 8 = ((1 x 3 + 4) x 3 + 2) x 3 + 9 (0 -> 3 -> 1 -> 8; locals are id + 1).
  EXPECT_EQ(r.w.get<CWorld>(e[8])->v, ((1 * 3 + 4) * 3 + 2) * 3 + 9);
  // Without Up: the same order, no target argument.
  std::vector<int> plain;
  ASSERT_TRUE(q.eachCascade(r.w, r.parent, [&](Entity x, const CLocal&, CWorld&) { plain.push_back(x.id()); }).ok());
  EXPECT_EQ(plain, order);
  // An entity the terms do not match is skipped; its sources are still
  // visited, and read its value as it is.
  ASSERT_TRUE(r.w.removeComponent<CLocal>(e[3]).ok());
  r.w.get<CWorld>(e[3])->v = 100;
  order.clear();
  ASSERT_TRUE(q.eachCascade<CWorld>(r.w, r.parent, [&](Entity x, const CLocal& l, CWorld& out, const CWorld* up) {
                 out.v = compose(up, l);
                 order.push_back(x.id());
               }).ok());
  EXPECT_EQ(order, (std::vector<int>{0, 5, 7, 2, 9, 1, 4, 6, 8}));
  EXPECT_EQ(r.w.get<CWorld>(e[1])->v, 100 * 3 + 2);
  // A target without Up (or without any component) gives nullptr.
  const Entity bare = r.w.create().value();
  ASSERT_TRUE(addRelation(r.w, e[7], r.parent, bare).ok());
  ASSERT_TRUE(q.eachCascade<CTag>(r.w, r.parent, [&](Entity x, const CLocal&, CWorld&, const CTag* up) {
                 EXPECT_EQ(up, nullptr) << x.id();
               }).ok());
  EXPECT_EQ(reasonOf(q.eachCascade(r.w, r.w.componentId<CTag>(), [](Entity, const CLocal&, CWorld&) {})),
            "relation_not_registered");
}

// The plain reference: parents by slot, the order rebuilt from scratch.
struct Model {
  std::vector<std::int32_t> parent;  // slot -> parent slot, -1 none
  std::vector<Entity> handle;        // slot -> live handle, Entity{} dead
};

Model readModel(World& w, ComponentTypeId rel, std::uint32_t capacity) {
  Model m;
  m.parent.assign(capacity, -1);
  m.handle.assign(capacity, Entity{});
  (void)w.each<>([&](Entity e) {
    m.handle[e.id()] = e;
    const Entity t = targetOf(w, e, rel);
    if (t != Entity{}) m.parent[e.id()] = t.id();
  });
  return m;
}

// Runs one pass and checks it against the reference; returns divergences.
std::uint32_t checkPass(World& w, ComponentTypeId rel, Xf& q, const Model& m, std::uint64_t& digest) {
  const std::uint32_t cap = static_cast<std::uint32_t>(m.handle.size());
  std::vector<std::uint32_t> order;
  std::vector<std::uint32_t> queue;
  for (std::uint32_t s = 0; s < cap; ++s) {
    if (m.handle[s] != Entity{} && m.parent[s] < 0) queue.push_back(s);
  }
  std::vector<std::uint32_t> depth(cap, 0);
  for (std::size_t i = 0; i < queue.size(); ++i) {
    for (std::uint32_t s = 0; s < cap; ++s) {
      if (m.handle[s] != Entity{} && m.parent[s] == static_cast<std::int32_t>(queue[i])) {
        depth[s] = depth[queue[i]] + 1;
        queue.push_back(s);
      }
    }
  }
  // Depth by depth, ascending slot within a depth.
  std::stable_sort(queue.begin(), queue.end(), [&](std::uint32_t a, std::uint32_t b) {
    return depth[a] != depth[b] ? depth[a] < depth[b] : a < b;
  });
  // Expected values: the current ones, then the visited ones recomputed in order.
  std::vector<std::int32_t> expect(cap, 0);
  std::vector<bool> hasWorld(cap, false);
  for (std::uint32_t s = 0; s < cap; ++s) {
    if (m.handle[s] == Entity{}) continue;
    if (const CWorld* v = w.get<CWorld>(m.handle[s])) {
      expect[s] = v->v;
      hasWorld[s] = true;
    }
  }
  for (std::uint32_t s : queue) {
    const Entity h = m.handle[s];
    if (!w.has<CLocal>(h) || !hasWorld[s]) continue;
    order.push_back(s);
    const std::int32_t p = m.parent[s];
    const CWorld up{p >= 0 ? expect[static_cast<std::uint32_t>(p)] : 0};
    expect[s] = compose(p >= 0 && hasWorld[static_cast<std::uint32_t>(p)] ? &up : nullptr, *w.get<CLocal>(h));
  }
  std::vector<std::uint32_t> seen;
  std::uint32_t divergences = 0;
  const Status st = q.eachCascade<CWorld>(w, rel, [&](Entity e, const CLocal& l, CWorld& out, const CWorld* up) {
    const std::int32_t p = m.parent[e.id()];
    const bool upExpected = p >= 0 && hasWorld[static_cast<std::uint32_t>(p)];
    if (upExpected != (up != nullptr)) ++divergences;
    if (e != m.handle[e.id()]) ++divergences;
    out.v = compose(up, l);
    seen.push_back(e.id());
    digest = (digest ^ (e.bits() + static_cast<std::uint32_t>(out.v))) * 1099511628211ull;
  });
  if (!st.ok()) ++divergences;
  if (seen != order) ++divergences;
  for (std::uint32_t s = 0; s < cap; ++s) {
    if (hasWorld[s] && w.get<CWorld>(m.handle[s])->v != expect[s]) ++divergences;
  }
  return divergences;
}

std::uint32_t modelOps() {
  const char* env = std::getenv("LAIGE_RELATION_MODEL_OPS");
  return env != nullptr ? static_cast<std::uint32_t>(std::strtoul(env, nullptr, 10)) : 3000u;
}

// Random forests: creates, reparents (cycles refused), removals of the
// relation and of components, cascading destroys, snapshots and restores,
// a pass every few ops, each checked against the reference.
TEST(RelationCascade, ModelTestAgainstAPlainReference) {
  constexpr std::uint32_t kCap = 96;
  std::uint64_t digestSeed1 = 0;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    Rig r(kCap, seed % 2 == 0 ? OnTargetDestroyed::Remove : OnTargetDestroyed::Destroy);
    Prng rng(seed);
    Xf q(r.w);
    std::vector<std::uint8_t> snapshot;
    bool haveSnapshot = false;
    std::uint32_t divergences = 0;
    std::uint32_t passes = 0;
    std::uint64_t digest = 14695981039346656037ull;
    const auto live = [&]() {
      std::vector<Entity> out;
      (void)r.w.each<>([&](Entity e) { out.push_back(e); });
      return out;
    };
    for (std::uint32_t op = 0; op < modelOps(); ++op) {
      const std::vector<Entity> all = live();
      const auto pick = [&]() { return all[rng.next_u64() % all.size()]; };
      const std::uint64_t kind = all.size() < 4 ? 0 : rng.next_u64() % 16;
      if (kind <= 3) {
        if (all.size() < kCap - 8) {
          const Entity e = r.w.create().value();
          if (rng.next_u64() % 8 != 0) (void)r.w.addComponent(e, CLocal{static_cast<std::int32_t>(rng.next_u64() % 1000)});
          if (rng.next_u64() % 8 != 0) (void)r.w.addComponent(e, CWorld{0});
          if (!all.empty() && rng.next_u64() % 4 != 0) (void)addRelation(r.w, e, r.parent, pick());
        }
      } else if (kind <= 7) {
        const Entity source = pick();  // one pick per statement: argument order is unspecified
        const Entity target = pick();
        (void)addRelation(r.w, source, r.parent, target);  // reparent; cycles and self refused
      } else if (kind == 8) {
        (void)removeRelation(r.w, pick(), r.parent);
      } else if (kind == 9) {
        ASSERT_TRUE(r.w.destroy(pick()).ok());
      } else if (kind == 10) {
        const Entity e = pick();
        if (r.w.has<CLocal>(e)) (void)r.w.removeComponent<CLocal>(e);
        else (void)r.w.addComponent(e, CLocal{static_cast<std::int32_t>(rng.next_u64() % 1000)});
      } else if (kind == 11) {
        const Entity e = pick();
        if (r.w.has<CTag>(e)) (void)r.w.removeComponent<CTag>(e);
        else (void)r.w.addComponent(e, CTag{1});  // moves the row: the order must follow
      } else if (kind == 12) {
        snapshot.assign(r.w.snapshotSize(), 0);
        ASSERT_TRUE(r.w.snapshot(snapshot).ok());
        haveSnapshot = true;
      } else if (kind == 13 && haveSnapshot) {
        ASSERT_TRUE(r.w.restore(snapshot).ok());
      } else {
        const Model m = readModel(r.w, r.parent, kCap);
        divergences += checkPass(r.w, r.parent, q, m, digest);
        ++passes;
      }
    }
    EXPECT_TRUE(checkRelations(r.w).ok());
    EXPECT_EQ(divergences, 0u) << "seed " << seed;
    EXPECT_GT(passes, modelOps() / 10) << "seed " << seed;
    if (seed == 1) digestSeed1 = digest;
  }
  // Native and wasm visit the same entities with the same values.
  if (modelOps() == 3000u) {
    EXPECT_EQ(digestSeed1, 16322972405601972757ull) << "golden visit digest";
  }
}


std::vector<int> passOrder(Rig& r, Xf& q) {
  std::vector<int> order;
  EXPECT_TRUE(q.eachCascade<CWorld>(r.w, r.parent, [&](Entity x, const CLocal& l, CWorld& out, const CWorld* up) {
                 out.v = compose(up, l);
                 order.push_back(x.id());
               }).ok());
  return order;
}

// Relation changes inside the pass are refused (nothing changes); recorded
// as commands they apply when the pass returns, and the next pass follows.
TEST(RelationCascade, RelationChangesInsideThePassAreRefusedAndApplyAsCommands) {
  Rig r;
  const Entity a = r.make(1), b = r.make(2), c = r.make(3);
  ASSERT_TRUE(addRelation(r.w, b, r.parent, a).ok());
  ASSERT_TRUE(addRelation(r.w, c, r.parent, b).ok());
  Xf q(r.w);
  EXPECT_EQ(passOrder(r, q), (std::vector<int>{a.id(), b.id(), c.id()}));
  const std::uint64_t before = r.w.stateHash(0);
  std::vector<std::string> reasons;
  ASSERT_TRUE(q.eachCascade<CWorld>(r.w, r.parent, [&](Entity x, const CLocal&, CWorld&, const CWorld*) {
                 if (x != c) return;
                 reasons.push_back(reasonOf(addRelation(r.w, c, r.parent, a)));
                 reasons.push_back(reasonOf(r.w.addComponent(c, CParent{a})));
                 reasons.push_back(reasonOf(removeRelation(r.w, c, r.parent)));
                 reasons.push_back(reasonOf(r.w.destroy(b)));
                 reasons.push_back(reasonOf(eachCascade(r.w, r.parent, [](Entity, Entity) {})));
                 reasons.push_back(reasonOf(r.w.destroy(a)));
               }).ok());
  ASSERT_EQ(reasons.size(), 6u);
  for (const std::string& s : reasons) EXPECT_EQ(s, "relation_walk_mutation");
  EXPECT_EQ(r.w.stateHash(0), before);
  // Inside a relation walk, a pass is refused before anything runs.
  const std::uint64_t inWalk = r.w.stateHash(0);
  ASSERT_TRUE(sourcesOf(r.w, a, r.parent, [&](Entity) {
                EXPECT_EQ(reasonOf(q.eachCascade(r.w, r.parent, [](Entity, const CLocal&, CWorld&) {})),
                          "relation_walk_mutation");
              }).ok());
  EXPECT_EQ(r.w.stateHash(0), inWalk);
  // Through commands: applied after the pass, in recording order.
  ASSERT_TRUE(q.eachCascade<CWorld>(r.w, r.parent, [&](Entity x, const CLocal&, CWorld&, const CWorld*) {
                 if (x != c) return;
                 ASSERT_TRUE(r.w.commands().add(c, CParent{a}).ok());
                 ASSERT_TRUE(r.w.commands().destroy(b).ok());
               }).ok());
  EXPECT_FALSE(r.w.isValid(b));
  EXPECT_EQ(targetOf(r.w, c, r.parent), a);
  EXPECT_EQ(passOrder(r, q), (std::vector<int>{a.id(), c.id()}));
  EXPECT_EQ(r.w.get<CWorld>(c)->v, 1 * 3 + 3);
  EXPECT_TRUE(checkRelations(r.w).ok());
}

// The order after a restore is the restored world's, whatever happened between.
TEST(RelationCascade, RestoreBringsBackTheOrderExactly) {
  Rig r;
  std::vector<Entity> e;
  for (int i = 0; i < 8; ++i) e.push_back(r.make(i + 1));
  for (int i = 1; i < 8; ++i) ASSERT_TRUE(addRelation(r.w, e[i], r.parent, e[(i - 1) / 2]).ok());
  Xf q(r.w);
  const std::vector<int> first = passOrder(r, q);
  std::vector<std::uint8_t> bytes(r.w.snapshotSize(), 0);
  ASSERT_TRUE(r.w.snapshot(bytes).ok());
  const std::uint64_t hash = r.w.stateHash(0);
  ASSERT_TRUE(addRelation(r.w, e[1], r.parent, e[6]).ok());  // 1 moves under 6
  ASSERT_TRUE(r.w.destroy(e[2]).ok());                      // 6 goes too, 1 with it
  EXPECT_EQ(passOrder(r, q), (std::vector<int>{0}));
  ASSERT_TRUE(r.w.restore(bytes).ok());
  EXPECT_EQ(passOrder(r, q), first);
  EXPECT_EQ(r.w.stateHash(0), hash);  // the pass recomputed the same values
  // Rollback-style: restore again right after a pass that changed nothing structural.
  ASSERT_TRUE(addRelation(r.w, e[7], r.parent, e[0]).ok());
  (void)passOrder(r, q);
  ASSERT_TRUE(r.w.restore(bytes).ok());
  EXPECT_EQ(passOrder(r, q), first);
  EXPECT_EQ(r.w.stateHash(0), hash);
}

// Once the order is built, passes allocate nothing, rebuilds included.
TEST(RelationCascade, PassesAllocateNothing) {
  Rig r(256);
  std::vector<Entity> e;
  for (int i = 0; i < 64; ++i) e.push_back(r.make(i));
  for (int i = 1; i < 64; ++i) ASSERT_TRUE(addRelation(r.w, e[i], r.parent, e[(i - 1) / 2]).ok());
  Xf q(r.w);
  std::uint32_t visits = 0;
  const auto pass = [&] {
    ASSERT_TRUE(q.eachCascade<CWorld>(r.w, r.parent, [&](Entity, const CLocal& l, CWorld& out, const CWorld* up) {
                   out.v = compose(up, l);
                   ++visits;
                 }).ok());
  };
  pass();  // allocates the order (16 bytes per slot)
  // The archetypes the row moves below use, created before the window.
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(r.w.addComponent(e[i], CTag{i}).ok());
    ASSERT_TRUE(r.w.removeComponent<CTag>(e[i]).ok());
  }
  visits = 0;
  test::AllocationWindow window;
  for (int round = 0; round < 10; ++round) {
    pass();
    ASSERT_TRUE(addRelation(r.w, e[63], r.parent, e[round]).ok());  // a reparent: rebuilt
    pass();
    ASSERT_TRUE(r.w.addComponent(e[round], CTag{round}).ok());  // a row move: rebuilt
    pass();
    ASSERT_TRUE(r.w.removeComponent<CTag>(e[round]).ok());  // and back
    pass();
  }
  EXPECT_EQ(window.allocations(), 0u);
  EXPECT_EQ(visits, 40u * 64u);
}

ComponentTypeId gSystemRel = 0;
Status gSystemStatus;
void cascadeSystem(World& w, SystemContext&) {
  Xf q;
  gSystemStatus = q.eachCascade<CWorld>(w, gSystemRel, [](Entity, const CLocal& l, CWorld& out, const CWorld* up) {
    out.v = compose(up, l);
  });
}

// Inside a system the pass needs the relation declared (it reads the
// hierarchy) besides the terms; declared, it runs.
TEST(RelationCascade, InsideASystemTheRelationMustBeDeclared) {
  Rig r;
  const Entity a = r.make(1), b = r.make(2);
  ASSERT_TRUE(addRelation(r.w, b, r.parent, a).ok());
  gSystemRel = r.parent;
  const SystemDef def{"Cascade", &cascadeSystem, fpx16_16::fromDouble(1000.0), nullptr, nullptr};
  ASSERT_TRUE(r.w.registerSystem(def, Io<CLocal, Read>{}, Io<CWorld, Write>{}, Io<CParent, Read>{}).ok());
  SystemSchedule schedule;
  ASSERT_TRUE(r.w.scheduleSystems(schedule).ok());
  ASSERT_TRUE(r.w.runSystems(schedule).ok());
  EXPECT_TRUE(gSystemStatus.ok()) << gSystemStatus.reason();
  EXPECT_EQ(r.w.get<CWorld>(b)->v, 1 * 3 + 2);
#if !LAIGE_DEBUG_ASSERTS
  Rig u;
  const Entity ua = u.make(1), ub = u.make(2);
  ASSERT_TRUE(addRelation(u.w, ub, u.parent, ua).ok());
  gSystemRel = u.parent;
  ASSERT_TRUE(u.w.registerSystem(def, Io<CLocal, Read>{}, Io<CWorld, Write>{}).ok());
  SystemSchedule s2;
  ASSERT_TRUE(u.w.scheduleSystems(s2).ok());
  const std::uint64_t before = u.w.stateHash(0);
  (void)u.w.runSystems(s2);
  EXPECT_EQ(reasonOf(gSystemStatus), "system_io_violation");
  EXPECT_EQ(u.w.stateHash(0), before);
#endif
}

#if !LAIGE_DEBUG_ASSERTS
// The guard covers the targets' archetypes: a structural change that would
// move a target row is refused even when the query does not match it; the
// query's own rules hold as in each. Every refusal leaves the world unchanged.
TEST(RelationCascade, TheGuardCoversTheTargetsRows) {
  Rig r;
  const Entity t = r.w.create().value();
  ASSERT_TRUE(r.w.addComponent(t, CWorld{7}).ok());  // not matched (no CLocal)
  const Entity c = r.make(1);
  ASSERT_TRUE(addRelation(r.w, c, r.parent, t).ok());
  const Entity loose = r.w.create().value();
  ASSERT_TRUE(r.w.addComponent(loose, CTag{1}).ok());
  Xf q(r.w);
  Query<Reads<CLocal>> reader(r.w);
  const std::uint64_t before = r.w.stateHash(0);
  std::vector<std::string> reasons;
  ASSERT_TRUE(q.eachCascade<CWorld>(r.w, r.parent, [&](Entity, const CLocal&, CWorld&, const CWorld* up) {
                 EXPECT_EQ(up->v, 7);
                 reasons.push_back(reasonOf(r.w.addComponent(t, CTag{2})));
                 reasons.push_back(reasonOf(r.w.removeComponent<CWorld>(t)));
                 reasons.push_back(reasonOf(r.w.clear()));
                 reasons.push_back(reasonOf(q.eachCascade(r.w, r.parent, [](Entity, const CLocal&, CWorld&) {})));
               }).ok());
  EXPECT_EQ(reasons, (std::vector<std::string>{"iteration_mutation", "iteration_mutation", "iteration_clear",
                                               "iteration_nested"}));
  // Up is handed out const: an in-place World write of it is refused unless a term writes it.
  ASSERT_TRUE(reader.eachCascade<CWorld>(r.w, r.parent, [&](Entity x, const CLocal&, const CWorld*) {
                 reasons.push_back(reasonOf(r.w.addComponent(x, CWorld{9})));
               }).ok());
  EXPECT_EQ(reasons.back(), "iteration_write_during_read");
  EXPECT_EQ(r.w.stateHash(0), before);
  // A row outside the pass moves freely.
  ASSERT_TRUE(q.eachCascade(r.w, r.parent, [&](Entity, const CLocal&, CWorld&) {
                 EXPECT_TRUE(r.w.removeComponent<CTag>(loose).ok());
               }).ok());
}
#else
TEST(RelationCascadeDeathTest, MovingATargetRowAssertsInDebugBuilds) {
  Rig r;
  const Entity t = r.w.create().value();
  ASSERT_TRUE(r.w.addComponent(t, CWorld{7}).ok());
  const Entity c = r.make(1);
  ASSERT_TRUE(addRelation(r.w, c, r.parent, t).ok());
  Xf q(r.w);
  EXPECT_DEATH((void)q.eachCascade<CWorld>(r.w, r.parent, [&](Entity, const CLocal&, CWorld&, const CWorld*) {
                 (void)r.w.addComponent(t, CTag{2});
               }),
               "misuse");
}
#endif
}  // namespace
}  // namespace laige
