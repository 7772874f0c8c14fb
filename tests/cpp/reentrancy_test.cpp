// reentrancy_test.cpp - what may run while a call on the world is on the
// stack (docs/systems.md#re-entrancy): every tick-running call made from a
// live each, a running system or a loop's own hook is refused before it
// changes anything; each<>() never visits the entities created during it
// (docs/query.md#entities-created-during-an-iteration); the name rules of
// laige/names.h at their edges.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "laige/assert.h"
#include "laige/game_loop.h"
#include "laige/names.h"
#include "laige/replay.h"
#include "laige/system.h"
#include "laige/world.h"
#include "support/replay_scene.h"

namespace laige {
namespace {

struct ReCount {
  std::int32_t n;
};
LAIGE_COMPONENT(ReCount, n);

void bump(World& world, SystemContext&) {
  (void)world.each<ReCount>([](Entity, ReCount& c) { ++c.n; }, Write{});
}

// A world with one counting system and `n` counted entities.
World countingWorld(SystemSchedule& schedule, int n = 3, void (*run)(World&, SystemContext&) = &bump,
                    void* userData = nullptr) {
  World w = World::create(16).takeValue();
  (void)w.registerComponent<ReCount>();
  SystemDef d;
  d.name = "Bump";
  d.run = run;
  d.budgetMs = fpx16_16::fromInt32(100);
  d.userData = userData;
  SystemIo io[1] = {{w.componentId<ReCount>(), Access::Write}};
  EXPECT_TRUE(w.registerSystem(d, io, 1).ok());
  for (int i = 0; i < n; ++i) (void)w.addComponent(w.create().value(), ReCount{0});
  EXPECT_TRUE(w.scheduleSystems(schedule).ok());
  return w;
}

void expectTickInside(const Status& st, const char* callback) {
  EXPECT_EQ(st.error(), ErrorCode::InvalidArgument);
  EXPECT_STREQ(st.reason(), "tick_inside_callback");
  EXPECT_STREQ(st.fieldValue("callback"), callback);
}

TEST(Reentrancy, TickAllowedNamesTheCallbackOnTheStack) {
  SystemSchedule s;
  World w = countingWorld(s);
  EXPECT_TRUE(w.tickAllowed().ok());
  Status inside;
  (void)w.each<>([&](Entity) { inside = w.tickAllowed(); });
  expectTickInside(inside, "each");
  EXPECT_TRUE(w.tickAllowed().ok());
}

TEST(Reentrancy, GameLoopStepAndFrameInsideEachChangeNothing) {
  SystemSchedule s;
  World w = countingWorld(s);
  GameLoop loop = GameLoop::create(w, s, GameLoop::Options{}).takeValue();
  const std::uint64_t before = w.stateHash(0);
  Status step;
  Status frame;
  (void)w.each<ReCount>(
      [&](Entity, const ReCount&) {
        step = loop.step(1);
        frame = loop.frameAt(1'000'000'000);
      },
      Read{});
  expectTickInside(step, "each");
  expectTickInside(frame, "each");
  EXPECT_EQ(loop.stats().frames, 0u);  // refused before beginFrame
  EXPECT_EQ(loop.currentTick(), 0u);
  EXPECT_EQ(w.systemTicksRun(), 0u);
  EXPECT_EQ(w.stateHash(0), before);
}

struct HookState {
  GameLoop* loop = nullptr;
  Status inner;
  std::uint32_t calls = 0;
};

Status stepFromHook(void* ctx, World&, std::uint64_t) noexcept {
  auto& h = *static_cast<HookState*>(ctx);
  if (h.calls++ == 0) h.inner = h.loop->step(1);
  return Status{};
}

Status stepFromInput(void* ctx, std::uint64_t, TickInput&) noexcept {
  auto& h = *static_cast<HookState*>(ctx);
  if (h.calls++ == 0) h.inner = h.loop->frameAt(5'000'000'000);
  return Status{};
}

TEST(Reentrancy, GameLoopFromItsOwnHooksIsRefused) {
  for (const bool viaInput : {false, true}) {
    SystemSchedule s;
    World w = countingWorld(s);
    HookState h;
    GameLoop::Options o;
    if (viaInput) {
      o.tickInput = &stepFromInput;
      o.tickInputContext = &h;
    } else {
      o.onTick = &stepFromHook;
      o.onTickContext = &h;
    }
    GameLoop loop = GameLoop::create(w, s, o).takeValue();
    h.loop = &loop;
    ASSERT_TRUE(loop.step(2).ok());
    expectTickInside(h.inner, "loop_hook");
    EXPECT_EQ(loop.currentTick(), 2u);  // the two ticks asked for, not one more
    EXPECT_EQ(loop.stats().frames, 1u);
    EXPECT_EQ(w.systemTicksRun(), 2u);
    ASSERT_TRUE(loop.step(1).ok());  // usable again after the frame
    EXPECT_EQ(loop.currentTick(), 3u);
  }
}

struct FromSystem {
  GameLoop* loop = nullptr;
  const ReplayLog* log = nullptr;
  Status loopStep;
  Status replay;
};

void tickFromSystem(World& world, SystemContext& ctx) {
  auto& f = *static_cast<FromSystem*>(ctx.userData);
  if (f.loop != nullptr) f.loopStep = f.loop->step(1);
  if (f.log != nullptr) {
    const auto r = runReplay(*f.log, world, test::rpConfig());
    f.replay = r.status();
  }
}

TEST(Reentrancy, TickRunningCallsFromASystemAreRefused) {
  FromSystem f;
  SystemSchedule s;
  World w = countingWorld(s, 3, &tickFromSystem, &f);
  GameLoop loop = GameLoop::create(w, s, GameLoop::Options{}).takeValue();
  f.loop = &loop;
  ASSERT_TRUE(w.runSystems(s).ok());
  expectTickInside(f.loopStep, "system");
  EXPECT_EQ(loop.stats().frames, 0u);
  EXPECT_EQ(w.systemTicksRun(), 1u);
}

TEST(Reentrancy, RunReplayOnAWorldInsideItsEachIsRefused) {
  const ReplayConfig c = test::rpConfig();
  const std::vector<std::uint8_t> bytes = test::rpRecord(c, test::rpPayloads(3));
  const ReplayLog log = parseReplay(bytes.data(), bytes.size()).takeValue();
  World w = test::rpWorld(c);
  const std::uint64_t before = w.stateHash(0);
  Status inner;
  (void)w.each<>([&](Entity) {
    if (inner.ok()) inner = runReplay(log, w, c).status();
  });
  expectTickInside(inner, "each");
  EXPECT_EQ(w.systemTicksRun(), 0u);
  EXPECT_EQ(w.stateHash(0), before);
  EXPECT_TRUE(runReplay(log, w, c).ok());  // outside the each it runs
}

TEST(ReentrancyDeathTest, RunSystemsInsideEachIsMisuse) {
  SystemSchedule s;
  World w = countingWorld(s);
#if LAIGE_DEBUG_ASSERTS
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH((void)w.each<>([&](Entity) { (void)w.runSystems(s); }),
               "runSystems called from inside a live each");
#else
  const std::uint64_t before = w.stateHash(0);
  Status inner;
  (void)w.each<>([&](Entity) { inner = w.runSystems(s); });
  expectTickInside(inner, "each");
  EXPECT_EQ(w.systemTicksRun(), 0u);
  EXPECT_EQ(w.stateHash(0), before);
#endif
}

struct Resched {
  SystemSchedule* schedule = nullptr;
  Status inner;
};

void rescheduleFromSystem(World& world, SystemContext& ctx) {
  auto& r = *static_cast<Resched*>(ctx.userData);
  r.inner = world.scheduleSystems(*r.schedule);
}

TEST(Reentrancy, SchedulingInsideATickLeavesTheRunningScheduleAlone) {
  Resched r;
  SystemSchedule s;
  World w = countingWorld(s, 3, &rescheduleFromSystem, &r);
  r.schedule = &s;
  const SystemSchedule before = s;
  ASSERT_TRUE(w.runSystems(s).ok());
  EXPECT_STREQ(r.inner.reason(), "schedule_inside_tick");
  EXPECT_EQ(s.systemCount, before.systemCount);
  EXPECT_EQ(s.order[0], before.order[0]);
  EXPECT_TRUE(w.runSystems(s).ok());
}

// --- each<>() and the entities created during it ----------------------------

std::vector<std::uint32_t> visitedSlots(World& w, const std::function<void(Entity)>& during) {
  std::vector<std::uint32_t> out;
  (void)w.each<>([&](Entity e) {
    out.push_back(e.id());
    during(e);
  });
  return out;
}

TEST(EachCreated, EntitiesCreatedDuringEachAreNotVisited) {
  // Slots 0..5 live; 1 and 4 freed (LIFO: 4 is handed out first, then 1).
  World w = World::create(16).takeValue();
  std::vector<Entity> e;
  for (int i = 0; i < 6; ++i) e.push_back(w.create().value());
  ASSERT_TRUE(w.destroy(e[1]).ok());
  ASSERT_TRUE(w.destroy(e[4]).ok());
  std::vector<Entity> made;
  const auto seen = visitedSlots(w, [&](Entity cur) {
    if (cur.id() != 2) return;
    // At slot 2: one above the cursor in a freed slot (4), one below it (1),
    // one above the starting high-water mark (6).
    for (int i = 0; i < 3; ++i) made.push_back(w.create().value());
  });
  ASSERT_EQ(made.size(), 3u);
  EXPECT_EQ(made[0].id(), 4u);
  EXPECT_EQ(made[1].id(), 1u);
  EXPECT_EQ(made[2].id(), 6u);
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{0, 2, 3, 5}));
  // The next iteration sees them all.
  EXPECT_EQ(visitedSlots(w, [](Entity) {}), (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6}));
}

TEST(EachCreated, DestroyedAndRecreatedAheadOfTheCursorIsNotVisited) {
  World w = World::create(8).takeValue();
  std::vector<Entity> e;
  for (int i = 0; i < 4; ++i) e.push_back(w.create().value());
  const auto seen = visitedSlots(w, [&](Entity cur) {
    if (cur.id() != 0) return;
    ASSERT_TRUE(w.destroy(e[3]).ok());
    EXPECT_EQ(w.create().value().id(), 3u);  // the same slot, a new entity
  });
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{0, 1, 2}));
}

// --- names (laige/names.h) ----------------------------------------------------

void noop(World&, SystemContext&) {}

Status registerNamed(World& w, const char* name, const char* deps = nullptr) {
  SystemDef d;
  d.name = name;
  d.run = &noop;
  d.budgetMs = fpx16_16::one();
  d.dependsOn = deps;
  return w.registerSystem(d, nullptr, 0).status();
}

TEST(Names, SystemNamesAtTheirEdges) {
  World w = World::create(4).takeValue();
  const std::string max(kMaxSystemNameLength, 'S');
  EXPECT_TRUE(registerNamed(w, max.c_str()).ok());
  const std::string over(kMaxSystemNameLength + 1, 'T');
  for (const char* bad : {over.c_str(), "A\nB", "A\x01", "A\x7f", "A,B", " A", "A ", " "}) {
    const Status st = registerNamed(w, bad);
    EXPECT_STREQ(st.reason(), "name_invalid") << bad;
  }
  EXPECT_EQ(w.systemCount(), 1u);
  // The failure says which rule, and for a too long name by how much.
  const Status longName = registerNamed(w, over.c_str());
  EXPECT_STREQ(longName.fieldValue("reason"), "too_long");
  EXPECT_STREQ(longName.fieldValue("length"), std::to_string(kMaxSystemNameLength + 1).c_str());
  EXPECT_STREQ(longName.fieldValue("max_length"), std::to_string(kMaxSystemNameLength).c_str());
  EXPECT_STREQ(registerNamed(w, "A,B").fieldValue("reason"), "comma");
  EXPECT_STREQ(systemNameProblem(over), "too_long");
  EXPECT_STREQ(systemNameProblem(std::string_view("S\0x", 3)), "control_char");
  EXPECT_STREQ(systemNameProblem(""), "empty");
  EXPECT_EQ(systemNameProblem("Move Units"), nullptr);  // inner spaces are fine
}

TEST(Names, DependsOnEntriesFollowTheSystemNameRules) {
  World w = World::create(4).takeValue();
  EXPECT_TRUE(registerNamed(w, "A", " B , C ").ok());  // whitespace around names is ignored
  const Status st = registerNamed(w, "D", "B,C\x02x");
  EXPECT_EQ(st.error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.systemCount(), 1u);
}

Status registerComponentNamed(World& w, std::string_view name) {
  static const ComponentField f[1] = {{"v", FieldKind::I32, 1, 0}};
  ComponentDesc d;
  d.name = name;
  d.size = 4;
  d.alignment = 4;
  d.fields = f;
  return w.registerComponentDesc(d).status();
}

TEST(Names, ComponentNamesAtTheirEdges) {
  World w = World::create(4).takeValue();
  const std::string max(kMaxComponentNameLength, 'C');
  EXPECT_TRUE(registerComponentNamed(w, max).ok());
  EXPECT_TRUE(registerComponentNamed(w, "Has Space").ok());
  const std::string over(kMaxComponentNameLength + 1, 'D');
  for (const std::string_view bad : {std::string_view(over), std::string_view("P\0x", 3), std::string_view("P\nQ"),
                                     std::string_view("   "), std::string_view(" P"), std::string_view("\t")}) {
    EXPECT_EQ(registerComponentNamed(w, bad).error(), ErrorCode::InvalidArgument);
  }
  const Status control = registerComponentNamed(w, "P\nQ");
  EXPECT_STREQ(control.reason(), "component_name_invalid");
  EXPECT_STREQ(control.fieldValue("name"), "P\nQ");
  EXPECT_STREQ(control.fieldValue("reason"), "control_char");
  const Status longName = registerComponentNamed(w, over);
  EXPECT_STREQ(longName.fieldValue("reason"), "too_long");
  EXPECT_STREQ(longName.fieldValue("length"), std::to_string(kMaxComponentNameLength + 1).c_str());
  EXPECT_STREQ(longName.fieldValue("max_length"), std::to_string(kMaxComponentNameLength).c_str());
  EXPECT_STREQ(registerComponentNamed(w, "").fieldValue("reason"), "empty");
  EXPECT_EQ(w.componentCount(), 2u);
  EXPECT_STREQ(componentNameProblem("   "), "surrounding_space");
}

}  // namespace
}  // namespace laige
