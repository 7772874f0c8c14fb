// laige/archetype.h - archetype SoA storage: ids, limits and accounting.
//
// An archetype is one component SET. Every entity with components lives in
// exactly one archetype, as one row: one byte column per component (base
// aligned to 32) plus a slot column. Archetypes are created on first
// sighting, get dense ids from 1 in creation order, and are never destroyed.
//
// The visit-order invariant (I2): every ORDERED read of an archetype (each,
// the column views, later the state hash and diff) sees its rows in strictly
// ascending slot order. Structural changes do not pay for that eagerly: an
// insert appends, a removal tombstones, and the archetype is normalised (one
// ordered merge) before its next ordered read. The operations live on World
// (world.h); this header holds the types they share.
// Contract: docs/archetype.md.
#pragma once

#include <cstdint>

namespace laige {

/// An archetype's id in one world: dense from 1 in creation (first-seen)
/// order. 0 means "no archetype": an entity without components.
using ArchetypeId = std::uint16_t;
/// The id of "no archetype" (a component-less or dead entity).
inline constexpr ArchetypeId kNoArchetype = 0;
/// Archetypes (distinct component sets) per world; the 257th set is
/// BudgetExhausted + warn ecs/archetype_budget.
inline constexpr std::uint32_t kMaxArchetypes = 256;
/// Components per archetype (per entity); the 33rd is BudgetExhausted +
/// warn ecs/component_limit.
inline constexpr std::uint32_t kMaxArchetypeComponents = 32;
/// Rows an archetype reserves at creation (at most the world's row cap).
inline constexpr std::uint32_t kInitialArchetypeRows = 16;
/// Byte alignment of every column's base.
inline constexpr std::uint32_t kArchetypeColumnAlignment = 32;

/// The archetype storage's accounting snapshot (docs/archetype.md). All
/// counters are since construction and pure functions of the operation
/// sequence (never of addresses or timing).
struct ArchetypeStats {
  /// Archetypes created (empty ones included: never destroyed).
  std::uint32_t archetypeCount = 0;
  /// Live rows over all archetypes (= live entities that have components).
  std::uint32_t rowsLive = 0;
  /// Reserved rows over all archetypes (sum of row capacities).
  std::uint32_t rowsReserved = 0;
  /// Reserved column bytes: sum over archetypes of rowCapacity x (sum of
  /// component sizes + 4 slot-column bytes).
  std::uint64_t bytesReserved = 0;
  /// Successful adds, in-place overwrites included (the churn semantics).
  std::uint64_t totalAdds = 0;
  /// removeComponent calls that detached a row (no-ops not counted; destroy
  /// and clear detaches not counted either).
  std::uint64_t totalRemoves = 0;
  /// Column reallocations by growth (one per archetype growth event).
  std::uint64_t totalArchetypeGrowth = 0;
  /// Storage reservations: one per archetype creation plus one per growth.
  std::uint64_t totalReservations = 0;
  /// Rows physically relocated by normalisation and compaction (the cost of
  /// keeping the slot order; a row that stays in place is not counted).
  std::uint64_t totalRowShifts = 0;
  /// Rows detached by destroy() and clear() (not churn; extra field).
  std::uint64_t totalDestroyDetaches = 0;
  /// Bytes of the per-world normalisation scratch (extra field; grown only
  /// when an archetype is created or grows).
  std::uint64_t bytesScratch = 0;
};

}  // namespace laige
