// laige/changes.h - reacting to change: change filters, removed logs and
// observers (docs/changes.md).
//
//   // a system that sees only the positions written since it last ran
//   using Moved = laige::Query<laige::Reads<Pos>, laige::Changed<Pos>>;
//   // an observer: called after the system (or top-level call) that added Sprite
//   laige::observe<Sprite>(world, laige::ObserverEvent::OnAdd, &onSprite);
//   // inside a system: the entities that lost Sprite since it last ran
//   laige::eachRemoved<Sprite>(ctx, [](laige::Entity e, const Sprite& last) { ... });
//
// Change ticks (the model of docs/changes.md#ticks): a tracked component
// carries, per entity, the tick it was added and the tick it was last
// written. Marks: an add (structural or over an existing value, direct or
// through a command), a Writes<T> / Optional<T, Write> query term or a
// Write access of world.each / beginIteration (every row the walk visits),
// a non-const World::get<T> / getBytes (a Write ref). Reads never mark. A
// write that stores the same bytes still marks (no value compare on the
// hot path). Changed<T> matches rows written or added since; Added<T> rows
// added since. "Since": inside a system, that system's previous run; for a
// query run outside systems, that query object's previous run.
// A component becomes tracked on the first filtered query or removed log
// that names it, or by trackChanges() (the setup path: allocates 8 bytes
// per entity slot once); untracked components pay nothing.
#pragma once

#include <cstdint>
#include <span>

#include <type_traits>

#include "laige/component.h"
#include "laige/entity.h"
#include "laige/result.h"
#include "laige/system.h"
#include "laige/world.h"

namespace laige {

/// The observer events (`docs/changes.md#observers`).
enum class ObserverEvent : std::uint8_t {
  OnAdd = 0,     ///< the component was added to an entity (a structural add)
  OnSet = 1,     ///< an add or add command replaced the value an entity had
  OnRemove = 2,  ///< the entity lost the component (remove, destroy, clear)
};
/// The number of ObserverEvent values (anything at or above is unknown_event).
inline constexpr std::uint32_t kObserverEventCount = 3;
/// Observer nesting allowed: an event caused by an observer of depth
/// kMaxObserverDepth is refused (observer_depth_exceeded).
inline constexpr std::uint32_t kMaxObserverDepth = 8;

/// What an observer receives. Valid only during the call.
struct ObserverContext {
  /// The world.
  World& world;
  /// The event.
  ObserverEvent event;
  /// The component the event is about.
  ComponentTypeId component;
  /// The entity (for OnRemove after a destroy, no longer live).
  Entity entity;
  /// The component's value when the event happened (the new value for
  /// OnAdd / OnSet, the last value for OnRemove); component-size bytes.
  const void* value;
  /// The world's command buffer: structural changes made here apply right
  /// after this observer returns and may queue further events (depth + 1).
  CommandBuffer& commands;
  /// 0 for an event caused by a system or a top-level call, n + 1 for one
  /// caused by an observer of depth n.
  std::uint32_t depth;
  /// True while a rollback session re-simulates confirmed ticks (the
  /// second run of the same tick: a renderer skips its side effects).
  bool resimulating;
  /// The userData given to observe().
  void* userData;
};

/// An observer: a plain function. A failing Status is counted, logged
/// (warn ecs/observer_failed) and the rest of the queue still runs.
using ObserverFn = Status (*)(ObserverContext& ctx);

/// An observer's id: dense from 1 in registration order.
struct ObserverId {
  std::uint32_t value = 0;
};

/// The observer counters (diagnostics, never simulation state).
struct ObserverStats {
  /// Observers registered.
  std::uint32_t observers = 0;
  /// Events queued and not yet dispatched.
  std::uint32_t pending = 0;
  /// Observer calls made.
  std::uint64_t calls = 0;
  /// Calls that returned a failing Status.
  std::uint64_t failures = 0;
  /// Events dropped by the depth limit.
  std::uint64_t depthExceeded = 0;
};

/// Starts change tracking of component `id` (no-op when tracked). Every
/// entity that has it now counts as added and changed now. The setup path:
/// allocates 8 bytes per entity slot once. Errors, nothing changed: a
/// moved-from world -> world_moved_from; 0 or an unregistered id ->
/// InvalidArgument component_unregistered. O(capacity).
Status trackChanges(World& world, ComponentTypeId id) noexcept;
/// True when `id` is tracked now. O(1).
[[nodiscard]] bool tracksChanges(const World& world, ComponentTypeId id) noexcept;
/// The change tick marks are stamped with now (raised after every system
/// run and every filtered query run outside systems). O(1).
[[nodiscard]] std::uint32_t changeTick(const World& world) noexcept;
/// Entity `e`'s added / changed tick of tracked component `id` (0 when
/// untracked, absent or stale). O(1).
[[nodiscard]] std::uint32_t addedTick(const World& world, Entity e, ComponentTypeId id) noexcept;
[[nodiscard]] std::uint32_t changedTick(const World& world, Entity e, ComponentTypeId id) noexcept;
/// Marks `e`'s component `id` changed now (the TypeScript field handles
/// write memory directly and call this). Tracked: one store; untracked: a
/// no-op. Errors: stale handle -> stale_entity_access; absent ->
/// component_absent. O(1), no allocation.
Status markChanged(World& world, Entity e, ComponentTypeId id) noexcept;

/// Registers an observer of `event` on component `id`; it runs after the
/// system or top-level call that caused the event, from the world's
/// deferred queue: events in the order they happened, for each event the
/// observers in registration order. Errors (nothing registered, world
/// unchanged): moved-from -> world_moved_from; 0 or unregistered id ->
/// component_unregistered; event >= kObserverEventCount -> unknown_event;
/// fn null -> observer_invalid; inside a system, an each, a defer or an
/// observer -> observe_inside_callback. Allocates (setup path).
Result<ObserverId> observe(World& world, ObserverEvent event, ComponentTypeId id, ObserverFn fn,
                           void* userData = nullptr) noexcept;
/// Runs the queued observer events now (a no-op inside a system, an each,
/// a defer or an observer: they run at that phase's end). Returns the
/// first observer failure or observer_depth_exceeded of this drain (the
/// rest of the queue ran anyway). Top-level calls and runSystems drain by
/// themselves; this is for callers that want the Status.
Status flushObservers(World& world) noexcept;
/// Sets the flag ObserverContext::resimulating reports (RollbackSession
/// sets it while it re-simulates ticks it ran before). O(1).
void setResimulating(World& world, bool on) noexcept;
/// The observer counters. O(1).
[[nodiscard]] ObserverStats observerStats(const World& world) noexcept;

namespace detail {
/// eachRemoved's untyped half: calls fn(ctx, entity, value bytes) for every
/// removal of `id` newer than the running system's last run.
Status eachRemovedBytes(SystemContext& ctx, ComponentTypeId id,
                        void (*fn)(void* closure, Entity e, const void* value), void* closure) noexcept;
}  // namespace detail

/// Inside a system: calls fn(Entity, const T& last) for every entity that
/// lost T (removeComponent, destroy, clear; direct or by a command) since
/// this system last ran, in the order of the removals. T must be in the
/// system's declared io (Read is enough). The first call tracks T; from
/// then on removals are logged (a removal log entry lives until every
/// system of the next runSystems has run). Errors: outside a system ->
/// removed_outside_system; T unregistered -> component_unregistered; T not
/// declared -> system_io_violation. No allocation.
template <class T, class Fn>
Status eachRemoved(SystemContext& ctx, Fn&& fn);

template <class T, class Fn>
Status eachRemoved(SystemContext& ctx, Fn&& fn) {
  static_assert(detail::MarkedComponent<detail::ComponentKey<T>>, "eachRemoved<T>: T is not marked");
  using F = std::remove_reference_t<Fn>;
  return detail::eachRemovedBytes(
      ctx, ctx.world.template componentId<T>(),
      [](void* closure, Entity e, const void* value) {
        (*static_cast<F*>(closure))(e, *static_cast<const T*>(value));
      },
      static_cast<void*>(&fn));
}

/// observe() for component T (T must be registered).
template <class T>
Result<ObserverId> observe(World& world, ObserverEvent event, ObserverFn fn,
                           void* userData = nullptr) noexcept {
  return observe(world, event, world.template componentId<T>(), fn, userData);
}

}  // namespace laige
