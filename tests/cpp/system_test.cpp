// system_test.cpp - the system registry (docs/systems.md): SystemDef,
// LAIGE_SYSTEM, every registerSystem validation in its order with its warn
// event, SystemContext (rng substreams, tick, input, userData, each) and the
// registry queries.
#include "laige/system.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <utility>

#include "laige/prng.h"
#include "laige/world.h"
#include "support/counting_allocator.h"
#include "support/log_capture.h"

namespace laige {
namespace {

struct SysPos {
  std::int32_t x;
  std::int32_t y;
};
LAIGE_COMPONENT(SysPos, x, y);

struct SysVel {
  std::int32_t dx;
  std::int32_t dy;
};
LAIGE_COMPONENT(SysVel, dx, dy);

struct SysUnregistered {
  std::int32_t v;
};
LAIGE_COMPONENT(SysUnregistered, v);

LAIGE_SYSTEM(SysMove, 1.0);
void SysMove(World& world, SystemContext& ctx) {
  (void)world;
  (void)ctx.each<SysPos, SysVel>(
      [](Entity, SysPos& p, const SysVel& v) {
        p.x += v.dx;
        p.y += v.dy;
      },
      Write{}, Read{});
}

LAIGE_SYSTEM(SysAfter, 0.5, SysMove, Other);
void SysAfter(World&, SystemContext&) {}

void noop(World&, SystemContext&) {}

World makeWorld(std::uint64_t seed = 0x1F055EED, bool deterministic = true) {
  World::Options o;
  o.capacity = 64;
  o.seed = seed;
  o.deterministic = deterministic;
  return World::create(o).takeValue();
}

SystemDef def(const char* name, const char* deps = nullptr, double budgetMs = 1.0) {
  SystemDef d;
  d.name = name;
  d.run = &noop;
  d.budgetMs = fpx16_16::fromDouble(budgetMs);
  d.dependsOn = deps;
  return d;
}

// The last captured record's field `key`.
std::string lastField(const test::LogCapture& logs, const char* key) {
  return logs.sink->records().empty() ? std::string() : logs.sink->records().back().fieldValue(key);
}

TEST(SystemDef, LaigeSystemDeclaresTheFunctionAndItsDefinition) {
  EXPECT_STREQ(SysMove_Def.name, "SysMove");
  EXPECT_EQ(SysMove_Def.run, &SysMove);
  EXPECT_EQ(SysMove_Def.budgetMs.raw, 65536);
  EXPECT_STREQ(SysMove_Def.dependsOn, "");
  EXPECT_EQ(SysMove_Def.userData, nullptr);
  EXPECT_STREQ(SysAfter_Def.dependsOn, "SysMove, Other");
  EXPECT_EQ(SysAfter_Def.budgetMs.raw, 32768);
  EXPECT_EQ(kInvalidSystemId.value, 0u);
  EXPECT_EQ(kMaxSystems, 256u);
  EXPECT_EQ(kMaxSystemDependencies, 16u);
}

TEST(SystemRegistry, IdsAreDenseFromOneAndInfoReflectsTheDeclaredIo) {
  World w = makeWorld();
  const ComponentTypeId pos = w.registerComponent<SysPos>().value();
  const ComponentTypeId vel = w.registerComponent<SysVel>().value();
  const SystemId a = w.registerSystem(SysMove_Def, Io<SysPos, Write>{}, Io<SysVel, Read>{}).value();
  const SystemId b = w.registerSystem(def("B")).value();
  EXPECT_EQ(a.value, 1u);
  EXPECT_EQ(b.value, 2u);
  EXPECT_EQ(w.systemCount(), 2u);
  const SystemInfo info = w.system(a).value();
  EXPECT_EQ(info.id, a);
  EXPECT_STREQ(info.def.name, "SysMove");
  EXPECT_TRUE(info.declaresWrite(pos));
  EXPECT_FALSE(info.declaresRead(pos));
  EXPECT_TRUE(info.declaresRead(vel));
  EXPECT_FALSE(info.declaresWrite(vel));
  EXPECT_FALSE(info.declaresRead(0));
  // The I/O list in ascending component id order, whatever the declaration order.
  const SystemInfo swapped =
      w.system(w.registerSystem(def("C"), Io<SysVel, Read>{}, Io<SysPos, Write>{}).value()).value();
  ASSERT_EQ(swapped.ioCount(), 2u);
  EXPECT_EQ(swapped.ioAt(0).component, pos);
  EXPECT_EQ(swapped.ioAt(0).access, Access::Write);
  EXPECT_EQ(swapped.ioAt(1).component, vel);
  EXPECT_EQ(swapped.ioAt(1).access, Access::Read);
  EXPECT_EQ(swapped.ioAt(2).component, 0u);
  const SystemInfo none = w.system(b).value();
  EXPECT_FALSE(none.declaresRead(pos) || none.declaresWrite(pos));
  EXPECT_EQ(none.ioCount(), 0u);
}

TEST(SystemRegistry, InvalidIdsAreRejectedWithoutALog) {
  test::LogCapture logs;
  World w = makeWorld();
  ASSERT_TRUE(w.registerSystem(def("A")).ok());
  EXPECT_EQ(w.system(SystemId{0}).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.system(SystemId{2}).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.systemRngState(SystemId{2}).error(), ErrorCode::InvalidArgument);
  EXPECT_TRUE(logs.sink->records().empty());
}

TEST(SystemRegistry, MovedFromWorldRejectsEverythingWithoutALog) {
  test::LogCapture logs;
  World w = makeWorld();
  ASSERT_TRUE(w.registerSystem(def("A")).ok());
  World other = std::move(w);
  EXPECT_EQ(other.systemCount(), 1u);
  EXPECT_EQ(w.systemCount(), 0u);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(w.registerSystem(def("B")).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.registerSystem(SystemDef{}).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.system(SystemId{1}).error(), ErrorCode::InvalidArgument);
  EXPECT_TRUE(logs.sink->records().empty());
}

TEST(SystemRegistry, NameInvalid) {
  test::LogCapture logs;
  World w = makeWorld();
  SystemDef d = def(nullptr);
  EXPECT_EQ(w.registerSystem(d).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("system", "name_invalid"), 1u);
  EXPECT_EQ(lastField(logs, "reason"), "null");
  logs.advance(2000);
  d.name = "";
  EXPECT_EQ(w.registerSystem(d).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(lastField(logs, "reason"), "empty");
  EXPECT_EQ(w.systemCount(), 0u);
}

TEST(SystemRegistry, RunInvalid) {
  test::LogCapture logs;
  World w = makeWorld();
  SystemDef d = def("A");
  d.run = nullptr;
  EXPECT_EQ(w.registerSystem(d).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("system", "run_invalid"), 1u);
  EXPECT_EQ(lastField(logs, "system"), "A");
}

TEST(SystemRegistry, BudgetInvalidCarriesTheRawValue) {
  test::LogCapture logs;
  World w = makeWorld();
  SystemDef d = def("A");
  d.budgetMs = fpx16_16::fromRaw(0);
  EXPECT_EQ(w.registerSystem(d).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(lastField(logs, "budget_raw"), "0");
  logs.advance(2000);
  d.budgetMs = fpx16_16::fromRaw(-65536);
  EXPECT_EQ(w.registerSystem(d).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("system", "budget_invalid"), 2u);
  EXPECT_EQ(lastField(logs, "budget_raw"), "-65536");
  EXPECT_EQ(lastField(logs, "system"), "A");
  d.budgetMs = fpx16_16::fromRaw(1);  // the smallest positive budget is legal
  EXPECT_TRUE(w.registerSystem(d).ok());
}

struct DepCase {
  const char* spec;
  const char* reason;  // nullptr: valid
  const char* position;
};

TEST(SystemRegistry, DependsOnSpecs) {
  const DepCase cases[] = {
      {nullptr, nullptr, ""},
      {"", nullptr, ""},
      {" \t\r\n", nullptr, ""},
      {"X", nullptr, ""},
      {" X ,\tY\r\n, Z", nullptr, ""},
      {"X,,Y", "empty_token", "1"},
      {",X", "empty_token", "0"},
      {"X,", "empty_token", "1"},
      {"X, \t ,Y", "empty_token", "1"},
      {"X, Y, X", "duplicate", "2"},
      {"X, x", nullptr, ""},  // names are case-sensitive
      {"a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p", nullptr, ""},
      {"a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q", "too_many", "16"},
  };
  for (const DepCase& c : cases) {
    SCOPED_TRACE(c.spec == nullptr ? "(null)" : c.spec);
    test::LogCapture logs;
    World w = makeWorld();
    auto r = w.registerSystem(def("A", c.spec));
    if (c.reason == nullptr) {
      EXPECT_TRUE(r.ok());
      EXPECT_EQ(logs.count("system", "dep_spec_invalid"), 0u);
    } else {
      ASSERT_TRUE(r.isError());
      EXPECT_EQ(r.error(), ErrorCode::InvalidArgument);
      EXPECT_EQ(logs.count("system", "dep_spec_invalid"), 1u);
      EXPECT_EQ(lastField(logs, "reason"), c.reason);
      EXPECT_EQ(lastField(logs, "position"), c.position);
      EXPECT_EQ(lastField(logs, "system"), "A");
    }
  }
}

TEST(SystemRegistry, DuplicateNameNamesTheExistingId) {
  test::LogCapture logs;
  World w = makeWorld();
  ASSERT_TRUE(w.registerSystem(def("A")).ok());
  ASSERT_TRUE(w.registerSystem(def("B")).ok());
  EXPECT_EQ(w.registerSystem(def("B")).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("system", "duplicate"), 1u);
  EXPECT_EQ(lastField(logs, "existing_system_id"), "2");
  EXPECT_EQ(lastField(logs, "system"), "B");
  EXPECT_EQ(w.systemCount(), 2u);
}

TEST(SystemRegistry, IoUnregisteredTypedAndRuntime) {
  test::LogCapture logs;
  World w = makeWorld();
  const ComponentTypeId pos = w.registerComponent<SysPos>().value();
  auto r = w.registerSystem(def("A"), Io<SysPos, Read>{}, Io<SysUnregistered, Write>{});
  EXPECT_EQ(r.error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("system", "io_unregistered"), 1u);
  EXPECT_EQ(lastField(logs, "position"), "1");
  EXPECT_EQ(lastField(logs, "component_id"), "0");
  logs.advance(2000);
  const SystemIo io[] = {{pos, Access::Read}, {99, Access::Read}};
  EXPECT_EQ(w.registerSystem(def("A"), io, 2).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(lastField(logs, "component_id"), "99");
  EXPECT_EQ(w.systemCount(), 0u);
}

TEST(SystemRegistry, IoDuplicateAnyAccessCombination) {
  test::LogCapture logs;
  World w = makeWorld();
  (void)w.registerComponent<SysPos>();
  auto r = w.registerSystem(def("A"), Io<SysPos, Read>{}, Io<SysPos, Write>{});
  EXPECT_EQ(r.error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("system", "io_duplicate"), 1u);
  EXPECT_EQ(lastField(logs, "component_id"), "1");
  EXPECT_EQ(lastField(logs, "position"), "1");
  logs.advance(2000);
  EXPECT_TRUE(w.registerSystem(def("B"), Io<SysPos, Read>{}, Io<SysPos, Read>{}).isError());
  EXPECT_EQ(logs.count("system", "io_duplicate"), 2u);
}

TEST(SystemRegistry, IoInvalidRuntimeLists) {
  test::LogCapture logs;
  World w = makeWorld();
  const ComponentTypeId pos = w.registerComponent<SysPos>().value();
  EXPECT_EQ(w.registerSystem(def("A"), nullptr, 1).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(lastField(logs, "reason"), "null_list");
  logs.advance(2000);
  const SystemIo bad[] = {{pos, static_cast<Access>(7)}};
  EXPECT_EQ(w.registerSystem(def("A"), bad, 1).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(lastField(logs, "reason"), "access_invalid");
  EXPECT_EQ(logs.count("system", "io_invalid"), 2u);
  EXPECT_TRUE(w.registerSystem(def("A"), nullptr, 0).ok());  // no I/O at all is fine
}

TEST(SystemRegistry, The257thSystemIsBudgetExhausted) {
  test::LogCapture logs;
  World w = makeWorld();
  static char names[kMaxSystems + 1][8];
  for (std::uint32_t i = 0; i < kMaxSystems; ++i) {
    std::snprintf(names[i], sizeof names[i], "S%u", i);
    ASSERT_TRUE(w.registerSystem(def(names[i])).ok());
  }
  EXPECT_EQ(w.registerSystem(def("Extra")).error(), ErrorCode::BudgetExhausted);
  EXPECT_EQ(logs.count("system", "budget_exhausted"), 1u);
  EXPECT_EQ(lastField(logs, "max_systems"), "256");
  EXPECT_EQ(w.systemCount(), kMaxSystems);
  // Earlier checks still win over the cap.
  logs.advance(2000);
  EXPECT_EQ(w.registerSystem(def("")).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("system", "name_invalid"), 1u);
}

TEST(SystemRegistry, FirstFailureWinsInTheDocumentedOrder) {
  test::LogCapture logs;
  World w = makeWorld();
  (void)w.registerComponent<SysPos>();
  ASSERT_TRUE(w.registerSystem(def("Taken")).ok());
  SystemDef d = def("");
  d.run = nullptr;
  d.budgetMs = fpx16_16{};
  (void)w.registerSystem(d);  // name before run before budget
  EXPECT_EQ(logs.sink->records().back().event, "name_invalid");
  d.name = "X";
  (void)w.registerSystem(d);
  EXPECT_EQ(logs.sink->records().back().event, "run_invalid");
  d.run = &noop;
  d.dependsOn = ",";
  (void)w.registerSystem(d);
  EXPECT_EQ(logs.sink->records().back().event, "budget_invalid");
  d.budgetMs = fpx16_16::one();
  d.name = "Taken";
  (void)w.registerSystem(d);
  EXPECT_EQ(logs.sink->records().back().event, "dep_spec_invalid");
  d.dependsOn = nullptr;
  (void)w.registerSystem(d, Io<SysUnregistered, Read>{});
  EXPECT_EQ(logs.sink->records().back().event, "duplicate");
  d.name = "Y";
  (void)w.registerSystem(d, Io<SysPos, Read>{}, Io<SysPos, Read>{}, Io<SysUnregistered, Read>{});
  EXPECT_EQ(logs.sink->records().back().event, "io_unregistered");
  EXPECT_EQ(w.systemCount(), 1u);
}

TEST(SystemRegistry, RegistrationAllocatesNothing) {
  World w = makeWorld();
  (void)w.registerComponent<SysPos>();
  (void)w.registerComponent<SysVel>();
  test::AllocationWindow window;
  ASSERT_TRUE(w.registerSystem(SysMove_Def, Io<SysPos, Write>{}, Io<SysVel, Read>{}).ok());
  ASSERT_TRUE(w.registerSystem(def("B", "SysMove")).ok());
  EXPECT_EQ(window.allocations(), 0u);
}

TEST(SystemRegistry, SurvivesClearAndTravelsWithTheWorld) {
  World w = makeWorld();
  ASSERT_TRUE(w.registerSystem(def("A")).ok());
  ASSERT_TRUE(w.clear().ok());
  EXPECT_EQ(w.systemCount(), 1u);
  World moved = std::move(w);
  EXPECT_STREQ(moved.system(SystemId{1}).value().def.name, "A");
}

// --- SystemContext -------------------------------------------------------

struct Seen {
  std::uint64_t firstDraw[4] = {};
  bool rngNull[4] = {};
  std::uint64_t tick[4] = {};
  std::uint32_t id[4] = {};
  std::uint32_t inputSize[4] = {};
  const std::uint8_t* input[4] = {};
  int calls = 0;
};

// One body for every system: a trampoline that finds its data through
// userData, as the wasm layer does for TypeScript systems.
void trampoline(World&, SystemContext& ctx) {
  Seen& s = *static_cast<Seen*>(ctx.userData);
  const std::uint32_t i = ctx.id.value;
  s.rngNull[i] = ctx.rng == nullptr;
  if (ctx.rng != nullptr) s.firstDraw[i] = ctx.rng->next_u64();
  s.tick[i] = ctx.tick;
  s.id[i] = ctx.id.value;
  s.inputSize[i] = ctx.inputSize;
  s.input[i] = ctx.input;
  ++s.calls;
}

TEST(SystemContext, EachSystemDrawsFromItsOwnSubstream) {
  const std::uint64_t seed = 0x1234567890ABCDEFULL;
  World w = makeWorld(seed);
  Seen seen;
  for (const char* n : {"A", "B", "C"}) {
    SystemDef d = def(n);
    d.run = &trampoline;
    d.userData = &seen;
    ASSERT_TRUE(w.registerSystem(d).ok());
  }
  SystemSchedule s;
  ASSERT_TRUE(w.scheduleSystems(s).ok());
  ASSERT_TRUE(w.runSystems(s).ok());
  EXPECT_EQ(seen.calls, 3);
  // The substream known answers (docs/prng.md): first draws of ids 1..3.
  EXPECT_EQ(seen.firstDraw[1], 0x7CFF34A370249EC4ULL);
  EXPECT_EQ(seen.firstDraw[2], 0xE486F33C42EB03B8ULL);
  EXPECT_EQ(seen.firstDraw[3], 0x50A8E8673127AD76ULL);
  // The state advanced in place and is readable for the state hash.
  Prng expect = Prng::deriveSubstream(seed, 2);
  (void)expect.next_u64();
  const SystemRngState st = w.systemRngState(SystemId{2}).value();
  EXPECT_TRUE(st.hasSubstream);
  EXPECT_EQ(st.id.value, 2u);
  EXPECT_EQ(st.seed, expect.seed());
  EXPECT_EQ(st.state1, expect.statePart1());
  EXPECT_EQ(st.state2, expect.statePart2());
  // The second tick continues the stream.
  ASSERT_TRUE(w.runSystems(s).ok());
  EXPECT_EQ(seen.firstDraw[2], expect.next_u64());
}

TEST(SystemContext, NonDeterministicWorldHasNoSubstreams) {
  World w = makeWorld(7, /*deterministic=*/false);
  Seen seen;
  SystemDef d = def("A");
  d.run = &trampoline;
  d.userData = &seen;
  ASSERT_TRUE(w.registerSystem(d).ok());
  SystemSchedule s;
  ASSERT_TRUE(w.scheduleSystems(s).ok());
  ASSERT_TRUE(w.runSystems(s).ok());
  EXPECT_TRUE(seen.rngNull[1]);
  const SystemRngState st = w.systemRngState(SystemId{1}).value();
  EXPECT_FALSE(st.hasSubstream);
  EXPECT_EQ(st.seed, 0u);
  EXPECT_EQ(st.state1, 0u);
  EXPECT_EQ(st.state2, 0u);
}

TEST(SystemContext, TickIdAndInput) {
  World w = makeWorld();
  Seen seen;
  SystemDef d = def("A");
  d.run = &trampoline;
  d.userData = &seen;
  ASSERT_TRUE(w.registerSystem(d).ok());
  SystemSchedule s;
  ASSERT_TRUE(w.scheduleSystems(s).ok());
  EXPECT_EQ(w.systemTicksRun(), 0u);
  ASSERT_TRUE(w.runSystems(s).ok());
  EXPECT_EQ(seen.tick[1], 1u);
  EXPECT_EQ(seen.id[1], 1u);
  EXPECT_EQ(seen.input[1], nullptr);
  EXPECT_EQ(seen.inputSize[1], 0u);
  const std::uint8_t payload[3] = {1, 2, 3};
  ASSERT_TRUE(w.runSystems(s, TickInput{payload, 3}).ok());
  EXPECT_EQ(seen.tick[1], 2u);
  EXPECT_EQ(seen.input[1], payload);
  EXPECT_EQ(seen.inputSize[1], 3u);
  EXPECT_EQ(w.systemTicksRun(), 2u);
}

TEST(SystemContext, EachDelegatesToTheWorld) {
  World w = makeWorld();
  (void)w.registerComponent<SysPos>();
  (void)w.registerComponent<SysVel>();
  const Entity e = w.create().value();
  ASSERT_TRUE(w.addComponent(e, SysPos{1, 2}).ok());
  ASSERT_TRUE(w.addComponent(e, SysVel{10, 20}).ok());
  ASSERT_TRUE(w.registerSystem(SysMove_Def, Io<SysPos, Write>{}, Io<SysVel, Read>{}).ok());
  SystemSchedule s;
  ASSERT_TRUE(w.scheduleSystems(s).ok());
  ASSERT_TRUE(w.runSystems(s).ok());
  ASSERT_TRUE(w.runSystems(s).ok());
  EXPECT_EQ(w.get<SysPos>(e)->x, 21);
  EXPECT_EQ(w.get<SysPos>(e)->y, 42);
}

}  // namespace
}  // namespace laige
