// logging.cpp - the logging facade (docs/logging.md.
//
// Everything the logger needs after init() is preallocated: the subsystem
// overrides and the rate-limit keys live in fixed tables, fields carry
// inline buffers, and the built-in sinks format into a stack buffer. One
// mutex guards the tables; it is never held while a sink runs, so a slow
// sink cannot stall the limiter and a crash inside a sink cannot leave the
// facade locked.
#include "laige/logging.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <version>

#if !defined(__EMSCRIPTEN__) && (defined(__unix__) || defined(__APPLE__))
#define LAIGE_LOG_POSIX_SIGNALS 1
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#else
#define LAIGE_LOG_POSIX_SIGNALS 0
#endif

namespace laige::log {

constexpr auto kRelaxed = std::memory_order_relaxed;

const char* severityName(Severity severity) noexcept {
  static constexpr const char* kNames[] = {"trace", "debug", "info", "warn", "error", "fatal"};
  const auto v = static_cast<std::size_t>(severity);
  return v < std::size(kNames) ? kNames[v] : "unknown";
}

const char* levelName(Level level) noexcept {
  return level == Level::Off ? "off" : severityName(static_cast<Severity>(level));
}

// ---------------------------------------------------------------------------
// Fields

namespace {

constexpr std::size_t kMaxValue = kFieldValueCapacity - 1;

// Whitespace would split the ` | k=v` form and '=' would make the key
// ambiguous, so neither may survive in a rendered value.
constexpr char sanitize(char c) noexcept {
  return (c == ' ' || c == '=' || (c >= '\t' && c <= '\r')) ? '_' : c;
}

// Renders with `render(buffer, capacity) -> length` straight into the field.
template <typename Render>
Field renderedField(const char* key, Render render) noexcept {
  Field f;
  f.key = key;
  const std::size_t n = render(f.value, kMaxValue);
  f.value[n] = '\0';
  f.length = static_cast<std::uint8_t>(n);
  return f;
}

Field textField(const char* key, std::string_view text) noexcept {
  return renderedField(key, [text](char* out, std::size_t cap) {
    std::size_t n = std::min(text.size(), cap);
    // Never cut inside a UTF-8 sequence: back off to its lead byte.
    while (n < text.size() && n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0u) == 0x80u) --n;
    for (std::size_t i = 0; i < n; ++i) out[i] = sanitize(text[i]);
    return n;
  });
}

template <typename Int>
Field integerField(const char* key, Int value) noexcept {
  return renderedField(key, [value](char* out, std::size_t cap) {
    return static_cast<std::size_t>(std::to_chars(out, out + cap, value).ptr - out);  // <= 20 chars
  });
}

#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L && !defined(LAIGE_LOG_NO_FP_TO_CHARS)
template <typename Float>
std::size_t shortestFloat(Float value, char* out, std::size_t cap) noexcept {
  return static_cast<std::size_t>(std::to_chars(out, out + cap, value).ptr - out);
}
#else
// Emscripten 3.1.6's libc++ has no floating-point to_chars: emulate it with
// musl's exact, always-"C"-locale printf. Find the fewest digits that parse
// back to the value (the correctly rounded ones, or at a power of two the
// next decimal up: the interval above is twice the one below), then lay
// them out fixed or scientific, whichever is shorter (ties go to fixed); a
// fixed integer prints its exact value, as to_chars does.
template <typename Float>
std::size_t shortestFloat(Float value, char* out, std::size_t cap) noexcept {
  const double magnitude = std::fabs(static_cast<double>(value));
  auto parsesBack = [value](const char* text) {
    return (sizeof(Float) == sizeof(float) ? static_cast<Float>(std::strtof(text, nullptr))
                                           : static_cast<Float>(std::strtod(text, nullptr))) == std::fabs(value);
  };
  char text[48];
  char digits[24];
  int n = 0;
  int exponent = 0;
  for (int p = 0; p <= (sizeof(Float) == sizeof(float) ? 8 : 16); ++p) {
    std::snprintf(text, sizeof text, "%.*e", p, magnitude);
    n = 0;
    for (const char* s = text; *s != 'e'; ++s) {
      if (*s != '.') digits[n++] = *s;
    }
    exponent = std::atoi(std::strchr(text, 'e') + 1);
    if (parsesBack(text)) break;
    int i = n - 1;  // the next decimal up: increment the last digit with carry
    for (; i >= 0 && digits[i] == '9'; --i) digits[i] = '0';
    if (i < 0) {
      digits[0] = '1';
      ++exponent;
    } else {
      ++digits[i];
    }
    std::snprintf(text, sizeof text, "%c.%.*se%d", digits[0], n - 1, digits + 1, exponent);
    if (parsesBack(text)) break;
  }
  while (n > 1 && digits[n - 1] == '0') --n;
  char result[48];  // fixed is only chosen when not longer than scientific (<= 24 chars)
  int len = std::signbit(value) ? 1 : 0;
  result[0] = '-';
  const int sciLength = n + (n > 1 ? 1 : 0) + (exponent <= -100 || exponent >= 100 ? 5 : 4);
  const int fixedLength = exponent >= n - 1 ? exponent + 1 : (exponent >= 0 ? n + 1 : n + 1 - exponent);
  if (fixedLength > sciLength) {
    len += std::snprintf(result + len, sizeof result - 1, "%c%s%.*se%c%02d", digits[0], n > 1 ? "." : "",
                         n - 1, digits + 1, exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
  } else if (exponent >= n - 1) {
    len += std::snprintf(result + len, sizeof result - 1, "%.0f", magnitude);
  } else if (exponent >= 0) {
    len += std::snprintf(result + len, sizeof result - 1, "%.*s.%.*s", exponent + 1, digits, n - exponent - 1,
                         digits + exponent + 1);
  } else {
    result[len++] = '0';
    result[len++] = '.';
    for (int z = 0; z < -exponent - 1; ++z) result[len++] = '0';
    std::memcpy(result + len, digits, static_cast<std::size_t>(n));
    len += n;
  }
  const auto size = static_cast<std::size_t>(len) < cap ? static_cast<std::size_t>(len) : cap;
  std::memcpy(out, result, size);
  return size;
}
#endif

template <typename Float>
Field floatField(const char* key, Float value) noexcept {
  // NaN's sign and payload are noise in a log: spell the specials one way everywhere.
  if (std::isnan(value)) return textField(key, "nan");
  if (std::isinf(value)) return textField(key, value > 0 ? "inf" : "-inf");
  return renderedField(key, [value](char* out, std::size_t cap) { return shortestFloat(value, out, cap); });
}

}  // namespace

Field field(const char* key, std::string_view value) noexcept { return textField(key, value); }
Field field(const char* key, const char* value) noexcept {
  return textField(key, value != nullptr ? std::string_view(value) : std::string_view());
}
Field field(const char* key, char* value) noexcept { return field(key, static_cast<const char*>(value)); }
Field field(const char* key, bool value) noexcept { return textField(key, value ? "true" : "false"); }
Field field(const char* key, signed char value) noexcept { return integerField(key, value); }
Field field(const char* key, unsigned char value) noexcept { return integerField(key, value); }
Field field(const char* key, short value) noexcept { return integerField(key, value); }
Field field(const char* key, unsigned short value) noexcept { return integerField(key, value); }
Field field(const char* key, int value) noexcept { return integerField(key, value); }
Field field(const char* key, unsigned value) noexcept { return integerField(key, value); }
Field field(const char* key, long value) noexcept { return integerField(key, value); }
Field field(const char* key, unsigned long value) noexcept { return integerField(key, value); }
Field field(const char* key, long long value) noexcept { return integerField(key, value); }
Field field(const char* key, unsigned long long value) noexcept { return integerField(key, value); }
Field field(const char* key, double value) noexcept { return floatField(key, value); }
Field field(const char* key, float value) noexcept { return floatField(key, value); }

// ---------------------------------------------------------------------------
// Line format

std::size_t formatTimestamp(std::int64_t timestampUs, char (&out)[28]) noexcept {
  constexpr std::int64_t kMaxUs = 253402300799999999;  // 9999-12-31T23:59:59.999999Z
  const std::int64_t us = timestampUs < 0 ? 0 : (timestampUs > kMaxUs ? kMaxUs : timestampUs);
  const std::int64_t secs = us / 1000000;
  const auto sod = static_cast<int>(secs % 86400);
  // Civil-from-days (H. Hinnant): exact proleptic Gregorian with no libc
  // call, so it is thread-safe and identical on every target.
  const std::int64_t z = secs / 86400 + 719468;
  const std::int64_t era = z / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const auto month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  const int fields[7] = {static_cast<int>(yoe + era * 400 + (month <= 2 ? 1 : 0)), month,
                         static_cast<int>(doy - (153 * mp + 2) / 5 + 1), sod / 3600, sod / 60 % 60, sod % 60,
                         static_cast<int>(us % 1000000)};
  constexpr int kPos[7] = {0, 5, 8, 11, 14, 17, 20};
  constexpr int kWidth[7] = {4, 2, 2, 2, 2, 2, 6};
  std::memcpy(out, "0000-00-00T00:00:00.000000Z", 28);
  for (int f = 0; f < 7; ++f) {
    int v = fields[f];
    for (int i = kWidth[f] - 1; i >= 0; --i, v /= 10) out[kPos[f] + i] = static_cast<char>('0' + v % 10);
  }
  return 27;
}

namespace {

// Counts every character it is offered and stores those that fit (keeping
// one byte for the NUL), so one routine both measures and renders a line.
struct Writer {
  char* buffer;
  std::size_t capacity;
  std::size_t pos = 0;

  void put(char c) noexcept {
    if (pos + 1 < capacity) buffer[pos] = c;
    ++pos;
  }
  void put(std::string_view s) noexcept {
    if (pos + 1 < capacity) std::memcpy(buffer + pos, s.data(), std::min(s.size(), capacity - 1 - pos));
    pos += s.size();
  }
};

std::string_view orEmpty(const char* s) noexcept { return s != nullptr ? std::string_view(s) : std::string_view(); }

void renderLine(const LogRecord& record, Writer& w) noexcept {
  char ts[28];
  w.put(std::string_view(ts, formatTimestamp(record.timestampUs, ts)));
  w.put(" [");
  w.put(severityName(record.severity));
  w.put("] ");
  w.put(orEmpty(record.subsystem));
  w.put('/');
  w.put(orEmpty(record.event));
  w.put(": ");
  // One record is one line: control characters (newlines...) become spaces.
  for (const char c : orEmpty(record.message)) w.put(static_cast<unsigned char>(c) < 0x20 ? ' ' : c);
  for (std::size_t i = 0; record.fields != nullptr && i < record.fieldCount; ++i) {
    w.put(" | ");
    w.put(orEmpty(record.fields[i].key));
    w.put('=');
    for (const char c : record.fields[i].view()) w.put(sanitize(c));
  }
}

}  // namespace

std::size_t formatLine(const LogRecord& record, char* buffer, std::size_t capacity) noexcept {
  if (buffer == nullptr || capacity == 0) return 0;
  Writer w{buffer, capacity};
  renderLine(record, w);
  std::size_t len = std::min(w.pos, capacity - 1);
  if (w.pos >= capacity && capacity >= 4) {
    // Mark the cut, without leaving half a UTF-8 sequence before the mark.
    len -= 3;
    while (len > 0 && (static_cast<unsigned char>(buffer[len]) & 0xC0u) == 0x80u) --len;
    std::memcpy(buffer + len, "...", 3);
    len += 3;
  }
  buffer[len] = '\0';
  return len;
}

std::string formatLine(const LogRecord& record) {
  Writer measure{nullptr, 0};
  renderLine(record, measure);
  std::string line(measure.pos, '\0');
  Writer w{line.data(), measure.pos + 1};  // data()[size()] is the writable NUL
  renderLine(record, w);
  return line;
}

// ---------------------------------------------------------------------------
// Sinks

namespace {

// Formats into a stack buffer and writes line + '\n' with one fwrite, so
// concurrent lines stay whole (stdio locks per call); counts a short write.
void writeLine(std::FILE* stream, const LogRecord& record, std::atomic<std::uint64_t>& failures) noexcept {
  char buffer[kLineBufferSize];
  const std::size_t n = formatLine(record, buffer, kLineBufferSize);
  buffer[n] = '\n';  // n <= kLineBufferSize - 1
  if (std::fwrite(buffer, 1, n + 1, stream) != n + 1) failures.fetch_add(1, kRelaxed);
}

void flushStream(std::FILE* stream, std::atomic<std::uint64_t>& failures) noexcept {
  if (std::fflush(stream) != 0) failures.fetch_add(1, kRelaxed);
}

}  // namespace

ConsoleSink::ConsoleSink(std::FILE* stream) noexcept : stream_(stream != nullptr ? stream : stderr) {}
void ConsoleSink::emit(const LogRecord& record) noexcept { writeLine(stream_, record, failedWrites_); }
void ConsoleSink::flush() noexcept { flushStream(stream_, failedWrites_); }

Result<std::unique_ptr<FileSink>> FileSink::create(const char* path) noexcept {
  if (path == nullptr || path[0] == '\0') {
    return Status::failure(ErrorCode::InvalidArgument, "log_file_failed").with("reason", "empty_path");
  }
  std::FILE* file = std::fopen(path, "ab");
  if (file == nullptr) {
    return Status::failure(ErrorCode::IoError, "log_file_failed")
        .with("reason", "open_failed")
        .with("path", path)
        .with("errno", errno);
  }
  FileSink* sink = new (std::nothrow) FileSink(file);
  if (sink == nullptr) {
    std::fclose(file);
    return Status::failure(ErrorCode::BudgetExhausted, "log_file_failed").with("reason", "out_of_memory");
  }
  return std::unique_ptr<FileSink>(sink);
}

FileSink::FileSink(std::FILE* file) noexcept : file_(file) {}

FileSink::~FileSink() {
  std::fflush(file_);
  std::fclose(file_);
}

void FileSink::emit(const LogRecord& record) noexcept {
  writeLine(file_, record, failedWrites_);
  // A warn or worse is what a post-mortem needs: never leave it buffered.
  if (record.severity >= Severity::Warn) flush();
}

void FileSink::flush() noexcept { flushStream(file_, failedWrites_); }

std::string CaptureSink::Captured::fieldValue(std::string_view key) const {
  const auto it = std::find_if(fields.begin(), fields.end(), [key](const auto& kv) { return kv.first == key; });
  return it != fields.end() ? it->second : std::string();
}

bool CaptureSink::Captured::hasField(std::string_view key) const {
  return std::any_of(fields.begin(), fields.end(), [key](const auto& kv) { return kv.first == key; });
}

void CaptureSink::emit(const LogRecord& record) noexcept {
  Captured c{record.severity, std::string(orEmpty(record.subsystem)), std::string(orEmpty(record.event)),
             std::string(orEmpty(record.message)), {}, formatLine(record)};
  for (std::size_t i = 0; record.fields != nullptr && i < record.fieldCount; ++i) {
    c.fields.emplace_back(std::string(orEmpty(record.fields[i].key)), std::string(record.fields[i].view()));
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  records_.push_back(std::move(c));
}

std::size_t CaptureSink::count(std::string_view subsystem, std::string_view event) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  std::size_t n = 0;
  for (const auto& r : records_) n += (r.subsystem == subsystem && r.event == event) ? 1u : 0u;
  return n;
}

void CaptureSink::clear() {
  const std::lock_guard<std::mutex> lock(mutex_);
  records_.clear();
}

// ---------------------------------------------------------------------------
// Logger (its state, detail::LoggerState, is declared in the header)

namespace {

// Messages of the facade's own events, in the 5-field grammar of errors.h.
constexpr const char* kRateLimitedMessage =
    "rate_limited | repeats of an event were suppressed | the event repeated within the rate-limit window | "
    "fix the cause of the repeats; the suppressed field counts them | docs/logging.md#rate-limiting";
constexpr const char* kTableFullMessage =
    "rate_limit_table_full | the rate-limit key table is full | more distinct keys than kRateLimitKeys since "
    "init | use fewer distinct event names (new keys go unlimited) | docs/logging.md#rate-limiting";
constexpr const char* kRejectedMessage =
    "subsystem_level_rejected | a subsystem level override was ignored | the name is null or too long, or the "
    "table is full | use short stable subsystem names and fewer overrides | docs/logging.md#gates";

std::atomic<detail::LoggerState*> gState{nullptr};  // for the crash handler

std::uint8_t clampLevel(Level level) noexcept { return static_cast<std::uint8_t>(std::min(level, Level::Off)); }

std::int64_t steadyMs() noexcept {
  using namespace std::chrono;
  return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

std::int64_t wallUs() noexcept {
  using namespace std::chrono;
  return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

std::uint64_t keyHash(std::string_view subsystem, std::string_view event, Severity severity) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a-64
  auto mix = [&h](unsigned char byte) { h = (h ^ byte) * 0x100000001b3ull; };
  for (const char c : subsystem) mix(static_cast<unsigned char>(c));
  mix(0xff);  // a separator, so ("ab", "c") and ("a", "bc") differ
  for (const char c : event) mix(static_cast<unsigned char>(c));
  mix(0xff);
  mix(static_cast<unsigned char>(severity));
  return h;
}

template <std::size_t N>
void copyName(char (&dst)[N], std::string_view src) noexcept {
  const std::size_t n = std::min(src.size(), N - 1);
  std::memcpy(dst, src.data(), n);
  dst[n] = '\0';
}

template <std::size_t N>
bool sameName(const char (&stored)[N], std::string_view name) noexcept {
  const std::size_t n = std::min(name.size(), N - 1);
  return std::strlen(stored) == n && std::memcmp(stored, name.data(), n) == 0;
}

void emitTo(detail::LoggerState& s, Sink& sink, Severity severity, const char* subsystem, const char* event,
            const char* message, const Field* fields, std::size_t count) noexcept {
  const LogRecord record{severity, subsystem, event, message, fields, count, wallUs()};
  s.inSink.fetch_add(1, std::memory_order_acq_rel);
  sink.emit(record);
  s.inSink.fetch_sub(1, std::memory_order_acq_rel);
}

void emitSummary(detail::LoggerState& s, Sink& sink, Severity severity, const char* subsystem, const char* event,
                 std::uint64_t suppressed) noexcept {
  const Field fields[2] = {field("event", event), field("suppressed", suppressed)};
  emitTo(s, sink, severity, subsystem, "rate_limited", kRateLimitedMessage, fields, 2);
}

// Under the mutex: whether a Warn+ event passes the rate limit. Sets
// `summary` to the count to report before it (a new window) and `overflowNow`
// on the first event that finds the key table full.
bool admit(detail::LoggerState& s, std::string_view subsystem, std::string_view event, Severity severity,
           std::uint64_t& summary, bool& overflowNow) noexcept {
  const std::int64_t now = s.clock != nullptr ? s.clock() : steadyMs();
  const std::uint64_t h = keyHash(subsystem, event, severity);
  std::size_t i = static_cast<std::size_t>(h % kRateLimitKeys);
  for (std::size_t probe = 0; probe < kRateLimitKeys; ++probe, i = (i + 1) % kRateLimitKeys) {
    detail::RateEntry& e = s.rate[i];
    if (!e.used) {
      e = detail::RateEntry{h, now, 0, {}, {}, severity, true};
      copyName(e.subsystem, subsystem);
      copyName(e.event, event);
      return true;
    }
    if (e.hash != h || e.severity != severity || !sameName(e.subsystem, subsystem) || !sameName(e.event, event)) {
      continue;
    }
    // The window is [start, start + window); a clock that steps back stays inside it.
    if (now - e.windowStartMs < s.rateWindowMs) {
      ++e.suppressed;
      s.suppressedTotal.fetch_add(1, kRelaxed);
      return false;
    }
    summary = std::exchange(e.suppressed, 0);
    e.windowStartMs = now;
    return true;
  }
  // Table full: degrade to unlimited rather than drop events or allocate.
  s.overflows.fetch_add(1, kRelaxed);
  overflowNow = !std::exchange(s.overflowWarned, true);
  return true;
}

// Emits (and zeroes) every pending suppressed count, one key at a time so
// that the mutex is never held while the sink runs.
void drainPending(detail::LoggerState& s) noexcept {
  for (auto& e : s.rate) {
    detail::RateEntry copy;
    std::shared_ptr<Sink> sink;
    {
      const std::lock_guard<std::mutex> lock(s.mutex);
      if (!e.used || e.suppressed == 0) continue;
      copy = e;
      e.suppressed = 0;
      sink = s.sink;
    }
    emitSummary(s, *sink, copy.severity, copy.subsystem, copy.event, copy.suppressed);
  }
}

}  // namespace

Logger::Logger() noexcept : globalMinimum_(static_cast<std::uint8_t>(Level::Debug)) {
  alignas(detail::LoggerState) static unsigned char storage[sizeof(detail::LoggerState)];
  state_ = new (storage) detail::LoggerState();
  state_->sink = std::make_shared<ConsoleSink>(stderr);
  gState.store(state_, std::memory_order_release);
}

Logger& Logger::instance() noexcept {
  // Never destroyed: code running during static destruction may still log.
  alignas(Logger) static unsigned char storage[sizeof(Logger)];
  static Logger* const logger = new (storage) Logger();
  return *logger;
}

void Logger::init(LoggerOptions options) {
  detail::LoggerState& s = *state_;
  if (s.active.load(std::memory_order_acquire)) drainPending(s);
  if (options.sink == nullptr) options.sink = std::make_shared<ConsoleSink>(stderr);
  std::shared_ptr<Sink> old;
  {
    const std::lock_guard<std::mutex> lock(s.mutex);
    old = std::exchange(s.sink, std::move(options.sink));
    globalMinimum_.store(clampLevel(options.globalMinimum), kRelaxed);
    s.defaultSubsystemLevel.store(clampLevel(options.defaultSubsystemLevel), kRelaxed);
    s.overrideCount.store(0, std::memory_order_release);
    s.rateLimiting = options.rateLimiting;
    s.rateWindowMs = std::max<std::int64_t>(options.rateWindowMs, 0);
    s.clock = options.clock;
    for (auto& e : s.rate) e.used = false;
    s.suppressedTotal.store(0, kRelaxed);
    s.overflows.store(0, kRelaxed);
    s.overflowWarned = false;
    s.active.store(true, std::memory_order_release);
  }
  old->flush();  // then released (a FileSink closed) outside the lock
}

void Logger::setSubsystemLevel(const char* subsystem, Level level) noexcept {
  detail::LoggerState& s = *state_;
  const char* reason = "null_name";
  if (subsystem != nullptr) {
    const std::lock_guard<std::mutex> lock(s.mutex);
    const std::uint32_t n = s.overrideCount.load(kRelaxed);
    for (std::uint32_t i = 0; i < n; ++i) {
      if (std::strcmp(s.overrides[i].name, subsystem) != 0) continue;
      s.overrides[i].level.store(clampLevel(level), kRelaxed);
      return;
    }
    const std::size_t length = std::strlen(subsystem);
    reason = length > kMaxSubsystemNameLength ? "name_too_long" : "table_full";
    if (length <= kMaxSubsystemNameLength && n < kMaxSubsystemLevels) {
      std::memcpy(s.overrides[n].name, subsystem, length + 1);
      s.overrides[n].level.store(clampLevel(level), kRelaxed);
      s.overrideCount.store(n + 1, std::memory_order_release);
      return;
    }
  }
  LAIGE_LOG_WARN("logging", "subsystem_level_rejected", kRejectedMessage, field("subsystem", subsystem),
                 field("reason", reason));
}

void Logger::log(Severity severity, const char* subsystem, const char* event, const char* message,
                 const Field* fields, std::size_t count) noexcept {
  detail::LoggerState& s = *state_;
  const char* sub = subsystem != nullptr ? subsystem : "";
  const char* ev = event != nullptr ? event : "";
  std::shared_ptr<Sink> sink;
  std::uint64_t summary = 0;
  bool emit = false;
  bool overflowNow = false;
  if (enabled(sub, severity)) {
    const std::lock_guard<std::mutex> lock(s.mutex);
    if (s.active.load(kRelaxed)) {
      emit = severity < Severity::Warn || !s.rateLimiting || admit(s, sub, ev, severity, summary, overflowNow);
      sink = s.sink;  // a reference of our own: a concurrent init() cannot free it under us
    }
  }
  if (sink != nullptr) {
    if (summary > 0) emitSummary(s, *sink, severity, sub, ev, summary);
    if (emit) {
      emitTo(s, *sink, severity, sub, ev, message != nullptr ? message : "", fields, fields != nullptr ? count : 0);
    }
    if (overflowNow && enabled("logging", Severity::Warn)) {
      const Field capacity[1] = {field("capacity", kRateLimitKeys)};
      emitTo(s, *sink, Severity::Warn, "logging", "rate_limit_table_full", kTableFullMessage, capacity, 1);
    }
  }
  if (severity == Severity::Fatal) {
    // Fatal means the process cannot go on: abort even when gated out or shut down.
    if (sink == nullptr) {
      const std::lock_guard<std::mutex> lock(s.mutex);
      sink = s.sink;
    }
    sink->flush();
    std::abort();
  }
}

void Logger::shutdown() noexcept {
  detail::LoggerState& s = *state_;
  std::shared_ptr<Sink> sink;
  {
    const std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.active.exchange(false, std::memory_order_acq_rel)) return;
    sink = s.sink;
  }
  drainPending(s);
  sink->flush();
}

// ---------------------------------------------------------------------------
// Crash handling

#if !LAIGE_LOG_POSIX_SIGNALS
// wasm has no signals (a trap surfaces as a JS exception): nothing to install.
Status installCrashHandling() noexcept { return Status{}; }
#else
namespace {

// Fixed texts: a handler may only call async-signal-safe functions, so
// nothing is formatted there.
constexpr struct {
  int number;
  const char* notice;
} kCrashSignals[] = {{SIGSEGV, "laige: fatal signal SIGSEGV received; flushing logs and re-raising\n"},
                     {SIGABRT, "laige: fatal signal SIGABRT received; flushing logs and re-raising\n"},
                     {SIGBUS, "laige: fatal signal SIGBUS received; flushing logs and re-raising\n"},
                     {SIGFPE, "laige: fatal signal SIGFPE received; flushing logs and re-raising\n"},
                     {SIGILL, "laige: fatal signal SIGILL received; flushing logs and re-raising\n"}};

alignas(16) unsigned char gAltStack[64 * 1024];  // so that a stack overflow can still be reported

void crashHandler(int signal) {
  const int savedErrno = errno;
  for (const auto& c : kCrashSignals) {
    const std::size_t length = c.number == signal ? std::strlen(c.notice) : 0;
    for (std::size_t done = 0; done < length;) {
      const ssize_t n = ::write(STDERR_FILENO, c.notice + done, length - done);
      if (n <= 0 && errno != EINTR) break;
      done += n > 0 ? static_cast<std::size_t>(n) : 0;
    }
  }
  // Flush only when no thread is inside the facade or a sink: blocking on a
  // lock the crashed thread holds would turn a crash into a hang.
  detail::LoggerState* s = gState.load(std::memory_order_acquire);
  if (s != nullptr && s->inSink.load(std::memory_order_acquire) == 0 && s->mutex.try_lock()) {
    Sink* sink = s->sink.get();
    s->mutex.unlock();
    sink->flush();
  }
  errno = savedErrno;
  ::raise(signal);  // SA_RESETHAND restored the default action: die of the original signal
}

}  // namespace

Status installCrashHandling() noexcept {
  stack_t alt{};
  if (::sigaltstack(nullptr, &alt) == 0 && (alt.ss_flags & SS_DISABLE) != 0) {  // keep a host's own stack
    alt = stack_t{};
    alt.ss_sp = gAltStack;
    alt.ss_size = sizeof gAltStack;
    (void)::sigaltstack(&alt, nullptr);  // best effort: only stack overflows need it
  }
  struct sigaction action {};
  action.sa_handler = &crashHandler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = static_cast<int>(SA_RESETHAND | SA_ONSTACK);
  struct sigaction previous[std::size(kCrashSignals)] {};
  for (std::size_t i = 0; i < std::size(kCrashSignals); ++i) {
    if (::sigaction(kCrashSignals[i].number, &action, &previous[i]) != 0) {
      const int signal = kCrashSignals[i].number;
      while (i-- > 0) ::sigaction(kCrashSignals[i].number, &previous[i], nullptr);  // all or nothing
      return Status::failure(ErrorCode::IoError, "crash_handler_failed").with("signal", signal);
    }
  }
  return Status{};
}
#endif

}  // namespace laige::log
