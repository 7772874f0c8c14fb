// rollback_bench.mjs - an 8-tick rollback of the swarm scenario (2,400
// agents) through the TypeScript RollbackSession under Node: the same
// measurement the browser suite prints for Firefox and Chromium
// (tests/browsers/rollback_timing.mjs). Benchmarks assert nothing.
//   npm run build && node bench/js/rollback_bench.mjs [--rounds N]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { loadLaige } from '../../dist/index.js';
import { formatRollbackTiming, rollbackTiming } from '../../tests/browsers/rollback_timing.mjs';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '60' } } });
const sim = await loadLaige();
sim.setLogLevel('off'); // the scenario's budget warnings are not the measurement
const t = rollbackTiming(sim, { rounds: Number(values.rounds) });
console.log(`node ${process.version}: ${formatRollbackTiming(t)}`);
console.log(JSON.stringify(t));
console.log(`load average before/after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
if (!t.rolledBack) {
  console.error('rollback_bench: a timed advance did not roll back 8 ticks');
  process.exit(1);
}
