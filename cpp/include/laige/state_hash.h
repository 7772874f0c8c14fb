// laige/state_hash.h - the deterministic state hash, the component-state
// hash and the bounded state diff of a World
// (`docs/determinism.md#the-state-hash`).
//
// The three are declared on World (world.h); this header holds the diff
// item, the stateDiff template and the FNV constants the stream uses.
//
// World::stateHash(tick) is FNV-1a-64 over one canonical stream:
//   1. the word `tick`;
//   2. the word `live entity count`;
//   3. per live slot, ascending: ONE word, (slot << 16) | generation (the
//      32-bit Entity handle of the slot);
//   4. per non-empty archetype, in lexicographic order of the signature
//      (the strictly ascending component id list): one word per component
//      id, the word `row count`, then the raw component bytes row-major
//      (rows in ascending slot order; per row the columns in signature
//      order), each value's bytes in memory order (little-endian on every
//      target), with f32/f64 NaNs canonicalised;
//   5. per registered system, ascending id (stateHash only): the words id,
//      has-substream (0/1), substream seed, state word 1, state word 2.
// A word is fed as 8 bytes, most significant first ("word-stream BE"); raw
// component bytes are fed one byte each, as they are: a value of any size
// (odd sizes included) contributes exactly its size in bytes, never padded
// to a word. The stream is a byte sequence, so "how a run of bytes that is
// not a multiple of 8 is fed" has only one answer.
//
// What is deliberately out: capacity, the free-list order, dead slots'
// generations, empty archetypes, archetype ids and creation order, row
// capacity, timings, addresses. Two worlds that converge on the same live
// state hash identically whatever their histories were.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>

#include "laige/world.h"

namespace laige {

/// FNV-1a-64 offset basis (fnv.org), the start of every stream.
inline constexpr std::uint64_t kStateHashFnvBasis = 0xcbf29ce484222325ull;
/// FNV-1a-64 prime.
inline constexpr std::uint64_t kStateHashFnvPrime = 0x100000001b3ull;

/// Feeds one u64 word to an FNV-1a-64 state, most significant byte first
/// (the house word-stream convention). The reference the optimised stream
/// of state_hash.cpp is tested against; constexpr, for known answers.
[[nodiscard]] constexpr std::uint64_t fnv1a64Word(std::uint64_t hash, std::uint64_t word) noexcept {
  for (int shift = 56; shift >= 0; shift -= 8) {
    hash ^= (word >> shift) & 0xffu;
    hash *= kStateHashFnvPrime;
  }
  return hash;
}

/// Feeds `size` raw bytes to an FNV-1a-64 state in order (the byte-stream
/// form; the reference for the component-byte part of the stream).
[[nodiscard]] constexpr std::uint64_t fnv1a64Bytes(std::uint64_t hash, const std::uint8_t* bytes,
                                                   std::uint32_t size) noexcept {
  for (std::uint32_t i = 0; i < size; ++i) {
    hash ^= bytes[i];
    hash *= kStateHashFnvPrime;
  }
  return hash;
}

/// The canonical quiet NaN every f32 NaN is hashed as (bits).
inline constexpr std::uint32_t kCanonicalNanF32 = 0x7fc00000u;
/// The canonical quiet NaN every f64 NaN is hashed as (bits).
inline constexpr std::uint64_t kCanonicalNanF64 = 0x7ff8000000000000ull;

/// One difference between two worlds' live state (World::stateDiff).
struct StateDiffItem {
  /// The entity slot (the slot id, not the handle: slots are world-local).
  std::uint16_t slot = 0;
  /// The component; 0 = an entity-presence difference (the slot is live on
  /// one side only, or live on both with different generations).
  std::uint32_t componentId = 0;
  /// The component's size in bytes (0 for a presence item and for a tag).
  std::uint32_t size = 0;
  /// The entity (presence item) or the component (component item) exists
  /// in world A (`this` of stateDiff).
  bool presentInA = false;
  /// Same for world B (`other`).
  bool presentInB = false;
  /// A's bytes: a non-owning view into A's column, null on the absent side
  /// and for presence items. Valid until the callback returns (and in fact
  /// until the next mutation of the involved entity).
  const std::uint8_t* bytesA = nullptr;
  /// B's bytes, as bytesA.
  const std::uint8_t* bytesB = nullptr;
  /// The slot's handle in A (Entity{} where the slot is not live in A).
  Entity entityA{};
  /// The slot's handle in B, as entityA.
  Entity entityB{};
  /// The component is a relation (laige/relations.h) in every world that
  /// has it on this slot: targetA / targetB name its targets
  /// (`docs/relations.md#relations-in-a-state-diff`). False for presence items.
  bool relation = false;
  /// A relation item's target in A (Entity{} where A lacks the relation).
  Entity targetA{};
  /// A relation item's target in B (Entity{} where B lacks the relation).
  Entity targetB{};
};

/// A relation item of World::stateDiff in words, for logs and tools:
/// "<source> <relation name> <target in A> -> <target in B>", each entity
/// in formatEntity's form, "(none)" for a side that lacks the relation, and
/// " (payload differs)" appended when both sides have it and bytes after
/// the target differ (read through the item's byte views: call it inside
/// the stateDiff callback); e.g. "Entity(4, 1) ChildOf Entity(2, 1) -> Entity(3, 1)".
/// The source is entityA where A has the relation, else entityB; the name
/// is read from `a` (both worlds register the same components). Writes at
/// most capacity - 1 characters and a NUL (truncating), returns the length
/// written; writes "" and returns 0 for an item that is no relation item.
/// No allocation, no log. Setup / diagnostics path.
std::size_t formatRelationDiff(const World& a, const StateDiffItem& item, char* buffer,
                               std::size_t capacity) noexcept;
/// Room formatRelationDiff needs at most (3 entities, the longest
/// component name, separators, the payload note, the NUL).
inline constexpr std::size_t kRelationDiffTextCapacity = 3 * 24 + kMaxComponentNameLength + 40;

/// The column checksum of `world`'s live state: World::stateChecksum's
/// stream with each column replaced by one u64, the 64-bit XXH3 of the
/// column's canonical bytes (`docs/determinism.md#the-column-checksum`), so
/// a column nothing wrote since the last call need not be read again
/// (columnChecksumCached). A value of its own: not equal to stateChecksum
/// or stateHash. Identical natively and in wasm; a pure function of the
/// live state. Normalises the archetypes first (the logical state is
/// unchanged). O(highest live slot + live component bytes +
/// archetypes^2), no allocation, no log. A moved-from world checksums as empty.
[[nodiscard]] std::uint64_t columnChecksum(const World& world, std::uint64_t tick) noexcept;
/// columnChecksum, equal to it always, keeping each column's hash in the
/// world and hashing again only the columns written since (any write
/// through the API: a Write ref, a Write walk, an add or overwrite, a
/// remove, a destroy, a restore). Memory written directly (a pointer kept
/// from an earlier access) must be reported with markChanged, as for change
/// filters. O(highest live slot + archetypes^2 + bytes of the written
/// columns), no allocation, no log.
[[nodiscard]] std::uint64_t columnChecksumCached(World& world, std::uint64_t tick) noexcept;
/// columnChecksum(systemTicksRun()) of the state the snapshot `bytes`
/// holds, without restoring; the checks and errors of
/// World::stateChecksumOfSnapshot. O(bytes), no allocation, no log.
[[nodiscard]] Result<std::uint64_t> columnChecksumOfSnapshot(const World& world,
                                                            std::span<const std::uint8_t> bytes) noexcept;

/// The type-erased sink stateDiff hands every reported item to.
using StateDiffSink = void (*)(void* context, const StateDiffItem& item) noexcept;

template <class F>
std::uint32_t World::stateDiff(const World& other, std::uint32_t maxItems, F&& fn) const noexcept {
  static_assert(std::is_invocable_v<F&, const StateDiffItem&>,
                "World::stateDiff: fn must be callable as fn(const laige::StateDiffItem&)");
  using Fn = std::remove_reference_t<F>;
  // The walk is not a template (state_hash.cpp); the callback crosses it as
  // a plain function pointer plus the callable's address.
  const StateDiffSink sink = [](void* context, const StateDiffItem& item) noexcept {
    (*static_cast<Fn*>(context))(item);
  };
  void* context = const_cast<void*>(static_cast<const void*>(std::addressof(fn)));
  return stateDiffImpl(other, maxItems, sink, context);
}

}  // namespace laige
