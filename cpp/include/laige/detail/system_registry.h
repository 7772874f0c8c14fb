// laige/detail/system_registry.h - the world's system table (internal).
//
// One fixed table of kMaxSystems records, allocated with the world (the
// setup path), so registering, scheduling and running systems never
// allocate. WorldState holds one SystemRegistry; the World members in
// system.cpp, scheduler.cpp and system_timing.cpp are its only users.
#pragma once

#include <cstdint>
#include <memory>

#include "laige/histogram.h"
#include "laige/prng.h"
#include "laige/query.h"
#include "laige/scheduler.h"
#include "laige/system.h"
#include "laige/system_timing.h"

namespace laige::detail {

/// One parsed name of a dependsOn list: a byte range of the def's string.
struct DepToken {
  std::uint32_t offset = 0;
  std::uint32_t length = 0;
};

/// One registered system: its definition, declared I/O, parsed
/// dependencies, PRNG substream and timing feed.
struct SystemRecord {
  SystemDef def;
  IdSet256 reads;   // components declared Read
  IdSet256 writes;  // components declared Write (disjoint from reads)
  DepToken deps[kMaxSystemDependencies];
  std::uint32_t depCount = 0;
  std::uint32_t nameLength = 0;
  double budgetMs = 0.0;  // def.budgetMs as a double: raw / 2^16, exact
  Prng rng;
  bool hasSubstream = false;
  // Timing (docs/system_timing.md): diagnostics only, never simulation state.
  Histogram window;
  std::uint64_t runs = 0;
  double lastMs = 0.0;
  std::uint32_t warns = 0;
  std::uint32_t errors = 0;
};

/// The system table and the run state of one world.
struct SystemRegistry {
  /// Allocates the record table and every record's timing window.
  SystemRegistry() noexcept;
  SystemRegistry(const SystemRegistry&) = delete;
  SystemRegistry& operator=(const SystemRegistry&) = delete;

  /// The record of `id` (1-based); requires 1 <= id <= count.
  [[nodiscard]] SystemRecord& at(std::uint32_t id) noexcept { return records[id - 1]; }
  /// The record of `id` (1-based); requires 1 <= id <= count.
  [[nodiscard]] const SystemRecord& at(std::uint32_t id) const noexcept { return records[id - 1]; }
  /// True when `id` names a registered system.
  [[nodiscard]] bool valid(std::uint32_t id) const noexcept { return id != 0 && id <= count; }

  std::unique_ptr<SystemRecord[]> records;  // kMaxSystems entries (or none)
  std::uint32_t capacity = 0;               // kMaxSystems, or 0 if the allocation failed
  std::uint32_t count = 0;
  bool running = false;       // inside runSystems (nested runs are misuse)
  std::uint32_t current = 0;  // the system running now (0 = none): the io check's key
  std::uint64_t ticksRun = 0;  // completed runSystems calls (SystemContext::tick - 1)
  TimingClockFn clock = &steadyClockNs;
  void* clockContext = nullptr;
  // Per-system checkpoints (laige/desync.h): off by default; the table is
  // allocated (kMaxSystems entries) the first time they are switched on.
  bool checkpointsOn = false;
  std::uint32_t checkpointCount = 0;  // entries of checkpointTick recorded so far
  std::uint64_t checkpointTick = 0;   // the tick they belong to (0 = none)
  std::unique_ptr<SystemCheckpoint[]> checkpoints;
};

/// Records the checkpoint after the system at `position` of `tick`
/// (desync/system_checkpoints.cpp; runSystems calls it when checkpointsOn).
void recordSystemCheckpoint(World& world, std::uint32_t id, std::uint32_t position,
                            std::uint64_t tick) noexcept;

/// The budget report (the budget cold path in system_timing.cpp; docs/system_timing.md): counts and
/// logs budget_overrun and, at >= 3x, budget_critical for a sample that is
/// already in `rec.window`.
void reportBudgetBreach(SystemRecord& rec, std::uint32_t id, double measuredMs) noexcept;

/// The failure of a lookup by an id no registered system has: InvalidArgument,
/// reason `system_unknown`, fields id and systems (the registered count).
[[nodiscard]] Status systemUnknown(std::uint32_t id, std::uint32_t systems) noexcept;

/// The per-run bookkeeping of runSystems (the hot path): converts the
/// measured nanoseconds to ms, records the sample and compares it with the
/// budget. O(1), no allocation, no log unless the budget is breached.
inline void recordSystemTiming(SystemRecord& rec, std::uint32_t id, std::int64_t elapsedNs) noexcept {
  // A clock that stepped backwards reads as a zero-length run.
  const double ms = elapsedNs > 0 ? static_cast<double>(elapsedNs) / 1.0e6 : 0.0;
  rec.window.record(ms);
  ++rec.runs;
  rec.lastMs = ms;
  // Strictly greater: a run of exactly the budget is legal (docs/system_timing.md).
  if (ms > rec.budgetMs) [[unlikely]] reportBudgetBreach(rec, id, ms);
}

}  // namespace laige::detail
