// replay_keyframes.cpp - the keyframe section of LGRP v3 (docs/replay.md#keyframes):
// admitting and writing keyframes in both recorders, and parsing and checking
// the section.
#include <cstring>
#include <vector>

#include "laige/logging.h"
#include "laige/replay.h"
#include "laige/snapshot.h"
#include "logging/log_texts.h"
#include "replay/replay_internal.h"

namespace laige {

namespace {

/// The snapshot header offsets the section's check reads (docs/snapshots.md#format).
constexpr std::size_t kSnapshotVersionOffset = 8;
constexpr std::size_t kSnapshotTicksOffset = kSnapshotHeaderBytes;  // counters: completed ticks first
constexpr std::size_t kSmallestSnapshot = kSnapshotHeaderBytes + 48;  // header + counters

/// The snapshot's own header checks, and its completed ticks = `tick`.
bool snapshotLooksValid(const std::uint8_t* p, std::uint64_t size, std::uint64_t tick) noexcept {
  if (size < kSmallestSnapshot || (size - kSnapshotChecksumStart) % 8 != 0) return false;
  if (std::memcmp(p, kSnapshotMagic, sizeof kSnapshotMagic) != 0) return false;
  const std::uint32_t version = detail::getLe32(p + kSnapshotVersionOffset);
  if (version < kSnapshotOldestFormatVersion || version > kSnapshotFormatVersion) return false;
  if (detail::getLe64(p + kSnapshotTotalOffset) != size) return false;
  if (detail::getLe64(p + kSnapshotTicksOffset) != tick) return false;
  const std::span<const std::uint8_t> bytes(p, static_cast<std::size_t>(size));
  return snapshotChecksum(bytes) == detail::getLe64(p + kSnapshotChecksumOffset);
}

}  // namespace

namespace detail {

Status ReplayEncoder::admitKeyframe(std::uint64_t tick, std::uint64_t size,
                                    std::uint8_t (&record)[kReplayKeyframeOverhead]) noexcept {
  if (failure != 0) return failureStatus;
  if (finished) return Status::failure(ErrorCode::InvalidArgument, "record_after_finish").with("frames", frames);
  // Misuse of the keyframe call is refused without failing the recording:
  // the frames written so far are still a valid log.
  if (keyframeEvery == 0) return Status::failure(ErrorCode::InvalidArgument, "keyframes_off");
  if (tick != frames || tick == lastKeyframeTick) {
    return Status::failure(ErrorCode::InvalidArgument, "keyframe_tick")
        .with("tick", tick)
        .with("frames", frames)
        .with("last_keyframe_tick", lastKeyframeTick == ~std::uint64_t{0} ? 0 : lastKeyframeTick);
  }
  if (size > 0xffffffffull || bytes + pendingKeyframeBytes + kReplayKeyframeOverhead + size > maxBytes) {
    return fail(ErrorCode::BudgetExhausted, "size_cap");
  }
  putLe64(record, tick);
  putLe32(record + 8, static_cast<std::uint32_t>(size));
  return Status{};
}

bool ReplayEncoder::keyframeDue() const noexcept {
  return keyframeEvery != 0 && failure == 0 && !finished && frames % keyframeEvery == 0 &&
         lastKeyframeTick != frames;
}

Status appendKeyframe(ReplayEncoder& enc, const World& world, std::vector<std::uint8_t>& out) {
  const std::uint64_t size = world.snapshotSize();
  if (size == 0) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  std::uint8_t record[kReplayKeyframeOverhead];
  if (Status st = enc.admitKeyframe(world.systemTicksRun(), size, record); st.isError()) return st;
  const std::size_t at = out.size();
  out.resize(at + kReplayKeyframeOverhead + static_cast<std::size_t>(size));
  std::memcpy(out.data() + at, record, sizeof record);
  const Status st = world.snapshot({out.data() + at + kReplayKeyframeOverhead, static_cast<std::size_t>(size)});
  if (st.isError()) {
    out.resize(at);
    return st;
  }
  enc.pendingKeyframeBytes += kReplayKeyframeOverhead + size;
  enc.lastKeyframeTick = world.systemTicksRun();
  ++enc.keyframes;
  return Status{};
}

bool parseKeyframeSection(const std::uint8_t* data, std::size_t off, std::size_t recordsEnd,
                          std::uint64_t frameCount, ReplayLog& log, ReplayParseError& why) {
  // Pass 1: structure and the snapshots' own checks; pass 2 copies.
  std::uint64_t total = 0;
  std::uint64_t count = 0;
  std::uint64_t previous = 0;
  for (std::size_t at = off; at != recordsEnd; ++count) {
    if (recordsEnd - at < kReplayKeyframeOverhead) {
      why = ReplayParseError{"keyframe_past_end", at};
      return false;
    }
    const std::uint64_t tick = getLe64(data + at);
    const std::uint32_t len = getLe32(data + at + 8);
    if (recordsEnd - at - kReplayKeyframeOverhead < len) {
      why = ReplayParseError{"keyframe_past_end", at + 8};
      return false;
    }
    if (tick > frameCount) {
      why = ReplayParseError{"keyframe_tick_range", at};
      return false;
    }
    if (count != 0 && tick <= previous) {
      why = ReplayParseError{"keyframe_tick_order", at};
      return false;
    }
    if (!snapshotLooksValid(data + at + kReplayKeyframeOverhead, len, tick)) {
      why = ReplayParseError{"keyframe_snapshot_invalid", at + kReplayKeyframeOverhead};
      return false;
    }
    previous = tick;
    total += len;
    at += kReplayKeyframeOverhead + len;
  }
  log.keyframes.reserve(static_cast<std::size_t>(count));
  log.keyframeBytes.resize(static_cast<std::size_t>(total));
  std::uint64_t dst = 0;
  for (std::size_t at = off; at != recordsEnd;) {
    const std::uint64_t tick = getLe64(data + at);
    const std::uint32_t len = getLe32(data + at + 8);
    std::memcpy(log.keyframeBytes.data() + dst, data + at + kReplayKeyframeOverhead, len);
    log.keyframes.push_back(ReplayKeyframe{tick, dst, len});
    dst += len;
    at += kReplayKeyframeOverhead + len;
  }
  return true;
}

Status checkReplayKeyframeShape(const ReplayLog& log) noexcept {
  for (std::size_t i = 0; i < log.keyframes.size(); ++i) {
    const ReplayKeyframe& k = log.keyframes[i];
    const bool rangeOk = k.offset <= log.keyframeBytes.size() && log.keyframeBytes.size() - k.offset >= k.size;
    const bool orderOk = i == 0 || k.tick > log.keyframes[i - 1].tick;
    if (!rangeOk || !orderOk || k.tick > log.frames.size()) {
      LAIGE_LOG_WARN("replay", "log_invalid", log::texts::LogInvalid, log::field("side", "keyframes"),
                     log::field("frame_index", static_cast<std::uint64_t>(i)), log::field("tick", k.tick),
                     log::field("size", k.size));
      return Status::failure(ErrorCode::MalformedInput, "log_invalid")
          .with("side", "keyframes")
          .with("keyframe_index", static_cast<std::uint64_t>(i))
          .with("tick", k.tick)
          .with("size", k.size);
    }
  }
  return Status{};
}

}  // namespace detail

std::span<const std::uint8_t> ReplayLog::keyframeSnapshot(std::size_t index) const noexcept {
  if (index >= keyframes.size()) return {};
  const ReplayKeyframe& k = keyframes[index];
  if (k.offset > keyframeBytes.size() || keyframeBytes.size() - k.offset < k.size) return {};
  return {keyframeBytes.data() + k.offset, static_cast<std::size_t>(k.size)};
}

Status ReplayWriter::writeKeyframe(const World& world) {
  const bool wasFailed = enc_.failure != 0;
  const Status st = detail::appendKeyframe(enc_, world, keyframes_);
  if (st.isError() && !wasFailed && enc_.failure != 0) {
    LAIGE_LOG_WARN("replay", "record_failed", log::texts::RecordFailed, log::field("code", errorName(st.error())),
                   log::field("frames", enc_.frames), log::field("bytes", enc_.bytes));
  }
  return st;
}

}  // namespace laige
