// relation_cascade.cpp - the begin and end of a cascade pass
// (Query::eachCascade) and the hierarchy order it reads
// (docs/relations.md#the-cascade-query-option). The walk itself is inline
// in laige/detail/cascade_walk.h.
#include <bit>
#include <new>

#include "laige/query_object.h"
#include "laige/detail/dynamic_query.h"
#include "laige/detail/world_state.h"
#include "laige/relations.h"
#include "systems/system_access.h"

namespace laige::detail {

namespace {

RelationRecord* recordOf(WorldState& ws, ComponentTypeId c) noexcept {
  if (c == 0 || c > kMaxComponentTypes || ws.relations.relationOf[c] == 0) return nullptr;
  return &ws.relations.relations[ws.relations.relationOf[c] - 1];
}

// True when the order of a relation that did not change (no link or
// unlink, no clear or restore since it was built) still names every row
// exactly: every entry's entity is at the same archetype and row, and no
// entity gained or lost a row (entries == live rows; every live entity with
// a row is an entry, so every target row is some entry's row and unchanged
// too). A slot reused at the same row by an entity without the relation
// takes the same place in the order. O(archetypes + entries), ascending
// slots within each depth.
bool stillExact(const EcsState& ecs, const CascadeOrder& o) noexcept {
  std::uint32_t live = 0;
  for (std::size_t a = 1; a < ecs.archetypes.size(); ++a) live += ecs.archetypes[a]->liveRows();
  if (live != o.count) return false;
  const ArchetypeId* archOf = ecs.archetypeOf.get();
  const std::uint32_t* rowOf = ecs.rowOf.get();
  const CascadeEntry* e = o.entries.get();
  for (std::uint32_t k = 0; k < o.count; ++k) {
    if (archOf[e[k].slot] != e[k].arch || rowOf[e[k].slot] != e[k].row) return false;
  }
  return true;
}

// Rebuilds relation `r`'s order when the relation or a row's place changed
// since it was built. Every row move counts in one of the stats counters
// (an add, a remove, a destroy or clear detach, a normalisation shift);
// a restore rebuilds the reverse index, which invalidates the order. The
// archetypes are normalised first, so the rows recorded are the ones the
// pass will find. The order is depth by depth, each depth ascending by
// slot: within a depth an archetype's rows are then visited ascending (rows
// are in slot order), so the pass reads and writes the entities' columns
// front to back and only the targets' rows out of order. A counting sort
// by depth: O(highest slot + entities in the order), no allocation, no
// comparison sort. O(archetypes) when nothing changed; O(archetypes +
// entries) when rows changed but not the order's (stillExact).
void refreshOrder(WorldState& ws, RelationRecord& r) noexcept {
  EcsState& ecs = ws.ecs;
  normalizeAll(ecs);
  CascadeOrder& o = r.cascade;
  const ArchetypeStats& st = ecs.stats;
  if (o.valid && o.epoch == ecs.structureEpoch) {
    if (o.adds == st.totalAdds && o.removes == st.totalRemoves && o.shifts == st.totalRowShifts &&
        o.detaches == st.totalDestroyDetaches) {
      return;
    }
    // Something was added, removed or moved, maybe elsewhere (or an
    // in-place add): check the order before rebuilding it.
    if (stillExact(ecs, o)) {
      o.adds = st.totalAdds;
      o.removes = st.totalRemoves;
      o.shifts = st.totalRowShifts;
      o.detaches = st.totalDestroyDetaches;
      return;
    }
  }
  constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  const std::uint32_t high = ws.entities.highWater();
  const ArchetypeId* archOf = ecs.archetypeOf.get();
  const std::uint32_t* rowOf = ecs.rowOf.get();
  const std::uint32_t* first = r.firstSource.get();
  const std::uint32_t* next = r.nextSource.get();
  std::uint32_t* queue = ws.relations.queue.get();
  std::uint32_t* depth = ws.relations.depth.get();
  // 1. Every slot's depth through the relation (kNone: dead), breadth
  //    first from the entities without it.
  std::uint32_t n = 0;
  for (std::uint32_t slot = 0; slot < high; ++slot) {
    const bool root = ws.entities.isIndexAlive(slot) && valueOfSlot(ecs, slot, r.component) == nullptr;
    depth[slot] = root ? 0 : kNone;
    if (root && first[slot] != kNoSlot) queue[n++] = slot;
  }
  std::uint32_t maxDepth = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t t = queue[i];
    const std::uint32_t d = depth[t] + 1;
    maxDepth = d > maxDepth ? d : maxDepth;
    for (std::uint32_t s = first[t]; s != kNoSlot; s = next[s]) {
      depth[s] = d;
      if (first[s] != kNoSlot) queue[n++] = s;
    }
  }
  // 2. The queue is free again: it holds each depth's first entry.
  std::uint32_t* start = queue;
  for (std::uint32_t d = 0; d <= maxDepth; ++d) start[d] = 0;
  for (std::uint32_t slot = 0; slot < high; ++slot) {
    if (depth[slot] != kNone && archOf[slot] != kNoArchetype) ++start[depth[slot]];
  }
  std::uint32_t total = 0;
  for (std::uint32_t d = 0; d <= maxDepth; ++d) {
    const std::uint32_t count = start[d];
    start[d] = total;
    total += count;
  }
  // 3. The entries, ascending slot within each depth.
  CascadeEntry* out = o.entries.get();
  o.parentArchetypes.reset();
  for (std::uint32_t slot = 0; slot < high; ++slot) {
    const std::uint32_t d = depth[slot];
    if (d == kNone || archOf[slot] == kNoArchetype) continue;
    CascadeEntry e{slot, archOf[slot], kNoArchetype, rowOf[slot], 0};
    if (d != 0) {
      const std::uint32_t t = Entity::fromBits(relationTargetBits(valueOfSlot(ecs, slot, r.component))).id();
      e.parentArch = archOf[t];
      if (e.parentArch != kNoArchetype) {
        e.parentRow = rowOf[t];
        o.parentArchetypes.insert(e.parentArch);
      }
    }
    out[start[d]++] = e;
  }
  o.count = total;
  o.valid = true;
  o.adds = st.totalAdds;
  o.removes = st.totalRemoves;
  o.shifts = st.totalRowShifts;
  o.detaches = st.totalDestroyDetaches;
  o.epoch = ecs.structureEpoch;
}

// The rows of `target`'s sources through `r`, ascending slot (the reverse
// index's order), each with the target's row: O(sources), no allocation.
// Every archetype is normalised before, so the rows are the ones the pass
// will find.
std::uint32_t sourceRows(const WorldState& ws, const RelationRecord& r, Entity target, CascadeEntry* out,
                         IdSet256& parentArchetypes) noexcept {
  const EcsState& ecs = ws.ecs;
  const ArchetypeId* archOf = ecs.archetypeOf.get();
  const std::uint32_t* rowOf = ecs.rowOf.get();
  const std::uint32_t t = target.id();
  const std::uint16_t parentArch = archOf[t];
  const std::uint32_t parentRow = parentArch != kNoArchetype ? rowOf[t] : 0;
  if (parentArch != kNoArchetype) parentArchetypes.insert(parentArch);
  std::uint32_t n = 0;
  for (std::uint32_t s = r.firstSource[t]; s != kNoSlot; s = r.nextSource[s]) {
    // (A source has the relation, so it has a row.)
    out[n++] = CascadeEntry{s, archOf[s], parentArch, rowOf[s], parentRow};
  }
  return n;
}

}  // namespace

Status RelationAccess::beginCascade(World& w, QueryCache& cache, const QuerySpec& spec, QueryRun& run,
                                    ComponentTypeId rel, ComponentTypeId up, bool upWritten,
                                    CascadeRun& out, Entity target) noexcept {
  if (!w.s_) return Status{};  // a moved-from world is empty: nothing to walk
  WorldState& ws = *w.s_;
  RelationRecord* r = recordOf(ws, rel);
  if (r == nullptr) return notRelationStatus(rel);
  // Nothing below may run under a live iteration (normalising would move
  // its rows): the query's begin reports the nesting.
  if (ws.ecs.guard.active) return w.beginQuery(cache, spec, run);
  // The order is built in the world's one walk queue: no relation walk may be live.
  if (ws.relations.walking != 0) return walkMutation("cascade");
  if (ws.systems.current != 0) {
    // The pass reads the hierarchy and the targets' Up values.
    if (!systemAllows(ws, rel, Access::Read)) return systemIoViolation(ws, rel, "read");
    if (up != 0 && !systemAllows(ws, up, Access::Read)) return systemIoViolation(ws, up, "read");
  }
  const bool sources = !target.isNull();
  CascadeOrder& order = r->cascade;
  const std::uint32_t cap = ws.entities.capacity() == 0 ? 1 : ws.entities.capacity();
  if (sources) {
    if (Status st = w.check(target); !st.ok()) return st;
    if (!ws.relations.sourceRows) {
      ws.relations.sourceRows.reset(new (std::nothrow) CascadeEntry[cap]);
      if (!ws.relations.sourceRows) {
        return Status::failure(ErrorCode::BudgetExhausted, "relation_alloc_failed").with("component_id", rel);
      }
    }
  } else if (!order.entries || !ws.relations.depth) {
    if (!order.entries) order.entries.reset(new (std::nothrow) CascadeEntry[cap]);
    if (!ws.relations.depth) ws.relations.depth.reset(new (std::nothrow) std::uint32_t[cap]);
    if (!order.entries || !ws.relations.depth) {
      return Status::failure(ErrorCode::BudgetExhausted, "relation_alloc_failed").with("component_id", rel);
    }
    order.valid = false;
  }
  if (Status st = w.beginQuery(cache, spec, run); !st.ok() || run.archetypes == nullptr) return st;
  IdSet256 parents;
  if (sources) {
    normalizeAll(ws.ecs);  // the target's archetype too (the query's begin normalises only its own)
    out.count = sourceRows(ws, *r, target, ws.relations.sourceRows.get(), parents);
    out.entries = ws.relations.sourceRows.get();
  } else {
    refreshOrder(ws, *r);
    parents = order.parentArchetypes;
    out.entries = order.entries.get();
    out.count = order.count;
  }
  // The guard covers the targets' archetypes too: no target row moves
  // while the pass holds its place.
  IterationGuard& g = ws.ecs.guard;
  std::uint32_t matched = 0;
  for (std::uint32_t i = 0; i < 4; ++i) {
    g.matched.words[i] |= parents.words[i];
    matched += static_cast<std::uint32_t>(std::popcount(g.matched.words[i]));
  }
  g.matchedCount = matched;
  // Up values are handed out const: in-place World writes of Up are
  // rejected unless the query writes Up itself.
  if (up != 0 && !upWritten) g.read.insert(up);
  ++ws.relations.walking;
  out.archetypeCount = static_cast<std::uint32_t>(ws.ecs.archetypes.size());
  out.up = up;
  return Status{};
}

Status QueryAccess::beginCascade(World& w, DynamicQuery& q, ComponentTypeId rel, QueryRun& run,
                                 CascadeRun& cascade, Entity target) noexcept {
  // A change filter's window is per walk of the query's own order; the
  // cascade's order is the hierarchy's (Query::eachCascade refuses it at
  // compile time).
  for (std::uint32_t i = 0; i < q.count; ++i) {
    if (termFilters(q.kinds[i])) {
      return Status::failure(ErrorCode::InvalidArgument, "query_invalid").with("reason", "cascade_filtered").with("term", i);
    }
  }
  const QuerySpec spec{nullptr, q.kinds, q.ids, q.count};
  const Status st = RelationAccess::beginCascade(w, q.cache, spec, run, rel, 0, false, cascade, target);
  if (!st.ok() || run.archetypes == nullptr || !q.anyWith) return st;
  // As begin: a With term (a tag) is guarded as read too.
  for (std::uint32_t i = 0; i < q.count; ++i) {
    if (q.kinds[i] == TermKind::With) w.s_->ecs.guard.read.insert(q.ids[i]);
  }
  return st;
}

void RelationAccess::endCascade(World& w) noexcept {
  --w.s_->relations.walking;
  w.endIteration();
}

}  // namespace laige::detail
