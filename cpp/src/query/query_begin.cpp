// query_begin.cpp - the begin half of every query call (Query<Terms...>,
// world.each and the TypeScript queries) and the row count: the cache
// refresh (query_cache.cpp: one comparison when no archetype appeared),
// the declared-io check inside a running system, the normalisation of dirty
// matched archetypes, and the guard. Hot: compiled for speed in every build
// (the cache's rebuild, cold, is compiled for size in the wasm build).
// The walk is inline in laige/query_object.h. docs/query.md#the-cache.
#include <bit>

#include "changes/column_hashes.h"
#include "laige/detail/dynamic_query.h"
#include "laige/detail/world_state.h"
#include "laige/query_object.h"
#include "laige/world.h"
#include "systems/system_access.h"

namespace laige {

Status World::beginQuery(detail::QueryCache& cache, const detail::QuerySpec& spec,
                         detail::QueryRun& run) noexcept {
  if (!s_) return Status{};  // a moved-from world is empty: run.archetypes stays null
  detail::WorldState& ws = *s_;
  detail::EcsState& s = ws.ecs;
  detail::IterationGuard& g = s.guard;
  if (g.active) return detail::nestedIteration(ws);
  detail::refreshQueryCache(ws, cache, spec);
  if (ws.systems.current != 0) {
    for (std::uint32_t i = 0; i < spec.count; ++i) {
      const ComponentTypeId id = spec.ids[i];
      if (id == kInvalidComponentTypeId) continue;  // unregistered: touches nothing
      const bool writes = detail::termWrites(spec.kinds[i]);
      if (!detail::systemAllows(ws, id, writes ? Access::Write : Access::Read)) {
        return detail::systemIoViolation(ws, id, writes ? "write" : "read");
      }
    }
  }
  g.read.reset();
  for (std::uint32_t i = 0; i < spec.count; ++i) {
    if (detail::termReadsRef(spec.kinds[i])) g.read.insert(spec.ids[i]);
  }
  // The ordered read: slot order restored before the first callback.
  std::uint32_t matched = 0;
  for (std::uint32_t word = 0; word < 4; ++word) {
    std::uint64_t bits = cache.matched.words[word];
    matched += static_cast<std::uint32_t>(std::popcount(bits));
    while (bits != 0) {
      const std::uint32_t aid = word * 64 + static_cast<std::uint32_t>(std::countr_zero(bits)) + 1;
      bits &= bits - 1;
      detail::Archetype& a = *s.archetypes[aid];
      if (a.dirty()) detail::normalize(s, a);
    }
  }
  g.matched = cache.matched;
  g.matchedCount = matched;
  // A Write term may change its column (filtered or not, tracked or not):
  // the column checksum's cached hashes go.
  detail::forgetWrittenColumnHashes(s, cache.matched, spec);
  // An unfiltered walk marks its Write terms' rows by archetype bound
  // (the filtered walk marks per visited row; docs/changes.md#ticks).
  if (ws.changes.anyTracked) [[unlikely]] {
    bool writes[kMaxArchetypeComponents] = {};
    bool filtered = false;
    for (std::uint32_t i = 0; i < spec.count; ++i) {
      writes[i] = detail::termWrites(spec.kinds[i]);
      filtered = filtered || detail::termFilters(spec.kinds[i]);
    }
    if (!filtered) detail::markWalkWrites(ws, cache.matched, spec.ids, writes, spec.count);
  }
  g.active = true;
  run.archetypes = s.archetypes.data();
  run.generations = ws.entities.generations();
  run.matched = &cache.matched;
  run.ids = spec.ids;
  return Status{};
}


std::uint32_t World::queryCount(detail::QueryCache& cache, const detail::QuerySpec& spec) noexcept {
  if (!s_) return 0;
  detail::QueryCache copy = cache;
  detail::QueryCache& c = s_->ecs.guard.active ? copy : cache;
  detail::refreshQueryCache(*s_, c, spec);
  std::uint32_t rows = 0;
  for (std::uint32_t word = 0; word < 4; ++word) {
    std::uint64_t bits = c.matched.words[word];
    while (bits != 0) {
      const std::uint32_t aid = word * 64 + static_cast<std::uint32_t>(std::countr_zero(bits)) + 1;
      bits &= bits - 1;
      rows += s_->ecs.archetypes[aid]->liveRows();
    }
  }
  return rows;
}


}  // namespace laige
