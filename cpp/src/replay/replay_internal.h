// replay_internal.h - helpers shared by the replay sources (not installed):
// the little-endian byte codecs, the word-stream FNV, the input checks
// runReplay and diffReplays run in the same order, and the frame step
// runReplay and ReplayPlayer share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "laige/replay.h"
#include "laige/state_hash.h"
#include "laige/world.h"

namespace laige::detail {

/// FNV-1a-64 offset basis (the state hash's constant: one definition).
inline constexpr std::uint64_t kFnvBasis = kStateHashFnvBasis;
/// FNV-1a-64 prime.
inline constexpr std::uint64_t kFnvPrime = kStateHashFnvPrime;

/// Feeds one u64 word, most significant byte first (the house word-stream
/// convention, so the value does not depend on the host's byte order).
[[nodiscard]] constexpr std::uint64_t fnvWordBE(std::uint64_t h, std::uint64_t word) noexcept {
  return fnv1a64Word(h, word);
}

// The log's integers are encoded one byte at a time, least significant
// first: the file layout is fixed by the format, never by the host.
inline void putLe16(std::uint8_t* p, std::uint16_t v) noexcept {
  p[0] = static_cast<std::uint8_t>(v);
  p[1] = static_cast<std::uint8_t>(v >> 8);
}
inline void putLe32(std::uint8_t* p, std::uint32_t v) noexcept {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
inline void putLe64(std::uint8_t* p, std::uint64_t v) noexcept {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
[[nodiscard]] inline std::uint16_t getLe16(const std::uint8_t* p) noexcept {
  return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}
[[nodiscard]] inline std::uint32_t getLe32(const std::uint8_t* p) noexcept {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
[[nodiscard]] inline std::uint64_t getLe64(const std::uint8_t* p) noexcept {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

/// Parses the version 3 keyframe section [off, recordsEnd) of `data` into
/// log.keyframes / log.keyframeBytes: records of u64 tick, u32 byteLength
/// and a snapshot, ticks strictly ascending and <= frameCount, each
/// snapshot passing its own header checks (magic, version, total size,
/// checksum) with its completed-tick counter equal to the tick. False with
/// the failed check's reason and offset in `why`. Never reads outside the
/// range; sizes the buffer from checked lengths only.
bool parseKeyframeSection(const std::uint8_t* data, std::size_t off, std::size_t recordsEnd,
                          std::uint64_t frameCount, ReplayLog& log, ReplayParseError& why);

/// The keyframes' shape for logs that did not come through parseReplay:
/// ticks strictly ascending and <= frameCount, ranges inside
/// keyframeBytes. MalformedInput + warn replay/log_invalid.
Status checkReplayKeyframeShape(const ReplayLog& log) noexcept;

/// Log shape check for logs that did not come through parseReplay: frame i
/// has tick i + 1, a size <= 1 MiB and a payload range inside the buffer.
/// MalformedInput + warn replay/log_invalid (field `side` when non-empty).
Status checkReplayLogShape(const ReplayLog& log, const char* side) noexcept;

/// The world is fresh (no tick run yet, so SystemContext::tick matches the
/// frame's tick) and was built from the config: same seed, capacity, churn
/// budget and determinism flag. InvalidArgument + warn
/// replay/config_world_mismatch.
Status checkReplayWorld(const World& world, const ReplayConfig& config, const char* side) noexcept;

/// Logs the mismatching identity fields of one side (both values of each)
/// under `event`. Returns true when there was a mismatch.
bool reportIdentityMismatch(const char* event, const char* side, const ReplayLog& log,
                            const World& world, const ReplayConfig& config) noexcept;

/// The diff driver's identity report: one warn replay/diff_identity_mismatch
/// carrying both sides' mismatching fields (a_* and b_*). True on mismatch.
bool reportDiffIdentityMismatch(const ReplayLog& logA, const World& worldA, const ReplayConfig& configA,
                                const ReplayLog& logB, const World& worldB, const ReplayConfig& configB) noexcept;

/// The failure of an identity check: InvalidArgument, reason `event`, field
/// `key` = the comma-separated names of the identity fields that differ
/// (seed, tickRateHz, componentSchemaHash, mathBackendId, configHash).
[[nodiscard]] Status identityMismatch(const char* event, const char* key, const ReplayIdentity& recorded,
                                      const ReplayIdentity& current) noexcept;

/// True when both the config and the world are deterministic.
[[nodiscard]] bool replayDeterministic(const World& world, const ReplayConfig& config) noexcept;

/// runReplay's and ReplayPlayer::open's check that a replay can be run on
/// `world`: replayDeterministic, else InvalidArgument determinism_disabled
/// (fields config_enabled, world_deterministic) + warn
/// replay/determinism_disabled. No allocation.
[[nodiscard]] Status checkReplayDeterministic(const World& world, const ReplayConfig& config) noexcept;

/// One recorded frame run on `world` as tick `tick` (beginFrame, then the
/// schedule with the frame's bytes as its input): the tick's error as
/// run_failed (fields tick, code, cause) + warn replay/run_failed. The
/// caller handles a world left between states. Allocates what the systems do.
[[nodiscard]] Status runReplayFrame(World& world, const SystemSchedule& schedule, std::span<const std::uint8_t> bytes,
                                    std::uint64_t tick) noexcept;

}  // namespace laige::detail
