// laige/detail/cascade_walk.h - the row walk of Query::eachCascade, the
// hierarchy-order pass (internal; included by laige/query_object.h;
// docs/relations.md#the-cascade-query-option).
//
// The order lives in the world, per relation (detail::CascadeOrder in
// relation_state.h): a list of (entity row, target row) entries in depth
// order, rebuilt by the begin call only when the relation or a row's place
// changed since. The walk reads that list front to back and, per entry,
// the entity's term columns and its target's Up column through two small
// per-archetype tables: no slot table, no index list, no handle check.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "laige/detail/ecs_state.h"
#include "laige/detail/query_cache.h"
#include "laige/detail/relation_state.h"

namespace laige {
class World;
namespace detail {

/// What one cascade pass needs besides the QueryRun (filled by the begin).
struct CascadeRun {
  /// The relation's hierarchy order (count entries).
  const CascadeEntry* entries = nullptr;
  std::uint32_t count = 0;
  /// Archetype ids [1, archetypeCount) exist.
  std::uint32_t archetypeCount = 0;
  /// The Up component's id (0: none, or not registered).
  ComponentTypeId up = 0;
};

/// The component key of eachCascade's Up (void: no Up argument).
template <class Up>
struct UpKeyOf {
  using type = ComponentKey<Up>;
};
template <>
struct UpKeyOf<void> {
  using type = void;
};

/// Ends a cascade pass: the relation walk flag is dropped before the
/// iteration ends (which applies the commands recorded during the pass,
/// relation changes included).
struct CascadeEnd {
  World* world;
  ~CascadeEnd() { RelationAccess::endCascade(*world); }
};

/// The Up argument of an entry: the target's Up value, or nullptr.
template <class Up>
struct UpColumns {
  const Up* base[kMaxArchetypes + 1];
  [[nodiscard]] const Up* at(const CascadeEntry& e) const noexcept {
    const Up* b = base[e.parentArch];
    return b != nullptr ? b + e.parentRow : nullptr;
  }
};

/// Walks the hierarchy order, calling fn(Entity, args..., [const Up*]) for
/// every entry whose archetype the query matches.
template <class L, class Up, class Fn, std::size_t... J>
inline void walkCascade(Fn& fn, const QueryRun& run, const CascadeRun& cas, std::index_sequence<J...>) {
  // Per matched archetype, each argument term's column, formed as the each walk does.
  std::tuple<std::array<decltype(termColumn<L, J>(*run.archetypes[1], run.ids)), kMaxArchetypes + 1>...> cols;
  for (std::uint32_t word = 0; word < 4; ++word) {
    std::uint64_t bits = run.matched->words[word];
    while (bits != 0) {
      const std::uint32_t aid = word * 64 + static_cast<std::uint32_t>(std::countr_zero(bits)) + 1;
      bits &= bits - 1;
      ((std::get<J>(cols)[aid] = termColumn<L, J>(*run.archetypes[aid], run.ids)), ...);
    }
  }
  const std::uint16_t* generations = run.generations;
  const IdSet256 matched = *run.matched;
  if constexpr (std::is_void_v<Up>) {
    for (std::uint32_t k = 0; k < cas.count; ++k) {
      const CascadeEntry& e = cas.entries[k];
      if (!matched.contains(e.arch)) continue;
      fn(Entity(static_cast<std::uint16_t>(e.slot), generations[e.slot]), std::get<J>(cols)[e.arch].at(e.row)...);
    }
  } else {
    UpColumns<Up> up;
    up.base[0] = nullptr;
    for (std::uint32_t aid = 1; aid <= kMaxArchetypes; ++aid) {
      const Archetype* a = aid < cas.archetypeCount ? run.archetypes[aid].get() : nullptr;
      const std::uint8_t col = a != nullptr && cas.up != 0 ? a->colOf[cas.up] : 0;
      up.base[aid] = col != 0 ? reinterpret_cast<const Up*>(a->cols[col - 1].data) : nullptr;
    }
    for (std::uint32_t k = 0; k < cas.count; ++k) {
      const CascadeEntry& e = cas.entries[k];
      if (!matched.contains(e.arch)) continue;
      fn(Entity(static_cast<std::uint16_t>(e.slot), generations[e.slot]), std::get<J>(cols)[e.arch].at(e.row)...,
         up.at(e));
    }
  }
}

}  // namespace detail
}  // namespace laige
