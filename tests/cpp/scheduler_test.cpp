// scheduler_test.cpp - scheduleSystems (Kahn's order with the smallest id
// first, the four checks with their fields and order) and runSystems (stale
// and invalid schedules, nesting, zero allocation).
#include "laige/scheduler.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "laige/assert.h"
#include "laige/system.h"
#include "laige/world.h"
#include "support/counting_allocator.h"
#include "support/log_capture.h"

namespace laige {
namespace {

struct SchA {
  std::int32_t v;
};
LAIGE_COMPONENT(SchA, v);
struct SchB {
  std::int32_t v;
};
LAIGE_COMPONENT(SchB, v);

// The run trace: each system appends its id (fixed storage: no allocation).
struct Trace {
  std::uint32_t ids[64] = {};
  std::uint32_t count = 0;
};

void traced(World&, SystemContext& ctx) {
  Trace& t = *static_cast<Trace*>(ctx.userData);
  if (t.count < 64) t.ids[t.count++] = ctx.id.value;
}

struct Fixture {
  World world = World::create(16).takeValue();
  Trace trace;
  SystemId add(const char* name, const char* deps = nullptr) {
    return addIo(name, deps, nullptr, 0);
  }
  SystemId addIo(const char* name, const char* deps, const SystemIo* io, std::uint32_t n) {
    SystemDef d;
    d.name = name;
    d.run = &traced;
    d.budgetMs = fpx16_16::one();
    d.dependsOn = deps;
    d.userData = &trace;
    return world.registerSystem(d, io, n).value();
  }
  std::vector<std::uint32_t> order() {
    SystemSchedule s;
    EXPECT_TRUE(world.scheduleSystems(s).ok());
    return {s.order, s.order + s.systemCount};
  }
};

std::string lastField(const test::LogCapture& logs, const char* key) {
  return logs.sink->records().empty() ? std::string() : logs.sink->records().back().fieldValue(key);
}

using Order = std::vector<std::uint32_t>;

TEST(Scheduler, EmptyRegistryGivesAnEmptyScheduleThatRuns) {
  World w = World::create(4).takeValue();
  SystemSchedule s;
  s.systemCount = 9;  // overwritten
  ASSERT_TRUE(w.scheduleSystems(s).ok());
  EXPECT_EQ(s.systemCount, 0u);
  EXPECT_TRUE(w.runSystems(s).ok());
  EXPECT_EQ(w.systemTicksRun(), 1u);  // a tick with no systems is still a tick
}

TEST(Scheduler, RegistrationOrderWithoutDependencies) {
  Fixture f;
  f.add("A");
  f.add("B");
  f.add("C");
  EXPECT_EQ(f.order(), (Order{1, 2, 3}));
}

TEST(Scheduler, DependenciesMoveSystemsLaterOnly) {
  Fixture f;
  f.add("A", "C");  // forward reference, resolved when scheduling
  f.add("B");
  f.add("C");
  f.add("D", "A");
  EXPECT_EQ(f.order(), (Order{2, 3, 1, 4}));
}

TEST(Scheduler, KahnTakesTheSmallestReadyIdEachTime) {
  Fixture f;
  f.add("S1", "S5");
  f.add("S2");
  f.add("S3", "S2, S6");
  f.add("S4", "S1");
  f.add("S5");
  f.add("S6", "S2");
  f.add("S7", "S4,S3");
  EXPECT_EQ(f.order(), (Order{2, 5, 1, 4, 6, 3, 7}));
}

TEST(Scheduler, RunOrderFollowsTheSchedule) {
  Fixture f;
  f.add("A", "B");
  f.add("B");
  SystemSchedule s;
  ASSERT_TRUE(f.world.scheduleSystems(s).ok());
  ASSERT_TRUE(f.world.runSystems(s).ok());
  ASSERT_TRUE(f.world.runSystems(s).ok());
  ASSERT_EQ(f.trace.count, 4u);
  EXPECT_EQ(f.trace.ids[0], 2u);
  EXPECT_EQ(f.trace.ids[1], 1u);
  EXPECT_EQ(f.trace.ids[2], 2u);
  EXPECT_EQ(f.trace.ids[3], 1u);
}

TEST(Scheduler, DepMissingReportsTheFirstInIdThenPositionOrder) {
  test::LogCapture logs;
  Fixture f;
  f.add("A", "B, Nope1");
  f.add("B", "Nope0");
  SystemSchedule s;
  EXPECT_EQ(f.world.scheduleSystems(s), Status(ErrorCode::InvalidArgument));
  EXPECT_EQ(s.systemCount, 0u);
  EXPECT_EQ(logs.count("system", "dep_missing"), 1u);
  EXPECT_EQ(lastField(logs, "system"), "A");
  EXPECT_EQ(lastField(logs, "missing_dep"), "Nope1");
  EXPECT_EQ(lastField(logs, "position"), "1");
}

TEST(Scheduler, CycleNamesTheCycleInWalkOrder) {
  test::LogCapture logs;
  Fixture f;
  f.add("Lead", "X");  // blocked by the cycle, not part of it
  f.add("X", "Y");
  f.add("Y", "Z");
  f.add("Z", "X");
  SystemSchedule s;
  EXPECT_EQ(f.world.scheduleSystems(s), Status(ErrorCode::InvalidArgument));
  EXPECT_EQ(logs.count("system", "dependency_cycle"), 1u);
  EXPECT_EQ(lastField(logs, "cycle"), "X,Y,Z");
  EXPECT_EQ(lastField(logs, "cycle_length"), "3");
}

TEST(Scheduler, SelfDependencyIsACycleOfOne) {
  test::LogCapture logs;
  Fixture f;
  f.add("Free");
  f.add("Me", "Me");
  SystemSchedule s;
  EXPECT_TRUE(f.world.scheduleSystems(s).isError());
  EXPECT_EQ(lastField(logs, "cycle"), "Me");
  EXPECT_EQ(lastField(logs, "cycle_length"), "1");
}

TEST(Scheduler, CycleWalkFollowsTheFirstRemainingDependency) {
  test::LogCapture logs;
  Fixture f;
  f.add("P", "Done, Q, R");  // Done is placed: the walk goes to Q
  f.add("Q", "P");
  f.add("R", "P");
  f.add("Done");
  SystemSchedule s;
  EXPECT_TRUE(f.world.scheduleSystems(s).isError());
  EXPECT_EQ(lastField(logs, "cycle"), "P,Q");
}

TEST(Scheduler, DoubleWriterReportsTheFirstPairByComponentThenWriter) {
  test::LogCapture logs;
  Fixture f;
  const ComponentTypeId a = f.world.registerComponent<SchA>().value();
  const ComponentTypeId b = f.world.registerComponent<SchB>().value();
  const SystemIo wb[] = {{b, Access::Write}};
  const SystemIo wab[] = {{b, Access::Write}, {a, Access::Write}};
  const SystemIo wa[] = {{a, Access::Write}};
  f.addIo("W1", nullptr, wb, 1);
  f.addIo("W2", nullptr, wab, 2);
  f.addIo("W3", nullptr, wa, 1);
  SystemSchedule s;
  EXPECT_EQ(f.world.scheduleSystems(s), Status(ErrorCode::InvalidArgument));
  EXPECT_EQ(logs.count("system", "double_writer"), 1u);
  EXPECT_EQ(lastField(logs, "component_id"), std::to_string(a));
  EXPECT_EQ(lastField(logs, "first_writer"), "W2");
  EXPECT_EQ(lastField(logs, "second_writer"), "W3");
}

TEST(Scheduler, ChecksRunInOrderMissingThenCycleThenDoubleWriter) {
  test::LogCapture logs;
  Fixture f;
  const ComponentTypeId a = f.world.registerComponent<SchA>().value();
  const SystemIo wa[] = {{a, Access::Write}};
  f.addIo("W1", "W2", wa, 1);
  f.addIo("W2", "W1", wa, 1);
  f.add("M", "Missing");
  SystemSchedule s;
  EXPECT_TRUE(f.world.scheduleSystems(s).isError());
  EXPECT_EQ(logs.sink->records().back().event, "dep_missing");
  EXPECT_EQ(logs.count("system", "dependency_cycle"), 0u);
  EXPECT_EQ(logs.count("system", "double_writer"), 0u);
}

TEST(Scheduler, ReadBeforeWriteWarnsButSucceeds) {
  test::LogCapture logs;
  Fixture f;
  const ComponentTypeId a = f.world.registerComponent<SchA>().value();
  const SystemIo ra[] = {{a, Access::Read}};
  const SystemIo wa[] = {{a, Access::Write}};
  f.addIo("Reader", nullptr, ra, 1);
  f.addIo("Writer", nullptr, wa, 1);
  f.addIo("LateReader", "Writer", ra, 1);
  SystemSchedule s;
  ASSERT_TRUE(f.world.scheduleSystems(s).ok());
  EXPECT_EQ(s.systemCount, 3u);
  EXPECT_EQ(logs.count("system", "read_before_write"), 1u);
  EXPECT_EQ(lastField(logs, "reader"), "Reader");
  EXPECT_EQ(lastField(logs, "writer"), "Writer");
  EXPECT_EQ(lastField(logs, "component_id"), std::to_string(a));
}

TEST(Scheduler, ReadAfterWriteViaDependencyIsQuiet) {
  test::LogCapture logs;
  Fixture f;
  const ComponentTypeId a = f.world.registerComponent<SchA>().value();
  const SystemIo ra[] = {{a, Access::Read}};
  const SystemIo wa[] = {{a, Access::Write}};
  f.addIo("Reader", "Writer", ra, 1);
  f.addIo("Writer", nullptr, wa, 1);
  SystemSchedule s;
  ASSERT_TRUE(f.world.scheduleSystems(s).ok());
  EXPECT_TRUE(logs.sink->records().empty());  // success logs nothing
  EXPECT_EQ(s.order[0], 2u);
}

TEST(Scheduler, StaleScheduleIsRejectedBeforeAnySystemRuns) {
  test::LogCapture logs;
  Fixture f;
  f.add("A");
  SystemSchedule s;
  ASSERT_TRUE(f.world.scheduleSystems(s).ok());
  f.add("B");
  EXPECT_EQ(f.world.runSystems(s), Status(ErrorCode::InvalidArgument));
  EXPECT_EQ(logs.count("system", "schedule_stale"), 1u);
  EXPECT_EQ(lastField(logs, "scheduled_systems"), "1");
  EXPECT_EQ(lastField(logs, "current_systems"), "2");
  EXPECT_EQ(f.trace.count, 0u);
  EXPECT_EQ(f.world.systemTicksRun(), 0u);
}

TEST(Scheduler, InvalidScheduleEntriesAreRejectedBeforeAnySystemRuns) {
  struct Case {
    std::uint32_t order[3];
    const char* slot;
    const char* id;
  };
  const Case cases[] = {
      {{1, 0, 3}, "1", "0"},
      {{1, 2, 4}, "2", "4"},
      {{2, 2, 3}, "1", "2"},
  };
  for (const Case& c : cases) {
    test::LogCapture logs;
    Fixture f;
    f.add("A");
    f.add("B");
    f.add("C");
    SystemSchedule s;
    ASSERT_TRUE(f.world.scheduleSystems(s).ok());
    for (int i = 0; i < 3; ++i) s.order[i] = c.order[i];
    EXPECT_EQ(f.world.runSystems(s), Status(ErrorCode::InvalidArgument));
    EXPECT_EQ(logs.count("system", "schedule_invalid"), 1u);
    EXPECT_EQ(lastField(logs, "slot"), c.slot);
    EXPECT_EQ(lastField(logs, "id"), c.id);
    EXPECT_EQ(f.trace.count, 0u);
  }
}

TEST(Scheduler, MovedFromWorldRejectsWithoutALog) {
  test::LogCapture logs;
  World w = World::create(4).takeValue();
  World other = std::move(w);
  SystemSchedule s;
  EXPECT_EQ(w.scheduleSystems(s), Status(ErrorCode::InvalidArgument));  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(w.runSystems(s), Status(ErrorCode::InvalidArgument));
  EXPECT_TRUE(logs.sink->records().empty());
}

TEST(Scheduler, RunSystemsAllocatesNothing) {
  Fixture f;
  for (const char* n : {"A", "B", "C", "D"}) f.add(n);
  SystemSchedule s;
  ASSERT_TRUE(f.world.scheduleSystems(s).ok());
  ASSERT_TRUE(f.world.runSystems(s).ok());
  test::AllocationWindow window;
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(f.world.runSystems(s).ok());
  EXPECT_EQ(window.allocations(), 0u);
}

// A system that tries to run a tick from inside a tick.
struct Nested {
  const SystemSchedule* schedule = nullptr;
  Status inner;
};
void nestedRun(World& world, SystemContext& ctx) {
  Nested& n = *static_cast<Nested*>(ctx.userData);
  n.inner = world.runSystems(*n.schedule);
}

TEST(Scheduler, NestedRunSystemsIsMisuse) {
  World w = World::create(4).takeValue();
  Nested n;
  SystemDef d;
  d.name = "Nest";
  d.run = &nestedRun;
  d.budgetMs = fpx16_16::one();
  d.userData = &n;
  ASSERT_TRUE(w.registerSystem(d).ok());
  SystemSchedule s;
  ASSERT_TRUE(w.scheduleSystems(s).ok());
  n.schedule = &s;
#if LAIGE_DEBUG_ASSERTS
  EXPECT_DEATH((void)w.runSystems(s), "runSystems called from inside a running system");
#else
  test::LogCapture logs;
  EXPECT_TRUE(w.runSystems(s).ok());
  EXPECT_EQ(n.inner, Status(ErrorCode::InvalidArgument));
  EXPECT_EQ(logs.count("system", "run_nested"), 1u);
  EXPECT_EQ(w.systemTicksRun(), 1u);
  EXPECT_TRUE(w.runSystems(s).ok());  // the outer run cleaned up
#endif
}

}  // namespace
}  // namespace laige
