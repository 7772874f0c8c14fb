// laige/snapshot.h - the portable snapshot format: its constants and the
// checksum the format uses (docs/snapshots.md).
//
// The operations are World members (world.h): snapshotSize(), snapshot()
// and restore(). A snapshot is the whole authoritative state of a world in
// a fixed little-endian layout: the same state gives the same bytes on every
// target (native and wasm), and restore() makes a world indistinguishable
// from the one the snapshot was taken of (the same hashes, handles and
// archetype ids from then on). The layout is spelled out in
// `docs/snapshots.md#format`; this header holds the numbers a reader needs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace laige {

/// The first 8 bytes of every snapshot.
inline constexpr std::uint8_t kSnapshotMagic[8] = {'L', 'A', 'I', 'G', 'S', 'N', 'A', 'P'};
/// The format version this build writes and reads (`docs/snapshots.md#limits`).
inline constexpr std::uint32_t kSnapshotFormatVersion = 2;
/// The oldest format version this build still reads (version 1: no change
/// section; `docs/changes.md#snapshots`). A world whose change state is not in
/// use writes version 1.
inline constexpr std::uint32_t kSnapshotOldestFormatVersion = 1;
/// The fixed header's size in bytes (`docs/snapshots.md#format`).
inline constexpr std::uint32_t kSnapshotHeaderBytes = 64;
/// The header offset of the total byte count (u64).
inline constexpr std::uint32_t kSnapshotTotalOffset = 16;
/// The header offset of the setup identity (u64).
inline constexpr std::uint32_t kSnapshotIdentityOffset = 24;
/// The header offset of the checksum (u64) over bytes [40, total).
inline constexpr std::uint32_t kSnapshotChecksumOffset = 32;
/// Where the checksummed bytes start.
inline constexpr std::uint32_t kSnapshotChecksumStart = 40;

/// The checksum a snapshot carries at kSnapshotChecksumOffset: a four-lane
/// Fletcher-style sum over the little-endian 64-bit words of
/// bytes[kSnapshotChecksumStart, size) (size - 40 must be a multiple of 8;
/// else the value is 0), folded by a multiply-xor mix. Detects every
/// single-bit flip and every swap of two differing words. For tools (the
/// fuzz target re-seals mutated bytes with it). O(size), no allocation.
[[nodiscard]] std::uint64_t snapshotChecksum(std::span<const std::uint8_t> bytes) noexcept;

}  // namespace laige
