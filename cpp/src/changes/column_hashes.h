// column_hashes.h - what forgets the column checksum's cached hashes beside
// the inline paths of ecs_state.h (internal; docs/determinism.md#the-column-checksum).
#pragma once

#include "laige/detail/ecs_state.h"
#include "laige/detail/query_cache.h"

namespace laige::detail {

/// Forgets the cached hash of every Write term's column in every matched
/// archetype (beginQuery, filtered or not, tracked or not). Out of line in
/// change_ticks.cpp, compiled for size in wasm. O(matched archetypes x terms).
[[gnu::noinline]] void forgetWrittenColumnHashes(EcsState& s, const IdSet256& matched, const QuerySpec& spec) noexcept;
/// forgetColumnHash (ecs_state.h) out of line, for the Write ref paths
/// (getBytes, get<T> for writing, markChanged): one copy in the module.
[[gnu::noinline]] void forgetColumnHashOutOfLine(EcsState& s, std::uint32_t slot, ComponentTypeId c) noexcept;

}  // namespace laige::detail
