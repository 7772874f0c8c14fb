// query_cache.cpp - the query cache (Query<Terms...>, world.each and the
// TypeScript queries): the refresh (resolve once, test only archetypes
// created since the last call), world.each's cache slots and the archetype
// count. The begin of a call is query_begin.cpp; the walk is inline in
// laige/query_object.h. docs/query.md#the-cache.
#include <atomic>
#include <bit>

#include "laige/assert.h"
#include "laige/detail/dynamic_query.h"
#include "laige/detail/world_state.h"
#include "laige/logging.h"
#include "laige/query_object.h"
#include "laige/world.h"
#include "systems/system_access.h"

namespace laige {

namespace detail {

std::uint64_t allocateWorldSerial() noexcept {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

namespace {

void resolve(const WorldState& ws, QueryCache& c, const QuerySpec& q) noexcept {
  const EcsState& s = ws.ecs;
  c.unresolved = false;
  c.componentsSeen = static_cast<std::uint32_t>(s.components.size());
  if (q.typeIndex == nullptr) return;  // ids given (registered when the query was made)
  for (std::uint32_t i = 0; i < q.count; ++i) {
    const std::uint32_t t = q.typeIndex[i];
    const ComponentTypeId id = t < s.typeToId.size() ? s.typeToId[t] : kInvalidComponentTypeId;
    q.ids[i] = id;
    if (id == kInvalidComponentTypeId) c.unresolved = true;
  }
}

// colOf[0] is always 0: an unresolved required id matches nothing, an
// unresolved excluded id excludes nothing (no archetype can hold it).
bool matchesArchetype(const Archetype& a, const QuerySpec& q) noexcept {
  for (std::uint32_t i = 0; i < q.count; ++i) {
    const bool has = a.colOf[q.ids[i]] != 0;
    if (termRequired(q.kinds[i]) ? !has : (q.kinds[i] == TermKind::Without && has)) return false;
  }
  return true;
}

// Brings `c` up to date with the world: a full rebuild for another world
// (or an unbuilt cache), a re-resolve when components were registered
// since an unresolved one, then a test of the archetypes created since.
void refresh(const WorldState& ws, QueryCache& c, const QuerySpec& q) noexcept {
  const EcsState& s = ws.ecs;
  if (c.worldSerial != ws.serial || c.structureEpoch != s.structureEpoch) {
    // Another world, or a restore changed what the archetype ids name.
    c = QueryCache{};
    c.worldSerial = ws.serial;
    c.structureEpoch = s.structureEpoch;
    resolve(ws, c, q);
  } else if (c.unresolved && c.componentsSeen != s.components.size()) {
    // Archetypes tested before held none of the newly registered
    // components, so their results stand.
    resolve(ws, c, q);
  }
  // Prefabs (laige/prefabs.h) are templates: an archetype holding the
  // Prefab tag matches only a query with a term naming it. With no prefabs
  // registered the tag is 0, and colOf[0] is 0 in every archetype.
  ComponentTypeId prefab = s.prefabTag;
  for (std::uint32_t i = 0; i < q.count; ++i) prefab = q.ids[i] == prefab ? 0 : prefab;
  const auto n = static_cast<std::uint32_t>(s.archetypes.size());
  for (std::uint32_t aid = c.archetypesSeen; aid < n; ++aid) {
    const Archetype& a = *s.archetypes[aid];
    if (a.colOf[prefab] == 0 && matchesArchetype(a, q)) c.matched.insert(aid);
  }
  c.archetypesSeen = n;
}

std::uint32_t popcount(const IdSet256& set) noexcept {
  std::uint32_t n = 0;
  for (const std::uint64_t w : set.words) n += static_cast<std::uint32_t>(std::popcount(w));
  return n;
}

}  // namespace

void refreshQueryCache(const WorldState& ws, QueryCache& c, const QuerySpec& q) noexcept { refresh(ws, c, q); }

}  // namespace detail

Status World::beginEach(std::uint32_t key, const detail::QuerySpec& spec, detail::QueryRun& run) noexcept {
  if (!s_) return Status{};
  detail::WorldState& ws = *s_;
  // Before any slot is touched: the scratch slot may be the live walk's.
  if (ws.ecs.guard.active) return detail::nestedIteration(ws);
  detail::EachCacheSlot* slot = nullptr;
  for (std::uint32_t probe = 0; probe < detail::kEachCacheSlots; ++probe) {
    detail::EachCacheSlot& candidate = ws.eachCaches[(key + probe) % detail::kEachCacheSlots];
    if (candidate.key == key) {
      slot = &candidate;
      break;
    }
    if (candidate.key == 0) {
      candidate.key = key;
      slot = &candidate;
      break;
    }
  }
  if (slot == nullptr) {
    slot = &ws.eachScratch;
    slot->cache = detail::QueryCache{};  // uncached: rebuilt every call
  }
  detail::QuerySpec q = spec;
  q.ids = slot->ids;
  return beginQuery(slot->cache, q, run);
}

std::uint32_t World::queryArchetypeCount(detail::QueryCache& cache, const detail::QuerySpec& spec) noexcept {
  if (!s_) return 0;
  // During an iteration the walked cache must not grow: refresh a copy.
  if (s_->ecs.guard.active) {
    detail::QueryCache copy = cache;
    detail::refresh(*s_, copy, spec);
    return detail::popcount(copy.matched);
  }
  detail::refresh(*s_, cache, spec);
  return detail::popcount(cache.matched);
}

}  // namespace laige
