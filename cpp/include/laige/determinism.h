// laige/determinism.h - the determinism mode and the storage-safety trait
// (docs/determinism.md).
//
// Deterministic mode is the default: every registered system gets its own
// PRNG substream derived from the world seed and its SystemId, and the state
// after N ticks is a function of (configuration, seed, registration order,
// N, inputs) only. Turning it off removes the substreams (SystemContext::rng
// is nullptr) and the world is no longer replayable; the storage trait below
// applies either way.
//
// The trait is the compile-time half of the determinism-safe rule: a raw `double` (or any type
// nobody vouched for) in simulation storage is a compile error, not a desync
// found weeks later. Integers of fixed width, enums over them, `fpx16_16`,
// `float` (the pinned fp32 backend's scalar), the four SimMath vector types
// and Entity handles are safe, as is every LAIGE_COMPONENT type (its mark
// checks its members); any other struct is safe once marked with
// LAIGE_DETERMINISM_SAFE, which checks every member type at the mark.
// `docs/systems.md#determinism`.
#pragma once

#include <cstdint>
#include <type_traits>

#include "laige/component.h"

namespace laige {

/// The simulation math backend. The numeric value (declaration order) is the
/// replay header's mathBackendId, so it is frozen: 0 and 1 forever.
enum class SimMathBackend : std::uint8_t {
  /// Q16.16 fixed point (SimMath<Fpx16_16>): the default, exact everywhere.
  FixedPoint16_16 = 0,
  /// IEEE binary32 with pinned flags (SimMath<Fp32Pinned>): opt-in, exact
  /// within one build and ISA only.
  FloatPinned32 = 1,
};

/// The configuration id of `backend`: "fixed_point_16_16" or
/// "float_pinned_32" ("unknown" for a value outside the enum).
[[nodiscard]] constexpr const char* simMathBackendName(SimMathBackend backend) noexcept {
  switch (backend) {
    case SimMathBackend::FixedPoint16_16: return "fixed_point_16_16";
    case SimMathBackend::FloatPinned32: return "float_pinned_32";
  }
  return "unknown";
}

/// How a simulation treats determinism (EngineConfig::determinism).
struct DeterminismConfig {
  /// True (the default): systems get PRNG substreams; runs are replayable.
  bool enabled = true;
  /// The math backend; part of the replay identity.
  SimMathBackend math = SimMathBackend::FixedPoint16_16;
};

namespace detail {

// The scalar rules live in one place: component.h's FieldKindOf is the
// determinism-safe member set LAIGE_COMPONENT enforces (fixed-width integers,
// enums over them, fpx16_16, float, the SimMath vectors, Entity, C arrays of
// those; not double, bool, pointers or `long` where it is not a <cstdint>
// type, since `long` is 64 bits natively but 32 in wasm32). This trait adds
// the two kinds of marked structs on top, so the two checks cannot disagree.
//
// A user mark is a function `laigeDeterminismSafeMark(T*)` declared by
// LAIGE_DETERMINISM_SAFE in T's own namespace and found by argument-dependent
// lookup, so a type can be marked where it is declared (a trait
// specialisation would force the mark out to the global namespace).
template <class T, class = void>
struct HasDeterminismSafeMark : std::false_type {};
template <class T>
struct HasDeterminismSafeMark<T, std::void_t<decltype(laigeDeterminismSafeMark(static_cast<T*>(nullptr)))>>
    : std::true_type {};

/// True when values of T may live in simulation storage: the component
/// member set (fixed-width integers and enums over them, fpx16_16, float,
/// the SimMath Vec2/Vec3 of both backends, Entity, arrays of safe types),
/// LAIGE_COMPONENT types, and types marked with LAIGE_DETERMINISM_SAFE.
/// False for double, long double, bool, pointers and anything unmarked.
/// cv-qualifiers are ignored.
template <class T>
struct IsDeterminismSafe
    : std::bool_constant<FieldKindOf<std::remove_cv_t<T>>::kSafe ||
                         MarkedComponent<std::remove_cv_t<T>> ||
                         HasDeterminismSafeMark<std::remove_cv_t<T>>::value> {};
/// An array is safe when its element type is (marked structs included).
template <class T, std::size_t N>
struct IsDeterminismSafe<T[N]> : IsDeterminismSafe<T> {};

/// The trait as a variable.
template <class T>
inline constexpr bool kIsDeterminismSafe = IsDeterminismSafe<T>::value;

/// The check behind LAIGE_DETERMINISM_SAFE: every listed member type safe,
/// and the marked type plain data (trivially copyable, standard layout).
template <class Type, class... Members>
constexpr bool checkDeterminismSafeMark() noexcept {
  static_assert(std::is_trivially_copyable_v<Type> && std::is_standard_layout_v<Type>,
                "LAIGE_DETERMINISM_SAFE: the type must be trivially copyable and standard layout");
  static_assert((kIsDeterminismSafe<Members> && ...),
                "LAIGE_DETERMINISM_SAFE: a member type is not determinism-safe (double? an "
                "unmarked nested struct? mark nested structs first)");
  return true;
}

}  // namespace detail
}  // namespace laige

/// Marks `Type` as determinism-safe, declaring the full set of its member
/// types (each checked here by static_assert; nested structs must be marked
/// first). Use it once, in the namespace that declares `Type`:
///   struct Body { laige::fpx16_16 x, y; std::uint32_t flags; };
///   LAIGE_DETERMINISM_SAFE(Body, laige::fpx16_16, std::uint32_t);
/// Marking a type twice is a redefinition error. At least one member type
/// must be listed.
#define LAIGE_DETERMINISM_SAFE(Type, ...)                                              \
  [[maybe_unused]] constexpr bool laigeDeterminismSafeMark(Type*) noexcept {           \
    return ::laige::detail::checkDeterminismSafeMark<Type, __VA_ARGS__>();            \
  }                                                                                    \
  static_assert(::laige::detail::checkDeterminismSafeMark<Type, __VA_ARGS__>(), #Type)
