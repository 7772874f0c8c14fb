// commands_bench.cpp - deferred commands against direct calls
// (docs/commands.md#costs).
//
//   BM_DirectAddRemove     World::addComponent then removeComponent of a
//                          4-byte component on 10,000 entities, outside any
//                          phase (the baseline).
//   BM_DeferredAddRemove   the same 20,000 changes recorded into
//                          World::defer's buffer and applied at its end.
//   BM_EachThenCommands    a World::each over the 10,000 entities recording
//                          one add (then one remove, in a second each) per
//                          entity: the pattern the iteration guard forces.
// Counter per_change: the time per add or remove. Run:
// build/native-release/commands_bench. Benchmarks print; they assert nothing.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "laige/commands.h"
#include "laige/world.h"

namespace {

using namespace laige;

struct BenchCmdPos {
  std::int32_t x, y;
};
LAIGE_COMPONENT(BenchCmdPos, x, y);
struct BenchCmdTag {
  std::int32_t v;
};
LAIGE_COMPONENT(BenchCmdTag, v);

constexpr std::uint32_t kEntities = 10000;

struct Scene {
  World world;
  std::vector<Entity> entities;
};

Scene makeScene() {
  World::Options o;
  o.capacity = kEntities;
  o.churnPerFrameBudget = 0;
  Scene s{World::create(o).takeValue(), {}};
  (void)s.world.registerComponent<BenchCmdPos>();
  (void)s.world.registerComponent<BenchCmdTag>();
  for (std::uint32_t i = 0; i < kEntities; ++i) {
    const Entity e = s.world.create().value();
    (void)s.world.addComponent(e, BenchCmdPos{static_cast<std::int32_t>(i), 0});
    s.entities.push_back(e);
  }
  return s;
}

// The time per add or remove: the inverted rate of changes (printed in s, with an SI prefix).
void report(benchmark::State& state) {
  state.counters["per_change"] = benchmark::Counter(static_cast<double>(state.iterations()) * 2.0 * kEntities,
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_DirectAddRemove(benchmark::State& state) {
  Scene s = makeScene();
  for (auto _ : state) {
    for (const Entity e : s.entities) (void)s.world.addComponent(e, BenchCmdTag{1});
    for (const Entity e : s.entities) (void)s.world.removeComponent<BenchCmdTag>(e);
  }
  report(state);
}
BENCHMARK(BM_DirectAddRemove)->Unit(benchmark::kMicrosecond);

void BM_DeferredAddRemove(benchmark::State& state) {
  Scene s = makeScene();
  for (auto _ : state) {
    (void)s.world.defer([&](CommandBuffer& c) {
      for (const Entity e : s.entities) (void)c.add(e, BenchCmdTag{1});
      for (const Entity e : s.entities) (void)c.remove<BenchCmdTag>(e);
    });
  }
  report(state);
}
BENCHMARK(BM_DeferredAddRemove)->Unit(benchmark::kMicrosecond);

void BM_EachThenCommands(benchmark::State& state) {
  Scene s = makeScene();
  CommandBuffer& c = s.world.commands();
  for (auto _ : state) {
    (void)s.world.each<BenchCmdPos>([&](Entity e, const BenchCmdPos&) { (void)c.add(e, BenchCmdTag{1}); }, Read{});
    (void)s.world.each<BenchCmdPos>([&](Entity e, const BenchCmdPos&) { (void)c.remove<BenchCmdTag>(e); }, Read{});
  }
  report(state);
}
BENCHMARK(BM_EachThenCommands)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
