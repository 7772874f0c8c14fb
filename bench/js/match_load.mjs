// match_load.mjs - the match server under load (docs/netplay-protocol.md):
// N matches of the `input` scenario, each with 2 players and 1 spectator
// (headless Node clients over `ws`, through demo/match_relay.mjs and one
// `laige-peer --serve`), driven at a fixed tick rate for a while, on
// loopback only. Per N it reports: ticks per second each match held (min,
// median), the input-to-confirm latency (a tick's last player input sent ->
// the spectator's `confirmed` line; p50 and p99), the server process's CPU
// (per cent of one core; beside it the Node process's own, which runs the
// relay and every client on one event loop) and memory (resident set, and per match), messages
// per second through the relay, and desyncs: each match's players report
// the confirmed hash every 30 ticks, and the first `--verify` matches'
// confirmed streams are replayed in wasm (openScenario('input') with the
// same confirmed inputs) and must match tick for tick.
//
//   npm run build && bash scripts/build.sh native-release:laige-peer
//   node bench/js/match_load.mjs [--matches 10,50,100] [--seconds 60] [--hz 60] [--threads 2] [--verify 4]
//
// Faults (--faults): every second one player of the next match in turn
// closes its socket and comes back on a new one with `rejoin` and its token
// (the ticks it missed are filled with the empty input, as the protocol's
// reconnect rule says), and one extra connection sends garbage (an unknown
// verb, bad hex for a match it is not in, an oversized line). Nothing of
// that may change another match's stream: the verified matches must still
// equal the wasm run of their confirmed inputs, faults included. Bounded:
// at most 500 matches, 600 seconds.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { attachMatchServer } from '../../demo/match_relay.mjs';
import { findPeerBinary } from '../../demo/peer_server.mjs';
import { loadLaige } from '../../dist/scenarios.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : process.argv[i + 1];
};
const sizes = String(arg('matches', '10,50,100')).split(',').map(Number);
const seconds = Math.min(600, Number(arg('seconds', 60)));
const hz = Number(arg('hz', 60));
const threads = Number(arg('threads', 2));
const verify = Number(arg('verify', 4));
const faults = process.argv.includes('--faults');
if (sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 500)) throw new Error('--matches: integers 1..500');
const bin = findPeerBinary();
if (bin === null) throw new Error('laige-peer is not built: bash scripts/build.sh native-release:laige-peer');
const sim = await loadLaige();
const hex = (b) => (b.length === 0 ? '.' : Buffer.from(b).toString('hex'));
const fromHex = (s) => (s === '.' ? new Uint8Array(0) : new Uint8Array(Buffer.from(s, 'hex')));
const inputs = new Map(); // `${player} ${tick}` -> hex (the generator is pure)
const inputOf = (p, t) => {
  const k = `${p} ${t}`;
  let v = inputs.get(k);
  if (v === undefined) { v = hex(sim.scenarioPlayerInput('input', p, t)); inputs.set(k, v); }
  return v;
};

function procStat(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticksPerSecond = 100; // USER_HZ on Linux
  const cpu = (Number(stat[11]) + Number(stat[12])) / ticksPerSecond;
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
  return { cpu, rss };
}

function connect(url, onMessage) {
  const ws = new WebSocket(url);
  ws.on('message', (m) => onMessage(String(m)));
  return new Promise((ok, fail) => { ws.once('open', () => ok(ws)); ws.once('error', fail); });
}

async function runSize(n) {
  const server = createServer((_q, r) => r.writeHead(404).end());
  const relay = attachMatchServer(server, { bin, threads, maxMatches: Math.max(256, n), log: () => {} });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `ws://127.0.0.1:${server.address().port}/match`;
  await relay.ready;
  const pid = relay.pid;
  const idle = procStat(pid); // the server before any match: its per-match memory is measured above this
  let messages = 0;
  let desyncs = 0;
  let rejoins = 0;
  let playerErrors = 0;
  const matches = [];
  for (let m = 0; m < n; m++) {
    const id = `m${m}`;
    const match = { id, tick: 0, confirmed: 0, sent: new Map(), latencies: [], confirmedLines: [], tokens: [], players: [], started: null };
    const onPlayer = (p) => (line) => {
      messages++;
      if (line.startsWith(`joined ${id} player`)) { match.tokens[p] = line.split(' ')[4]; match.joins = (match.joins ?? 0) + 1; if (match.joins > 2) rejoins++; }
      else if (line.startsWith('error ')) playerErrors++;
      else if (line.startsWith(`start ${id}`)) match.started?.();
      else if (line.startsWith(`desync ${id}`)) desyncs++;
    };
    match.onPlayer = onPlayer;
    const started = new Promise((ok) => { match.started = ok; });
    match.players[0] = await connect(url, onPlayer(0));
    match.players[0].send(`create ${id} input 2`);
    match.players[1] = await connect(url, onPlayer(1));
    match.players[1].send(`join ${id} player`);
    match.spectator = await connect(url, (line) => {
      messages++;
      if (!line.startsWith(`confirmed ${id} `)) return;
      const [, , t, hash] = line.split(' ');
      const tick = Number(t);
      match.confirmed = tick;
      const sent = match.sent.get(tick);
      if (sent !== undefined) { match.latencies.push(performance.now() - sent); match.sent.delete(tick); }
      if (m < verify) match.confirmedLines.push(line);
      if (tick % 30 === 0) for (const p of match.players) if (p.readyState === p.OPEN) p.send(`hash ${id} ${tick} ${hash}`);
    });
    match.spectator.send(`join ${id} spectator`);
    await started;
    matches.push(match);
  }
  // The drive: every 1/hz s each match's two players send their next tick.
  const before = procStat(pid);
  const nodeBefore = process.cpuUsage();
  const t0 = performance.now();
  let garbage = null;
  if (faults) garbage = await connect(url, () => { messages++; });
  await new Promise((done) => {
    let ticks = 0;
    const total = Math.round(seconds * hz);
    const timer = setInterval(() => {
      ticks++;
      for (const match of matches) {
        const t = ++match.tick;
        for (let p = 0; p < 2; p++) {
          const ws = match.players[p];
          if (ws.readyState === ws.OPEN) ws.send(`input ${match.id} ${t} ${inputOf(p, t)}`);
        }
        match.sent.set(t, performance.now());
      }
      if (faults && ticks % hz === 0) {
        garbage.send('frobnicate'); garbage.send(`input m0 1 zz`); garbage.send(`stats ${'y'.repeat(1100)}`);
        const victim = matches[(ticks / hz - 1) % matches.length];
        const old = victim.players[1];
        victim.players[1] = { readyState: 3, OPEN: 1 }; // not open: the drive skips it until the rejoin
        old.close();
        connect(url, victim.onPlayer(1)).then((ws) => { ws.send(`rejoin ${victim.id} 1 ${victim.tokens[1]}`); victim.players[1] = ws; });
      }
      if (ticks >= total) { clearInterval(timer); done(); }
    }, 1000 / hz);
  });
  const wall = (performance.now() - t0) / 1000;
  // Let the last ticks confirm (messages in flight), then measure.
  const waitAll = async () => {
    for (let i = 0; i < 200 && matches.some((x) => x.confirmed < x.tick); i++) await new Promise((r) => setImmediate(r));
  };
  await waitAll();
  const after = procStat(pid);
  const nodeCpu = process.cpuUsage(nodeBefore);
  const perMatch = matches.map((x) => x.confirmed / wall).sort((a, b) => a - b);
  const lat = matches.flatMap((x) => x.latencies).sort((a, b) => a - b);
  const q = (a, f) => a[Math.min(a.length - 1, Math.floor(f * a.length))] ?? NaN;
  // Verify the first `verify` matches' confirmed streams against a wasm run of the same inputs.
  let verified = 0;
  for (const match of matches.slice(0, verify)) {
    const run = sim.openScenario('input');
    for (const line of match.confirmedLines) {
      const [, , t, hash, in0, in1] = line.split(' ');
      if (Number(t) !== run.tick + 1) break;
      const a = fromHex(in0), b = fromHex(in1);
      const c = new Uint8Array(a.length + b.length);
      c.set(a); c.set(b, a.length);
      run.step(c);
      if (run.stateHash().toString(16).padStart(16, '0') !== hash) { desyncs++; break; }
      verified++;
    }
    run.dispose();
  }
  for (const x of matches) for (const ws of [...x.players, x.spectator]) ws.close();
  garbage?.close();
  await relay.close();
  server.close();
  return {
    n, wall, minHz: perMatch[0], medianHz: q(perMatch, 0.5), p50: q(lat, 0.5), p99: q(lat, 0.99),
    cpu: (100 * (after.cpu - before.cpu)) / wall, nodeCpu: (nodeCpu.user + nodeCpu.system) / 1e4 / wall, rss: after.rss, perMatchKb: (after.rss - idle.rss) / n / 1024,
    msgs: messages / wall, desyncs, verified, rejoins, playerErrors,
  };
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`match_load: laige-peer --serve --threads ${threads}, ${hz} Hz, ${seconds} s per size, verify ${verify}, faults ${faults ? 'on' : 'off'}; node ${process.version}; load ${load()}`);
console.log('| matches | ticks/s per match (min / median) | input->confirm p50 / p99 (ms) | server CPU (% of a core) | relay + clients CPU (one Node thread, %) | server RSS (MB; per match KB above the idle server) | messages/s | desyncs | ticks verified in wasm | rejoins (refusals to players) |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const n of sizes) {
  const r = await runSize(n);
  console.log(`| ${r.n} | ${r.minHz.toFixed(1)} / ${r.medianHz.toFixed(1)} | ${r.p50.toFixed(2)} / ${r.p99.toFixed(2)} | ${r.cpu.toFixed(0)} | ${r.nodeCpu.toFixed(0)} | ${(r.rss / 1048576).toFixed(1)}; ${r.perMatchKb.toFixed(0)} | ${r.msgs.toFixed(0)} | ${r.desyncs} | ${r.verified} | ${r.rejoins} (${r.playerErrors}) |`);
}
console.log(`load after: ${load()}`);
process.exit(0);
