// laige/detail/query_cache.h - what a query remembers between calls, and
// what one call hands to the inline row loop (internal; query_object.h and
// World::each use it).
//
// A query's match is a pure function of its required and excluded
// component ids and of an archetype's component set, and archetypes are
// never destroyed or changed. So the matched set, once computed for
// archetypes [1, archetypesSeen), stays right for ever: a call only tests
// the archetypes created since the previous call (one comparison when none
// were), across clear() (rows go, archetypes stay) and world moves (the
// state the cache is keyed on moves with the world). `docs/query.md#the-cache`.
#pragma once

#include <cstdint>
#include <memory>

#include "laige/component.h"
#include "laige/query.h"

namespace laige::detail {

struct Archetype;

/// How a query term uses its component.
enum class TermKind : std::uint8_t {
  Read = 0,           ///< required; const T& per row
  Write = 1,          ///< required; T& per row
  With = 2,           ///< required; no reference (tags, presence filters)
  Without = 3,        ///< excluded: an archetype holding it never matches
  OptionalRead = 4,   ///< not required; const T* (nullptr where absent)
  OptionalWrite = 5,  ///< not required; T* (nullptr where absent)
  Changed = 6,        ///< required; a row filter: written or added since (docs/changes.md)
  Added = 7,          ///< required; a row filter: added since
};

/// True for a term the archetype must hold.
constexpr bool termRequired(TermKind k) noexcept {
  return k == TermKind::Read || k == TermKind::Write || k == TermKind::With ||
         k == TermKind::Changed || k == TermKind::Added;
}
/// True for a change filter term (Changed, Added).
constexpr bool termFilters(TermKind k) noexcept { return k == TermKind::Changed || k == TermKind::Added; }
/// True for a term that writes its component (the system io it needs).
constexpr bool termWrites(TermKind k) noexcept {
  return k == TermKind::Write || k == TermKind::OptionalWrite;
}
/// True for a term whose reference is read-only: an in-place World write
/// of its component is rejected while the query runs (the legality guard).
constexpr bool termReadsRef(TermKind k) noexcept {
  return k == TermKind::Read || k == TermKind::OptionalRead;
}

/// The cache of one query: which world it was resolved against, the
/// resolved ids, and the matched archetypes. Trivially copyable, no heap.
struct QueryCache {
  /// The world state it belongs to (WorldState::serial; 0 = not built).
  std::uint64_t worldSerial = 0;
  /// EcsState::structureEpoch when built: a restore that replaced or
  /// dropped archetypes raises it, and the cache is rebuilt.
  std::uint64_t structureEpoch = 0;
  /// World::componentCount() when the ids were resolved.
  std::uint32_t componentsSeen = 0;
  /// Archetypes [1, archetypesSeen) have been tested.
  std::uint32_t archetypesSeen = 1;
  /// True when some term's component was not registered at resolution
  /// (its id is 0: a required one matches nothing, an excluded one
  /// excludes nothing); resolved again once more components exist.
  bool unresolved = false;
  /// The matched archetype ids (ascending id = the visit order).
  IdSet256 matched;
  /// The change stamp of this query's previous filtered run outside
  /// systems (its "since"; `docs/changes.md#since`). 0 = never ran.
  std::uint32_t lastRun = 0;
};

/// One call's view for the inline row loop, filled by the begin call.
struct QueryRun {
  /// The world's archetype table, indexed by archetype id (nullptr when
  /// the call has nothing to walk: a moved-from world).
  const std::unique_ptr<Archetype>* archetypes = nullptr;
  /// The generation table (live handles from slot ids).
  const std::uint16_t* generations = nullptr;
  /// The matched archetypes (the cache's set; fixed while the guard is live).
  const IdSet256* matched = nullptr;
  /// The resolved component id of each term, in term order.
  const ComponentTypeId* ids = nullptr;
};

/// One query as the begin call sees it: its terms and its cache.
struct QuerySpec {
  /// The process-wide type index of each term's component (term order);
  /// nullptr when `ids` already hold registered component ids (a query
  /// built from ids at run time: detail/dynamic_query.h).
  const std::uint32_t* typeIndex = nullptr;
  /// Each term's kind (term order).
  const TermKind* kinds = nullptr;
  /// The resolved ids (term order), owned by the query; written when the
  /// cache resolves.
  ComponentTypeId* ids = nullptr;
  /// The number of terms (1..kMaxArchetypeComponents).
  std::uint32_t count = 0;
};

}  // namespace laige::detail
