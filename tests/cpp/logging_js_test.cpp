// logging_js_test.cpp - the wasm sink that hands records to JavaScript.
#include <gtest/gtest.h>

#include "laige/logging.h"
#include "support/log_capture.h"

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>

namespace laige::log {
namespace {

TEST(JsSink, HandsRecordsToModuleOnLaigeLog) {
  EM_ASM({
    Module['laigeTestLogs'] = [];
    Module['onLaigeLog'] = function(r) { Module['laigeTestLogs'].push(r); };
  });
  LoggerOptions o;
  o.sink = std::make_shared<JsSink>();
  Logger::instance().init(o);
  LAIGE_LOG_WARN("ecs", "stale_entity_access", "a | b | c | d | e", field("entity_id", 7),
                 field("generation", 2));
  LAIGE_LOG_INFO("loop", "no_fields", "plain");
  test::installQuietLogger();
  const int count = EM_ASM_INT({ return Module['laigeTestLogs'].length; });
  ASSERT_EQ(count, 2);
  const int ok = EM_ASM_INT({
    var r = Module['laigeTestLogs'][0];
    return r.severity === 'warn' && r.subsystem === 'ecs' && r.event === 'stale_entity_access' &&
           r.message === 'a | b | c | d | e' && r.fields.entity_id === '7' &&
           r.fields.generation === '2' && typeof r.timestampUs === 'number' &&
           Object.keys(Module['laigeTestLogs'][1].fields).length === 0;
  });
  EXPECT_EQ(ok, 1);
  EM_ASM({ delete Module['onLaigeLog']; });
}

TEST(JsSink, WithoutAHandlerRecordsAreDropped) {
  EM_ASM({ delete Module['onLaigeLog']; });
  LoggerOptions o;
  o.sink = std::make_shared<JsSink>();
  Logger::instance().init(o);
  LAIGE_LOG_WARN("ecs", "x", "a | b | c | d | e");
  test::installQuietLogger();
  SUCCEED();
}

TEST(JsSink, AThrowingHandlerDoesNotCrash) {
  EM_ASM({ Module['onLaigeLog'] = function() { throw new Error('boom'); }; });
  LoggerOptions o;
  o.sink = std::make_shared<JsSink>();
  Logger::instance().init(o);
  LAIGE_LOG_WARN("ecs", "y", "a | b | c | d | e");
  test::installQuietLogger();
  EM_ASM({ delete Module['onLaigeLog']; });
  SUCCEED();
}

}  // namespace
}  // namespace laige::log
#else
TEST(JsSink, IsWasmOnly) { GTEST_SKIP() << "the JavaScript sink exists only in the wasm build"; }
#endif
