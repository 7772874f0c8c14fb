// The float scenario built by a consumer with its own flags: this file and
// cpp/scenarios/float_scenario.cpp are compiled by the consumer's compiler
// and flags (tests/install/run.sh: by hand with -O3 -march=native and no
// -ffp-contract, through find_package with unsafe clang flags in CXXFLAGS,
// and through pkg-config), linked against the installed library, and must
// print the golden stream tests/golden/float.txt. The world and tick loop
// are the library's; every float operation of the scenario is compiled
// here, so the stream shows whether SimMath<Fp32Pinned> pins its own
// results (docs/sim_math.md#flags).
#include <cinttypes>
#include <cstdio>

#include "scenario_list.h"

int main() {
  const laige::Scenario& s = laige::scenarios::kFloatScenario;
  laige::World::Options o;
  o.capacity = s.capacity;
  o.churnPerFrameBudget = s.churnPerFrameBudget;
  o.seed = s.defaultSeed;
  o.deterministic = true;
  auto created = laige::World::create(o);
  if (created.isError()) return 1;
  laige::World world = std::move(created).takeValue();
  if (s.setup(world, s.defaultSeed).isError()) return 2;
  laige::SystemSchedule schedule;
  if (world.scheduleSystems(schedule).isError()) return 3;
  std::printf("0 %016" PRIx64 "\n", world.stateHash(0));
  for (std::uint64_t t = 1; t <= s.defaultTicks; ++t) {
    world.beginFrame();
    if (world.runSystems(schedule, laige::TickInput{}).isError()) return 4;
    std::printf("%" PRIu64 " %016" PRIx64 "\n", t, world.stateHash(t));
  }
  return 0;
}
