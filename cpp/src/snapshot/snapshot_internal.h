// snapshot_internal.h - what the snapshot writer (snapshot.cpp) and reader
// (snapshot_restore.cpp) share: the layout arithmetic, little-endian access
// and the setup identity. docs/snapshots.md#format.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "laige/detail/world_state.h"
#include "laige/entity.h"
#include "laige/result.h"
#include "laige/world.h"
#include "laige/snapshot.h"

namespace laige::detail {

// Every supported target (x86-64, arm64, wasm32) is little-endian, so the
// in-memory component bytes ARE the portable little-endian bytes.
static_assert(std::endian::native == std::endian::little,
              "the snapshot format stores raw component bytes: little-endian hosts only");

/// Body offsets after the 64-byte header (docs/snapshots.md#format).
inline constexpr std::uint32_t kSnapshotCountersOffset = kSnapshotHeaderBytes;  // 48 bytes
inline constexpr std::uint32_t kSnapshotCountersBytes = 48;
inline constexpr std::uint32_t kSnapshotSystemBytes = 32;  // per system
inline constexpr std::uint32_t kSnapshotArchetypeHeadBytes = 8;

/// x rounded up to a multiple of 8 (every section is 8-aligned, zero padded).
constexpr std::uint64_t pad8(std::uint64_t x) noexcept { return (x + 7) & ~std::uint64_t{7}; }

/// Reads and writes the private state of an Entities allocator.
struct EntitiesAccess {
  static std::uint32_t fresh(const Entities& e) noexcept { return e.fresh_; }
  static std::uint32_t freeCount(const Entities& e) noexcept { return e.freeCount_; }
  static const std::uint16_t* freed(const Entities& e) noexcept { return e.freed_.get(); }
  /// Replaces the whole allocator state (validated by the caller): `fresh`
  /// indices, `freeCount` free-stack entries, `live` live ones; the arrays
  /// are little-endian u16 / u8 bytes.
  static void assign(Entities& e, std::uint32_t fresh, std::uint32_t freeCount, std::uint32_t live,
                     const std::uint8_t* generations, const std::uint8_t* living,
                     const std::uint8_t* freed) noexcept {
    const std::uint32_t old = e.fresh_;
    if (fresh != 0) {
      std::memcpy(e.generations_.get(), generations, std::size_t{fresh} * 2);
      std::memcpy(e.living_.get(), living, fresh);
    }
    // Indices above the new high-water mark are fresh again: not alive.
    if (old > fresh) std::memset(e.living_.get() + fresh, 0, old - fresh);
    if (freeCount != 0) std::memcpy(e.freed_.get(), freed, std::size_t{freeCount} * 2);
    e.fresh_ = fresh;
    e.freeCount_ = freeCount;
    e.live_ = live;
    e.slotsHashed_ = false;
    e.slotsCopied_ = false;
  }
  /// The column checksum's cached slot-section hash: true and `hash` set
  /// when it holds (nothing spawned, despawned or restored since).
  static bool cachedSlotsHash(const Entities& e, std::uint64_t& hash) noexcept {
    hash = e.slotsHash_;
    return e.slotsHashed_;
  }
  static void cacheSlotsHash(Entities& e, std::uint64_t hash) noexcept {
    e.slotsHash_ = hash;
    e.slotsHashed_ = true;
  }
  /// The ring's copy tracking of the entity section (snapshot.cpp).
  static bool slotsCopied(const Entities& e) noexcept { return e.slotsCopied_; }
  static void setSlotsCopied(Entities& e) noexcept { e.slotsCopied_ = true; }
};

inline std::uint16_t loadU16(const std::uint8_t* p) noexcept {
  std::uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}
inline std::uint32_t loadU32(const std::uint8_t* p) noexcept {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline std::uint64_t loadU64(const std::uint8_t* p) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline void storeU32(std::uint8_t* p, std::uint32_t v) noexcept { std::memcpy(p, &v, 4); }
inline void storeU64(std::uint8_t* p, std::uint64_t v) noexcept { std::memcpy(p, &v, 8); }

/// The setup identity: FNV-1a-64 over the capacity, every registered
/// component (name, size, alignment, fields with name, kind, count and
/// offset) and every system (name, substream flag) in registration order.
/// O(components + systems), no allocation.
std::uint64_t snapshotSetupIdentity(const WorldState& ws) noexcept;

/// The rollback ring's copy tracking (docs/rollback.md#costs). Every write
/// path clears a section's bit (Archetype::copyOk, the entity table's
/// slotsCopied_); this raises the world's copy clock and stamps each
/// section whose bit is clear with the new value, then sets the bits. So a
/// section's stamp is the clock of the first look after its last change: a
/// ring slot written at clock value `since` already holds every section
/// whose stamp is <= since. Returns the new clock value. O(archetypes +
/// sections changed), no allocation.
std::uint64_t noteSnapshotWrites(WorldState& ws) noexcept;

/// A ring snapshot's copy: `since` is the clock value the destination's
/// bytes hold (0: nothing usable, write everything), `taken` the one they
/// hold after the write.
struct RingCopy {
  std::uint64_t since = 0;
  std::uint64_t taken = 0;
};

/// World::snapshot's body. `seal` false leaves the checksum field 0 (no
/// pass over the bytes): for bytes only restoreSnapshot(trusted) reads.
/// With `ring`, `out` is a ring slot that held this world's state at clock
/// ring->since (or anything when since is 0): when the layout is the same,
/// the entity section, slot columns and component columns not changed since
/// are left as they are (their bytes are already those); the bytes written
/// are always exactly World::snapshot's, bar the seal.
Status writeSnapshot(const World& world, std::span<std::uint8_t> out, bool seal, RingCopy* ring = nullptr) noexcept;
/// World::restore's body. `trusted`: the bytes are this build's writer's
/// output for this world's setup, kept where nothing else writes (a
/// rollback session's own ring), so the per-byte validation (the checksum,
/// slot flags, free list, slot columns, padding, relation targets) is
/// skipped; the header, setup identity and section bounds are still
/// checked (docs/snapshots.md#trusted-restores). Restoring anything else
/// trusted is undefined.
/// `ringSince` (trusted only; 0 = none): the bytes are a ring slot written
/// at that clock value (writeSnapshot's RingCopy::taken): sections not
/// changed since are already the world's and are not copied, and the copy
/// stamps stay exact for every other slot of the world's rings.
Status restoreSnapshot(World& world, std::span<const std::uint8_t> bytes, bool trusted,
                       std::uint64_t ringSince = 0) noexcept;

}  // namespace laige::detail
