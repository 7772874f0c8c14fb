// replay_player.cpp - ReplayPlayer: seek, step and stepBack over a parsed
// replay by restoring keyframes and re-simulating the recorded inputs
// (docs/replay.md#time-travel).
#include "laige/replay_player.h"

#include <algorithm>
#include <utility>

#include "laige/logging.h"
#include "laige/system.h"
#include "logging/log_texts.h"
#include "replay/replay_internal.h"

namespace laige {

namespace {

/// The smallest n with n * n >= v (v < 2^32 in practice: a log's ticks).
std::uint64_t ceilSqrt(std::uint64_t v) noexcept {
  std::uint64_t n = 1;
  while (n * n < v) ++n;
  return n;
}

}  // namespace

ReplayPlayer::ReplayPlayer(ReplayLog log, World& world) noexcept : log_(std::move(log)), world_(&world) {}

Result<ReplayPlayer> ReplayPlayer::open(ReplayLog log, World& world, const ReplayConfig& config) {
  if (Status st = detail::checkReplayLogShape(log, ""); st.isError()) return st;
  if (Status st = detail::checkReplayKeyframeShape(log); st.isError()) return st;
  if (Status st = detail::checkReplayWorld(world, config, ""); st.isError()) return st;
  if (detail::reportIdentityMismatch("identity_mismatch", "", log, world, config)) {
    return detail::identityMismatch("identity_mismatch", "mismatch", log.identity,
                                    makeReplayIdentity(world, config, log.formatVersion));
  }
  if (Status st = detail::checkReplayDeterministic(world, config); st.isError()) return st;
  // The identity covers components and configuration, not the systems: the
  // first keyframe's setup identity does (and restore() would refuse it
  // later anyway). A keyframe of tick 0 must hold this very world's state.
  if (!log.keyframes.empty()) {
    const ReplayKeyframe& k = log.keyframes.front();
    const Result<std::uint64_t> sum = world.stateChecksumOfSnapshot(log.keyframeSnapshot(0));
    const bool stateDiffers = sum.ok() && k.tick == 0 && sum.value() != world.stateChecksum(0);
    if (sum.isError() || stateDiffers) {
      const char* cause = sum.isError() ? sum.status().reason() : "state";
      LAIGE_LOG_WARN("replay", "keyframe_mismatch", log::texts::KeyframeMismatch, log::field("keyframe_tick", k.tick),
                     log::field("cause", cause));
      return Status::failure(ErrorCode::InvalidArgument, "keyframe_mismatch")
          .with("keyframe_tick", k.tick)
          .with("cause", cause);
    }
  }
  ReplayPlayer p(std::move(log), world);
  if (Status st = world.scheduleSystems(p.schedule_); st.isError()) return st;
  p.start_.resize(world.snapshotSize());
  if (Status st = world.snapshot(p.start_); st.isError()) return st;
  return p;
}

std::ptrdiff_t ReplayPlayer::keyframeIndex(std::uint64_t tick) const noexcept {
  const auto it = std::upper_bound(log_.keyframes.begin(), log_.keyframes.end(), tick,
                                   [](std::uint64_t t, const ReplayKeyframe& k) { return t < k.tick; });
  return (it - log_.keyframes.begin()) - 1;
}

std::uint64_t ReplayPlayer::keyframeAtOrBefore(std::uint64_t tick) const noexcept {
  const std::ptrdiff_t k = keyframeIndex(tick);
  return k < 0 ? 0 : log_.keyframes[static_cast<std::size_t>(k)].tick;
}

Status ReplayPlayer::outOfRange(std::uint64_t tick) const noexcept {
  LAIGE_LOG_WARN("replay", "tick_out_of_range", log::texts::TickOutOfRange, log::field("tick", tick),
                 log::field("tick_count", tickCount()));
  return Status::failure(ErrorCode::InvalidArgument, "tick_out_of_range")
      .with("tick", tick)
      .with("tick_count", tickCount());
}

Status ReplayPlayer::restoreTo(std::span<const std::uint8_t> bytes, std::uint64_t tick) noexcept {
  if (Status st = world_->restore(bytes); st.isError()) return st;
  tick_ = tick;
  dirty_ = false;
  ++stats_.restores;
  return Status{};
}

Status ReplayPlayer::runTick() noexcept {
  const std::span<const std::uint8_t> bytes = log_.frameBytes(static_cast<std::size_t>(tick_));
  const std::uint64_t tick = tick_ + 1;
  if (Status st = detail::runReplayFrame(*world_, schedule_, bytes, tick); st.isError()) {
    // A failed tick may have run some systems: the world is not at a
    // recorded state any more, so the next call restores.
    dirty_ = true;
    return st;
  }
  tick_ = tick;
  ++stats_.ticksSimulated;
  return Status{};
}

Status ReplayPlayer::seekFrom(std::uint64_t target, bool keepCheckpoints) {
  const std::ptrdiff_t k = keyframeIndex(target);
  const std::uint64_t keyTick = k < 0 ? 0 : log_.keyframes[static_cast<std::size_t>(k)].tick;
  // The state to start from: the latest one at or before the target among
  // the world as it is, the checkpoints of this interval and its keyframe.
  const bool worldUsable = !dirty_ && world_->systemTicksRun() == tick_ && tick_ >= keyTick && tick_ <= target;
  if (checkpointBase_ != keyTick) {
    checkpoints_.clear();
    checkpointBase_ = keyTick;
  }
  const auto cp = std::upper_bound(checkpoints_.begin(), checkpoints_.end(), target,
                                   [](std::uint64_t t, const Checkpoint& c) { return t < c.tick; });
  const Checkpoint* checkpoint = cp == checkpoints_.begin() ? nullptr : &*(cp - 1);
  if (worldUsable && (checkpoint == nullptr || checkpoint->tick <= tick_)) {
    // Forward inside the interval: only the ticks in between.
  } else if (checkpoint != nullptr) {
    if (Status st = restoreTo(checkpoint->bytes, checkpoint->tick); st.isError()) return st;
  } else {
    const std::span<const std::uint8_t> bytes =
        k < 0 ? std::span<const std::uint8_t>(start_) : log_.keyframeSnapshot(static_cast<std::size_t>(k));
    if (Status st = restoreTo(bytes, keyTick); st.isError()) return st;
  }
  // stepBack keeps snapshots every ~sqrt(gap) ticks of the stretch it
  // re-simulates, so the next steps back start close to their target.
  const std::uint64_t gap = target - tick_;
  const std::uint64_t every = keepCheckpoints && gap > 4 ? ceilSqrt(gap) : 0;
  const std::size_t insertAt = static_cast<std::size_t>(cp - checkpoints_.begin());
  std::size_t added = 0;
  const std::uint64_t from = tick_;
  while (tick_ < target) {
    if (Status st = runTick(); st.isError()) return st;
    if (every != 0 && tick_ < target && (tick_ - from) % every == 0) {
      Checkpoint c{tick_, std::vector<std::uint8_t>(world_->snapshotSize())};
      if (world_->snapshot(c.bytes).ok()) {
        checkpoints_.insert(checkpoints_.begin() + static_cast<std::ptrdiff_t>(insertAt + added), std::move(c));
        ++added;
      }
    }
  }
  return Status{};
}

Status ReplayPlayer::seek(std::uint64_t tick) noexcept {
  if (Status st = world_->tickAllowed(); st.isError()) return st;
  if (tick > tickCount()) return outOfRange(tick);
  return seekFrom(tick, false);
}

Status ReplayPlayer::step() noexcept {
  if (Status st = world_->tickAllowed(); st.isError()) return st;
  if (tick_ >= tickCount()) return outOfRange(tick_ + 1);
  if (dirty_ || world_->systemTicksRun() != tick_) return seekFrom(tick_ + 1, false);
  if (Status st = runTick(); st.isError()) return st;
  const std::ptrdiff_t k = keyframeIndex(tick_);
  if (k >= 0 && log_.keyframes[static_cast<std::size_t>(k)].tick == tick_) {
    // The recording's state at this tick: a re-simulation that differs
    // from it means the setup or the systems are not the recording's.
    const Result<std::uint64_t> want = world_->stateChecksumOfSnapshot(log_.keyframeSnapshot(static_cast<std::size_t>(k)));
    const std::uint64_t have = world_->stateChecksum(tick_);
    ++stats_.keyframesVerified;
    if (want.isError() || want.value() != have) {
      // Not the recording's state: the next call restores instead of
      // simulating on from here.
      dirty_ = true;
      const std::uint64_t expected = want.ok() ? want.value() : 0;
      LAIGE_LOG_WARN("replay", "keyframe_diverged", log::texts::KeyframeDiverged, log::field("tick", tick_),
                     log::field("world_checksum", have), log::field("keyframe_checksum", expected));
      return Status::failure(ErrorCode::InvalidArgument, "keyframe_diverged")
          .with("tick", tick_)
          .with("world_checksum", have)
          .with("keyframe_checksum", expected);
    }
  }
  return Status{};
}

Status ReplayPlayer::stepBack() {
  if (Status st = world_->tickAllowed(); st.isError()) return st;
  if (tick_ == 0) return outOfRange(0);
  return seekFrom(tick_ - 1, true);
}

}  // namespace laige
