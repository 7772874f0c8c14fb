// laige/detail/ecs_state.h - the component registry, the archetype tables
// and the iteration guard a World owns (internal).
//
// Row layout of an archetype: rows [0, rowCount) of which `holes` are
// tombstones (slot column entry kTombstone). Rows [0, sortedRows) are in
// strictly ascending slot order (tombstones aside); rows [sortedRows,
// rowCount) are an unsorted appended tail. An insert appends (O(1)); a
// removal tombstones (O(1)), or pops when it is the last row. normalize()
// restores the packed, slot-ordered form (invariant I2) before any ordered
// read: it sorts the tail by slot id (slot ids are unique, so the sort's
// stability never matters), merges it with the prefix into a permutation,
// and gathers every column through preallocated scratch.
// `docs/archetype.md#deferred-ordering`.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "laige/archetype.h"
#include "laige/component.h"
#include "laige/entity.h"
#include "laige/query.h"
#include "laige/result.h"

namespace laige::detail {

/// The bit of Archetype::copyOk (and the index of copyStamp) for the rows.
inline constexpr std::uint32_t kCopyRowsBit = kMaxArchetypeComponents;
/// Slot column entry of a removed row.
inline constexpr std::uint32_t kTombstone = 0xFFFFFFFFu;
/// An add/remove edge not computed yet (0 is a valid answer: "no archetype").
inline constexpr std::uint16_t kEdgeUnknown = 0xFFFF;

/// One registered component (owned strings; the field views point into
/// fieldNames, which is filled once and never resized).
struct RegisteredComponent {
  ComponentTypeId id = kInvalidComponentTypeId;
  std::uint32_t size = 0;
  std::uint32_t alignment = 1;
  std::uint32_t typeIndex = 0;  // 0 for a runtime-described component
  std::string name;
  std::vector<std::string> fieldNames;
  std::vector<ComponentField> fields;
};

/// One byte column: rowCapacity x size bytes at `data` (aligned to 32).
struct Column {
  std::unique_ptr<std::uint8_t[]> block;  // the allocation (over-allocated by 31 B)
  std::uint8_t* data = nullptr;
  std::uint32_t size = 0;
  ComponentTypeId id = kInvalidComponentTypeId;
};

/// One archetype (a component set). Heap-allocated once and never moved, so
/// creating another archetype never invalidates its columns.
struct Archetype {
  ArchetypeId id = kNoArchetype;
  std::uint32_t componentCount = 0;
  ComponentTypeId sig[kMaxArchetypeComponents] = {};  // strictly ascending
  std::uint32_t fingerprint = 0;                      // FNV-1a-32 over sig (shortcut only)
  std::uint32_t rowBytes = 0;                         // sum of column sizes
  std::uint32_t maxColumnSize = 0;
  // The move plan of a row move whose copied columns are this archetype's
  // (an add from it, a remove to it): 8 or 4 when every column is that
  // size (each column one fixed-size move at one row offset computed once
  // per move, no per-column size load or dispatch), else 0 (per-column
  // sizes). Fixed when the archetype is built.
  std::uint32_t uniformColumnSize = 0;
  std::uint8_t colOf[kMaxComponentTypes + 1] = {};    // component id -> column index + 1
  std::uint16_t addEdge[kMaxComponentTypes + 1];      // set + {c} (kEdgeUnknown until seen)
  std::uint16_t removeEdge[kMaxComponentTypes + 1];   // set - {c}
  Column cols[kMaxArchetypeComponents];
  std::unique_ptr<std::uint8_t[]> slotBlock;          // the slot column's allocation
  std::uint32_t* slots = nullptr;                     // slot id per row, or kTombstone
  std::uint32_t rowCount = 0;
  std::uint32_t rowCapacity = 0;
  std::uint32_t sortedRows = 0;
  std::uint32_t holes = 0;
  // The column checksum's cache (docs/determinism.md#the-column-checksum;
  // state_checksum.cpp): bit k set when colHash[k] is the hash of column
  // k's live rows as they are now. Every path that writes a column or
  // changes the rows clears bits (appendRow and removeRow clear all; a Write
  // ref, a Write walk, an overwrite and markChanged clear the column's bit),
  // so a set bit is never stale. One store next to rowCount.
  std::uint32_t colHashOk = 0;
  // The rollback ring's copy tracking (snapshot.cpp, noteSnapshotWrites;
  // docs/rollback.md#costs): bit k (k < 32) clear when column k may have
  // been written since the last ring snapshot looked, bit kCopyRowsBit clear
  // when the rows (the slot column, the row count) may have changed. The
  // same paths that clear colHashOk bits clear these (a second mask: the
  // checksum sets its bits back on its own schedule). 0 for a new archetype.
  std::uint64_t copyOk = 0;
  // Change-tracking bounds (docs/changes.md#cost; change_ticks.cpp): per
  // column the newest per-entity mark made while in this archetype and the
  // stamp of the last unfiltered Write walk over it (which applies to every
  // row it walked: cheaper than a store per row); the stamp of the last
  // row that moved in (carrying ticks up to it). A filtered walk skips the
  // archetype when all are <= its since.
  std::uint32_t colTick[kMaxArchetypeComponents] = {};
  std::uint32_t bulkTick[kMaxArchetypeComponents] = {};
  std::uint32_t moveInTick = 0;
  bool hasBulk = false;
  std::uint64_t colHash[kMaxArchetypeComponents] = {};
  // Per column (and [kCopyRowsBit] for the rows): the world's copy clock
  // when a ring snapshot last saw the section changed (noteSnapshotWrites).
  std::uint64_t copyStamp[kMaxArchetypeComponents + 1] = {};

  Archetype() noexcept;
  /// Live rows (rows minus tombstones).
  [[nodiscard]] std::uint32_t liveRows() const noexcept { return rowCount - holes; }
  /// True when an ordered read must normalise first.
  [[nodiscard]] bool dirty() const noexcept { return holes != 0 || sortedRows != rowCount; }
  /// The column of component `c`, or nullptr.
  [[nodiscard]] Column* column(ComponentTypeId c) noexcept {
    return c <= kMaxComponentTypes && colOf[c] != 0 ? &cols[colOf[c] - 1] : nullptr;
  }
};

/// Forgets what the write caches (the column checksum's, the ring's) know
/// of column `k` of `a`: the column may have been written.
inline void forgetColumnCaches(Archetype& a, std::uint32_t k) noexcept {
  a.colHashOk &= ~(std::uint32_t{1} << k);
  a.copyOk &= ~(std::uint64_t{1} << k);
}

/// The live iteration's guard (docs/query.md): installed by beginIteration or a
/// query's begin, removed by endIteration. `matched` is a copy taken at
/// begin, so an archetype created during the iteration is never in it; its
/// ascending bit order is the walk order (the only ordered use of it).
struct IterationGuard {
  bool active = false;
  IdSet256 matched;  // archetype ids the iteration walks
  IdSet256 read;     // component ids declared Read
  std::uint32_t matchedCount = 0;
};

/// Everything component-related a World owns.
struct EcsState {
  explicit EcsState(std::uint32_t capacity);

  // --- registry
  std::vector<std::unique_ptr<RegisteredComponent>> components;  // [id - 1]
  std::vector<ComponentTypeId> typeToId;  // process type index -> id (0 = unregistered)

  // --- archetypes
  std::vector<std::unique_ptr<Archetype>> archetypes;  // [id]; [0] is null ("none")
  std::uint16_t rootEdge[kMaxComponentTypes + 1];      // {} + {c}
  std::unique_ptr<ArchetypeId[]> archetypeOf;          // per slot (0 = none)
  std::unique_ptr<std::uint32_t[]> rowOf;              // per slot
  std::uint32_t capacity = 0;
  std::uint32_t maxRows = 1;  // row cap per archetype: capacity + capacity / 4

  // --- normalisation scratch (grown only at archetype creation or growth;
  // raw arrays: the contents are dead between two normalisations, so a
  // growth neither copies nor zero-fills them)
  std::unique_ptr<std::uint32_t[]> scratchPerm;  // scratchRows entries
  std::unique_ptr<std::uint32_t[]> scratchKeys;  // 2 x scratchRows (radix ping-pong)
  std::unique_ptr<std::uint8_t[]> scratchBytes;  // scratchByteCount bytes
  std::uint32_t scratchRows = 0;
  std::uint64_t scratchByteCount = 0;

  // --- accounting
  ArchetypeStats stats;

  // --- iteration legality
  IterationGuard guard;

  // --- restore: raised when a restore replaced or dropped archetypes, so
  // that caches keyed by archetype ids rebuild (World::structureEpoch).
  std::uint64_t structureEpoch = 0;

  // --- the rollback ring's copy tracking (snapshot.cpp, noteSnapshotWrites):
  // the clock each ring snapshot raises, and the entity section's stamp
  // (as Archetype::copyStamp).
  std::uint64_t copyClock = 0;
  std::uint64_t entitiesCopyStamp = 0;

  // --- prefabs (laige/prefabs.h): the Prefab tag's id (0 = never
  // registered); queries skip archetypes holding it unless a term names it.
  ComponentTypeId prefabTag = 0;

  /// Detaches slot `slot`'s row, if any (destroy/clear). Not churn.
  void detachRow(std::uint16_t slot) noexcept;
  /// The same, never inlined: for the cold callers (clear, relations).
  void detachRowOutOfLine(std::uint16_t slot) noexcept;
};

/// Restores archetype `a` to packed, ascending-slot rows (no-op when clean):
/// rows [0, liveRows) strictly ascending by slot, rowOf rewritten for every
/// row that moved. No allocation (preallocated scratch).
void normalize(EcsState& s, Archetype& a) noexcept;
/// Normalises every archetype (the entry point of the state hash and of
/// any other ordered read over all archetypes).
void normalizeAll(EcsState& s) noexcept;
/// appendRow's failure value (never a row index: rows are < 2^17).
inline constexpr std::uint32_t kAppendFailed = 0xFFFFFFFFu;
/// The cold half of appendRow for a full archetype: compacts when holes >=
/// rowCapacity / 8, else grows x2 (capped at maxRows), else compacts. False
/// when a growth allocation fails (nothing changed then, apart from an
/// unobservable compaction).
bool makeRoom(EcsState& s, Archetype& a) noexcept;
/// Appends a row for `slot` and returns its index, or kAppendFailed. Inline
/// with a plain integer result: it is the hottest call of every add and
/// remove (an optional returned through memory costs a store-forwarding
/// stall, and the growth path's frame belongs in makeRoom).
inline std::uint32_t appendRow(EcsState& s, Archetype& a, std::uint32_t slot) noexcept {
  if (a.rowCount == a.rowCapacity && !makeRoom(s, a)) return kAppendFailed;
  const std::uint32_t r = a.rowCount++;
  a.slots[r] = slot;
  a.colHashOk = 0;
  a.copyOk = 0;
  // Appending above the sorted prefix's last slot extends the prefix, so
  // ascending creation never needs a normalisation.
  if (a.sortedRows == r && (r == 0 || (a.slots[r - 1] != kTombstone && a.slots[r - 1] < slot))) {
    a.sortedRows = r + 1;
  }
  return r;
}
/// Removes row `row`: pops it (and any tombstones below it) when it is the
/// last row, else tombstones it. O(1) amortised.
inline void removeRow(Archetype& a, std::uint32_t row) noexcept {
  a.colHashOk = 0;
  a.copyOk = 0;
  if (row + 1 == a.rowCount) {
    --a.rowCount;
    // Pop the tombstones the popped row uncovers: each is popped once.
    while (a.rowCount != 0 && a.slots[a.rowCount - 1] == kTombstone) {
      --a.rowCount;
      --a.holes;
    }
    if (a.sortedRows > a.rowCount) a.sortedRows = a.rowCount;
  } else {
    a.slots[row] = kTombstone;
    ++a.holes;
    if (a.holes == a.rowCount) a.rowCount = a.sortedRows = a.holes = 0;  // all dead
  }
}
/// Copies one component value; fixed sizes become plain moves.
inline void copyValue(void* to, const void* from, std::uint32_t size) noexcept {
  switch (size) {
    case 0: return;
    case 4: std::memcpy(to, from, 4); return;
    case 8: std::memcpy(to, from, 8); return;
    case 12: std::memcpy(to, from, 12); return;
    case 16: std::memcpy(to, from, 16); return;
    default: std::memcpy(to, from, size); return;
  }
}
/// Copies one component value of a row move when its size is 0, 4, 8, 12
/// or 16 bytes (fixed-size moves, no call) and answers true; any other size
/// answers false and is left to the caller (a memcpy outside the column
/// loop: one possible call inside that loop makes the compiler save and
/// restore the loop's registers around it on every move).
inline bool copyRowValue(std::uint8_t* to, const std::uint8_t* from, std::uint32_t size) noexcept {
  switch (size) {
    case 0: return true;
    case 4: std::memcpy(to, from, 4); return true;
    case 8: std::memcpy(to, from, 8); return true;
    case 12: std::memcpy(to, from, 12); return true;
    case 16: std::memcpy(to, from, 16); return true;
    default: return false;
  }
}
/// The archetype whose signature is sig[0..n) (strictly ascending), or
/// kNoArchetype. O(archetypes), fingerprint first.
ArchetypeId findArchetype(const EcsState& s, const ComponentTypeId* sig, std::uint32_t n) noexcept;
/// Creates the archetype for sig[0..n) with the next id (the caller checked
/// the budget) and logs ecs/archetype_created. nullptr when an allocation
/// fails.
Archetype* createArchetype(EcsState& s, const ComponentTypeId* sig, std::uint32_t n) noexcept;
/// An archetype for sig[0..n) with room for at least `rows` rows, NOT
/// added to the table and without an id (the restore stages it first).
/// nullptr when an allocation fails.
std::unique_ptr<Archetype> buildArchetype(EcsState& s, const ComponentTypeId* sig, std::uint32_t n,
                                          std::uint32_t rows) noexcept;
/// Grows `a` to at least `rows` rows (no-op when it has them); the rows it
/// holds are kept. False when an allocation fails (nothing changed).
bool reserveArchetypeRows(EcsState& s, Archetype& a, std::uint32_t rows) noexcept;
/// Forgets every cached add/remove edge (after a restore changed the table).
void resetArchetypeEdges(EcsState& s) noexcept;
/// Forgets the cached column hash of component `c` of slot `slot`'s
/// archetype (a Write ref, an overwrite, markChanged). O(1).
inline void forgetColumnHash(EcsState& s, std::uint32_t slot, ComponentTypeId c) noexcept {
  const ArchetypeId aid = s.archetypeOf[slot];
  if (aid == kNoArchetype || c > kMaxComponentTypes) return;
  Archetype& a = *s.archetypes[aid];
  if (a.colOf[c] != 0) forgetColumnCaches(a, a.colOf[c] - 1u);
}

}  // namespace laige::detail

namespace laige::detail {
struct WorldState;
/// The id of the `index`th member of `set` in ascending order, or 0.
ArchetypeId nthMember(const IdSet256& set, std::uint32_t index) noexcept;
/// The guard's nested rule: a live iteration rejects every begin (misuse
/// assert / InvalidArgument reason iteration_nested + warn).
Status nestedIteration(const WorldState& s) noexcept;
/// The guard's destroy rule: ok unless an iteration is live and e's
/// archetype is matched (then misuse assert / InvalidArgument + warn
/// ecs/iteration_mutation). `e` must be live.
Status guardDestroy(const WorldState& s, Entity e) noexcept;
/// The guard's clear rule: ok unless a matched archetype holds live rows
/// (then misuse assert / InvalidArgument + warn ecs/iteration_clear).
Status guardClear(const WorldState& s) noexcept;
/// The guard's in-place write rule (call only while s.ecs.guard.active):
/// rejects a write of a Read-declared component (ecs/iteration_write_during_read).
Status guardInPlace(const WorldState& s, Entity e, ComponentTypeId c, ArchetypeId at) noexcept;
/// The guard's structural rule (call only while active): rejects a move
/// whose source or target archetype is matched (ecs/iteration_mutation).
/// `to` is kNoArchetype for the empty set or a set not created yet.
Status guardMove(const WorldState& s, Entity e, ComponentTypeId c, ArchetypeId from,
                 ArchetypeId to) noexcept;
}  // namespace laige::detail
