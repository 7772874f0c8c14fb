// system_checkpoints.cpp - per-system checkpoints (laige/desync.h,
// docs/desync.md#checkpoints): the switch, the recording runSystems calls
// after each system while they are on, and the reads.
#include <new>

#include "laige/desync.h"
#include "laige/detail/change_walk.h"
#include "laige/detail/system_registry.h"
#include "laige/detail/world_state.h"
#include "setup_code.h"

namespace laige {

namespace detail {

// Called from runSystems' loop only while checkpoints are on: out of line,
// so that the loop pays one branch when they are off.
[[gnu::noinline]] void recordSystemCheckpoint(World& world, std::uint32_t id, std::uint32_t position,
                                              std::uint64_t tick) noexcept {
  SystemRegistry& reg = ChangeAccess::state(world)->systems;
  if (position == 0 || reg.checkpointTick != tick) {
    reg.checkpointTick = tick;
    reg.checkpointCount = 0;
  }
  // The cached column checksum: only the columns written since the last
  // checkpoint are hashed again (the systems before wrote them or not).
  const std::uint64_t checksum = columnChecksumCached(world, tick);
  if (reg.checkpointCount < kMaxSystems) {
    reg.checkpoints[reg.checkpointCount++] = SystemCheckpoint{id, position, checksum};
  }
}

}  // namespace detail

LAIGE_SETUP_CODE Status setSystemCheckpoints(World& world, bool on) noexcept {
  detail::WorldState* ws = detail::ChangeAccess::state(world);
  if (ws == nullptr) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  detail::SystemRegistry& reg = ws->systems;
  // Switching inside a tick would leave it with checkpoints for part of its systems.
  if (reg.running) return Status::failure(ErrorCode::InvalidArgument, "checkpoints_inside_tick");
  if (on && !reg.checkpoints) {
    reg.checkpoints.reset(new (std::nothrow) SystemCheckpoint[kMaxSystems]);
    if (!reg.checkpoints) return Status::failure(ErrorCode::BudgetExhausted, "checkpoints_alloc_failed");
  }
  reg.checkpointsOn = on;
  return Status{};
}

bool systemCheckpointsOn(const World& world) noexcept {
  const detail::WorldState* ws = detail::ChangeAccess::state(world);
  return ws != nullptr && ws->systems.checkpointsOn;
}

std::span<const SystemCheckpoint> systemCheckpoints(const World& world) noexcept {
  const detail::WorldState* ws = detail::ChangeAccess::state(world);
  if (ws == nullptr || !ws->systems.checkpoints) return {};
  return {ws->systems.checkpoints.get(), ws->systems.checkpointCount};
}

std::uint64_t systemCheckpointTick(const World& world) noexcept {
  const detail::WorldState* ws = detail::ChangeAccess::state(world);
  return ws != nullptr && ws->systems.checkpointCount != 0 ? ws->systems.checkpointTick : 0;
}

Result<std::uint64_t> systemCheckpointOf(const World& world, SystemId id) noexcept {
  const detail::WorldState* ws = detail::ChangeAccess::state(world);
  const std::uint32_t systems = ws != nullptr ? ws->systems.count : 0;
  if (id.value == 0 || id.value > systems) {
    return Status::failure(ErrorCode::InvalidArgument, "checkpoint_unknown_system")
        .with("id", id.value)
        .with("systems", systems);
  }
  for (const SystemCheckpoint& c : systemCheckpoints(world)) {
    if (c.system == id.value) return c.checksum;
  }
  return Status::failure(ErrorCode::InvalidArgument, "checkpoint_missing").with("id", id.value);
}

std::int32_t firstDifferingCheckpoint(std::span<const SystemCheckpoint> a,
                                      std::span<const SystemCheckpoint> b) noexcept {
  const std::size_t n = a.size() < b.size() ? a.size() : b.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i].system != b[i].system || a[i].checksum != b[i].checksum) return static_cast<std::int32_t>(i);
  }
  return a.size() == b.size() ? -1 : static_cast<std::int32_t>(n);
}

std::int64_t firstDifferingTick(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b) noexcept {
  const std::size_t n = a.size() < b.size() ? a.size() : b.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return static_cast<std::int64_t>(i);
  }
  return -1;
}

}  // namespace laige
