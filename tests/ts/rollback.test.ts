// sim.createRollbackSession (docs/rollback.md): two sessions exchanging
// inputs through a simulated network (latency 0..8 ticks, jitter,
// reordering, duplicates; seeded) confirm exactly the hashes of a run that
// had every input in time, for 2,000 ticks: over a world of TypeScript
// systems, and over the C++ `input` scenario, where the confirmed hashes
// are the native golden stream tests/golden/rollback/input_confirmed_fast.txt
// (input_confirmed.txt with checksum 'stateHash') (the
// native-vs-wasm pairing: the native and wasm gtest check the same file).
// Then the refusals (reason, state hash unchanged), re-entrancy, and a
// TypeScript system that throws in the middle of a re-simulation.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LaigeError, type RollbackSession, type ScenarioRun, type World } from '../../dist/index.js';
import { DOCUMENTED_REASONS } from './support/reasons.js';
import { SimNetwork, inputScenarioPlayerInput, mix32 } from './support/rollback_net.js';
import { sim, thrown } from './support/sim.js';

const TICKS = 2000;
const FLUSH = 16;
const hex = (h: bigint) => h.toString(16).padStart(16, '0');

function reasonOf(fn: () => unknown): string {
  const e = thrown(fn);
  expect(e).toBeInstanceOf(LaigeError);
  const r = (e as LaigeError).reason;
  expect(DOCUMENTED_REASONS.has(r), `${r} is documented in docs/errors.md`).toBe(true);
  return r;
}

// --- a game of TypeScript systems ----------------------------------------

/** Player p's input for tick t: [vx, vy] as int8 and a fire flag, held 3 ticks; none 1 time in 5. */
function tsPlayerInput(p: number, t: number): Uint8Array {
  const h = mix32((Math.imul(Math.floor(t / 3), 0x27d4eb2d) ^ Math.imul(p + 1, 0x165667b1)) >>> 0);
  if (h % 5 === 0) return new Uint8Array(0);
  return Uint8Array.of(((h >>> 3) % 7) - 3 & 0xff, ((h >>> 6) % 7) - 3 & 0xff, ((h >>> 9) & 3) === 0 ? 1 : 0);
}

function lengthPrefixed(inputs: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(inputs.reduce((n, b) => n + 1 + b.length, 0));
  let o = 0;
  for (const b of inputs) {
    out[o++] = b.length;
    out.set(b, o);
    o += b.length;
  }
  return out;
}

/** Two pawns steered by the players' inputs fire shots that move, drift and expire. */
function tsGame(options: { throwAtTick?: { tick: number } } = {}): World {
  const w = sim.createWorld({ capacity: 512, seed: 0xb0b5n });
  const Pos = w.registerComponent('Pos', { x: 'i32', y: 'i32' });
  const Vel = w.registerComponent('Vel', { x: 'i32', y: 'i32' });
  const Pawn = w.registerComponent('Pawn', { shots: 'u32', player: 'u32' });
  const Shot = w.registerComponent('Shot', { ttl: 'i32' });
  const Tally = w.registerComponent('Tally', { live: 'u32', sum: 'i32', noise: 'u32' });
  for (let p = 0; p < 2; p++) {
    const e = w.create();
    w.add(e, Pos, { x: 100 + 300 * p, y: 500 });
    w.add(e, Vel, { x: 0, y: 0 });
    w.add(e, Pawn, { player: p, shots: 0 });
  }
  const tally = w.create();
  w.add(tally, Tally, { live: 0, sum: 0, noise: 0 });
  w.registerSystem({
    name: 'Control', budgetMs: 50, io: [[Pawn, 'write'], [Vel, 'write'], [Pos, 'write'], [Shot, 'write']],
    run(ctx) {
      if (options.throwAtTick !== undefined && ctx.tick === options.throwAtTick.tick) throw new Error(`boom at ${ctx.tick}`);
      const input = ctx.input;
      const byPlayer: Uint8Array[] = [];
      for (let o = 0; o < input.length;) {
        const n = input[o]!;
        byPlayer.push(input.subarray(o + 1, o + 1 + n));
        o += 1 + n;
      }
      const fire: { x: number; y: number; vx: number; vy: number }[] = [];
      ctx.each([Pawn, Vel, Pos], ['write', 'write', 'read'], (_e, pawn, vel, pos) => {
        const b = byPlayer[pawn.player];
        if (b === undefined || b.length < 3) return;
        vel.x = (b[0]! << 24) >> 24;
        vel.y = (b[1]! << 24) >> 24;
        if (b[2] === 1) {
          pawn.shots += 1;
          fire.push({ x: pos.x, y: pos.y, vx: vel.x * 2, vy: vel.y * 2 + 1 });
        }
      });
      for (const f of fire) {
        const s = ctx.world.create();
        ctx.world.add(s, Pos, { x: f.x, y: f.y });
        ctx.world.add(s, Vel, { x: f.vx + ctx.rng!.nextRange(0, 3) - 1, y: f.vy });
        ctx.world.add(s, Shot, { ttl: 15 + ctx.rng!.nextRange(0, 20) });
      }
      ctx.each([Pos, Vel], ['write', 'read'], (_e, pos, vel) => {
        pos.x = (((pos.x + vel.x) % 1024) + 1024) % 1024;
        pos.y = (((pos.y + vel.y) % 1024) + 1024) % 1024;
      });
      const expired: number[] = [];
      ctx.each([Shot], ['write'], (e, shot) => {
        shot.ttl -= 1;
        if (shot.ttl <= 0) expired.push(e);
      });
      for (const e of expired) ctx.world.destroy(e);
    },
  });
  w.registerSystem({
    name: 'Tally', budgetMs: 50, dependsOn: ['Control'], queries: { shots: { pos: Pos.read, shot: Shot.read }, tally: { t: Tally.write } },
    run(ctx) {
      let live = 0;
      let sum = 0;
      ctx.queries.shots.each((_e, { pos }) => {
        live++;
        sum = (sum + pos.x - pos.y) | 0;
      });
      const noise = ctx.rng!.nextU32();
      ctx.queries.tally.each((_e, { t }) => {
        t.live = live;
        t.sum = sum;
        t.noise = (t.noise ^ noise) >>> 0;
      });
    },
  });
  w.scheduleSystems();
  return w;
}

// --- two peers over the simulated network ----------------------------------

interface PeerRun {
  sessions: RollbackSession[];
  confirmed: Map<number, bigint>[];
}

function runPeers(make: () => World | ScenarioRun, options: { maxInputBytes: number; combine?: 'concatenate'; checksum?: 'fast' | 'stateHash' | 'columns' },
  input: (p: number, t: number) => Uint8Array, seed: number, delay: number): PeerRun {
  const net = new SimNetwork(seed, 8, 6);
  const targets = [make(), make()];
  const confirmed = [new Map<number, bigint>(), new Map<number, bigint>()];
  const sessions = targets.map((target, i) => sim.createRollbackSession(target, {
    players: 2, localPlayer: i, depth: 12, ...options,
    onConfirmed: (tick, hash) => { confirmed[i]!.set(tick, hash); },
  }));
  for (let now = 1; now <= TICKS + FLUSH; now++) {
    for (let i = 0; i < 2; i++) {
      const s = sessions[i]!;
      for (let t = now === 1 ? 1 : now + delay; t <= now + delay; t++) {
        const bytes = input(i, t);
        s.setLocalInput(t, bytes);
        net.send(now, i, 1 - i, t, bytes);
      }
      for (const m of net.deliver(now, i)) s.addRemoteInput(m.from, m.tick, m.bytes);
      const a = s.advance();
      expect(a.tick).toBe(now);
      expect(a.resimulatedTicks).toBe(a.rolledBackTicks);
    }
  }
  return { sessions, confirmed };
}

function expectConfirmedEqual(run: PeerRun, reference: (t: number) => string) {
  for (let i = 0; i < 2; i++) {
    const s = run.sessions[i]!;
    expect(s.confirmedTick).toBeGreaterThanOrEqual(TICKS);
    expect(run.confirmed[i]!.size).toBe(s.confirmedTick);
    for (let t = 1; t <= s.confirmedTick; t++) {
      const h = run.confirmed[i]!.get(t);
      if (h === undefined || hex(h) !== reference(t)) expect(`peer ${i} tick ${t} ${h === undefined ? 'missing' : hex(h)}`).toBe(`peer ${i} tick ${t} ${reference(t)}`);
    }
    expect(s.confirmedHash(s.confirmedTick)).toBe(run.confirmed[i]!.get(s.confirmedTick));
    const kept = s.confirmedHashes();
    expect(kept.length).toBe(64);
    expect(kept[63]!.tick).toBe(s.confirmedTick);
    for (const { tick, hash } of kept) expect(hash).toBe(run.confirmed[i]!.get(tick));
    expect(reasonOf(() => s.confirmedHash(s.confirmedTick - 64))).toBe('hash_unavailable');
    const st = s.stats;
    expect(st.advances).toBe(TICKS + FLUSH);
    expect(st.rollbacks).toBeGreaterThan(100);
    expect(st.predictionMisses).toBeGreaterThan(100);
    expect(st.duplicateInputs).toBeGreaterThan(50);
    expect(st.deepestRollback).toBeGreaterThanOrEqual(6);
    expect(st.deepestRollback).toBeLessThanOrEqual(8);
    console.log(`[rollback] peer ${i}: ${st.rollbacks} rollbacks, ${st.resimulatedTicks} re-simulated ticks, ${st.predictionMisses} misses, deepest ${st.deepestRollback}`);
  }
}

describe('two rollback sessions over a simulated network', () => {
  it('TypeScript systems: every confirmed hash is the no-latency run\'s, for 2,000 ticks', () => {
    const ref = tsGame();
    const refHashes: string[] = [''];
    for (let t = 1; t <= TICKS + FLUSH; t++) {
      ref.runSystems(lengthPrefixed([tsPlayerInput(0, t), tsPlayerInput(1, t)]));
      refHashes.push(hex(ref.stateHash(t)));
    }
    const run = runPeers(tsGame, { maxInputBytes: 3, checksum: 'stateHash' }, tsPlayerInput, 0x7a11, 1);
    expectConfirmedEqual(run, (t) => refHashes[t]!);
    for (const s of run.sessions) s.world.dispose();
    ref.dispose();
  });

  // The cached column checksum: TypeScript systems write through query refs
  // (the path that must forget a column's hash); two networks roll back at
  // different ticks, so a stale cached hash would show as a difference.
  it('checksum columns: both peers over two networks confirm the same hashes, for 2,000 ticks', () => {
    const a = runPeers(tsGame, { maxInputBytes: 3, checksum: 'columns' }, tsPlayerInput, 0x7a11, 1);
    const b = runPeers(tsGame, { maxInputBytes: 3, checksum: 'columns' }, tsPlayerInput, 0x51de, 1);
    const upTo = Math.min(...[...a.sessions, ...b.sessions].map((s) => s.confirmedTick));
    expect(upTo).toBeGreaterThanOrEqual(TICKS);
    for (let t = 1; t <= upTo; t++) {
      const h = a.confirmed[0]!.get(t);
      for (const other of [a.confirmed[1]!.get(t), b.confirmed[0]!.get(t), b.confirmed[1]!.get(t)]) {
        if (other !== h) expect(`tick ${t} ${String(other)}`).toBe(`tick ${t} ${String(h)}`);
      }
    }
    for (const s of [...a.sessions, ...b.sessions]) {
      expect(s.stats.rollbacks).toBeGreaterThan(100);
      s.world.dispose();
    }
  });

  // checksum 'stateHash': input_confirmed.txt; the default 'fast': input_confirmed_fast.txt
  // (both written by the native gtest, checked by the wasm one too).
  it.each([['stateHash', 'input_confirmed.txt'], ['fast', 'input_confirmed_fast.txt']] as const)('the C++ input scenario, checksum %s: the confirmed hashes are the native golden stream %s', (checksum, file) => {
    const golden = readFileSync(new URL(`../golden/rollback/${file}`, import.meta.url), 'utf8').split('\n');
    expect(golden[TICKS - 1]!.startsWith(`${TICKS} `)).toBe(true);
    const run = runPeers(() => sim.openScenario('input'), { maxInputBytes: 12, combine: 'concatenate', ...(checksum === 'fast' ? {} : { checksum }) }, inputScenarioPlayerInput, 0x5eed0001, 1);
    const fromGolden = (t: number) => (t <= TICKS ? golden[t - 1]!.slice(golden[t - 1]!.indexOf(' ') + 1) : '');
    // Past the golden's 2,000 ticks there is nothing to compare with.
    for (let i = 0; i < 2; i++) for (const t of [...run.confirmed[i]!.keys()]) if (t > TICKS) run.confirmed[i]!.delete(t);
    for (let i = 0; i < 2; i++) {
      for (let t = 1; t <= TICKS; t++) {
        const h = run.confirmed[i]!.get(t);
        if (h === undefined || hex(h) !== fromGolden(t)) expect(`peer ${i} tick ${t} ${h === undefined ? 'missing' : hex(h)}`).toBe(`peer ${i} tick ${t} ${fromGolden(t)}`);
      }
      expect(run.sessions[i]!.stats.rollbacks).toBeGreaterThan(100);
    }
    for (const s of run.sessions) s.scenario!.dispose();
  });
});

// --- refusals ----------------------------------------------------------------

function session(world: World, extra: Parameters<typeof sim.createRollbackSession>[1] = {}): RollbackSession {
  return sim.createRollbackSession(world, { players: 2, localPlayer: 0, depth: 8, maxInputBytes: 3, ...extra });
}

function advanceTo(s: RollbackSession, n: number) {
  while (s.currentTick < n) {
    s.setLocalInput(s.currentTick + 1, tsPlayerInput(0, s.currentTick + 1));
    s.advance();
  }
}

/** Expects `fn` to throw `reason` and change nothing (state hash, ticks, stats). */
function refused(s: RollbackSession, fn: () => unknown, reason: string) {
  const hash = s.world.stateHash(s.world.systemTicksRun);
  const before = JSON.stringify([s.currentTick, s.confirmedTick, s.pendingRollbackTick, s.stats]);
  expect(reasonOf(fn)).toBe(reason);
  expect(s.world.stateHash(s.world.systemTicksRun)).toBe(hash);
  expect(JSON.stringify([s.currentTick, s.confirmedTick, s.pendingRollbackTick, s.stats])).toBe(before);
}

describe('rollback refusals change nothing', () => {
  it('bad player, oversized input, wrong tick order, too late, conflict, missing local input', () => {
    const w = tsGame();
    const s = session(w);
    advanceTo(s, 20);
    refused(s, () => s.addRemoteInput(2, 19, Uint8Array.of(1)), 'player_invalid');
    refused(s, () => s.addRemoteInput(0, 19, Uint8Array.of(1)), 'player_invalid');
    refused(s, () => s.addRemoteInput(1, 19, new Uint8Array(4)), 'input_too_large');
    expect((thrown(() => s.setLocalInput(21, new Uint8Array(4))) as LaigeError).fields).toMatchObject({ size: 4, max: 3 });
    refused(s, () => s.addRemoteInput(1, 19, new Uint8Array(1 << 24)), 'input_too_large'); // refused before a byte is copied
    refused(s, () => s.setLocalInput(19, Uint8Array.of(9, 9, 9)), 'local_input_passed');
    refused(s, () => s.setLocalInput(20 + 33, Uint8Array.of(1)), 'input_too_early');
    refused(s, () => s.addRemoteInput(1, 12, Uint8Array.of(1)), 'input_too_late');
    expect((thrown(() => s.addRemoteInput(1, 12, Uint8Array.of(1))) as LaigeError).fields).toMatchObject({ tick: 12, oldest: 13 });
    refused(s, () => s.advance(), 'local_input_missing');
    s.addRemoteInput(1, 13, Uint8Array.of(1, 1, 0));
    refused(s, () => s.addRemoteInput(1, 13, Uint8Array.of(1, 1, 1)), 'input_conflict');
    refused(s, () => s.confirmedHash(1), 'hash_unavailable');
    refused(s, () => s.setLocalInput(21, [1, 2] as unknown as Uint8Array), 'wrong_type');
    refused(s, () => s.addRemoteInput(1, -1, Uint8Array.of(1)), 'out_of_range');
    // The late input rolls back 8 ticks on the next advance.
    s.setLocalInput(21, tsPlayerInput(0, 21));
    expect(s.advance()).toMatchObject({ tick: 21, rolledBackTicks: 8, resimulatedTicks: 8 });
    w.dispose();
    expect(s.disposed).toBe(true);
    expect(reasonOf(() => s.advance())).toBe('disposed');
  });

  it('options out of range and a scenario run\'s world', () => {
    const w = tsGame();
    // An integer out of range is the core's reason, with its fields; a non-integer is out_of_range.
    for (const [option, value, min, max] of [['players', 9, 1, 8], ['localPlayer', 2, 0, 1], ['depth', 0, 1, 120], ['maxInputBytes', 256, 0, 255],
      ['inputLead', 1025, 1, 1024], ['maxPredictionTicks', 9, 0, 8], ['hashHistory', 0, 1, 4096], ['maxCombinedBytes', 0, 1, 1 << 20]] as const) {
      const e = thrown(() => session(w, { depth: 8, [option]: value })) as LaigeError;
      expect(e.reason, option).toBe('rollback_option_invalid');
      expect(e.fields).toEqual({ where: 'createRollbackSession', option, value, min, max });
      expect(e.detail).toBe(`createRollbackSession: the session option '${option}' is ${value}, outside ${min}..${max}`);
    }
    expect(reasonOf(() => session(w, { players: 1.5 }))).toBe('out_of_range');
    expect(reasonOf(() => session(w, { depth: '8' as never }))).toBe('wrong_type');
    expect(reasonOf(() => session(w, { combine: 'sum' as never }))).toBe('invalid_value');
    expect(reasonOf(() => session(w, { checksum: 'xxh' as never }))).toBe('invalid_value');
    expect(reasonOf(() => session(w, { checksum: 1 as never }))).toBe('wrong_type');
    const run = sim.openScenario('input');
    expect(reasonOf(() => sim.createRollbackSession(run.world, {}))).toBe('scenario_world');
    run.dispose();
    w.dispose();
  });

  it('an onConfirmed that throws: advance ran its tick, called every callback, then rethrows', () => {
    const w = tsGame();
    const seen: number[] = [];
    const s = session(w, { onConfirmed: (tick) => { seen.push(tick); if (tick === 2) throw new TypeError('observer'); } });
    advanceTo(s, 3);
    for (let t = 1; t <= 4; t++) s.addRemoteInput(1, t, Uint8Array.of(0, 0, 0));
    s.setLocalInput(4, Uint8Array.of(1, 1, 0));
    expect(thrown(() => s.advance())).toBeInstanceOf(TypeError);
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(s.currentTick).toBe(4);
    expect(s.confirmedTick).toBe(4);
    w.dispose();
  });

  it('maxPredictionTicks: advance waits for the late peer', () => {
    const w = tsGame();
    const s = session(w, { maxPredictionTicks: 4 });
    advanceTo(s, 4);
    s.setLocalInput(5, Uint8Array.of(1, 0, 0));
    refused(s, () => s.advance(), 'prediction_limit');
    s.addRemoteInput(1, 1, Uint8Array.of(0, 1, 0));
    expect(s.advance().confirmed).toEqual([{ tick: 1, hash: s.confirmedHash(1) }]);
    w.dispose();
  });
});

describe('rollback re-entrancy and failures', () => {
  it('advance inside a system, and inputs, advance and dispose inside combine, are refused', () => {
    const w = sim.createWorld({ capacity: 16, seed: 1n });
    const C = w.registerComponent('C', { v: 'i32' });
    let inner: unknown = null;
    let s!: RollbackSession;
    w.registerSystem({ name: 'Inner', budgetMs: 50, io: [[C, 'write']], run() { if (inner === null) inner = thrown(() => s.advance()); } });
    w.scheduleSystems();
    const seen: string[] = [];
    s = sim.createRollbackSession(w, {
      players: 1, maxInputBytes: 2,
      combine: (tick, inputs) => {
        if (tick === 1) {
          seen.push((thrown(() => s.advance()) as LaigeError).reason);
          seen.push((thrown(() => s.setLocalInput(5, Uint8Array.of(1))) as LaigeError).reason);
          seen.push((thrown(() => s.dispose()) as LaigeError).reason);
          seen.push((thrown(() => w.dispose()) as LaigeError).reason);
        }
        return inputs[0]!;
      },
    });
    s.setLocalInput(1, Uint8Array.of(7));
    s.advance();
    expect((inner as LaigeError).reason).toBe('tick_inside_callback');
    expect(seen).toEqual(['tick_inside_callback', 'input_inside_advance', 'dispose_inside_call', 'dispose_inside_call']);
    s.dispose();
    w.dispose();
  });

  it('a TypeScript system that throws in the middle of a re-simulation: advance rethrows it and the world is as before', () => {
    const trap = { tick: 0 };
    const w = tsGame({ throwAtTick: trap });
    const s = session(w);
    advanceTo(s, 10);
    const hash10 = w.stateHash(10);
    s.setLocalInput(11, tsPlayerInput(0, 11));
    s.addRemoteInput(1, 4, Uint8Array.of(2, 2, 1)); // a miss: the next advance re-runs 4..10
    trap.tick = 7;
    const e = thrown(() => s.advance());
    expect((e as Error).message).toBe('boom at 7');
    expect(w.stateHash(10)).toBe(hash10);
    expect(s.currentTick).toBe(10);
    expect(s.pendingRollbackTick).toBe(4);
    trap.tick = 0;
    expect(s.advance()).toMatchObject({ tick: 11, rolledBackTicks: 7 });
    // The same as a run that had the input at tick 4 in time (player 1 silent before, then repeated).
    const ref = tsGame();
    for (let t = 1; t <= 11; t++) ref.runSystems(lengthPrefixed([tsPlayerInput(0, t), t >= 4 ? Uint8Array.of(2, 2, 1) : new Uint8Array(0)]));
    expect(w.stateHash(11)).toBe(ref.stateHash(11));
    // A combine function that throws: its error, and nothing changed.
    const w2 = tsGame();
    const s2 = session(w2, { combine: (tick) => { if (tick === 3) throw new RangeError('no'); return new Uint8Array(0); } });
    advanceTo(s2, 2);
    s2.setLocalInput(3, Uint8Array.of(1));
    const h2 = w2.stateHash(2);
    expect(thrown(() => s2.advance())).toBeInstanceOf(RangeError);
    expect(w2.stateHash(2)).toBe(h2);
    expect(s2.currentTick).toBe(2);
    for (const x of [w, ref, w2]) x.dispose();
  });
});
