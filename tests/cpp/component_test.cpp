// component_test.cpp - the component registry (docs/component_registry.md): the
// LAIGE_COMPONENT mark, typed and runtime-described registration, the
// layout rules shared by C++ structs and JS schemas, and the errors.
//
// Compile-time negative cases cannot be compile-fail tests in GoogleTest:
// tests/compile_fail/run.sh compiles each one below with g++ and em++ and
// checks that it fails with the quoted static_assert message
// (docs/component_registry.md#the-mark):
//   struct D { double d; };            LAIGE_COMPONENT(D, d);
//     -> "a double member is not determinism-safe"
//   struct B { bool b; std::uint8_t p[3]; }; LAIGE_COMPONENT(B, b, p);
//     -> "a bool member has no fixed representation"
//   struct P { int* p; };              LAIGE_COMPONENT(P, p);
//     -> "a pointer member puts addresses into simulation state"
//   struct L { long long v; };         (natively, where std::int64_t is long;
//                                       in wasm32 long long IS std::int64_t)
//     -> "member type outside the determinism-safe set"
//   struct Pad { std::uint8_t a; float b; }; LAIGE_COMPONENT(Pad, a, b);
//     -> "the listed members do not cover sizeof(T)"  (implicit padding)
//   struct Miss { float x, y; };       LAIGE_COMPONENT(Miss, x);
//     -> "the listed members do not cover sizeof(T)"  (unlisted member)
//   struct Twice { float x, y; };      LAIGE_COMPONENT(Twice, x, x);
//     -> "a member is listed twice"
//   struct alignas(16) Over { float v[4]; }; LAIGE_COMPONENT(Over, v);
//     -> "over-aligned types (alignas) are not supported"
//   struct V { virtual ~V(); float x; };     -> "must be trivially copyable"
//   struct NotEmpty { float x; };      LAIGE_COMPONENT(NotEmpty);
//     -> "no members listed, which is only allowed for an empty tag struct"
//   LAIGE_COMPONENT(Position, x, y) twice in one namespace -> redefinition
//   registerComponent<Unmarked>()      -> "T is not marked"
// The trait-level halves of those checks are asserted below.
#include "laige/component.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "laige/world.h"
#include "support/log_capture.h"

namespace laige {
namespace {

struct Position {
  float x, y;
};
LAIGE_COMPONENT(Position, x, y);
struct Velocity {
  float x, y;
};
LAIGE_COMPONENT(Velocity, x, y);
struct Frozen {};
LAIGE_COMPONENT(Frozen);
enum class Team : std::uint8_t { Red, Blue };
// Members in a different order than declared, every kind of safe member.
struct Mixed {
  SimMathFpx16::Vec2 pos;
  SimMathFp32::Vec3 dir;
  std::int32_t hp[2];
  Entity target;
  std::int64_t big;
  Team team;
  std::uint8_t pad[7];
};
LAIGE_COMPONENT(Mixed, team, pos, dir, hp, target, big, pad);
struct Unmarked {
  float x;
};

// The trait halves of the compile-time rejections (see the header comment).
static_assert(detail::MarkedComponent<Position>);
static_assert(!detail::MarkedComponent<Unmarked>);
static_assert(!detail::FieldKindOf<double>::kSafe);
static_assert(!detail::FieldKindOf<bool>::kSafe);
static_assert(!detail::FieldKindOf<int*>::kSafe);
static_assert(!detail::FieldKindOf<char>::kSafe);
static_assert(!detail::FieldKindOf<double[2]>::kSafe);
static_assert(detail::FieldKindOf<float[3][2]>::kSafe && detail::FieldKindOf<float[3][2]>::count == 6);
static_assert(detail::FieldKindOf<Team>::kind == FieldKind::U8);
static_assert(detail::FieldKindOf<SimMathFpx16::Vec3>::kind == FieldKind::Fx);
static_assert(detail::FieldKindOf<SimMathFp32::Vec2>::count == 2);
static_assert(detail::FieldKindOf<Entity>::kind == FieldKind::U32);
static_assert(detail::componentMeta<Frozen>().size == 0);
static_assert(detail::componentMeta<Mixed>().size == sizeof(Mixed));
static_assert(detail::componentMeta<Mixed>().alignment == alignof(Mixed));

World makeWorld(std::uint32_t capacity = 16) { return World::create(capacity).takeValue(); }

TEST(ComponentRegistry, IdsAreDenseFromOneInRegistrationOrder) {
  World w = makeWorld();
  EXPECT_EQ(w.componentCount(), 0u);
  EXPECT_EQ(w.componentId<Position>(), kInvalidComponentTypeId);
  EXPECT_EQ(w.registerComponent<Velocity>().value(), 1u);
  EXPECT_EQ(w.registerComponent<Position>().value(), 2u);
  EXPECT_EQ(w.registerComponent<Frozen>().value(), 3u);
  EXPECT_EQ(w.componentCount(), 3u);
  EXPECT_EQ(w.componentId<Velocity>(), 1u);
  EXPECT_EQ(w.componentId<Position>(), 2u);
  EXPECT_EQ(w.componentId<const Position>(), 2u);
  EXPECT_EQ(w.componentIdByName("Frozen"), 3u);
  EXPECT_EQ(w.componentIdByName("Nope"), 0u);
  // Per world: another world's order gives other ids.
  World v = makeWorld();
  EXPECT_EQ(v.registerComponent<Position>().value(), 1u);
  EXPECT_EQ(v.componentId<Position>(), 1u);
  EXPECT_EQ(v.componentId<Velocity>(), 0u);
}

TEST(ComponentRegistry, InfoRecordsTheLayout) {
  World w = makeWorld();
  const ComponentTypeId id = w.registerComponent<Mixed>().value();
  const ComponentInfo info = w.componentInfo(id).value();
  EXPECT_EQ(info.id, id);
  EXPECT_EQ(info.name, "Mixed");
  EXPECT_EQ(info.size, sizeof(Mixed));
  EXPECT_EQ(info.alignment, 8u);
  ASSERT_EQ(info.fields.size(), 7u);
  // Listed order is kept; offsets are the real ones.
  EXPECT_EQ(info.fields[0].name, "team");
  EXPECT_EQ(info.fields[0].kind, FieldKind::U8);
  EXPECT_EQ(info.fields[0].offset, offsetof(Mixed, team));
  EXPECT_EQ(info.fields[1].name, "pos");
  EXPECT_EQ(info.fields[1].kind, FieldKind::Fx);
  EXPECT_EQ(info.fields[1].count, 2u);
  EXPECT_EQ(info.fields[2].kind, FieldKind::F32);
  EXPECT_EQ(info.fields[2].count, 3u);
  EXPECT_EQ(info.fields[4].kind, FieldKind::U32);  // Entity
  EXPECT_EQ(info.fields[5].kind, FieldKind::I64);
  EXPECT_EQ(info.fields[6].count, 7u);
  const ComponentInfo tag = w.componentInfo(w.registerComponent<Frozen>().value()).value();
  EXPECT_EQ(tag.size, 0u);
  EXPECT_EQ(tag.alignment, 1u);
  EXPECT_TRUE(tag.fields.empty());
  EXPECT_EQ(w.componentInfo(0).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.componentInfo(3).error(), ErrorCode::InvalidArgument);
}

TEST(ComponentRegistry, DuplicateIsAnErrorWithAWarn) {
  test::LogCapture logs;
  World w = makeWorld();
  ASSERT_TRUE(w.registerComponent<Position>().ok());
  auto again = w.registerComponent<Position>();
  ASSERT_TRUE(again.isError());
  EXPECT_EQ(again.error(), ErrorCode::InvalidArgument);
  ASSERT_EQ(logs.count("ecs", "component_duplicate"), 1u);
  const auto& rec = logs.sink->records().back();
  EXPECT_EQ(rec.fieldValue("component_id"), "1");
  EXPECT_EQ(rec.fieldValue("size"), "8");
  EXPECT_EQ(rec.fieldValue("alignment"), "4");
  EXPECT_EQ(rec.message.rfind("component_duplicate | ", 0), 0u);
  // Rate-limited: a repeat inside the window is counted, not logged.
  EXPECT_TRUE(w.registerComponent<Position>().isError());
  EXPECT_EQ(logs.count("ecs", "component_duplicate"), 1u);
  // A runtime description under a taken name is a duplicate too.
  test::LogCapture::advance(5000);
  const ComponentField f[] = {{"x", FieldKind::F32, 2, 0}};
  EXPECT_EQ(w.registerComponentDesc({"Position", 8, 4, f}).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.componentCount(), 1u);
}

TEST(ComponentRegistry, BudgetOf256) {
  test::LogCapture logs;
  World w = makeWorld();
  std::vector<std::string> names;
  for (int i = 0; i < 257; ++i) names.push_back("C" + std::to_string(i));
  const ComponentField f[] = {{"v", FieldKind::U32, 1, 0}};
  for (std::uint32_t i = 0; i < kMaxComponentTypes; ++i) {
    ASSERT_EQ(w.registerComponentDesc({names[i], 4, 4, f}).value(), i + 1);
  }
  auto r = w.registerComponentDesc({names[256], 4, 4, f});
  ASSERT_TRUE(r.isError());
  EXPECT_EQ(r.error(), ErrorCode::BudgetExhausted);
  EXPECT_EQ(logs.count("ecs", "component_budget"), 1u);
  EXPECT_EQ(w.registerComponent<Position>().error(), ErrorCode::BudgetExhausted);
  EXPECT_EQ(w.componentCount(), 256u);
}

TEST(ComponentRegistry, MovedFromWorldRejects) {
  World a = makeWorld();
  World b(std::move(a));
  EXPECT_EQ(a.registerComponent<Position>().error(), ErrorCode::InvalidArgument);  // NOLINT
  EXPECT_EQ(a.componentCount(), 0u);                                               // NOLINT
  EXPECT_EQ(a.componentId<Position>(), 0u);                                        // NOLINT
  EXPECT_TRUE(b.registerComponent<Position>().ok());
  // The registry moves with the state: ids and infos survive a move.
  World c = std::move(b);
  EXPECT_EQ(c.componentId<Position>(), 1u);
  EXPECT_EQ(c.componentInfo(1).value().name, "Position");
}

TEST(ComponentRegistry, ClearKeepsTheRegistry) {
  World w = makeWorld();
  ASSERT_TRUE(w.registerComponent<Position>().ok());
  ASSERT_TRUE(w.clear().ok());
  EXPECT_EQ(w.componentCount(), 1u);
  EXPECT_EQ(w.componentId<Position>(), 1u);
}

TEST(ComponentLayout, SchemaAndStructGiveTheSameDescription) {
  // The JS schema {team: u8, ...} laid out in C order is rejected (padding);
  // in the struct's declaration order it matches the C++ struct exactly.
  ComponentField schema[] = {{"pos", FieldKind::Fx, 2}, {"dir", FieldKind::F32, 3},
                             {"hp", FieldKind::I32, 2}, {"target", FieldKind::U32, 1},
                             {"big", FieldKind::I64, 1}, {"team", FieldKind::U8, 1},
                             {"pad", FieldKind::U8, 7}};
  std::uint32_t size = 0;
  std::uint32_t alignment = 0;
  ASSERT_TRUE(layoutComponentFields(schema, size, alignment).ok());
  EXPECT_EQ(size, sizeof(Mixed));
  EXPECT_EQ(alignment, alignof(Mixed));
  EXPECT_EQ(schema[0].offset, offsetof(Mixed, pos));
  EXPECT_EQ(schema[1].offset, offsetof(Mixed, dir));
  EXPECT_EQ(schema[2].offset, offsetof(Mixed, hp));
  EXPECT_EQ(schema[3].offset, offsetof(Mixed, target));
  EXPECT_EQ(schema[4].offset, offsetof(Mixed, big));
  EXPECT_EQ(schema[5].offset, offsetof(Mixed, team));
  EXPECT_EQ(schema[6].offset, offsetof(Mixed, pad));
  // Registered from the schema, the runtime description equals the typed one.
  World w = makeWorld();
  const ComponentTypeId typed = w.registerComponent<Mixed>().value();
  const ComponentTypeId fromJs = w.registerComponentDesc({"MixedJs", size, alignment, schema}).value();
  const ComponentInfo a = w.componentInfo(typed).value();
  const ComponentInfo b = w.componentInfo(fromJs).value();
  EXPECT_EQ(a.size, b.size);
  EXPECT_EQ(a.alignment, b.alignment);
  for (const ComponentField& fa : a.fields) {
    bool found = false;
    for (const ComponentField& fb : b.fields) {
      if (fb.name != fa.name) continue;
      found = true;
      EXPECT_EQ(fb.kind, fa.kind);
      EXPECT_EQ(fb.count, fa.count);
      EXPECT_EQ(fb.offset, fa.offset);
    }
    EXPECT_TRUE(found) << fa.name;
  }
}

TEST(ComponentLayout, ImplicitPaddingIsRejected) {
  ComponentField head[] = {{"a", FieldKind::U8, 1}, {"b", FieldKind::F32, 1}};  // {u8, f32}
  std::uint32_t size = 99;
  std::uint32_t alignment = 99;
  LayoutCheck c = layoutComponentFields(head, size, alignment);
  EXPECT_FALSE(c.ok());
  EXPECT_EQ(c.code, ErrorCode::MalformedInput);
  EXPECT_STREQ(c.reason, "implicit_padding");
  EXPECT_EQ(c.field, 1u);
  EXPECT_EQ(size, 99u);
  ComponentField tail[] = {{"b", FieldKind::F32, 1}, {"a", FieldKind::U8, 1}};  // sizeof would be 8
  EXPECT_STREQ(layoutComponentFields(tail, size, alignment).reason, "implicit_padding");
  ComponentField ok[] = {{"b", FieldKind::F32, 1}, {"a", FieldKind::U8, 4}};
  ASSERT_TRUE(layoutComponentFields(ok, size, alignment).ok());
  EXPECT_EQ(size, 8u);
  EXPECT_EQ(alignment, 4u);
  ComponentField none[1] = {};
  ASSERT_TRUE(layoutComponentFields(std::span<ComponentField>(none, std::size_t{0}), size, alignment).ok());
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(alignment, 1u);
}

TEST(ComponentLayout, CheckNamesEveryProblem) {
  auto reason = [](std::uint32_t size, std::uint32_t align, std::vector<ComponentField> f) {
    const LayoutCheck c = checkComponentLayout(size, align, f);
    return std::string(c.ok() ? "ok" : c.reason);
  };
  EXPECT_EQ(reason(8, 4, {{"x", FieldKind::F32, 1, 0}, {"y", FieldKind::F32, 1, 4}}), "ok");
  EXPECT_EQ(reason(8, 4, {{"y", FieldKind::F32, 1, 4}, {"x", FieldKind::F32, 1, 0}}), "ok");
  EXPECT_EQ(reason(8, 4, {{"x", FieldKind::F32, 1, 0}, {"y", FieldKind::F32, 1, 2}}), "field_misaligned");
  EXPECT_EQ(reason(8, 4, {{"x", FieldKind::F32, 2, 0}, {"y", FieldKind::F32, 1, 4}}), "fields_overlap");
  EXPECT_EQ(reason(8, 4, {{"x", FieldKind::F32, 1, 0}}), "implicit_padding");
  EXPECT_EQ(reason(8, 4, {{"x", FieldKind::F32, 1, 8}}), "field_out_of_bounds");
  EXPECT_EQ(reason(8, 8, {{"x", FieldKind::F32, 2, 0}}), "alignment_mismatch");
  EXPECT_EQ(reason(4, 4, {{"x", static_cast<FieldKind>(0), 1, 0}}), "field_kind_invalid");
  EXPECT_EQ(reason(4, 4, {{"x", static_cast<FieldKind>(12), 1, 0}}), "field_kind_invalid");
  EXPECT_EQ(reason(4, 4, {{"x", FieldKind::F32, 0, 0}}), "field_count_zero");
  EXPECT_EQ(reason(4, 4, {{"", FieldKind::F32, 1, 0}}), "field_name_invalid");
  EXPECT_EQ(reason(8, 4, {{"x", FieldKind::F32, 1, 0}, {"x", FieldKind::F32, 1, 4}}), "field_name_duplicate");
  EXPECT_EQ(reason(kMaxComponentSize + 8, 8, {{"x", FieldKind::U64, kMaxComponentSize / 8 + 1, 0}}),
            "component_too_large");
  EXPECT_EQ(reason(0, 1, {}), "ok");
  EXPECT_EQ(reason(4, 1, {}), "implicit_padding");
  EXPECT_EQ(reason(4, 4, {{"x", FieldKind::U32, 0xFFFFFFFFu, 0}}), "field_out_of_bounds");  // no overflow
}

TEST(ComponentLayout, RegisterDescValidatesAndWarns) {
  test::LogCapture logs;
  World w = makeWorld();
  const ComponentField bad[] = {{"x", FieldKind::F32, 1, 0}, {"y", FieldKind::F32, 1, 2}};
  auto r = w.registerComponentDesc({"Bad", 8, 4, bad});
  ASSERT_TRUE(r.isError());
  EXPECT_EQ(r.error(), ErrorCode::MalformedInput);
  ASSERT_EQ(logs.count("ecs", "component_desc_invalid"), 1u);
  const auto& rec = logs.sink->records().back();
  EXPECT_EQ(rec.fieldValue("reason"), "field_misaligned");
  EXPECT_EQ(rec.fieldValue("field"), "1");
  EXPECT_EQ(rec.fieldValue("size"), "8");
  const ComponentField dup[] = {{"x", FieldKind::F32, 1, 0}, {"x", FieldKind::F32, 1, 4}};
  test::LogCapture::advance(5000);
  EXPECT_EQ(w.registerComponentDesc({"Dup", 8, 4, dup}).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.registerComponentDesc({"", 0, 1, {}}).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("ecs", "component_name_invalid"), 1u);
  const std::string longName(64, 'n');
  EXPECT_EQ(w.registerComponentDesc({longName, 0, 1, {}}).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.componentCount(), 0u);
  // The strings are copied: the caller's buffers may die.
  {
    std::string name = "Temp";
    std::string field = "value";
    const ComponentField f[] = {{field, FieldKind::I16, 1, 0}};
    ASSERT_TRUE(w.registerComponentDesc({name, 2, 2, f}).ok());
    name.assign("XXXX");
    field.assign("XXXXX");
  }
  const ComponentInfo info = w.componentInfo(1).value();
  EXPECT_EQ(info.name, "Temp");
  EXPECT_EQ(info.fields[0].name, "value");
}

TEST(ComponentLayout, FieldKindNamesRoundTrip) {
  const char* names[] = {"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64", "fx"};
  for (std::uint32_t v = 1; v <= 11; ++v) {
    const auto kind = static_cast<FieldKind>(v);
    EXPECT_STREQ(fieldKindName(kind), names[v - 1]);
    FieldKind back = FieldKind::U8;
    ASSERT_TRUE(fieldKindFromName(names[v - 1], back));
    EXPECT_EQ(back, kind);
  }
  EXPECT_EQ(fieldKindSize(FieldKind::Fx), 4u);
  EXPECT_EQ(fieldKindSize(FieldKind::F64), 8u);
  EXPECT_STREQ(fieldKindName(static_cast<FieldKind>(0)), "invalid");
  FieldKind k = FieldKind::I8;
  EXPECT_FALSE(fieldKindFromName("f16", k));
  EXPECT_EQ(k, FieldKind::I8);
}

TEST(ComponentRegistry, TypeIndexIsStableAndDistinct) {
  const std::uint32_t p = detail::componentTypeIndexOf<Position>();
  const std::uint32_t v = detail::componentTypeIndexOf<Velocity>();
  EXPECT_NE(p, 0u);
  EXPECT_NE(p, v);
  EXPECT_EQ(p, detail::componentTypeIndexOf<Position>());
}

}  // namespace
}  // namespace laige
