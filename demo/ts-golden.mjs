// ts-golden.mjs - the golden streams of the TypeScript-only scenarios
// (demo/src/scenarios.js, `tsOnly`), computed under Node with the same
// @laige/sim build the page loads: ticks 0..600, `<tick> <16 hex>` lines,
// written to demo/public/golden/<name>.txt. Run by demo/build.sh.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadLaige } from '@laige/sim/scenarios';
import { liveScenarios } from './src/scenarios.js';

const out = new URL('./public/golden/', import.meta.url);
mkdirSync(out, { recursive: true });
const sim = await loadLaige();
for (const [name, spec] of Object.entries(liveScenarios)) {
  // (A port of a core scenario is checked against that scenario's native golden.)
  if (!spec.tsOnly || spec.golden !== undefined) continue;
  const built = spec.build(sim, spec.seed);
  const loop = sim.createGameLoop(built.world, { tickRateHz: spec.tickRateHz ?? 60 });
  let text = `0 ${built.world.stateHash(0).toString(16).padStart(16, '0')}\n`;
  for (let t = 1; t <= 600; t++) {
    loop.step(1);
    text += `${t} ${built.world.stateHash(t).toString(16).padStart(16, '0')}\n`;
  }
  writeFileSync(new URL(`${name}.txt`, out), text);
  console.log(`ts golden: ${name} (600 ticks, Node ${process.versions.node}) -> demo/public/golden/${name}.txt`);
  built.world.dispose();
}
