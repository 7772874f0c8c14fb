// check_first_test.cpp - calls that run a tick and then record or count it
// check everything first: a refusal changes nothing (no tick, no frame, no
// byte written).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "laige/replay.h"
#include "scenario.h"

namespace laige {
namespace {

TEST(CheckFirst, CanWriteFrameSaysWhatWriteFrameWouldAndChangesNothing) {
  ReplayIdentity id;
  ReplayWriter w = ReplayWriter::create(id, kReplayHeaderSize + 12 + 4).takeValue();  // the trailer would not fit
  EXPECT_TRUE(w.canWriteFrame(4).ok());
  const Status big = w.canWriteFrame(5);
  EXPECT_EQ(big.error(), ErrorCode::BudgetExhausted);
  EXPECT_STREQ(big.reason(), "replay_size_cap");
  EXPECT_STREQ(w.canWriteFrame(kMaxReplayFrameBytes + 1).reason(), "frame_too_large");
  EXPECT_TRUE(w.status().ok());  // asking is not failing: not sticky
  const std::vector<std::uint8_t> four(4, 7);
  ASSERT_TRUE(w.writeFrame(1, four.data(), 4).ok());
  EXPECT_EQ(w.canWriteFrame(0).error(), ErrorCode::BudgetExhausted);
  ReplayWriter done = ReplayWriter::create(id).takeValue();
  ASSERT_TRUE(done.finish().ok());
  EXPECT_STREQ(done.canWriteFrame(0).reason(), "recorder_finished");
}

TEST(CheckFirst, ScenarioRunStepInsideEachIsRefusedBeforeBeginFrame) {
  const Scenario* hello = findScenario("hello");
  ASSERT_NE(hello, nullptr);
  ScenarioRun run = ScenarioRun::create(*hello, hello->defaultSeed).takeValue();
  ASSERT_TRUE(run.step().ok());
  const std::uint64_t tick = run.tick();
  const std::uint64_t hash = run.world().stateHash(tick);
  Status inner;
  (void)run.world().each<>([&](Entity) {
    if (inner.ok()) inner = run.step();
  });
  EXPECT_STREQ(inner.reason(), "tick_inside_callback");
  EXPECT_STREQ(inner.fieldValue("callback"), "each");
  EXPECT_EQ(run.tick(), tick);
  EXPECT_EQ(run.world().stateHash(tick), hash);
  ASSERT_TRUE(run.step().ok());
}

}  // namespace
}  // namespace laige
