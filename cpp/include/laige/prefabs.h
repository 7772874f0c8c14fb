// laige/prefabs.h - prefabs: template entities that queries skip, copied
// (with their children) by instantiate (docs/prefabs.md).
//
//   laige::registerPrefabs(world);                        // setup: the Prefab tag
//   const laige::Entity tank = laige::createPrefab(world).value();
//   world.addComponent(tank, Hull{100});
//   const laige::Entity turret = laige::createPrefab(world).value();
//   world.addComponent(turret, Gun{3});
//   laige::addRelation(world, turret, childOf, tank);     // the prefab's child
//   laige::InstantiateOptions opts;  opts.hierarchy = childOf;
//   const laige::Entity t1 = laige::instantiate(world, tank, opts).value();   // + a turret child
//   const laige::ComponentValue hull = laige::valueOf(world, Hull{50});
//   const laige::Entity t2 = laige::instantiate(world, tank, opts, {&hull, 1}).value();
//
// A prefab is an ordinary entity carrying the built-in tag laige::Prefab
// (an ordinary, empty component, so the state hash, snapshots, stateDiff and
// rollback cover prefabs with nothing added). Every query (Query<...>,
// World::each, the run-time queries of the bindings, their counts) skips
// archetypes holding the tag unless one of
// its terms names laige::Prefab (With<Prefab> matches only prefabs,
// Optional<Prefab> both). The world remembers the tag's component id (set by
// registerPrefabs); a world that never registers it matches exactly as
// before.
#pragma once

#include <cstdint>
#include <span>

#include "laige/commands.h"
#include "laige/component.h"
#include "laige/entity.h"
#include "laige/result.h"
#include "laige/world.h"

namespace laige {

/// The built-in prefab mark: an empty tag (stored with size 0, registered
/// under the name "Prefab" by registerPrefabs).
struct Prefab {};
LAIGE_COMPONENT(Prefab);

/// How instantiate walks a prefab's hierarchy.
struct InstantiateOptions {
  /// The relation whose sources are the prefab's children (e.g. ChildOf):
  /// every entity relating to the prefab through it is instantiated as a
  /// source of the instance, recursively. 0: the prefab alone (its copied
  /// relations keep their targets). Given per call rather than stored in
  /// the world: a prefab is only components (nothing else to snapshot), and
  /// a world with several relations (ChildOf, AttachedTo) says which one
  /// forms the tree it copies.
  ComponentTypeId hierarchy = 0;
};

/// One component value for an instance (an override of the prefab's value).
struct ComponentValue {
  ComponentTypeId id = 0;
  const void* bytes = nullptr;
  std::uint32_t size = 0;
};

/// A ComponentValue naming `value` (which must outlive the call using it).
/// id 0 when T is not registered (instantiate refuses it).
template <class T>
[[nodiscard]] ComponentValue valueOf(const World& world, const T& value) noexcept {
  return ComponentValue{world.template componentId<T>(), &value, static_cast<std::uint32_t>(sizeof(T))};
}

/// Registers the Prefab tag (or adopts laige::Prefab when already
/// registered) and makes queries skip archetypes holding it; returns its
/// id. Idempotent. A setup call: it adds a component, so snapshots taken
/// before it do not restore after it (setup mismatch), and the restoring
/// world must have called it too. Errors as World::registerComponent
/// (component_duplicate for another component named "Prefab",
/// component_budget, world_moved_from). O(1) after the first call; the first
/// allocates the registry entry.
Result<ComponentTypeId> registerPrefabs(World& world) noexcept;
/// The Prefab tag's id, or 0 when registerPrefabs was not called. O(1).
[[nodiscard]] ComponentTypeId prefabTag(const World& world) noexcept;
/// Creates an entity carrying the Prefab tag (registering the tag first when
/// needed). Errors, nothing created: those of registerPrefabs and
/// World::create (entity_budget_exhausted); inside a system the tag must be
/// in its io (system_io_violation); inside an each whose query names the
/// tag -> iteration_mutation; a new {Prefab} set past kMaxArchetypes ->
/// archetype_budget. Only a storage allocation failure of the add
/// (archetype_alloc_failed) is reported after the create: the entity is
/// destroyed again (its slot's generation raised). O(1), no allocation
/// unless an archetype is created or grows.
Result<Entity> createPrefab(World& world) noexcept;
/// Marks live `e` as a prefab (adds the tag; a no-op overwrite when marked).
/// Errors: stale `e` -> stale_entity_access; otherwise those of
/// registerPrefabs and addComponentBytes. O(components).
Status makePrefab(World& world, Entity e) noexcept;
/// True when live `e` carries the Prefab tag. O(1), no log.
[[nodiscard]] bool isPrefab(const World& world, Entity e) noexcept;

/// Instantiates `prefab`: a new entity with every component of the prefab
/// but the Prefab tag (relations keep their targets; the hierarchy relation
/// of the prefab itself is not copied: an instance is a root), then, when
/// options.hierarchy names a relation, one new entity per entity of the
/// prefab's tree (its sources through that relation, recursively), each a
/// copy of its template whose hierarchy target is the instance of its
/// template's parent. Order and handles: the tree is walked breadth first
/// (the prefab, then its sources ascending by slot, then theirs in the order
/// their parents were taken) and entities are created in that order, each
/// taking the slot World::create would hand out. `overrides` replace values
/// of the root instance (each must name a non-relation component the prefab
/// holds, with its registered size; a later entry wins).
///
/// One structural change, all or nothing: every check runs before anything
/// changes. Errors, nothing changed (state hash equal): moved-from world ->
/// world_moved_from; Prefab tag not registered or `prefab` not marked ->
/// InvalidArgument prefab_not_a_prefab (fields entity_id, generation); stale `prefab`
/// -> stale_entity_access; options.hierarchy not a relation ->
/// relation_not_registered; a bad override -> InvalidArgument
/// prefab_override_invalid (fields component_id, why: unregistered, size,
/// absent, relation, tag); inside a live each or a running system ->
/// InvalidArgument iteration_mutation (operation instantiate: use
/// instantiateDeferred); inside a sourcesOf / eachCascade callback ->
/// relation_walk_mutation; fewer free entity slots than the tree's size ->
/// BudgetExhausted entity_budget_exhausted (fields needed, entity_count,
/// capacity); new component sets past kMaxArchetypes -> BudgetExhausted
/// archetype_budget; storage not allocatable -> BudgetExhausted
/// archetype_alloc_failed (archetypes created or grown by the attempt may
/// stay: storage only, not state). Observer OnAdd events queue per entity
/// and component, in creation order, and run once at the end.
/// Cost: O(tree size x components) plus O(archetypes) per distinct new
/// component set; no allocation unless an archetype is created or grows.
Result<Entity> instantiate(World& world, Entity prefab, const InstantiateOptions& options = {},
                           std::span<const ComponentValue> overrides = {}) noexcept;

/// The deferred form (inside a system, a live each or a defer; records into
/// world.commands(), the buffer SystemContext::commands is): creates the
/// tree's entities now (as CommandBuffer::create does, in the order and with
/// the handles instantiate would give) and records, per new entity and in
/// that order, one add per component (signature order; the hierarchy
/// relation naming the new parent; the overrides on the root). The adds
/// apply at the phase's end like every command (recorded values: the
/// prefab's values now). Returns the root instance. All or nothing at
/// record time: every check runs, and the buffer grows, before any entity
/// is created. Errors: outside a phase -> command_outside_phase; the
/// prefab, hierarchy and override errors of instantiate; with a hierarchy,
/// inside a sourcesOf / eachCascade callback -> relation_walk_mutation (the
/// tree walk shares the relation walks' scratch); too few free slots
/// -> entity_budget_exhausted; inside a system a component of the tree
/// outside its io -> system_io_violation; the buffer cannot grow ->
/// command_buffer_alloc_failed. Apply-time failures are those of the
/// recorded adds (skipped and counted like any command). O(tree size x
/// components); no allocation unless the buffer grows.
Result<Entity> instantiateDeferred(World& world, Entity prefab, const InstantiateOptions& options = {},
                                   std::span<const ComponentValue> overrides = {}) noexcept;

}  // namespace laige
