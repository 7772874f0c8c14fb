// laige/detail/dynamic_query.h - queries whose terms are given at run time
// as (component id, TermKind) pairs rather than as template arguments: the
// TypeScript layer's Query (web/bindings/query.cpp) is one of these,
// registered once and kept in a per-world table. Internal.
//
// Same engine as Query<Terms...> (laige/query_object.h): the cache of
// query_cache.h (matching, the structure epoch a restore raises, the
// matched archetypes), beginQuery's guard and io check, and for Changed /
// Added terms the filtered begin of change_walk.h with its "since"
// (docs/changes.md#since). The row walk itself is the caller's: begin hands
// it the runs of rows to visit.
#pragma once

#include <cstdint>

#include "laige/detail/change_walk.h"
#include "laige/detail/query_cache.h"
#include "laige/result.h"

namespace laige {
class World;
namespace detail {

struct Archetype;
struct WorldState;

/// Brings `c` up to date with the world's archetypes (query_cache.cpp).
void refreshQueryCache(const WorldState& ws, QueryCache& c, const QuerySpec& q) noexcept;

/// A query built from component ids and term kinds. Plain value, no heap.
struct DynamicQuery {
  QueryCache cache;
  ComponentTypeId ids[kMaxArchetypeComponents] = {};
  TermKind kinds[kMaxArchetypeComponents] = {};
  std::uint32_t count = 0;
  /// Some term is Changed or Added.
  bool filtered = false;
};

/// Called by QueryAccess::begin for every run of rows a walk visits:
/// rows [start, start + rows) of archetype `a` (rows >= 1), in ascending
/// archetype id then row order.
using QueryRunVisitor = void (*)(void* context, const Archetype& a, std::uint32_t start, std::uint32_t rows) noexcept;

/// The World-private half of DynamicQuery (World befriends this type).
struct QueryAccess {
  /// Makes `q` from `n` terms. Errors (q unchanged): n == 0 or above
  /// kMaxArchetypeComponents, a kind above Added, no required term, an id
  /// 0 or unregistered -> InvalidArgument query_invalid (fields reason,
  /// term). O(n), no allocation.
  static Status init(const World& w, DynamicQuery& q, const ComponentTypeId* ids, const std::uint8_t* kinds,
                     std::uint32_t n) noexcept;
  /// Begins a walk: the guard and io check of beginQuery (Write terms of an
  /// unfiltered walk marked by archetype bound); a filtered query starts
  /// tracking its filter components, fills `change` (its window: since the
  /// running system's, or this query's, previous run) and marks the Write
  /// terms of every selected row. Then `visit` for every run: an unfiltered
  /// query's matched archetypes with rows (one run each); a filtered one's
  /// rows whose every filter passes, an archetype whose bounds are not
  /// newer than "since" skipped without reading a row. On ok the guard is
  /// live: call end. Errors (nothing visited, guard not live): those of
  /// beginQuery and beginFiltered. O(matched archetypes + rows scanned).
  static Status begin(World& w, DynamicQuery& q, ChangeRun& change, QueryRunVisitor visit, void* context) noexcept;
  /// Ends the walk begun by begin: records a filtered run outside systems
  /// (this query's "since"), then World::endIteration.
  static void end(World& w, DynamicQuery& q, const ChangeRun& change) noexcept;
  /// Live rows of the matched archetypes (filters are not applied). Pure:
  /// no guard, no io check. O(matched archetypes).
  static std::uint32_t count(World& w, DynamicQuery& q) noexcept;
  /// The matched archetypes now (refreshed; during a live walk a copy is).
  static IdSet256 matched(World& w, DynamicQuery& q) noexcept;
};

}  // namespace detail
}  // namespace laige
