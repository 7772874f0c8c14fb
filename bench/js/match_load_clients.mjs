// match_load_clients.mjs - the headless clients of bench/js/match_load.mjs,
// in a process of their own (child_process.fork), so that the clients' event
// loops are not the relay's: the parent sends { url, ids, hz, seconds,
// verify, faults, delayMs, drop, garbage } over IPC; this process connects
// each match's 2 players and 1 spectator (`ws`), answers 'ready', waits for
// 'go', drives the players at `hz` for `seconds`, then replies with its
// counters: per match the ticks confirmed and the input -> confirm latencies,
// desyncs, and the confirmed streams it replayed in wasm.
//
// The client shim's faults (--faults): every second one player of the next
// match in turn closes its socket and rejoins on a new one with its token;
// each outgoing message waits 0..delayMs ms (in order, as on one TCP
// stream); an `input` line is dropped with probability `drop`, and the
// player resends from the tick the server's `match_tick_order expected=<t>`
// names (docs/netplay-protocol.md#threading-model); process 0 also keeps a
// connection that sends garbage each second.
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { loadLaige } from '../../dist/scenarios.js';
import { prng } from '../../demo/src/netplay_net.js'; // mulberry32: the faults are the same run to run

const hex = (b) => (b.length === 0 ? '.' : Buffer.from(b).toString('hex'));
const fromHex = (s) => (s === '.' ? new Uint8Array(0) : new Uint8Array(Buffer.from(s, 'hex')));

async function run(o) {
  const sim = await loadLaige();
  const random = prng(0x10ad + o.ids.length * 7919 + (o.garbage ? 1 : 0));
  const inputs = new Map();
  const inputOf = (p, t) => {
    const k = `${p} ${t}`;
    let v = inputs.get(k);
    if (v === undefined) { v = hex(sim.scenarioPlayerInput('input', p, t)); inputs.set(k, v); }
    return v;
  };
  let shimOn = false;
  const c = { messages: 0, desyncs: 0, rejoins: 0, rejoinRetries: 0, playerErrors: 0, drops: 0, resends: 0, delayed: 0 };

  /** A socket whose sends go through the shim (delay, drop of `input` lines). */
  function connect(onMessage, shim) {
    const ws = new WebSocket(o.url);
    let due = 0;
    ws.on('message', (m) => { c.messages++; onMessage(String(m)); });
    const sendNow = (line) => { if (ws.readyState === ws.OPEN) ws.send(line); };
    ws.sendLine = (line) => {
      // The setup (create, join) goes as it is: a delayed create would race the join.
      const faulty = shim && shimOn;
      if (faulty && o.drop > 0 && line.startsWith('input ') && random() < o.drop) { c.drops++; return; }
      if (!faulty || o.delayMs <= 0) { sendNow(line); return; }
      // In order: never before the previous message.
      due = Math.max(due, performance.now() + random() * o.delayMs);
      c.delayed++;
      setTimeout(() => sendNow(line), Math.max(0, due - performance.now()));
    };
    return new Promise((ok, fail) => { ws.once('open', () => ok(ws)); ws.once('error', fail); });
  }

  const matches = [];
  for (const [index, id] of o.ids) {
    const match = { id, index, tick: 0, confirmed: 0, sent: new Map(), latencies: [], confirmedLines: [], tokens: [], players: [], lastSent: [0, 0], resend: [null, null] };
    const onPlayer = (p) => (line) => {
      if (line.startsWith(`joined ${id} player`)) {
        if (match.pending?.[p]) {
          // Rejoined: this socket plays from now on; a gap is resent from the server's `expected`.
          match.players[p] = match.pending[p];
          match.pending[p] = null;
          match.lastSent[p] = match.tick;
          match.resend[p] = null;
        }
        match.tokens[p] = line.split(' ')[4];
        match.joins = (match.joins ?? 0) + 1;
        if (match.joins > 2) c.rejoins++;
      } else if (line.startsWith('error match_tick_order ')) {
        // A dropped input: resend from the tick the server expects (once per gap).
        const f = Object.fromEntries(line.split(' ').slice(2).map((w) => w.split('=')));
        const expected = Number(f.expected);
        const got = Number(f.got);
        const r = match.resend[p];
        if (got < expected) return; // a resent tick that had arrived after all
        if (r !== null && r.from === expected && got <= r.upTo) return; // already resent
        match.resend[p] = { from: expected, upTo: match.lastSent[p] };
        for (let t = expected; t <= match.lastSent[p]; t++) { c.resends++; match.players[p].sendLine(`input ${id} ${t} ${inputOf(p, t)}`); }
      } else if (line.startsWith('error match_not_away ') && match.pending?.[p]) {
        // The old socket's close has not reached the server yet: ask again.
        c.rejoinRetries++;
        setTimeout(() => match.pending[p]?.send(`rejoin ${id} ${p} ${match.tokens[p]}`), 10);
      } else if (line.startsWith('error ')) {
        c.playerErrors++;
        if (c.playerErrors <= 3) console.error(`match_load client: player ${p} of ${id} got: ${line}`);
      }
      else if (line.startsWith(`start ${id}`)) match.started?.();
      else if (line.startsWith(`desync ${id}`)) c.desyncs++;
    };
    match.onPlayer = onPlayer;
    const started = new Promise((ok) => { match.started = ok; });
    match.players[0] = await connect(onPlayer(0), o.faults);
    match.players[0].sendLine(`create ${id} input 2`);
    match.players[1] = await connect(onPlayer(1), o.faults);
    match.players[1].sendLine(`join ${id} player`);
    match.spectator = await connect((line) => {
      if (!line.startsWith(`confirmed ${id} `)) return;
      const [, , t, hash] = line.split(' ');
      const tick = Number(t);
      match.confirmed = tick;
      const sent = match.sent.get(tick);
      if (sent !== undefined) { match.latencies.push(performance.now() - sent); match.sent.delete(tick); }
      if (index < o.verify) match.confirmedLines.push(line);
      if (tick % 30 === 0) for (const p of match.players) if (p.readyState === p.OPEN) p.sendLine(`hash ${id} ${tick} ${hash}`);
    }, false);
    match.spectator.send(`join ${id} spectator`);
    await started;
    matches.push(match);
  }
  const garbage = o.garbage ? await connect(() => {}, false) : null;
  process.send({ type: 'ready' });
  await new Promise((ok) => process.once('message', ok));

  const t0 = performance.now();
  shimOn = true;
  await new Promise((done) => {
    let ticks = 0;
    const total = Math.round(o.seconds * o.hz);
    const timer = setInterval(() => {
      ticks++;
      for (const match of matches) {
        const t = ++match.tick;
        for (let p = 0; p < 2; p++) {
          const ws = match.players[p];
          if (ws.readyState !== ws.OPEN) continue;
          ws.sendLine(`input ${match.id} ${t} ${inputOf(p, t)}`);
          match.lastSent[p] = t;
        }
        match.sent.set(t, performance.now());
      }
      if (o.faults && ticks % o.hz === 0 && matches.length > 0) {
        if (garbage !== null) { garbage.send('frobnicate'); garbage.send('input m0 1 zz'); garbage.send(`stats ${'y'.repeat(1100)}`); }
        const victim = matches[(ticks / o.hz - 1) % matches.length];
        const old = victim.players[1];
        victim.players[1] = { readyState: 3, OPEN: 1 }; // not open: the drive skips it until the rejoin
        old.close();
        connect(victim.onPlayer(1), true).then((ws) => {
          victim.pending = [null, ws]; // plays once its `joined` arrives
          ws.send(`rejoin ${victim.id} 1 ${victim.tokens[1]}`);
        });
      }
      if (ticks >= total) { clearInterval(timer); done(); }
    }, 1000 / o.hz);
  });
  const wall = (performance.now() - t0) / 1000;
  for (let i = 0; i < 400 && matches.some((x) => x.confirmed < x.tick); i++) await new Promise((r) => setTimeout(r, 5));

  // The first `verify` matches' confirmed streams against a wasm run of the same inputs.
  let verified = 0;
  for (const match of matches.filter((x) => x.index < o.verify)) {
    const r = sim.openScenario('input');
    for (const line of match.confirmedLines) {
      const [, , t, hash, in0, in1] = line.split(' ');
      if (Number(t) !== r.tick + 1) break;
      const a = fromHex(in0);
      const b = fromHex(in1);
      const cat = new Uint8Array(a.length + b.length);
      cat.set(a);
      cat.set(b, a.length);
      r.step(cat);
      if (r.stateHash().toString(16).padStart(16, '0') !== hash) { c.desyncs++; break; }
      verified++;
    }
    r.dispose();
  }
  const cpu = process.cpuUsage();
  for (const x of matches) for (const ws of [...x.players, x.spectator]) ws.close?.();
  garbage?.close();
  return {
    ...c, wall, verified, cpuSeconds: (cpu.user + cpu.system) / 1e6,
    matches: matches.map((x) => ({ id: x.id, confirmed: x.confirmed, tick: x.tick, latencies: x.latencies })),
  };
}

process.once('message', async (o) => {
  let reply;
  try {
    reply = { type: 'result', result: await run(o) };
  } catch (e) {
    reply = { type: 'error', error: e.stack ?? String(e) };
  }
  // Disconnect once the reply is written (a large one takes more than one write).
  process.send(reply, () => process.disconnect());
});
