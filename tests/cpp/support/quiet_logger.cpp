// quiet_logger.cpp - the test process's default logger drops records, so
// suites that provoke warns on purpose do not flood the test output. Tests
// that look at log records use LogCapture (log_capture.h).
#include <gtest/gtest.h>

#include "support/log_capture.h"

namespace laige::test {

void installQuietLogger() {
  log::LoggerOptions o;
  o.sink = std::make_shared<log::CallbackSink>([](void*, const log::LogRecord&) noexcept {}, nullptr);
  log::Logger::instance().init(o);
}

namespace {
class QuietLoggerEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { installQuietLogger(); }
};
// Registered before main() runs; gtest owns the environment.
[[maybe_unused]] ::testing::Environment* const kQuiet =
    ::testing::AddGlobalTestEnvironment(new QuietLoggerEnvironment);
}  // namespace

}  // namespace laige::test
