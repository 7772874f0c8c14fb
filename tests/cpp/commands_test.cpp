// commands_test.cpp - deferred commands (docs/commands.md): the apply
// points (end of the recording system, end of a top-level each, end of a
// defer), recording order, dead targets as counted skips, create-then-add
// in one buffer, churn counting applied commands, the record-time checks
// (bad input leaves the state hash unchanged and records nothing), the
// declared io of systems, the snapshot refusal, no allocation per command
// in the steady state, and the state-hash stream Vitest checks too
// (tests/ts/commands.test.ts).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "laige/assert.h"
#include "laige/commands.h"
#include "laige/query_object.h"
#include "laige/system.h"
#include "laige/world.h"
#include "support/counting_allocator.h"
#include "support/log_capture.h"

namespace laige {
namespace {

struct CmdPos {
  std::int32_t x, y;
};
LAIGE_COMPONENT(CmdPos, x, y);
struct CmdHp {
  std::int32_t v;
};
LAIGE_COMPONENT(CmdHp, v);

World makeWorld(std::uint32_t capacity = 64, std::uint32_t churn = 0) {
  World::Options o;
  o.capacity = capacity;
  o.seed = 7;
  o.churnPerFrameBudget = churn;
  World w = World::create(o).takeValue();
  EXPECT_EQ(w.registerComponent<CmdPos>().value(), 1u);
  EXPECT_EQ(w.registerComponent<CmdHp>().value(), 2u);
  return w;
}

Entity spawn(World& w, std::int32_t x) {
  const Entity e = w.create().value();
  EXPECT_TRUE(w.addComponent(e, CmdPos{x, 0}).ok());
  return e;
}

TEST(Commands, DeferAppliesInRecordingOrderAtItsEnd) {
  World w = makeWorld();
  const Entity a = spawn(w, 1);
  const Entity b = spawn(w, 2);
  const Status st = w.defer([&](CommandBuffer& cmds) {
    EXPECT_TRUE(cmds.add(a, CmdHp{1}).ok());
    EXPECT_TRUE(cmds.add(a, CmdHp{2}).ok());  // the later add wins
    EXPECT_TRUE(cmds.add(b, CmdHp{5}).ok());
    EXPECT_TRUE(cmds.remove<CmdHp>(b).ok());  // add then remove: b ends without it
    EXPECT_TRUE(cmds.remove<CmdPos>(a).ok());
    EXPECT_TRUE(cmds.add(a, CmdPos{9, 9}).ok());  // remove then add: a has it again
    EXPECT_EQ(cmds.pending(), 6u);
    EXPECT_FALSE(w.has<CmdHp>(a));  // nothing applied before the end
  });
  ASSERT_TRUE(st.ok());
  ASSERT_NE(w.get<CmdHp>(a), nullptr);
  EXPECT_EQ(w.get<CmdHp>(a)->v, 2);
  EXPECT_FALSE(w.has<CmdHp>(b));
  ASSERT_NE(w.get<CmdPos>(a), nullptr);
  EXPECT_EQ(w.get<CmdPos>(a)->x, 9);
  const CommandStats s = w.commandStats();
  EXPECT_EQ(s.recorded, 6u);
  EXPECT_EQ(s.applied, 6u);
  EXPECT_EQ(s.pending, 0u);
  EXPECT_EQ(s.skippedDead + s.skippedFailed, 0u);
}

TEST(Commands, TopLevelEachAppliesWhenItReturns) {
  World w = makeWorld();
  for (int i = 0; i < 5; ++i) (void)spawn(w, i);
  CommandBuffer& cmds = w.commands();
  std::uint32_t visited = 0;
  const Status st = w.each<CmdPos>(
      [&](Entity e, const CmdPos& p) {
        ++visited;
        if (p.x % 2 == 0) {
          EXPECT_TRUE(cmds.destroy(e).ok());
        }
        EXPECT_TRUE(w.isValid(e));  // deferred: still live while the each runs
      },
      Read{});
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(visited, 5u);
  EXPECT_EQ(w.entityCount(), 2u);  // 0, 2, 4 destroyed at the end
  EXPECT_EQ(w.commandStats().applied, 3u);
}

TEST(Commands, CreateThenAddInOneBuffer) {
  World w = makeWorld();
  (void)spawn(w, 1);
  (void)spawn(w, 2);
  CommandBuffer& cmds = w.commands();
  std::vector<Entity> made;
  std::uint32_t visited = 0;
  ASSERT_TRUE(w.each<CmdPos>(
                   [&](Entity, const CmdPos& p) {
                     ++visited;
                     const Result<Entity> e = cmds.create();  // a usable handle at once
                     ASSERT_TRUE(e.ok());
                     EXPECT_TRUE(w.isValid(e.value()));
                     EXPECT_TRUE(cmds.add(e.value(), CmdPos{p.x * 10, 1}).ok());
                     EXPECT_TRUE(cmds.add(e.value(), CmdHp{p.x}).ok());
                     made.push_back(e.value());
                   },
                   Read{})
                  .ok());
  EXPECT_EQ(visited, 2u);  // the created entities are not visited
  ASSERT_EQ(made.size(), 2u);
  EXPECT_EQ(w.get<CmdPos>(made[1])->x, 20);
  EXPECT_EQ(w.get<CmdHp>(made[0])->v, 1);
  EXPECT_EQ(w.commandStats().recorded, 4u);  // create is immediate, not a record
}

TEST(Commands, CommandOnAnEntityDestroyedEarlierIsACountedSkip) {
  test::LogCapture log;
  World w = makeWorld();
  const Entity a = spawn(w, 1);
  ASSERT_TRUE(w.defer([&](CommandBuffer& cmds) {
                 EXPECT_TRUE(cmds.destroy(a).ok());
                 EXPECT_TRUE(cmds.add(a, CmdHp{3}).ok());  // a is live while recording
                 EXPECT_TRUE(cmds.destroy(a).ok());
                 EXPECT_TRUE(cmds.remove<CmdPos>(a).ok());
               }).ok());
  EXPECT_FALSE(w.isValid(a));
  const CommandStats s = w.commandStats();
  EXPECT_EQ(s.applied, 1u);
  EXPECT_EQ(s.skippedDead, 3u);
  EXPECT_EQ(s.skippedFailed, 0u);
  EXPECT_GE(log.count("ecs", "command_target_dead"), 1u);
  EXPECT_EQ(w.entityCount(), 0u);
}

TEST(Commands, ChurnCountsAppliedCommands) {
  World w = makeWorld();
  const Entity a = spawn(w, 1);
  const Entity b = spawn(w, 2);
  w.beginFrame();
  ASSERT_TRUE(w.defer([&](CommandBuffer& cmds) {
                 EXPECT_TRUE(cmds.add(a, CmdHp{1}).ok());
                 EXPECT_TRUE(cmds.add(b, CmdHp{2}).ok());
                 EXPECT_TRUE(cmds.remove<CmdHp>(a).ok());
                 EXPECT_TRUE(cmds.destroy(b).ok());
                 EXPECT_TRUE(cmds.add(b, CmdHp{3}).ok());  // skipped: b is dead by then
                 EXPECT_EQ(w.guardrailStats().frameChurn, 0u);  // nothing applied yet
               }).ok());
  // Exactly what the direct calls count: 2 adds + 1 remove (destroy is not churn).
  EXPECT_EQ(w.guardrailStats().frameChurn, 3u);
  World direct = makeWorld();
  const Entity da = spawn(direct, 1);
  const Entity db = spawn(direct, 2);
  direct.beginFrame();
  ASSERT_TRUE(direct.addComponent(da, CmdHp{1}).ok());
  ASSERT_TRUE(direct.addComponent(db, CmdHp{2}).ok());
  ASSERT_TRUE(direct.removeComponent<CmdHp>(da).ok());
  ASSERT_TRUE(direct.destroy(db).ok());
  EXPECT_EQ(direct.guardrailStats().frameChurn, 3u);
  EXPECT_EQ(direct.stateHash(1), w.stateHash(1));
}

TEST(Commands, NestedPhasesJoinTheOutermost) {
  World w = makeWorld();
  const Entity a = spawn(w, 1);
  const Entity b = spawn(w, 2);
  // A defer inside an each joins the each: applied when the each returns.
  ASSERT_TRUE(w.each<CmdPos>(
                   [&](Entity e, const CmdPos&) {
                     ASSERT_TRUE(w.defer([&](CommandBuffer& c) { EXPECT_TRUE(c.add(e, CmdHp{7}).ok()); }).ok());
                     EXPECT_FALSE(w.has<CmdHp>(e));  // the inner defer did not apply under the guard
                   },
                   Read{})
                  .ok());
  EXPECT_TRUE(w.has<CmdHp>(a));
  EXPECT_TRUE(w.has<CmdHp>(b));
  // An each inside a defer: applied at the defer's end, not the each's.
  ASSERT_TRUE(w.defer([&](CommandBuffer& c) {
                 ASSERT_TRUE(w.each<CmdHp>([&](Entity e, const CmdHp&) { EXPECT_TRUE(c.remove<CmdHp>(e).ok()); },
                                           Read{})
                                 .ok());
                 EXPECT_TRUE(w.has<CmdHp>(a));
                 EXPECT_EQ(c.pending(), 2u);
               }).ok());
  EXPECT_FALSE(w.has<CmdHp>(a));
  EXPECT_FALSE(w.has<CmdHp>(b));
}

// --- systems ------------------------------------------------------------------

Entity gTarget;
bool gSeenAliveInRecorder = false;
bool gSeenDeadInNext = false;
Status gRecordStatus;
CommandBuffer* gKept = nullptr;

void recorder(World& w, SystemContext& ctx) {
  gRecordStatus = ctx.commands.destroy(gTarget);
  gSeenAliveInRecorder = w.isValid(gTarget);
  gKept = &ctx.commands;
}
void observer(World& w, SystemContext&) { gSeenDeadInNext = !w.isValid(gTarget); }

TEST(Commands, SystemCommandsApplyRightAfterItsRun) {
  World w = makeWorld();
  gTarget = spawn(w, 1);
  const SystemDef rec{"Recorder", &recorder, fpx16_16::fromDouble(1000.0), nullptr, nullptr};
  const SystemDef obs{"Observer", &observer, fpx16_16::fromDouble(1000.0), "Recorder", nullptr};
  ASSERT_TRUE(w.registerSystem(rec, Io<CmdPos, Write>{}).ok());
  ASSERT_TRUE(w.registerSystem(obs, Io<CmdPos, Read>{}).ok());
  SystemSchedule sched;
  ASSERT_TRUE(w.scheduleSystems(sched).ok());
  ASSERT_TRUE(w.runSystems(sched).ok());
  EXPECT_TRUE(gRecordStatus.ok());
  EXPECT_TRUE(gSeenAliveInRecorder);
  EXPECT_TRUE(gSeenDeadInNext);
  // The kept buffer after the run: no phase is open, nothing is recorded.
  const std::uint64_t before = w.stateHash(1);
  const Entity other = spawn(w, 2);
  const std::uint64_t withOther = w.stateHash(1);
  const Status late = gKept->destroy(other);
  EXPECT_STREQ(late.reason(), "command_outside_phase");
  EXPECT_STREQ(late.fieldValue("op"), "destroy");
  EXPECT_EQ(w.stateHash(1), withOther);
  EXPECT_NE(before, withOther);
  EXPECT_EQ(w.commandStats().pending, 0u);
}

Status gIoStatus;
enum class IoAct { AddUndeclared, OverwriteRead, RemoveUndeclared, DestroyUndeclared, AddDeclaredRead };
IoAct gIoAct = IoAct::AddUndeclared;
void ioBody(World&, SystemContext& ctx) {
  switch (gIoAct) {
    case IoAct::AddUndeclared:
      gIoStatus = ctx.commands.add(gTarget, CmdHp{1});
      return;
    case IoAct::OverwriteRead:
      gIoStatus = ctx.commands.add(gTarget, CmdPos{1, 1});
      return;
    case IoAct::RemoveUndeclared:
      gIoStatus = ctx.commands.remove<CmdHp>(gTarget);
      return;
    case IoAct::DestroyUndeclared:
      gIoStatus = ctx.commands.destroy(gTarget);
      return;
    case IoAct::AddDeclaredRead:
      return;
  }
}

struct IoCase {
  IoAct act;
  const char* access;
};

// The system declares CmdPos Read only, and the target has CmdPos and CmdHp.
TEST(Commands, SystemIoIsEnforcedAtRecordTime) {
  const IoCase cases[] = {{IoAct::AddUndeclared, "add"},
                          {IoAct::OverwriteRead, "write"},
                          {IoAct::RemoveUndeclared, "remove"},
                          {IoAct::DestroyUndeclared, "destroy"}};
  for (const IoCase& c : cases) {
    World w = makeWorld();
    gTarget = spawn(w, 1);
    if (c.act != IoAct::AddUndeclared) {
      ASSERT_TRUE(w.addComponent(gTarget, CmdHp{4}).ok());
    }
    const SystemDef def{"Reader", &ioBody, fpx16_16::fromDouble(1000.0), nullptr, nullptr};
    ASSERT_TRUE(w.registerSystem(def, Io<CmdPos, Read>{}).ok());
    SystemSchedule sched;
    ASSERT_TRUE(w.scheduleSystems(sched).ok());
    gIoAct = c.act;
#if LAIGE_DEBUG_ASSERTS
    EXPECT_DEATH((void)w.runSystems(sched), "system_io_violation") << c.access;
#else
    const std::uint64_t before = w.stateHash(0);
    ASSERT_TRUE(w.runSystems(sched).ok());
    EXPECT_STREQ(gIoStatus.reason(), "system_io_violation") << c.access;
    EXPECT_STREQ(gIoStatus.fieldValue("access"), c.access);
    EXPECT_STREQ(gIoStatus.fieldValue("system"), "Reader");
    EXPECT_EQ(w.commandStats().recorded, 0u);
    EXPECT_EQ(w.stateHash(0), before);
#endif
  }
}

// --- bad input ----------------------------------------------------------------

TEST(Commands, BadInputRecordsNothingAndLeavesTheHashUnchanged) {
  World w = makeWorld();
  const Entity live = spawn(w, 1);
  const Entity dead = spawn(w, 2);
  ASSERT_TRUE(w.destroy(dead).ok());
  const std::uint64_t before = w.stateHash(3);
  // Outside every phase.
  EXPECT_STREQ(w.commands().destroy(live).reason(), "command_outside_phase");
  EXPECT_STREQ(w.commands().add(live, CmdHp{1}).reason(), "command_outside_phase");
  EXPECT_STREQ(w.commands().remove<CmdPos>(live).reason(), "command_outside_phase");
  EXPECT_STREQ(w.commands().create().status().reason(), "command_outside_phase");
  ASSERT_TRUE(w.defer([&](CommandBuffer& c) {
                 const Status stale = c.destroy(dead);
                 EXPECT_STREQ(stale.reason(), "stale_entity_access");
                 EXPECT_STREQ(stale.fieldValue("op"), "destroy");
                 EXPECT_STREQ(c.add(dead, CmdHp{1}).reason(), "stale_entity_access");
                 EXPECT_STREQ(c.remove<CmdHp>(dead).reason(), "stale_entity_access");
                 EXPECT_STREQ(c.destroy(Entity{}).reason(), "stale_entity_access");
                 const std::int32_t v = 1;
                 EXPECT_STREQ(c.addBytes(live, 0, &v, 4).reason(), "component_unregistered");
                 EXPECT_STREQ(c.addBytes(live, 99, &v, 4).reason(), "component_unregistered");
                 EXPECT_STREQ(c.removeById(live, 99).reason(), "component_unregistered");
                 const Status size = c.addBytes(live, 2, &v, 3);
                 EXPECT_STREQ(size.reason(), "component_size_mismatch");
                 EXPECT_STREQ(size.fieldValue("expected_size"), "4");
                 EXPECT_STREQ(c.addBytes(live, 2, nullptr, 4).reason(), "component_size_mismatch");
                 EXPECT_EQ(c.pending(), 0u);
               }).ok());
  EXPECT_EQ(w.stateHash(3), before);
  EXPECT_EQ(w.commandStats().recorded, 0u);
  // A moved-from world: every call fails, defer does not run fn.
  World moved = std::move(w);
  EXPECT_STREQ(w.commands().destroy(live).reason(), "world_moved_from");
  EXPECT_STREQ(w.commands().reserve(64).reason(), "world_moved_from");
  bool ran = false;
  EXPECT_STREQ(w.defer([&](CommandBuffer&) { ran = true; }).reason(), "world_moved_from");
  EXPECT_FALSE(ran);
  EXPECT_EQ(moved.stateHash(3), before);
}

TEST(Commands, ApplyTimeRejectionIsACountedSkipAndTheRestApplies) {
  test::LogCapture log;
  World w = makeWorld();
  const Entity a = spawn(w, 1);
  const Entity b = spawn(w, 2);
  // A system that declares CmdHp Read: the add of a missing CmdHp records
  // (a structural add), but an earlier command adds it first, so the
  // second add would overwrite a Read component -> skipped at apply.
  struct Local {
    static void body(World&, SystemContext& ctx) {
      (void)ctx.commands.add(gTarget, CmdHp{1});
      (void)ctx.commands.add(gTarget, CmdHp{2});
      (void)ctx.commands.remove<CmdPos>(gTarget);
    }
  };
  gTarget = a;
  const SystemDef def{"Adder", &Local::body, fpx16_16::fromDouble(1000.0), nullptr, nullptr};
  ASSERT_TRUE(w.registerSystem(def, Io<CmdPos, Write>{}, Io<CmdHp, Read>{}).ok());
  SystemSchedule sched;
  ASSERT_TRUE(w.scheduleSystems(sched).ok());
  ASSERT_TRUE(w.runSystems(sched).ok());
  const CommandStats s = w.commandStats();
  EXPECT_EQ(s.recorded, 3u);
  EXPECT_EQ(s.applied, 2u);
  EXPECT_EQ(s.skippedFailed, 1u);
  EXPECT_EQ(w.get<CmdHp>(a)->v, 1);
  EXPECT_FALSE(w.has<CmdPos>(a));
  EXPECT_TRUE(w.has<CmdPos>(b));
  EXPECT_GE(log.count("ecs", "command_failed"), 1u);
}

TEST(Commands, SnapshotIsRefusedWhileCommandsArePending) {
  World w = makeWorld();
  const Entity a = spawn(w, 1);
  std::vector<std::uint8_t> bytes(4096);
  ASSERT_TRUE(w.defer([&](CommandBuffer& c) {
                 ASSERT_TRUE(c.add(a, CmdHp{1}).ok());
                 const Status st = w.snapshot(bytes);
                 EXPECT_STREQ(st.reason(), "snapshot_commands_pending");
                 EXPECT_STREQ(st.fieldValue("pending"), "1");
               }).ok());
  EXPECT_TRUE(w.snapshot(bytes).ok());
}

// --- allocation ---------------------------------------------------------------

void churner(World& w, SystemContext& ctx) {
  (void)w.each<CmdPos>(
      [&](Entity e, const CmdPos&) {
        if (w.has<CmdHp>(e)) {
          (void)ctx.commands.remove<CmdHp>(e);
        } else {
          (void)ctx.commands.add(e, CmdHp{1});
        }
      },
      Read{});
}

TEST(Commands, SteadyStateRecordingAllocatesNothing) {
  World w = makeWorld(1024);
  for (int i = 0; i < 500; ++i) (void)spawn(w, i);
  const SystemDef def{"Churner", &churner, fpx16_16::fromDouble(1000.0), nullptr, nullptr};
  ASSERT_TRUE(w.registerSystem(def, Io<CmdPos, Read>{}, Io<CmdHp, Write>{}).ok());
  SystemSchedule sched;
  ASSERT_TRUE(w.scheduleSystems(sched).ok());
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(w.runSystems(sched).ok());  // warm-up: buffer and archetypes grow
  const std::uint32_t grows = w.commandStats().grows;
  const std::uint64_t applied = w.commandStats().applied;
  test::AllocationWindow window;
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(w.runSystems(sched).ok());
  EXPECT_EQ(window.allocations(), 0u);
  EXPECT_EQ(w.commandStats().applied - applied, 20u * 500u);
  EXPECT_EQ(w.commandStats().grows, grows);
  // reserve() at setup: a fresh world that reserved enough never grows on the hot path.
  World r = makeWorld(64);
  ASSERT_TRUE(r.commands().reserve(1 << 16).ok());
  EXPECT_EQ(r.commandStats().bufferBytes, 1u << 16);
}

// --- the stream shared with Vitest ------------------------------------------

// The same scene as tests/ts/commands.test.ts ("the state-hash stream
// equals the C++ one"): both record the same commands and must produce
// these hashes.
void streamSystem(World& w, SystemContext& ctx) {
  (void)w.each<CmdPos>(
      [&](Entity e, CmdPos& p) {
        p.x += 1;
        if (p.x % 3 == 0) {
          (void)ctx.commands.destroy(e);
          (void)ctx.commands.add(e, CmdHp{99});  // skipped: dead by then
        } else if (w.has<CmdHp>(e)) {
          (void)ctx.commands.remove<CmdHp>(e);
        } else {
          (void)ctx.commands.add(e, CmdHp{p.x});
        }
      },
      Write{});
  const Result<Entity> made = ctx.commands.create();
  if (made.ok()) {
    const auto t = static_cast<std::int32_t>(ctx.tick);
    (void)ctx.commands.add(made.value(), CmdPos{t * 10, t});
  }
}

std::vector<std::uint64_t> commandStream() {
  World w = makeWorld(64);
  for (int i = 0; i < 8; ++i) {
    const Entity e = spawn(w, i);
    if (i % 2 == 0) (void)w.addComponent(e, CmdHp{10 + i});
  }
  std::vector<std::uint64_t> out;
  // A top-level each and a defer before the ticks.
  CommandBuffer& cmds = w.commands();
  (void)w.each<CmdHp>([&](Entity e, const CmdHp& h) { if (h.v == 12) (void)cmds.destroy(e); }, Read{});
  out.push_back(w.stateHash(0));
  (void)w.defer([&](CommandBuffer& c) {
    const Entity e = c.create().value();
    (void)c.add(e, CmdPos{100, 5});
    (void)c.add(e, CmdHp{7});
  });
  out.push_back(w.stateHash(0));
  const SystemDef def{"Stream", &streamSystem, fpx16_16::fromDouble(1000.0), nullptr, nullptr};
  (void)w.registerSystem(def, Io<CmdPos, Write>{}, Io<CmdHp, Write>{});
  SystemSchedule sched;
  (void)w.scheduleSystems(sched);
  for (int t = 1; t <= 6; ++t) {
    (void)w.runSystems(sched);
    out.push_back(w.stateHash(static_cast<std::uint64_t>(t)));
  }
  const CommandStats s = w.commandStats();
  out.push_back(s.applied);
  out.push_back(s.skippedDead);
  return out;
}

TEST(Commands, StateHashStreamMatchesTheSharedGolden) {
  const std::vector<std::uint64_t> got = commandStream();
  // Also in tests/ts/commands.test.ts: change both together.
  const std::vector<std::uint64_t> want = {
      0x769ef1bcbb4ccc64ull, 0x789a3c7f45092e7aull, 0xbcde2bf53ee82764ull, 0x27bca9c2563e5089ull,
      0xef894b7bba852ad5ull, 0x635a08d49ef179abull, 0xf674f4460c5950b9ull, 0xce70c6155f915bf4ull,
      36,  // applied
      13,  // skipped: target dead
  };
  std::string text;
  for (const std::uint64_t h : got) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%016llxull,\n", static_cast<unsigned long long>(h));
    text += buf;
  }
  EXPECT_EQ(got, want) << text;
  EXPECT_EQ(commandStream(), got);  // deterministic run to run
}

}  // namespace
}  // namespace laige

namespace laige {
namespace {

TEST(Commands, NoTickStartsInsideADefer) {
  World w = makeWorld();
  Status inside;
  ASSERT_TRUE(w.defer([&](CommandBuffer&) { inside = w.tickAllowed(); }).ok());
  EXPECT_STREQ(inside.reason(), "tick_inside_callback");
  EXPECT_STREQ(inside.fieldValue("callback"), "defer");
  EXPECT_TRUE(w.tickAllowed().ok());
}

}  // namespace
}  // namespace laige

namespace laige {
namespace {

TEST(Commands, QueryEachAppliesWhenItReturns) {
  World w = makeWorld();
  for (int i = 0; i < 4; ++i) (void)spawn(w, i);
  Query<Reads<CmdPos>, Without<CmdHp>> bare(w);
  CommandBuffer& cmds = w.commands();
  std::uint32_t visited = 0;
  ASSERT_TRUE(bare.each(w, [&](Entity e, const CmdPos& p) {
                    ++visited;
                    EXPECT_TRUE(cmds.add(e, CmdHp{p.x}).ok());  // a move out of the matched archetype
                    EXPECT_FALSE(w.has<CmdHp>(e));
                  })
                  .ok());
  EXPECT_EQ(visited, 4u);
  EXPECT_EQ(bare.count(w), 0u);
  EXPECT_EQ(w.commandStats().applied, 4u);
}

}  // namespace
}  // namespace laige
