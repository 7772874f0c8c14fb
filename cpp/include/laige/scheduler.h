// laige/scheduler.h - the system schedule: dependency order and the
// declared-I/O checks (docs/scheduler.md).
//
// World::scheduleSystems (a const, setup-phase call) turns the registry into
// a SystemSchedule: the run order is registration order, moved later only as
// far as `dependsOn` requires - Kahn's algorithm that always places the
// smallest unplaced id whose dependencies are placed. It then checks, first
// failure wins: an unknown dependency (system/dep_missing), a cycle
// (system/dependency_cycle), two declared writers of one component
// (system/double_writer); and it warns, without failing, about a declared
// reader ordered before the declared writer of the same component
// (system/read_before_write: the reader sees last tick's value).
//
// World::runSystems(schedule) runs the systems one at a time in that order.
// The schedule is plain data (1 KiB): keep it next to the world and rebuild
// it after registering more systems - a schedule whose system count no
// longer matches is rejected (system/schedule_stale). docs/scheduler.md.
#pragma once

#include <cstdint>

namespace laige {

/// The most systems one world registers (the registry and schedule size).
inline constexpr std::uint32_t kMaxSystems = 256;
/// The most names one SystemDef::dependsOn list holds.
inline constexpr std::uint32_t kMaxSystemDependencies = 16;

/// A run order. Trivially copyable; produced by World::scheduleSystems.
struct SystemSchedule {
  /// World::systemCount() when the schedule was made (0 = empty).
  std::uint32_t systemCount = 0;
  /// SystemId values in run order; entries [0, systemCount) are used.
  std::uint32_t order[kMaxSystems] = {};
};

/// One per-system checkpoint (laige/desync.h, `docs/desync.md#checkpoints`):
/// the column checksum of the whole state right after one system of a tick
/// ran (its commands applied, its observers drained). Fixed-width, 16 bytes.
struct SystemCheckpoint {
  /// The system (a SystemId value).
  std::uint32_t system = 0;
  /// Its position in the tick's run order (0 = ran first).
  std::uint32_t position = 0;
  /// columnChecksum(world, tick) of the state after it.
  std::uint64_t checksum = 0;
};

}  // namespace laige
