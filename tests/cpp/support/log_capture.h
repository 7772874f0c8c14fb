// log_capture.h - routes the global logger into a CaptureSink for one test.
#pragma once

#include <cstdint>
#include <memory>

#include "laige/logging.h"

namespace laige::test {

/// Routes the logger to a sink that drops everything (the test default).
void installQuietLogger();

/// While alive, every log record lands in `sink`, rate limiting runs on a
/// manual clock (advance() moves it), and the previous default logger is
/// quiet test default is restored on destruction.
class LogCapture {
 public:
  LogCapture() : sink(std::make_shared<log::CaptureSink>()) {
    nowMs() = 1'000'000;
    log::LoggerOptions o;
    o.sink = sink;
    o.clock = &LogCapture::clock;
    log::Logger::instance().init(o);
  }
  ~LogCapture() { installQuietLogger(); }
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;

  /// Moves the rate-limit clock forward by `ms` (past the window: new events emit).
  static void advance(std::int64_t ms) noexcept { nowMs() += ms; }
  /// Records with this subsystem and event.
  [[nodiscard]] std::size_t count(const char* subsystem, const char* event) const {
    return sink->count(subsystem, event);
  }

  std::shared_ptr<log::CaptureSink> sink;

 private:
  static std::int64_t& nowMs() noexcept {
    static std::int64_t now = 0;
    return now;
  }
  static std::int64_t clock() noexcept { return nowMs(); }
};

}  // namespace laige::test
