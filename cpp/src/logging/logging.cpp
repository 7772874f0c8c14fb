// logging.cpp - the logging facade (docs/logging.md): the logger, its gates,
// rate limiting, lifecycle and crash handling. Fields and the line format
// are in logging_line.cpp, the built-in sinks in logging_sinks.cpp.
//
// Everything the logger needs after init() is preallocated: the subsystem
// overrides and the rate-limit keys live in fixed tables, fields carry
// inline buffers, and the built-in sinks format into a stack buffer. One
// mutex guards the tables; it is never held while a sink runs, so a slow
// sink cannot stall the limiter and a crash inside a sink cannot leave the
// facade locked.
#include "laige/logging.h"
#include "laige/detail/default_sink.h"

#include "logging/log_texts.h"

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
// Logger (its state, detail::LoggerState, is declared in the header)

namespace {

// Messages of the facade's own events, in the 5-field grammar of errors.h.

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
            const char* message, TextId textId, const Field* fields, std::size_t count) noexcept {
  const LogRecord record{severity, subsystem, event, message, fields, count, wallUs(), textId};
  s.inSink.fetch_add(1, std::memory_order_acq_rel);
  sink.emit(record);
  s.inSink.fetch_sub(1, std::memory_order_acq_rel);
}

void emitTo(detail::LoggerState& s, Sink& sink, Severity severity, const char* subsystem, const char* event,
            TextId text, const Field* fields, std::size_t count) noexcept {
  emitTo(s, sink, severity, subsystem, event, catalogueText(text), text, fields, count);
}

void emitSummary(detail::LoggerState& s, Sink& sink, Severity severity, const char* subsystem, const char* event,
                 std::uint64_t suppressed) noexcept {
  const Field fields[2] = {field("event", event), field("suppressed", suppressed)};
  emitTo(s, sink, severity, subsystem, "rate_limited", texts::RateLimited, fields, 2);
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
  state_->sink = detail::makeDefaultSink();
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
  if (options.sink == nullptr) options.sink = detail::makeDefaultSink();
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
  LAIGE_LOG_WARN("logging", "subsystem_level_rejected", texts::SubsystemLevelRejected, field("subsystem", subsystem),
                 field("reason", reason));
}

void Logger::log(Severity severity, const char* subsystem, const char* event, const char* message,
                 const Field* fields, std::size_t count) noexcept {
  logRecord(severity, subsystem, event, message, TextId{}, fields, count);
}

void Logger::log(Severity severity, const char* subsystem, const char* event, TextId text, const Field* fields,
                 std::size_t count) noexcept {
  logRecord(severity, subsystem, event, catalogueText(text), text, fields, count);
}

void Logger::logRecord(Severity severity, const char* subsystem, const char* event, const char* message,
                       TextId textId, const Field* fields, std::size_t count) noexcept {
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
      emitTo(s, *sink, severity, sub, ev, message != nullptr ? message : "", textId, fields,
             fields != nullptr ? count : 0);
    }
    if (overflowNow && enabled("logging", Severity::Warn)) {
      const Field capacity[1] = {field("capacity", kRateLimitKeys)};
      emitTo(s, *sink, Severity::Warn, "logging", "rate_limit_table_full", texts::RateLimitTableFull, capacity, 1);
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
