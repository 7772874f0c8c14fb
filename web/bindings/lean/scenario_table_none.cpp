// scenario_table_none.cpp - the scenario registry's table of the package's
// lean wasm module (laige_wasm.wasm): no scenarios. Because an object file of
// the module defines scenarioTable(), the linker never pulls the library's
// table (cpp/scenarios/scenario_table.cpp) and with it the scenarios' code;
// the module with them is laige_wasm_scenarios.wasm, loaded by the entry
// '@laige/sim/scenarios' (docs/build.md#the-two-wasm-modules).
#include "scenario.h"

namespace laige {

ScenarioTable scenarioTable() noexcept { return {nullptr, 0}; }

}  // namespace laige
