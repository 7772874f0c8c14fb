// system_access_test.cpp - the declared io of a running system, enforced
// by the core (docs/query.md#system-access): every way a system body can
// touch a component (world.each, a query object, the JS-driven
// beginIteration, in-place and structural add, remove, destroy, clear, get
// for writing), each both ways: the legal call passes; the illegal one is
// a misuse assert in native debug builds, and elsewhere InvalidArgument
// with reason system_io_violation (fields system, component, access), the
// call skipped and the state hash unchanged. Outside systems nothing is
// checked. Io derived from query types (QueryIo) is checked too.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "laige/assert.h"
#include "laige/query_object.h"
#include "laige/system.h"
#include "laige/world.h"
#include "support/log_capture.h"

namespace laige {
namespace {

struct SP {
  std::int32_t v;
};
LAIGE_COMPONENT(SP, v);
struct SV {
  std::int32_t v;
};
LAIGE_COMPONENT(SV, v);
struct SH {
  std::int32_t v;
};
LAIGE_COMPONENT(SH, v);
struct STag {};
LAIGE_COMPONENT(STag);

// What the system body does this run; it stores the call's Status.
enum class Act {
  EachLegal, EachWriteOfRead, EachUndeclared, QueryLegal, QueryWithoutUndeclared, QueryWriteOfRead,
  BeginLegal, BeginWriteOfRead, BeginUndeclared, BeginWithoutUndeclared, OverwriteLegal, OverwriteRead, AddDeclaredRead,
  AddUndeclared, RemoveDeclaredRead, RemoveUndeclared, GetWriteLegal, GetWriteOfRead, GetBytesWriteOfRead,
  GetConstRead, DestroyLegal, DestroyUndeclared, ClearUndeclared, CreateAlways,
};
Act gAct = Act::EachLegal;
Status gStatus;
bool gPointerNull = false;
Entity gPV;   // {SP, SV}
Entity gPVH;  // {SP, SV, SH}

void body(World& w, SystemContext& ctx) {
  gPointerNull = false;
  switch (gAct) {
    case Act::EachLegal:
      gStatus = ctx.each<SP, SV>([](Entity, SP& p, const SV& v) { p.v += v.v; }, Write{}, Read{});
      return;
    case Act::EachWriteOfRead:
      gStatus = ctx.each<SP, SV>([](Entity, SP&, SV&) {}, Write{}, Write{});
      return;
    case Act::EachUndeclared:
      gStatus = w.each<SH>([](Entity, const SH&) {}, Read{});
      return;
    case Act::QueryLegal: {
      Query<Writes<SP>, Reads<SV>> q(w);
      gStatus = ctx.each(q, [](Entity, SP& p, const SV&) { p.v += 1; });
      return;
    }
    case Act::QueryWithoutUndeclared: {
      Query<Reads<SP>, Without<SH>> q(w);
      gStatus = q.each(w, [](Entity, const SP&) {});
      return;
    }
    case Act::QueryWriteOfRead: {
      Query<Reads<SP>, Optional<SV, Write>> q(w);
      gStatus = q.each(w, [](Entity, const SP&, SV*) {});
      return;
    }
    case Act::BeginLegal:
    case Act::BeginWriteOfRead:
    case Act::BeginUndeclared: {
      const ComponentTypeId ids[] = {w.componentId<SP>(),
                                     gAct == Act::BeginUndeclared ? w.componentId<SH>() : w.componentId<SV>()};
      const Access access[] = {Access::Write, gAct == Act::BeginWriteOfRead ? Access::Write : Access::Read};
      gStatus = w.beginIteration(ids, access);
      w.endIteration();
      return;
    }
    case Act::BeginWithoutUndeclared: {
      const ComponentTypeId ids[] = {w.componentId<SP>()};
      const Access access[] = {Access::Read};
      const ComponentTypeId without[] = {w.componentId<SH>()};
      gStatus = w.beginIteration(ids, access, without);
      w.endIteration();
      return;
    }
    case Act::OverwriteLegal: gStatus = w.addComponent(gPV, SP{42}); return;
    case Act::OverwriteRead: gStatus = w.addComponent(gPV, SV{42}); return;
    case Act::AddDeclaredRead: {
      const Entity e = w.create().value();
      gStatus = w.addComponent(e, SV{1});  // a structural add: declared is enough
      return;
    }
    case Act::AddUndeclared: gStatus = w.addComponent(gPV, SH{1}); return;
    case Act::RemoveDeclaredRead: gStatus = w.removeComponent<SV>(gPV); return;
    case Act::RemoveUndeclared: gStatus = w.removeComponent<SH>(gPVH); return;
    case Act::GetWriteLegal: gPointerNull = w.get<SP>(gPV) == nullptr; return;
    case Act::GetWriteOfRead: gPointerNull = w.get<SV>(gPV) == nullptr; return;
    case Act::GetBytesWriteOfRead: gPointerNull = w.getBytes(gPV, w.componentId<SV>()) == nullptr; return;
    case Act::GetConstRead: gPointerNull = std::as_const(w).get<SV>(gPV) == nullptr; return;
    case Act::DestroyLegal: gStatus = w.destroy(gPV); return;
    case Act::DestroyUndeclared: gStatus = w.destroy(gPVH); return;
    case Act::ClearUndeclared: gStatus = w.clear(); return;
    case Act::CreateAlways: gStatus = w.create().status(); return;
  }
}

struct Rig {
  World w;
  SystemSchedule schedule;
  Rig() : w(World::create(64).takeValue()) {
    (void)w.registerComponent<SP>();
    (void)w.registerComponent<SV>();
    (void)w.registerComponent<SH>();
    (void)w.registerComponent<STag>();
    gPV = w.create().value();
    (void)w.addComponent(gPV, SP{1});
    (void)w.addComponent(gPV, SV{2});
    gPVH = w.create().value();
    (void)w.addComponent(gPVH, SP{3});
    (void)w.addComponent(gPVH, SV{4});
    (void)w.addComponent(gPVH, SH{5});
    const SystemDef def{"Mover", &body, fpx16_16::fromDouble(1000.0), nullptr, nullptr};
    EXPECT_TRUE(w.registerSystem(def, Io<SP, Write>{}, Io<SV, Read>{}).ok());
    EXPECT_TRUE(w.scheduleSystems(schedule).ok());
  }
  Status run(Act a) {
    gAct = a;
    gStatus = Status{};
    return w.runSystems(schedule);
  }
};

TEST(SystemAccess, LegalCallsPass) {
  for (Act a : {Act::EachLegal, Act::QueryLegal, Act::BeginLegal, Act::OverwriteLegal, Act::AddDeclaredRead,
                Act::RemoveDeclaredRead, Act::DestroyLegal, Act::CreateAlways}) {
    Rig r;
    ASSERT_TRUE(r.run(a).ok());
    EXPECT_TRUE(gStatus.ok()) << static_cast<int>(a) << " " << gStatus.reason();
  }
  Rig r;
  ASSERT_TRUE(r.run(Act::EachLegal).ok());
  EXPECT_EQ(r.w.get<SP>(gPV)->v, 3);  // the Write reference landed
  ASSERT_TRUE(r.run(Act::GetWriteLegal).ok());
  EXPECT_FALSE(gPointerNull);
  ASSERT_TRUE(r.run(Act::GetConstRead).ok());  // a read of a Read component
  EXPECT_FALSE(gPointerNull);
  ASSERT_TRUE(r.run(Act::RemoveDeclaredRead).ok());
  EXPECT_FALSE(r.w.has<SV>(gPV));
}

TEST(SystemAccess, OutsideSystemsNothingIsChecked) {
  Rig r;
  EXPECT_TRUE(r.w.addComponent(gPV, SH{1}).ok());
  EXPECT_TRUE(r.w.addComponent(gPV, SV{7}).ok());
  EXPECT_NE(r.w.get<SV>(gPV), nullptr);
  EXPECT_TRUE((r.w.each<SH, SV>([](Entity, SH&, SV&) {}, Write{}, Write{}).ok()));
  EXPECT_TRUE(r.w.destroy(gPVH).ok());
}

struct Violation {
  Act act;
  const char* component;
  const char* access;
};
constexpr Violation kViolations[] = {
    {Act::EachWriteOfRead, "SV", "write"},    {Act::EachUndeclared, "SH", "read"},
    {Act::QueryWithoutUndeclared, "SH", "read"}, {Act::QueryWriteOfRead, "SV", "write"},
    {Act::BeginWriteOfRead, "SV", "write"},   {Act::BeginUndeclared, "SH", "read"},
    {Act::BeginWithoutUndeclared, "SH", "read"},
    {Act::OverwriteRead, "SV", "write"},      {Act::AddUndeclared, "SH", "add"},
    {Act::RemoveUndeclared, "SH", "remove"},  {Act::DestroyUndeclared, "SH", "destroy"},
    {Act::ClearUndeclared, "SH", "destroy"},
};

#if !LAIGE_DEBUG_ASSERTS
TEST(SystemAccess, EveryViolationIsRejectedWithItsReasonAndChangesNothing) {
  for (const Violation& v : kViolations) {
    test::LogCapture logs;
    Rig r;
    const std::uint64_t before = r.w.componentStateHash(0);
    ASSERT_TRUE(r.run(v.act).ok());  // the tick itself runs
    EXPECT_EQ(gStatus.error(), ErrorCode::InvalidArgument) << v.component << " " << v.access;
    EXPECT_STREQ(gStatus.reason(), "system_io_violation");
    EXPECT_STREQ(gStatus.fieldValue("system"), "Mover");
    EXPECT_STREQ(gStatus.fieldValue("component"), v.component);
    EXPECT_STREQ(gStatus.fieldValue("access"), v.access);
    EXPECT_EQ(r.w.componentStateHash(0), before) << v.access;
    EXPECT_FALSE(r.w.isIterating());
    ASSERT_EQ(logs.count("system", "system_io_violation"), 1u);
    EXPECT_EQ(logs.sink->records().back().fieldValue("system"), "Mover");
  }
}

TEST(SystemAccess, GetForWritingOfAReadOrUndeclaredComponentIsNull) {
  for (Act a : {Act::GetWriteOfRead, Act::GetBytesWriteOfRead}) {
    test::LogCapture logs;
    Rig r;
    ASSERT_TRUE(r.run(a).ok());
    EXPECT_TRUE(gPointerNull);
    ASSERT_EQ(logs.count("system", "system_io_violation"), 1u);
    const auto& rec = logs.sink->records().back();
    EXPECT_EQ(rec.fieldValue("component"), "SV");
    EXPECT_EQ(rec.fieldValue("access"), "write");
    EXPECT_EQ(rec.fieldValue("declared"), "read");
  }
}
#else
TEST(SystemAccessDeathTest, EveryViolationAssertsInDebugBuilds) {
  for (const Violation& v : kViolations) {
    Rig r;
    EXPECT_DEATH((void)r.run(v.act), "system_io_violation") << v.component << " " << v.access;
  }
  for (Act a : {Act::GetWriteOfRead, Act::GetBytesWriteOfRead}) {
    Rig r;
    EXPECT_DEATH((void)r.run(a), "system_io_violation");
  }
}
#endif

// Io derived from query types: Writes -> Write, every other term -> Read,
// merged with explicit Io<> (Write wins).
using MoveQuery = Query<Writes<SP>, Reads<SV>, Without<STag>>;
using TagQuery = Query<With<STag>, Optional<SH>>;

void derivedBody(World& w, SystemContext& ctx) {
  MoveQuery move(w);
  TagQuery tags(w);
  gStatus = ctx.each(move, [](Entity, SP& p, const SV&) { p.v += 1; });
  if (gStatus.ok()) gStatus = ctx.each(tags, [](Entity, const SH*) {});
  if (gStatus.ok() && gAct == Act::OverwriteRead) gStatus = w.addComponent(gPV, SV{9});
  if (gStatus.ok() && gAct == Act::OverwriteLegal) gStatus = w.addComponent(gPVH, SH{9});
}

TEST(SystemAccess, IoDerivedFromQueries) {
  World w = World::create(16).takeValue();
  (void)w.registerComponent<SP>();
  (void)w.registerComponent<SV>();
  (void)w.registerComponent<SH>();
  (void)w.registerComponent<STag>();
  gPV = w.create().value();
  (void)w.addComponent(gPV, SP{1});
  (void)w.addComponent(gPV, SV{2});
  gPVH = w.create().value();
  (void)w.addComponent(gPVH, SH{2});
  const SystemDef def{"Derived", &derivedBody, fpx16_16::fromDouble(1000.0), nullptr, nullptr};
  const SystemId id = w.registerSystem(def, QueryIo<MoveQuery, TagQuery>{}, Io<SH, Write>{}).value();
  const SystemInfo info = w.system(id).value();
  EXPECT_TRUE(info.declaresWrite(w.componentId<SP>()));
  EXPECT_TRUE(info.declaresRead(w.componentId<SV>()));
  EXPECT_TRUE(info.declaresRead(w.componentId<STag>()));
  EXPECT_TRUE(info.declaresWrite(w.componentId<SH>()));  // Optional read + explicit Write
  EXPECT_EQ(info.ioCount(), 4u);
  SystemSchedule s;
  ASSERT_TRUE(w.scheduleSystems(s).ok());
  gAct = Act::OverwriteLegal;
  ASSERT_TRUE(w.runSystems(s).ok());
  EXPECT_TRUE(gStatus.ok()) << gStatus.reason();
  EXPECT_EQ(w.get<SP>(gPV)->v, 2);
  EXPECT_EQ(w.get<SH>(gPVH)->v, 9);
#if !LAIGE_DEBUG_ASSERTS
  gAct = Act::OverwriteRead;  // SV is Read through the query
  ASSERT_TRUE(w.runSystems(s).ok());
  EXPECT_STREQ(gStatus.reason(), "system_io_violation");
  EXPECT_EQ(w.get<SV>(gPV)->v, 2);
#endif
}

}  // namespace
}  // namespace laige
