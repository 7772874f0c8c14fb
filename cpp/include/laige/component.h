// laige/component.h - runtime-described components and the typed front end.
//
// Storage is type-erased (docs/component_registry.md): a component is (id, name,
// size, alignment, fields), where a field is (name, kind, count, offset) in C
// layout. The wasm layer registers a component from a JS schema through
// World::registerComponentDesc; C++ code marks a struct with
// LAIGE_COMPONENT(T, members...) and calls World::registerComponent<T>().
// Both paths produce the same description for the same fields, so a C++
// struct and a JS schema give the same bytes and the same state hash.
//
// The mark rejects at compile time everything that would make stored bytes
// differ between targets or builds: non-trivially-copyable or non-standard-
// layout types, implicit padding (g++ does not zero it), members outside the
// determinism-safe set (double, bool, pointers, `long`-style aliases...).
// Contract: docs/component_registry.md;
// docs/component_registry.md.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "laige/detail/component_macros.h"
#include "laige/entity.h"
#include "laige/errors.h"
#include "laige/fpx16_16.h"
#include "laige/sim_math.h"

namespace laige {

/// A component type's id in one world: dense from 1 in successful-
/// registration order; 0 is never assigned. Same types registered in the
/// same order give the same ids (replay state). Never compare across worlds.
using ComponentTypeId = std::uint32_t;
/// The id that no component ever has.
inline constexpr ComponentTypeId kInvalidComponentTypeId = 0;
/// Component types per world (docs/component_registry.md).
inline constexpr std::uint32_t kMaxComponentTypes = 256;
/// Fields per component description.
inline constexpr std::uint32_t kMaxComponentFields = 64;
/// Bytes per component value (one row of one column).
inline constexpr std::uint32_t kMaxComponentSize = 4096;
/// Bytes of a component or field name.
inline constexpr std::uint32_t kMaxComponentNameLength = 63;

/// The scalar kind of a field. Values are stable (they cross the wasm
/// boundary); 0 is not a kind.
enum class FieldKind : std::uint8_t {
  I8 = 1,   ///< std::int8_t
  U8 = 2,   ///< std::uint8_t
  I16 = 3,  ///< std::int16_t
  U16 = 4,  ///< std::uint16_t
  I32 = 5,  ///< std::int32_t (and enums over it)
  U32 = 6,  ///< std::uint32_t (and Entity handles)
  I64 = 7,  ///< std::int64_t
  U64 = 8,  ///< std::uint64_t
  F32 = 9,  ///< IEEE binary32 (the pinned fp32 backend's scalar)
  F64 = 10, ///< IEEE binary64: JS schemas only; C++ components reject double
  Fx = 11,  ///< Q16.16 fixed point (fpx16_16, stored as its int32 raw)
};

/// The byte size (= natural alignment) of one `kind` scalar; 0 for an
/// invalid kind.
[[nodiscard]] constexpr std::uint32_t fieldKindSize(FieldKind kind) noexcept {
  switch (kind) {
    case FieldKind::I8: case FieldKind::U8: return 1;
    case FieldKind::I16: case FieldKind::U16: return 2;
    case FieldKind::I32: case FieldKind::U32: case FieldKind::F32: case FieldKind::Fx: return 4;
    case FieldKind::I64: case FieldKind::U64: case FieldKind::F64: return 8;
  }
  return 0;
}

/// The schema token of `kind`: "i8" "u8" "i16" "u16" "i32" "u32" "i64" "u64"
/// "f32" "f64" "fx" ("invalid" otherwise). Static string.
[[nodiscard]] const char* fieldKindName(FieldKind kind) noexcept;

/// The kind whose schema token is `name`; false (and `out` untouched) when
/// none is.
[[nodiscard]] bool fieldKindFromName(std::string_view name, FieldKind& out) noexcept;

/// One field of a component: `count` consecutive `kind` scalars (count > 1
/// is a fixed array) at byte `offset`.
struct ComponentField {
  /// The field name (unique within the component, non-empty).
  std::string_view name;
  /// The scalar kind.
  FieldKind kind = FieldKind::U8;
  /// Array length; 1 for a scalar.
  std::uint32_t count = 1;
  /// Byte offset inside the component; a multiple of fieldKindSize(kind).
  std::uint32_t offset = 0;
};

/// A runtime description, as World::registerComponentDesc takes it. The
/// views only need to live for the call: the registry copies them.
struct ComponentDesc {
  /// The component name (unique per world, non-empty, <= 63 bytes).
  std::string_view name;
  /// Storage bytes per value: the sum of the field bytes (no padding). 0 for
  /// a tag (no fields).
  std::uint32_t size = 0;
  /// The largest field kind size (1 for a tag).
  std::uint32_t alignment = 1;
  /// The fields; any order, but they must tile [0, size) exactly.
  std::span<const ComponentField> fields;
};

/// A registered component, as World::componentInfo returns it. The views
/// point into the world's registry: valid while the world lives (the
/// registry is never shrunk; clear() keeps it; a move keeps it).
struct ComponentInfo {
  /// The component's id in its world.
  ComponentTypeId id = kInvalidComponentTypeId;
  /// The registered name.
  std::string_view name;
  /// Storage bytes per value (0 for a tag).
  std::uint32_t size = 0;
  /// Alignment of the value inside its column.
  std::uint32_t alignment = 1;
  /// The fields in registration order.
  std::span<const ComponentField> fields;
};

/// The outcome of a layout check: ok, or the error code plus a stable
/// snake_case reason and the offending field's index.
struct LayoutCheck {
  /// InvalidArgument or MalformedInput when failed; unused when ok.
  ErrorCode code = ErrorCode::Unknown;
  /// nullptr when ok; else e.g. "implicit_padding", "fields_overlap".
  const char* reason = nullptr;
  /// The index of the offending field (0 when not about one field).
  std::uint32_t field = 0;
  /// True when the layout is valid.
  [[nodiscard]] constexpr bool ok() const noexcept { return reason == nullptr; }
};

/// Checks that `fields` describe a valid C layout of `size` bytes with
/// `alignment`: valid kinds, count >= 1, non-empty unique field names, each
/// field aligned to its kind and inside [0, size), no two fields overlapping,
/// no implicit padding (field bytes sum to `size`), `alignment` equal to the
/// largest kind size (1 without fields), at most kMaxComponentFields fields
/// and kMaxComponentSize bytes. Name problems are InvalidArgument, layout
/// problems MalformedInput. Pure; O(fields^2).
[[nodiscard]] constexpr LayoutCheck checkComponentLayout(
    std::uint32_t size, std::uint32_t alignment, std::span<const ComponentField> fields) noexcept {
  auto fail = [](ErrorCode c, const char* why, std::size_t i) {
    return LayoutCheck{c, why, static_cast<std::uint32_t>(i)};
  };
  if (fields.size() > kMaxComponentFields) return fail(ErrorCode::MalformedInput, "too_many_fields", 0);
  if (size > kMaxComponentSize) return fail(ErrorCode::MalformedInput, "component_too_large", 0);
  std::uint64_t total = 0;
  std::uint32_t maxAlign = 1;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const ComponentField& f = fields[i];
    const std::uint32_t k = fieldKindSize(f.kind);
    if (f.name.empty() || f.name.size() > kMaxComponentNameLength) {
      return fail(ErrorCode::InvalidArgument, "field_name_invalid", i);
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (fields[j].name == f.name) return fail(ErrorCode::InvalidArgument, "field_name_duplicate", i);
    }
    if (k == 0) return fail(ErrorCode::MalformedInput, "field_kind_invalid", i);
    if (f.count == 0) return fail(ErrorCode::MalformedInput, "field_count_zero", i);
    if (f.offset % k != 0) return fail(ErrorCode::MalformedInput, "field_misaligned", i);
    const std::uint64_t end = std::uint64_t{f.offset} + std::uint64_t{k} * f.count;
    if (end > size) return fail(ErrorCode::MalformedInput, "field_out_of_bounds", i);
    for (std::size_t j = 0; j < i; ++j) {
      const ComponentField& g = fields[j];
      const std::uint64_t gEnd = std::uint64_t{g.offset} + std::uint64_t{fieldKindSize(g.kind)} * g.count;
      if (f.offset < gEnd && g.offset < end) return fail(ErrorCode::MalformedInput, "fields_overlap", i);
    }
    total += end - f.offset;
    if (k > maxAlign) maxAlign = k;
  }
  if (total != size) return fail(ErrorCode::MalformedInput, "implicit_padding", 0);
  if (alignment != maxAlign) return fail(ErrorCode::MalformedInput, "alignment_mismatch", 0);
  return LayoutCheck{};
}

/// Lays `fields` out in C struct order: assigns each offset (the running
/// size, which must already be aligned to the field's kind) and computes
/// `size` and `alignment`. A schema that would need implicit padding, e.g.
/// {u8, f32} or the tail of {f32, u8}, is rejected ("implicit_padding",
/// MalformedInput): a C++ struct with those members would be rejected by
/// LAIGE_COMPONENT too, so accepting it here would break byte equality.
/// Reorder the fields (largest kind first) or add explicit padding fields.
/// On failure `size`/`alignment` are untouched; offsets may be partly set.
[[nodiscard]] constexpr LayoutCheck layoutComponentFields(std::span<ComponentField> fields,
                                                          std::uint32_t& size,
                                                          std::uint32_t& alignment) noexcept {
  std::uint64_t at = 0;
  std::uint32_t maxAlign = 1;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::uint32_t k = fieldKindSize(fields[i].kind);
    const auto idx = static_cast<std::uint32_t>(i);
    if (k == 0) return LayoutCheck{ErrorCode::MalformedInput, "field_kind_invalid", idx};
    if (fields[i].count == 0) return LayoutCheck{ErrorCode::MalformedInput, "field_count_zero", idx};
    if (at % k != 0) return LayoutCheck{ErrorCode::MalformedInput, "implicit_padding", idx};
    fields[i].offset = static_cast<std::uint32_t>(at);
    at += std::uint64_t{k} * fields[i].count;
    if (at > kMaxComponentSize) return LayoutCheck{ErrorCode::MalformedInput, "component_too_large", idx};
    if (k > maxAlign) maxAlign = k;
  }
  if (at % maxAlign != 0) return LayoutCheck{ErrorCode::MalformedInput, "implicit_padding", 0};
  const LayoutCheck full = checkComponentLayout(static_cast<std::uint32_t>(at), maxAlign, fields);
  if (!full.ok()) return full;
  size = static_cast<std::uint32_t>(at);
  alignment = maxAlign;
  return LayoutCheck{};
}

namespace detail {

// --- Member kinds: the determinism-safe set ---------------------------------

/// kSafe is true when a member of type M may live in a component, with the
/// scalar `kind` and `count` scalars (arrays and vectors flatten).
template <class M, class = void>
struct FieldKindOf {
  static constexpr bool kSafe = false;
  static constexpr FieldKind kind = FieldKind::U8;
  static constexpr std::uint32_t count = 0;
};
template <FieldKind K>
struct ScalarKind {
  static constexpr bool kSafe = true;
  static constexpr FieldKind kind = K;
  static constexpr std::uint32_t count = 1;
};
template <> struct FieldKindOf<std::int8_t> : ScalarKind<FieldKind::I8> {};
template <> struct FieldKindOf<std::uint8_t> : ScalarKind<FieldKind::U8> {};
template <> struct FieldKindOf<std::int16_t> : ScalarKind<FieldKind::I16> {};
template <> struct FieldKindOf<std::uint16_t> : ScalarKind<FieldKind::U16> {};
template <> struct FieldKindOf<std::int32_t> : ScalarKind<FieldKind::I32> {};
template <> struct FieldKindOf<std::uint32_t> : ScalarKind<FieldKind::U32> {};
template <> struct FieldKindOf<std::int64_t> : ScalarKind<FieldKind::I64> {};
template <> struct FieldKindOf<std::uint64_t> : ScalarKind<FieldKind::U64> {};
template <> struct FieldKindOf<float> : ScalarKind<FieldKind::F32> {};
template <> struct FieldKindOf<fpx16_16> : ScalarKind<FieldKind::Fx> {};
/// An Entity handle is its 32-bit representation (a component may point at
/// another entity by handle, never by pointer).
template <> struct FieldKindOf<Entity> : ScalarKind<FieldKind::U32> {};
/// Enums store as their underlying type, which must be a fixed-width integer.
template <class E>
struct FieldKindOf<E, std::enable_if_t<std::is_enum_v<E>>> : FieldKindOf<std::underlying_type_t<E>> {};
/// SimMath vectors of either backend: 2 or 3 scalars.
template <class S>
struct FieldKindOf<SimVec2<S>> {
  static constexpr bool kSafe = std::is_same_v<S, float> || std::is_same_v<S, fpx16_16>;
  static constexpr FieldKind kind = FieldKindOf<S>::kind;
  static constexpr std::uint32_t count = 2;
};
template <class S>
struct FieldKindOf<SimVec3<S>> {
  static constexpr bool kSafe = std::is_same_v<S, float> || std::is_same_v<S, fpx16_16>;
  static constexpr FieldKind kind = FieldKindOf<S>::kind;
  static constexpr std::uint32_t count = 3;
};
/// C arrays of safe types (nested arrays flatten).
template <class M, std::size_t N>
struct FieldKindOf<M[N]> {
  static constexpr bool kSafe = FieldKindOf<M>::kSafe;
  static constexpr FieldKind kind = FieldKindOf<M>::kind;
  static constexpr std::uint32_t count = FieldKindOf<M>::count * static_cast<std::uint32_t>(N);
};

/// One member's field; static_asserts (with the reason) when the member
/// type is outside the determinism-safe set.
template <class M>
constexpr ComponentField makeComponentField(std::string_view name, std::size_t offset) noexcept {
  using Base = std::remove_cv_t<std::remove_all_extents_t<M>>;
  static_assert(!std::is_same_v<Base, double> && !std::is_same_v<Base, long double>,
                "LAIGE_COMPONENT: a double member is not determinism-safe (libm and x87 differ "
                "across targets); use fpx16_16 or float (pinned fp32)");
  static_assert(!std::is_same_v<Base, bool>,
                "LAIGE_COMPONENT: a bool member has no fixed representation; use std::uint8_t");
  static_assert(!std::is_pointer_v<Base> && !std::is_member_pointer_v<Base>,
                "LAIGE_COMPONENT: a pointer member puts addresses into simulation state; store an "
                "Entity handle or an index");
  static_assert(FieldKindOf<std::remove_cv_t<M>>::kSafe,
                "LAIGE_COMPONENT: member type outside the determinism-safe set (fixed-width "
                "integers, enums over them, fpx16_16, float, SimMath Vec2/Vec3, Entity, C arrays "
                "of those; plain int/long/char aliases that are not <cstdint> types are rejected)");
  using K = FieldKindOf<std::remove_cv_t<M>>;
  static_assert(sizeof(M) == fieldKindSize(K::kind) * K::count,
                "LAIGE_COMPONENT: member size does not match its kind (packed or exotic type)");
  return ComponentField{name, K::kind, K::count, static_cast<std::uint32_t>(offset)};
}

/// What LAIGE_COMPONENT records about a type: its description, with the
/// field array sized by the member count.
template <std::size_t N>
struct ComponentMeta {
  std::string_view name;
  std::uint32_t size = 0;       // storage bytes (0 for an empty tag)
  std::uint32_t alignment = 1;  // the largest field kind size
  std::uint32_t fieldCount = 0;
  ComponentField fields[N == 0 ? 1 : N] = {};
};

/// Builds the meta of T from its member fields (called by the macro).
template <class T, std::size_t N, class... F>
constexpr ComponentMeta<N> makeComponentMeta(std::string_view name, F... fields) noexcept {
  static_assert(std::is_trivially_copyable_v<T>,
                "LAIGE_COMPONENT: the type must be trivially copyable (stored as raw bytes)");
  static_assert(std::is_standard_layout_v<T>,
                "LAIGE_COMPONENT: the type must be standard layout (C field order)");
  ComponentMeta<N> m;
  m.name = name;
  m.fieldCount = static_cast<std::uint32_t>(N);
  std::size_t i = 0;
  ((m.fields[i++] = fields), ...);
  for (std::size_t k = 0; k < N; ++k) {
    m.size += fieldKindSize(m.fields[k].kind) * m.fields[k].count;
    if (fieldKindSize(m.fields[k].kind) > m.alignment) m.alignment = fieldKindSize(m.fields[k].kind);
  }
  return m;
}

/// True when the meta passes the runtime validator too (catches a member
/// listed twice, which the size sum alone cannot).
template <std::size_t N>
constexpr bool metaLayoutOk(const ComponentMeta<N>& m) noexcept {
  return checkComponentLayout(m.size, m.alignment, std::span<const ComponentField>(m.fields, m.fieldCount)).ok();
}

/// True for a type marked with LAIGE_COMPONENT (found by argument-dependent
/// lookup in the type's namespace).
template <class T>
concept MarkedComponent = requires(const T* p) { laige_component_meta_(p); };

/// The meta of a marked type.
template <class T>
constexpr auto componentMeta() noexcept {
  return laige_component_meta_(static_cast<const T*>(nullptr));
}

// --- Process-wide type index (type identity without RTTI) -------------------

/// The process-wide counters that hand out per-type indexes: 1, 2, 3, ...
/// each (atomic; only ever incremented; never simulation state).
enum class ProcessIndex : std::uint8_t {
  /// componentTypeIndexOf: a C++ component type's index.
  ComponentType,
  /// eachKeyOf: the key of world.each's cache for a type list.
  EachKey,
};

/// Fills `slot` with a fresh index of `counter` on first use and returns the
/// slot's value (the first writer wins a race; the loser's index is never
/// used).
std::uint32_t assignProcessIndex(ProcessIndex counter, std::atomic<std::uint32_t>& slot) noexcept;

/// T's index, 0 until first use. Constant-initialised, so no static
/// initialiser runs for it (an initialiser per type costs code in the wasm
/// module and leaves a use during static initialisation order-dependent).
template <class T>
inline std::atomic<std::uint32_t> componentTypeIndexSlot{0};

/// T's dense process-wide index (>= 1). A plain load on every call after
/// the first; the per-world vector index -> ComponentTypeId turns it into an
/// id in O(1).
template <class T>
[[nodiscard]] inline std::uint32_t componentTypeIndexOf() noexcept {
  const std::uint32_t v = componentTypeIndexSlot<T>.load(std::memory_order_relaxed);
  return v != 0 ? v : assignProcessIndex(ProcessIndex::ComponentType, componentTypeIndexSlot<T>);
}

}  // namespace detail
}  // namespace laige

/// Marks T as a component with the listed data members (all of them, in any
/// order; up to 16). Use it once, at namespace scope, in T's own namespace
/// (the mark is found by argument-dependent lookup):
///   struct Position { float x, y; };
///   LAIGE_COMPONENT(Position, x, y);
///   struct Frozen {};            // an empty tag: stored with size 0
///   LAIGE_COMPONENT(Frozen);
/// Compile errors: T not trivially copyable or not standard layout; a member
/// outside the determinism-safe set; implicit padding or an unlisted member
/// (the listed member bytes must sum to sizeof(T)); a member listed twice;
/// an over-aligned T; members listed for an empty struct or none for a
/// non-empty one; marking T twice (a redefinition). The registered name is
/// the spelling of T. `docs/component_registry.md#the-mark`.
#define LAIGE_COMPONENT(T, ...)                                                                   \
  [[maybe_unused]] constexpr ::laige::detail::ComponentMeta<LAIGE_DETAIL_COUNT(__VA_ARGS__)>      \
  laige_component_meta_(const T*) noexcept {                                                      \
    return ::laige::detail::makeComponentMeta<T, LAIGE_DETAIL_COUNT(__VA_ARGS__)>(                \
        #T __VA_OPT__(, LAIGE_DETAIL_FOR_EACH(LAIGE_DETAIL_COMPONENT_FIELD, T, __VA_ARGS__)));    \
  }                                                                                               \
  static_assert(LAIGE_DETAIL_COUNT(__VA_ARGS__) != 0 || std::is_empty_v<T>,                       \
                "LAIGE_COMPONENT(" #T "): no members listed, which is only allowed for an empty " \
                "tag struct");                                                                    \
  static_assert(LAIGE_DETAIL_COUNT(__VA_ARGS__) == 0 || !std::is_empty_v<T>,                      \
                "LAIGE_COMPONENT(" #T "): an empty struct takes no member list");                 \
  static_assert(LAIGE_DETAIL_COUNT(__VA_ARGS__) == 0 ||                                           \
                    laige_component_meta_(static_cast<const T*>(nullptr)).size == sizeof(T),     \
                "LAIGE_COMPONENT(" #T "): the listed members do not cover sizeof(T): a member "   \
                "is missing from the list, or T has implicit padding (reorder the members, "      \
                "largest first, or add explicit padding members)");                              \
  static_assert(::laige::detail::metaLayoutOk(laige_component_meta_(static_cast<const T*>(nullptr))), \
                "LAIGE_COMPONENT(" #T "): a member is listed twice");                             \
  static_assert(LAIGE_DETAIL_COUNT(__VA_ARGS__) == 0 ||                                           \
                    laige_component_meta_(static_cast<const T*>(nullptr)).alignment == alignof(T), \
                "LAIGE_COMPONENT(" #T "): over-aligned types (alignas) are not supported: a JS "  \
                "schema cannot express them")
