// streams.mjs - what the browser determinism suite computes, shared by the
// page (page.mjs, in Firefox and Chromium) and Node (determinism.mjs), so
// both run exactly the same JavaScript over the same @laige/sim build.
// Streams are the `<tick> <16 hex>` text laige-detcheck prints.
import { attractorPayload } from '../../demo/src/scenarios.js';

const hex = (h) => h.toString(16).padStart(16, '0');

/**
 * The stream of a TypeScript-systems scenario (demo/src/scenarios.js): ticks
 * 0..`ticks` stepped by a GameLoop, as demo/ts-golden.mjs computes it.
 */
export function tsScenarioStream(sim, spec, ticks) {
  const built = spec.build(sim, spec.seed);
  try {
    const loop = sim.createGameLoop(built.world, { tickRateHz: spec.tickRateHz ?? 60 });
    let text = `0 ${hex(built.world.stateHash(0))}\n`;
    for (let t = 1; t <= ticks; t++) {
      loop.step(1);
      text += `${t} ${hex(built.world.stateHash(t))}\n`;
    }
    loop.dispose();
    return text;
  } finally {
    built.world.dispose();
  }
}

/**
 * The sessions recorded as replays in the page, each a C++ scenario stepped
 * from TypeScript (sim.openScenario) that native laige-replay must reproduce.
 * `pointer`: [fromTick, toTick, x, y] spans whose input is a swarm attractor
 * payload (Q16.16 units) instead of the scenario's generated input.
 */
export const replayPlans = [
  { scenario: 'swarm', ticks: 150, pointer: [[41, 100, 20, -10], [101, 130, -30, 25]] },
  { scenario: 'float', ticks: 120, pointer: [] },
  { scenario: 'input', ticks: 120, pointer: [] },
  // A ChildOf hierarchy: cascading destroys (tick 40, 80, 120) and reparents (tick 20, 60, 100) inside the recording.
  { scenario: 'hierarchy', ticks: 130, pointer: [] },
];

/**
 * Records plan's session: opens the scenario, records a replay of its world
 * from tick 0, steps it tick by tick with each tick's payload, and returns
 * the log (base64), the laige-replay config and the page's hash stream.
 */
export function recordScenarioSession(sim, plan) {
  const info = sim.scenarios().find((s) => s.name === plan.scenario);
  if (info === undefined) throw new Error(`no scenario ${plan.scenario}`);
  const run = sim.openScenario(plan.scenario);
  try {
    const rec = sim.recordReplay(run.world, { tickRateHz: info.tickRateHz, math: info.math });
    let hashes = `0 ${hex(run.stateHash())}\n`;
    for (let t = 1; t <= plan.ticks; t++) {
      const span = plan.pointer.find(([a, b]) => t >= a && t <= b);
      let payload;
      if (span !== undefined) payload = attractorPayload(span[2] * 65536, span[3] * 65536);
      else {
        const g = run.generatedInput(t);
        payload = g.length > 0 ? g : undefined;
      }
      // Always an explicit payload (step() without one means "the generator's").
      run.step(payload ?? new Uint8Array(0));
      rec.writeFrame(t, payload);
      if (run.tick !== t) throw new Error(`${plan.scenario}: tick ${run.tick} after step ${t}`);
      hashes += `${t} ${hex(run.stateHash())}\n`;
    }
    const bytes = rec.finish();
    let bin = '';
    for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
    const config = {
      tickRateHz: info.tickRateHz, entityCapacity: info.capacity, churnPerFrameBudget: info.churnPerFrameBudget,
      seed: `0x${info.defaultSeed.toString(16)}`, determinism: { enabled: true, math: info.math }, scenario: plan.scenario,
    };
    return { scenario: plan.scenario, ticks: plan.ticks, log: btoa(bin), config, hashes };
  } finally {
    run.dispose();
  }
}
