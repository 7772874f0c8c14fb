// page.mjs - the in-page half of the browser determinism suite: loads the
// package and exposes window.__laigeCheck for the driver (determinism.mjs).
// Every method returns plain JSON (streams as `<tick> <16 hex>` text).
import { f32, fx, loadLaige } from '@laige/sim/scenarios';
import { checkMathKat } from './math_kat.mjs';
import { liveScenarios } from '../../demo/src/scenarios.js';
import { recordScenarioSession, replayPlans, tsScenarioStream } from './streams.mjs';
import { rollbackTiming } from './rollback_timing.mjs';
import { fxTiming } from './fx_timing.mjs';
import { replaySeekTiming } from './replay_seek_timing.mjs';

try {
  const sim = await loadLaige();
  window.__laigeCheck = {
    info: () => ({ userAgent: navigator.userAgent, version: sim.version, scenarios: sim.scenarios().map((s) => s.name) }),
    /** The C++ scenario's stream, run inside wasm (sim.runScenario). */
    scenarioStream: (name, ticks) => sim.runScenario(name, { ticks }).text,
    /** The TypeScript-only scenarios of the demo. */
    tsScenarios: () => Object.keys(liveScenarios).filter((n) => liveScenarios[n].tsOnly),
    tsStream: (name, ticks) => tsScenarioStream(sim, liveScenarios[name], ticks),
    replayPlans: () => replayPlans.map((p) => p.scenario),
    recordSession: (i) => recordScenarioSession(sim, replayPlans[i]),
    /** An 8-tick rollback of swarm through the TypeScript RollbackSession, timed in this engine (ms). */
    rollbackTiming: (rounds) => rollbackTiming(sim, { rounds }),
    /** Time travel over a 10,000-entity stress replay through the TypeScript ReplayPlayer, timed in this engine (ms). */
    replaySeekTiming: (options) => {
      sim.setLogLevel('off');
      return replaySeekTiming(sim, options);
    },
    /** fx.* next to f32.* timed in this engine (ns per call). */
    fxTiming: (rounds) => fxTiming(fx, f32, { rounds }),
    /** The math known-answer table (tests/kat/math_kat.txt) against fx.* and f32.* in this engine. */
    mathKat: (table) => {
      const { rows, mismatches } = checkMathKat(table, fx, f32);
      return { rows, mismatches: mismatches.length, first: mismatches.slice(0, 3) };
    },
  };
  document.getElementById('status').textContent = 'ready';
} catch (e) {
  window.__laigeCheckError = `${e?.stack ?? e}`;
  document.getElementById('status').textContent = `error: ${e?.message ?? e}`;
}
