// laige/system_timing.h - per-system timing and budget enforcement (docs/system_timing.md,
// system budget).
//
// World::runSystems measures every system's own run - the clock is read
// immediately before the run function is called and immediately after it
// returns; the dispatch and SystemContext construction stay outside the
// window - and hands the sample, in milliseconds, to the system's rolling
// Histogram of kSystemTimingWindowSamples samples and to the budget check:
//
//   measured >  1 x budget  -> Warn  system/budget_overrun
//   measured >= 3 x budget  -> Error system/budget_critical
//
// (a 3x run fires both, warn first, in the same tick). Both events carry the
// fields system, id, measured_ms, budget_ms, p99_ms (the window's p99 after
// this sample) and window_samples, use the 5-field message grammar, and are
// rate-limited by the logging facade; SystemTimingStats counts every one of
// them, suppressed or not. An over-budget system still runs: timing is
// observation, never an execution gate.
//
// The measurements are diagnostics: they never enter simulation state,
// state hashes or replays. The clock is injectable (World::setTimingClock),
// so tests are exact and never sleep. docs/system_timing.md.
#pragma once

#include <cstdint>

#include "laige/histogram.h"

namespace laige {

/// Samples in every system's rolling timing window (~1.1 s at 60 Hz).
inline constexpr std::uint32_t kSystemTimingWindowSamples = 64;
/// measured >= this x budget is an Error (system/budget_critical).
inline constexpr std::uint32_t kBudgetCriticalMultiplier = 3;

/// A monotonic nanosecond clock for the per-system measurement; `ctx` is the
/// pointer given to World::setTimingClock. Called twice per system per tick,
/// so it must be cheap and must not allocate.
using TimingClockFn = std::int64_t (*)(void* ctx) noexcept;

/// A system's timing counters since registration (the profiler feed).
struct SystemTimingStats {
  /// Measured runs.
  std::uint64_t runs = 0;
  /// The last measured run time in ms (0.0 before the first run; 0.0 is
  /// also a legitimate reading of a run shorter than the clock's tick).
  double lastMs = 0.0;
  /// budget_overrun events, including the rate-limited (suppressed) ones.
  std::uint32_t warns = 0;
  /// budget_critical events, including the rate-limited (suppressed) ones.
  std::uint32_t errors = 0;
};

/// The default timing clock: std::chrono::steady_clock in nanoseconds (`ctx`
/// is ignored).
[[nodiscard]] std::int64_t steadyClockNs(void* ctx) noexcept;

}  // namespace laige
