// laige/replay_player.h - time travel over a parsed replay: seek to any tick,
// step forward and backward (docs/replay.md#time-travel).
//
// A ReplayPlayer drives a world set up like the recording's through the
// log's history. seek(t) restores the nearest keyframe at or before t (or
// the state after setup when the log has none before t) and re-simulates
// the remaining ticks with the recorded inputs; a seek forward inside the
// current keyframe interval only runs the ticks in between. So a jump costs
// one restore plus at most K - 1 ticks for keyframes every K ticks, and
// without keyframes up to t ticks from the start. stepBack() keeps
// checkpoints of the interval it re-simulated, so walking backward tick by
// tick costs about sqrt(K) ticks per step instead of K.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "laige/replay.h"
#include "laige/result.h"
#include "laige/scheduler.h"
#include "laige/world.h"

namespace laige {

/// Counters of what a player did (tests and cost figures).
struct ReplayPlayerStats {
  /// Snapshots restored (keyframes, the setup state, checkpoints).
  std::uint64_t restores = 0;
  /// Ticks re-simulated.
  std::uint64_t ticksSimulated = 0;
  /// Keyframes a step() landed on and compared (stateChecksum).
  std::uint64_t keyframesVerified = 0;
};

/// Time travel over a replay log in a world the caller owns (which must
/// outlive the player and stay at its address). The player owns the log.
/// The world is the player's between calls: read it, render it, but a
/// change to it (or a tick run outside the player) is not seen until the
/// next restore. Move-only.
class ReplayPlayer {
 public:
  /// Checks, in runReplay's order: the log's shape (frames and keyframes;
  /// MalformedInput log_invalid), a fresh world built from the config
  /// (InvalidArgument config_world_mismatch), the identity (InvalidArgument
  /// identity_mismatch), determinism (InvalidArgument
  /// determinism_disabled); then that the world is set up as the recording
  /// was: the first keyframe restores into it (its setup identity matches)
  /// and a keyframe of tick 0 holds the world's own state
  /// (InvalidArgument keyframe_mismatch, fields keyframe_tick and cause).
  /// Each failure logs a `replay/<reason>` warn and leaves the world as it
  /// was. On success the world stays at tick 0; the player keeps a
  /// snapshot of it (the start when no keyframe precedes a target).
  /// Allocates (the log moves in, the start snapshot). O(snapshot bytes).
  static Result<ReplayPlayer> open(ReplayLog log, World& world, const ReplayConfig& config);

  ReplayPlayer(ReplayPlayer&&) noexcept = default;
  ReplayPlayer& operator=(ReplayPlayer&&) noexcept = default;
  ReplayPlayer(const ReplayPlayer&) = delete;
  ReplayPlayer& operator=(const ReplayPlayer&) = delete;
  ~ReplayPlayer() = default;

  /// Puts the world at `tick` (0..tickCount()). Errors, the world
  /// unchanged: tick > tickCount() -> InvalidArgument tick_out_of_range
  /// (fields tick, tick_count; warn replay/tick_out_of_range); a world on
  /// the stack (inside its each or a system) -> tick_inside_callback. A
  /// failing tick returns run_failed (fields tick, cause); the world is then
  /// mid-tick and tick() the tick before it, and the next call restores. Cost: one restore (O(snapshot bytes))
  /// plus the ticks from the keyframe at or before `tick`, or only the
  /// ticks in between for a seek forward inside the current interval.
  /// Allocates nothing once the world's archetypes are warm.
  Status seek(std::uint64_t tick) noexcept;
  /// Runs the next recorded tick. When a keyframe exists at the tick
  /// reached, the world's state is compared with it (stateChecksum):
  /// a difference -> InvalidArgument keyframe_diverged (fields tick,
  /// world_checksum, keyframe_checksum), the world stays at the tick it
  /// reached (the next call restores). At the end -> tick_out_of_range,
  /// nothing changes. O(one tick); a keyframe tick adds two checksums.
  Status step() noexcept;
  /// Goes back one tick: seek(tick() - 1) from the nearest checkpoint
  /// (keyframe, start, or a snapshot stepBack kept while re-simulating the
  /// interval). At tick 0 -> tick_out_of_range, nothing changes. Allocates
  /// the checkpoints (about sqrt(K) snapshots of the current interval).
  Status stepBack();

  /// The tick the world is at (0..tickCount()).
  [[nodiscard]] std::uint64_t tick() const noexcept { return tick_; }
  /// The log's frames: the last tick.
  [[nodiscard]] std::uint64_t tickCount() const noexcept { return log_.frameCount(); }
  /// world().stateHash(tick()): the recording's hash line of this tick.
  /// O(state), no allocation.
  [[nodiscard]] std::uint64_t stateHash() const noexcept { return world_->stateHash(tick_); }
  /// The tick of the keyframe a seek to `tick` restores (0 with no
  /// keyframe at or before it: the start). O(log keyframes).
  [[nodiscard]] std::uint64_t keyframeAtOrBefore(std::uint64_t tick) const noexcept;
  /// The world, read-only.
  [[nodiscard]] const World& world() const noexcept { return *world_; }
  /// The log.
  [[nodiscard]] const ReplayLog& log() const noexcept { return log_; }
  /// What the player did so far.
  [[nodiscard]] const ReplayPlayerStats& stats() const noexcept { return stats_; }

 private:
  ReplayPlayer(ReplayLog log, World& world) noexcept;
  struct Checkpoint {
    std::uint64_t tick = 0;
    std::vector<std::uint8_t> bytes;
  };
  Status seekFrom(std::uint64_t target, bool keepCheckpoints);
  Status restoreTo(std::span<const std::uint8_t> bytes, std::uint64_t tick) noexcept;
  Status runTick() noexcept;
  [[nodiscard]] Status outOfRange(std::uint64_t tick) const noexcept;
  /// The index of the keyframe at or before `tick`, or -1.
  [[nodiscard]] std::ptrdiff_t keyframeIndex(std::uint64_t tick) const noexcept;

  ReplayLog log_;
  World* world_;
  SystemSchedule schedule_{};
  std::vector<std::uint8_t> start_;
  /// stepBack's snapshots inside one keyframe interval (ticks ascending).
  std::vector<Checkpoint> checkpoints_;
  /// The interval's first tick the checkpoints belong to.
  std::uint64_t checkpointBase_ = ~std::uint64_t{0};
  std::uint64_t tick_ = 0;
  /// A tick failed half-way: the world is not at tick_ until a restore.
  bool dirty_ = false;
  ReplayPlayerStats stats_;
};

}  // namespace laige
