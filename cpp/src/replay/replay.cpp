// replay.cpp - the LGRP codec: the shared encoder checks, the file and
// memory recorders, the parser and the bounded loader (docs/replay.md). The
// keyframe section's codec is replay_keyframes.cpp.
#include "laige/replay.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

#include "laige/logging.h"
#include "logging/log_texts.h"
#include "replay/replay_internal.h"

namespace laige {

namespace {

constexpr std::uint8_t kMagic[4] = {'L', 'G', 'R', 'P'};

std::uint64_t effectiveCap(std::uint64_t maxBytes) noexcept {
  return maxBytes == 0 ? kDefaultReplaySizeLimit : maxBytes;
}

}  // namespace

// --- Encoder ------------------------------------------------------------------

namespace detail {

Status ReplayEncoder::fail(ErrorCode code, const char* why) noexcept {
  if (failure == 0) {
    failure = static_cast<std::uint32_t>(code);
    failureStatus = Status::failure(code, "record_failed")
                        .with("reason", why)
                        .with("frames", frames)
                        .with("bytes", bytes)
                        .with("max_bytes", maxBytes);
  }
  return failureStatus;
}

Status ReplayEncoder::admitFrame(std::uint64_t tick, const std::uint8_t* data, std::uint32_t len,
                                 std::uint8_t (&record)[kReplayFrameOverhead]) noexcept {
  if (failure != 0) return failureStatus;
  // A published log is immutable: misuse after finish is reported without
  // turning the (already renamed) recording into a failure.
  if (finished) return Status::failure(ErrorCode::InvalidArgument, "record_after_finish").with("frames", frames);
  if (tick != frames + 1) return fail(ErrorCode::InvalidArgument, "tick_sequence");
  if (len > kMaxReplayFrameBytes) return fail(ErrorCode::InvalidArgument, "frame_too_large");
  if (data == nullptr && len != 0) return fail(ErrorCode::InvalidArgument, "null_data");
  if (bytes + pendingKeyframeBytes + kReplayFrameOverhead + len > maxBytes) {
    return fail(ErrorCode::BudgetExhausted, "size_cap");
  }
  putLe64(record, tick);
  putLe32(record + 8, len);
  return Status{};
}

Status ReplayEncoder::admitTrailer(std::uint8_t (&trailer)[kReplayTrailerSize]) noexcept {
  if (failure != 0) return failureStatus;
  if (finished) return Status::failure(ErrorCode::InvalidArgument, "record_after_finish").with("frames", frames);
  if (bytes + pendingKeyframeBytes + kReplayTrailerSize > maxBytes) return fail(ErrorCode::BudgetExhausted, "size_cap");
  putLe64(trailer, frames);
  putLe64(trailer + 8, hash);
  return Status{};
}

void ReplayEncoder::commit(const std::uint8_t* data, std::size_t n) noexcept {
  hash = replayFileHash(data, n, hash);
  bytes += n;
}

void encodeReplayHeader(const ReplayIdentity& identity, std::uint8_t (&out)[kReplayHeaderSize],
                        bool keyframes) noexcept {
  for (int i = 0; i < 4; ++i) out[i] = kMagic[i];
  putLe16(out + 4, keyframes ? kReplayFormatVersion : kReplayPlainFormatVersion);
  putLe16(out + 6, 0);
  putLe64(out + 8, identity.seed);
  putLe32(out + 16, identity.tickRateHz);
  putLe64(out + 20, identity.componentSchemaHash);
  putLe32(out + 28, identity.mathBackendId);
  putLe64(out + 32, identity.configHash);
}

/// The file recorder's state, allocated once by create(). The stdio buffer
/// lives here so that per-frame fwrite calls never allocate.
struct ReplayFileState {
  ReplayEncoder enc;
  std::FILE* file = nullptr;
  std::string path;
  std::string tempPath;
  std::vector<std::uint8_t> keyframes;  // the section, written at finish()
  bool reported = false;  // record_failed logged once
  char ioBuffer[64 * 1024];
};

}  // namespace detail

// --- ReplayRecorder -------------------------------------------------------------

ReplayRecorder::ReplayRecorder() noexcept = default;
ReplayRecorder::ReplayRecorder(std::unique_ptr<detail::ReplayFileState> s) noexcept : s_(std::move(s)) {}
ReplayRecorder::~ReplayRecorder() { abandon(); }
ReplayRecorder::ReplayRecorder(ReplayRecorder&& other) noexcept : s_(std::move(other.s_)) {}
ReplayRecorder& ReplayRecorder::operator=(ReplayRecorder&& other) noexcept {
  if (this != &other) {
    abandon();
    s_ = std::move(other.s_);
  }
  return *this;
}

Result<ReplayRecorder> ReplayRecorder::create(const ReplayIdentity& identity, const char* path,
                                              std::uint64_t maxBytes, std::uint64_t keyframeEvery) {
  const std::uint64_t cap = effectiveCap(maxBytes);
  if (path == nullptr || path[0] == '\0' || cap < kMinReplaySizeLimit) {
    LAIGE_LOG_WARN("replay", "record_start_failed", log::texts::RecordStartFailed,
                   log::field("reason", path == nullptr || path[0] == '\0' ? "empty_path" : "cap_too_small"),
                   log::field("max_bytes", cap));
    return Status::failure(ErrorCode::InvalidArgument, "record_start_failed")
        .with("reason", path == nullptr || path[0] == '\0' ? "empty_path" : "cap_too_small")
        .with("max_bytes", cap)
        .with("min_bytes", kMinReplaySizeLimit);
  }
  auto s = std::make_unique<detail::ReplayFileState>();
  s->enc.maxBytes = cap;
  s->enc.keyframeEvery = keyframeEvery;
  s->path = path;
  s->tempPath = s->path + ".tmp";
  s->file = std::fopen(s->tempPath.c_str(), "wb");
  if (s->file == nullptr) {
    LAIGE_LOG_WARN("replay", "record_start_failed", log::texts::RecordStartFailed, log::field("reason", "open_failed"),
                   log::field("path", s->tempPath.c_str()), log::field("errno", errno));
    return Status::failure(ErrorCode::IoError, "record_start_failed")
        .with("reason", "open_failed")
        .with("path", s->tempPath)
        .with("errno", errno);
  }
  std::setvbuf(s->file, s->ioBuffer, _IOFBF, sizeof s->ioBuffer);
  std::uint8_t header[kReplayHeaderSize];
  detail::encodeReplayHeader(identity, header, keyframeEvery != 0);
  if (std::fwrite(header, 1, sizeof header, s->file) != sizeof header) {
    std::fclose(s->file);
    std::remove(s->tempPath.c_str());
    LAIGE_LOG_WARN("replay", "record_start_failed", log::texts::RecordStartFailed, log::field("reason", "write_failed"),
                   log::field("path", s->tempPath.c_str()));
    return Status::failure(ErrorCode::IoError, "record_start_failed")
        .with("reason", "write_failed")
        .with("path", s->tempPath);
  }
  s->enc.commit(header, sizeof header);
  LAIGE_LOG_INFO("replay", "record_started", log::texts::RecordStarted, log::field("path", path),
                 log::field("max_bytes", cap));
  return ReplayRecorder(std::move(s));
}

// Closes and deletes the temp file of a failed recording (once) and logs it.
static Status failRecording(detail::ReplayFileState& s, ErrorCode code, const char* why) noexcept {
  const Status st = s.enc.fail(code, why);
  if (s.file != nullptr) {
    std::fclose(s.file);
    s.file = nullptr;
    std::remove(s.tempPath.c_str());
  }
  if (!s.reported) {
    s.reported = true;
    LAIGE_LOG_WARN("replay", "record_failed", log::texts::RecordFailed, log::field("code", errorName(st.error())),
                   log::field("frames", s.enc.frames), log::field("bytes", s.enc.bytes),
                   log::field("path", s.path.c_str()));
  }
  return st;
}

Status ReplayRecorder::writeFrame(std::uint64_t tick, const std::uint8_t* data, std::uint32_t len) noexcept {
  if (!s_) return Status::failure(ErrorCode::InvalidArgument, "recorder_moved_from");
  detail::ReplayFileState& s = *s_;
  const bool wasFailed = s.enc.failure != 0;
  std::uint8_t record[kReplayFrameOverhead];
  const Status st = s.enc.admitFrame(tick, data, len, record);
  if (st.isError()) return wasFailed || s.enc.finished ? st : failRecording(s, st.error(), st.fieldValue("reason"));
  if (std::fwrite(record, 1, sizeof record, s.file) != sizeof record ||
      (len != 0 && std::fwrite(data, 1, len, s.file) != len)) {
    return failRecording(s, ErrorCode::IoError, "write_failed");
  }
  s.enc.commit(record, sizeof record);
  s.enc.commit(data, len);
  ++s.enc.frames;
  return Status{};
}

Status ReplayRecorder::writeKeyframe(const World& world) {
  if (!s_) return Status::failure(ErrorCode::InvalidArgument, "recorder_moved_from");
  detail::ReplayFileState& s = *s_;
  const bool wasFailed = s.enc.failure != 0;
  const Status st = detail::appendKeyframe(s.enc, world, s.keyframes);
  if (st.isError() && !wasFailed && s.enc.failure != 0) return failRecording(s, st.error(), st.fieldValue("reason"));
  return st;
}

bool ReplayRecorder::keyframeDue() const noexcept { return s_ && s_->enc.keyframeDue(); }
std::uint64_t ReplayRecorder::keyframeCount() const noexcept { return s_ ? s_->enc.keyframes : 0; }

Status ReplayRecorder::finish() noexcept {
  if (!s_) return Status::failure(ErrorCode::InvalidArgument, "recorder_moved_from");
  detail::ReplayFileState& s = *s_;
  const bool wasFailed = s.enc.failure != 0;
  std::uint8_t trailer[kReplayTrailerSize];
  const Status st = s.enc.admitTrailer(trailer);
  if (st.isError()) return wasFailed || s.enc.finished ? st : failRecording(s, st.error(), st.fieldValue("reason"));
  // The held-back keyframe section goes before the trailer (admitTrailer
  // counted it); the trailer's hash must cover it, so it is re-encoded.
  if (!s.keyframes.empty()) {
    if (std::fwrite(s.keyframes.data(), 1, s.keyframes.size(), s.file) != s.keyframes.size()) {
      return failRecording(s, ErrorCode::IoError, "write_failed");
    }
    s.enc.commit(s.keyframes.data(), s.keyframes.size());
    s.enc.pendingKeyframeBytes = 0;
    detail::putLe64(trailer + 8, s.enc.hash);
  }
  // fclose reports the flush of the last buffered bytes: check both, since a
  // full disk usually shows up only here.
  const bool wrote = std::fwrite(trailer, 1, sizeof trailer, s.file) == sizeof trailer;
  const bool flushed = std::fflush(s.file) == 0;
  const bool closed = std::fclose(s.file) == 0;
  s.file = nullptr;
  if (!wrote || !flushed || !closed) {
    std::remove(s.tempPath.c_str());
    return failRecording(s, ErrorCode::IoError, "write_failed");
  }
  if (std::rename(s.tempPath.c_str(), s.path.c_str()) != 0) {
    std::remove(s.tempPath.c_str());
    return failRecording(s, ErrorCode::IoError, "rename_failed");
  }
  s.enc.bytes += sizeof trailer;
  s.enc.finished = true;
  LAIGE_LOG_INFO("replay", "record_finished", log::texts::RecordFinished, log::field("path", s.path.c_str()),
                 log::field("frames", s.enc.frames), log::field("bytes", s.enc.bytes));
  return Status{};
}

void ReplayRecorder::abandon() noexcept {
  if (!s_) return;
  detail::ReplayFileState& s = *s_;
  if (s.file != nullptr) {
    std::fclose(s.file);
    s.file = nullptr;
    std::remove(s.tempPath.c_str());
    if (s.enc.failure == 0 && !s.enc.finished) {
      LAIGE_LOG_WARN("replay", "record_aborted", log::texts::RecordAborted, log::field("frames", s.enc.frames),
                     log::field("path", s.path.c_str()));
    }
  }
  s_.reset();
}

std::uint64_t ReplayRecorder::frameCount() const noexcept { return s_ ? s_->enc.frames : 0; }
std::uint64_t ReplayRecorder::bytesWritten() const noexcept { return s_ ? s_->enc.bytes : 0; }
Status ReplayRecorder::status() const noexcept {
  if (!s_) return Status::failure(ErrorCode::InvalidArgument, "recorder_moved_from");
  return s_->enc.failureStatus;
}
bool ReplayRecorder::finished() const noexcept { return s_ && s_->enc.finished; }

// --- ReplayWriter ------------------------------------------------------------

Result<ReplayWriter> ReplayWriter::create(const ReplayIdentity& identity, std::uint64_t maxBytes,
                                          std::uint64_t keyframeEvery) {
  const std::uint64_t cap = effectiveCap(maxBytes);
  if (cap < kMinReplaySizeLimit) {
    LAIGE_LOG_WARN("replay", "record_start_failed", log::texts::RecordStartFailed, log::field("reason", "cap_too_small"),
                   log::field("max_bytes", cap));
    return Status::failure(ErrorCode::InvalidArgument, "record_start_failed")
        .with("reason", "cap_too_small")
        .with("max_bytes", cap)
        .with("min_bytes", kMinReplaySizeLimit);
  }
  ReplayWriter w;
  w.enc_.maxBytes = cap;
  w.enc_.keyframeEvery = keyframeEvery;
  std::uint8_t header[kReplayHeaderSize];
  detail::encodeReplayHeader(identity, header, keyframeEvery != 0);
  w.bytes_.assign(header, header + sizeof header);
  w.enc_.commit(header, sizeof header);
  return w;
}

void ReplayWriter::reserve(std::uint64_t bytes) {
  const std::uint64_t n = bytes < enc_.maxBytes ? bytes : enc_.maxBytes;
  if (n <= SIZE_MAX) bytes_.reserve(static_cast<std::size_t>(n));
}

Status ReplayWriter::writeFrame(std::uint64_t tick, const std::uint8_t* data, std::uint32_t len) {
  const bool wasFailed = enc_.failure != 0;
  std::uint8_t record[kReplayFrameOverhead];
  const Status st = enc_.admitFrame(tick, data, len, record);
  if (st.isError()) {
    if (!wasFailed && !enc_.finished) {
      LAIGE_LOG_WARN("replay", "record_failed", log::texts::RecordFailed, log::field("code", errorName(st.error())),
                     log::field("frames", enc_.frames), log::field("bytes", enc_.bytes));
    }
    return st;
  }
  bytes_.insert(bytes_.end(), record, record + sizeof record);
  if (len != 0) bytes_.insert(bytes_.end(), data, data + len);
  enc_.commit(record, sizeof record);
  enc_.commit(data, len);
  ++enc_.frames;
  return Status{};
}

Status ReplayWriter::canWriteFrame(std::uint32_t len) const noexcept {
  if (enc_.failure != 0) return Status::failure(static_cast<ErrorCode>(enc_.failure), "record_failed");
  if (enc_.finished) return Status::failure(ErrorCode::InvalidArgument, "recorder_finished");
  if (len > kMaxReplayFrameBytes) {
    return Status::failure(ErrorCode::InvalidArgument, "frame_too_large").with("length", len);
  }
  if (enc_.bytes + enc_.pendingKeyframeBytes + kReplayFrameOverhead + len > enc_.maxBytes) {
    return Status::failure(ErrorCode::BudgetExhausted, "replay_size_cap")
        .with("bytes", enc_.bytes)
        .with("max_bytes", enc_.maxBytes);
  }
  return Status{};
}

Status ReplayWriter::finish() {
  const bool wasFailed = enc_.failure != 0;
  std::uint8_t trailer[kReplayTrailerSize];
  const Status st = enc_.admitTrailer(trailer);
  if (st.isError()) {
    if (!wasFailed && !enc_.finished) {
      LAIGE_LOG_WARN("replay", "record_failed", log::texts::RecordFailed, log::field("code", errorName(st.error())),
                     log::field("frames", enc_.frames), log::field("bytes", enc_.bytes));
    }
    return st;
  }
  // The held-back keyframe section goes before the trailer (admitTrailer
  // counted it); the trailer's hash must cover it, so it is re-encoded.
  if (!keyframes_.empty()) {
    bytes_.insert(bytes_.end(), keyframes_.begin(), keyframes_.end());
    enc_.commit(keyframes_.data(), keyframes_.size());
    enc_.pendingKeyframeBytes = 0;
    detail::putLe64(trailer + 8, enc_.hash);
    keyframes_ = {};
  }
  // The cap (<= maxBytes) was reserved by the caller or grows here once.
  bytes_.insert(bytes_.end(), trailer, trailer + sizeof trailer);
  enc_.bytes += sizeof trailer;
  enc_.finished = true;
  return Status{};
}

std::vector<std::uint8_t> ReplayWriter::takeBytes() noexcept {
  std::vector<std::uint8_t> out = std::move(bytes_);
  bytes_ = {};
  if (!enc_.finished) static_cast<void>(enc_.fail(ErrorCode::InvalidArgument, "taken"));
  return out;
}

Status ReplayWriter::status() const noexcept {
  return enc_.failureStatus;
}

// --- ReplayLog ------------------------------------------------------------------

std::span<const std::uint8_t> ReplayLog::frameBytes(std::size_t index) const noexcept {
  if (index >= frames.size()) return {};
  const ReplayFrame& f = frames[index];
  if (f.offset > payload.size() || payload.size() - f.offset < f.size) return {};
  return {payload.data() + f.offset, f.size};
}

Status ReplayLog::appendFrame(const std::uint8_t* data, std::uint32_t size) {
  if (size > kMaxReplayFrameBytes || (data == nullptr && size != 0)) {
    return Status::failure(ErrorCode::InvalidArgument, "log_invalid")
        .with("frame_index", static_cast<std::uint64_t>(frames.size()))
        .with("size", size)
        .with("reason", data == nullptr && size != 0 ? "null_data" : "frame_too_large");
  }
  frames.push_back(ReplayFrame{frames.size() + 1, payload.size(), size});
  if (size != 0) payload.insert(payload.end(), data, data + size);
  return Status{};
}

// --- Parsing ----------------------------------------------------------------------

namespace {

Result<ReplayLog> reject(ReplayParseError* why, const char* reason, std::uint64_t offset) {
  if (why != nullptr) *why = ReplayParseError{reason, offset};
  LAIGE_LOG_WARN("replay", "parse_rejected", log::texts::ParseRejected, log::field("reason", reason),
                 log::field("offset", offset));
  return Status::failure(ErrorCode::MalformedInput, "parse_rejected").with("reason", reason).with("offset", offset);
}

}  // namespace

Result<ReplayLog> parseReplay(const std::uint8_t* data, std::size_t size, ReplayParseError* why) {
  using detail::getLe32;
  using detail::getLe64;
  if (why != nullptr) *why = ReplayParseError{};
  if (data == nullptr || size < kMinReplaySizeLimit) return reject(why, "short_input", size);
  if (std::memcmp(data, kMagic, 4) != 0) return reject(why, "bad_magic", 0);
  const std::uint16_t version = detail::getLe16(data + 4);
  if (version < kMinReplayFormatVersion || version > kReplayFormatVersion) {  // 1..3
    return reject(why, "unsupported_version", 4);
  }
  if (detail::getLe16(data + 6) != 0) return reject(why, "reserved_nonzero", 6);

  ReplayLog log;
  log.formatVersion = version;
  log.identity.seed = getLe64(data + 8);
  log.identity.tickRateHz = getLe32(data + 16);
  log.identity.componentSchemaHash = getLe64(data + 20);
  log.identity.mathBackendId = getLe32(data + 28);
  log.identity.configHash = getLe64(data + 32);

  // The records occupy [header, recordsEnd); the trailer is the last 16 bytes.
  const std::size_t recordsEnd = size - kReplayTrailerSize;
  const std::uint64_t frameCount = getLe64(data + recordsEnd);
  // Every frame takes at least 12 bytes: a count the records region cannot
  // hold is rejected before it sizes any allocation.
  if (frameCount > (recordsEnd - kReplayHeaderSize) / kReplayFrameOverhead) {
    return reject(why, "frame_count_mismatch", recordsEnd);
  }
  log.frames.reserve(static_cast<std::size_t>(frameCount));

  // Pass 1: structure only (offsets point into `data` for now).
  std::size_t off = kReplayHeaderSize;
  std::uint64_t payloadTotal = 0;
  for (std::uint64_t i = 0; i < frameCount; ++i) {
    if (off == recordsEnd) return reject(why, "frame_count_mismatch", recordsEnd);
    if (recordsEnd - off < kReplayFrameOverhead) return reject(why, "record_past_end", off);
    const std::uint64_t tick = getLe64(data + off);
    const std::uint32_t len = getLe32(data + off + 8);
    // The length is judged before the payload is touched: a corrupt length
    // can only ever cost this comparison.
    if (len > kMaxReplayFrameBytes) return reject(why, "frame_too_large", off + 8);
    if (recordsEnd - off - kReplayFrameOverhead < len) return reject(why, "record_past_end", off);
    if (tick != i + 1) return reject(why, "tick_sequence", off);
    log.frames.push_back(ReplayFrame{tick, off + kReplayFrameOverhead, len});
    payloadTotal += len;
    off += kReplayFrameOverhead + len;
  }
  if (version >= 3 && off != recordsEnd) {
    // Version 3: what follows the frames is the keyframe section.
    ReplayParseError kf{};
    if (!detail::parseKeyframeSection(data, off, recordsEnd, frameCount, log, kf)) {
      return reject(why, kf.reason, kf.offset);
    }
    off = recordsEnd;
  }
  if (off != recordsEnd) {
    // More bytes before the trailer: a complete next frame means the
    // trailer's count is wrong; anything else is junk.
    const std::size_t rest = recordsEnd - off;
    const bool nextFrame = rest >= kReplayFrameOverhead && getLe64(data + off) == frameCount + 1 &&
                           getLe32(data + off + 8) <= rest - kReplayFrameOverhead;
    return reject(why, nextFrame ? "frame_count_mismatch" : "trailing_bytes", off);
  }
  if (replayFileHash(data, recordsEnd) != getLe64(data + recordsEnd + 8)) {
    return reject(why, "file_hash_mismatch", recordsEnd + 8);
  }

  // Pass 2: copy the payloads into one buffer and rebase the offsets.
  log.payload.resize(static_cast<std::size_t>(payloadTotal));
  std::uint64_t at = 0;
  for (ReplayFrame& f : log.frames) {
    if (f.size != 0) std::memcpy(log.payload.data() + at, data + f.offset, f.size);
    f.offset = at;
    at += f.size;
  }
  return log;
}

Result<ReplayLog> loadReplay(const char* path, std::uint64_t maxBytes, ReplayParseError* why) {
  if (why != nullptr) *why = ReplayParseError{};
  if (path == nullptr || path[0] == '\0') {
    if (why != nullptr) *why = ReplayParseError{"empty_path", 0};
    LAIGE_LOG_WARN("replay", "load_failed", log::texts::LoadFailed, log::field("reason", "empty_path"));
    return Status::failure(ErrorCode::MalformedInput, "load_failed").with("reason", "empty_path");
  }
  const std::uint64_t cap = effectiveCap(maxBytes);
  std::FILE* f = std::fopen(path, "rb");
  if (f == nullptr) {
    if (why != nullptr) *why = ReplayParseError{"open_failed", 0};
    LAIGE_LOG_WARN("replay", "load_failed", log::texts::LoadFailed, log::field("reason", "open_failed"),
                   log::field("path", path), log::field("errno", errno));
    return Status::failure(ErrorCode::IoError, "load_failed")
        .with("reason", "open_failed")
        .with("path", path)
        .with("errno", errno);
  }
  std::vector<std::uint8_t> bytes;
  // A regular file tells its size up front: an oversize one is rejected
  // without reading it. Pipes and the like fall through to the bounded loop.
  if (std::fseek(f, 0, SEEK_END) == 0) {
    const long end = std::ftell(f);
    if (end > 0 && static_cast<std::uint64_t>(end) <= cap) bytes.reserve(static_cast<std::size_t>(end));
    std::rewind(f);
  }
  bool oversize = false;
  bool readError = false;
  constexpr std::size_t kChunk = 64 * 1024;
  for (;;) {
    // Never ask for more than cap + 1 bytes in total: one byte past the cap
    // is enough to know the file is too big.
    const std::uint64_t room = cap + 1 - bytes.size();
    const std::size_t want = room < kChunk ? static_cast<std::size_t>(room) : kChunk;
    const std::size_t old = bytes.size();
    bytes.resize(old + want);
    const std::size_t got = std::fread(bytes.data() + old, 1, want, f);
    bytes.resize(old + got);
    if (bytes.size() > cap) {
      oversize = true;
      break;
    }
    if (got < want) {
      readError = std::ferror(f) != 0;
      break;
    }
  }
  std::fclose(f);
  if (readError) {
    if (why != nullptr) *why = ReplayParseError{"read_failed", bytes.size()};
    LAIGE_LOG_WARN("replay", "load_failed", log::texts::LoadFailed, log::field("reason", "read_failed"),
                   log::field("path", path));
    return Status::failure(ErrorCode::IoError, "load_failed").with("reason", "read_failed").with("path", path);
  }
  if (oversize) {
    if (why != nullptr) *why = ReplayParseError{"oversize", cap};
    LAIGE_LOG_WARN("replay", "load_oversize", log::texts::LoadOversize, log::field("path", path),
                   log::field("max_bytes", cap));
    return Status::failure(ErrorCode::MalformedInput, "load_oversize").with("path", path).with("max_bytes", cap);
  }
  return parseReplay(bytes.data(), bytes.size(), why);
}

}  // namespace laige
