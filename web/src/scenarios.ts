/// <reference lib="esnext.disposable" preserve="true" />
// scenarios.ts - the entry '@laige/sim/scenarios': the whole API of
// '@laige/sim', with loadLaige() loading laige_wasm_scenarios.wasm, the
// module that also holds the built-in reference scenarios (sim.scenarios(),
// runScenario, openScenario, scenarioPlayerInput: the demo's scenes, the
// golden streams laige-detcheck prints). The module of '@laige/sim' leaves
// their code out (docs/build.md#the-two-wasm-modules). Both modules share
// one JS glue (wasm/laige_wasm.mjs); the `new URL(...)` below is literal for
// the bundlers, as in load.ts.
import { type Laige, loadLaigeFrom } from './laige.js';
import { type LoadOptions, readWasm } from './boundary/wasm_source.js';

export * from './index.js';

/**
 * Loads the wasm module with the built-in scenarios (`laige_wasm_scenarios.wasm`
 * of this package; `wasmUrl` or `wasmBinary` take precedence as for
 * loadLaige of '@laige/sim'). Errors as loadLaige of '@laige/sim'.
 */
export async function loadLaige(options: LoadOptions = {}): Promise<Laige> {
  return loadLaigeFrom(options, () => readWasm(new URL('../wasm/laige_wasm_scenarios.wasm', import.meta.url)));
}
