// match_load.mjs - the match server under load (docs/netplay-protocol.md#load):
// N matches of the `input` scenario, each with 2 players and 1 spectator
// (headless Node clients over `ws`), through demo/match_relay.mjs and one
// `laige-peer --serve`, driven at a fixed tick rate for a while, on loopback
// only. The clients run in --procs processes of their own
// (bench/js/match_load_clients.mjs, child_process.fork), so this process
// runs the relay only and the limit found is the server's or the relay's,
// not one event loop's. Per N it reports: ticks per second each match held
// (min, median), the input-to-confirm latency (a tick's players' inputs
// sent -> the spectator's `confirmed` line; p50 and p99), the server
// process's CPU (per cent of one core, and per match) and memory (resident
// set, per match above the idle server, and its growth over the second
// half of the run), the relay's and the client processes' CPU, messages per
// second the clients received, and desyncs: each match's players report the
// confirmed hash every 30 ticks, and the first `--verify` matches' confirmed
// streams are replayed in wasm (openScenario('input') with the same
// confirmed inputs) and must match tick for tick.
//
//   npm run build && bash scripts/build.sh native-release:laige-peer
//   node bench/js/match_load.mjs [--matches 10,50,100] [--seconds 60] [--hz 60] [--threads 2] [--procs 2] [--verify 4]
//        [--faults [--delay-ms 20] [--drop 0.01]] [--check]
//
// Faults (--faults, in the client shim): every second one player of the
// next match in turn closes its socket and rejoins on a new one with its
// token; every player message waits 0..--delay-ms ms (in order); an `input`
// line is dropped with probability --drop and resent from the tick the
// server's refusal names; one connection sends garbage each second. None of
// it may change a match's stream: the verified matches must still equal
// the wasm run of their confirmed inputs. --check exits 1 on a desync, on
// no verified tick, or on a refusal to a player that is not a fault's
// (the CI form: scripts/test.sh runs 4 matches for 3 s with faults).
// Bounded: at most 500 matches, 600 seconds.
import { createServer } from 'node:http';
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { attachMatchServer } from '../../demo/match_relay.mjs';
import { findPeerBinary } from '../../demo/peer_server.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : process.argv[i + 1];
};
const sizes = String(arg('matches', '10,50,100')).split(',').map(Number);
const seconds = Math.min(600, Number(arg('seconds', 60)));
const hz = Number(arg('hz', 60));
const threads = Number(arg('threads', 2));
const procs = Math.max(1, Math.min(16, Number(arg('procs', 2))));
const verify = Number(arg('verify', 4));
const faults = process.argv.includes('--faults');
const delayMs = faults ? Number(arg('delay-ms', 20)) : 0;
const drop = faults ? Number(arg('drop', 0.01)) : 0;
const check = process.argv.includes('--check');
if (sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 500)) throw new Error('--matches: integers 1..500');
const bin = findPeerBinary();
if (bin === null) throw new Error('laige-peer is not built: bash scripts/build.sh native-release:laige-peer');
const clientsModule = fileURLToPath(new URL('./match_load_clients.mjs', import.meta.url));

function procStat(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticksPerSecond = 100; // USER_HZ on Linux
  const cpu = (Number(stat[11]) + Number(stat[12])) / ticksPerSecond;
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
  return { cpu, rss };
}

/** Forks one client process for `ids`; resolves once its matches started, to { go(): Promise<result> }. */
function clientProcess(options) {
  const child = fork(clientsModule, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let result;
  const finished = new Promise((ok, fail) => {
    result = { ok, fail };
    // 'close' comes after the IPC channel's last message ('exit' may come before it).
    child.once('close', (code) => fail(new Error(`a client process exited (${code}) before its result`)));
  });
  const ready = new Promise((ok, fail) => {
    child.on('message', (m) => {
      if (m.type === 'ready') ok();
      else if (m.type === 'result') result.ok(m.result);
      else if (m.type === 'error') { fail(new Error(m.error)); result.fail(new Error(m.error)); }
    });
  });
  child.send(options);
  return ready.then(() => ({ go: () => { child.send('go'); return finished; }, pid: child.pid }));
}

async function runSize(n) {
  const server = createServer((_q, r) => r.writeHead(404).end());
  const relay = attachMatchServer(server, { bin, threads, maxMatches: Math.max(256, n), log: () => {} });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `ws://127.0.0.1:${server.address().port}/match`;
  await relay.ready;
  const pid = relay.pid;
  const idle = procStat(pid); // the server before any match: its per-match memory is measured above this
  const shares = Array.from({ length: procs }, () => []);
  for (let m = 0; m < n; m++) shares[m % procs].push([m, `m${m}`]);
  const clients = await Promise.all(shares.filter((ids) => ids.length > 0).map((ids, i) => clientProcess({
    url, ids, hz, seconds, verify, faults, delayMs, drop, garbage: faults && i === 0,
  })));
  const before = procStat(pid);
  const relayBefore = process.cpuUsage();
  const t0 = performance.now();
  // The server's memory each second: flat over the run, or a leak.
  const rssSamples = [];
  const sampler = setInterval(() => { try { rssSamples.push(procStat(pid).rss); } catch { /* gone */ } }, 1000);
  const results = await Promise.all(clients.map((c) => c.go()));
  clearInterval(sampler);
  const wall = (performance.now() - t0) / 1000;
  const after = procStat(pid);
  const relayCpu = process.cpuUsage(relayBefore);
  await relay.close();
  server.close();
  const matches = results.flatMap((r) => r.matches);
  const sum = (k) => results.reduce((a, r) => a + r[k], 0);
  const drive = Math.max(...results.map((r) => r.wall));
  const perMatch = matches.map((x) => x.confirmed / drive).sort((a, b) => a - b);
  const sentHz = Math.min(...matches.map((x) => x.tick / drive));
  const lat = matches.flatMap((x) => x.latencies).sort((a, b) => a - b);
  const q = (a, f) => a[Math.min(a.length - 1, Math.floor(f * a.length))] ?? NaN;
  const half = rssSamples.slice(Math.floor(rssSamples.length / 2));
  return {
    n, wall, sentHz, minHz: perMatch[0], medianHz: q(perMatch, 0.5), p50: q(lat, 0.5), p99: q(lat, 0.99),
    cpu: (100 * (after.cpu - before.cpu)) / wall, relayCpu: (relayCpu.user + relayCpu.system) / 1e4 / wall,
    clientCpu: (100 * sum('cpuSeconds')) / wall, rss: after.rss, perMatchKb: (after.rss - idle.rss) / n / 1024,
    rssGrowthKb: half.length > 1 ? (half.at(-1) - half[0]) / 1024 : 0,
    msgs: sum('messages') / wall, desyncs: sum('desyncs'), verified: sum('verified'), rejoins: sum('rejoins'),
    playerErrors: sum('playerErrors'), drops: sum('drops'), resends: sum('resends'),
  };
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`match_load: laige-peer --serve --threads ${threads}, ${hz} Hz, ${seconds} s per size, clients in ${procs} processes, verify ${verify}, faults ${faults ? `on (delay 0..${delayMs} ms, drop ${drop})` : 'off'}; node ${process.version}; load ${load()}`);
console.log('| matches | ticks/s sent (min) | ticks/s confirmed per match (min / median) | input->confirm p50 / p99 (ms) | server CPU (% of a core; per match) | relay CPU (%) | clients CPU (%) | server RSS (MB; per match KB; growth over the 2nd half KB) | messages/s | desyncs | ticks verified in wasm | rejoins / drops / resends (other refusals) |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
let failed = false;
for (const n of sizes) {
  const r = await runSize(n);
  console.log(`| ${r.n} | ${r.sentHz.toFixed(1)} | ${r.minHz.toFixed(1)} / ${r.medianHz.toFixed(1)} | ${r.p50.toFixed(2)} / ${r.p99.toFixed(2)} | ${r.cpu.toFixed(0)}; ${(r.cpu / r.n).toFixed(2)} | ${r.relayCpu.toFixed(0)} | ${r.clientCpu.toFixed(0)} | ${(r.rss / 1048576).toFixed(1)}; ${r.perMatchKb.toFixed(0)}; ${r.rssGrowthKb.toFixed(0)} | ${r.msgs.toFixed(0)} | ${r.desyncs} | ${r.verified} | ${r.rejoins} / ${r.drops} / ${r.resends} (${r.playerErrors}) |`);
  if (r.desyncs > 0 || r.verified === 0 || r.playerErrors > 0) failed = true;
}
console.log(`load after: ${load()}`);
if (check && failed) { console.error('match_load --check: a desync, no verified tick, or a refusal to a player'); process.exit(1); }
process.exit(0);
