// game_loop_hooks_test.cpp - the game loop's hooks (docs/game_loop.md): the
// tickInput provider called once per tick with its payload reaching the
// systems, onTick in order, a failing provider or observer ending the
// frame, and hooks that allocate nothing.
#include "laige/game_loop.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "laige/alloc_watch.h"
#include "laige/system.h"
#include "laige/world.h"
#include "support/counting_allocator.h"
#include "support/game_loop_rig.h"

namespace laige {
namespace {

using test::Clock;
using test::kTick60;
using test::scheduleOneSystem;

// The hooks: a provider that hands every tick a 4-byte payload naming it,
// a system that records what it saw, an observer that records the order.
struct Hooks {
  static constexpr int kMax = 64;
  std::uint8_t payload[4] = {};
  std::uint64_t inputTicks[kMax] = {};  // the provider's tick argument, per call
  int inputCalls = 0;
  std::uint64_t seenTicks[kMax] = {};  // the system's ctx.tick, per run
  std::uint32_t seenPayload[kMax] = {};  // the system's ctx.input as a LE u32 (0 = none)
  int seenRuns = 0;
  std::uint64_t observed[kMax] = {};  // onTick's tick argument, per call
  int observedCalls = 0;
  std::uint64_t failInputAt = 0;  // the provider fails for this tick (0 = never)
  std::uint64_t failObserverAt = 0;  // onTick fails after this tick (0 = never)
};

Status provide(void* ctx, std::uint64_t tick, TickInput& input) noexcept {
  Hooks& h = *static_cast<Hooks*>(ctx);
  if (h.inputCalls < Hooks::kMax) h.inputTicks[h.inputCalls] = tick;
  ++h.inputCalls;
  if (tick == h.failInputAt) return ErrorCode::Unknown;
  const std::uint32_t v = 0xA0000000u | static_cast<std::uint32_t>(tick);
  for (int i = 0; i < 4; ++i) h.payload[i] = static_cast<std::uint8_t>(v >> (8 * i));
  input.data = h.payload;
  input.size = 4;
  return Status{};
}

Status observe(void* ctx, World&, std::uint64_t tick) noexcept {
  Hooks& h = *static_cast<Hooks*>(ctx);
  if (h.observedCalls < Hooks::kMax) h.observed[h.observedCalls] = tick;
  ++h.observedCalls;
  return tick == h.failObserverAt ? Status(ErrorCode::Unknown) : Status{};
}

void recordInput(World&, SystemContext& ctx) {
  Hooks& h = *static_cast<Hooks*>(ctx.userData);
  if (h.seenRuns < Hooks::kMax) {
    h.seenTicks[h.seenRuns] = ctx.tick;
    std::uint32_t v = 0;
    for (std::uint32_t i = 0; i < ctx.inputSize && i < 4; ++i) v |= std::uint32_t{ctx.input[i]} << (8 * i);
    h.seenPayload[h.seenRuns] = ctx.input == nullptr ? 0 : v;
  }
  ++h.seenRuns;
}

struct HookRig {
  World world = World::create(8).takeValue();
  SystemSchedule schedule;
  Clock clock;
  Hooks hooks;
  HookRig() { EXPECT_TRUE(scheduleOneSystem(world, schedule, "Record", &recordInput, &hooks)); }
  GameLoop loop(bool input, bool observer, std::uint32_t cap = 3) {
    GameLoop::Options o;
    o.maxCatchUpTicks = cap;
    o.nowNs = &Clock::read;
    o.clockContext = &clock;
    if (input) {
      o.tickInput = &provide;
      o.tickInputContext = &hooks;
    }
    if (observer) {
      o.onTick = &observe;
      o.onTickContext = &hooks;
    }
    return GameLoop::create(world, schedule, o).takeValue();
  }
  // Frames of 0, 1, 3, 5 (3 run, 2 dropped) ticks, then step(2): 9 ticks.
  void drive(GameLoop& loop) {
    ASSERT_TRUE(loop.frame().ok());
    for (std::int64_t due : {0, 1, 3, 5}) {
      clock.now += due * kTick60;
      ASSERT_TRUE(loop.frame().ok());
    }
    ASSERT_TRUE(loop.step(2).ok());
    ASSERT_EQ(loop.currentTick(), 9u);
    ASSERT_EQ(loop.stats().droppedTicks, 2u);
  }
};

TEST(GameLoop, TickInputIsCalledOncePerTickAndReachesTheSystems) {
  HookRig r;
  GameLoop loop = r.loop(true, false);
  r.drive(loop);
  ASSERT_EQ(r.hooks.inputCalls, 9);
  ASSERT_EQ(r.hooks.seenRuns, 9);
  for (int i = 0; i < 9; ++i) {
    const auto tick = static_cast<std::uint64_t>(i + 1);
    EXPECT_EQ(r.hooks.inputTicks[i], tick) << i;
    EXPECT_EQ(r.hooks.seenTicks[i], tick) << i;  // ctx.tick of the same tick
    EXPECT_EQ(r.hooks.seenPayload[i], 0xA0000000u | tick) << i;  // its payload, as provided
  }
}

TEST(GameLoop, OnTickSeesEveryTickInOrder) {
  HookRig r;
  GameLoop loop = r.loop(true, true);
  r.drive(loop);
  ASSERT_EQ(r.hooks.observedCalls, 9);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(r.hooks.observed[i], static_cast<std::uint64_t>(i + 1)) << i;
}

TEST(GameLoop, WithoutHooksEveryTickRunsWithoutInput) {
  HookRig r;
  GameLoop loop = r.loop(false, false);
  r.drive(loop);
  EXPECT_EQ(r.hooks.inputCalls, 0);
  EXPECT_EQ(r.hooks.observedCalls, 0);
  ASSERT_EQ(r.hooks.seenRuns, 9);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(r.hooks.seenPayload[i], 0u) << i;
}

TEST(GameLoop, AFailingProviderSkipsTheTickAndEndsTheFrame) {
  HookRig r;
  GameLoop loop = r.loop(true, true, 5);
  r.hooks.failInputAt = 3;
  ASSERT_TRUE(loop.frame().ok());
  r.clock.now += 5 * kTick60;
  EXPECT_EQ(loop.frame(), Status(ErrorCode::Unknown));
  EXPECT_EQ(loop.currentTick(), 2u);  // ticks 1, 2; tick 3 was not run
  EXPECT_EQ(r.hooks.seenRuns, 2);
  EXPECT_EQ(r.hooks.observedCalls, 2);
  // The loop stays usable; the skipped ticks stay due.
  r.hooks.failInputAt = 0;
  ASSERT_TRUE(loop.frame().ok());
  EXPECT_EQ(loop.currentTick(), 5u);
  EXPECT_EQ(r.hooks.inputTicks[2], 3u);  // the failed call
  EXPECT_EQ(r.hooks.inputTicks[3], 3u);  // tick 3 asked for again
  EXPECT_EQ(r.hooks.seenPayload[2], 0xA0000003u);
  EXPECT_EQ(loop.stats().droppedTicks, 0u);
}

TEST(GameLoop, AFailingObserverEndsTheFrameAfterItsTick) {
  HookRig r;
  GameLoop loop = r.loop(true, true, 5);
  r.hooks.failObserverAt = 2;
  ASSERT_TRUE(loop.frame().ok());
  r.clock.now += 4 * kTick60;
  EXPECT_EQ(loop.frame(), Status(ErrorCode::Unknown));
  EXPECT_EQ(loop.currentTick(), 2u);  // tick 2 completed and counts
  EXPECT_EQ(r.hooks.inputCalls, 2);
  // Ticks 3 and 4 stay due: the next frame at the same time runs exactly them.
  ASSERT_TRUE(loop.frame().ok());
  EXPECT_EQ(loop.currentTick(), 4u);
  ASSERT_EQ(r.hooks.observedCalls, 4);
  EXPECT_EQ(r.hooks.observed[3], 4u);
  // step() ends the same way.
  r.hooks.failObserverAt = 5;
  EXPECT_EQ(loop.step(3), Status(ErrorCode::Unknown));
  EXPECT_EQ(loop.currentTick(), 5u);
}

TEST(GameLoop, HooksAllocateNothing) {
  HookRig r;
  GameLoop loop = r.loop(true, true, 5);
  const test::ArmedAllocationCounter armed;
  ASSERT_TRUE(loop.frame().ok());
  test::AllocationWindow window;
  for (int i = 0; i < 300; ++i) {
    r.clock.now += (i % 3 + 1) * kTick60;
    ASSERT_TRUE(loop.frame().ok());
  }
  EXPECT_EQ(window.allocations(), 0u);
  EXPECT_EQ(loop.currentTick(), 600u);
  EXPECT_EQ(r.hooks.inputCalls, 600);
  EXPECT_EQ(r.hooks.observedCalls, 600);
}

}  // namespace
}  // namespace laige
