// scenario_table.cpp - the built-in scenarios, in --list order: the
// registry's table (scenario.h). A file of its own so that a build can link
// another table instead (the package's lean wasm module links one without
// any: docs/build.md#the-two-wasm-modules).
#include "scenario_list.h"

namespace laige {

namespace {

// The reference scenarios first, then the demo scene, the reference tick,
// the two that exercise fp32 and input, and the relation hierarchy.
const Scenario* const kScenarios[] = {
    &scenarios::kHelloScenario,   &scenarios::kSyntheticScenario, &scenarios::kSyntheticPerturbedScenario,
    &scenarios::kSwarmScenario,   &scenarios::kStressScenario,    &scenarios::kFloatScenario,
    &scenarios::kInputScenario,   &scenarios::kHierarchyScenario,
};

}  // namespace

ScenarioTable scenarioTable() noexcept {
  return {kScenarios, static_cast<std::uint32_t>(sizeof(kScenarios) / sizeof(kScenarios[0]))};
}

}  // namespace laige
