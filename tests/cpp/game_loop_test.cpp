// game_loop_test.cpp - the fixed-tick loop (docs/game_loop.md): create()
// validation, the integer accumulator and its KATs, the catch-up cap and
// dropped ticks, beginFrame once per frame (docs/game_loop.md), onTick,
// failed ticks, moves, and the no-allocation guard of a tick. The tickInput
// provider and hooks that end a frame: game_loop_hooks_test.cpp.
#include "laige/game_loop.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "laige/alloc_watch.h"
#include "laige/assert.h"
#include "laige/system.h"
#include "laige/world.h"
#include "support/counting_allocator.h"
#include "support/game_loop_rig.h"
#include "support/log_capture.h"

namespace laige {
namespace {

using test::Clock;
using test::kTick60;
using test::scheduleOneSystem;

struct Counts {
  std::uint64_t runs = 0;
  std::uint32_t churnSeen = 0;  // the frame churn when the system ran
};

// Notes one churn per tick, so the per-frame counter shows where beginFrame ran.
void counting(World& world, SystemContext& ctx) {
  Counts& c = *static_cast<Counts*>(ctx.userData);
  ++c.runs;
  world.noteChurn(1);
  c.churnSeen = world.guardrailStats().frameChurn;
}

struct Hook {
  std::uint64_t calls = 0;
  std::uint64_t lastTick = 0;
  World* world = nullptr;
};

Status onTick(void* ctx, World& world, std::uint64_t tick) noexcept {
  Hook& h = *static_cast<Hook*>(ctx);
  ++h.calls;
  h.lastTick = tick;
  h.world = &world;
  return Status{};
}

struct Rig {
  World world = World::create(8).takeValue();
  SystemSchedule schedule;
  Clock clock;
  Counts counts;
  Hook hook;

  Rig() { EXPECT_TRUE(scheduleOneSystem(world, schedule, "Count", &counting, &counts)); }
  GameLoop::Options options(std::uint32_t rate = 60, std::uint32_t cap = 5) {
    GameLoop::Options o;
    o.tickRateHz = rate;
    o.maxCatchUpTicks = cap;
    o.nowNs = &Clock::read;
    o.clockContext = &clock;
    o.onTick = &onTick;
    o.onTickContext = &hook;
    return o;
  }
  GameLoop loop(std::uint32_t rate = 60, std::uint32_t cap = 5) {
    return GameLoop::create(world, schedule, options(rate, cap)).takeValue();
  }
};

TEST(GameLoop, ConstantsAndDefaults) {
  EXPECT_EQ(kMinTickRateHz, 20u);
  EXPECT_EQ(kDefaultTickRateHz, 60u);
  EXPECT_EQ(kMaxTickRateHz, 120u);
  EXPECT_EQ(kDefaultMaxCatchUpTicks, 5u);
  const GameLoop::Options o;
  EXPECT_EQ(o.tickRateHz, 60u);
  EXPECT_EQ(o.maxCatchUpTicks, 5u);
  EXPECT_EQ(o.nowNs, nullptr);
  EXPECT_EQ(o.onTick, nullptr);
  EXPECT_EQ(o.tickInput, nullptr);
  EXPECT_EQ(o.tickInputContext, nullptr);
  Rig r;
  GameLoop loop = r.loop();
  EXPECT_EQ(loop.tickRateHz(), 60u);
  EXPECT_EQ(loop.maxCatchUpTicks(), 5u);
  EXPECT_TRUE(loop.isRunning());
  EXPECT_EQ(loop.currentTick(), 0u);
}

TEST(GameLoop, CreateRejectsTickRatesOutside20To120) {
  test::LogCapture logs;
  Rig r;
  for (std::uint32_t rate : {0u, 19u, 121u, 1000u}) {
    logs.advance(2000);
    auto res = GameLoop::create(r.world, r.schedule, r.options(rate));
    ASSERT_TRUE(res.isError());
    EXPECT_EQ(res.error(), ErrorCode::InvalidArgument);
    EXPECT_EQ(logs.sink->records().back().event, "tick_rate_invalid");
    EXPECT_EQ(logs.sink->records().back().subsystem, "loop");
    EXPECT_EQ(logs.sink->records().back().fieldValue("tick_rate_hz"), std::to_string(rate));
  }
  EXPECT_TRUE(GameLoop::create(r.world, r.schedule, r.options(20)).ok());
  EXPECT_TRUE(GameLoop::create(r.world, r.schedule, r.options(120)).ok());
}

TEST(GameLoop, CreateRejectsAZeroCatchUpCap) {
  test::LogCapture logs;
  Rig r;
  auto res = GameLoop::create(r.world, r.schedule, r.options(60, 0));
  ASSERT_TRUE(res.isError());
  EXPECT_EQ(res.error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("loop", "catchup_invalid"), 1u);
  EXPECT_EQ(logs.sink->records().back().fieldValue("max_catch_up"), "0");
  // The rate is checked first.
  logs.advance(2000);
  EXPECT_TRUE(GameLoop::create(r.world, r.schedule, r.options(10, 0)).isError());
  EXPECT_EQ(logs.sink->records().back().event, "tick_rate_invalid");
}

TEST(GameLoop, FirstFrameRecordsTheStartAndRunsNoTick) {
  Rig r;
  GameLoop loop = r.loop();
  r.world.noteChurn(3);
  ASSERT_TRUE(loop.frame().ok());
  EXPECT_EQ(loop.startReferenceNs(), r.clock.now);
  EXPECT_EQ(loop.currentTick(), 0u);
  EXPECT_EQ(loop.stats().frames, 1u);
  // beginFrame ran although no tick did (docs/game_loop.md#frames-and-beginframe).
  EXPECT_EQ(r.world.guardrailStats().frameChurn, 0u);
}

TEST(GameLoop, KatTenSecondsAt60HzIsExactly600Ticks) {
  Rig r;
  GameLoop loop = r.loop();
  ASSERT_TRUE(loop.frame().ok());
  const std::int64_t start = r.clock.now;
  for (int ms = 1; ms <= 10'000; ++ms) {  // a 1 kHz frame clock for 10 s
    r.clock.now = start + std::int64_t{ms} * 1'000'000;
    ASSERT_TRUE(loop.frame().ok());
  }
  EXPECT_EQ(loop.currentTick(), 600u);
  EXPECT_EQ(r.counts.runs, 600u);
  EXPECT_EQ(loop.stats().droppedTicks, 0u);
  EXPECT_EQ(loop.stats().frames, 10'001u);
  EXPECT_EQ(r.hook.calls, 600u);
  EXPECT_EQ(r.hook.lastTick, 600u);
  EXPECT_EQ(r.hook.world, &r.world);
}

TEST(GameLoop, KatOneTickPerFrameAtTheBenchClockStep) {
  Rig r;
  GameLoop loop = r.loop();
  ASSERT_TRUE(loop.frame().ok());
  for (int i = 0; i < 600; ++i) {
    r.clock.now += kTick60;
    ASSERT_TRUE(loop.frame().ok());
    ASSERT_EQ(loop.currentTick(), static_cast<std::uint64_t>(i + 1));
  }
  EXPECT_EQ(loop.stats().droppedTicks, 0u);
}

TEST(GameLoop, Kat300FramesOf2TicksAre600TicksNoDropsNoAllocations) {
  Rig r;
  GameLoop loop = r.loop();
  // The no-allocation guard is armed (debug builds); disarmed however the test ends.
  const test::ArmedAllocationCounter armed;
  ASSERT_TRUE(loop.frame().ok());
  test::AllocationWindow window;
  for (int i = 0; i < 300; ++i) {
    r.clock.now += 2 * kTick60;
    ASSERT_TRUE(loop.frame().ok());
    // beginFrame once per frame, before its ticks: both ticks saw one frame.
    ASSERT_EQ(r.counts.churnSeen, 2u);
  }
  const std::uint64_t allocations = window.allocations();
  EXPECT_EQ(loop.currentTick(), 600u);
  EXPECT_EQ(loop.stats().droppedTicks, 0u);
  EXPECT_EQ(loop.stats().droppedFrames, 0u);
  EXPECT_EQ(loop.stats().frames, 301u);
  EXPECT_EQ(allocations, 0u);
}

TEST(GameLoop, CatchUpCapDropsTheExcessAndWarns) {
  test::LogCapture logs;
  Rig r;
  GameLoop loop = r.loop(60, 5);
  ASSERT_TRUE(loop.frame().ok());
  r.clock.now += 1'000'000'000;  // a 1 s stall: 60 ticks due
  ASSERT_TRUE(loop.frame().ok());
  EXPECT_EQ(loop.currentTick(), 5u);
  EXPECT_EQ(loop.stats().droppedTicks, 55u);
  EXPECT_EQ(loop.stats().droppedFrames, 1u);
  ASSERT_EQ(logs.count("loop", "tick_dropped"), 1u);
  const auto& e = logs.sink->records().back();
  EXPECT_EQ(e.severity, log::Severity::Warn);
  EXPECT_EQ(e.fieldValue("dropped"), "55");
  EXPECT_EQ(e.fieldValue("total_dropped"), "55");
  EXPECT_EQ(e.fieldValue("max_catch_up"), "5");
  EXPECT_EQ(e.fieldValue("tick_rate_hz"), "60");
  // Dropped ticks are consumed, not deferred: one more tick's time, one tick.
  r.clock.now += kTick60;
  ASSERT_TRUE(loop.frame().ok());
  EXPECT_EQ(loop.currentTick(), 6u);
  EXPECT_EQ(loop.stats().droppedTicks, 55u);
  // A second stall within the rate-limit window is counted, not logged.
  r.clock.now += 500'000'000;
  ASSERT_TRUE(loop.frame().ok());
  EXPECT_EQ(loop.stats().droppedTicks, 55u + 25u);
  EXPECT_EQ(loop.stats().droppedFrames, 2u);
  EXPECT_EQ(logs.count("loop", "tick_dropped"), 1u);
}

TEST(GameLoop, ExactlyTheCapIsNotADrop) {
  Rig r;
  GameLoop loop = r.loop(60, 2);
  ASSERT_TRUE(loop.frameAt(0).ok());
  ASSERT_TRUE(loop.frameAt(2 * kTick60).ok());
  EXPECT_EQ(loop.currentTick(), 2u);
  EXPECT_EQ(loop.stats().droppedTicks, 0u);
}

TEST(GameLoop, TickCountIsAPureFunctionOfTheReadings) {
  // 120 Hz, frames at irregular times: ticks = floor(elapsed * 120 / 1e9).
  Rig r;
  GameLoop loop = r.loop(120, 1000);
  ASSERT_TRUE(loop.frameAt(-3'000'000'000).ok());  // negative clocks are fine
  const std::int64_t times[] = {1, 8'333'333, 8'333'334, 99'999'999, 1'000'000'000, 1'234'567'891};
  const std::uint64_t expect[] = {0, 0, 1, 11, 120, 148};
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(loop.frameAt(-3'000'000'000 + times[i]).ok());
    EXPECT_EQ(loop.currentTick(), expect[i]) << "frame " << i;
  }
}

TEST(GameLoop, HugeElapsedTimesDoNotOverflow) {
  test::LogCapture logs;
  Rig r;
  GameLoop loop = r.loop(120, 3);
  ASSERT_TRUE(loop.frameAt(std::numeric_limits<std::int64_t>::min()).ok());
  ASSERT_TRUE(loop.frameAt(std::numeric_limits<std::int64_t>::max()).ok());
  EXPECT_EQ(loop.currentTick(), 3u);
  // floor((2^64 - 1) * 120 / 1e9) due ticks, minus the 3 run.
  EXPECT_EQ(loop.stats().droppedTicks, 2'213'609'288'845ULL - 3u);
}

TEST(GameLoop, StepRunsExactlyNTicksAsOneFrameWithoutTheClock) {
  Rig r;
  GameLoop loop = r.loop();
  ASSERT_TRUE(loop.step(7).ok());
  EXPECT_EQ(loop.currentTick(), 7u);
  EXPECT_EQ(r.counts.churnSeen, 7u);  // one beginFrame for all seven
  EXPECT_EQ(loop.stats().frames, 1u);
  ASSERT_TRUE(loop.step(0).ok());
  EXPECT_EQ(r.world.guardrailStats().frameChurn, 0u);
  // The clock accounting is separate: the first frame still runs no tick
  // and the next one runs what the clock says is due.
  ASSERT_TRUE(loop.frame().ok());
  EXPECT_EQ(loop.currentTick(), 7u);
  r.clock.now += kTick60;
  ASSERT_TRUE(loop.frame().ok());
  EXPECT_EQ(loop.currentTick(), 8u);
  EXPECT_EQ(r.hook.lastTick, 8u);
}

TEST(GameLoop, AFailedTickIsNotCountedAndLaterFramesFailTheSameWay) {
  test::LogCapture logs;
  Rig r;
  GameLoop loop = r.loop();
  ASSERT_TRUE(loop.frame().ok());
  SystemDef d;
  d.name = "Late";
  d.run = &counting;
  d.budgetMs = fpx16_16::one();
  d.userData = &r.counts;
  ASSERT_TRUE(r.world.registerSystem(d).ok());  // the loop's schedule is now stale
  r.clock.now += kTick60;
  EXPECT_EQ(loop.frame(), Status(ErrorCode::InvalidArgument));
  EXPECT_EQ(loop.currentTick(), 0u);
  EXPECT_EQ(r.hook.calls, 0u);
  EXPECT_EQ(r.counts.runs, 0u);
  EXPECT_EQ(logs.count("system", "schedule_stale"), 1u);
  r.clock.now += kTick60;
  EXPECT_EQ(loop.frame(), Status(ErrorCode::InvalidArgument));
  EXPECT_EQ(loop.step(1), Status(ErrorCode::InvalidArgument));
  EXPECT_EQ(loop.currentTick(), 0u);
  // Rescheduling in place repairs the loop; the owed ticks are still due.
  ASSERT_TRUE(r.world.scheduleSystems(r.schedule).ok());
  ASSERT_TRUE(loop.frame().ok());
  EXPECT_EQ(loop.currentTick(), 2u);
}

TEST(GameLoop, MovedFromLoopIsStopped) {
  test::LogCapture logs;
  Rig r;
  GameLoop a = r.loop();
  ASSERT_TRUE(a.frame().ok());
  GameLoop b = std::move(a);
  EXPECT_FALSE(a.isRunning());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(a.frame(), Status(ErrorCode::InvalidArgument));
  EXPECT_EQ(a.frameAt(0), Status(ErrorCode::InvalidArgument));
  EXPECT_EQ(a.step(1), Status(ErrorCode::InvalidArgument));
  EXPECT_EQ(a.tickRateHz(), 0u);
  EXPECT_EQ(a.stats().frames, 0u);
  EXPECT_TRUE(logs.sink->records().empty());
  r.clock.now += kTick60;
  ASSERT_TRUE(b.frame().ok());
  EXPECT_EQ(b.currentTick(), 1u);
  EXPECT_EQ(b.stats().frames, 2u);
  GameLoop c;
  EXPECT_FALSE(c.isRunning());
  c = std::move(b);
  EXPECT_TRUE(c.isRunning());
  EXPECT_FALSE(b.isRunning());  // NOLINT(bugprone-use-after-move)
}

TEST(GameLoop, DefaultClockIsSteadyClock) {
  Rig r;
  GameLoop::Options o;  // nowNs = nullptr
  GameLoop loop = GameLoop::create(r.world, r.schedule, o).takeValue();
  ASSERT_TRUE(loop.frame().ok());
  EXPECT_NE(loop.startReferenceNs(), 0);
  ASSERT_TRUE(loop.frame().ok());
  EXPECT_LE(loop.currentTick(), 5u);
}

TEST(GameLoop, ClockBeforeTheStartIsMisuse) {
  Rig r;
  GameLoop loop = r.loop();
  ASSERT_TRUE(loop.frameAt(1'000'000'000).ok());
#if LAIGE_DEBUG_ASSERTS
  EXPECT_DEATH((void)loop.frameAt(0), "earlier than the first frame");
#else
  ASSERT_TRUE(loop.frameAt(0).ok());  // clamped: no time, no tick
  EXPECT_EQ(loop.currentTick(), 0u);
  EXPECT_EQ(loop.stats().frames, 2u);
#endif
}

#if LAIGE_DEBUG_ASSERTS
// No allocation in a tick: in debug builds a tick that allocates is reported and asserts.
int* volatile gLeakSink = nullptr;
void allocating(World&, SystemContext&) {
  gLeakSink = new int(1);
  delete gLeakSink;
}
Status allocatingHook(void*, World&, std::uint64_t) noexcept {
  gLeakSink = new int(2);
  delete gLeakSink;
  return Status{};
}
Status allocatingInput(void*, std::uint64_t, TickInput&) noexcept {
  gLeakSink = new int(3);
  delete gLeakSink;
  return Status{};
}

// Routes the log to stderr inside the death-test child, so the event text
// is part of what EXPECT_DEATH matches.
void logToStderr() {
  log::LoggerOptions o;
  o.sink = std::make_shared<log::ConsoleSink>(stderr);
  log::Logger::instance().init(o);
}

TEST(GameLoopDeathTest, AnAllocatingSystemTripsTheGuard) {
  World w = World::create(4).takeValue();
  SystemSchedule s;
  ASSERT_TRUE(scheduleOneSystem(w, s, "Alloc", &allocating));
  GameLoop loop = GameLoop::create(w, s, GameLoop::Options{}).takeValue();
  EXPECT_DEATH(
      {
        logToStderr();
        setAllocationCounter(&test::allocationCount);
        (void)loop.step(1);
      },
      "alloc/sim_tick_allocation.*tick=1.*allocs=1.*site=run_systems");
}

// A loop over an empty schedule with `hooks`; its first tick must die in the
// allocation guard with `site`.
void expectHookTripsTheGuard(const GameLoop::Options& hooks, const char* site) {
  World w = World::create(4).takeValue();
  SystemSchedule s;
  ASSERT_TRUE(w.scheduleSystems(s).ok());
  GameLoop loop = GameLoop::create(w, s, hooks).takeValue();
  EXPECT_DEATH(
      {
        logToStderr();
        setAllocationCounter(&test::allocationCount);
        (void)loop.step(1);
      },
      site);
}

TEST(GameLoopDeathTest, AnAllocatingHookTripsTheGuard) {
  GameLoop::Options o;
  o.onTick = &allocatingHook;
  expectHookTripsTheGuard(o, "site=on_tick");
}

TEST(GameLoopDeathTest, AnAllocatingInputProviderTripsTheGuard) {
  GameLoop::Options o;
  o.tickInput = &allocatingInput;
  expectHookTripsTheGuard(o, "site=tick_input");
}

TEST(GameLoopDeathTest, WithoutACounterThereIsNoCheck) {
  World w = World::create(4).takeValue();
  SystemSchedule s;
  ASSERT_TRUE(scheduleOneSystem(w, s, "Alloc", &allocating));
  GameLoop loop = GameLoop::create(w, s, GameLoop::Options{}).takeValue();
  setAllocationCounter(nullptr);
  EXPECT_TRUE(loop.step(3).ok());
  EXPECT_EQ(allocationCounter(), nullptr);
}
#endif

}  // namespace
}  // namespace laige
