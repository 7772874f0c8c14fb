// Time travel over a replay (sim.openReplay, docs/replay.md#time-travel):
// keyframed recordings (LGRP v3; v2 without keyframes, byte for byte as
// before), seeks in random order equal the live run at every tick, a C++
// scenario's recording against the native golden stream, and every bad
// input refused with its reason and nothing changed.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LaigeError, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

function setup(w: World): void {
  const P = w.registerComponent('P', { v: 'i32', n: 'u32' });
  w.registerSystem({
    name: 'Fold', budgetMs: 100, io: [[P, 'write']],
    run(ctx) {
      const b = ctx.input.length > 0 ? ctx.input[0]! : 0;
      const r = ctx.rng!.nextRange(0, 1000);
      ctx.each([P], ['write'], (_e, p) => { p.v = (p.v * 31 + b + r) | 0; p.n += 1; });
      if (b === 7) {
        const e = ctx.world.create();
        ctx.world.add(e, P, { v: r, n: 0 });
      }
    },
  });
  for (let i = 0; i < 3; i++) w.add(w.create(), P, { v: i, n: 0 });
}
const input = (t: number): Uint8Array => new Uint8Array([t % 11, t & 0xff]);
const options = { world: { capacity: 64 }, setup, tickRateHz: 60 } as const;

/** Records `ticks` ticks with keyframes every `k` (0 = none): the log and the live hashes. */
function record(ticks: number, k: number): { log: Uint8Array; hashes: bigint[] } {
  const w = sim.createWorld({ capacity: 64, seed: 0x77n });
  setup(w);
  const rec = sim.recordReplay(w, { tickRateHz: 60, ...(k > 0 ? { keyframeEvery: k } : {}) });
  const hashes = [w.stateHash(0)];
  for (let t = 1; t <= ticks; t++) {
    rec.step(input(t));
    hashes.push(w.stateHash(t));
  }
  const log = rec.finish();
  w.dispose();
  return { log, hashes };
}

function rejected(fn: () => unknown): LaigeError {
  const e = thrown(fn);
  expect(e).toBeInstanceOf(LaigeError);
  return e as LaigeError;
}

/** FNV-1a-64 of the bytes before the trailer, written into the trailer (a re-sealed edit). */
function rehash(b: Uint8Array): void {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < b.length - 16; i++) h = ((h ^ BigInt(b[i]!)) * 0x100000001b3n) & 0xffffffffffffffffn;
  new DataView(b.buffer, b.byteOffset).setBigUint64(b.length - 8, h, true);
}

describe('keyframed recordings', () => {
  it('keyframeEvery writes a version 3 log with a keyframe at 0 and every K-th tick', () => {
    const { log } = record(50, 12);
    const info = sim.parseReplay(log);
    expect(info.formatVersion).toBe(3);
    expect(info.keyframes.map((k) => k.tick)).toEqual([0, 12, 24, 36, 48]);
    expect(info.frameCount).toBe(50);
  });

  it('without keyframes the log is the version 2 bytes of before', () => {
    const a = record(30, 0).log;
    const w = sim.createWorld({ capacity: 64, seed: 0x77n });
    setup(w);
    const rec = sim.recordReplay(w, { tickRateHz: 60, keyframeEvery: 0 });
    for (let t = 1; t <= 30; t++) rec.step(input(t));
    expect(rec.keyframeCount).toBe(0);
    expect(rec.finish()).toEqual(a);
    expect(sim.parseReplay(a).formatVersion).toBe(2);
    expect(sim.parseReplay(a).keyframes).toEqual([]);
    w.dispose();
  });

  it('a frame that takes a keyframe needs the world at that tick (keyframe_tick, nothing written)', () => {
    const w = sim.createWorld({ capacity: 64, seed: 0x77n });
    setup(w);
    const rec = sim.recordReplay(w, { keyframeEvery: 2 });
    expect(rec.keyframeCount).toBe(1);
    rec.writeFrame(1, input(1)); // no keyframe due at tick 1: the world may lag
    const e = rejected(() => rec.writeFrame(2, input(2)));
    expect(e.reason).toBe('keyframe_tick');
    expect(e.fields).toMatchObject({ where: 'ReplayRecorder.writeFrame', tick: 2, world_tick: 0 });
    expect(rec.frameCount).toBe(1);
    expect(rec.keyframeCount).toBe(1);
    rec.dispose();
    w.runSystems();
    const late = rejected(() => sim.recordReplay(w, { keyframeEvery: 5 }));
    expect(late.reason).toBe('keyframe_tick');
    expect(late.fields).toMatchObject({ tick: 0, world_tick: 1 });
    expect(rejected(() => sim.recordReplay(w, { keyframeEvery: -1 })).reason).toBe('out_of_range');
    w.dispose();
  });

  it('maxBytes counts the keyframes', () => {
    const w = sim.createWorld({ capacity: 64, seed: 0x77n });
    setup(w);
    const snap = w.snapshot().length;
    const e = rejected(() => sim.recordReplay(w, { keyframeEvery: 4, maxBytes: 40 + 12 + snap - 1 }));
    expect(e.code).toBe('budget_exhausted');
    expect(w.systemTicksRun).toBe(0);
    w.dispose();
  });
});

describe('ReplayPlayer', () => {
  for (const k of [0, 1, 7, 40]) {
    it(`K = ${k}: seeks in random order, steps and steps back equal the live run`, () => {
      const { log, hashes } = record(60, k);
      using p = sim.openReplay(log, options);
      expect(p.tick).toBe(0);
      expect(p.tickCount).toBe(60);
      let s = 12345 + k;
      for (let i = 0; i < 80; i++) {
        s = (s * 1103515245 + 12345) >>> 0;
        const t = s % 61;
        p.seek(t);
        expect(p.tick).toBe(t);
        expect(p.stateHash()).toBe(hashes[t]);
        expect(p.world.stateHash(t)).toBe(hashes[t]);
      }
      p.seek(0);
      for (let t = 1; t <= 60; t++) {
        p.step();
        expect(p.stateHash()).toBe(hashes[t]);
      }
      for (let t = 59; t >= 0; t--) {
        p.stepBack();
        expect(p.stateHash()).toBe(hashes[t]);
      }
    });
  }

  it('the world it drives is readable at every tick (each, get)', () => {
    const { log } = record(20, 5);
    using p = sim.openReplay(log, options);
    p.seek(14);
    const P = p.world.component<{ v: 'i32'; n: 'u32' }>('P')!;
    let n = 0;
    p.world.each([P], ['read'], (_e, v) => { n += v.n; });
    expect(n).toBeGreaterThan(3 * 14 - 1);
    expect(p.keyframeTicks).toEqual([0, 5, 10, 15, 20]);
    expect(p.stats().restores).toBeGreaterThan(0);
    expect(String(p)).toBe('ReplayPlayer(tick 14 of 20, 5 keyframes)');
  });

  it('a C++ scenario run: every tick equals the native golden stream', () => {
    const golden = readFileSync(new URL('../golden/swarm.txt', import.meta.url), 'utf8').trim().split('\n').map((l) => BigInt(`0x${l.split(' ')[1]}`));
    const run = sim.openScenario('swarm');
    const rec = sim.recordReplay(run.world, { tickRateHz: run.info.tickRateHz, keyframeEvery: 50 });
    for (let t = 1; t <= 300; t++) {
      const inp = run.generatedInput(t);
      run.step(inp);
      rec.writeFrame(t, inp);
    }
    const log = rec.finish();
    run.dispose();
    using p = sim.openReplay(log, { scenario: 'swarm' });
    for (const t of [300, 0, 173, 50, 99, 251, 1]) {
      p.seek(t);
      expect(p.stateHash()).toBe(golden[t]);
    }
    p.stepBack();
    expect(p.stateHash()).toBe(golden[0]);
  });
});

describe('ReplayPlayer: bad input is refused and nothing changes', () => {
  const { log } = record(30, 10);

  it('ticks outside the history, wrong types', () => {
    using p = sim.openReplay(log, options);
    p.seek(17);
    const hash = p.stateHash();
    const snap = p.world.snapshot();
    const out = rejected(() => p.seek(31));
    expect(out.code).toBe('invalid_argument');
    expect(out.reason).toBe('tick_out_of_range');
    expect(out.fields).toMatchObject({ tick: 31, tick_count: 30 });
    for (const bad of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1]) expect(rejected(() => p.seek(bad)).reason).toBe('out_of_range');
    for (const bad of ['3', 3n, null, undefined]) expect(rejected(() => p.seek(bad as unknown as number)).reason).toBe('wrong_type');
    expect(p.tick).toBe(17);
    expect(p.stateHash()).toBe(hash);
    expect(p.world.snapshot()).toEqual(snap);
    p.seek(30);
    expect(rejected(() => p.step()).reason).toBe('tick_out_of_range');
    p.seek(0);
    const zero = p.world.snapshot();
    expect(rejected(() => p.stepBack()).reason).toBe('tick_out_of_range');
    expect(p.world.snapshot()).toEqual(zero);
  });

  it('a malformed keyframe section or a truncated file: parse_rejected', () => {
    const info = sim.parseReplay(log);
    const lastSnapshotByte = log.length - 16 - 8;
    const flipped = log.slice();
    flipped[lastSnapshotByte]! ^= 1;
    rehash(flipped);
    const e = rejected(() => sim.openReplay(flipped, options));
    expect(e.code).toBe('malformed_input');
    expect(e.reason).toBe('parse_rejected');
    expect(e.fields.reason).toBe('keyframe_snapshot_invalid');
    const late = log.slice();
    const at = log.length - 16 - info.keyframes[info.keyframes.length - 1]!.size - 12;
    new DataView(late.buffer).setUint32(at, 31, true); // the last keyframe's tick past the end
    rehash(late);
    expect(rejected(() => sim.openReplay(late, options)).fields.reason).toBe('keyframe_tick_range');
    for (const n of [log.length - 1, 100, 10]) expect(rejected(() => sim.openReplay(log.slice(0, n), options)).reason).toBe('parse_rejected');
    expect(rejected(() => sim.openReplay('log' as unknown as Uint8Array, options)).reason).toBe('wrong_type');
  });

  it('a wrong world setup: keyframe_mismatch or identity_mismatch, no player', () => {
    const otherSystems = (w: World): void => {
      const P = w.registerComponent('P', { v: 'i32', n: 'u32' });
      w.registerSystem({ name: 'Other', budgetMs: 100, io: [[P, 'write']], run() {} });
      for (let i = 0; i < 3; i++) w.add(w.create(), P, { v: i, n: 0 });
    };
    const e = rejected(() => sim.openReplay(log, { ...options, setup: otherSystems }));
    expect(e.reason).toBe('keyframe_mismatch');
    expect(e.fields).toMatchObject({ keyframe_tick: 0, cause: 'snapshot_setup_mismatch' });
    const moreEntities = (w: World): void => {
      setup(w);
      w.create();
    };
    const s = rejected(() => sim.openReplay(log, { ...options, setup: moreEntities }));
    expect(s.reason).toBe('keyframe_mismatch');
    expect(s.fields.cause).toBe('state');
    const layout = rejected(() => sim.openReplay(log, { ...options, setup: (w) => { w.registerComponent('P', { v: 'i32' }); } }));
    expect(layout.reason).toBe('identity_mismatch');
    expect(rejected(() => sim.openReplay(log, { scenario: 'nope' })).reason).toBe('scenario_unknown');
    expect(rejected(() => sim.openReplay(log, null as unknown as typeof options)).reason).toBe('wrong_type');
  });

  it('after dispose (its own, or its world\'s): disposed', () => {
    const p = sim.openReplay(log, options);
    p.dispose();
    expect(p.world.disposed).toBe(true);
    expect(rejected(() => p.seek(1)).reason).toBe('disposed');
    const q = sim.openReplay(log, options);
    q.world.dispose();
    expect(rejected(() => q.stepBack()).reason).toBe('disposed');
    q.dispose();
  });
});
