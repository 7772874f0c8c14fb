// stress_bench.cpp - the reference sim tick of docs/scenarios.md and the
// state hash's throughput (docs/determinism.md#speed).
//
//   BM_StressTick      the `stress` scenario's tick: beginFrame + runSystems
//                      (BenchMove over 2,000 dynamic entities, then BenchHash:
//                      World::stateHash over all 10,000), one tick per
//                      iteration after 1,000 warm-up ticks, 3,000 measured;
//                      counters mean_ms, p50_ms, p99_ms, max_ms.
//   BM_StressMoveOnly  the same tick without the hash (BenchMove alone), to
//                      split the figure.
//   BM_StateHash       World::stateHash on the stress world at tick 1,000,
//                      3,000 calls; counters mean_us, min_us, bytes (the
//                      canonical stream's length) and bytes_per_ns (at the
//                      mean).
//   BM_ComponentStateHash, BM_StateDiffIdentical  the replay diff's tools on
//                      the same world.
// Run: build/native-release/stress_bench. Benchmarks print; they assert
// nothing. Target: mean <= 0.06 ms native.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "laige/logging.h"
#include "laige/state_hash.h"
#include "laige/system.h"
#include "laige/world.h"
#include "scenario.h"

namespace {

using namespace laige;

constexpr int kWarmupTicks = 1000;
constexpr int kMeasuredTicks = 3000;

ScenarioRun makeStress() {
  ScenarioRun run = ScenarioRun::create(*findScenario("stress"), findScenario("stress")->defaultSeed).takeValue();
  for (int i = 0; i < kWarmupTicks; ++i) (void)run.step();
  return run;
}

// The canonical stream's length in bytes (state_hash.h): the words, the
// live handles, the archetype headers and rows, the system words.
std::uint64_t streamBytes(World& w) {
  std::uint64_t words = 2 + w.entityCount() + 5ull * w.systemCount();
  std::uint64_t bytes = 0;
  for (std::uint32_t a = 1; a <= w.archetypeCount(); ++a) {
    const auto id = static_cast<ArchetypeId>(a);
    const std::uint32_t rows = w.archetypeRowCount(id);
    if (rows == 0) continue;
    words += w.archetypeComponents(id).size() + 1;
    for (const ComponentTypeId c : w.archetypeComponents(id)) bytes += std::uint64_t{rows} * w.componentInfo(c).value().size;
  }
  return words * 8 + bytes;
}

void reportTicks(benchmark::State& state, std::vector<double>& ms) {
  std::sort(ms.begin(), ms.end());
  double sum = 0;
  for (const double v : ms) sum += v;
  const auto at = [&](double q) { return ms[static_cast<std::size_t>(q * static_cast<double>(ms.size() - 1))]; };
  state.counters["mean_ms"] = sum / static_cast<double>(ms.size());
  state.counters["p50_ms"] = at(0.50);
  state.counters["p99_ms"] = at(0.99);
  state.counters["max_ms"] = ms.back();
}

void BM_StressTick(benchmark::State& state) {
  ScenarioRun run = makeStress();
  std::vector<double> ms;
  ms.reserve(kMeasuredTicks);
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(run.step());
    const auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  reportTicks(state, ms);
}
BENCHMARK(BM_StressTick)->Iterations(kMeasuredTicks)->Unit(benchmark::kMicrosecond);

void BM_StressMoveOnly(benchmark::State& state) {
  ScenarioRun run = makeStress();
  // BenchMove alone: a schedule holding only system 1 would be stale (the
  // world has two systems), so run its body through the same world.
  const SystemInfo move = run.world().system(SystemId{1}).value();
  std::vector<double> ms;
  ms.reserve(kMeasuredTicks);
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    run.world().beginFrame();
    SystemContext ctx{run.world(), nullptr, 0, nullptr, 0, SystemId{1}, nullptr, run.world().commands()};
    move.def.run(run.world(), ctx);
    const auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  reportTicks(state, ms);
}
BENCHMARK(BM_StressMoveOnly)->Iterations(kMeasuredTicks)->Unit(benchmark::kMicrosecond);

// Times `fn` per call (3,000 calls) and reports mean_us / min_us; the rate
// counters of Google Benchmark would label bytes per ns as "/s".
template <class Fn>
void timeCalls(benchmark::State& state, Fn&& fn, double bytes) {
  std::vector<double> us;
  us.reserve(kMeasuredTicks);
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(fn());
    const auto t1 = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  double sum = 0;
  for (const double v : us) sum += v;
  const double mean = sum / static_cast<double>(us.size());
  state.counters["mean_us"] = mean;
  state.counters["min_us"] = *std::min_element(us.begin(), us.end());
  if (bytes > 0) {
    state.counters["bytes"] = bytes;
    state.counters["bytes_per_ns"] = bytes / (mean * 1000.0);
  }
}

void BM_StateHash(benchmark::State& state) {
  ScenarioRun run = makeStress();
  const auto bytes = static_cast<double>(streamBytes(run.world()));
  timeCalls(state, [&] { return run.world().stateHash(run.tick()); }, bytes);
}
BENCHMARK(BM_StateHash)->Iterations(kMeasuredTicks)->Unit(benchmark::kMicrosecond);

void BM_ComponentStateHash(benchmark::State& state) {
  ScenarioRun run = makeStress();
  timeCalls(state, [&] { return run.world().componentStateHash(run.tick()); }, 0);
}
BENCHMARK(BM_ComponentStateHash)->Iterations(kMeasuredTicks)->Unit(benchmark::kMicrosecond);

void BM_StateDiffIdentical(benchmark::State& state) {
  ScenarioRun a = makeStress();
  ScenarioRun b = makeStress();
  timeCalls(state, [&] { return a.world().stateDiff(b.world(), 16, [](const StateDiffItem&) {}); }, 0);
}
BENCHMARK(BM_StateDiffIdentical)->Iterations(kMeasuredTicks)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  // Scenario setup crosses the churn budget on purpose (bulk spawn); keep Info quiet.
  log::Logger::instance().setGlobalMinimum(log::Level::Error);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
