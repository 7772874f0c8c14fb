// laige/desync.h - finding where two runs disagree (docs/desync.md): per-system
// checkpoints, the state hash tree, and the desync report.
//
// Three tools, from coarse to fine, for two worlds (or two peers) that ran
// the same schedule on the same inputs and whose per-tick checksums differ:
//   1. Per-system checkpoints: opt-in, the world records after every system
//      of a tick the column checksum of its whole state, so two peers'
//      checkpoints of the first differing tick name the first system after
//      which they differ.
//   2. The state hash tree: a tree of XXH3 hashes over the live state (root
//      -> part (the entity table, each component, the systems' PRNG
//      streams) -> group of 2,048 slots -> chunk of 64 slots), each node a
//      pure function of the state, so two peers that exchange the hashes of
//      the children of the nodes that differ find the differing rows with
//      O(log n) hashes, without sending the state.
//   3. The desync report: the first differing system (from the
//      checkpoints) and every differing (entity, component) with the first
//      differing field and both values.
// Everything here is a cold path (diagnostics) except the checkpoint
// recording, whose cost is measured in docs/desync.md#cost.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "laige/result.h"
#include "laige/scheduler.h"
#include "laige/state_hash.h"
#include "laige/system.h"
#include "laige/world.h"

namespace laige {

// --- Per-system checkpoints (docs/desync.md#checkpoints) ----------------------

/// Switches per-system checkpoints on or off. While on, every runSystems
/// records after each system (its commands applied, its observers drained,
/// outside its measured time) columnChecksumCached(world, tick): the
/// column checksum of the whole state (`docs/determinism.md#the-column-checksum`),
/// which hashes again only the columns written since the last one. The
/// first switch-on allocates the table (kMaxSystems x 16 bytes, the setup
/// path); after that no tick allocates. Switching off keeps the last
/// tick's checkpoints readable. Off (the default) costs runSystems one
/// branch per system. Checkpoints are diagnostics, not state: snapshots,
/// restores, the state hash and the checksums ignore them. Errors, nothing
/// changes: a moved-from world -> InvalidArgument world_moved_from; called
/// from inside a running system -> InvalidArgument checkpoints_inside_tick;
/// the table's allocation failed -> BudgetExhausted checkpoints_alloc_failed.
/// O(1), no log.
Status setSystemCheckpoints(World& world, bool on) noexcept;
/// True while per-system checkpoints are on (false for a moved-from world).
[[nodiscard]] bool systemCheckpointsOn(const World& world) noexcept;
/// The checkpoints of the last tick run with them on, in run order (one per
/// scheduled system); empty when none was run. Read during a tick (from a
/// system), it holds the previous tick's until the first system of this
/// one finished, then this tick's so far. Empty for a moved-from world.
/// The view is valid until the next runSystems or the world's destruction.
/// O(1), no allocation, no log.
[[nodiscard]] std::span<const SystemCheckpoint> systemCheckpoints(const World& world) noexcept;
/// The tick (SystemContext::tick) systemCheckpoints() belongs to; 0 when empty.
[[nodiscard]] std::uint64_t systemCheckpointTick(const World& world) noexcept;
/// The checkpoint of system `id` in the last tick's checkpoints. Errors:
/// InvalidArgument checkpoint_unknown_system (fields id, systems) when `id`
/// is not a registered system; InvalidArgument checkpoint_missing (field
/// id) when the last tick recorded none for it (checkpoints off, or no tick
/// yet). O(systems), no allocation, no log.
[[nodiscard]] Result<std::uint64_t> systemCheckpointOf(const World& world, SystemId id) noexcept;
/// The first position at which two checkpoint lists differ (a different
/// system or a different checksum), or -1 when they are equal over their
/// common length and have the same length. The two lists must be of the
/// same tick. O(systems).
[[nodiscard]] std::int32_t firstDifferingCheckpoint(std::span<const SystemCheckpoint> a,
                                                    std::span<const SystemCheckpoint> b) noexcept;

// --- The state hash tree (docs/desync.md#the-state-hash-tree) -----------------

/// Slots per leaf chunk.
inline constexpr std::uint32_t kStateTreeChunkSlots = 64;
/// Children per group node (chunks per group) and groups per part: 32 x 32
/// chunks x 64 slots = the whole slot space (Entity::kMaxEntities).
inline constexpr std::uint32_t kStateTreeFanout = 32;
/// Bytes of a chunk leaf's row in the entity part (u32 slot, u32 generation).
inline constexpr std::uint32_t kStateTreeEntityRowBytes = 8;
/// Bytes of one system in the systems leaf (u32 id, u32 has-substream, u64
/// seed, u64 state word 1, u64 state word 2).
inline constexpr std::uint32_t kStateTreeSystemBytes = 32;

/// A node of the state hash tree. Parts (children of the root) are
/// numbered 0 = the entity table, 1..C = component ids, C + 1 = the
/// systems' PRNG streams (C = componentCount()).
///   level 0: the root (part and index 0); children: the C + 2 parts.
///   level 1: part `part`; children: kStateTreeFanout groups (the systems
///            part is a leaf: no children).
///   level 2: group `index` of `part`; children: kStateTreeFanout chunks.
///   level 3: chunk `index` (0..1023) of `part`: a leaf over the slots
///            [64 x index, 64 x index + 64).
struct StateTreeNode {
  std::uint32_t level = 0;
  std::uint32_t part = 0;
  std::uint32_t index = 0;
};

/// The root hash: XXH3 of (u64 tick, u64 live count, u64 change-tracking
/// digest or 0 while change tracking is unused, u32 part count, the parts'
/// hashes), every number little-endian. Two worlds with equal live state (as the state
/// checksum defines it) at the same tick have equal roots. A pure function
/// of the state; identical natively and in wasm; const (no normalisation).
/// O(parts x highest live slot + live component bytes), no allocation.
/// A moved-from world has the root of the empty world.
[[nodiscard]] std::uint64_t stateTreeRoot(const World& world, std::uint64_t tick) noexcept;
/// Writes the hashes of `node`'s children to out[0..n) and returns n (the
/// C + 2 parts of the root, kStateTreeFanout for a part or a group). A node
/// hash is 0 when nothing live is under it (an unused component, a chunk of
/// free slots), else XXH3 of its children's hashes (u64 each) or, for a
/// leaf, of its payload (stateTreeLeaf). Errors, nothing written: a
/// moved-from world -> InvalidArgument world_moved_from; a node outside the
/// tree (level > 3, part > C + 1, index out of range, a nonzero index at
/// levels 0 and 1) -> InvalidArgument state_tree_node_invalid (fields
/// level, part, index); a leaf -> InvalidArgument state_tree_node_is_leaf;
/// `out` shorter than n -> BudgetExhausted state_tree_buffer_too_small
/// (fields needed, given). Cost: the nodes below `node` (a chunk is
/// O(64 + its bytes)), no allocation, no log; const.
Result<std::uint32_t> stateTreeChildren(const World& world, StateTreeNode node,
                                        std::span<std::uint64_t> out) noexcept;
/// Writes the payload of leaf `node` to out[0..n) and returns n: for a chunk
/// of the entity part, per live slot of the chunk ascending u32 slot, u32
/// generation; of a component part, per live slot of the chunk that has the
/// component ascending u32 slot then its bytes (f32/f64 NaNs canonical);
/// for the systems part, u32 system count then kStateTreeSystemBytes per
/// system (ascending id). Numbers little-endian. The leaf's hash is XXH3 of
/// exactly these bytes (0 when there are none), so a peer's answer can be
/// checked against the hash it sent. Errors as stateTreeChildren (a node
/// that is no leaf -> state_tree_node_invalid). O(64 + bytes), no
/// allocation, no log; const.
Result<std::size_t> stateTreeLeaf(const World& world, StateTreeNode node, std::span<std::uint8_t> out) noexcept;
/// The most bytes stateTreeLeaf writes for this world's components and
/// systems: a scratch of twice this suffices for findDifferingRows.
[[nodiscard]] std::size_t stateTreeLeafCapacity(const World& world) noexcept;

/// One side of a tree comparison: answers "children of node X" and "leaf
/// X's payload" (a local world with stateTreeSourceOf, or a remote peer's
/// answers). Both answers must follow the contracts of stateTreeChildren and
/// stateTreeLeaf.
struct StateTreeSource {
  void* context = nullptr;
  Result<std::uint32_t> (*children)(void* context, StateTreeNode node, std::span<std::uint64_t> out) noexcept = nullptr;
  Result<std::size_t> (*leaf)(void* context, StateTreeNode node, std::span<std::uint8_t> out) noexcept = nullptr;
};
/// A source answering from `world` (kept by address: it must outlive the
/// source).
[[nodiscard]] StateTreeSource stateTreeSourceOf(const World& world) noexcept;

/// One differing row found by findDifferingRows.
struct StateTreeDifference {
  /// The part: 0 = the entity table, a component id, or C + 1 = the systems.
  std::uint32_t part = 0;
  /// The component id (0 for the entity part and for the systems part).
  ComponentTypeId componentId = 0;
  /// The slot (entity and component parts) or the system id (systems part).
  std::uint32_t slot = 0;
  /// The row is present on side A / side B (a live slot, a slot that has
  /// the component, a registered system).
  bool presentInA = false;
  bool presentInB = false;
  /// Row bytes after the slot (after the u32 id for a system), as in the
  /// leaf payloads: views into the walk's scratch, valid during the
  /// callback; null on the absent side. `size` bytes each.
  const std::uint8_t* bytesA = nullptr;
  const std::uint8_t* bytesB = nullptr;
  std::uint32_t size = 0;
};

/// What a tree comparison exchanged.
struct StateTreeWalkStats {
  /// children() calls per side (the root's included).
  std::uint32_t childQueries = 0;
  /// leaf() calls per side.
  std::uint32_t leafQueries = 0;
  /// Hashes read per side, and leaf payload bytes read from side B.
  std::uint64_t hashes = 0;
  std::uint64_t leafBytesB = 0;
};

/// Walks two trees from the root down the differing nodes only and calls
/// fn(const StateTreeDifference&) for each differing row (parts ascending,
/// slots ascending), at most `maxItems` (0 = count only); returns the total.
/// `layout` gives the component sizes (a world with the same registration
/// as both sides, e.g. the local one). `scratch` holds two leaf payloads (2 x stateTreeLeafCapacity). Errors,
/// fn not called past them: a source's error is returned as it is; the two
/// roots (or `layout`) list a different number of parts -> InvalidArgument
/// state_tree_shape_mismatch (fields parts_a, parts_b, parts_layout); a leaf payload that
/// is malformed (slots not ascending, not in the chunk, a size that is not
/// a whole number of rows) -> MalformedInput state_tree_leaf_malformed
/// (fields side, part, index); `scratch` too small -> BudgetExhausted
/// state_tree_buffer_too_small. `stats` (optional) counts the exchange.
/// Cost: (C + 2) + 32 x (differing parts + differing groups) hashes and
/// one leaf per differing chunk per side; no allocation, no log.
Result<std::uint32_t> findDifferingRows(const World& layout, const StateTreeSource& a, const StateTreeSource& b,
                                        std::span<std::uint8_t> scratch, std::uint32_t maxItems,
                                        void (*fn)(void* context, const StateTreeDifference& item) noexcept,
                                        void* context, StateTreeWalkStats* stats = nullptr) noexcept;

// --- The desync report (docs/desync.md#the-report) -----------------------------

/// Sentinel: no field (a presence item, a tag, or equal bytes).
inline constexpr std::uint32_t kNoField = 0xFFFFFFFFu;

/// The index in `component`'s fields of the first field whose bytes differ
/// between `a` and `b` (component size bytes each), or kNoField. An
/// unknown component or a null side -> kNoField. O(size), no allocation.
[[nodiscard]] std::uint32_t firstDifferingField(const World& world, ComponentTypeId component,
                                                const std::uint8_t* a, const std::uint8_t* b) noexcept;

/// One difference of a desync report: the stateDiff item plus the first
/// differing field (kNoField for a presence item or a tag). The field's
/// values are at item.bytesA / bytesB + the field's offset.
struct DesyncItem {
  StateDiffItem item;
  std::uint32_t field = kNoField;
  /// The field's name (a view into A's registry; empty for kNoField).
  std::string_view fieldName;
};

/// The summary of desyncReport.
struct DesyncReport {
  /// A's systemTicksRun() (both worlds must be at the same tick).
  std::uint64_t tick = 0;
  /// True when both worlds hold checkpoints of `tick` (see firstSystem).
  bool checkpointsCompared = false;
  /// The first system after which the checkpoints differ (0 when they do
  /// not, or were not compared) and its run-order position.
  SystemId firstSystem{};
  std::uint32_t firstSystemPosition = 0;
  /// stateDiff's total count (entities, components).
  std::uint32_t differences = 0;
  /// The state checksums (stateChecksum(tick)) of A and B.
  std::uint64_t checksumA = 0;
  std::uint64_t checksumB = 0;
};

/// The report of two worlds that ran the same schedule to the same tick:
/// the first differing system from both worlds' checkpoints (when both
/// recorded the current tick), then every stateDiff item with its first
/// differing field, at most `maxItems` passed to fn(const DesyncItem&).
/// Errors, nothing reported: a moved-from world -> InvalidArgument
/// world_moved_from; different ticks (systemTicksRun) -> InvalidArgument
/// desync_tick_mismatch (fields tick_a, tick_b); a different component
/// registration (count, or a size) -> InvalidArgument
/// desync_setup_mismatch. Normalises both worlds' archetypes (the logical
/// state is unchanged). O(capacity + live component bytes), no allocation,
/// no log. Defined below (a template over fn).
template <class F>
Result<DesyncReport> desyncReport(const World& a, const World& b, std::uint32_t maxItems, F&& fn) noexcept;

/// One difference of a report against a remote peer's tree: the row
/// findDifferingRows found, plus the first differing field of a component
/// row (kNoField for entity and systems rows, and rows one side lacks).
struct DesyncTreeItem {
  StateTreeDifference row;
  std::uint32_t field = kNoField;
  /// The field's name (a view into the local world's registry).
  std::string_view fieldName;
};

/// The report of a local world against a remote peer at the same tick,
/// from the remote's tree answers (`remote`, e.g. requests over the
/// network) and its checkpoints of that tick (`remoteCheckpoints`, empty
/// when it has none): the first differing system as desyncReport (from the
/// local checkpoints of systemTicksRun() against the remote ones), then
/// findDifferingRows(local, stateTreeSourceOf(local), remote, ...) with
/// the first differing field of each row, at most `maxItems` passed to fn.
/// `differences` counts the rows; checksumA is the local stateChecksum,
/// checksumB 0 (the remote's is the caller's). Errors: a moved-from world
/// -> InvalidArgument world_moved_from; findDifferingRows' errors. No
/// allocation, no log.
Result<DesyncReport> desyncReportFromTree(const World& local, const StateTreeSource& remote,
                                          std::span<const SystemCheckpoint> remoteCheckpoints,
                                          std::span<std::uint8_t> scratch, std::uint32_t maxItems,
                                          void (*fn)(void* context, const DesyncTreeItem& item) noexcept,
                                          void* context) noexcept;

/// The first index at which two per-tick checksum histories differ, or -1
/// (equal over the common length): with a[i] and b[i] the checksums after
/// the same tick t0 + i, the first differing tick is t0 + the index.
/// O(length), no allocation.
[[nodiscard]] std::int64_t firstDifferingTick(std::span<const std::uint64_t> a,
                                              std::span<const std::uint64_t> b) noexcept;

namespace detail {
using DesyncSink = void (*)(void* context, const DesyncItem& item) noexcept;
Result<DesyncReport> desyncReportImpl(const World& a, const World& b, std::uint32_t maxItems, DesyncSink sink,
                                      void* context) noexcept;
}  // namespace detail

template <class F>
Result<DesyncReport> desyncReport(const World& a, const World& b, std::uint32_t maxItems, F&& fn) noexcept {
  static_assert(std::is_invocable_v<F&, const DesyncItem&>,
                "desyncReport: fn must be callable as fn(const laige::DesyncItem&)");
  using Fn = std::remove_reference_t<F>;
  const detail::DesyncSink sink = [](void* context, const DesyncItem& item) noexcept {
    (*static_cast<Fn*>(context))(item);
  };
  return detail::desyncReportImpl(a, b, maxItems, sink,
                                  const_cast<void*>(static_cast<const void*>(std::addressof(fn))));
}

}  // namespace laige
