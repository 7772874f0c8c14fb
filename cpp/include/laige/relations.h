// laige/relations.h - relationships between entities: parent/child and any
// other "source points at target" link (docs/relations.md).
//
//   struct ChildOf { laige::Entity target; };  LAIGE_COMPONENT(ChildOf, target)
//   laige::RelationOptions opts;  opts.onTargetDestroyed = laige::OnTargetDestroyed::Destroy;
//   auto childOf = laige::registerRelation<ChildOf>(world, opts);   // Result<ComponentTypeId>
//   laige::addRelation(world, turret, childOf.value(), tank);     // or world.addComponent(turret, ChildOf{tank})
//   laige::targetOf(world, turret, childOf.value());              // tank
//   laige::sourcesOf(world, tank, childOf.value(), [](laige::Entity child) { ... });   // ascending slots
//   laige::eachCascade(world, childOf.value(), [](laige::Entity child, laige::Entity parent) { ... });
//   world.destroy(tank);                                    // destroys turret too
//
// A relation is a registered component whose first 4 bytes (a U32 field at
// offset 0) hold the target's handle bits; any further bytes are a payload.
// The component bytes are the state (state hash, snapshots, stateDiff and
// rollback see relations as component bytes); the reverse index target ->
// sources is derived, kept by every structural call and rebuilt by restore.
// Every structural path goes through the relation rules: addComponent,
// addComponentBytes, removeComponent(ById), commands, destroy, clear,
// restore. The target field is owned by these calls: writing it through a
// pointer from get() breaks the index (checkRelations() detects it).
//
// The invariant (checked by checkRelations): every relation value names a
// live entity other than its source, no chain of one relation cycles, and
// sourcesOf lists exactly the entities whose value names the target.
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "laige/component.h"
#include "laige/entity.h"
#include "laige/result.h"
#include "laige/world.h"

namespace laige {

/// What destroying a target does to the entities that relate to it.
enum class OnTargetDestroyed : std::uint8_t {
  Remove = 0,   ///< the sources lose the relation and live on
  Destroy = 1,  ///< the sources are destroyed too (recursively: a subtree)
};

/// Registration options of a relation.
struct RelationOptions {
  /// One target per source and relation; adding the relation with another
  /// target replaces it (a reparent). Must be true: a relation is one
  /// component per entity, so several targets of one relation are not
  /// representable (register one relation per role instead).
  bool exclusive = true;
  /// Applied to every source when its target is destroyed.
  OnTargetDestroyed onTargetDestroyed = OnTargetDestroyed::Remove;
};

/// The most relations one world registers.
inline constexpr std::uint32_t kMaxRelations = 32;

/// Makes registered component `id` a relation. Setup path (allocates 8
/// bytes per entity slot). Errors, nothing changed: moved-from world ->
/// world_moved_from; inside a system, an each or a defer ->
/// relation_register_inside_callback; 0 or an unregistered id ->
/// component_unregistered; no U32 field at offset 0 ->
/// relation_layout_invalid; already a relation -> relation_already_registered;
/// exclusive false or an unknown onTargetDestroyed -> relation_options_invalid;
/// an entity has the component now -> relation_component_in_use; the
/// kMaxRelations + 1st -> BudgetExhausted relation_budget; no memory ->
/// BudgetExhausted relation_alloc_failed. O(capacity + archetypes).
Status registerRelation(World& world, ComponentTypeId id, const RelationOptions& options) noexcept;
/// Registers a component `name` of one field `target` (U32, 4 bytes) and
/// makes it a relation (the schema-free form, e.g. for bindings). Errors as
/// registerComponentDesc and registerRelation(id); options and the phase
/// are checked before the component is registered.
Result<ComponentTypeId> registerRelation(World& world, std::string_view name,
                                         const RelationOptions& options) noexcept;
/// Registers T (when not yet registered) and makes it a relation; T's first
/// field must be an Entity (or a U32 holding handle bits). Errors as above.
template <class T>
Result<ComponentTypeId> registerRelation(World& world, const RelationOptions& options) noexcept;

/// True when `id` is a relation of `world`. O(1).
[[nodiscard]] bool isRelation(const World& world, ComponentTypeId id) noexcept;
/// `id`'s options (defaults when `id` is no relation). O(1).
[[nodiscard]] RelationOptions relationOptions(const World& world, ComponentTypeId id) noexcept;

/// Makes `source` relate to `target` through relation `rel`: adds the
/// component (payload bytes zero) or, when `source` has it, replaces the
/// target and keeps the payload (a reparent). Adding the same target again
/// is an ok overwrite. Errors, nothing changed (state hash equal): a stale
/// `source` -> stale_entity_access; `rel` no relation ->
/// relation_not_registered; a dead, stale or null `target` (also: a handle
/// from another world whose slot is not live here) -> relation_target_stale;
/// target == source -> relation_self; target reaches source through `rel`
/// -> relation_cycle; inside a sourcesOf / eachCascade callback ->
/// relation_walk_mutation; otherwise every error of addComponentBytes
/// (iteration guard, system io, budgets). The same rules apply to
/// addComponent / addComponentBytes / command adds of a relation
/// component. O(components + depth of target + sources of the old and new
/// target), no allocation unless an archetype is created or grows.
Status addRelation(World& world, Entity source, ComponentTypeId rel, Entity target) noexcept;
/// Removes relation `rel` from `source` (a no-op ok when it has none).
/// Errors: stale `source` -> stale_entity_access; `rel` no relation ->
/// relation_not_registered; inside a walk -> relation_walk_mutation; else
/// those of removeComponentById. O(components + sources of the target).
Status removeRelation(World& world, Entity source, ComponentTypeId rel) noexcept;
/// True when live `source` has relation `rel`. O(1), no log.
[[nodiscard]] bool hasRelation(const World& world, Entity source, ComponentTypeId rel) noexcept;
/// `source`'s target through `rel`, or Entity{} (none, stale source, no
/// relation). Always a live handle when not Entity{}. O(1), no log.
[[nodiscard]] Entity targetOf(const World& world, Entity source, ComponentTypeId rel) noexcept;
/// How many entities relate to `target` through `rel` (0 for a stale
/// target or no relation). O(sources), no allocation.
[[nodiscard]] std::uint32_t sourceCount(const World& world, Entity target, ComponentTypeId rel) noexcept;

namespace detail {
/// The checks of registerRelation that need no component (moved-from,
/// phase, options, budget): the typed and named forms run them before
/// registering the component.
Status relationPrecheck(World& world, const RelationOptions& options) noexcept;
using RelationVisitFn = void (*)(void* closure, Entity source, Entity target) noexcept;
Status sourcesOfImpl(World& world, Entity target, ComponentTypeId rel, RelationVisitFn fn,
                     void* closure) noexcept;
Status eachCascadeImpl(World& world, ComponentTypeId rel, RelationVisitFn fn, void* closure) noexcept;
}  // namespace detail

/// Calls fn(Entity source) for every entity relating to `target` through
/// `rel`, in ascending slot order. Inside fn, structural relation changes
/// (add/remove of a relation, destroy, clear, restore) are refused with
/// relation_walk_mutation: record them as commands (World::defer) instead.
/// Errors, fn not called: stale `target` -> stale_entity_access; `rel` no
/// relation -> relation_not_registered. O(sources), no allocation.
template <class Fn>
Status sourcesOf(World& world, Entity target, ComponentTypeId rel, Fn&& fn);

/// Hierarchy order: calls fn(Entity source, Entity target) for every entity
/// that has relation `rel`, parents before children, depth by depth: first
/// every source whose target has no `rel` itself (depth 1; roots ascending
/// by slot, each root's sources ascending by slot), then their sources in
/// the order their targets were visited, each target's sources ascending by
/// slot, and so on. A target is always visited (or is a root) before its
/// sources, so one pass propagates transforms. Mutation rule as sourcesOf.
/// For a pass every tick, the cascade query option is the fast form:
/// Query<...>::eachCascade<Up>(world, rel, fn) in laige/query_object.h
/// (rows in a cached order, the target's Up handed to fn).
/// Errors, fn not called: moved-from world -> world_moved_from; `rel` no
/// relation -> relation_not_registered. O(highest live slot + sources), no
/// allocation.
template <class Fn>
Status eachCascade(World& world, ComponentTypeId rel, Fn&& fn);

/// Verifies the relation invariant over the whole world (tests, tools,
/// after suspicious direct writes): ok, or InvalidArgument
/// relation_invariant_broken with fields what (`target_dead`, `self`,
/// `cycle`, `index`), entity_id and component_id. O(capacity x relations +
/// depth), no allocation, no log.
[[nodiscard]] Status checkRelations(const World& world) noexcept;

// --- templates ---------------------------------------------------------------

template <class T>
Result<ComponentTypeId> registerRelation(World& world, const RelationOptions& options) noexcept {
  ComponentTypeId id = world.template componentId<T>();
  if (id == kInvalidComponentTypeId) {
    // Check the options and the phase first: a refused relation registers nothing.
    if (Status pre = detail::relationPrecheck(world, options); !pre.ok()) return pre;
    Result<ComponentTypeId> r = world.template registerComponent<T>();
    if (!r.ok()) return r;
    id = r.value();
  }
  if (Status st = registerRelation(world, id, options); !st.ok()) return st;
  return id;
}

template <class Fn>
Status sourcesOf(World& world, Entity target, ComponentTypeId rel, Fn&& fn) {
  using F = std::remove_reference_t<Fn>;
  return detail::sourcesOfImpl(
      world, target, rel,
      [](void* closure, Entity source, Entity) noexcept { (*static_cast<F*>(closure))(source); },
      static_cast<void*>(&fn));
}

template <class Fn>
Status eachCascade(World& world, ComponentTypeId rel, Fn&& fn) {
  using F = std::remove_reference_t<Fn>;
  return detail::eachCascadeImpl(
      world, rel,
      [](void* closure, Entity source, Entity target) noexcept { (*static_cast<F*>(closure))(source, target); },
      static_cast<void*>(&fn));
}

}  // namespace laige
