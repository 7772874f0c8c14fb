// laige/replay.h - replay logs: the LGRP format (v3 with keyframes, v2 without;
// v1 read), the replay identity, the recorders, the parser and the replay
// runner (docs/replay.md). The time-travel player is laige/replay_player.h.
//
// A replay is what it takes to re-run a simulation bit for bit: the identity
// (seed, tick rate, component schema, math backend, configuration) plus, per
// completed tick, the opaque input payload the systems read through
// SystemContext::input. Everything else is a pure function of those, so a
// log is small (40 + 12 per tick + payload + 16 bytes) and runReplay turns
// it back into the per-tick state hash stream.
//
// Log format v3 (a recording with keyframes; one without writes v2, and v1
// is still read, see kMinReplayFormatVersion), every integer little-endian
// and encoded byte by byte (never a memcpy of a struct, so the file is the
// same on every host):
//   header  (40 B) "LGRP", u16 version = 3 (2 without keyframes),
//                  u16 reserved = 0, u64 seed, u32 tickRateHz,
//                  u64 componentSchemaHash, u32 mathBackendId, u64 configHash
//   frame   (12 B + payload) u64 tick (1, 2, 3, ...), u32 byteLength
//                  (<= 1 MiB), payload
//   keyframe (v3 only, after the last frame, ticks ascending; 12 B +
//                  snapshot) u64 tick (0..frameCount), u32 byteLength,
//                  the world's snapshot after that tick (docs/snapshots.md)
//   trailer (16 B) u64 frameCount, u64 fileHash = FNV-1a-64 over every
//                  byte before the trailer
// docs/replay.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "laige/determinism.h"
#include "laige/game_loop.h"
#include "laige/result.h"
#include "laige/world.h"

namespace laige {

// --- Format constants -------------------------------------------------------

/// The header's size in bytes.
inline constexpr std::uint32_t kReplayHeaderSize = 40;
/// The newest format version this build reads, and the one a recording with
/// keyframes writes: version 2 plus a keyframe section after the frames.
inline constexpr std::uint16_t kReplayFormatVersion = 3;
/// The version a recording without keyframes writes (the default), so such
/// a file is byte for byte what earlier builds wrote. Version 2 identifies
/// the setup by component names and field layouts too (componentSchemaHash;
/// version 3 uses the same rule).
inline constexpr std::uint16_t kReplayPlainFormatVersion = 2;
/// The oldest version this build reads: a version 1 log is checked against
/// its own, older schema hash (ids, sizes and alignments only).
inline constexpr std::uint16_t kMinReplayFormatVersion = 1;
/// The largest payload one frame may carry (1 MiB): an input blob, not a
/// state dump. Checked before a payload is read, so a corrupt length can
/// never make the parser allocate or read past it.
inline constexpr std::uint32_t kMaxReplayFrameBytes = 1u << 20;
/// A frame record's fixed part: u64 tick + u32 byteLength.
inline constexpr std::uint32_t kReplayFrameOverhead = 12;
/// A keyframe record's fixed part: u64 tick + u32 byteLength.
inline constexpr std::uint32_t kReplayKeyframeOverhead = 12;
/// The trailer's size in bytes: u64 frameCount + u64 fileHash.
inline constexpr std::uint32_t kReplayTrailerSize = 16;
/// The smallest size cap a recorder accepts (header + trailer: a log with
/// no frame).
inline constexpr std::uint64_t kMinReplaySizeLimit = kReplayHeaderSize + kReplayTrailerSize;
/// The size cap used when 0 is passed (128 MiB).
inline constexpr std::uint64_t kDefaultReplaySizeLimit = std::uint64_t{128} << 20;
/// The longest `<tick> <hash>` line formatReplayHashLine writes, NUL included
/// (20 decimal digits, a space, 16 hex digits, a newline, NUL).
inline constexpr std::size_t kReplayHashLineCapacity = 40;

// --- Identity ---------------------------------------------------------------

/// The configuration a replay depends on: the EngineConfig subset that
/// changes what a simulation computes. configHash covers all of it.
struct ReplayConfig {
  /// The fixed tick rate (kMinTickRateHz..kMaxTickRateHz).
  std::uint32_t tickRateHz = kDefaultTickRateHz;
  /// The world's scene budget (World::Options::capacity).
  std::uint32_t entityCapacity = 1024;
  /// The per-frame churn budget (0 disables it).
  std::uint32_t churnPerFrameBudget = kDefaultChurnPerFrameBudget;
  /// The master PRNG seed.
  std::uint64_t seed = 0;
  /// Determinism mode and math backend.
  DeterminismConfig determinism{};
};

/// The World::Options a ReplayConfig describes (capacity, churn budget, seed,
/// deterministic = determinism.enabled): create replay worlds with these so
/// that the world and the configuration cannot disagree.
[[nodiscard]] World::Options worldOptionsFor(const ReplayConfig& config) noexcept;

/// The five header fields that must match for a replay to be meaningful.
struct ReplayIdentity {
  /// The master PRNG seed.
  std::uint64_t seed = 0;
  /// The fixed tick rate.
  std::uint32_t tickRateHz = 0;
  /// componentSchemaHash of the recording world.
  std::uint64_t componentSchemaHash = 0;
  /// The SimMathBackend value (0 fixed point, 1 pinned fp32).
  std::uint32_t mathBackendId = 0;
  /// configHash of the recording configuration.
  std::uint64_t configHash = 0;
  /// Field-by-field equality.
  friend bool operator==(const ReplayIdentity&, const ReplayIdentity&) noexcept = default;
};

/// Which identity fields differ (true = mismatch).
struct ReplayIdentityDiff {
  /// The seeds differ.
  bool seed = false;
  /// The tick rates differ.
  bool tickRateHz = false;
  /// The registered component schemas differ.
  bool componentSchemaHash = false;
  /// The math backends differ.
  bool mathBackendId = false;
  /// The configurations differ.
  bool configHash = false;
  /// True when nothing differs.
  [[nodiscard]] bool empty() const noexcept {
    return !seed && !tickRateHz && !componentSchemaHash && !mathBackendId && !configHash;
  }
};

/// FNV-1a-64 (word-stream, big-endian u64 words) over [componentCount, then
/// per component in id order: id, size, alignment], and for format version
/// 2 (the default) also, per component, its name (length, then one word per
/// byte) and its fields (count, then per field: name as above, kind,
/// element count, offset): two worlds with the same registrations in the
/// same order hash equal; a renamed component or a field of another kind
/// hashes differently. `formatVersion` 1 gives the hash version 1 logs
/// carry. A moved-from world hashes as an empty registry. O(components +
/// fields + name bytes), no allocation.
[[nodiscard]] std::uint64_t componentSchemaHash(const World& world,
                                                std::uint16_t formatVersion = kReplayFormatVersion) noexcept;

/// FNV-1a-64 (word-stream, big-endian u64 words) over [1 (encoding tag),
/// tickRateHz, entityCapacity, churnPerFrameBudget, seed, determinism.enabled,
/// determinism.math]. O(1).
[[nodiscard]] std::uint64_t configHash(const ReplayConfig& config) noexcept;

/// The identity of a recording of `world` under `config` (seed and tick rate
/// from the config, the schema hash of `formatVersion` from the world's
/// registry).
[[nodiscard]] ReplayIdentity makeReplayIdentity(const World& world, const ReplayConfig& config,
                                                std::uint16_t formatVersion = kReplayFormatVersion) noexcept;

/// Field-by-field comparison of two identities.
[[nodiscard]] ReplayIdentityDiff replayIdentityDiff(const ReplayIdentity& recorded,
                                                    const ReplayIdentity& current) noexcept;

struct ReplayLog;
/// Compares `log`'s header with makeReplayIdentity(world, config).
[[nodiscard]] ReplayIdentityDiff replayIdentityDiff(const ReplayLog& log, const World& world,
                                                    const ReplayConfig& config) noexcept;

// --- Encoding helpers -------------------------------------------------------

/// The byte-stream FNV-1a-64 of `size` bytes, continuing from `hash` (the
/// offset basis by default): the log's fileHash is this over every byte
/// before the trailer. `data` may be null only when size == 0.
[[nodiscard]] std::uint64_t replayFileHash(const std::uint8_t* data, std::size_t size,
                                           std::uint64_t hash = 0xcbf29ce484222325ull) noexcept;

/// Writes `<tick> <16 lowercase hex>\n` (the hash line of runReplay, the CLI
/// and the baselines) into `out` and returns its length without the NUL.
std::size_t formatReplayHashLine(std::uint64_t tick, std::uint64_t hash,
                                 char (&out)[kReplayHashLineCapacity]) noexcept;

// --- Parsed logs -------------------------------------------------------------

/// One frame of a parsed log: its tick and where its payload lives in
/// ReplayLog::payload.
struct ReplayFrame {
  /// The tick this frame's input drives (1, 2, 3, ...).
  std::uint64_t tick = 0;
  /// Offset of the payload in ReplayLog::payload.
  std::uint64_t offset = 0;
  /// Payload length in bytes (<= kMaxReplayFrameBytes).
  std::uint32_t size = 0;
};

/// One keyframe of a parsed log: the world's snapshot after `tick`
/// completed ticks, at `offset` in ReplayLog::keyframeBytes.
struct ReplayKeyframe {
  /// The completed ticks the snapshot holds (0 = the state after setup).
  std::uint64_t tick = 0;
  /// Offset of the snapshot in ReplayLog::keyframeBytes.
  std::uint64_t offset = 0;
  /// Snapshot length in bytes.
  std::uint64_t size = 0;
};

/// A parsed (or hand-built) log. The payloads of all frames live in one
/// buffer (and the keyframes' snapshots in another) so that loading a long
/// log costs a few allocations, not one per frame.
struct ReplayLog {
  /// The header's identity fields.
  ReplayIdentity identity;
  /// The header's format version (which schema hash `identity` holds).
  std::uint16_t formatVersion = kReplayFormatVersion;
  /// The frames in tick order.
  std::vector<ReplayFrame> frames;
  /// Every frame's payload, back to back.
  std::vector<std::uint8_t> payload;
  /// The keyframes, ticks strictly ascending (empty before version 3).
  std::vector<ReplayKeyframe> keyframes;
  /// Every keyframe's snapshot, back to back.
  std::vector<std::uint8_t> keyframeBytes;

  /// Frames in the log.
  [[nodiscard]] std::uint64_t frameCount() const noexcept { return frames.size(); }
  /// Frame `index`'s payload (empty for an out-of-range index or range).
  [[nodiscard]] std::span<const std::uint8_t> frameBytes(std::size_t index) const noexcept;
  /// Keyframe `index`'s snapshot (empty for an out-of-range index or range).
  [[nodiscard]] std::span<const std::uint8_t> keyframeSnapshot(std::size_t index) const noexcept;
  /// Appends a frame with the next tick and a copy of `size` bytes (the
  /// in-memory way to build a log for runReplay). InvalidArgument for
  /// size > kMaxReplayFrameBytes or null data with size > 0.
  Status appendFrame(const std::uint8_t* data, std::uint32_t size);
};

/// Why parseReplay rejected its input: a static, stable reason id (e.g.
/// "bad_magic", "frame_too_large") and the byte offset it was found at.
struct ReplayParseError {
  /// Stable snake_case id of the failed check (nullptr when none failed).
  const char* reason = nullptr;
  /// Byte offset of the offending field.
  std::uint64_t offset = 0;
};

/// Parses an LGRP log (version 1, 2 or 3). Every rejection is MalformedInput (with a
/// rate-limited warn replay/parse_rejected carrying reason and offset, and
/// the same in `*why` when given): null or short input (< 56 bytes), bad
/// magic, a version outside kMinReplayFormatVersion..kReplayFormatVersion,
/// nonzero reserved, a frame length over 1 MiB
/// (checked before the payload is touched), a record running past the
/// trailer, a tick that is not previous + 1 (the first is 1), a trailer
/// frameCount that disagrees with the records, bytes left between the last
/// record and the trailer (v1, v2), a fileHash mismatch. In version 3 the
/// bytes after the last frame are keyframe records, each checked:
/// keyframe_past_end (runs into the trailer), keyframe_tick_range (tick >
/// frameCount), keyframe_tick_order (not above the previous keyframe's),
/// keyframe_snapshot_invalid (the snapshot's own header checks: magic,
/// version, total size = byteLength, checksum, and its completed-tick
/// counter = the keyframe's tick). Never reads outside
/// [data, data + size). Allocates the result (load path, not per tick).
Result<ReplayLog> parseReplay(const std::uint8_t* data, std::size_t size,
                              ReplayParseError* why = nullptr);

/// Reads and parses the log at `path`, reading at most `maxBytes` (0 = the
/// default cap). Errors: empty path -> MalformedInput; missing or unreadable
/// file -> IoError (warn replay/load_failed); a file over the cap ->
/// MalformedInput (warn replay/load_oversize) without reading past the cap;
/// otherwise as parseReplay.
Result<ReplayLog> loadReplay(const char* path, std::uint64_t maxBytes = kDefaultReplaySizeLimit,
                             ReplayParseError* why = nullptr);

// --- Recording ---------------------------------------------------------------

namespace detail {

/// The bookkeeping both recorders share: bytes committed, frames, the
/// running file hash and the sticky failure. All checks live here so that
/// the file and memory recorders cannot disagree.
struct ReplayEncoder {
  /// The size cap.
  std::uint64_t maxBytes = kDefaultReplaySizeLimit;
  /// Bytes written so far.
  std::uint64_t bytes = 0;
  /// Frames written so far.
  std::uint64_t frames = 0;
  /// FNV-1a-64 over the bytes written so far.
  std::uint64_t hash = 0xcbf29ce484222325ull;
  /// The sticky failure's code (0 = none).
  std::uint32_t failure = 0;
  /// The sticky failure with its reason (`record_failed`) and fields
  /// (reason: tick_sequence, frame_too_large, null_data, size_cap,
  /// write_failed, taken; frames, bytes, ...); ok while failure == 0.
  Status failureStatus{};
  /// True after a successful finish().
  bool finished = false;
  /// Keyframe every this many frames (0 = no keyframes: a version 2 log).
  std::uint64_t keyframeEvery = 0;
  /// Keyframes written so far.
  std::uint64_t keyframes = 0;
  /// The last keyframe's tick (UINT64_MAX = none yet).
  std::uint64_t lastKeyframeTick = ~std::uint64_t{0};
  /// Keyframe bytes held back until finish() (the section follows the
  /// frames): they count against the cap as soon as they are admitted.
  std::uint64_t pendingKeyframeBytes = 0;

  /// Validates the next frame and fills its 12-byte record header. Errors
  /// (sticky): finished -> InvalidArgument; tick != frames + 1, length over
  /// 1 MiB, null data with len > 0 -> InvalidArgument; record over the cap
  /// -> BudgetExhausted. A previous failure is returned again.
  Status admitFrame(std::uint64_t tick, const std::uint8_t* data, std::uint32_t len,
                    std::uint8_t (&record)[kReplayFrameOverhead]) noexcept;
  /// Validates the trailer against the cap and fills it (sticky errors as
  /// admitFrame: finished -> InvalidArgument, over the cap -> BudgetExhausted).
  Status admitTrailer(std::uint8_t (&trailer)[kReplayTrailerSize]) noexcept;
  /// Validates a keyframe of `size` snapshot bytes after `tick` completed
  /// ticks and fills its 12-byte record header. Not sticky, nothing
  /// written: finished -> InvalidArgument record_after_finish; keyframes
  /// off (keyframeEvery 0) -> InvalidArgument keyframes_off; tick != frames
  /// written or a second keyframe of the same tick -> InvalidArgument
  /// keyframe_tick. Sticky: over the cap -> BudgetExhausted (size_cap).
  /// On success the record counts as pending (pendingKeyframeBytes).
  Status admitKeyframe(std::uint64_t tick, std::uint64_t size,
                       std::uint8_t (&record)[kReplayKeyframeOverhead]) noexcept;
  /// True when a keyframe of the state after the last written frame is due:
  /// keyframes on, frames % keyframeEvery == 0 (tick 0 included) and none
  /// written for this tick yet, no failure, not finished.
  [[nodiscard]] bool keyframeDue() const noexcept;
  /// Accounts `n` written bytes into the count and the hash.
  void commit(const std::uint8_t* data, std::size_t n) noexcept;
  /// Records a sticky failure `record_failed` with `why` as its reason field
  /// (the first one sticks) and returns the sticky failure.
  Status fail(ErrorCode code, const char* why) noexcept;
};

/// Encodes the 40-byte header (version 3 when `keyframes`, else 2).
void encodeReplayHeader(const ReplayIdentity& identity, std::uint8_t (&out)[kReplayHeaderSize],
                        bool keyframes = false) noexcept;

/// Snapshots `world` into `out` (resized to fit, after the bytes already
/// there) behind a keyframe record header, once admitKeyframe accepted it:
/// the writers' shared keyframe step. Returns the admission's or the
/// snapshot's failure (out unchanged then). Allocates (out grows).
Status appendKeyframe(ReplayEncoder& enc, const World& world, std::vector<std::uint8_t>& out);

struct ReplayFileState;

}  // namespace detail

/// Records a log to a file. Writes `path + ".tmp"` and renames it to `path`
/// only in finish(), so a crashed or failed recording never leaves a file at
/// the final path; the destructor removes the temp file of an unfinished
/// recording. Move-only. Per-frame calls allocate nothing (the file buffer
/// is part of the recorder).
class ReplayRecorder {
 public:
  /// Opens `path + ".tmp"` and writes the header. maxBytes 0 = the default
  /// cap. Errors: null/empty path or a cap below kMinReplaySizeLimit ->
  /// InvalidArgument; the temp file cannot be created or written -> IoError.
  /// Each with a warn replay/record_start_failed.
  /// keyframeEvery > 0 asks for keyframes (a version 3 log): keyframeDue()
  /// turns true after every keyframeEvery-th frame and before the first,
  /// and writeKeyframe(world) records the world's snapshot then
  /// (`docs/replay.md#keyframes`). 0 (the default) writes a version 2 log.
  static Result<ReplayRecorder> create(const ReplayIdentity& identity, const char* path,
                                       std::uint64_t maxBytes = kDefaultReplaySizeLimit,
                                       std::uint64_t keyframeEvery = 0);

  /// An inert recorder (what a moved-from one is): every call fails.
  ReplayRecorder() noexcept;
  ~ReplayRecorder();
  /// Moves the recording; the source becomes inert.
  ReplayRecorder(ReplayRecorder&& other) noexcept;
  /// Moves the recording (an unfinished one held here is abandoned first).
  ReplayRecorder& operator=(ReplayRecorder&& other) noexcept;
  ReplayRecorder(const ReplayRecorder&) = delete;
  ReplayRecorder& operator=(const ReplayRecorder&) = delete;

  /// Appends the input of completed tick `tick` (1, 2, 3, ...). Errors
  /// (sticky: every later call returns the first failure, and the temp file
  /// is removed): wrong tick, len > 1 MiB, null data with len > 0 ->
  /// InvalidArgument; the record would cross the cap -> BudgetExhausted; a
  /// write error -> IoError. An inert recorder -> InvalidArgument. Logs a
  /// warn replay/record_failed once. No allocation.
  Status writeFrame(std::uint64_t tick, const std::uint8_t* data, std::uint32_t len) noexcept;
  /// Records `world`'s snapshot as the keyframe of tick
  /// world.systemTicksRun(), which must equal frameCount() (the state after
  /// the last written frame). The section follows the frames, so the
  /// recorder holds keyframes in memory until finish(); their bytes count
  /// against the cap at once. Errors, nothing written, not sticky:
  /// keyframes off -> InvalidArgument keyframes_off; another tick or a
  /// second keyframe of this tick -> InvalidArgument keyframe_tick; a
  /// moved-from world -> its snapshot error; finished or inert ->
  /// InvalidArgument. Sticky: over the cap -> BudgetExhausted. Allocates
  /// (the held-back section grows); O(snapshot bytes).
  Status writeKeyframe(const World& world);
  /// True when a keyframe is due now (see create). O(1).
  [[nodiscard]] bool keyframeDue() const noexcept;
  /// Keyframes written so far.
  [[nodiscard]] std::uint64_t keyframeCount() const noexcept;
  /// Writes the held-back keyframes and the trailer, flushes, closes and renames the temp file to the
  /// final path. Errors (sticky): the trailer would cross the cap ->
  /// BudgetExhausted; flush/close/rename failure -> IoError; already
  /// finished or inert -> InvalidArgument.
  Status finish() noexcept;

  /// Frames written so far.
  [[nodiscard]] std::uint64_t frameCount() const noexcept;
  /// Bytes written so far (header and records; the trailer after finish).
  [[nodiscard]] std::uint64_t bytesWritten() const noexcept;
  /// The sticky failure, or ok.
  [[nodiscard]] Status status() const noexcept;
  /// True after a successful finish().
  [[nodiscard]] bool finished() const noexcept;

 private:
  explicit ReplayRecorder(std::unique_ptr<detail::ReplayFileState> s) noexcept;
  void abandon() noexcept;
  std::unique_ptr<detail::ReplayFileState> s_;
};

/// Records a log into memory (the wasm/TypeScript layer hands the bytes to
/// JS as a Uint8Array). Same checks, caps and sticky failure as
/// ReplayRecorder. The buffer grows by doubling unless reserve() was called
/// with the expected size, so a frame may allocate (amortised O(1)).
class ReplayWriter {
 public:
  /// Starts a log with `identity`; maxBytes 0 = the default cap. A cap below
  /// kMinReplaySizeLimit -> InvalidArgument.
  /// keyframeEvery as ReplayRecorder::create (0 = none, a version 2 log).
  static Result<ReplayWriter> create(const ReplayIdentity& identity,
                                     std::uint64_t maxBytes = kDefaultReplaySizeLimit,
                                     std::uint64_t keyframeEvery = 0);

  /// Reserves `bytes` (clamped to the cap) so later frames do not allocate.
  void reserve(std::uint64_t bytes);
  /// As ReplayRecorder::writeFrame (no IoError).
  Status writeFrame(std::uint64_t tick, const std::uint8_t* data, std::uint32_t len);
  /// Whether the next frame with a `len`-byte payload would be written,
  /// without writing or failing anything: the error writeFrame would return
  /// (sticky failure, finished -> InvalidArgument, len over 1 MiB ->
  /// InvalidArgument, over the cap -> BudgetExhausted), or ok. Lets a
  /// caller that runs a tick and then records it check first. O(1).
  [[nodiscard]] Status canWriteFrame(std::uint32_t len) const noexcept;
  /// As ReplayRecorder::writeKeyframe (held back until finish()).
  Status writeKeyframe(const World& world);
  /// True when a keyframe is due now. O(1).
  [[nodiscard]] bool keyframeDue() const noexcept { return enc_.keyframeDue(); }
  /// Keyframes written so far.
  [[nodiscard]] std::uint64_t keyframeCount() const noexcept { return enc_.keyframes; }
  /// Appends the held-back keyframes and the trailer. As ReplayRecorder::finish (no IoError).
  Status finish();

  /// The log so far; the complete file after a successful finish().
  [[nodiscard]] const std::vector<std::uint8_t>& bytes() const noexcept { return bytes_; }
  /// Moves the bytes out (the writer is left empty and inert).
  [[nodiscard]] std::vector<std::uint8_t> takeBytes() noexcept;
  /// Frames written so far.
  [[nodiscard]] std::uint64_t frameCount() const noexcept { return enc_.frames; }
  /// The sticky failure, or ok.
  [[nodiscard]] Status status() const noexcept;
  /// True after a successful finish().
  [[nodiscard]] bool finished() const noexcept { return enc_.finished; }

 private:
  ReplayWriter() = default;
  detail::ReplayEncoder enc_;
  std::vector<std::uint8_t> bytes_;
  std::vector<std::uint8_t> keyframes_;
};

// --- Running -----------------------------------------------------------------

/// A progress hook for long replays (the CLI prints every 10%).
struct ReplayProgress {
  /// Called with the frames done so far and the total, every `interval`
  /// frames and once at the end. Must not touch the world.
  void (*fn)(void* ctx, std::uint64_t done, std::uint64_t total) noexcept = nullptr;
  /// Passed to fn.
  void* ctx = nullptr;
  /// Frames between calls (0 = only at the end).
  std::uint64_t interval = 0;
};

/// What runReplay computed.
struct ReplayRunResult {
  /// world.stateHash(t) for t = 0 (the state before the first frame) .. N:
  /// frameCount + 1 entries.
  std::vector<std::uint64_t> tickHashes;
};

/// Replays `log` into `world` (fresh from setup, built with
/// worldOptionsFor(config)): checks, in order, that the log is well formed
/// (tick i + 1 at index i, payload ranges inside the buffer; else
/// MalformedInput + replay/log_invalid), that the world is fresh (no tick
/// run) and matches the config (seed, capacity, churn budget,
/// deterministic; else InvalidArgument + replay/config_world_mismatch), that the log's identity matches
/// makeReplayIdentity(world, config) field by field (else InvalidArgument +
/// replay/identity_mismatch with both sides' values), and that determinism
/// is enabled (else InvalidArgument + replay/determinism_disabled). Then
/// schedules the systems once and per frame calls beginFrame() and
/// runSystems(schedule, TickInput{payload}) - the payload is what the
/// systems read as SystemContext::input - and records the state hash. A
/// failing tick returns its error (warn replay/run_failed). The result
/// vector is reserved up front; the ticks themselves allocate nothing.
Result<ReplayRunResult> runReplay(const ReplayLog& log, World& world, const ReplayConfig& config,
                                  const ReplayProgress* progress = nullptr);

}  // namespace laige
