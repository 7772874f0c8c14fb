// ReplayRecorder.step checks everything before it runs the tick: a call
// that throws changes nothing (docs/typescript.md#callbacks-and-re-entrancy).
import { describe, expect, it } from 'vitest';
import { LaigeError, type World } from '../../dist/index.js';
import { sim } from './support/sim.js';

function scene(): World {
  const w = sim.createWorld({ capacity: 8, seed: 9n });
  const P = w.registerComponent('P', { v: 'i32' });
  w.registerSystem({ name: 'Count', budgetMs: 100, io: [[P, 'write']], run(ctx) { ctx.each([P], ['write'], (_e, p) => { p.v += 1; }); } });
  w.add(w.create(), P, { v: 0 });
  return w;
}

function rejected(fn: () => unknown): LaigeError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(LaigeError);
    return e as LaigeError;
  }
  throw new Error('expected a throw');
}

describe('ReplayRecorder.step: check first, then act', () => {
  for (const end of ['finish', 'dispose'] as const) {
    it(`after ${end}(): throws and runs no tick`, () => {
      const w = scene();
      const r = sim.recordReplay(w);
      r.step();
      if (end === 'finish') r.finish();
      else r.dispose();
      const ticks = w.systemTicksRun;
      const hash = w.stateHash(ticks);
      const e = rejected(() => r.step());
      expect(e.code).toBe('invalid_argument');
      expect(w.systemTicksRun).toBe(ticks);
      expect(w.stateHash(ticks)).toBe(hash);
      w.dispose();
    });
  }

  it('a frame over the size cap: throws budget_exhausted before the tick', () => {
    const w = scene();
    const r = sim.recordReplay(w, { maxBytes: 56 + 12 + 4 });
    r.step(new Uint8Array(4)); // 40 (header) + 12 + 4 = 56 of the 72 bytes
    const ticks = w.systemTicksRun;
    const hash = w.stateHash(ticks);
    const e = rejected(() => r.step(new Uint8Array(8))); // 56 + 12 + 8 > 72
    expect(e.code).toBe('budget_exhausted');
    expect(e.reason).toBe('replay_size_cap');
    expect(e.fields).toMatchObject({ bytes: 56, max_bytes: 72 }); // the core's own fields
    expect(w.systemTicksRun).toBe(ticks);
    expect(w.stateHash(ticks)).toBe(hash);
    expect(r.frameCount).toBe(1);
    w.dispose();
  });

  it('bad input types: throws before the tick', () => {
    const w = scene();
    const r = sim.recordReplay(w);
    for (const bad of [[1, 2], 'ab', 5n, Symbol('x'), {}]) {
      const e = rejected(() => r.step(bad as never));
      expect(e.code).toBe('invalid_argument');
    }
    expect(w.systemTicksRun).toBe(0);
    expect(r.frameCount).toBe(0);
    w.dispose();
  });

  it('a tick whose system threw is still recorded (the tick ran and counted)', () => {
    const w = scene();
    let boom = true;
    w.registerSystem({ name: 'Boom', budgetMs: 100, dependsOn: ['Count'], run() { if (boom) throw new Error('boom'); } });
    const r = sim.recordReplay(w);
    expect(() => r.step()).toThrow('boom');
    boom = false;
    r.step();
    expect(w.systemTicksRun).toBe(2);
    expect(r.frameCount).toBe(2);
    const bytes = r.finish();
    boom = false;
    const hashes = sim.runReplay(bytes, {
      world: { capacity: 8, seed: 9n },
      setup: (x) => {
        const P = x.registerComponent('P', { v: 'i32' });
        x.registerSystem({ name: 'Count', budgetMs: 100, io: [[P, 'write']], run(ctx) { ctx.each([P], ['write'], (_e, p) => { p.v += 1; }); } });
        x.add(x.create(), P, { v: 0 });
        x.registerSystem({ name: 'Boom', budgetMs: 100, dependsOn: ['Count'], run() {} });
      },
    });
    expect(hashes).toHaveLength(3);
    expect(hashes[2]).toBe(w.stateHash(2));
    w.dispose();
  });
});
