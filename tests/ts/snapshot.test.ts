// World.snapshot / snapshotInto / restore (docs/snapshots.md): the bytes of
// a scenario state equal the natively minted golden file (the portability
// check), the golden bytes restore here and continue the golden stream (the
// cross restore), a TypeScript-systems world rolls back tick for tick, and
// every bad-bytes case throws the core's reason and changes nothing.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LaigeError } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

const goldenDir = new URL('../golden/', import.meta.url);
const goldenBytes = new Uint8Array(readFileSync(new URL('snapshot_swarm_t60.bin', goldenDir)));
const goldenLine = readFileSync(new URL('snapshot_swarm_t60.fnv', goldenDir), 'utf8');
const swarmStream = readFileSync(new URL('swarm.txt', goldenDir), 'utf8').split('\n');
const hex = (h: bigint) => h.toString(16).padStart(16, '0');

function fnv1a64(bytes: Uint8Array): bigint {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h;
}

function reason(fn: () => unknown): string {
  const e = thrown(fn);
  expect(e).toBeInstanceOf(LaigeError);
  return (e as LaigeError).reason;
}

describe('snapshot portability', () => {
  it('swarm at tick 60: the same bytes as the native golden file', () => {
    using run = sim.openScenario('swarm');
    for (let t = 0; t < 60; t++) run.step();
    const bytes = run.world.snapshot();
    expect(`${hex(fnv1a64(bytes))} ${bytes.length}\n`).toBe(goldenLine);
    expect(Buffer.from(bytes).equals(Buffer.from(goldenBytes))).toBe(true);
  });

  it('the native golden bytes restore here and continue the golden stream', () => {
    using run = sim.openScenario('swarm');
    run.step();
    run.world.restore(goldenBytes);
    expect(run.tick).toBe(60);
    for (let t = 60; t <= 120; t++) {
      if (t > 60) run.step();
      expect(`${t} ${hex(run.stateHash())}`).toBe(swarmStream[t]);
    }
  });
});

function tsWorld() {
  const w = sim.createWorld({ capacity: 256, seed: 0x5eedn });
  const P = w.registerComponent('P', { x: 'i32', y: 'fx' });
  const T = w.registerComponent('T', {});
  // One system spawns, moves and culls (both components declared 'write':
  // the core enforces the declared io, and a component has one writer).
  w.registerSystem({
    name: 'Step', budgetMs: 5, io: [[P, 'write'], [T, 'write']],
    run(ctx) {
      const r = ctx.rng!.nextRange(0, 4);
      const e = ctx.world.create();
      ctx.world.add(e, P, { x: r, y: 0 });
      if (r === 0) ctx.world.add(e, T, {});
      const cull: number[] = [];
      ctx.each([P], ['write'], (h, p) => {
        p.x += ctx.rng!.nextRange(1, 3);
        if (p.x > 40) cull.push(h);
      });
      for (const h of cull) ctx.world.destroy(h);
    },
  });
  w.scheduleSystems();
  return { w, P, T };
}

describe('snapshot round trip (TypeScript systems)', () => {
  it('restore then the same ticks: the same hashes, handles and archetype ids', () => {
    const { w, P, T } = tsWorld();
    for (let t = 0; t < 30; t++) w.runSystems();
    const at = w.snapshot();
    const hashes: bigint[] = [];
    for (let t = 0; t < 30; t++) {
      w.runSystems();
      hashes.push(w.stateHash(w.systemTicksRun));
    }
    const e1 = w.create();
    w.add(e1, T, {});
    const arch = w.archetypeOf(e1);
    w.restore(at);
    expect(w.systemTicksRun).toBe(30);
    for (let t = 0; t < 30; t++) {
      w.runSystems();
      expect(w.stateHash(w.systemTicksRun)).toBe(hashes[t]);
    }
    expect(w.create()).toBe(e1);
    w.add(e1, T, {});
    expect(w.archetypeOf(e1)).toBe(arch);
    expect(w.get(e1, P)).toBeUndefined();
    w.dispose();
  });

  it('snapshotInto writes the same bytes and reports its size', () => {
    const { w } = tsWorld();
    for (let t = 0; t < 5; t++) w.runSystems();
    const a = w.snapshot();
    const buf = new Uint8Array(a.length + 16).fill(0xee);
    expect(w.snapshotInto(buf)).toBe(a.length);
    expect(Buffer.from(buf.subarray(0, a.length)).equals(Buffer.from(a))).toBe(true);
    expect(buf[a.length]).toBe(0xee);
    const short = new Uint8Array(a.length - 1);
    const e = thrown(() => w.snapshotInto(short)) as LaigeError;
    expect(e.reason).toBe('snapshot_buffer_too_small');
    expect(e.code).toBe('budget_exhausted');
    expect(e.fields).toMatchObject({ needed: a.length, given: a.length - 1 });
    expect(short.every((b) => b === 0)).toBe(true);
    expect(reason(() => w.snapshotInto([1, 2] as never))).toBe('wrong_type');
    w.dispose();
  });
});

describe('query caches after a restore', () => {
  it('a query object and world.each see the archetypes a restore left, also once their ids name other sets', () => {
    const w = sim.createWorld({ capacity: 64 });
    const A = w.registerComponent('A', { v: 'i32' });
    const B = w.registerComponent('B', { v: 'i32' });
    const D = w.registerComponent('D', { v: 'i32' });
    const e0 = w.create();
    w.add(e0, A, { v: 1 });
    const at = w.snapshot();
    const q = w.query({ d: D.read });
    const viaQuery = () => { const out: number[] = []; q.each((e, { d }) => { out.push(e, d.v); }); return out; };
    const viaEach = () => { const out: number[] = []; w.each([D], ['read'], (e, d) => { out.push(e, d.v); }); return out; };
    const e1 = w.create();
    w.add(e1, D, { v: 7 }); // {D} gets archetype 2; both caches match it
    expect(viaQuery()).toEqual([e1, 7]);
    expect(viaEach()).toEqual([e1, 7]);
    w.restore(at);
    expect(w.archetypeCount).toBe(1);
    expect(viaQuery()).toEqual([]);
    expect(viaEach()).toEqual([]);
    const e2 = w.create();
    w.add(e2, B, { v: 3 }); // {B} now has id 2 (it was {D}'s)
    const e3 = w.create();
    w.add(e3, D, { v: 9 }); // {D}: id 3
    expect(w.archetypeOf(e2)).toBe(2);
    expect(viaQuery()).toEqual([e3, 9]);
    expect(viaEach()).toEqual([e3, 9]);
    expect(q.count()).toBe(1);
    w.dispose();
  });
});

describe('bad bytes change nothing', () => {
  it('truncated, flipped, trailing, another version, another setup, not bytes', () => {
    const { w: src } = tsWorld();
    for (let t = 0; t < 12; t++) src.runSystems();
    const good = src.snapshot();
    const { w } = tsWorld();
    for (let t = 0; t < 3; t++) w.runSystems();
    const before = w.stateHash(1);
    const beforeBytes = w.snapshot();
    for (const n of [0, 1, 7, 8, 40, 63, 64, 100, good.length - 1]) {
      expect(reason(() => w.restore(good.subarray(0, n)))).toBe('snapshot_truncated');
    }
    for (const at of [0, 12, 70, 200, good.length - 3]) {
      const bad = good.slice();
      bad[at]! ^= 0x10;
      expect(reason(() => w.restore(bad))).toBe('snapshot_corrupt');
    }
    const trailing = new Uint8Array(good.length + 1);
    trailing.set(good);
    expect(reason(() => w.restore(trailing))).toBe('snapshot_trailing_bytes');
    const v2 = good.slice();
    v2[8] = 3; // versions 1 and 2 are read
    const ve = thrown(() => w.restore(v2)) as LaigeError;
    expect(ve.reason).toBe('snapshot_version');
    expect(ve.fields).toMatchObject({ version: 3, supported: 2 });
    const other = sim.createWorld({ capacity: 256 });
    other.registerComponent('P', { x: 'i32', y: 'i32' });
    other.registerComponent('T', {});
    const se = thrown(() => w.restore(other.snapshot())) as LaigeError;
    expect(se.reason).toBe('snapshot_setup_mismatch');
    expect(se.message).toContain('snapshot');
    expect(reason(() => w.restore('bytes' as never))).toBe('wrong_type');
    expect(w.stateHash(1)).toBe(before);
    expect(Buffer.from(w.snapshot()).equals(Buffer.from(beforeBytes))).toBe(true);
    w.dispose();
    src.dispose();
    other.dispose();
  });

  it('restore inside each or a running system is refused', () => {
    const { w, P } = tsWorld();
    w.runSystems();
    const at = w.snapshot();
    w.runSystems();
    const before = w.stateHash(0);
    let inside = '';
    w.each([P], ['read'], () => {
      if (inside === '') inside = reason(() => w.restore(at));
    });
    expect(inside).toBe('restore_inside_callback');
    expect(w.stateHash(0)).toBe(before);
    let inDefer = '';
    w.defer(() => { inDefer = reason(() => w.restore(at)); });
    expect(inDefer).toBe('restore_inside_callback');
    expect(w.stateHash(0)).toBe(before);
    const v = sim.createWorld({ capacity: 8 });
    let inSystem = '';
    let own: Uint8Array = new Uint8Array(0);
    v.registerSystem({ name: 'R', budgetMs: 5, run(ctx) { inSystem = reason(() => ctx.world.restore(own)); } });
    v.scheduleSystems();
    own = v.snapshot();
    v.runSystems();
    expect(inSystem).toBe('restore_inside_callback');
    expect(v.systemTicksRun).toBe(1);
    v.restore(own);
    expect(v.systemTicksRun).toBe(0);
    w.dispose();
    v.dispose();
  });

  it('snapshot and restore inside a log handler are refused (the logging call is still working on the storage)', () => {
    const w = sim.createWorld({ capacity: 16 });
    w.registerComponent('P', { x: 'i32' });
    for (let i = 0; i < 3; i++) w.create();
    const at = w.snapshot();
    const before = w.stateHash(0);
    const seen: string[] = [];
    sim.setLogRateLimiting(false); // earlier worlds of this file logged the same event
    sim.onLog(() => {
      seen.push(reason(() => w.restore(at)), reason(() => w.snapshot()), reason(() => w.snapshotInto(new Uint8Array(4096))));
    });
    try {
      w.create(); // the 4th of 16: entity_budget_25 is logged inside create()
    } finally {
      sim.onLog(null);
      sim.setLogRateLimiting(true);
    }
    expect(seen.slice(0, 3)).toEqual(['call_inside_log_handler', 'call_inside_log_handler', 'call_inside_log_handler']);
    expect(w.entityCount).toBe(4);
    w.restore(at);
    expect(w.stateHash(0)).toBe(before);
    w.dispose();
  });
});
