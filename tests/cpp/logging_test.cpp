// logging_test.cpp - the logging facade contract (docs/logging.md): gates,
// macros, rate limiting, shutdown, sinks and crash handling (fields and the
// line format: logging_line_test.cpp). Every test restores the global logger (the
// fixture re-inits it to defaults) because other suites share the process.
#include "laige/logging.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#if !defined(__EMSCRIPTEN__)
#include <csignal>
#include <thread>
#endif

namespace {

using ::laige::ErrorCode;
using namespace ::laige::log;  // NOLINT: the module under test

std::atomic<std::int64_t> gNowMs{0};
std::int64_t fakeClock() noexcept { return gNowMs.load(); }

// Installs a CaptureSink and the fake window clock; TearDown restores the
// logger this test found (the process default, or a suite-wide quiet sink).
class LoggingTest : public ::testing::Test {
 protected:
  LoggingTest() : saved_(Logger::instance().options()) {}

  void SetUp() override {
    gNowMs = 1000;
    capture = std::make_shared<CaptureSink>();
    LoggerOptions options;
    options.sink = capture;
    options.clock = &fakeClock;
    Logger::instance().init(options);
  }
  void TearDown() override { Logger::instance().init(saved_); }

  const std::vector<CaptureSink::Captured>& records() const { return capture->records(); }

  std::shared_ptr<CaptureSink> capture;

 private:
  const LoggerOptions saved_;
};

LogRecord makeRecord(const Field* fields, std::size_t count) {
  return LogRecord{Severity::Warn, "ecs", "stale_entity_access", "msg", fields, count, 0};
}

// ----------------------------------------------------------------- names

TEST(LoggingNames, SeverityAndLevelTokens) {
  const char* expected[] = {"trace", "debug", "info", "warn", "error", "fatal", "off"};
  for (int i = 0; i < 6; ++i) EXPECT_STREQ(severityName(static_cast<Severity>(i)), expected[i]);
  for (int i = 0; i < 7; ++i) EXPECT_STREQ(levelName(static_cast<Level>(i)), expected[i]);
  EXPECT_STREQ(severityName(static_cast<Severity>(42)), "unknown");
}

// ----------------------------------------------------------------- gates

TEST_F(LoggingTest, DefaultGatesAreDebugAndTraceIsOff) {
  Logger& log = Logger::instance();
  EXPECT_EQ(log.globalMinimum(), Level::Debug);
  EXPECT_FALSE(log.enabled("ecs", Severity::Trace));
  EXPECT_TRUE(log.enabled("ecs", Severity::Debug));
  LAIGE_LOG_TRACE("ecs", "t", "trace");
  LAIGE_LOG_DEBUG("ecs", "d", "debug");
  LAIGE_LOG_INFO("ecs", "i", "info");
  ASSERT_EQ(records().size(), 2u);
  EXPECT_EQ(records()[0].severity, Severity::Debug);
  EXPECT_EQ(records()[1].severity, Severity::Info);
}

TEST_F(LoggingTest, GlobalMinimumIsCheckedBeforeTheSubsystemLevel) {
  Logger& log = Logger::instance();
  log.setGlobalMinimum(Level::Warn);
  log.setSubsystemLevel("ecs", Level::Trace);
  EXPECT_FALSE(log.enabled("ecs", Severity::Info));
  EXPECT_TRUE(log.enabled("ecs", Severity::Warn));
  LAIGE_LOG_INFO("ecs", "i", "dropped");
  LAIGE_LOG_WARN("ecs", "w", "kept");
  ASSERT_EQ(records().size(), 1u);
  EXPECT_EQ(records()[0].event, "w");
}

TEST_F(LoggingTest, SubsystemLevelOverridesComparedByContent) {
  Logger& log = Logger::instance();
  log.setSubsystemLevel("ecs", Level::Error);
  const std::string dynamicName = std::string("e") + "cs";  // a different pointer, same content
  EXPECT_FALSE(log.enabled(dynamicName.c_str(), Severity::Warn));
  EXPECT_TRUE(log.enabled(dynamicName.c_str(), Severity::Error));
  EXPECT_TRUE(log.enabled("loop", Severity::Warn));
  EXPECT_EQ(log.subsystemLevel("ecs"), Level::Error);
  EXPECT_EQ(log.subsystemLevel("loop"), Level::Debug);
  log.setGlobalMinimum(Level::Trace);
  log.setSubsystemLevel(dynamicName.c_str(), Level::Trace);  // updates the same override
  EXPECT_EQ(log.subsystemLevel("ecs"), Level::Trace);
  EXPECT_TRUE(log.enabled("ecs", Severity::Trace));
  EXPECT_FALSE(log.enabled("loop", Severity::Trace));
}

TEST_F(LoggingTest, DefaultSubsystemLevelAndOff) {
  Logger& log = Logger::instance();
  log.setSubsystemLevel("replay", Level::Debug);
  log.setSubsystemLevel("ecs", Level::Off);
  log.setDefaultSubsystemLevel(Level::Error);
  EXPECT_FALSE(log.enabled("loop", Severity::Warn));
  EXPECT_TRUE(log.enabled("loop", Severity::Error));
  EXPECT_TRUE(log.enabled("replay", Severity::Debug));
  EXPECT_FALSE(log.enabled("ecs", Severity::Error));
  log.setGlobalMinimum(Level::Off);
  LAIGE_LOG_ERROR("loop", "e", "dropped");
  EXPECT_TRUE(records().empty());
}

TEST_F(LoggingTest, RejectedSubsystemOverrideWarnsAndChangesNothing) {
  Logger& log = Logger::instance();
  const std::string tooLong(kMaxSubsystemNameLength + 1, 's');
  log.setSubsystemLevel(tooLong.c_str(), Level::Off);
  EXPECT_TRUE(log.enabled(tooLong.c_str(), Severity::Debug));
  ASSERT_EQ(capture->count("logging", "subsystem_level_rejected"), 1u);
  EXPECT_EQ(records()[0].fieldValue("reason"), "name_too_long");
}

// ----------------------------------------------------------------- macros

TEST_F(LoggingTest, MacroEvaluatesFieldsOnlyWhenEnabled) {
  int evaluations = 0;
  auto expensive = [&evaluations] { return ++evaluations; };
  LAIGE_LOG_TRACE("ecs", "t", "off", field("n", expensive()));
  EXPECT_EQ(evaluations, 0);
  LAIGE_LOG_DEBUG("ecs", "d", "on", field("n", expensive()));
  EXPECT_EQ(evaluations, 1);
  ASSERT_EQ(records().size(), 1u);
  EXPECT_EQ(records()[0].fieldValue("n"), "1");
}

TEST_F(LoggingTest, MacroWorksWithZeroAndManyFields) {
  const std::uint32_t id = 7;
  const std::uint16_t g = 3;
  LAIGE_LOG_INFO("ecs", "x", "msg");
  LAIGE_LOG_WARN("ecs", "stale_entity_access", "5-field text", field("entity_id", id),
                 field("generation", g));
  ASSERT_EQ(records().size(), 2u);
  EXPECT_TRUE(records()[0].fields.empty());
  EXPECT_EQ(records()[0].line.substr(27), " [info] ecs/x: msg");
  ASSERT_EQ(records()[1].fields.size(), 2u);
  EXPECT_EQ(records()[1].fields[0], (std::pair<std::string, std::string>("entity_id", "7")));
  EXPECT_EQ(records()[1].fields[1], (std::pair<std::string, std::string>("generation", "3")));
}

TEST_F(LoggingTest, MacroEvaluatesTheSubsystemOnce) {
  int calls = 0;
  auto subsystem = [&calls] { ++calls; return "ecs"; };
  LAIGE_LOG_INFO(subsystem(), "x", "msg");
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(records().size(), 1u);
}

TEST_F(LoggingTest, DirectLogCallsApplyTheGatesAndTolerateNulls) {
  Logger& log = Logger::instance();
  log.log(Severity::Trace, "ecs", "t", "gated", nullptr, 0);
  const Field fields[] = {field("a", 1), field("b", 2)};
  log.log(Severity::Info, "ecs", "arr", "array form", fields, 2);
  log.log(Severity::Info, nullptr, nullptr, nullptr, nullptr, 5);
  ASSERT_EQ(records().size(), 2u);
  EXPECT_EQ(records()[0].fieldValue("b"), "2");
  EXPECT_EQ(records()[1].subsystem, "");
  EXPECT_EQ(records()[1].message, "");
  EXPECT_TRUE(records()[1].fields.empty());
}

TEST_F(LoggingTest, EmittedLineHasAWallClockTimestamp) {
  LAIGE_LOG_INFO("ecs", "x", "msg", field("a", 1));
  ASSERT_EQ(records().size(), 1u);
  const std::string& line = records()[0].line;
  const std::string shape = "dddd-dd-ddTdd:dd:dd.ddddddZ";
  ASSERT_GE(line.size(), shape.size());
  for (std::size_t i = 0; i < shape.size(); ++i) {
    EXPECT_TRUE(shape[i] == 'd' ? (line[i] >= '0' && line[i] <= '9') : line[i] == shape[i]) << line;
  }
  EXPECT_EQ(line.substr(27), " [info] ecs/x: msg | a=1");
  EXPECT_GE(line.substr(0, 4), "2024");
}

// ----------------------------------------------------------------- rate limiting

TEST_F(LoggingTest, FirstEmitsRepeatsSuppressedSummaryBeforeNextEventAfterWindow) {
  for (int i = 0; i < 4; ++i) LAIGE_LOG_WARN("ecs", "stale_entity_access", "m", field("i", i));
  gNowMs += 999;  // still inside [start, start + 1000)
  LAIGE_LOG_WARN("ecs", "stale_entity_access", "m");
  ASSERT_EQ(records().size(), 1u);
  EXPECT_EQ(records()[0].fieldValue("i"), "0");
  EXPECT_EQ(Logger::instance().suppressedTotal(), 4u);
  gNowMs += 1;  // the window is over
  LAIGE_LOG_WARN("ecs", "stale_entity_access", "m", field("n", 2));
  ASSERT_EQ(records().size(), 3u);
  const auto& summary = records()[1];
  EXPECT_EQ(summary.subsystem, "ecs");
  EXPECT_EQ(summary.event, "rate_limited");
  EXPECT_EQ(summary.severity, Severity::Warn);
  EXPECT_EQ(summary.fieldValue("event"), "stale_entity_access");
  EXPECT_EQ(summary.fieldValue("suppressed"), "4");
  EXPECT_NE(summary.line.find(" | event=stale_entity_access | suppressed=4"), std::string::npos);
  EXPECT_EQ(records()[2].event, "stale_entity_access");
  EXPECT_EQ(records()[2].fieldValue("n"), "2");
  // The new event opened a new window: its repeats are suppressed again.
  LAIGE_LOG_WARN("ecs", "stale_entity_access", "m");
  EXPECT_EQ(records().size(), 3u);
}

TEST_F(LoggingTest, NoSummaryWhenNothingWasSuppressed) {
  LAIGE_LOG_WARN("ecs", "x", "m");
  gNowMs += 5000;
  LAIGE_LOG_WARN("ecs", "x", "m");
  ASSERT_EQ(records().size(), 2u);
  EXPECT_EQ(capture->count("ecs", "rate_limited"), 0u);
}

TEST_F(LoggingTest, KeysAreIndependentAndComparedByContent) {
  LAIGE_LOG_WARN("ecs", "a", "m");
  LAIGE_LOG_WARN("ecs", "b", "m");           // another event
  LAIGE_LOG_WARN("loop", "a", "m");          // another subsystem
  LAIGE_LOG_ERROR("ecs", "a", "m");          // another severity
  const std::string sub = std::string("ec") + "s", ev = std::string("a");  // same content, other pointers
  Logger::instance().log(Severity::Warn, sub.c_str(), ev.c_str(), "m", {});
  LAIGE_LOG_WARN("ecs", "b", "m");
  LAIGE_LOG_ERROR("ecs", "a", "m");
  ASSERT_EQ(records().size(), 4u);
  EXPECT_EQ(records()[3].severity, Severity::Error);
  EXPECT_EQ(Logger::instance().suppressedTotal(), 3u);
}

TEST_F(LoggingTest, OnlyWarnAndAboveAreLimited) {
  for (int i = 0; i < 3; ++i) {
    LAIGE_LOG_DEBUG("ecs", "d", "m");
    LAIGE_LOG_INFO("ecs", "i", "m");
  }
  EXPECT_EQ(records().size(), 6u);
  EXPECT_EQ(Logger::instance().suppressedTotal(), 0u);
}

TEST_F(LoggingTest, SustainedRepeatsGiveOneSummaryPerWindow) {
  for (int window = 0; window < 3; ++window) {
    for (int i = 0; i < 10; ++i) LAIGE_LOG_ERROR("system", "budget_overrun", "m");
    gNowMs += 1000;
  }
  // window 0: event; window 1: summary(9) + event; window 2: summary(9) + event
  ASSERT_EQ(records().size(), 5u);
  EXPECT_EQ(records()[1].fieldValue("suppressed"), "9");
  EXPECT_EQ(records()[3].fieldValue("suppressed"), "9");
  EXPECT_EQ(Logger::instance().suppressedTotal(), 27u);
}

TEST_F(LoggingTest, RateLimitingCanBeTurnedOff) {
  LoggerOptions options;
  options.sink = capture;
  options.rateLimiting = false;
  Logger::instance().init(options);
  for (int i = 0; i < 3; ++i) LAIGE_LOG_WARN("ecs", "x", "m");
  EXPECT_EQ(records().size(), 3u);
}

TEST_F(LoggingTest, ShutdownDrainsPendingSummariesOnce) {
  LAIGE_LOG_WARN("ecs", "stale_entity_destroy", "m");
  LAIGE_LOG_WARN("ecs", "stale_entity_destroy", "m");
  LAIGE_LOG_WARN("ecs", "stale_entity_destroy", "m");
  LAIGE_LOG_ERROR("replay", "bad", "m");  // nothing suppressed: no summary
  Logger::instance().shutdown();
  ASSERT_EQ(records().size(), 3u);
  EXPECT_EQ(records()[2].event, "rate_limited");
  EXPECT_EQ(records()[2].subsystem, "ecs");
  EXPECT_EQ(records()[2].fieldValue("event"), "stale_entity_destroy");
  EXPECT_EQ(records()[2].fieldValue("suppressed"), "2");
  Logger::instance().shutdown();  // idempotent
  EXPECT_EQ(records().size(), 3u);
}

TEST_F(LoggingTest, LoggingAfterShutdownIsDiscardedUntilInitWhichResetsLevels) {
  Logger& log = Logger::instance();
  log.setGlobalMinimum(Level::Error);
  log.setSubsystemLevel("ecs", Level::Off);
  log.shutdown();
  EXPECT_FALSE(log.active());
  LAIGE_LOG_WARN("ecs", "x", "m");
  LAIGE_LOG_INFO("ecs", "y", "m");
  EXPECT_TRUE(records().empty());
  SetUp();
  EXPECT_TRUE(log.active());
  EXPECT_EQ(log.globalMinimum(), Level::Debug);
  EXPECT_EQ(log.subsystemLevel("ecs"), Level::Debug);
  LAIGE_LOG_WARN("ecs", "x", "m");
  EXPECT_EQ(records().size(), 1u);
}

TEST_F(LoggingTest, InitResetsRateStateAfterDrainingToTheOldSink) {
  LAIGE_LOG_WARN("ecs", "x", "m");
  LAIGE_LOG_WARN("ecs", "x", "m");
  const std::shared_ptr<CaptureSink> old = capture;
  SetUp();  // a fresh capture sink
  ASSERT_EQ(old->records().size(), 2u);
  EXPECT_EQ(old->records()[1].event, "rate_limited");
  EXPECT_EQ(Logger::instance().suppressedTotal(), 0u);
  LAIGE_LOG_WARN("ecs", "x", "m");
  ASSERT_EQ(records().size(), 1u);
  EXPECT_EQ(records()[0].event, "x");
}

TEST_F(LoggingTest, FullKeyTableDegradesToUnlimited) {
  const std::size_t keys = kRateLimitKeys + 10;
  std::vector<std::string> events;
  for (std::size_t i = 0; i < keys; ++i) events.push_back("event_" + std::to_string(i));
  for (int round = 0; round < 2; ++round) {
    for (const auto& e : events) Logger::instance().log(Severity::Warn, "ecs", e.c_str(), "m", {});
  }
  // Round 1: every key emits once. Round 2: tracked keys are suppressed, the
  // 10 overflowing keys emit again. Plus one table-full warn.
  EXPECT_EQ(capture->count("logging", "rate_limit_table_full"), 1u);
  EXPECT_EQ(records().size(), keys + 10 + 1);
  EXPECT_EQ(Logger::instance().rateLimitOverflows(), 20u);
  EXPECT_EQ(Logger::instance().suppressedTotal(), kRateLimitKeys);
}

TEST_F(LoggingTest, LongNamesAreTrackedAndSummarised) {
  const std::string longEvent(100, 'e');
  Logger::instance().log(Severity::Warn, "ecs", longEvent.c_str(), "m", {});
  Logger::instance().log(Severity::Warn, "ecs", longEvent.c_str(), "m", {});
  EXPECT_EQ(records().size(), 1u);
  Logger::instance().shutdown();
  ASSERT_EQ(records().size(), 2u);
  EXPECT_EQ(records()[1].fieldValue("event"), std::string(63, 'e'));
}

// ----------------------------------------------------------------- sinks

TEST_F(LoggingTest, CaptureSinkHelpers) {
  LAIGE_LOG_INFO("ecs", "x", "m", field("a", 1));
  LAIGE_LOG_INFO("ecs", "x", "m");
  LAIGE_LOG_INFO("ecs", "y", "m");
  EXPECT_EQ(capture->count("ecs", "x"), 2u);
  EXPECT_EQ(capture->count("ecs", "z"), 0u);
  EXPECT_TRUE(records()[0].hasField("a"));
  EXPECT_FALSE(records()[0].hasField("b"));
  EXPECT_EQ(records()[0].fieldValue("b"), "");
  capture->clear();
  EXPECT_TRUE(records().empty());
}

// What a wasm bridge does: copy the raw record out (here into strings).
void collect(void* ctx, const LogRecord& record) noexcept {
  std::string text = std::string(severityName(record.severity)) + " " + record.subsystem + "/" + record.event;
  for (std::size_t i = 0; i < record.fieldCount; ++i) {
    text += " " + std::string(record.fields[i].key) + "=" + std::string(record.fields[i].view());
  }
  static_cast<std::vector<std::string>*>(ctx)->push_back(text);
}

TEST_F(LoggingTest, CallbackSinkForwardsEveryRecord) {
  std::vector<std::string> received;
  LoggerOptions options;
  options.sink = std::make_shared<CallbackSink>(&collect, &received);
  options.clock = &fakeClock;
  Logger::instance().init(options);
  LAIGE_LOG_INFO("ecs", "x", "m", field("a", 1), field("b", true));
  LAIGE_LOG_ERROR("loop", "y", "m");
  LAIGE_LOG_ERROR("loop", "y", "m");
  Logger::instance().shutdown();
  ASSERT_EQ(received.size(), 3u);
  EXPECT_EQ(received[0], "info ecs/x a=1 b=true");
  EXPECT_EQ(received[1], "error loop/y");
  EXPECT_EQ(received[2], "error loop/rate_limited event=y suppressed=1");
  CallbackSink dropping(nullptr, nullptr);  // a null function drops records
  dropping.emit(makeRecord(nullptr, 0));
}

TEST_F(LoggingTest, OptionsReportTheConfigurationInEffect) {
  Logger::instance().setGlobalMinimum(Level::Warn);
  const LoggerOptions now = Logger::instance().options();
  EXPECT_EQ(now.sink.get(), capture.get());
  EXPECT_EQ(now.globalMinimum, Level::Warn);
  EXPECT_EQ(now.clock, &fakeClock);
  EXPECT_EQ(now.rateWindowMs, 1000);
}

TEST_F(LoggingTest, DefaultOptionsInstallAConsoleSink) {
  Logger::instance().init(LoggerOptions{});
  EXPECT_NE(Logger::instance().sink(), nullptr);
  EXPECT_NE(Logger::instance().sink(), capture.get());
}

TEST(LoggingSinks, ConsoleSinkWritesOneLinePerRecord) {
  std::FILE* stream = std::tmpfile();
  ASSERT_NE(stream, nullptr);
  ConsoleSink sink(stream);
  const Field fields[] = {field("a", 1)};
  sink.emit(makeRecord(fields, 1));
  sink.emit(makeRecord(nullptr, 0));
  sink.flush();
  EXPECT_EQ(sink.failedWrites(), 0u);
  std::rewind(stream);
  char buffer[256] = {};
  const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, stream);
  EXPECT_EQ(std::string(buffer, n),
            "1970-01-01T00:00:00.000000Z [warn] ecs/stale_entity_access: msg | a=1\n"
            "1970-01-01T00:00:00.000000Z [warn] ecs/stale_entity_access: msg\n");
  std::fclose(stream);
}

TEST(LoggingSinks, ConsoleSinkCountsFailedWrites) {
  const std::string path = ::testing::TempDir() + "laige_logging_readonly.txt";
  std::ofstream(path) << "x";
  std::FILE* readOnly = std::fopen(path.c_str(), "rb");  // every write to it fails
  ASSERT_NE(readOnly, nullptr);
  ConsoleSink sink(readOnly);
  sink.emit(makeRecord(nullptr, 0));
  EXPECT_EQ(sink.failedWrites(), 1u);
  std::fclose(readOnly);
  std::remove(path.c_str());
}

TEST(LoggingSinks, FileSinkCreateFailsWithIoErrorInAMissingDirectory) {
  const std::string path = ::testing::TempDir() + "laige_no_such_dir_7f3a/sub/log.txt";
  auto result = FileSink::create(path.c_str());
  ASSERT_TRUE(result.isError());
  EXPECT_EQ(result.error(), ErrorCode::IoError);
  EXPECT_EQ(FileSink::create(nullptr).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(FileSink::create("").error(), ErrorCode::InvalidArgument);
}

TEST_F(LoggingTest, FileSinkAppends) {
  const std::string path = ::testing::TempDir() + "laige_logging_test.log";
  std::remove(path.c_str());
  for (int run = 0; run < 2; ++run) {
    auto created = FileSink::create(path.c_str());
    ASSERT_TRUE(created.ok());
    LoggerOptions options;
    options.sink = std::shared_ptr<FileSink>(std::move(created).takeValue());
    Logger::instance().init(options);
    LAIGE_LOG_INFO("ecs", "run", "m", field("run", run));
    LAIGE_LOG_WARN("ecs", "warned", "m");
    Logger::instance().shutdown();
    Logger::instance().init(LoggerOptions{});  // releases (closes) the file sink
  }
  std::ostringstream content;
  content << std::ifstream(path, std::ios::binary).rdbuf();
  const std::string text = content.str();
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line.substr(27));
  ASSERT_EQ(lines.size(), 4u) << text;
  EXPECT_EQ(lines[0], " [info] ecs/run: m | run=0");
  EXPECT_EQ(lines[1], " [warn] ecs/warned: m");
  EXPECT_EQ(lines[2], " [info] ecs/run: m | run=1");
  EXPECT_EQ(lines[3], " [warn] ecs/warned: m");
  EXPECT_EQ(text.back(), '\n');
  std::remove(path.c_str());
}

// ----------------------------------------------------------------- crash handling

TEST(LoggingCrash, InstallCrashHandlingSucceeds) {
#if defined(__EMSCRIPTEN__)
  EXPECT_TRUE(installCrashHandling().ok());  // a documented no-op
#else
  const int signals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};
  struct sigaction previous[5];
  for (int i = 0; i < 5; ++i) ASSERT_EQ(sigaction(signals[i], nullptr, &previous[i]), 0);
  EXPECT_TRUE(installCrashHandling().ok());
  for (int i = 0; i < 5; ++i) {
    struct sigaction now;
    ASSERT_EQ(sigaction(signals[i], nullptr, &now), 0);
    EXPECT_NE(now.sa_handler, SIG_DFL);
    EXPECT_NE(now.sa_flags & SA_RESETHAND, 0);
    sigaction(signals[i], &previous[i], nullptr);  // leave the process as we found it
  }
#endif
}

#if GTEST_HAS_DEATH_TEST && !defined(__EMSCRIPTEN__)
TEST(LoggingCrashDeathTest, HandlerWritesTheNoticeAndReRaises) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        (void)installCrashHandling();
        std::raise(SIGSEGV);
      },
      ::testing::KilledBySignal(SIGSEGV), "laige: fatal signal SIGSEGV received");
}

TEST(LoggingCrashDeathTest, FatalRecordsFlushesAndAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        Logger::instance().init(LoggerOptions{});
        LAIGE_LOG_FATAL("engine", "boom", "unrecoverable", field("code", 5));
      },
      "\\[fatal\\] engine/boom: unrecoverable \\| code=5");
}
#endif

// ----------------------------------------------------------------- threads

#if !defined(__EMSCRIPTEN__)
TEST_F(LoggingTest, ConcurrentLoggingKeepsEveryRecordAndCount) {
  constexpr int kThreads = 4;
  constexpr int kPerThread = 500;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([] {
      for (int i = 0; i < kPerThread; ++i) {
        LAIGE_LOG_INFO("ecs", "info", "m", field("i", i));
        LAIGE_LOG_WARN("ecs", "warn", "m");
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(capture->count("ecs", "info"), static_cast<std::size_t>(kThreads * kPerThread));
  EXPECT_EQ(capture->count("ecs", "warn"), 1u);
  EXPECT_EQ(Logger::instance().suppressedTotal(), static_cast<std::uint64_t>(kThreads * kPerThread - 1));
}
#endif

}  // namespace
