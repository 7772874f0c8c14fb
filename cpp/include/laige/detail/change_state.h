// laige/detail/change_state.h - what change tracking, removed logs and
// observers keep in a World (internal; docs/changes.md).
//
// Ticks: `stamp` is the change tick every mark writes now. A system run
// reads changes newer than its own last run and then raises the stamp, so
// a change is seen exactly once by every system (bevy's model). Ticks are
// kept per (component, entity slot) rather than per archetype row, so the
// row moves, normalisation and compaction of the archetype storage never
// touch them; the per-archetype bounds (Archetype::colTick, bulkTick,
// moveInTick) only let a filtered walk skip archetypes where nothing can
// be newer.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "laige/component.h"
#include "laige/entity.h"
#include "laige/query.h"
#include "laige/result.h"
#include "laige/scheduler.h"

namespace laige::detail {

struct WorldState;
struct Archetype;
}  // namespace laige::detail
namespace laige {
class World;
}  // namespace laige
namespace laige::detail {

/// The change ticks of one tracked component, per entity slot (capacity
/// entries each): when the component was added, when it was last marked
/// changed (added counts as changed).
struct ComponentTicks {
  std::unique_ptr<std::uint32_t[]> added;
  std::unique_ptr<std::uint32_t[]> changed;
  /// False after a restore of a snapshot in which the component was not
  /// tracked (the arrays are kept for the next enable: no allocation).
  bool on = false;
};

/// One removal of a tracked component (removeComponent, destroy, clear):
/// the entity, the stamp, and the value it had (offset into `bytes`).
struct RemovedEntry {
  std::uint32_t entityBits = 0;
  std::uint32_t stamp = 0;
  std::uint32_t offset = 0;
};

/// The removals of one tracked component not yet seen by every system.
struct RemovedLog {
  std::vector<RemovedEntry> entries;
  std::vector<std::uint8_t> bytes;
  /// Set by the first eachRemoved of the component: removals are logged
  /// from then on (a tracked component nobody reads removals of logs nothing).
  bool wanted = false;
};

/// One registered observer.
struct ObserverRecord {
  std::uint8_t event = 0;
  ComponentTypeId component = 0;
  void* fn = nullptr;  // ObserverFn, kept untyped here
  void* userData = nullptr;
};

/// One queued observer event: its header; the value bytes follow it in
/// the queue (the component's size).
struct QueuedEvent {
  std::uint8_t event = 0;
  std::uint8_t pad = 0;
  std::uint16_t component = 0;
  std::uint32_t entityBits = 0;
  std::uint32_t depth = 0;
};

/// Everything a World keeps for change tracking and observers.
struct ChangeState {
  /// The stamp of every mark made now (1 at creation: systems that never
  /// ran have lastRun 0 and see every add made before their first run).
  std::uint32_t stamp = 1;
  /// Components with ticks (tracked[c] non-null and on).
  std::unique_ptr<ComponentTicks> ticks[kMaxComponentTypes + 1];
  /// Fast test of "c is tracked" on the mark paths: 1 per tracked id.
  std::uint8_t tracked[kMaxComponentTypes + 1] = {};
  /// The stamp each system last ran at (index: system id).
  std::uint32_t systemLastRun[kMaxSystems + 1] = {};
  /// The running system's `since` (its last run) and stamp, while one runs.
  std::uint32_t runningSince = 0;
  /// Removed logs per tracked component (index: id; null until tracked).
  std::unique_ptr<RemovedLog> removed[kMaxComponentTypes + 1];
  /// The highest id with ticks or a removed log allocated (0: none), set
  /// where they are allocated: above it nothing is tracked or logged, so a
  /// restore's reset of the per-component state stops there.
  std::uint32_t allocatedUpTo = 0;

  // --- observers
  std::vector<ObserverRecord> observers;
  /// Per component: bit e set when some observer listens to event e.
  std::uint8_t observedEvents[kMaxComponentTypes + 1] = {};
  /// The deferred queue (QueuedEvent + value bytes, in event order).
  std::vector<std::uint8_t> queue;
  std::uint32_t queued = 0;
  /// The depth of the observer running now (events it causes get depth + 1).
  std::uint32_t depth = 0;
  bool draining = false;
  /// Non-zero while commands apply: their events wait for the whole apply.
  std::uint32_t holdDrain = 0;
  bool inObserver = false;
  /// True while a rollback session re-simulates (ObserverContext::resimulating).
  bool resimulating = false;
  /// Scratch for one event's value during dispatch (max component size).
  std::vector<std::uint8_t> valueScratch;
  // Counters (ObserverStats).
  std::uint64_t calls = 0;
  std::uint64_t failures = 0;
  std::uint64_t depthExceeded = 0;

  /// True when anything of this state enters snapshots and the hash.
  [[nodiscard]] bool inUse() const noexcept { return anyHook; }
  /// Some component is tracked or observed: the structural paths call the hooks.
  bool anyHook = false;
  bool anyTracked = false;
};

/// The hook test of the mark paths: c is tracked or observed.
inline bool hooked(const ChangeState& cs, ComponentTypeId c) noexcept {
  return (cs.tracked[c] | cs.observedEvents[c]) != 0;
}

/// An in-place overwrite through add (or an add command) of (c, e) in
/// archetype `a`: marks changed (tracked c), queues OnSet (observed c).
void onOverwrite(WorldState& ws, Entity e, ComponentTypeId c, Archetype& a) noexcept;
/// A structural add of c: the row of `slot` is at `row` of `dst` now,
/// `src` (nullptr: none) still holds its old row. Carries the ticks, marks
/// c added, queues OnAdd. Call before the source row is removed.
void onMoveAdd(WorldState& ws, std::uint16_t slot, Archetype* src, Archetype& dst, ComponentTypeId c,
               std::uint32_t row) noexcept;
/// A structural remove of c: `src` still holds row `fromRow`, `dst`
/// (nullptr: the empty set) holds the new row `row`. Logs the removal,
/// queues OnRemove. Call before the source row is removed.
void onMoveRemove(WorldState& ws, std::uint16_t slot, Archetype& src, Archetype* dst, ComponentTypeId c,
                  std::uint32_t fromRow, std::uint32_t row) noexcept;
/// A destroy (or clear) of live `e` about to detach its row: logs the
/// removal of every tracked component, queues OnRemove for every observed
/// one (ascending component id).
void onDestroy(WorldState& ws, Entity e) noexcept;
/// A Write ref handed out for (c, slot) (non-const get / getBytes).
void onWriteRef(WorldState& ws, ComponentTypeId c, std::uint16_t slot) noexcept;
/// An unfiltered walk that writes components ids[i] where writes[i]:
/// every matched archetype's column gets the bulk stamp.
void markWalkWrites(WorldState& ws, const IdSet256& matched, const ComponentTypeId* ids,
                    const bool* writes, std::uint32_t count) noexcept;
/// Dispatches the queued observer events when no phase is open (the end
/// of a top-level call). Returns the first failure of the drain.
Status drainObservers(World& w) noexcept;
/// Drops the removal log entries every system of the schedule just run
/// has seen (runSystems' end).
void pruneRemoved(WorldState& ws, std::uint32_t oldestSince) noexcept;
/// Queues an observer event for (c, e) with the value at `value`.
void queueEvent(WorldState& ws, std::uint8_t event, ComponentTypeId c, Entity e, const void* value) noexcept;
/// Enables tracking of c (allocates once). False when an allocation failed.
bool enableTracking(WorldState& ws, ComponentTypeId c) noexcept;

}  // namespace laige::detail
