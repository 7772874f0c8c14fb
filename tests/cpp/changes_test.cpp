// changes_test.cpp - reacting to change (docs/changes.md): Changed/Added
// filters with per-system and per-query "since", the marks (adds, Write
// refs, Write walks, commands) and the reads that do not mark, removed
// logs with last values, observers (order, deferral, depth limit,
// failures, bad input leaving the state hash unchanged) and no allocation
// on the marking paths.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "laige/changes.h"
#include "laige/commands.h"
#include "laige/query_object.h"
#include "laige/system.h"
#include "laige/world.h"
#include "support/counting_allocator.h"

namespace laige {
namespace {

struct ChPos {
  std::int32_t x, y;
};
LAIGE_COMPONENT(ChPos, x, y);
struct ChVel {
  std::int32_t x, y;
};
LAIGE_COMPONENT(ChVel, x, y);
struct ChTag {
  std::int32_t v;
};
LAIGE_COMPONENT(ChTag, v);

World makeWorld(std::uint32_t capacity = 64) {
  World::Options o;
  o.capacity = capacity;
  o.seed = 3;
  o.churnPerFrameBudget = 0;
  World w = World::create(o).takeValue();
  EXPECT_EQ(w.registerComponent<ChPos>().value(), 1u);
  EXPECT_EQ(w.registerComponent<ChVel>().value(), 2u);
  EXPECT_EQ(w.registerComponent<ChTag>().value(), 3u);
  return w;
}

using ChangedPos = Query<Reads<ChPos>, Changed<ChPos>>;
using AddedPos = Query<Reads<ChPos>, Added<ChPos>>;

std::vector<std::uint16_t> ids(World& w, ChangedPos& q) {
  std::vector<std::uint16_t> out;
  EXPECT_TRUE(q.each(w, [&](Entity e, const ChPos&) { out.push_back(e.id()); }).ok());
  return out;
}
std::vector<std::uint16_t> ids(World& w, AddedPos& q) {
  std::vector<std::uint16_t> out;
  EXPECT_TRUE(q.each(w, [&](Entity e, const ChPos&) { out.push_back(e.id()); }).ok());
  return out;
}
using V = std::vector<std::uint16_t>;

TEST(Changes, QueryObjectSeesChangesSinceItsOwnLastRun) {
  World w = makeWorld();
  std::vector<Entity> es;
  for (int i = 0; i < 4; ++i) {
    es.push_back(w.create().value());
    ASSERT_TRUE(w.addComponent(es.back(), ChPos{i, 0}).ok());
  }
  ChangedPos changed;
  AddedPos added;
  EXPECT_EQ(ids(w, changed), (V{0, 1, 2, 3}));  // first run: everything is new
  EXPECT_EQ(ids(w, changed), V{});             // nothing since
  EXPECT_EQ(ids(w, added), (V{0, 1, 2, 3}));   // another query has its own since
  // Reads never mark: a const get, has, a Reads walk.
  const World& cw = w;
  EXPECT_NE(cw.get<ChPos>(es[1]), nullptr);
  EXPECT_TRUE(w.has<ChPos>(es[1]));
  EXPECT_TRUE(w.each<ChPos>([](Entity, const ChPos&) {}, Read{}).ok());
  EXPECT_EQ(ids(w, changed), V{});
  // A Write ref marks; so does add over an existing value, even with the same bytes.
  w.get<ChPos>(es[2])->x = 9;
  ASSERT_TRUE(w.addComponent(es[0], ChPos{0, 0}).ok());
  EXPECT_EQ(ids(w, changed), (V{0, 2}));
  EXPECT_EQ(ids(w, added), V{});  // changed is not added
  // A Write walk marks every row it visits.
  EXPECT_TRUE(w.each<ChPos>([](Entity, ChPos& p) { p.y += 1; }, Write{}).ok());
  EXPECT_EQ(ids(w, changed), (V{0, 1, 2, 3}));
  // A structural add of another component carries the ticks (not a change of ChPos).
  ASSERT_TRUE(w.addComponent(es[3], ChVel{1, 1}).ok());
  EXPECT_EQ(ids(w, changed), V{});
  // Remove and re-add: added again.
  ASSERT_TRUE(w.removeComponent<ChPos>(es[1]).ok());
  ASSERT_TRUE(w.addComponent(es[1], ChPos{5, 5}).ok());
  EXPECT_EQ(ids(w, added), (V{1}));
  EXPECT_EQ(ids(w, changed), (V{1}));
}

TEST(Changes, WriteWalkThenMoveInDoesNotMarkTheNewcomer) {
  World w = makeWorld();
  const Entity a = w.create().value();
  ASSERT_TRUE(w.addComponent(a, ChPos{1, 1}).ok());
  ASSERT_TRUE(w.addComponent(a, ChVel{1, 1}).ok());
  const Entity b = w.create().value();
  ASSERT_TRUE(w.addComponent(b, ChPos{2, 2}).ok());
  ChangedPos changed;
  EXPECT_EQ(ids(w, changed), (V{1, 0}));  // archetype {Pos} (b) before {Pos, Vel} (a)
  // Walk writes {Pos, Vel} (only a), then b moves into that archetype.
  EXPECT_TRUE((w.each<ChPos, ChVel>([](Entity, ChPos& p, const ChVel&) { p.x += 1; }, Write{}, Read{}).ok()));
  ASSERT_TRUE(w.addComponent(b, ChVel{0, 0}).ok());
  EXPECT_EQ(ids(w, changed), (V{0}));
  // Both are walked now; a leaves the archetype and its mark goes with it.
  EXPECT_TRUE((w.each<ChPos, ChVel>([](Entity, ChPos& p, const ChVel&) { p.x += 1; }, Write{}, Read{}).ok()));
  ASSERT_TRUE(w.removeComponent<ChVel>(a).ok());
  EXPECT_EQ(ids(w, changed), (V{0, 1}));
}

// --- per-system since ------------------------------------------------------

struct Seen {
  std::vector<std::vector<std::uint16_t>> changed;
  std::vector<std::vector<std::uint16_t>> removed;
  std::vector<std::int32_t> removedX;
};
Seen* gSeen = nullptr;
std::uint32_t gWriteSlot = 0xFFFF;

using MoverQ = Query<Writes<ChPos>, Reads<ChVel>>;
LAIGE_SYSTEM(ChWriter, 1.0);
void ChWriter(World& w, SystemContext& ctx) {
  // Writes only the entity named by gWriteSlot (a Write ref).
  (void)ctx;
  if (gWriteSlot != 0xFFFF) {
    const Entity e = w.handleAt(static_cast<std::uint16_t>(gWriteSlot));
    if (ChPos* p = w.get<ChPos>(e)) p->x += 1;
  }
}
ChangedPos gWatcherQuery;
LAIGE_SYSTEM(ChWatcher, 1.0, ChWriter);
void ChWatcher(World& /*w*/, SystemContext& ctx) {
  std::vector<std::uint16_t> out;
  EXPECT_TRUE(ctx.each(gWatcherQuery, [&](Entity e, const ChPos&) { out.push_back(e.id()); }).ok());
  gSeen->changed.push_back(out);
  std::vector<std::uint16_t> gone;
  EXPECT_TRUE(eachRemoved<ChPos>(ctx, [&](Entity e, const ChPos& last) {
                gone.push_back(e.id());
                gSeen->removedX.push_back(last.x);
              }).ok());
  gSeen->removed.push_back(gone);
}

TEST(Changes, SystemSeesChangesSinceItLastRanAndRemovalsWithLastValues) {
  World w = makeWorld();
  Seen seen;
  gSeen = &seen;
  gWriteSlot = 0xFFFF;
  ASSERT_TRUE(w.registerSystem(ChWriter_Def, Io<ChPos, Write>{}).ok());
  ASSERT_TRUE(w.registerSystem(ChWatcher_Def, QueryIo<ChangedPos>{}).ok());
  SystemSchedule sched;
  ASSERT_TRUE(w.scheduleSystems(sched).ok());
  std::vector<Entity> es;
  for (int i = 0; i < 3; ++i) {
    es.push_back(w.create().value());
    ASSERT_TRUE(w.addComponent(es.back(), ChPos{10 + i, 0}).ok());
  }
  ASSERT_TRUE(w.runSystems(sched).ok());
  gWriteSlot = 1;
  ASSERT_TRUE(w.runSystems(sched).ok());
  gWriteSlot = 0xFFFF;
  ASSERT_TRUE(w.runSystems(sched).ok());
  // Between ticks: a top-level write and a destroy.
  ASSERT_TRUE(w.addComponent(es[2], ChPos{7, 7}).ok());
  ASSERT_TRUE(w.destroy(es[0]).ok());
  ASSERT_TRUE(w.runSystems(sched).ok());
  ASSERT_TRUE(w.runSystems(sched).ok());
  ASSERT_EQ(seen.changed.size(), 5u);
  EXPECT_EQ(seen.changed[0], (V{0, 1, 2}));
  EXPECT_EQ(seen.changed[1], (V{1}));
  EXPECT_EQ(seen.changed[2], V{});
  EXPECT_EQ(seen.changed[3], (V{2}));
  EXPECT_EQ(seen.changed[4], V{});
  // The first eachRemoved starts the log; the destroy is seen once, with its last value.
  EXPECT_EQ(seen.removed[3], (V{0}));
  EXPECT_EQ(seen.removed[4], V{});
  EXPECT_EQ(seen.removedX, (std::vector<std::int32_t>{10}));
  gSeen = nullptr;
}

TEST(Changes, EachRemovedOutsideSystemIsRefused) {
  World w = makeWorld();
  // Not reachable without a context: the free function needs a SystemContext,
  // so the refusal is checked through a fake context outside runSystems.
  SystemContext ctx{w, nullptr, 0, nullptr, 0, SystemId{0}, nullptr, w.commands()};
  const std::uint64_t h = w.stateHash(0);
  const Status st = eachRemoved<ChPos>(ctx, [](Entity, const ChPos&) {});
  EXPECT_EQ(st.reason(), std::string("removed_outside_system"));
  EXPECT_EQ(w.stateHash(0), h);
}

// --- observers -------------------------------------------------------------

std::vector<std::string>* gLog = nullptr;
Status logObserver(ObserverContext& ctx) {
  const char* ev = ctx.event == ObserverEvent::OnAdd ? "add" : ctx.event == ObserverEvent::OnSet ? "set" : "remove";
  const auto* p = static_cast<const std::int32_t*>(ctx.value);
  gLog->push_back(std::string(static_cast<const char*>(ctx.userData)) + ":" + ev + ":" +
                  std::to_string(ctx.component) + ":" + std::to_string(ctx.entity.id()) + ":" +
                  std::to_string(p[0]) + ":d" + std::to_string(ctx.depth));
  return Status{};
}

TEST(Changes, ObserversRunAfterTheCallInEventThenRegistrationOrder) {
  World w = makeWorld();
  std::vector<std::string> log;
  gLog = &log;
  char first[] = "A";
  char second[] = "B";
  ASSERT_TRUE(observe<ChPos>(w, ObserverEvent::OnAdd, &logObserver, first).ok());
  ASSERT_TRUE(observe<ChPos>(w, ObserverEvent::OnSet, &logObserver, first).ok());
  ASSERT_TRUE(observe<ChPos>(w, ObserverEvent::OnRemove, &logObserver, first).ok());
  ASSERT_TRUE(observe<ChPos>(w, ObserverEvent::OnAdd, &logObserver, second).ok());
  ASSERT_TRUE(observe<ChVel>(w, ObserverEvent::OnRemove, &logObserver, second).ok());
  const Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, ChPos{4, 0}).ok());
  EXPECT_EQ(log, (std::vector<std::string>{"A:add:1:0:4:d0", "B:add:1:0:4:d0"}));
  log.clear();
  // Inside a defer: after it, in event order.
  ASSERT_TRUE(w.defer([&](CommandBuffer& c) {
                 EXPECT_TRUE(c.add(e, ChPos{5, 0}).ok());
                 EXPECT_TRUE(c.add(e, ChVel{1, 0}).ok());
                 EXPECT_TRUE(log.empty());
               }).ok());
  EXPECT_EQ(log, (std::vector<std::string>{"A:set:1:0:5:d0"}));
  log.clear();
  // Destroy: one call per component, ascending component id.
  ASSERT_TRUE(w.destroy(e).ok());
  EXPECT_EQ(log, (std::vector<std::string>{"A:remove:1:0:5:d0", "B:remove:2:0:1:d0"}));
  EXPECT_EQ(observerStats(w).calls, 5u);
  gLog = nullptr;
}

// An observer that re-adds what another removes: a cycle stopped by the depth limit.
Status removePosThenReAdd(ObserverContext& ctx) {
  const Entity e = ctx.entity;
  (void)ctx.commands.remove<ChVel>(e);
  return ctx.commands.add(e, ChPos{0, 0});
}
Status removePosOnAdd(ObserverContext& ctx) { return ctx.commands.remove<ChPos>(ctx.entity); }

TEST(Changes, ObserverCycleStopsAtTheDepthLimit) {
  World w = makeWorld();
  ASSERT_TRUE(observe<ChPos>(w, ObserverEvent::OnAdd, &removePosOnAdd).ok());
  ASSERT_TRUE(observe<ChPos>(w, ObserverEvent::OnRemove, &removePosThenReAdd).ok());
  const Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, ChPos{1, 1}).ok());  // the top-level add itself succeeds
  EXPECT_EQ(observerStats(w).depthExceeded, 1u);
  EXPECT_EQ(observerStats(w).calls, kMaxObserverDepth + 1);
  EXPECT_EQ(observerStats(w).pending, 0u);
  // flushObservers reports the failure of a drain it runs.
  ASSERT_TRUE(w.defer([&](CommandBuffer& c) { EXPECT_TRUE(c.add(e, ChPos{2, 2}).ok()); }).ok());
  EXPECT_EQ(observerStats(w).depthExceeded, 2u);
}

Status failing(ObserverContext&) { return Status::failure(ErrorCode::InvalidArgument, "test_failure"); }
int gAfterFailure = 0;
Status countAfter(ObserverContext&) {
  ++gAfterFailure;
  return Status{};
}

TEST(Changes, AFailingObserverIsCountedAndTheRestOfTheQueueRuns) {
  World w = makeWorld();
  gAfterFailure = 0;
  ASSERT_TRUE(observe<ChPos>(w, ObserverEvent::OnAdd, &failing).ok());
  ASSERT_TRUE(observe<ChPos>(w, ObserverEvent::OnAdd, &countAfter).ok());
  ASSERT_TRUE(w.defer([&](CommandBuffer&) {
                 for (int i = 0; i < 3; ++i) {
                   const Entity e = w.create().value();
                   EXPECT_TRUE(w.addComponent(e, ChPos{i, 0}).ok());
                 }
               }).ok());
  EXPECT_EQ(gAfterFailure, 3);
  EXPECT_EQ(observerStats(w).failures, 3u);
}

Status observeInside(ObserverContext& ctx) {
  const Result<ObserverId> r = observe<ChVel>(ctx.world, ObserverEvent::OnAdd, &countAfter);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().reason(), std::string("observe_inside_callback"));
  return Status{};
}

TEST(Changes, BadObserveInputIsRefusedAndTheWorldIsUnchanged) {
  World w = makeWorld();
  const Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, ChPos{1, 2}).ok());
  ASSERT_TRUE(observe<ChPos>(w, ObserverEvent::OnAdd, &observeInside).ok());
  const std::uint64_t h = w.stateHash(3);
  const std::uint32_t n = observerStats(w).observers;
  struct Case {
    ObserverEvent ev;
    ComponentTypeId id;
    ObserverFn fn;
    const char* reason;
  };
  const Case cases[] = {
      {ObserverEvent::OnAdd, 0, &countAfter, "component_unregistered"},
      {ObserverEvent::OnAdd, 99, &countAfter, "component_unregistered"},
      {static_cast<ObserverEvent>(7), 1, &countAfter, "unknown_event"},
      {ObserverEvent::OnSet, 1, nullptr, "observer_invalid"},
  };
  for (const Case& c : cases) {
    const Result<ObserverId> r = observe(w, c.ev, c.id, c.fn);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().reason(), std::string(c.reason));
    EXPECT_EQ(w.stateHash(3), h);
    EXPECT_EQ(observerStats(w).observers, n);
  }
  // Inside an each and inside an observer.
  EXPECT_TRUE(w.each<ChPos>([&](Entity, const ChPos&) {
                 EXPECT_EQ(observe<ChVel>(w, ObserverEvent::OnAdd, &countAfter).status().reason(),
                           std::string("observe_inside_callback"));
               }, Read{}).ok());
  const Entity f = w.create().value();
  ASSERT_TRUE(w.addComponent(f, ChPos{3, 3}).ok());  // runs observeInside
  EXPECT_EQ(observerStats(w).observers, n);
}

// --- allocation ------------------------------------------------------------

TEST(Changes, MarkingAllocatesNothing) {
  World w = makeWorld(1024);
  ASSERT_TRUE(trackChanges(w, 1).ok());
  ASSERT_TRUE(trackChanges(w, 2).ok());
  std::vector<Entity> es;
  for (int i = 0; i < 500; ++i) {
    es.push_back(w.create().value());
    ASSERT_TRUE(w.addComponent(es.back(), ChPos{i, 0}).ok());
    ASSERT_TRUE(w.addComponent(es.back(), ChVel{1, 1}).ok());
  }
  MoverQ movers;
  ChangedPos changed;
  std::uint32_t seen = 0;
  ASSERT_TRUE(changed.each(w, [&](Entity, const ChPos&) { ++seen; }).ok());  // warm-up
  test::AllocationWindow window;
  for (int round = 0; round < 10; ++round) {
    ASSERT_TRUE(movers.each(w, [](Entity, ChPos& p, const ChVel& v) { p.x += v.x; }).ok());
    for (int i = 0; i < 500; i += 7) {
      ASSERT_TRUE(w.addComponent(es[static_cast<std::size_t>(i)], ChPos{i, round}).ok());
      w.get<ChPos>(es[static_cast<std::size_t>(i)])->y += 1;
    }
    seen = 0;
    ASSERT_TRUE(changed.each(w, [&](Entity, const ChPos&) { ++seen; }).ok());
    EXPECT_EQ(seen, 500u);
    ASSERT_TRUE(changed.each(w, [&](Entity, const ChPos&) { ++seen; }).ok());
    EXPECT_EQ(seen, 500u);  // nothing since
  }
  EXPECT_EQ(window.allocations(), 0u);
}

}  // namespace
}  // namespace laige
