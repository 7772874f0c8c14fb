// laige/alloc_watch.h - the hook behind the no-allocation guard: "a simulation tick
// allocates nothing" is checked, not assumed.
//
// The library cannot see the process's operator new (a test binary or a tool
// replaces it with a counting one), so the counter is injected: whoever
// counts allocations registers a function returning the running total, and
// GameLoop reads it around every tick in builds with LAIGE_DEBUG_ASSERTS
// (docs/game_loop.md, the no-allocation rule of a tick). With no counter registered, or in release
// and wasm builds, there is no check and no cost. `docs/game_loop.md#tick-allocates-nothing`.
#pragma once

#include <cstdint>

namespace laige {

/// Returns the process's running allocation count (monotonic; any thread).
using AllocationCounterFn = std::uint64_t (*)() noexcept;

/// Registers the allocation counter GameLoop reads around each tick (nullptr
/// unregisters it). Process-wide; set it before running ticks, not during.
void setAllocationCounter(AllocationCounterFn counter) noexcept;

/// The registered counter, or nullptr when none is registered.
[[nodiscard]] AllocationCounterFn allocationCounter() noexcept;

}  // namespace laige
