// laige/detail/relation_state.h - what relations keep in a World (internal;
// docs/relations.md).
//
// A relation is a registered component whose first 4 bytes hold the target
// entity's handle bits: the component bytes are the authoritative state (so
// the state hash, snapshots and stateDiff cover relations with no extra
// section). Everything here is derived from those bytes: the reverse index
// (per target slot, its sources as a singly linked list in ascending slot
// order) is rebuilt from them after every restore and reset by clear().
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "laige/component.h"
#include "laige/entity.h"
#include "laige/query.h"
#include "laige/result.h"

namespace laige {
class World;
}  // namespace laige

namespace laige::detail {

struct WorldState;
struct EcsState;
struct QueryCache;
struct QuerySpec;
struct QueryRun;
struct CascadeRun;

/// "No slot" in the reverse index lists.
inline constexpr std::uint32_t kNoSlot = 0xFFFFFFFFu;

/// One entry of a relation's hierarchy order (the cascade query option,
/// `docs/relations.md#the-cascade-query-option`): an entity with a row, its
/// row, and its target's row (parentArch 0: no target, or a target without
/// components). 16 bytes, read front to back by the pass.
struct CascadeEntry {
  std::uint32_t slot;
  std::uint16_t arch;
  std::uint16_t parentArch;
  std::uint32_t row;
  std::uint32_t parentRow;
};

/// The hierarchy order of one relation, derived like the reverse index and
/// rebuilt by the first cascade pass after anything it depends on changed:
/// the relation (every link / unlink, clear, restore sets `valid` false)
/// or any row's place (keyed by the world's row-moving counters).
struct CascadeOrder {
  /// capacity entries, allocated by the first cascade pass over the relation.
  std::unique_ptr<CascadeEntry[]> entries;
  std::uint32_t count = 0;
  bool valid = false;
  /// The counters the entries were built at (ArchetypeStats and the epoch).
  std::uint64_t adds = 0, removes = 0, shifts = 0, detaches = 0, epoch = 0;
  /// Archetypes holding a target row some entry names (the pass guards them
  /// like matched archetypes, so no target row moves while it runs).
  IdSet256 parentArchetypes;
};

/// One registered relation: its component, options and reverse index.
struct RelationRecord {
  ComponentTypeId component = 0;
  std::uint8_t onTargetDestroyed = 0;  // OnTargetDestroyed
  /// firstSource[target slot]: the lowest source slot naming it, or kNoSlot.
  std::unique_ptr<std::uint32_t[]> firstSource;
  /// nextSource[source slot]: the next higher source slot of the same target.
  std::unique_ptr<std::uint32_t[]> nextSource;
  /// The hierarchy order for cascade passes (derived; not in snapshots).
  CascadeOrder cascade;
};

/// Everything a World keeps for relations.
/// The relation paths the world's structural calls take once a relation is
/// registered. They are reached through this table, installed by the first
/// registerRelation, rather than called directly: a program (or the wasm
/// module) that never registers a relation links none of the relation code.
struct RelationHooks {
  Status (*add)(World& w, Entity e, ComponentTypeId c, const void* bytes) noexcept;
  Status (*remove)(World& w, Entity e, ComponentTypeId c) noexcept;
  Status (*destroy)(World& w, Entity e) noexcept;
  void (*resetIndex)(WorldState& ws) noexcept;
  void (*rebuildIndex)(WorldState& ws) noexcept;
};

struct RelationState {
  /// The relation paths (nullptr until the first relation is registered).
  const RelationHooks* hooks = nullptr;
  /// Registration order (the cascade and the setup identity walk it).
  std::vector<RelationRecord> relations;
  /// relationOf[c]: index + 1 into `relations`, 0 when c is no relation.
  std::uint8_t relationOf[kMaxComponentTypes + 1] = {};
  /// Per-slot scratch (capacity entries, allocated with the first relation):
  /// the cascade's and the depth walk's queue, the restore check's targets.
  std::unique_ptr<std::uint32_t[]> queue;
  /// Per-slot depth scratch of a cascade order's rebuild (capacity entries,
  /// allocated by the first cascade pass of the world).
  std::unique_ptr<std::uint32_t[]> depth;
  /// The rows of one eachSourceOf pass (capacity entries, allocated by the
  /// world's first such pass; rewritten by every pass).
  std::unique_ptr<CascadeEntry[]> sourceRows;
  /// Per-slot visit marks (== markEpoch: visited in the current walk).
  std::unique_ptr<std::uint32_t[]> mark;
  std::uint32_t markEpoch = 0;
  /// True while a relation walk (sourcesOf, eachCascade) calls user code.
  std::uint32_t walking = 0;
};

/// The target handle bits a relation value holds (its first 4 bytes).
inline std::uint32_t relationTargetBits(const void* value) noexcept {
  std::uint32_t bits;
  __builtin_memcpy(&bits, value, 4);
  return bits;
}

/// The relation paths of World's structural calls (relations.cpp): they
/// check the relation rules, run the plain call, then keep the index.
struct RelationAccess {
  /// An add of relation component `c` to live `e` (value `bytes`).
  static Status add(World& w, Entity e, ComponentTypeId c, const void* bytes) noexcept;
  /// A remove of relation component `c` from live `e`.
  static Status remove(World& w, Entity e, ComponentTypeId c) noexcept;
  /// A destroy of live `e` in a world with relations: the cascade.
  static Status destroy(World& w, Entity e) noexcept;
  static WorldState& state(World& w) noexcept;
  static const WorldState& state(const World& w) noexcept;
  /// The begin of a cascade pass (Query::eachCascade; relation_cascade.cpp):
  /// the checks, the query's begin, the order brought up to date, the
  /// guard widened to the target rows, the walk flag raised. With a
  /// non-null `target` (Query::eachSourceOf) the rows walked are those of
  /// target's sources, ascending slot, instead of the hierarchy order.
  static Status beginCascade(World& w, QueryCache& cache, const QuerySpec& spec, QueryRun& run,
                             ComponentTypeId rel, ComponentTypeId up, bool upWritten, CascadeRun& out,
                             Entity target = Entity{}) noexcept;
  /// The end of a cascade pass: the walk flag dropped, then endIteration.
  static void endCascade(World& w) noexcept;
};

/// The bytes of slot `slot`'s component `c`, or nullptr when it lacks it.
const std::uint8_t* valueOfSlot(const EcsState& ecs, std::uint32_t slot, ComponentTypeId c) noexcept;
/// relation_not_registered for component `c`.
Status notRelationStatus(ComponentTypeId c) noexcept;
/// relation_walk_mutation for `operation` (add, remove, destroy, clear, restore).
Status walkMutation(const char* operation) noexcept;

/// Unlinks source `slot` of relation `r` from target slot `target`'s list.
void unlinkSource(RelationRecord& r, std::uint32_t target, std::uint32_t slot) noexcept;
/// Links source `slot` into target slot `target`'s list (ascending order).
void linkSource(RelationRecord& r, std::uint32_t target, std::uint32_t slot) noexcept;
/// A destroy of live slot `slot` is about to detach its row: unlinks it from
/// the lists of every target it names.
void unlinkDestroyed(WorldState& ws, std::uint32_t slot) noexcept;
/// clear(): every list empty.
void resetRelationIndex(WorldState& ws) noexcept;
/// After a restore: the index rebuilt from the component bytes.
void rebuildRelationIndex(WorldState& ws) noexcept;

}  // namespace laige::detail
