// laige/logging.h - the structured logging facade (laige::log).
//
// One process-lifetime Logger owns one replaceable Sink. An event is
// (severity, subsystem, event, message, fields): the subsystem and event are
// stable snake_case names, the message is human text (engine warn/error
// messages use the 5-field error grammar of errors.h), and every dynamic value
// travels in a structured Field. Two level gates decide whether an event is
// built at all; Warn/Error/Fatal events are rate-limited per
// (subsystem, event, severity) so that a repeating failure cannot flood the
// output ("warn-once": the first event emits, repeats are counted and
// summarised by a `rate_limited` event).
//
// Cost model: a disabled event costs an atomic load and a branch (the macros
// evaluate their field arguments only when enabled). An enabled event
// allocates nothing after init() (fixed-size tables, fields in inline
// buffers, the built-in sinks format into a stack buffer), except in
// CaptureSink, which exists for tests.
//
// The log stream is diagnostics only: timestamps are wall-clock and never
// enter simulation state, hashes or replays.
// Contract: docs/logging.md.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "laige/result.h"

namespace laige::log {

/// The severity of one event. The values are stable (they cross the wasm
/// boundary through CallbackSink) and ordered: a larger value is more severe.
enum class Severity : std::uint8_t { Trace = 0, Debug, Info, Warn, Error, Fatal };

/// A gate threshold: an event passes when its severity >= the level. `Off`
/// (above every severity) closes the gate completely.
enum class Level : std::uint8_t { Trace = 0, Debug, Info, Warn, Error, Fatal, Off };

/// The lowercase token of `severity`: "trace", "debug", "info", "warn",
/// "error" or "fatal" ("unknown" for an out-of-range value). Static string.
[[nodiscard]] const char* severityName(Severity severity) noexcept;

/// The lowercase token of `level`: the severity tokens plus "off".
[[nodiscard]] const char* levelName(Level level) noexcept;

/// Capacity of Field::value including its terminating NUL; a rendered value
/// keeps at most kFieldValueCapacity - 1 = 63 bytes.
inline constexpr std::size_t kFieldValueCapacity = 64;

/// Size of the stack buffer the built-in sinks format one line into. Longer
/// lines are truncated (and end in "...") rather than allocated.
inline constexpr std::size_t kLineBufferSize = 2048;

/// How many distinct (subsystem, event, severity) keys the rate limiter
/// tracks between two init() calls. Past it, new keys are emitted unlimited
/// and counted in Logger::rateLimitOverflows().
inline constexpr std::size_t kRateLimitKeys = 256;

/// How many per-subsystem level overrides setSubsystemLevel() can hold.
inline constexpr std::size_t kMaxSubsystemLevels = 64;

/// Longest subsystem name (bytes) setSubsystemLevel() accepts.
inline constexpr std::size_t kMaxSubsystemNameLength = 47;

/// One structured field: a stable key and its value rendered as text into an
/// inline buffer, so that building a field never touches the heap. Rendered
/// values never contain ASCII whitespace or '=' (each is replaced by '_'),
/// which keeps the ` | k=v` line form machine-splittable.
struct Field {
  /// The key: a stable snake_case string literal (not copied).
  const char* key;
  /// The rendered value, NUL-terminated; at most 63 bytes of text.
  char value[kFieldValueCapacity];
  /// The number of text bytes in `value` (excluding the NUL).
  std::uint8_t length;
  /// The value as a view of `length` bytes (clamped to the buffer).
  [[nodiscard]] std::string_view view() const noexcept {
    return {value, length < kFieldValueCapacity ? length : kFieldValueCapacity - 1};
  }
};

/// A text field. The text is copied, sanitised (whitespace and '=' become
/// '_') and truncated to 63 bytes without splitting a UTF-8 sequence.
[[nodiscard]] Field field(const char* key, std::string_view value) noexcept;
/// A text field from a NUL-terminated string (nullptr renders as "").
[[nodiscard]] Field field(const char* key, const char* value) noexcept;
/// A text field from a mutable C string (same as the const overload; it
/// exists so that a `char*` does not pick the deleted pointer overload).
[[nodiscard]] Field field(const char* key, char* value) noexcept;
/// A boolean field: "true" or "false".
[[nodiscard]] Field field(const char* key, bool value) noexcept;
/// An integer field, decimal via std::to_chars (locale-free). One overload
/// per fundamental integer type, so that std::int64_t, std::size_t, etc.
/// resolve unambiguously on every target whatever type they alias.
[[nodiscard]] Field field(const char* key, signed char value) noexcept;
/// \copydoc field(const char*, signed char)
[[nodiscard]] Field field(const char* key, unsigned char value) noexcept;
/// \copydoc field(const char*, signed char)
[[nodiscard]] Field field(const char* key, short value) noexcept;
/// \copydoc field(const char*, signed char)
[[nodiscard]] Field field(const char* key, unsigned short value) noexcept;
/// \copydoc field(const char*, signed char)
[[nodiscard]] Field field(const char* key, int value) noexcept;
/// \copydoc field(const char*, signed char)
[[nodiscard]] Field field(const char* key, unsigned value) noexcept;
/// \copydoc field(const char*, signed char)
[[nodiscard]] Field field(const char* key, long value) noexcept;
/// \copydoc field(const char*, signed char)
[[nodiscard]] Field field(const char* key, unsigned long value) noexcept;
/// \copydoc field(const char*, signed char)
[[nodiscard]] Field field(const char* key, long long value) noexcept;
/// \copydoc field(const char*, signed char)
[[nodiscard]] Field field(const char* key, unsigned long long value) noexcept;
/// A floating-point field: the shortest text that round-trips (std::to_chars
/// semantics: fixed or scientific, whichever is shorter), locale-free and
/// identical on native and wasm. NaN renders "nan", infinities "inf"/"-inf".
[[nodiscard]] Field field(const char* key, double value) noexcept;
/// \copydoc field(const char*, double)
[[nodiscard]] Field field(const char* key, float value) noexcept;
/// Other pointers would silently convert to bool: render an id instead.
template <typename T>
Field field(const char* key, T* value) = delete;

/// The id of a message in the core's catalogue of log texts: every text the
/// core logs, each "event | what happened | why | how to fix | docs page and
/// anchor", kept in one file (`docs/logging.md#message-texts`).
/// TextId{} (0) means "not from the catalogue".
enum class TextId : std::uint16_t {};

/// The catalogue's text of `id`; "" for TextId{} and for an id the catalogue
/// does not have. Never null. In the wasm module of the npm package the texts are
/// not compiled in and this returns "": its TypeScript layer fills a record's
/// message from its copy of the catalogue, generated from the same file.
/// Cost: one table read. Allocates nothing.
const char* catalogueText(TextId id) noexcept;

/// One event as handed to a Sink. Every pointer is valid only for the
/// duration of the emit() call; a sink that keeps a record must copy it.
struct LogRecord {
  /// How severe the event is.
  Severity severity;
  /// The stable subsystem name, e.g. "ecs" (never null).
  const char* subsystem;
  /// The stable event name, e.g. "stale_entity_access" (never null).
  const char* event;
  /// The human-readable message (never null; may be empty).
  const char* message;
  /// The structured fields in call order (null when fieldCount == 0).
  const Field* fields;
  /// The number of entries in `fields`.
  std::size_t fieldCount;
  /// Wall-clock time: system_clock microseconds since the Unix epoch.
  /// Diagnostics only, never simulation state.
  std::int64_t timestampUs;
  /// The catalogue id of `message` when it came from the catalogue of log
  /// texts (a sink that cannot carry the text may send this instead);
  /// TextId{} otherwise.
  TextId textId{};
};

/// Where records go. emit() may be called from several threads at once (the
/// facade never holds its mutex during sink calls), so an implementation
/// that keeps state must synchronise it. A sink must not log through the
/// facade from inside emit() (that would recurse).
class Sink {
 public:
  /// Virtual: sinks are owned and destroyed through Sink pointers.
  virtual ~Sink() = default;
  /// Writes or forwards one record. Must not throw and must not fail loudly:
  /// a sink that cannot write counts the failure instead.
  virtual void emit(const LogRecord& record) noexcept = 0;
  /// Pushes buffered output to its destination (shutdown, Fatal, crash).
  virtual void flush() noexcept {}
};

/// Writes formatted lines to a stdio stream it does not own (default
/// stderr). Allocation-free per event: each line is formatted into a stack
/// buffer and written with one fwrite, so lines from different threads do
/// not interleave.
class ConsoleSink final : public Sink {
 public:
  /// A sink writing to `stream` (nullptr means stderr). The stream must
  /// outlive the sink.
  explicit ConsoleSink(std::FILE* stream = stderr) noexcept;
  /// Formats `record` and writes it plus '\n'; a short write is counted.
  void emit(const LogRecord& record) noexcept override;
  /// fflush on the stream; a failure is counted.
  void flush() noexcept override;
  /// How many writes or flushes have failed since construction.
  [[nodiscard]] std::uint64_t failedWrites() const noexcept { return failedWrites_.load(std::memory_order_relaxed); }

 private:
  std::FILE* stream_;
  std::atomic<std::uint64_t> failedWrites_{0};
};

/// Appends formatted lines to a file it owns (opened in binary append mode,
/// so "\n" is written verbatim on every platform). Warn and more severe
/// records are flushed immediately so that they survive a crash.
class FileSink final : public Sink {
 public:
  /// Opens `path` for appending (creating it when absent).
  /// Errors: InvalidArgument for a null or empty path; IoError when the file
  /// cannot be opened (missing directory, permissions...); BudgetExhausted
  /// when the sink object cannot be allocated. The caller's fallback is to
  /// keep the current (console) sink.
  [[nodiscard]] static Result<std::unique_ptr<FileSink>> create(const char* path) noexcept;
  /// Flushes and closes the file.
  ~FileSink() override;
  FileSink(const FileSink&) = delete;
  FileSink& operator=(const FileSink&) = delete;
  /// Formats `record` and appends it plus '\n'; a short write is counted.
  void emit(const LogRecord& record) noexcept override;
  /// fflush on the file; a failure is counted.
  void flush() noexcept override;
  /// How many writes or flushes have failed since creation.
  [[nodiscard]] std::uint64_t failedWrites() const noexcept { return failedWrites_.load(std::memory_order_relaxed); }

 private:
  explicit FileSink(std::FILE* file) noexcept;
  std::FILE* file_;
  std::atomic<std::uint64_t> failedWrites_{0};
};

/// Keeps an owned copy of every record, for tests. It allocates per event
/// (strings, vectors) by design; production code uses the other sinks.
class CaptureSink final : public Sink {
 public:
  /// One captured record: every string is an owned copy.
  struct Captured {
    /// The record's severity.
    Severity severity;
    /// The record's subsystem name.
    std::string subsystem;
    /// The record's event name.
    std::string event;
    /// The record's message text.
    std::string message;
    /// The fields as (key, rendered value) pairs, in call order.
    std::vector<std::pair<std::string, std::string>> fields;
    /// The whole line as formatLine() renders it.
    std::string line;
    /// The value of the first field named `key`, or "" when there is none.
    [[nodiscard]] std::string fieldValue(std::string_view key) const;
    /// True when a field named `key` is present.
    [[nodiscard]] bool hasField(std::string_view key) const;
  };

  /// Copies `record` into records().
  void emit(const LogRecord& record) noexcept override;
  /// Every record captured since construction or the last clear(), in
  /// emission order. Not synchronised with concurrent emits: read it once
  /// logging has stopped.
  [[nodiscard]] const std::vector<Captured>& records() const { return records_; }
  /// How many captured records have this subsystem and event.
  [[nodiscard]] std::size_t count(std::string_view subsystem, std::string_view event) const;
  /// Forgets every captured record.
  void clear();

 private:
  mutable std::mutex mutex_;  // emit() may be called from several threads
  std::vector<Captured> records_;
};

/// Hands each record to a C function: the wasm layer uses it to forward
/// records to JavaScript. The function receives the raw record, so it must
/// copy what it keeps; it is called concurrently if logging is.
class CallbackSink final : public Sink {
 public:
  /// The callback type: `ctx` is the pointer given at construction.
  using Fn = void (*)(void* ctx, const LogRecord& record) noexcept;
  /// A sink calling `fn(ctx, record)` per record (a null `fn` drops records).
  CallbackSink(Fn fn, void* ctx) noexcept : fn_(fn), ctx_(ctx) {}
  /// Calls the callback.
  void emit(const LogRecord& record) noexcept override {
    if (fn_ != nullptr) fn_(ctx_, record);
  }

 private:
  Fn fn_;
  void* ctx_;
};

#if defined(__EMSCRIPTEN__)
/// The wasm build's sink to JavaScript: each record is handed to
/// `Module.onLaigeLog(record)` when the page or the TS layer has set that
/// function, as a plain object {severity, subsystem, event, message, fields,
/// timestampUs} with `fields` a {key: value} object of strings. Without a
/// handler records are dropped (no console noise from a library).
class JsSink final : public Sink {
 public:
  /// Forwards the record to Module.onLaigeLog (allocation-free on the C++ side).
  void emit(const LogRecord& record) noexcept override;
};
#endif

/// Renders `record` as one line (no trailing newline):
///   `<timestamp> [<severity>] <subsystem>/<event>: <message> | k=v | k=v`
/// The timestamp is UTC `YYYY-MM-DDTHH:MM:SS.ffffffZ` (27 chars). Control
/// characters in the message (newlines...) become spaces so that one record
/// is always one line; field values are sanitised as in field().
[[nodiscard]] std::string formatLine(const LogRecord& record);

/// The allocation-free variant: writes the line into `buffer` and always
/// NUL-terminates it when capacity > 0. A line that does not fit is cut and
/// ends in "..." (when capacity >= 4). Returns the number of characters
/// written, excluding the NUL (0 when capacity == 0).
std::size_t formatLine(const LogRecord& record, char* buffer, std::size_t capacity) noexcept;

/// Renders `timestampUs` (microseconds since the Unix epoch) as
/// `YYYY-MM-DDTHH:MM:SS.ffffffZ` into `out` plus a NUL; values outside
/// years 1970..9999 are clamped to that range. Returns 27.
std::size_t formatTimestamp(std::int64_t timestampUs, char (&out)[28]) noexcept;

/// A millisecond clock for the rate-limit window (injectable for tests).
using ClockFn = std::int64_t (*)() noexcept;

/// Everything init() configures.
struct LoggerOptions {
  /// The sink; null means a ConsoleSink on stderr.
  std::shared_ptr<Sink> sink;
  /// Gate 1: events below this level are dropped everywhere.
  Level globalMinimum = Level::Debug;
  /// Gate 2 for subsystems without a setSubsystemLevel() override.
  Level defaultSubsystemLevel = Level::Debug;
  /// Whether Warn/Error/Fatal events are rate-limited.
  bool rateLimiting = true;
  /// The rate-limit window in milliseconds (<= 0: no event is suppressed).
  std::int64_t rateWindowMs = 1000;
  /// The window clock in milliseconds; null means std::chrono::steady_clock
  /// (monotonic, so a wall-clock jump cannot stretch or skip a window).
  ClockFn clock = nullptr;
};

namespace detail {

/// One setSubsystemLevel() override (implementation detail). Written under
/// the mutex and published by bumping overrideCount (release), so enabled()
/// reads the table lock-free; afterwards only the atomic level changes.
struct SubsystemOverride {
  char name[kMaxSubsystemNameLength + 1];
  std::atomic<std::uint8_t> level;
};

/// One rate-limit key (implementation detail). The names are copied rather
/// than pointed to, so a caller passing a temporary string cannot leave a
/// dangling key behind; a name that does not fit is kept truncated and the
/// full-content hash still tells such keys apart.
struct RateEntry {
  std::uint64_t hash;
  std::int64_t windowStartMs;
  std::uint64_t suppressed;
  char subsystem[32];
  char event[kFieldValueCapacity];
  Severity severity;
  bool used;
};

/// The logger's state (implementation detail; use Logger), kept in
/// never-destroyed static storage. It is in the header only so that the
/// gates (enabled()) can be inlined.
struct LoggerState {
  std::mutex mutex;  // guards everything below that is not atomic
  std::shared_ptr<Sink> sink;
  std::atomic<std::uint8_t> defaultSubsystemLevel{static_cast<std::uint8_t>(Level::Debug)};
  std::atomic<std::uint32_t> overrideCount{0};
  SubsystemOverride overrides[kMaxSubsystemLevels];
  bool rateLimiting = true;
  std::int64_t rateWindowMs = 1000;
  ClockFn clock = nullptr;
  RateEntry rate[kRateLimitKeys];
  std::atomic<std::uint64_t> suppressedTotal{0};  // atomic: read without the lock
  std::atomic<std::uint64_t> overflows{0};
  bool overflowWarned = false;
  std::atomic<bool> active{true};
  std::atomic<int> inSink{0};  // threads inside Sink::emit: the crash handler flushes only at 0
};

}  // namespace detail

/// The process-wide logging facade. Emitting is safe from any thread; the
/// configuration calls (init, the level setters, shutdown) must not run
/// concurrently with logging from other threads.
class Logger {
 public:
  /// The single instance. It is created on first use with default options
  /// (console sink on stderr) and never destroyed, so logging keeps working
  /// during static destruction.
  [[nodiscard]] static Logger& instance() noexcept;

  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;

  /// (Re)configures the logger; always succeeds. Pending rate-limit
  /// summaries of the previous configuration are first drained to the old
  /// sink, which is then flushed and released. Levels, overrides and rate
  /// state are reset, and a logger that was shut down is re-enabled.
  void init(LoggerOptions options);

  /// True when an event of `severity` from `subsystem` passes both gates:
  /// the global minimum, then the subsystem's level (its override or the
  /// default subsystem level). Lock-free.
  [[nodiscard]] bool enabled(const char* subsystem, Severity severity) const noexcept {
    if (static_cast<std::uint8_t>(severity) < globalMinimum_.load(std::memory_order_relaxed)) {
      return false;
    }
    return subsystemEnabled(subsystem, severity);
  }

  /// Sets gate 1 (a value above Off counts as Off).
  void setGlobalMinimum(Level level) noexcept {
    globalMinimum_.store(static_cast<std::uint8_t>(level < Level::Off ? level : Level::Off), std::memory_order_relaxed);
  }
  /// The current gate 1.
  [[nodiscard]] Level globalMinimum() const noexcept {
    return static_cast<Level>(globalMinimum_.load(std::memory_order_relaxed));
  }
  /// Overrides gate 2 for `subsystem` (name compared by content and copied).
  /// A null name, a name longer than kMaxSubsystemNameLength, or a new name
  /// past kMaxSubsystemLevels overrides is ignored with a `logging` warn.
  void setSubsystemLevel(const char* subsystem, Level level) noexcept;
  /// The gate-2 level that applies to `subsystem`. Lock-free (inline
  /// because every enabled() past gate 1 runs it).
  [[nodiscard]] Level subsystemLevel(const char* subsystem) const noexcept {
    const char* name = subsystem != nullptr ? subsystem : "";
    const std::uint32_t n = state_->overrideCount.load(std::memory_order_acquire);
    for (std::uint32_t i = 0; i < n; ++i) {
      if (std::strcmp(state_->overrides[i].name, name) == 0) {
        return static_cast<Level>(state_->overrides[i].level.load(std::memory_order_relaxed));
      }
    }
    return static_cast<Level>(state_->defaultSubsystemLevel.load(std::memory_order_relaxed));
  }
  /// Sets gate 2 for subsystems without an override.
  void setDefaultSubsystemLevel(Level level) noexcept {
    state_->defaultSubsystemLevel.store(static_cast<std::uint8_t>(level < Level::Off ? level : Level::Off),
                                        std::memory_order_relaxed);
  }

  /// Logs one event with `count` fields. Applies the gates (so direct calls
  /// behave like the macros), then the rate limit for Warn and above, then
  /// hands the record to the sink. Null strings are treated as "". Discarded
  /// after shutdown(). Fatal: the record is emitted (if the gates pass), the
  /// sink is flushed and the process aborts - always, even when gated out.
  void log(Severity severity, const char* subsystem, const char* event, const char* message,
           const Field* fields, std::size_t count) noexcept;
  /// The same with a braced list of fields: `{field("a", 1), field("b", x)}`.
  void log(Severity severity, const char* subsystem, const char* event, const char* message,
           std::initializer_list<Field> fields) noexcept {
    log(severity, subsystem, event, message, fields.begin(), fields.size());
  }
  /// The same with a message from the catalogue of log texts: the record's
  /// message is catalogueText(text) and its textId is `text`.
  void log(Severity severity, const char* subsystem, const char* event, TextId text, const Field* fields,
           std::size_t count) noexcept;
  /// The same with a braced list of fields.
  void log(Severity severity, const char* subsystem, const char* event, TextId text,
           std::initializer_list<Field> fields) noexcept {
    log(severity, subsystem, event, text, fields.begin(), fields.size());
  }

  /// The configuration in effect: the sink, the current gate levels and the
  /// rate-limit settings (subsystem overrides are not included). Passing it
  /// back to init() later restores the logger - how a test puts back the
  /// logger it found, whatever the process default is.
  [[nodiscard]] LoggerOptions options() const {
    const std::lock_guard<std::mutex> lock(state_->mutex);
    return LoggerOptions{state_->sink, globalMinimum(),
                         static_cast<Level>(state_->defaultSubsystemLevel.load(std::memory_order_relaxed)),
                         state_->rateLimiting, state_->rateWindowMs, state_->clock};
  }

  /// Drains pending rate-limit summaries to the sink, flushes it, and stops
  /// logging: later events are discarded until the next init(). Idempotent.
  void shutdown() noexcept;
  /// True between init() (or first use) and shutdown().
  [[nodiscard]] bool active() const noexcept { return state_->active.load(std::memory_order_acquire); }

  /// The current sink (owned by the logger; valid until the next init()).
  [[nodiscard]] Sink* sink() noexcept {
    const std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->sink.get();
  }
  /// Events swallowed by the rate limiter since init().
  [[nodiscard]] std::uint64_t suppressedTotal() const noexcept {
    return state_->suppressedTotal.load(std::memory_order_relaxed);
  }
  /// Events emitted unlimited because the rate table (kRateLimitKeys) was
  /// full, since init().
  [[nodiscard]] std::uint64_t rateLimitOverflows() const noexcept {
    return state_->overflows.load(std::memory_order_relaxed);
  }

 private:
  Logger() noexcept;
  void logRecord(Severity severity, const char* subsystem, const char* event, const char* message, TextId textId,
                 const Field* fields, std::size_t count) noexcept;
  [[nodiscard]] bool subsystemEnabled(const char* subsystem, Severity severity) const noexcept {
    return static_cast<std::uint8_t>(severity) >= static_cast<std::uint8_t>(subsystemLevel(subsystem));
  }

  // Gate 1 lives here (not in the state) so that enabled() can inline it.
  std::atomic<std::uint8_t> globalMinimum_;
  detail::LoggerState* state_;
};

/// Installs POSIX handlers for SIGSEGV, SIGABRT, SIGBUS, SIGFPE and SIGILL:
/// each writes a fixed notice to stderr with write(2), flushes the sink when
/// the logger is idle (try-lock; never blocks in the handler), restores the
/// default action (one-shot) and re-raises the signal, so the process still
/// dies with the original signal and core-dump behaviour.
/// Errors: IoError when a handler cannot be registered. A no-op returning ok
/// under Emscripten (wasm has no signals) and on non-POSIX targets.
[[nodiscard]] Status installCrashHandling() noexcept;

}  // namespace laige::log

// The logging macros. The gates are checked first and the field arguments
// are evaluated only when the event is enabled, so a disabled event costs an
// atomic load and a branch. Subsystem and event are evaluated once.
//   LAIGE_LOG_WARN("ecs", "stale_entity_access", text,
//                  ::laige::log::field("entity_id", id), ::laige::log::field("generation", g));
//   LAIGE_LOG_INFO("ecs", "x", "msg");   // zero fields
#define LAIGE_LOG_AT_(severity_, subsystem_, event_, message_, ...)                                \
  do {                                                                                             \
    ::laige::log::Logger& laige_log_logger_ = ::laige::log::Logger::instance();                   \
    const char* const laige_log_subsystem_ = (subsystem_);                                         \
    if (laige_log_logger_.enabled(laige_log_subsystem_, (severity_))) {                            \
      laige_log_logger_.log((severity_), laige_log_subsystem_, (event_), (message_),               \
                            {__VA_ARGS__});                                                        \
    }                                                                                              \
  } while (false)

/// Trace event (off by default: the default levels are Debug).
#define LAIGE_LOG_TRACE(subsystem, event, message, ...) \
  LAIGE_LOG_AT_(::laige::log::Severity::Trace, subsystem, event, message, __VA_ARGS__)
/// Debug event.
#define LAIGE_LOG_DEBUG(subsystem, event, message, ...) \
  LAIGE_LOG_AT_(::laige::log::Severity::Debug, subsystem, event, message, __VA_ARGS__)
/// Info event.
#define LAIGE_LOG_INFO(subsystem, event, message, ...) \
  LAIGE_LOG_AT_(::laige::log::Severity::Info, subsystem, event, message, __VA_ARGS__)
/// Warn event (rate-limited).
#define LAIGE_LOG_WARN(subsystem, event, message, ...) \
  LAIGE_LOG_AT_(::laige::log::Severity::Warn, subsystem, event, message, __VA_ARGS__)
/// Error event (rate-limited).
#define LAIGE_LOG_ERROR(subsystem, event, message, ...) \
  LAIGE_LOG_AT_(::laige::log::Severity::Error, subsystem, event, message, __VA_ARGS__)
/// Fatal event: never gated out of existence - it always aborts the process
/// (the gates only decide whether the record is written first).
#define LAIGE_LOG_FATAL(subsystem, event, message, ...)                                           \
  ::laige::log::Logger::instance().log(::laige::log::Severity::Fatal, (subsystem), (event),       \
                                       (message), {__VA_ARGS__})
