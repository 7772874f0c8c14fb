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

#include <bit>
#include <cstdint>

#include "laige/detail/change_walk.h"
#include "laige/detail/ecs_state.h"
#include "laige/detail/query_cache.h"
#include "laige/result.h"

namespace laige {
class World;
namespace detail {

struct Archetype;
struct WorldState;
struct CascadeRun;

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
  /// Some term is With (guarded as read during a walk).
  bool anyWith = false;
};

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
  /// newer than "since" skipped without reading a row. `visit(archetype,
  /// start, rows)` gets rows [start, start + rows) (rows >= 1), in
  /// ascending archetype id then row order. On ok the guard is live: call
  /// end. Errors (nothing visited, guard not live, `change` untouched):
  /// those of beginQuery and beginFiltered. O(matched archetypes + rows
  /// scanned), no allocation.
  template <class Visit>
  static Status begin(World& w, DynamicQuery& q, ChangeRun& change, Visit&& visit) noexcept;
  /// begin's guard half (out of line): the guard, io check and filter
  /// window; `run.archetypes` stays null when there is nothing to walk.
  static Status beginGuard(World& w, DynamicQuery& q, QueryRun& run, ChangeRun& window) noexcept;
  /// Begins a cascade pass of `q` through relation `rel` (the hierarchy
  /// order of Query::eachCascade without Up; relation_cascade.cpp): the
  /// checks, guard and order of RelationAccess::beginCascade, and the With
  /// terms guarded as read as begin does. On ok with `run.archetypes`
  /// non-null the guard is live and the relation walk flag raised: end with
  /// RelationAccess::endCascade. Errors (nothing visited, guard not live):
  /// a Changed / Added term -> InvalidArgument query_invalid (reason
  /// cascade_filtered, term), then those of RelationAccess::beginCascade
  /// (relation_not_registered, iteration_nested, relation_walk_mutation,
  /// system_io_violation, relation_alloc_failed). Cost and allocation as
  /// Query::eachCascade's begin. With a non-null `target`, the rows of
  /// target's sources instead (Query::eachSourceOf; a stale target ->
  /// its World::check error).
  static Status beginCascade(World& w, DynamicQuery& q, ComponentTypeId rel, QueryRun& run,
                             CascadeRun& cascade, Entity target = Entity{}) noexcept;
  /// Ends the walk begun by begin: records a filtered run outside systems
  /// (this query's "since"), then World::endIteration.
  static void end(World& w, DynamicQuery& q, const ChangeRun& change) noexcept;
  /// Live rows of the matched archetypes (filters are not applied). Pure:
  /// no guard, no io check. O(matched archetypes).
  static std::uint32_t count(World& w, DynamicQuery& q) noexcept;
  /// The matched archetypes now (refreshed; during a live walk a copy is).
  static IdSet256 matched(World& w, DynamicQuery& q) noexcept;
};

/// The filtered selection of one archetype: the rows whose every filter
/// passes, as runs; a selected row's Write terms are marked (as the inline
/// filtered walk marks each row it visits).
template <class Visit>
inline void visitFilteredRows(const DynamicQuery& q, Archetype& a, const ChangeRun& cr, Visit& visit) noexcept {
  for (std::uint32_t i = 0; i < q.count; ++i) {
    if (!termFilters(q.kinds[i])) continue;
    const std::uint32_t col = a.colOf[q.ids[i]] - 1u;
    std::uint32_t bound = a.colTick[col] > a.moveInTick ? a.colTick[col] : a.moveInTick;
    if (q.kinds[i] == TermKind::Changed && a.bulkTick[col] > bound) bound = a.bulkTick[col];
    if (bound <= cr.since) return;  // nothing in this archetype can pass: no row read
  }
  std::uint32_t runStart = 0;
  std::uint32_t runRows = 0;
  for (std::uint32_t r = 0; r < a.rowCount; ++r) {
    const std::uint32_t slot = a.slots[r];
    bool pass = true;
    for (std::uint32_t i = 0; i < q.count && pass; ++i) {
      if (!termFilters(q.kinds[i])) continue;
      std::uint32_t t = cr.ticks[i][slot];
      if (q.kinds[i] == TermKind::Changed) {
        const std::uint32_t bulk = a.bulkTick[a.colOf[q.ids[i]] - 1u];
        if (bulk > t) t = bulk;
      }
      pass = t > cr.since;
    }
    if (!pass) {
      if (runRows != 0) visit(static_cast<const Archetype&>(a), runStart, runRows);
      runRows = 0;
      continue;
    }
    for (std::uint32_t i = 0; i < q.count; ++i) {
      if (cr.mark[i] == nullptr || a.colOf[q.ids[i]] == 0) continue;
      cr.mark[i][slot] = cr.stamp;
      a.colTick[a.colOf[q.ids[i]] - 1u] = cr.stamp;
    }
    if (runRows == 0) runStart = r;
    ++runRows;
  }
  if (runRows != 0) visit(static_cast<const Archetype&>(a), runStart, runRows);
}

template <class Visit>
Status QueryAccess::begin(World& w, DynamicQuery& q, ChangeRun& change, Visit&& visit) noexcept {
  QueryRun run;
  ChangeRun window;
  const Status st = beginGuard(w, q, run, window);
  if (!st.ok() || run.archetypes == nullptr) return st;
  change = window;
  for (std::uint32_t word = 0; word < 4; ++word) {
    std::uint64_t bits = run.matched->words[word];
    while (bits != 0) {
      const std::uint32_t aid = word * 64 + static_cast<std::uint32_t>(std::countr_zero(bits)) + 1;
      bits &= bits - 1;
      Archetype& a = *run.archetypes[aid];
      if (a.rowCount == 0) continue;  // normalised at begin: no holes, no tail
      if (q.filtered) visitFilteredRows(q, a, change, visit);
      else visit(static_cast<const Archetype&>(a), 0u, a.rowCount);
    }
  }
  return st;
}

}  // namespace detail
}  // namespace laige
