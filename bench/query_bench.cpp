// query_bench.cpp - the query-era workloads (bench/query_workloads.h) at
// N = 10,000 and 65,000 where N applies, through Google Benchmark. The
// "per_entity" counter is the time per entity (per visited row for the
// iteration rows). The peer comparison (EnTT, flecs) is in
// docs/query.md#cost; this program prints, it asserts nothing.
// Run: build/native-release/query_bench --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <vector>

#include "laige/logging.h"
#include "query_workloads.h"

namespace bench {

void perEntity(benchmark::State& state, std::uint32_t n) {
  state.counters["per_entity"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                     benchmark::Counter::kInvert);
}

void BM_FragQuery(benchmark::State& state) {
  laige::World w = makeFragWorld();
  FragQuery q(w);
  for (auto _ : state) {
    fragPass(w, q);
    benchmark::ClobberMemory();
  }
  perEntity(state, kFragArchetypes * kFragRows);
}

void BM_FragWorldEach(benchmark::State& state) {
  laige::World w = makeFragWorld();
  for (auto _ : state) {
    fragPassEach(w);
    benchmark::ClobberMemory();
  }
  perEntity(state, kFragArchetypes * kFragRows);
}

void BM_QueryEach(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  laige::World w = makeQueryWorld(n);
  populateMovers(w, n);
  MoveQuery q(w);
  for (auto _ : state) {
    movePass(w, q);
    benchmark::ClobberMemory();
  }
  perEntity(state, n);
}

// One call over one matched archetype of one entity: the fixed cost.
void BM_QueryCallFixed(benchmark::State& state) {
  laige::World w = makeQueryWorld(16);
  populateMovers(w, 1);
  MoveQuery q(w);
  for (auto _ : state) {
    movePass(w, q);
    benchmark::ClobberMemory();
  }
}

void BM_AddRemove(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  laige::World w = makeQueryWorld(n);
  populateMovers(w, n);
  std::vector<laige::Entity> es;
  for (std::uint32_t i = 0; i < n; ++i) es.push_back(w.handleAt(static_cast<std::uint16_t>(i)));
  for (auto _ : state) addRemovePass(w, es.data(), n);
  perEntity(state, n);
}

void BM_CreateAdd2(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  laige::World w = makeQueryWorld(n);
  createAdd2Pass(w, n);  // reserve the columns once
  for (auto _ : state) {
    state.PauseTiming();
    (void)w.clear();
    state.ResumeTiming();
    createAdd2Pass(w, n);
  }
  perEntity(state, n);
}

BENCHMARK(BM_FragQuery)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FragWorldEach)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_QueryCallFixed)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_QueryEach)->Arg(10000)->Arg(65000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AddRemove)->Arg(10000)->Arg(65000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CreateAdd2)->Arg(10000)->Arg(65000)->Unit(benchmark::kMicrosecond);

}  // namespace bench

int main(int argc, char** argv) {
  laige::log::Logger::instance().setGlobalMinimum(laige::log::Level::Error);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
