// The World API from TypeScript: options, entities, stats, guardrails,
// components by schema (C layout, every kind, arrays), get/add/has/remove.
import { describe, expect, it } from 'vitest';
import { LaigeError, fx, formatEntity } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

describe('World', () => {
  it('createWorld takes every World::Options field', () => {
    const w = sim.createWorld({ capacity: 10, churnPerFrameBudget: 3, seed: 0x1f055eedn, deterministic: false });
    expect(w.options).toEqual({ capacity: 10, churnPerFrameBudget: 3, seed: 0x1f055eedn, deterministic: false });
    expect(w.capacity).toBe(10);
    expect(w.guardrailStats().churnPerFrameBudget).toBe(3);
    w.dispose();
    const d = sim.createWorld({ capacity: 1 });
    expect(d.options).toEqual({ capacity: 1, churnPerFrameBudget: 256, seed: 0n, deterministic: true });
    d.dispose();
  });

  it('entities: create, destroy, isValid, check, counts, stats, clear', () => {
    const w = sim.createWorld({ capacity: 3 });
    const a = w.create();
    const b = w.create();
    expect(w.entityCount).toBe(2);
    expect(w.isValid(a)).toBe(true);
    w.check(a);
    w.destroy(a);
    expect(w.isValid(a)).toBe(false);
    expect(w.handleAt(0)).toBeUndefined();
    expect(w.handleAt(1)).toBe(b);
    w.create();
    w.create();
    const full = thrown(() => w.create()) as LaigeError;
    expect(full).toBeInstanceOf(LaigeError);
    expect(full.code).toBe('budget_exhausted');
    expect(w.entityCount).toBe(3);
    const s = w.stats();
    expect(s).toEqual({ capacity: 3, inUse: 3, peakInUse: 3, totalCreated: 4, totalDestroyed: 1, bytesCapacity: 33, bytesInUse: 33 });
    w.clear();
    expect(w.entityCount).toBe(0);
    expect(w.isValid(b)).toBe(false);
    expect(formatEntity(w.create())).toMatch(/^Entity\(0, \d+\)$/);
    w.dispose();
  });

  it('guardrails: beginFrame resets the churn counter', () => {
    const w = sim.createWorld({ capacity: 8, churnPerFrameBudget: 2 });
    const P = w.registerComponent('P', { x: 'i32' });
    const e = w.create();
    w.add(e, P, { x: 1 });
    w.add(e, P, { x: 2 });
    w.add(e, P, { x: 3 });
    const g = w.guardrailStats();
    expect(g.frameChurn).toBe(3);
    expect(g.churnWarns).toBe(1);
    expect(g.entityCount).toBe(1);
    w.beginFrame();
    expect(w.guardrailStats().frameChurn).toBe(0);
    for (let i = 0; i < 3; i++) w.create();
    expect(w.guardrailStats().entityBudgetLevel).toBe(50);
    w.dispose();
  });

  it('components: C layout of every kind, arrays, offsets, round trip', () => {
    const w = sim.createWorld({ capacity: 4 });
    const All = w.registerComponent('All', {
      d: 'f64', f: 'f32', i: 'i32', u: 'u32', q: 'fx', s: 'i16', us: 'u16', b: 'i8', ub: 'u8', path: ['i16', 3], pad: ['u8', 4],
    });
    expect(All.size).toBe(40);
    expect(All.alignment).toBe(8);
    expect(All.fields.map((f) => [f.name, f.offset])).toEqual([
      ['d', 0], ['f', 8], ['i', 12], ['u', 16], ['q', 20], ['s', 24], ['us', 26], ['b', 28], ['ub', 29], ['path', 30], ['pad', 36],
    ]);
    const e = w.create();
    const v = { d: 1 / 3, f: 0.1, i: -5, u: 4294967295, q: fx.fromFloat(-2.5), s: -32768, us: 65535, b: -128, ub: 255, path: [1, -2, 3], pad: [0, 0, 0, 9] };
    w.add(e, All, v);
    expect(w.get(e, All)).toEqual({ ...v, f: Math.fround(0.1) });
    expect(w.has(e, All)).toBe(true);
    w.remove(e, All);
    expect(w.has(e, All)).toBe(false);
    expect(w.get(e, All)).toBeUndefined();
    w.remove(e, All); // a no-op
    const Tag = w.registerComponent('Tag', {});
    expect(Tag.size).toBe(0);
    w.add(e, Tag, {});
    expect(w.get(e, Tag)).toEqual({});
    expect(w.componentCount).toBe(2);
    expect(w.component('Tag')).toBe(Tag);
    w.dispose();
  });

  it('add is create-or-update and archetypes follow the component set', () => {
    const w = sim.createWorld({ capacity: 8 });
    const P = w.registerComponent('Position', { x: 'f32', y: 'f32' });
    const V = w.registerComponent('Velocity', { x: 'f32', y: 'f32' });
    const e = w.create();
    expect(w.archetypeOf(e)).toBe(0);
    w.add(e, P, { x: 1, y: 2 });
    const a1 = w.archetypeOf(e);
    w.add(e, P, { x: 3, y: 4 });
    expect(w.archetypeOf(e)).toBe(a1);
    expect(w.get(e, P)).toEqual({ x: 3, y: 4 });
    w.add(e, V, { x: 0, y: 0 });
    expect(w.archetypeComponents(w.archetypeOf(e))).toEqual([P.id, V.id]);
    expect(w.archetypeCount).toBe(2);
    const st = w.archetypeStats();
    expect(st.archetypeCount).toBe(2);
    expect(st.rowsLive).toBe(1);
    expect(st.totalAdds).toBe(3);
    w.destroy(e);
    expect(w.archetypeStats().rowsLive).toBe(0);
    w.dispose();
  });

  it('a JS schema hashes like the same C layout: field order matters, names do not', () => {
    const mk = (schema: Record<string, 'f32' | 'i32'>) => {
      const w = sim.createWorld({ capacity: 4, seed: 7n });
      const C = w.registerComponent('C', schema);
      const e = w.create();
      const v: Record<string, number> = {};
      for (const k of Object.keys(schema)) v[k] = k.length;
      w.add(e, C, v);
      const h = w.stateHash(0);
      w.dispose();
      return h;
    };
    expect(mk({ a: 'i32', bb: 'i32' })).toBe(mk({ x: 'i32', yy: 'i32' }));
    expect(mk({ a: 'i32', bb: 'i32' })).not.toBe(mk({ bb: 'i32', a: 'i32' }));
  });

  it('dispose and Symbol.dispose', () => {
    const before = sim.worldCount;
    {
      using w = sim.createWorld({ capacity: 2 });
      w.create();
      expect(sim.worldCount).toBe(before + 1);
    }
    expect(sim.worldCount).toBe(before);
    const w = sim.createWorld({ capacity: 2 });
    w.dispose();
    w.dispose();
    expect(w.disposed).toBe(true);
    expect(String(w)).toBe('World(disposed)');
  });

  it('stateHash, componentStateHash and stateDiff', () => {
    const a = sim.createWorld({ capacity: 8, seed: 1n });
    const b = sim.createWorld({ capacity: 8, seed: 2n });
    for (const w of [a, b]) {
      const P = w.registerComponent('P', { x: 'i32' });
      w.registerSystem({ name: 'S', budgetMs: 10, run() {} });
      w.add(w.create(), P, { x: 1 });
      w.add(w.create(), P, { x: 2 });
    }
    expect(typeof a.stateHash(0)).toBe('bigint');
    expect(a.stateHash(0)).not.toBe(b.stateHash(0));
    expect(a.componentStateHash(0)).toBe(b.componentStateHash(0));
    expect(a.stateHash(1n)).not.toBe(a.stateHash(0));
    expect(a.stateDiff(b)).toEqual({ total: 0, items: [] });
    b.add(b.handleAt(1)!, b.component('P')!, { x: 5 });
    const d = a.stateDiff(b);
    expect(d.total).toBe(1);
    expect(d.items[0]).toMatchObject({ slot: 1, componentId: 1, component: 'P', size: 4, presentInA: true, presentInB: true });
    expect(Array.from(d.items[0]!.bytesA!)).toEqual([2, 0, 0, 0]);
    expect(Array.from(d.items[0]!.bytesB!)).toEqual([5, 0, 0, 0]);
    b.destroy(b.handleAt(0)!);
    // slot 0: live in A only (presence) and its P; slot 1: P differs.
    expect(a.stateDiff(b, 0)).toEqual({ total: 3, items: [] });
    a.dispose();
    b.dispose();
  });
  it('the per-entity hot path calls wasm exports directly, with the same results', () => {
    const w = sim.createWorld({ capacity: 4 });
    const raw = (w as unknown as { _raw: Record<string, unknown> })._raw;
    for (const name of ['worldCreateEntity', 'worldDestroyEntity', 'worldIsValid', 'worldAdd', 'worldRemove', 'worldHas', 'worldGet',
      'worldBeginIteration', 'worldIterationCursors', 'worldEndIteration', 'worldFillHandles']) {
      // A WebAssembly exported function, not emscripten's forwarding stub (raw.ts directExport).
      expect(Function.prototype.toString.call(raw[name]), name).toMatch(/\[native code\]/);
    }
    const P = w.registerComponent('P', { x: 'i32' });
    const e = w.create();
    expect(w.isValid(e)).toBe(true);
    expect(w.has(e, P)).toBe(false);
    w.add(e, P, { x: -7 });
    expect(w.has(e, P)).toBe(true);
    expect(w.get(e, P)).toEqual({ x: -7 });
    w.remove(e, P);
    expect(w.get(e, P)).toBeUndefined();
    w.destroy(e);
    expect(w.isValid(e)).toBe(false);
    expect(thrown(() => w.destroy(e))).toBeInstanceOf(LaigeError);
    // Handles with the top bit set (slot ids >= 32768) cross as i32 and come back intact.
    const big = sim.createWorld({ capacity: 40000 });
    const Q = big.registerComponent('Q', { v: 'u32' });
    let last = 0;
    for (let i = 0; i < 33000; i++) last = big.create();
    expect(last).toBeGreaterThan(0x7fffffff);
    big.add(last, Q, { v: 0xffffffff });
    expect(big.get(last, Q)).toEqual({ v: 0xffffffff });
    expect(big.isValid(last)).toBe(true);
    big.dispose();
    w.dispose();
  });
});
