// change_ticks.cpp - change ticks (docs/changes.md#ticks): tracking,
// the marks of the structural and write paths, the archetype bounds that
// let a filtered walk skip, and the filtered begin/end of laige::Query.
#include <algorithm>
#include <cstring>
#include <new>

#include "changes/column_hashes.h"
#include "laige/changes.h"
#include "laige/detail/world_state.h"
#include "laige/logging.h"
#include "laige/query_object.h"
#include "laige/world.h"

namespace laige {
namespace detail {

namespace {

ComponentTicks* ticksOf(WorldState& ws, ComponentTypeId c) noexcept {
  return ws.changes.tracked[c] != 0 ? ws.changes.ticks[c].get() : nullptr;
}

// Folds a bulk stamp of `a` into the per-slot ticks of `slot` (the entity
// leaves `a`, or a move into `a` must not inherit the bulk).
void foldSlot(WorldState& ws, const Archetype& a, std::uint32_t slot) noexcept {
  for (std::uint32_t i = 0; i < a.componentCount; ++i) {
    const std::uint32_t bulk = a.bulkTick[i];
    if (bulk == 0) continue;
    ComponentTicks* t = ticksOf(ws, a.sig[i]);
    if (t != nullptr && t->changed[slot] < bulk) t->changed[slot] = bulk;
  }
}

// Writes the bulk stamps of `a` into every row's per-slot ticks except row
// `except` (the row that just moved in) and clears them. O(rows) once per
// Write walk followed by a move into the archetype.
void flushBulk(WorldState& ws, Archetype& a, std::uint32_t except) noexcept {
  for (std::uint32_t i = 0; i < a.componentCount; ++i) {
    const std::uint32_t bulk = a.bulkTick[i];
    if (bulk == 0) continue;
    ComponentTicks* t = ticksOf(ws, a.sig[i]);
    if (t != nullptr) {
      for (std::uint32_t r = 0; r < a.rowCount; ++r) {
        const std::uint32_t slot = a.slots[r];
        if (r == except || slot == kTombstone) continue;
        if (t->changed[slot] < bulk) t->changed[slot] = bulk;
      }
    }
    if (a.colTick[i] < bulk) a.colTick[i] = bulk;
    a.bulkTick[i] = 0;
  }
  a.hasBulk = false;
}

void markSlot(WorldState& ws, ComponentTypeId c, std::uint32_t slot) noexcept {
  ComponentTicks* t = ticksOf(ws, c);
  const ArchetypeId aid = ws.ecs.archetypeOf[slot];
  if (t == nullptr || aid == kNoArchetype) return;
  Archetype& a = *ws.ecs.archetypes[aid];
  if (a.colOf[c] == 0) return;
  t->changed[slot] = ws.changes.stamp;
  a.colTick[a.colOf[c] - 1] = ws.changes.stamp;
}

}  // namespace

bool enableTracking(WorldState& ws, ComponentTypeId c) noexcept {
  ChangeState& cs = ws.changes;
  if (cs.tracked[c] != 0) return true;
  const std::uint32_t cap = ws.entities.capacity() == 0 ? 1 : ws.entities.capacity();
  if (!cs.ticks[c]) {
    std::unique_ptr<ComponentTicks> t(new (std::nothrow) ComponentTicks());
    if (!t) return false;
    t->added.reset(new (std::nothrow) std::uint32_t[cap]());
    t->changed.reset(new (std::nothrow) std::uint32_t[cap]());
    if (!t->added || !t->changed) return false;
    cs.ticks[c] = std::move(t);
    if (c > cs.allocatedUpTo) cs.allocatedUpTo = c;
  }
  if (!cs.removed[c]) {
    cs.removed[c].reset(new (std::nothrow) RemovedLog());
    if (!cs.removed[c]) return false;
  }
  if (c > cs.allocatedUpTo) cs.allocatedUpTo = c;
  ComponentTicks& t = *cs.ticks[c];
  std::fill(t.added.get(), t.added.get() + cap, 0u);
  std::fill(t.changed.get(), t.changed.get() + cap, 0u);
  // Every entity that has c now counts as added now.
  for (std::size_t aid = 1; aid < ws.ecs.archetypes.size(); ++aid) {
    Archetype& a = *ws.ecs.archetypes[aid];
    if (a.colOf[c] == 0) continue;
    const std::uint32_t col = a.colOf[c] - 1u;
    for (std::uint32_t r = 0; r < a.rowCount; ++r) {
      const std::uint32_t slot = a.slots[r];
      if (slot == kTombstone) continue;
      t.added[slot] = t.changed[slot] = cs.stamp;
    }
    a.colTick[col] = cs.stamp;
    a.bulkTick[col] = 0;
  }
  t.on = true;
  cs.tracked[c] = 1;
  cs.anyTracked = true;
  cs.anyHook = true;
  return true;
}

void onOverwrite(WorldState& ws, Entity e, ComponentTypeId c, Archetype& a) noexcept {
  ChangeState& cs = ws.changes;
  if (cs.tracked[c] != 0) {
    cs.ticks[c]->changed[e.id()] = cs.stamp;
    a.colTick[a.colOf[c] - 1] = cs.stamp;
  }
  if ((cs.observedEvents[c] & (1u << static_cast<unsigned>(ObserverEvent::OnSet))) != 0) {
    const Column& col = a.cols[a.colOf[c] - 1];
    queueEvent(ws, static_cast<std::uint8_t>(ObserverEvent::OnSet), c, e,
               col.data + std::size_t{ws.ecs.rowOf[e.id()]} * col.size);
  }
}

void onMoveAdd(WorldState& ws, std::uint16_t slot, Archetype* src, Archetype& dst, ComponentTypeId c,
               std::uint32_t row) noexcept {
  ChangeState& cs = ws.changes;
  if (cs.anyTracked) {
    if (src != nullptr && src->hasBulk) foldSlot(ws, *src, slot);
    if (dst.hasBulk) flushBulk(ws, dst, row);
    dst.moveInTick = cs.stamp;
    if (cs.tracked[c] != 0) {
      cs.ticks[c]->added[slot] = cs.ticks[c]->changed[slot] = cs.stamp;
      dst.colTick[dst.colOf[c] - 1] = cs.stamp;
    }
  }
  if ((cs.observedEvents[c] & (1u << static_cast<unsigned>(ObserverEvent::OnAdd))) != 0) {
    const Column& col = dst.cols[dst.colOf[c] - 1];
    queueEvent(ws, static_cast<std::uint8_t>(ObserverEvent::OnAdd), c,
               Entity(slot, ws.entities.generations()[slot]), col.data + std::size_t{row} * col.size);
  }
}

void onMoveRemove(WorldState& ws, std::uint16_t slot, Archetype& src, Archetype* dst, ComponentTypeId c,
                  std::uint32_t fromRow, std::uint32_t row) noexcept {
  ChangeState& cs = ws.changes;
  if (cs.anyTracked) {
    if (src.hasBulk) foldSlot(ws, src, slot);
    if (dst != nullptr) {
      if (dst->hasBulk) flushBulk(ws, *dst, row);
      dst->moveInTick = cs.stamp;
    }
  }
  const Entity e(slot, ws.entities.generations()[slot]);
  const Column& col = src.cols[src.colOf[c] - 1];
  const std::uint8_t* value = col.data + std::size_t{fromRow} * col.size;
  if (cs.tracked[c] != 0 && cs.removed[c]->wanted) {
    RemovedLog& log = *cs.removed[c];
    log.entries.push_back(RemovedEntry{e.bits(), cs.stamp, static_cast<std::uint32_t>(log.bytes.size())});
    log.bytes.insert(log.bytes.end(), value, value + col.size);
  }
  if ((cs.observedEvents[c] & (1u << static_cast<unsigned>(ObserverEvent::OnRemove))) != 0) {
    queueEvent(ws, static_cast<std::uint8_t>(ObserverEvent::OnRemove), c, e, value);
  }
}

void onDestroy(WorldState& ws, Entity e) noexcept {
  const ArchetypeId aid = ws.ecs.archetypeOf[e.id()];
  if (aid == kNoArchetype) return;
  Archetype& a = *ws.ecs.archetypes[aid];
  ChangeState& cs = ws.changes;
  const std::uint32_t row = ws.ecs.rowOf[e.id()];
  for (std::uint32_t i = 0; i < a.componentCount; ++i) {
    const ComponentTypeId c = a.sig[i];
    const std::uint8_t* value = a.cols[i].data + std::size_t{row} * a.cols[i].size;
    if (cs.tracked[c] != 0 && cs.removed[c]->wanted) {
      RemovedLog& log = *cs.removed[c];
      log.entries.push_back(RemovedEntry{e.bits(), cs.stamp, static_cast<std::uint32_t>(log.bytes.size())});
      log.bytes.insert(log.bytes.end(), value, value + a.cols[i].size);
    }
    if ((cs.observedEvents[c] & (1u << static_cast<unsigned>(ObserverEvent::OnRemove))) != 0) {
      queueEvent(ws, static_cast<std::uint8_t>(ObserverEvent::OnRemove), c, e, value);
    }
  }
}

void onWriteRef(WorldState& ws, ComponentTypeId c, std::uint16_t slot) noexcept { markSlot(ws, c, slot); }

void forgetColumnHashOutOfLine(EcsState& s, std::uint32_t slot, ComponentTypeId c) noexcept { forgetColumnHash(s, slot, c); }

[[gnu::noinline]] void forgetWrittenColumnHashes(EcsState& s, const IdSet256& matched, const QuerySpec& spec) noexcept {
  for (std::uint32_t i = 0; i < spec.count; ++i) {
    const ComponentTypeId c = spec.ids[i];
    if (!termWrites(spec.kinds[i]) || c == 0 || c > kMaxComponentTypes) continue;
    for (std::uint32_t word = 0; word < 4; ++word) {
      std::uint64_t bits = matched.words[word];
      while (bits != 0) {
        const std::uint32_t aid = word * 64 + static_cast<std::uint32_t>(std::countr_zero(bits)) + 1;
        bits &= bits - 1;
        Archetype& a = *s.archetypes[aid];
        if (a.colOf[c] != 0) forgetColumnCaches(a, a.colOf[c] - 1u);
      }
    }
  }
}

void markWalkWrites(WorldState& ws, const IdSet256& matched, const ComponentTypeId* ids, const bool* writes,
                    std::uint32_t count) noexcept {
  ChangeState& cs = ws.changes;
  for (std::uint32_t i = 0; i < count; ++i) {
    const ComponentTypeId c = ids[i];
    if (!writes[i] || c == 0 || c > kMaxComponentTypes || cs.tracked[c] == 0) continue;
    for (std::uint32_t word = 0; word < 4; ++word) {
      std::uint64_t bits = matched.words[word];
      while (bits != 0) {
        const std::uint32_t aid = word * 64 + static_cast<std::uint32_t>(std::countr_zero(bits)) + 1;
        bits &= bits - 1;
        Archetype& a = *ws.ecs.archetypes[aid];
        if (a.colOf[c] == 0 || a.rowCount == 0) continue;
        a.bulkTick[a.colOf[c] - 1] = cs.stamp;
        a.hasBulk = true;
      }
    }
  }
}

Status ChangeAccess::beginFiltered(World& w, QueryCache& cache, const QuerySpec& spec, QueryRun& run,
                                   ChangeRun& change) noexcept {
  if (!w.s_) return Status{};
  WorldState& ws = *w.s_;
  // The begin first (nesting, the system's io): a refused call leaves the
  // world as it was, tracking included.
  if (Status st = w.beginQuery(cache, spec, run); !st.ok() || run.archetypes == nullptr) return st;
  // Tracking starts at the first filtered run that names the component.
  for (std::uint32_t i = 0; i < spec.count; ++i) {
    const ComponentTypeId id = spec.ids[i];
    if (!termFilters(spec.kinds[i]) || id == kInvalidComponentTypeId || enableTracking(ws, id)) continue;
    w.endIteration();
    run.archetypes = nullptr;
    return Status::failure(ErrorCode::BudgetExhausted, "change_tracking_alloc_failed").with("component_id", id);
  }
  ChangeState& cs = ws.changes;
  change.stamp = cs.stamp;
  change.outsideSystem = ws.systems.current == 0;
  change.since = change.outsideSystem ? cache.lastRun : cs.runningSince;
  for (std::uint32_t i = 0; i < spec.count; ++i) {
    const ComponentTypeId id = spec.ids[i];
    if (id == kInvalidComponentTypeId || cs.tracked[id] == 0) continue;
    if (spec.kinds[i] == TermKind::Added) change.ticks[i] = cs.ticks[id]->added.get();
    if (spec.kinds[i] == TermKind::Changed) change.ticks[i] = cs.ticks[id]->changed.get();
    if (termWrites(spec.kinds[i])) change.mark[i] = cs.ticks[id]->changed.get();
  }
  return Status{};
}

void ChangeAccess::endFiltered(World& w, QueryCache& cache, const ChangeRun& change) noexcept {
  if (!w.s_ || !change.outsideSystem) return;
  cache.lastRun = change.stamp;
  ++w.s_->changes.stamp;
}

WorldState* ChangeAccess::state(World& w) noexcept { return w.s_.get(); }
void ChangeAccess::applyCommands(World& w) noexcept { w.applyCommands(); }
const WorldState* ChangeAccess::state(const World& w) noexcept { return w.s_.get(); }

FilteredEnd::~FilteredEnd() {
  ChangeAccess::endFiltered(*world, *cache, change);
  world->endIteration();
}

}  // namespace detail

Status trackChanges(World& world, ComponentTypeId id) noexcept {
  detail::WorldState* ws = detail::ChangeAccess::state(world);
  if (ws == nullptr) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  if (id == 0 || id > ws->ecs.components.size()) {
    return Status::failure(ErrorCode::InvalidArgument, "component_unregistered").with("component_id", id);
  }
  if (!detail::enableTracking(*ws, id)) {
    return Status::failure(ErrorCode::BudgetExhausted, "change_tracking_alloc_failed").with("component_id", id);
  }
  return Status{};
}

bool tracksChanges(const World& world, ComponentTypeId id) noexcept {
  const detail::WorldState* ws = detail::ChangeAccess::state(world);
  return ws != nullptr && id != 0 && id <= kMaxComponentTypes && ws->changes.tracked[id] != 0;
}

std::uint32_t changeTick(const World& world) noexcept {
  const detail::WorldState* ws = detail::ChangeAccess::state(world);
  return ws != nullptr ? ws->changes.stamp : 0;
}

namespace {
std::uint32_t tickOf(const World& world, Entity e, ComponentTypeId id, bool added) noexcept {
  const detail::WorldState* ws = detail::ChangeAccess::state(world);
  if (ws == nullptr || !ws->entities.isAlive(e) || !tracksChanges(world, id)) return 0;
  const ArchetypeId aid = ws->ecs.archetypeOf[e.id()];
  if (aid == kNoArchetype) return 0;
  const detail::Archetype& a = *ws->ecs.archetypes[aid];
  if (a.colOf[id] == 0) return 0;
  const detail::ComponentTicks& t = *ws->changes.ticks[id];
  if (added) return t.added[e.id()];
  return std::max(t.changed[e.id()], a.bulkTick[a.colOf[id] - 1]);
}
}  // namespace

std::uint32_t addedTick(const World& world, Entity e, ComponentTypeId id) noexcept {
  return tickOf(world, e, id, true);
}
std::uint32_t changedTick(const World& world, Entity e, ComponentTypeId id) noexcept {
  return tickOf(world, e, id, false);
}

Status markChanged(World& world, Entity e, ComponentTypeId id) noexcept {
  detail::WorldState* ws = detail::ChangeAccess::state(world);
  if (ws == nullptr || !ws->entities.isAlive(e)) {
    return Status::failure(ErrorCode::InvalidArgument, "stale_entity_access")
        .with("entity_id", e.id())
        .with("generation", e.generation());
  }
  if (!world.hasComponent(e, id)) {
    return Status::failure(ErrorCode::InvalidArgument, "component_absent").with("component_id", id);
  }
  detail::forgetColumnHashOutOfLine(ws->ecs, e.id(), id);
  detail::onWriteRef(*ws, id, e.id());
  return Status{};
}

}  // namespace laige
