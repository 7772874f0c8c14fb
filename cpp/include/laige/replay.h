// laige/replay.h - replay logs: the LGRP format (v2; v1 read), the replay identity,
// the recorders, the parser and the replay runner (docs/replay.md).
//
// A replay is what it takes to re-run a simulation bit for bit: the identity
// (seed, tick rate, component schema, math backend, configuration) plus, per
// completed tick, the opaque input payload the systems read through
// SystemContext::input. Everything else is a pure function of those, so a
// log is small (40 + 12 per tick + payload + 16 bytes) and runReplay turns
// it back into the per-tick state hash stream.
//
// Log format v2 (v1 is still read, see kMinReplayFormatVersion), every
// integer little-endian and encoded byte by byte (never
// a memcpy of a struct, so the file is the same on every host):
//   header  (40 B) "LGRP", u16 version = 2, u16 reserved = 0, u64 seed,
//                  u32 tickRateHz, u64 componentSchemaHash,
//                  u32 mathBackendId, u64 configHash
//   frame   (12 B + payload) u64 tick (1, 2, 3, ...), u32 byteLength
//                  (<= 1 MiB), payload
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
/// The format version this build writes. Version 2 identifies the setup by
/// component names and field layouts too (componentSchemaHash).
inline constexpr std::uint16_t kReplayFormatVersion = 2;
/// The oldest version this build reads: a version 1 log is checked against
/// its own, older schema hash (ids, sizes and alignments only).
inline constexpr std::uint16_t kMinReplayFormatVersion = 1;
/// The largest payload one frame may carry (1 MiB): an input blob, not a
/// state dump. Checked before a payload is read, so a corrupt length can
/// never make the parser allocate or read past it.
inline constexpr std::uint32_t kMaxReplayFrameBytes = 1u << 20;
/// A frame record's fixed part: u64 tick + u32 byteLength.
inline constexpr std::uint32_t kReplayFrameOverhead = 12;
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

/// A parsed (or hand-built) log. The payloads of all frames live in one
/// buffer so that loading a long log costs two allocations, not one per
/// frame.
struct ReplayLog {
  /// The header's identity fields.
  ReplayIdentity identity;
  /// The header's format version (which schema hash `identity` holds).
  std::uint16_t formatVersion = kReplayFormatVersion;
  /// The frames in tick order.
  std::vector<ReplayFrame> frames;
  /// Every frame's payload, back to back.
  std::vector<std::uint8_t> payload;

  /// Frames in the log.
  [[nodiscard]] std::uint64_t frameCount() const noexcept { return frames.size(); }
  /// Frame `index`'s payload (empty for an out-of-range index or range).
  [[nodiscard]] std::span<const std::uint8_t> frameBytes(std::size_t index) const noexcept;
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

/// Parses an LGRP log (version 1 or 2). Every rejection is MalformedInput (with a
/// rate-limited warn replay/parse_rejected carrying reason and offset, and
/// the same in `*why` when given): null or short input (< 56 bytes), bad
/// magic, a version outside kMinReplayFormatVersion..kReplayFormatVersion,
/// nonzero reserved, a frame length over 1 MiB
/// (checked before the payload is touched), a record running past the
/// trailer, a tick that is not previous + 1 (the first is 1), a trailer
/// frameCount that disagrees with the records, bytes left between the last
/// record and the trailer, a fileHash mismatch. Never reads outside
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

  /// Validates the next frame and fills its 12-byte record header. Errors
  /// (sticky): finished -> InvalidArgument; tick != frames + 1, length over
  /// 1 MiB, null data with len > 0 -> InvalidArgument; record over the cap
  /// -> BudgetExhausted. A previous failure is returned again.
  Status admitFrame(std::uint64_t tick, const std::uint8_t* data, std::uint32_t len,
                    std::uint8_t (&record)[kReplayFrameOverhead]) noexcept;
  /// Validates the trailer against the cap and fills it (sticky errors as
  /// admitFrame: finished -> InvalidArgument, over the cap -> BudgetExhausted).
  Status admitTrailer(std::uint8_t (&trailer)[kReplayTrailerSize]) noexcept;
  /// Accounts `n` written bytes into the count and the hash.
  void commit(const std::uint8_t* data, std::size_t n) noexcept;
  /// Records a sticky failure `record_failed` with `why` as its reason field
  /// (the first one sticks) and returns the sticky failure.
  Status fail(ErrorCode code, const char* why) noexcept;
};

/// Encodes the 40-byte header.
void encodeReplayHeader(const ReplayIdentity& identity, std::uint8_t (&out)[kReplayHeaderSize]) noexcept;

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
  static Result<ReplayRecorder> create(const ReplayIdentity& identity, const char* path,
                                       std::uint64_t maxBytes = kDefaultReplaySizeLimit);

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
  /// Writes the trailer, flushes, closes and renames the temp file to the
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
  static Result<ReplayWriter> create(const ReplayIdentity& identity,
                                     std::uint64_t maxBytes = kDefaultReplaySizeLimit);

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
  /// Appends the trailer. As ReplayRecorder::finish (no IoError).
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
