// system_timing.cpp - the budget cold path (docs/system_timing.md) (the budget events) and the
// timing queries. The per-run measurement itself is inline in runSystems
// (detail::recordSystemTiming).
#include "laige/system_timing.h"

#include <chrono>

#include "laige/detail/system_registry.h"
#include "laige/detail/world_state.h"
#include "laige/logging.h"
#include "laige/system.h"
#include "logging/log_texts.h"

namespace laige {

std::int64_t steadyClockNs(void*) noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

namespace detail {

void reportBudgetBreach(SystemRecord& rec, std::uint32_t id, double measuredMs) noexcept {
  // The counters count every breach, including the ones the rate limiter
  // suppresses; the events carry the values as fields, never in the text.
  ++rec.warns;
  const bool critical = measuredMs >= static_cast<double>(kBudgetCriticalMultiplier) * rec.budgetMs;
  if (critical) ++rec.errors;
  // The window's p99 is computed only when an event will actually be built
  // (the level gate); a persistent breach pays this bounded cost every tick.
  LAIGE_LOG_WARN("system", "budget_overrun", log::texts::BudgetOverrun, log::field("system", rec.def.name),
                 log::field("id", id), log::field("measured_ms", measuredMs),
                 log::field("budget_ms", rec.budgetMs), log::field("p99_ms", rec.window.percentile(99.0)),
                 log::field("window_samples", rec.window.size()));
  if (critical) {
    LAIGE_LOG_ERROR("system", "budget_critical", log::texts::BudgetCritical, log::field("system", rec.def.name),
                    log::field("id", id), log::field("measured_ms", measuredMs),
                    log::field("budget_ms", rec.budgetMs),
                    log::field("p99_ms", rec.window.percentile(99.0)),
                    log::field("window_samples", rec.window.size()));
  }
}

}  // namespace detail

Result<SystemTimingStats> World::systemTimingStats(SystemId id) const noexcept {
  if (!s_ || !s_->systems.valid(id.value)) return detail::systemUnknown(id.value, systemCount());
  const detail::SystemRecord& rec = s_->systems.at(id.value);
  SystemTimingStats st;
  st.runs = rec.runs;
  st.lastMs = rec.lastMs;
  st.warns = rec.warns;
  st.errors = rec.errors;
  return st;
}

const Histogram* World::systemTimingWindow(SystemId id) const noexcept {
  if (!s_ || !s_->systems.valid(id.value)) return nullptr;
  return &s_->systems.at(id.value).window;
}

void World::setTimingClock(TimingClockFn clock, void* ctx) noexcept {
  if (!s_) return;
  s_->systems.clock = clock != nullptr ? clock : &steadyClockNs;
  s_->systems.clockContext = clock != nullptr ? ctx : nullptr;
}

}  // namespace laige
