// devtools.ts - the dev tools (the live inspector's answers, the replay
// player) are linked into the module of '@laige/sim/scenarios' only: the
// module of '@laige/sim' stays under its size limit without them
// (docs/build.md#the-two-wasm-modules). Their calls ask the module first.
import { invalid } from '../base/errors.js';
import type { LaigeRawModule } from '../boundary/raw.js';

/** Throws devtools_not_linked when `raw` is the lean module (whose dev-tool exports only refuse). */
export function requireDevtools(raw: LaigeRawModule, where: string, tool: string): void {
  if (raw.devtoolsLinked() !== 0) return;
  throw invalid(`${where}: ${tool} is not in the wasm module of '@laige/sim' (kept small); `
    + "load the module with the dev tools: import { loadLaige } from '@laige/sim/scenarios' (docs/build.md#the-two-wasm-modules)",
  'devtools_not_linked', { where, tool });
}
