// systems_bench.cpp - the per-system dispatch + timing overhead of
// World::runSystems (target: "a few hundred nanoseconds" per system per
// tick at most), measured with 256 empty systems so that everything timed is
// overhead: the schedule walk, the SystemContext, the two clock reads, the
// histogram write and the budget comparison.
//
//   build/native-release/systems_bench
//
// The `ns_per_system` counter is the figure docs/system_timing.md records.
// Benchmarks print numbers; they assert nothing.
#include <benchmark/benchmark.h>

#include <cstdio>

#include "laige/game_loop.h"
#include "laige/system.h"
#include "laige/world.h"

namespace {

using namespace laige;

void emptySystem(World&, SystemContext&) {}

std::int64_t zeroClock(void*) noexcept { return 0; }

// A world with `n` empty systems (1 ms budgets: never breached) and its schedule.
struct Bench {
  World world = World::create(16).takeValue();
  SystemSchedule schedule;
  char names[kMaxSystems][8] = {};

  explicit Bench(std::uint32_t n) {
    for (std::uint32_t i = 0; i < n; ++i) {
      std::snprintf(names[i], sizeof names[i], "S%u", i);
      SystemDef d;
      d.name = names[i];
      d.run = &emptySystem;
      d.budgetMs = fpx16_16::one();
      (void)world.registerSystem(d);
    }
    (void)world.scheduleSystems(schedule);
  }
};

void perSystemCounter(benchmark::State& state, std::uint32_t systems) {
  state.counters["ns_per_system"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * systems,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// The real thing: steady_clock timing around every run.
void BM_RunSystems_SteadyClock(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  Bench b(n);
  for (auto _ : state) benchmark::DoNotOptimize(b.world.runSystems(b.schedule));
  perSystemCounter(state, n);
}
BENCHMARK(BM_RunSystems_SteadyClock)->Arg(1)->Arg(16)->Arg(256);

// The same with a constant clock: the dispatch and bookkeeping alone, so
// the difference to the row above is the cost of the two clock reads.
void BM_RunSystems_ConstantClock(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  Bench b(n);
  b.world.setTimingClock(&zeroClock);
  for (auto _ : state) benchmark::DoNotOptimize(b.world.runSystems(b.schedule));
  perSystemCounter(state, n);
}
BENCHMARK(BM_RunSystems_ConstantClock)->Arg(256);

// Through the game loop: beginFrame + one tick per step.
void BM_GameLoopStep_256Systems(benchmark::State& state) {
  Bench b(256);
  GameLoop loop = GameLoop::create(b.world, b.schedule, GameLoop::Options{}).takeValue();
  for (auto _ : state) benchmark::DoNotOptimize(loop.step(1));
  perSystemCounter(state, 256);
}
BENCHMARK(BM_GameLoopStep_256Systems);

// The clock read alone, for reference.
void BM_SteadyClockRead(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(steadyClockNs(nullptr));
}
BENCHMARK(BM_SteadyClockRead);

}  // namespace

BENCHMARK_MAIN();
