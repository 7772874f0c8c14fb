// Reads without a wasm call: field handles and World.get find a live
// entity's component through the core's slot tables (generation, archetype,
// row) and cached column places. Checked against a model through the cases
// that move or invalidate what those tables say: archetype moves, tombstones
// and normalisation, column growth, memory growth, a restore that replaces
// archetypes, clear and dispose; and every miss still raises the error the
// checked path raises, changing nothing.
import { describe, expect, it } from 'vitest';
import { type Entity, LaigeError } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';
import { KINDS, kindsWorld } from './support/kinds_world.js';

function rig(capacity = 4096) {
  const w = sim.createWorld({ capacity, churnPerFrameBudget: 0 });
  const A = w.registerComponent('A', { x: 'f32', n: 'i32' });
  const B = w.registerComponent('B', { v: 'f64', s: 'i16', p: 'u16', q: 'i32' });
  const C = w.registerComponent('C', { k: 'u8' });
  return { w, A, B, C };
}

/** Deterministic pseudo-random bits (the test must replay). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
}

describe('reads through the slot tables', () => {
  it('field handles and World.get agree with a model through adds, removes, destroys and walks', () => {
    const { w, A, B, C } = rig();
    const rnd = lcg(11);
    const live: Entity[] = [];
    const a = new Map<Entity, { x: number; n: number }>();
    const b = new Map<Entity, { v: number; s: number; p: number; q: number }>();
    for (let step = 0; step < 3000; step++) {
      const op = rnd() % 8;
      if (op < 3 || live.length === 0) {
        const e = w.create();
        live.push(e);
        if (rnd() & 1) { const val = { x: step + 0.5, n: -step }; w.add(e, A, val); a.set(e, val); }
        if (rnd() & 1) { const val = { v: step / 3, s: (step % 600) - 300, p: step, q: -step }; w.add(e, B, val); b.set(e, val); }
      } else {
        const i = rnd() % live.length;
        const e = live[i]!;
        if (op === 3) { w.remove(e, A); a.delete(e); }
        else if (op === 4) { w.remove(e, B); b.delete(e); }
        else if (op === 5) { const val = { x: -step, n: step }; w.add(e, A, val); a.set(e, val); }
        else if (op === 6) { w.add(e, C, { k: step & 0xff }); }
        else {
          w.destroy(e);
          live.splice(i, 1);
          a.delete(e);
          b.delete(e);
        }
      }
      // Walks normalise archetypes (rows move, the row table is rewritten).
      if (step % 500 === 0) w.each([A], ['read'], () => {});
    }
    for (const e of live) {
      const av = a.get(e);
      const bv = b.get(e);
      expect(w.get(e, A)).toEqual(av);
      expect(w.get(e, B)).toEqual(bv);
      if (av !== undefined) {
        expect(A.field.x.get(e)).toBe(av.x);
        expect(A.field.n.get(e)).toBe(av.n);
      } else {
        expect(thrown(() => A.field.x.get(e))).toMatchObject({ reason: 'component_missing' });
      }
      if (bv !== undefined) {
        expect(B.field.v.get(e)).toBe(bv.v);
        expect(B.field.s.get(e)).toBe(bv.s);
        expect(B.field.p.get(e)).toBe(bv.p);
        expect(B.field.q.get(e)).toBe(bv.q);
      }
    }
    w.dispose();
  });

  it('follows a column that grew and wasm memory that grew between two reads', () => {
    const { w, A } = rig(65536);
    const first = w.create();
    w.add(first, A, { x: 1.25, n: 7 });
    expect(A.field.x.get(first)).toBe(1.25); // places cached, views taken
    const readBefore = A.field.x.get; // holds the views of the memory before it grows
    const bytes = sim.memoryBytes;
    // The archetype grows many times over (its column moves), and a second
    // world of 65,536 slots makes the module's memory grow.
    for (let i = 0; i < 20000; i++) w.add(w.create(), A, { x: i, n: i });
    const other = sim.createWorld({ capacity: 65536 });
    const O = other.registerComponent('O', { big: ['f64', 64] });
    for (let i = 0; i < 4000; i++) other.add(other.create(), O, { big: new Array(64).fill(i) });
    expect(sim.memoryBytes).toBeGreaterThan(bytes);
    expect(A.field.x.get(first)).toBe(1.25);
    expect(A.field.n.get(first)).toBe(7);
    expect(w.get(first, A)).toEqual({ x: 1.25, n: 7 });
    expect(readBefore(first)).toBe(1.25);
    A.field.x.set(first, 2.5);
    expect(A.field.x.get(first)).toBe(2.5);
    expect(readBefore(first)).toBe(2.5);
    other.dispose();
    w.dispose();
  });

  it('a restore that replaces archetypes drops the cached column places', () => {
    const { w, A, B } = rig();
    const empty = w.snapshot();
    const e = w.create();
    w.add(e, A, { x: 3, n: 3 }); // archetype 1 = {A}
    expect(A.field.x.get(e)).toBe(3); // A's place in archetype 1 cached
    expect(w.get(e, A)).toEqual({ x: 3, n: 3 });
    w.restore(empty);
    const onlyB = w.create();
    w.add(onlyB, B, { v: 2, s: 2, p: 2, q: 2 }); // archetype 1 = {B} now
    const both = w.create();
    w.add(both, B, { v: 4, s: 4, p: 4, q: 4 });
    w.add(both, A, { x: 5, n: 5 });
    const h = w.stateHash(0);
    expect(thrown(() => A.field.x.get(onlyB))).toMatchObject({ reason: 'component_missing' });
    expect(w.get(onlyB, A)).toBeUndefined();
    expect(A.field.x.get(both)).toBe(5);
    expect(w.get(both, A)).toEqual({ x: 5, n: 5 });
    expect(w.stateHash(0)).toBe(h);
    w.dispose();
  });

  it('every miss raises what the checked path raises and changes nothing', () => {
    const { w, A } = rig(64);
    const e = w.create();
    w.add(e, A, { x: 1, n: 1 });
    const bare = w.create(); // live, no components
    const gone = w.create();
    w.add(gone, A, { x: 2, n: 2 });
    w.destroy(gone);
    const reused = w.create(); // the freed slot, a newer generation
    w.add(reused, A, { x: 9, n: 9 });
    const h = w.stateHash(0);
    expect(thrown(() => A.field.x.get(gone))).toMatchObject({ reason: 'stale_entity_access' });
    expect(thrown(() => w.get(gone, A))).toMatchObject({ reason: 'stale_entity_access' });
    expect(A.field.x.get(reused)).toBe(9);
    expect(thrown(() => A.field.x.get(bare))).toMatchObject({ reason: 'component_missing' });
    expect(w.get(bare, A)).toBeUndefined();
    // A slot beyond the capacity (64), and values that are not handles.
    const outside = ((100 << 16) | 1) as Entity;
    expect(thrown(() => A.field.x.get(outside))).toMatchObject({ reason: 'stale_entity_access' });
    expect(thrown(() => A.field.x.get(1.5 as Entity))).toMatchObject({ reason: 'out_of_range' });
    expect(thrown(() => w.get('e' as unknown as Entity, A))).toMatchObject({ reason: 'wrong_type' });
    expect(w.stateHash(0)).toBe(h);
    w.clear();
    expect(thrown(() => A.field.x.get(e))).toMatchObject({ reason: 'stale_entity_access' });
    expect(thrown(() => w.get(e, A))).toMatchObject({ reason: 'stale_entity_access' });
    w.dispose();
    const err = thrown(() => A.field.x.get(e));
    expect(err).toBeInstanceOf(LaigeError);
    expect(err).toMatchObject({ reason: 'disposed' });
    expect(thrown(() => w.get(e, A))).toMatchObject({ reason: 'disposed' });
  });

  it('inside a system, reads keep the system io check', () => {
    const { w, A, B } = rig(64);
    const e = w.create();
    w.add(e, A, { x: 1, n: 1 });
    w.add(e, B, { v: 1, s: 1, p: 1, q: 1 });
    // Reads outside first: the fast tables are filled, and a system's run must still not take them.
    expect(B.field.v.get(e)).toBe(1);
    expect(w.get(e, B)).toEqual({ v: 1, s: 1, p: 1, q: 1 });
    let seen = 0;
    let viaGet: unknown = null;
    w.registerSystem({ name: 'S', budgetMs: 5, io: [[A, 'read']], run: () => {
      seen = A.field.x.get(e);
      viaGet = thrown(() => w.get(e, B));
      B.field.v.get(e); // B is not in the io: refused
    } });
    const h = w.stateHash(0);
    expect(thrown(() => w.runSystems())).toMatchObject({ reason: 'system_io_violation', fields: { component: 'B' } });
    expect(viaGet).toMatchObject({ reason: 'system_io_violation' });
    expect(seen).toBe(1);
    expect(w.stateHash(0)).toBe(h);
    // After the run, reads outside take the tables again, and see writes made meanwhile.
    B.field.v.set(e, 7);
    expect(B.field.v.get(e)).toBe(7);
    expect(w.get(e, B)!.v).toBe(7);
    w.dispose();
  });

  it('a get taken off its handle reads every kind like World.get, and misses like the handle', () => {
    const { w, K } = kindsWorld('auto', 40);
    const es: Entity[] = [];
    w.each([K], ['read'], (e) => { es.push(e); });
    const reads = Object.keys(KINDS).map((name) => [name, K.field[name as keyof typeof KINDS].get] as const);
    for (const e of es) {
      const v = w.get(e, K)!;
      for (const [name, read] of reads) {
        const want = v[name as keyof typeof v];
        if (Array.isArray(want) || ArrayBuffer.isView(want)) {
          const arr = read as (e: Entity, i: number) => number;
          Array.from(want as ArrayLike<number>).forEach((x, i) => expect(arr(e, i)).toBe(x));
        } else {
          expect((read as (e: Entity) => number)(e)).toBe(want);
        }
      }
    }
    const gone = es[3]!;
    w.destroy(gone);
    const h = w.stateHash(0);
    for (const [, read] of reads) expect(thrown(() => (read as (e: Entity) => number)(gone))).toMatchObject({ reason: 'stale_entity_access' });
    expect(w.stateHash(0)).toBe(h);
    w.dispose();
  });
});
