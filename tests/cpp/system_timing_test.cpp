// system_timing_test.cpp - per-system timing (docs/system_timing.md): the measured window, the rolling
// histogram, budget_overrun / budget_critical with every field, the rate
// limit and the counters, and the timing queries. The clock is injected, so
// every measurement is exact and nothing sleeps.
#include "laige/system_timing.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "laige/system.h"
#include "laige/world.h"
#include "support/counting_allocator.h"
#include "support/log_capture.h"

namespace laige {
namespace {

// A synthetic nanosecond clock; each system "takes" its configured ns by
// advancing it, and every read is counted.
struct FakeClock {
  std::int64_t now = 1'000'000'000;
  std::uint64_t reads = 0;
  static std::int64_t read(void* ctx) noexcept {
    auto* c = static_cast<FakeClock*>(ctx);
    ++c->reads;
    return c->now;
  }
};

struct Work {
  FakeClock* clock = nullptr;
  std::int64_t ns = 0;
  std::uint64_t runs = 0;
};

void working(World&, SystemContext& ctx) {
  Work& w = *static_cast<Work*>(ctx.userData);
  w.clock->now += w.ns;
  ++w.runs;
}

struct Rig {
  World world = World::create(8).takeValue();
  FakeClock clock;
  Work work[4];
  SystemSchedule schedule;

  Rig() { world.setTimingClock(&FakeClock::read, &clock); }
  // Registers a system with a budget in ms whose runs take `ns` each.
  SystemId add(const char* name, double budgetMs, std::int64_t ns) {
    const std::uint32_t i = world.systemCount();
    work[i] = Work{&clock, ns, 0};
    SystemDef d;
    d.name = name;
    d.run = &working;
    d.budgetMs = fpx16_16::fromDouble(budgetMs);
    d.userData = &work[i];
    const SystemId id = world.registerSystem(d).value();
    EXPECT_TRUE(world.scheduleSystems(schedule).ok());
    return id;
  }
  void tick() { ASSERT_TRUE(world.runSystems(schedule).ok()); }
};

const log::CaptureSink::Captured* find(const test::LogCapture& logs, const char* event, std::size_t nth = 0) {
  for (const auto& r : logs.sink->records()) {
    if (r.subsystem == "system" && r.event == event && nth-- == 0) return &r;
  }
  return nullptr;
}

TEST(SystemTiming, Constants) {
  EXPECT_EQ(kSystemTimingWindowSamples, 64u);
  EXPECT_EQ(kBudgetCriticalMultiplier, 3u);
  const SystemTimingStats st;
  EXPECT_EQ(st.runs, 0u);
  EXPECT_EQ(st.lastMs, 0.0);
}

TEST(SystemTiming, MeasuresTheRunFunctionOnlyWithTwoClockReads) {
  Rig r;
  const SystemId a = r.add("A", 1.0, 250'000);
  r.add("B", 1.0, 0);
  r.clock.reads = 0;
  r.tick();
  r.tick();
  EXPECT_EQ(r.clock.reads, 2u * 2u * 2u);  // two reads per system per tick
  const SystemTimingStats st = r.world.systemTimingStats(a).value();
  EXPECT_EQ(st.runs, 2u);
  EXPECT_EQ(st.lastMs, 0.25);
  EXPECT_EQ(st.warns, 0u);
  EXPECT_EQ(st.errors, 0u);
  // A zero-length run is a legitimate 0.0 sample, recorded like any other.
  const SystemTimingStats b = r.world.systemTimingStats(SystemId{2}).value();
  EXPECT_EQ(b.lastMs, 0.0);
  EXPECT_EQ(r.world.systemTimingWindow(SystemId{2})->size(), 2u);
}

TEST(SystemTiming, WindowRollsOver64TicksAndCountsEverySample) {
  Rig r;
  const SystemId a = r.add("A", 10.0, 0);
  for (int i = 1; i <= 100; ++i) {
    r.work[0].ns = i * 1000;  // run i takes i us
    r.tick();
  }
  const Histogram* h = r.world.systemTimingWindow(a);
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->capacity(), kSystemTimingWindowSamples);
  EXPECT_EQ(h->size(), 64u);
  EXPECT_EQ(h->totalRecorded(), 100u);
  EXPECT_EQ(h->sample(0), 0.037);  // runs 37..100 remain
  EXPECT_EQ(h->last(), 0.1);
  EXPECT_EQ(r.world.systemTimingStats(a).value().runs, 100u);
  r.world.beginFrame();  // not a per-frame window
  EXPECT_EQ(h->size(), 64u);
}

TEST(SystemTiming, ExactlyTheBudgetIsLegal) {
  test::LogCapture logs;
  Rig r;
  const SystemId a = r.add("A", 0.5, 500'000);
  r.tick();
  EXPECT_TRUE(logs.sink->records().empty());
  EXPECT_EQ(r.world.systemTimingStats(a).value().warns, 0u);
}

TEST(SystemTiming, OverrunWarnsWithEveryField) {
  test::LogCapture logs;
  Rig r;
  const SystemId a = r.add("Slow", 1.0, 1'000'000);
  r.add("Fine", 1.0, 0);
  for (int i = 0; i < 3; ++i) r.tick();  // three in-budget samples of 1 ms
  r.work[0].ns = 1'500'000;
  r.tick();
  ASSERT_EQ(logs.count("system", "budget_overrun"), 1u);
  EXPECT_EQ(logs.count("system", "budget_critical"), 0u);
  const auto* e = find(logs, "budget_overrun");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->severity, log::Severity::Warn);
  EXPECT_EQ(e->fieldValue("system"), "Slow");
  EXPECT_EQ(e->fieldValue("id"), "1");
  EXPECT_EQ(e->fieldValue("measured_ms"), "1.5");
  EXPECT_EQ(e->fieldValue("budget_ms"), "1");
  EXPECT_EQ(e->fieldValue("p99_ms"), "1.5");  // the window's p99 after this sample
  EXPECT_EQ(e->fieldValue("window_samples"), "4");
  // The 5-field grammar: build-stable text, values only in fields.
  EXPECT_EQ(e->message.rfind("budget_overrun | ", 0), 0u);
  EXPECT_NE(e->message.find(" | docs/system_timing.md#"), std::string::npos);
  const SystemTimingStats st = r.world.systemTimingStats(a).value();
  EXPECT_EQ(st.warns, 1u);
  EXPECT_EQ(st.errors, 0u);
  EXPECT_EQ(st.lastMs, 1.5);
}

TEST(SystemTiming, ThreeTimesOverFiresWarnThenErrorInTheSameTick) {
  test::LogCapture logs;
  Rig r;
  const SystemId a = r.add("Hog", 1.0, 3'000'000);
  r.tick();
  const auto& recs = logs.sink->records();
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].event, "budget_overrun");
  EXPECT_EQ(recs[0].severity, log::Severity::Warn);
  EXPECT_EQ(recs[1].event, "budget_critical");
  EXPECT_EQ(recs[1].severity, log::Severity::Error);
  for (const auto& e : recs) {
    EXPECT_EQ(e.fieldValue("system"), "Hog");
    EXPECT_EQ(e.fieldValue("id"), "1");
    EXPECT_EQ(e.fieldValue("measured_ms"), "3");
    EXPECT_EQ(e.fieldValue("budget_ms"), "1");
    EXPECT_EQ(e.fieldValue("p99_ms"), "3");
    EXPECT_EQ(e.fieldValue("window_samples"), "1");
  }
  EXPECT_EQ(recs[1].message.rfind("budget_critical | ", 0), 0u);
  const SystemTimingStats st = r.world.systemTimingStats(a).value();
  EXPECT_EQ(st.warns, 1u);
  EXPECT_EQ(st.errors, 1u);
}

TEST(SystemTiming, JustUnderThreeTimesIsOnlyAWarn) {
  test::LogCapture logs;
  Rig r;
  const SystemId a = r.add("A", 1.0, 2'999'999);
  r.tick();
  EXPECT_EQ(logs.count("system", "budget_overrun"), 1u);
  EXPECT_EQ(logs.count("system", "budget_critical"), 0u);
  EXPECT_EQ(r.world.systemTimingStats(a).value().errors, 0u);
}

TEST(SystemTiming, AnOverrunningSystemKeepsRunningAndSoDoTheOthers) {
  test::LogCapture logs;
  Rig r;
  r.add("Hog", 0.001, 50'000'000);  // 50 ms against a ~1 us budget
  r.add("Next", 1.0, 0);
  for (int i = 0; i < 5; ++i) r.tick();
  EXPECT_EQ(r.work[0].runs, 5u);
  EXPECT_EQ(r.work[1].runs, 5u);
  EXPECT_EQ(r.world.systemTimingStats(SystemId{1}).value().runs, 5u);
}

TEST(SystemTiming, EventsAreRateLimitedButEveryBreachIsCounted) {
  test::LogCapture logs;
  Rig r;
  const SystemId a = r.add("Hog", 1.0, 4'000'000);
  for (int i = 0; i < 5; ++i) r.tick();
  EXPECT_EQ(logs.count("system", "budget_overrun"), 1u);
  EXPECT_EQ(logs.count("system", "budget_critical"), 1u);
  SystemTimingStats st = r.world.systemTimingStats(a).value();
  EXPECT_EQ(st.warns, 5u);
  EXPECT_EQ(st.errors, 5u);
  logs.advance(1001);  // past the facade's 1 s window
  r.tick();
  EXPECT_EQ(logs.count("system", "budget_overrun"), 2u);
  EXPECT_EQ(logs.count("system", "budget_critical"), 2u);
  EXPECT_EQ(logs.count("system", "rate_limited"), 2u);  // one summary per key
  const auto* summary = find(logs, "rate_limited");
  ASSERT_NE(summary, nullptr);
  EXPECT_EQ(summary->fieldValue("event"), "budget_overrun");
  EXPECT_EQ(summary->fieldValue("suppressed"), "4");
  st = r.world.systemTimingStats(a).value();
  EXPECT_EQ(st.warns, 6u);
  EXPECT_EQ(st.errors, 6u);
}

TEST(SystemTiming, P99FieldDescribesTheRollingWindow) {
  test::LogCapture logs;
  Rig r;
  r.add("A", 1.0, 0);
  for (int i = 0; i < 63; ++i) r.tick();  // 63 samples of 0 ms
  r.work[0].ns = 2'000'000;
  r.tick();  // 64th sample: 2 ms; nearest rank 64 of 64 is the max
  const auto* e = find(logs, "budget_overrun");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->fieldValue("p99_ms"), "2");
  EXPECT_EQ(e->fieldValue("window_samples"), "64");
}

TEST(SystemTiming, BackwardClockReadsAsZero) {
  test::LogCapture logs;
  Rig r;
  const SystemId a = r.add("A", 1.0, -5'000'000);
  r.tick();
  EXPECT_EQ(r.world.systemTimingStats(a).value().lastMs, 0.0);
  EXPECT_TRUE(logs.sink->records().empty());
}

TEST(SystemTiming, QueriesRejectInvalidIdsWithoutALog) {
  test::LogCapture logs;
  Rig r;
  r.add("A", 1.0, 0);
  EXPECT_EQ(r.world.systemTimingStats(SystemId{0}).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(r.world.systemTimingStats(SystemId{2}).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(r.world.systemTimingWindow(SystemId{0}), nullptr);
  EXPECT_EQ(r.world.systemTimingWindow(SystemId{2}), nullptr);
  World moved = std::move(r.world);
  EXPECT_EQ(r.world.systemTimingStats(SystemId{1}).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(r.world.systemTimingWindow(SystemId{1}), nullptr);
  EXPECT_NE(moved.systemTimingWindow(SystemId{1}), nullptr);
  r.world.setTimingClock(&FakeClock::read, &r.clock);  // no-op on a moved-from world
  EXPECT_TRUE(logs.sink->records().empty());
}

TEST(SystemTiming, TimingStateSurvivesClear) {
  Rig r;
  const SystemId a = r.add("A", 1.0, 1000);
  r.tick();
  ASSERT_TRUE(r.world.clear().ok());
  EXPECT_EQ(r.world.systemTimingStats(a).value().runs, 1u);
}

TEST(SystemTiming, TheSteadyClockIsTheDefault) {
  World w = World::create(4).takeValue();
  Work work{nullptr, 0, 0};
  SystemDef d;
  d.name = "Real";
  d.run = [](World&, SystemContext& ctx) { ++static_cast<Work*>(ctx.userData)->runs; };
  d.budgetMs = fpx16_16::fromInt32(1000);
  d.userData = &work;
  const SystemId id = w.registerSystem(d).value();
  SystemSchedule s;
  ASSERT_TRUE(w.scheduleSystems(s).ok());
  FakeClock c;
  w.setTimingClock(&FakeClock::read, &c);
  w.setTimingClock(nullptr, &c);  // back to steady_clock: the fake is never read
  ASSERT_TRUE(w.runSystems(s).ok());
  EXPECT_EQ(c.reads, 0u);
  EXPECT_GE(w.systemTimingStats(id).value().lastMs, 0.0);
  const std::int64_t t0 = steadyClockNs(nullptr);
  EXPECT_GE(steadyClockNs(nullptr), t0);
}

TEST(SystemTiming, TheMeasuredTickAllocatesNothingEvenWhenOverBudget) {
  Rig r;
  r.add("Hog", 1.0, 5'000'000);
  r.add("Fine", 1.0, 10);
  r.tick();  // the first breach registers the rate-limit keys
  test::AllocationWindow window;
  for (int i = 0; i < 100; ++i) r.tick();
  EXPECT_EQ(window.allocations(), 0u);
}

}  // namespace
}  // namespace laige
