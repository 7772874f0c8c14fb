// ecs_bench.cpp - the ECS workloads at N = 10,000 and 65,000 entities
// with Position{float x, y} + Velocity{float x, y}, in ns per entity:
//   each      pos += vel through World::each (Write, Read)
//   create    create() + addComponent<Position> + addComponent<Velocity>
//             (warm: the world was cleared, columns already reserved; cold:
//             a fresh world, growth included)
//   destroy   destroy() of entities that hold both components
//   get       get<Position>(handle) for every handle
//   add+rm    add a component to EVERY entity, then remove it from every
//             entity, in ascending / descending / shuffled slot order; each
//             pass is followed by the ordered read that restores slot order
//             (so the deferred ordering's merge is paid inside the number)
// It prints Google Benchmark's table, then a summary table of ns per entity
// (thread CPU time; with --benchmark_repetitions=N the minimum and the
// median) next to each workload's target (the table of
// docs/benchmarks.md#what-it-costs). It asserts nothing (benches print).
// Run: build/native-release/ecs_bench   (docs/benchmarks.md)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "laige/logging.h"
#include "laige/prng.h"
#include "laige/world.h"
#include "bench_components.h"

namespace bench {

struct Health {
  std::int32_t hp;
};
LAIGE_COMPONENT(Health, hp);

using laige::Entity;
using laige::World;

World makeWorld(std::uint32_t n) {
  World::Options o;
  o.capacity = n;
  o.churnPerFrameBudget = 0;  // a bench churns on purpose
  World w = World::create(o).takeValue();
  (void)w.registerComponent<Position>();
  (void)w.registerComponent<Velocity>();
  (void)w.registerComponent<Health>();
  return w;
}

std::vector<Entity> populate(World& w, std::uint32_t n) {
  std::vector<Entity> es;
  es.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const Entity e = w.create().value();
    (void)w.addComponent(e, Position{static_cast<float>(i), 0.0f});
    (void)w.addComponent(e, Velocity{1.0f, 0.5f});
    es.push_back(e);
  }
  return es;
}

void setCounters(benchmark::State& state, std::uint32_t n) {
  state.counters["entities"] = static_cast<double>(n);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * n);
}

void BM_Each(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  World w = makeWorld(n);
  populate(w, n);
  for (auto _ : state) {
    (void)w.each<Position, Velocity>([](Entity, Position& p, const Velocity& v) {
      p.x += v.x;
      p.y += v.y;
    }, laige::Write{}, laige::Read{});
    benchmark::ClobberMemory();
  }
  setCounters(state, n);
}

void BM_CreateAdd2(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  World w = makeWorld(n);
  populate(w, n);  // warm the columns once
  for (auto _ : state) {
    state.PauseTiming();
    (void)w.clear();
    state.ResumeTiming();
    for (std::uint32_t i = 0; i < n; ++i) {
      const Entity e = w.create().value();
      (void)w.addComponent(e, Position{1.0f, 2.0f});
      (void)w.addComponent(e, Velocity{3.0f, 4.0f});
    }
  }
  setCounters(state, n);
}

void BM_CreateAdd2Cold(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    World w = makeWorld(n);
    state.ResumeTiming();
    for (std::uint32_t i = 0; i < n; ++i) {
      const Entity e = w.create().value();
      (void)w.addComponent(e, Position{1.0f, 2.0f});
      (void)w.addComponent(e, Velocity{3.0f, 4.0f});
    }
    state.PauseTiming();
    w = World();  // the teardown is not measured
    state.ResumeTiming();
  }
  setCounters(state, n);
}

void BM_Destroy(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  World w = makeWorld(n);
  std::vector<Entity> es;
  for (auto _ : state) {
    state.PauseTiming();
    (void)w.clear();
    es = populate(w, n);
    state.ResumeTiming();
    for (const Entity e : es) (void)w.destroy(e);
  }
  setCounters(state, n);
}

void BM_Get(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  World w = makeWorld(n);
  const std::vector<Entity> es = populate(w, n);
  for (auto _ : state) {
    float sum = 0;
    for (const Entity e : es) sum += w.get<Position>(e)->x;
    benchmark::DoNotOptimize(sum);
  }
  setCounters(state, n);
}

// order: 0 ascending, 1 descending, 2 shuffled.
void addRemove(benchmark::State& state, int order) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  World w = makeWorld(n);
  std::vector<Entity> es = populate(w, n);
  if (order == 1) std::reverse(es.begin(), es.end());
  if (order == 2) {
    laige::Prng rng(0x1F055EEDull);
    for (std::uint32_t k = n - 1; k > 0; --k) std::swap(es[k], es[rng.next_range(0, k + 1)]);
  }
  const laige::ComponentTypeId posId = w.componentId<Position>();
  auto orderedRead = [&] {
    // The ordered read that pays the deferred merge: every archetype.
    for (laige::ArchetypeId a = 1; a <= w.archetypeCount(); ++a) benchmark::DoNotOptimize(w.archetypeSlots(a));
  };
  for (auto _ : state) {
    for (const Entity e : es) (void)w.addComponent(e, Health{1});
    orderedRead();
    for (const Entity e : es) (void)w.removeComponent<Health>(e);
    orderedRead();
  }
  benchmark::DoNotOptimize(posId);
  setCounters(state, n);
}
void BM_AddRemoveAscending(benchmark::State& state) { addRemove(state, 0); }
void BM_AddRemoveDescending(benchmark::State& state) { addRemove(state, 1); }
void BM_AddRemoveShuffled(benchmark::State& state) { addRemove(state, 2); }

// The smallest repetition: on a shared machine the least-disturbed run is the
// best estimate of the code's cost (the median is reported beside it). Times
// are the thread's CPU time: on a shared 2-core VM, wall time mostly measures
// how long other jobs held the core.
double minimum(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }
#define LAIGE_BENCH(fn)                                                                     \
  BENCHMARK(fn)->Arg(10000)->Arg(65000)->Unit(benchmark::kMicrosecond)->                    \
      ComputeStatistics("min", minimum)
LAIGE_BENCH(BM_Each);
LAIGE_BENCH(BM_CreateAdd2);
LAIGE_BENCH(BM_CreateAdd2Cold);
LAIGE_BENCH(BM_Destroy);
LAIGE_BENCH(BM_Get);
LAIGE_BENCH(BM_AddRemoveAscending);
LAIGE_BENCH(BM_AddRemoveDescending);
LAIGE_BENCH(BM_AddRemoveShuffled);

// Keeps every run's ns per entity for the summary table.
class TableReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    // With --benchmark_repetitions the table shows the minimum and the
    // median of the repetitions; without, the single run (twice).
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      const bool aggregate = run.run_type == Run::RT_Aggregate;
      if (aggregate && run.aggregate_name != "median" && run.aggregate_name != "min") continue;
      const std::string name = run.benchmark_name();
      const std::string key = name.substr(0, name.find('/'));
      // Aggregates carry the counter too; fall back to the Arg in the name.
      const int n = std::stoi(name.substr(name.find('/') + 1));
      const double ns = run.GetAdjustedCPUTime() * benchmark::GetTimeUnitMultiplier(benchmark::kNanosecond) /
                        benchmark::GetTimeUnitMultiplier(run.time_unit) / n;
      if (!aggregate) {
        if (repeated.count(key + "/" + std::to_string(n)) == 0) best[key][n] = median[key][n] = ns;
        continue;
      }
      repeated.insert(key + "/" + std::to_string(n));
      (run.aggregate_name == "min" ? best : median)[key][n] = ns;
    }
  }
  std::map<std::string, std::map<int, double>> best;
  std::map<std::string, std::map<int, double>> median;
  std::set<std::string> repeated;
};

}  // namespace bench

int main(int argc, char** argv) {
  // The archetype_created / archetype_grow Info events would interleave
  // with the table; warns still print.
  laige::log::Logger::instance().setGlobalMinimum(laige::log::Level::Warn);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  bench::TableReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  struct Row {
    const char* name;
    const char* label;
    const char* target;
  };
  const Row rows[] = {
      {"BM_Each", "each: pos += vel", "<= 0.8"},
      {"BM_CreateAdd2", "create + add 2 (warm)", "<= 80"},
      {"BM_CreateAdd2Cold", "create + add 2 (cold world)", "<= 80"},
      {"BM_Destroy", "destroy", "<= 50"},
      {"BM_Get", "get<Position>", "<= 8"},
      {"BM_AddRemoveAscending", "add + remove, ascending", "<= 100"},
      {"BM_AddRemoveDescending", "add + remove, descending", "<= 100"},
      {"BM_AddRemoveShuffled", "add + remove, shuffled", "(extra)"},
  };
  std::printf("\nns per entity (thread CPU time; min / median of the repetitions)\n");
  std::printf("%-30s %19s %19s %8s\n", "workload", "N=10000", "N=65000", "target");
  auto cell = [](const std::map<std::string, std::map<int, double>>& m, const char* name, int n) {
    const auto it = m.find(name);
    if (it == m.end()) return -1.0;
    const auto c = it->second.find(n);
    return c == it->second.end() ? -1.0 : c->second;
  };
  for (const Row& r : rows) {
    if (reporter.best.count(r.name) == 0) continue;
    std::printf("%-30s %8.3f / %8.3f %8.3f / %8.3f %8s\n", r.label, cell(reporter.best, r.name, 10000),
                cell(reporter.median, r.name, 10000), cell(reporter.best, r.name, 65000),
                cell(reporter.median, r.name, 65000), r.target);
  }
  return 0;
}
