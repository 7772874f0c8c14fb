// match_server_direct.mjs - the match server's own limit, without the relay
// and without WebSockets (docs/netplay-protocol.md#load): one process
// writes the relay's lines straight into `laige-peer --serve`'s stdin
// (`<conn> <request>`, 3 connections per match: 2 players + 1 spectator)
// and reads its stdout, so what falls behind first is the server (its
// reader thread, its workers, its output), not a Node event loop parsing
// WebSocket frames. N matches of the `input` scenario at a fixed tick rate;
// per N: ticks per second each match held (min, median: each match's
// `stats` tick at the end), the server's CPU (% of a core) and memory, the
// lines per second it wrote, its refusals (`server_busy` among them) and the
// matches' desync counters (no hash is reported here: the relay bench,
// match_load.mjs, checks the hashes).
//
//   bash scripts/build.sh native-release:laige-peer
//   node bench/js/match_server_direct.mjs [--matches 200,500,1000] [--seconds 15] [--hz 60] [--threads 2]
//
// Bounded: at most 5,000 matches, 120 seconds.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { findPeerBinary } from '../../demo/peer_server.mjs';
import { loadLaige } from '../../dist/scenarios.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : process.argv[i + 1];
};
const sizes = String(arg('matches', '200,500,1000')).split(',').map(Number);
const seconds = Math.min(120, Number(arg('seconds', 15)));
const hz = Number(arg('hz', 60));
const threads = Number(arg('threads', 2));
if (sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 5000)) throw new Error('--matches: integers 1..5000');
const bin = findPeerBinary();
if (bin === null) throw new Error('laige-peer is not built: bash scripts/build.sh native-release:laige-peer');
const sim = await loadLaige();
const hex = (b) => (b.length === 0 ? '.' : Buffer.from(b).toString('hex'));
const inputs = [0, 1].map((p) => Array.from({ length: 600 }, (_, t) => hex(sim.scenarioPlayerInput('input', p, t + 1))));

function procStat(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
  return { cpu: (Number(stat[11]) + Number(stat[12])) / 100, rss };
}

async function runSize(n) {
  const child = spawn(bin, ['--serve', '--threads', String(threads), '--max-matches', String(Math.max(256, n))], { stdio: ['pipe', 'pipe', 'ignore'] });
  // While the matches run, stdout is only counted (a Node reader that parsed
  // every line would be what falls behind, and a server whose output is
  // not read blocks); at the end `stats` asks each match its tick.
  let lines = 0;
  let tail = '';
  let parsing = true;
  const replies = [];
  let onLine = null;
  child.stdout.on('data', (chunk) => {
    if (!parsing) {
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
      return;
    }
    tail += chunk.toString('latin1');
    const parts = tail.split('\n');
    tail = parts.pop();
    for (const line of parts) { lines++; replies.push(line); onLine?.(line); }
  });
  const until = (pred) => new Promise((ok) => { onLine = (l) => { if (pred(l)) { onLine = null; ok(); } }; });
  let started = 0;
  const allStarted = until((l) => / start d\d+ 0$/.test(l) && /^\d+ /.test(l) && (Number(l.split(' ')[0]) - 10) % 3 === 0 && ++started === n);
  const idle = procStat(child.pid);
  for (let m = 0; m < n; m++) {
    const c = 10 + 3 * m;
    child.stdin.write(`${c} create d${m} input 2\n${c + 1} join d${m} player\n${c + 2} join d${m} spectator\n`);
  }
  await allStarted;
  parsing = false;
  const before = procStat(child.pid);
  const t0 = performance.now();
  let tick = 0;
  const total = Math.round(seconds * hz);
  await new Promise((done) => {
    const timer = setInterval(() => {
      tick++;
      const i0 = inputs[0][(tick - 1) % 600];
      const i1 = inputs[1][(tick - 1) % 600];
      let batch = '';
      for (let m = 0; m < n; m++) {
        const c = 10 + 3 * m;
        batch += `${c} input d${m} ${tick} ${i0}\n${c + 1} input d${m} ${tick} ${i1}\n`;
        if (batch.length > 65536) { child.stdin.write(batch); batch = ''; }
      }
      child.stdin.write(batch);
      if (tick >= total) { clearInterval(timer); done(); }
    }, 1000 / hz);
  });
  const wall = (performance.now() - t0) / 1000;
  const after = procStat(child.pid);
  // Each match's confirmed tick, and the server's refusal counters.
  replies.length = 0;
  tail = '';
  parsing = true;
  // The reader thread answers `stats` itself, maybe before the workers' `stats d<m>`: wait for all.
  let got = 0;
  const done = until((l) => (/^\d+ stats (d\d+|server) /.test(l) ? ++got : got) === n + 1);
  // Each from its own player 0 (one connection may have 256 lines queued).
  let asks = '';
  for (let m = 0; m < n; m++) asks += `${10 + 3 * m} stats d${m}\n`;
  child.stdin.write(`${asks}1 stats\n`);
  await done;
  const confirmed = [];
  for (const l of replies) { const t = / stats d\d+ .* tick=(\d+) /.exec(l); if (t) confirmed.push(Number(t[1])); }
  const server = replies.find((l) => l.startsWith('1 stats server ')) ?? '';
  const desyncs = replies.reduce((a, l) => a + Number(/ desyncs=(\d+)/.exec(l)?.[1] ?? 0), 0);
  child.stdin.end();
  await new Promise((r) => child.once('exit', r));
  const perMatch = confirmed.map((c) => c / wall).sort((a, b) => a - b);
  return {
    n, held: tick / wall, minHz: perMatch[0], medianHz: perMatch[Math.floor(n / 2)], cpu: (100 * (after.cpu - before.cpu)) / wall,
    rss: after.rss, perMatchKb: (after.rss - idle.rss) / n / 1024, linesPerSec: lines / wall, desyncs,
    busy: /busy=(\d+)/.exec(server)?.[1] ?? '?', refused: /refused=(\d+)/.exec(server)?.[1] ?? '?',
  };
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`match_server_direct: laige-peer --serve --threads ${threads}, ${hz} Hz, ${seconds} s per size, no relay; node ${process.version}; load ${load()}`);
console.log('| matches | ticks/s sent | ticks/s confirmed per match (min / median) | server CPU (% of a core) | server RSS (MB; per match KB) | lines/s out | refused (busy) | desyncs |');
console.log('|---|---|---|---|---|---|---|---|');
for (const n of sizes) {
  const r = await runSize(n);
  console.log(`| ${r.n} | ${r.held.toFixed(1)} | ${r.minHz.toFixed(1)} / ${r.medianHz.toFixed(1)} | ${r.cpu.toFixed(0)} | ${(r.rss / 1048576).toFixed(1)}; ${r.perMatchKb.toFixed(0)} | ${r.linesPerSec.toFixed(0)} | ${r.refused} (${r.busy}) | ${r.desyncs} |`);
}
console.log(`load after: ${load()}`);
process.exit(0);
