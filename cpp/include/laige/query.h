// laige/query.h - the query vocabulary: access tags and guard sets.
//
// World::each<T1..TN>(fn, tag1..tagN) (world.h) invokes fn(Entity, refs...)
// once per entity whose archetype holds every listed component (superset
// match), in ascending archetype id, then ascending slot id. One access tag
// per listed component, in template order: Read{} hands out a const T&,
// Write{} a T&. While it runs, an iteration guard (two IdSet256 sets, the
// matched archetypes and the Read-declared components) makes the World
// reject mutations that would invalidate the walk: see the legality table
// in docs/query.md. each<>() visits every live entity in ascending slot id.
// Query objects (declared once, with filters) are in laige/query_object.h;
// world.each runs on the same machinery.
// Contract: docs/query.md;
// docs/query.md, docs/iteration_order.md.
#pragma once

#include <cstdint>
#include <type_traits>

namespace laige {

/// The access tag for a component the query only reads (const T&). An
/// in-place write of it through the World during the iteration is rejected.
struct Read {};
/// The access tag for a component the query writes (T&).
struct Write {};

/// Runtime form of the access tags (the JS-driven iteration guard).
enum class Access : std::uint8_t {
  Read = 0,   ///< Read-declared: in-place World writes are rejected.
  Write = 1,  ///< Write-declared: writes are the intended path.
};

namespace detail {

/// A membership-only set of ids in [1, 256] as 4 x 64 bits (the guard's
/// matched-archetype and read-component sets). 0 is never a member. Never
/// iterated for order: membership only, so it cannot leak into visit order.
struct IdSet256 {
  /// Bit (id - 1) of word (id - 1) / 64.
  std::uint64_t words[4] = {0, 0, 0, 0};

  /// Adds `id` (ids outside [1, 256] are ignored).
  constexpr void insert(std::uint32_t id) noexcept {
    if (id == 0 || id > 256) return;
    words[(id - 1) >> 6] |= std::uint64_t{1} << ((id - 1) & 63);
  }
  /// True when `id` is a member (false for 0 and ids above 256).
  [[nodiscard]] constexpr bool contains(std::uint32_t id) const noexcept {
    if (id == 0 || id > 256) return false;
    return (words[(id - 1) >> 6] >> ((id - 1) & 63) & 1u) != 0;
  }
  /// Removes every member.
  constexpr void reset() noexcept { words[0] = words[1] = words[2] = words[3] = 0; }
  /// True when no id is a member.
  [[nodiscard]] constexpr bool empty() const noexcept {
    return (words[0] | words[1] | words[2] | words[3]) == 0;
  }
};

/// True for Read and Write.
template <class Tag>
inline constexpr bool kIsAccessTag =
    std::is_same_v<std::remove_cvref_t<Tag>, Read> || std::is_same_v<std::remove_cvref_t<Tag>, Write>;

/// Access of a tag type.
template <class Tag>
inline constexpr Access kAccessOf =
    std::is_same_v<std::remove_cvref_t<Tag>, Write> ? Access::Write : Access::Read;

/// The reference a callback receives for T under Tag.
template <class T, class Tag>
using AccessRef = std::conditional_t<kAccessOf<Tag> == Access::Write, T&, const T&>;

/// The column pointer type for T under Tag.
template <class T, class Tag>
using AccessPtr = std::conditional_t<kAccessOf<Tag> == Access::Write, T*, const T*>;

/// True when no type appears twice in Ts.
template <class... Ts>
struct AllDistinct : std::true_type {};
template <class T, class... Rest>
struct AllDistinct<T, Rest...>
    : std::bool_constant<(!std::is_same_v<T, Rest> && ...) && AllDistinct<Rest...>::value> {};

/// The slot table as each<>() walks it.
struct SlotView {
  const std::uint16_t* generations = nullptr;
  const std::uint8_t* living = nullptr;
  std::uint32_t highWater = 0;
  // Per slot, the serial of the iteration live at its creation; a slot
  // with bornIn[id] == serial was created during the live one.
  const std::uint32_t* bornIn = nullptr;
  std::uint32_t serial = 0;
};

}  // namespace detail
}  // namespace laige
