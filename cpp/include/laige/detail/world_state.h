// laige/detail/world_state.h - the World's owned state (internal).
//
// Everything a World owns lives in one heap block behind a unique_ptr, so a
// move is a pointer swap and a moved-from world is simply "no state".
#pragma once

#include <cstdint>
#include <memory>

#include "laige/commands.h"
#include "laige/detail/change_state.h"
#include "laige/detail/ecs_state.h"
#include "laige/detail/query_cache.h"
#include "laige/detail/relation_state.h"
#include "laige/detail/system_registry.h"
#include "laige/entity.h"
#include "laige/world.h"

namespace laige::detail {

/// One cache of world.each: the listed type list's key (0 = free slot),
/// its cache and the resolved ids (in listed order).
struct EachCacheSlot {
  std::uint32_t key = 0;
  QueryCache cache;
  ComponentTypeId ids[kMaxArchetypeComponents] = {};
};
/// world.each caches per world (open addressing by key; a world that uses
/// more distinct type lists walks the rest uncached, still correctly).
inline constexpr std::uint32_t kEachCacheSlots = 64;

/// A process-wide serial per WorldState (1, 2, 3, ...): what a query's
/// cache is keyed on. Never simulation state.
std::uint64_t allocateWorldSerial() noexcept;

/// The state behind a live World. Allocated once by World::create.
struct WorldState {
  explicit WorldState(const World::Options& o)
      : options(o),
        entities(o.capacity, /*firstGeneration=*/1),
        ecs(entities.capacity()),
        bornIn(new std::uint32_t[entities.capacity() == 0 ? 1 : entities.capacity()]()) {
    for (int i = 0; i < 3; ++i) {
      budgetThreshold[i] = static_cast<std::uint32_t>(
          std::uint64_t{o.capacity} * (i == 0 ? 25u : i == 1 ? 50u : 100u) / 100u);
    }
    commands.s_ = this;
  }

  /// Detaches slot `id`'s component row, if any (the component layer).
  void detachRow(std::uint16_t id) noexcept { ecs.detachRow(id); }

  /// Counts `n` component changes for the churn budget (World::noteChurn). Inline: every
  /// add and remove calls it; the once-per-frame warning is the cold half.
  void noteChurn(std::uint32_t n) noexcept {
    frameChurn += n;
    const std::uint32_t budget = options.churnPerFrameBudget;
    if (budget != 0 && frameChurn > budget && !churnWarnedThisFrame) warnChurn();
  }
  /// The first crossing of the churn budget in a frame: flag, count, warn (world.cpp).
  void warnChurn() noexcept;

  World::Options options;
  Entities entities;  // generations start at 1: Entity{} is never valid
  // Components, archetypes and the iteration guard (archetype.cpp,
  // component.cpp, query.cpp). Declared after `entities`: sized from it.
  EcsState ecs;
  std::uint32_t peakInUse = 0;
  std::uint64_t totalCreated = 0;
  std::uint64_t totalDestroyed = 0;

  // entity budget
  std::uint32_t budgetThreshold[3] = {0, 0, 0};
  bool budgetWarnedThisFrame[3] = {false, false, false};
  std::uint32_t entityBudgetWarns[3] = {0, 0, 0};
  std::uint32_t entityBudgetLevel = 0;
  // churn budget
  std::uint32_t frameChurn = 0;
  bool churnWarnedThisFrame = false;
  std::uint32_t churnWarns = 0;

  // Systems: the registry, the run state and the timing feed (system.cpp).
  SystemRegistry systems;

  // Entities created during an iteration are not visited by it
  // (`docs/query.md#entities-created-during-an-iteration`): per slot, the
  // serial of the iteration that was live when the slot's entity was
  // created (0 = none); allocated here so create() and each<>() never do.
  std::unique_ptr<std::uint32_t[]> bornIn;
  std::uint32_t iterationSerial = 0;
  /// Starts a new iteration's serial (beginIteration; reentrancy.cpp).
  void beginIterationSerial() noexcept;
  /// Marks slot `id` as created now (World::create).
  void noteCreated(std::uint32_t id) noexcept {
    bornIn[id] = ecs.guard.active ? iterationSerial : 0;
  }
  // Queries (query_cache.cpp): this state's serial and world.each's caches,
  // allocated with the world so that no each call ever allocates.
  std::uint64_t serial = allocateWorldSerial();
  EachCacheSlot eachCaches[kEachCacheSlots];
  EachCacheSlot eachScratch;  // the uncached fallback, reset every call

  // Deferred commands (commands.cpp; docs/commands.md): the one buffer every
  // phase records into, and the open World::defer phases.
  CommandBuffer commands;
  std::uint32_t deferDepth = 0;

  // Change ticks, removed logs and observers (laige/changes.h).
  ChangeState changes;
  // Relations' derived reverse index (laige/relations.h).
  RelationState relations;
  // The snapshot setup identity and the registration counts it was computed
  // for (snapshot.cpp: snapshotSetupIdentity; 0 = none yet).
  mutable std::uint64_t setupIdentity = 0;
  mutable std::uint64_t setupIdentityKey = 0;
  /// True while a phase is open: a system runs, an each is live, a defer is open.
  [[nodiscard]] bool commandPhaseOpen() const noexcept {
    return systems.current != 0 || ecs.guard.active || deferDepth != 0;
  }
};

}  // namespace laige::detail
