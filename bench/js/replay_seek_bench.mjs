// replay_seek_bench.mjs - time travel over a 10,000-tick replay of the
// stress scenario (10,000 entities) through the TypeScript ReplayPlayer
// under Node, for several keyframe intervals K: the same measurement
// bench/js/replay_seek_browser.mjs takes in chromium
// (tests/browsers/replay_seek_timing.mjs). Benchmarks assert nothing but
// exactness (every timed state hash equals the live run's).
//   node bench/js/replay_seek_bench.mjs [--ticks 10000] [--k 50,100,200,400] [--jumps 200] [--step-backs 200]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { loadLaige } from '../../dist/scenarios.js';
import { formatReplaySeekTiming, replaySeekTiming } from '../../tests/browsers/replay_seek_timing.mjs';

const { values } = parseArgs({
  options: {
    ticks: { type: 'string', default: '10000' }, k: { type: 'string', default: '50,100,200,400' },
    jumps: { type: 'string', default: '200' }, 'step-backs': { type: 'string', default: '200' },
  },
});
const sim = await loadLaige();
sim.setLogLevel('off'); // the scenario's budget warnings are not the measurement
console.log(`load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
let exact = true;
for (const k of values.k.split(',').map(Number)) {
  // Without keyframes a jump re-simulates up to every tick: fewer of them.
  const jumps = k === 0 ? Math.min(20, Number(values.jumps)) : Number(values.jumps);
  const stepBacks = k === 0 ? Math.min(20, Number(values['step-backs'])) : Number(values['step-backs']);
  const r = replaySeekTiming(sim, { ticks: Number(values.ticks), keyframeEvery: k, jumps, stepBacks });
  console.log(`node ${process.version}: ${formatReplaySeekTiming(r)}`);
  console.log(JSON.stringify(r));
  exact &&= r.exact;
}
console.log(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
if (!exact) {
  console.error('replay_seek_bench: a timed seek did not reach the recorded state');
  process.exit(1);
}
