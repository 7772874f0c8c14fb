// match_late_join.mjs - a late join measured end to end on loopback
// (docs/netplay-protocol.md#what-a-late-join-costs): one match of a scenario
// (default `stress`, 10,000 entities) played by 2 headless players at 60 Hz
// through demo/match_relay.mjs and `laige-peer --serve`; every ~1.3 s a new
// spectator (Node, `ws`, the @laige/sim package in wasm) joins it: it opens
// the scenario's world when `joined` names it, restores the `snapshot`, runs
// the `confirmed` lines and reports its hash of every tick from the tick the
// players were at when it asked. Per join: the time from the join request to
// the snapshot's arrival, to the restore, and to the first server `ok`
// verdict for a tick at or past the join tick (in sync: its confirmed hash is
// everyone's), the bytes (snapshot line, confirmed tail, and what the socket
// read), with and without permessage-deflate (joins alternate: the relay
// compresses replies of 4 KiB or more for a client that offers it). Then the
// snapshot line through node:zlib (deflate-raw levels 1, 6, 9) against raw,
// alternating, best of 5.
//
//   npm run build && bash scripts/build.sh native-release:laige-peer
//   node bench/js/match_late_join.mjs [--scenario stress] [--joins 10] [--snapshot-every 60] [--hz 60]
//
// Bounded: at most 40 joins (about a minute).
import { createServer } from 'node:http';
import { deflateRawSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { attachMatchServer } from '../../demo/match_relay.mjs';
import { findPeerBinary } from '../../demo/peer_server.mjs';
import { loadLaige } from '../../dist/scenarios.js';
import { MatchClient } from '../../dist/index.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : process.argv[i + 1];
};
const scenario = String(arg('scenario', 'stress'));
const joins = Math.min(40, Number(arg('joins', 10)));
const snapshotEvery = Number(arg('snapshot-every', 60));
const hz = Number(arg('hz', 60));
const bin = findPeerBinary();
if (bin === null) throw new Error('laige-peer is not built: bash scripts/build.sh native-release:laige-peer');
const sim = await loadLaige({ initialMemoryBytes: 256 * 1024 * 1024 });

const server = createServer((_q, r) => r.writeHead(404).end());
const relay = attachMatchServer(server, { bin, threads: 2, snapshotEvery, log: () => {} });
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const url = `ws://127.0.0.1:${server.address().port}/match`;
await relay.ready;

function connect(onLine, perMessageDeflate = true) {
  const ws = new WebSocket(url, { perMessageDeflate });
  const client = new MatchClient((l) => ws.send(l));
  ws.on('message', (m) => onLine(String(m), client));
  return new Promise((ok, fail) => { ws.once('open', () => ok({ ws, client })); ws.once('error', fail); });
}

// Two players sending the empty input every tick (the scenario's systems do not read it).
let tick = 0;
let seed = null;
const started = new Promise((ok) => {
  connect((line, c) => { const m = c.receive(line); if (m.type === 'start') ok(); })
    .then(async (p0) => {
      p0.client.create('late', scenario, 2);
      const p1 = await connect(() => {});
      p1.client.join('late', 'player');
      players.push(p0, p1);
    });
});
const players = [];
await started;
const timer = setInterval(() => {
  tick++;
  for (const p of players) p.client.input('late', tick, new Uint8Array(0));
}, 1000 / hz);

/** One late spectator: resolves to its timings and byte counts. */
function lateJoin(deflate) {
  return new Promise((resolve, reject) => {
    let t0 = 0;
    let joinTick = 0;
    let run = null;
    const r = { deflate, snapshotLine: 0, tailLines: 0, tailBytes: 0 };
    let readAtJoin = 0;
    let done = false;
    connect((line, c) => {
      if (done) return;
      const m = c.receive(line);
      if (m.type === 'joined') {
        seed = m.seed;
        run = sim.openScenario(m.scenario, { seed: m.seed });
        r.openedMs = performance.now() - t0;
      } else if (m.type === 'snapshot') {
        r.snapshotMs = performance.now() - t0;
        r.snapshotTick = m.tick;
        r.snapshotLine = line.length;
        r.snapshotBytes = m.bytes.length;
        run.world.restore(m.bytes);
        r.restoredMs = performance.now() - t0;
        r.entities = run.world.entityCount;
        if (m.tick >= joinTick) r.tailRunMs = r.restoredMs;
        r.snapshot = line;
      } else if (m.type === 'confirmed') {
        if (m.tick <= joinTick) { r.tailLines++; r.tailBytes += line.length; }
        const combined = new Uint8Array(m.inputs.reduce((n, b) => n + b.length + 1, 0));
        let at = 0;
        for (const b of m.inputs) { combined[at++] = b.length; combined.set(b, at); at += b.length; }
        run.step(combined);
        const h = run.stateHash();
        if (h !== m.hash) reject(new Error(`tick ${m.tick}: the joiner's hash differs from the server's line`));
        if (m.tick >= joinTick && r.syncedMs === undefined) c.hash('late', m.tick, h);
        if (m.tick === joinTick) r.tailRunMs = performance.now() - t0;
      } else if (m.type === 'verdict' && m.tick >= joinTick && r.syncedMs === undefined) {
        r.syncedMs = performance.now() - t0;
        r.syncedTick = m.tick;
        r.wireBytes = sock.ws._socket.bytesRead - readAtJoin;
        done = true;
        sock.ws.close();
        run.dispose();
        const { snapshot, ...rest } = r;
        resolve({ ...rest, snapshotHex: snapshot });
      } else if (m.type === 'desync' || m.type === 'error') {
        reject(new Error(line));
      }
    }, deflate).then((s) => {
      sock = s;
      readAtJoin = s.ws._socket.bytesRead;
      joinTick = tick;
      r.joinTick = joinTick;
      t0 = performance.now();
      s.client.join('late', 'spectator');
    }, reject);
    let sock = null;
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = [];
await new Promise((r) => setTimeout(r, 1500)); // the match runs for a while first
for (let j = 0; j < joins; j++) {
  results.push(await lateJoin(j % 2 === 1));
  await new Promise((r) => setTimeout(r, 1300 + ((j * 337) % 500)));
}
clearInterval(timer);
for (const p of players) p.ws.close();
await relay.close();
await new Promise((r) => server.close(r));

for (const deflate of [false, true]) {
  const rs = results.filter((r) => r.deflate === deflate);
  const f = (k) => `${median(rs.map((r) => r[k])).toFixed(1)} (max ${Math.max(...rs.map((r) => r[k])).toFixed(1)})`;
  console.log(`${deflate ? 'permessage-deflate' : 'raw'}: ${rs.length} joins of ${scenario} (${rs[0].entities} entities, ${rs[0].snapshotBytes} B snapshot), median (max) ms from the join request:`);
  console.log(`  world opened ${f('openedMs')}, snapshot in ${f('snapshotMs')}, restored ${f('restoredMs')}, tail run ${f('tailRunMs')}, server ok ${f('syncedMs')}`);
  console.log(`  bytes: snapshot line ${median(rs.map((r) => r.snapshotLine))}, tail ${median(rs.map((r) => r.tailLines))} lines / ${median(rs.map((r) => r.tailBytes))} B, read by the socket ${median(rs.map((r) => r.wireBytes))} (max ${Math.max(...rs.map((r) => r.wireBytes))})`);
}

// The snapshot line through zlib (deflate-raw), against the raw bytes; alternating, best of 5.
const line = results.at(-1).snapshotHex;
const raw = Buffer.from(line.slice(line.lastIndexOf(' ') + 1), 'hex');
const kinds = [['hex line', Buffer.from(line)], ['raw bytes', raw]];
const best = new Map();
for (let rep = 0; rep < 5; rep++) {
  for (const [name, buf] of kinds) {
    for (const level of [1, 6, 9]) {
      const t = performance.now();
      const out = deflateRawSync(buf, { level });
      const ms = performance.now() - t;
      const k = `${name} ${level}`;
      const b = best.get(k);
      if (b === undefined || ms < b.ms) best.set(k, { ms, bytes: out.length, of: buf.length });
    }
  }
}
console.log(`zlib deflate-raw of the snapshot (node:zlib ${process.versions.zlib}), best of 5:`);
for (const [k, v] of best) console.log(`  ${k.padEnd(12)} ${v.of} -> ${v.bytes} B (${(v.of / v.bytes).toFixed(1)}x) in ${v.ms.toFixed(2)} ms`);
const all = results.map((r) => r.syncedMs);
console.log(`in sync: median ${median(all).toFixed(0)} ms, max ${Math.max(...all).toFixed(0)} ms over ${results.length} joins (target 2,000 ms); seed 0x${seed?.toString(16)}`);
