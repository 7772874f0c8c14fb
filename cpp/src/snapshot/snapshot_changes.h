// snapshot_changes.h - the change section of version-2 snapshots and the
// change part of the state hash (snapshot_changes.cpp; docs/changes.md#snapshots).
#pragma once

#include <cstdint>

#include "laige/detail/world_state.h"
#include "laige/result.h"

namespace laige::detail {

/// The first snapshot version with a change section.
inline constexpr std::uint32_t kSnapshotChangesVersion = 2;
/// The section's bytes (8-aligned); 0 when the change state is not in use
/// (the snapshot is then version 1, byte for byte as before).
std::uint64_t changesSectionBytes(const WorldState& ws) noexcept;
/// Writes the section (changesSectionBytes bytes, zeroed by the caller).
void writeChangesSection(const WorldState& ws, std::uint8_t* p) noexcept;
/// Validates a section of n bytes (n == 0: none) and stages its
/// allocations (tick arrays of components not tracked yet). No write.
Status checkChangesSection(WorldState& ws, const std::uint8_t* p, std::uint64_t n, std::uint32_t high,
                           std::uint64_t offset) noexcept;
/// Replaces the change state with the section's (n == 0: nothing tracked,
/// no system has run, empty logs and queue). After the archetypes were restored.
void applyChangesSection(WorldState& ws, const std::uint8_t* p, std::uint64_t n) noexcept;
/// The change state's digest the state hash folds in when it is in use.
std::uint64_t changesDigest(const WorldState& ws) noexcept;
/// changesDigest of the world a version-2 snapshot's section of n bytes
/// describes (the state checksum of a snapshot equals the live world's).
/// False, and `digest` untouched, when the section is malformed.
bool changesDigestOfSection(const std::uint8_t* p, std::uint64_t n, std::uint32_t systems,
                            std::uint64_t& digest) noexcept;

}  // namespace laige::detail
