// each from TypeScript over column views: visit order, refs, the seed-004
// iteration-legality table for mutations made from JS, throwing callbacks,
// nested iterations, the empty query, and the column-view fast path.
import { describe, expect, it } from 'vitest';
import { LaigeError, entityId, type Entity } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

function world(n = 6) {
  const w = sim.createWorld({ capacity: 64, seed: 9n });
  const P = w.registerComponent('Position', { x: 'f32', y: 'f32' });
  const V = w.registerComponent('Velocity', { x: 'f32', y: 'f32' });
  const F = w.registerComponent('Flag', { on: 'u8' });
  const es: Entity[] = [];
  for (let i = 0; i < n; i++) {
    const e = w.create();
    w.add(e, P, { x: i, y: 0 });
    if (i % 2 === 0) w.add(e, V, { x: 1, y: 2 });
    if (i % 3 === 0) w.add(e, F, { on: 1 });
    es.push(e);
  }
  return { w, P, V, F, es };
}

function invalidArg(fn: () => unknown): LaigeError {
  const e = thrown(fn);
  expect(e).toBeInstanceOf(LaigeError);
  expect((e as LaigeError).code).toBe('invalid_argument');
  return e as LaigeError;
}

describe('each', () => {
  it('superset match, archetype order then slot order, write refs land in the columns', () => {
    const { w, P, V, es } = world();
    const seen: number[] = [];
    w.each([P, V], ['write', 'read'], (e, p, v) => {
      seen.push(entityId(e));
      p.x += v.x;
      p.y = v.y * 10;
    });
    // {P,V} archetype holds 2 and 4 (0 is {P,V,F}, created later than {P,V}?) - order by archetype id then slot.
    const byArchetype = [...es.filter((_, i) => i % 2 === 0)].sort((a, b) => w.archetypeOf(a) - w.archetypeOf(b) || a - b);
    expect(seen).toEqual(byArchetype.map(entityId));
    for (let i = 0; i < es.length; i++) {
      expect(w.get(es[i]!, P)).toEqual(i % 2 === 0 ? { x: i + 1, y: 20 } : { x: i, y: 0 });
    }
    w.dispose();
  });

  it('read refs throw on assignment and change nothing', () => {
    const { w, P, V } = world();
    const h = w.stateHash(0);
    const err = invalidArg(() => w.each([P, V], ['read', 'read'], (_e, p) => {
      (p as { x: number }).x = 99;
    }));
    expect(err.detail).toMatch(/Position\.x was declared 'read'/);
    expect(w.stateHash(0)).toBe(h);
    w.dispose();
  });

  it('write refs validate like add: NaN, wrong types, out-of-range integers', () => {
    const { w, P, F } = world();
    const h = w.stateHash(0);
    invalidArg(() => w.each([P], ['write'], (_e, p) => { p.x = NaN; }));
    invalidArg(() => w.each([P], ['write'], (_e, p) => { (p as { x: unknown }).x = '1'; }));
    invalidArg(() => w.each([F], ['write'], (_e, f) => { f.on = 256; }));
    invalidArg(() => w.each([F], ['write'], (_e, f) => { f.on = -1; }));
    expect(w.stateHash(0)).toBe(h);
    w.dispose();
  });

  it('the legality table (docs/query.md), enforced for mutations made from JS', () => {
    const { w, P, V, F, es } = world();
    const A = w.registerComponent('Other', { v: 'i32' });
    const outside = w.create(); // component-less: archetype 0, not matched
    const h0 = w.stateHash(0);
    // Illegal: each rejection throws from the mutating call and is skipped.
    const illegal: Array<(e: Entity) => void> = [
      (e) => w.add(e, V, { x: 0, y: 0 }), // in-place write of a Read-declared component
      (e) => w.add(e, A, { v: 1 }), // structural move out of a matched archetype
      (e) => w.remove(e, P), // structural
      (e) => w.destroy(e), // destroy of a matched row
      () => w.clear(), // clear with live matched rows
      () => w.each([P], ['read'], () => {}), // nested each
      () => w.add(es[1]!, V, { x: 0, y: 0 }), // a move INTO a matched archetype ({P} -> {P, V})
    ];
    for (const act of illegal) {
      let calls = 0;
      invalidArg(() => w.each([P, V], ['write', 'read'], (e) => {
        calls++;
        act(e);
      }));
      expect(calls).toBe(1);
      expect(w.stateHash(0)).toBe(h0);
    }
    // Legal: Write-declared in-place overwrite, unlisted components, create, mutations outside matched archetypes.
    let n = 0;
    w.each([P, V], ['write', 'read'], (e) => {
      n++;
      w.add(e, P, { x: 7, y: 7 });
      w.add(outside, A, { v: n });
      const c = w.create();
      w.destroy(c);
    });
    expect(n).toBe(3);
    expect(w.get(es[0]!, P)).toEqual({ x: 7, y: 7 });
    expect(w.get(outside, A)).toEqual({ v: 3 });
    // After each returns, the same structural mutation is legal again.
    w.add(es[0]!, A, { v: 1 });
    w.each([F], ['read'], () => {});
    w.clear();
    w.dispose();
  });

  it('a throwing callback ends the iteration, releases the guard and keeps the world consistent', () => {
    const { w, P, V, es } = world();
    let calls = 0;
    const boom = new Error('boom');
    expect(thrown(() => w.each([P, V], ['write', 'read'], (_e, p) => {
      calls++;
      p.x = 100;
      throw boom;
    }))).toBe(boom);
    expect(calls).toBe(1);
    // The guard is gone: structural changes are legal and a new each runs.
    w.remove(es[0]!, V);
    let n = 0;
    w.each([P, V], ['read', 'read'], () => n++);
    expect(n).toBe(2);
    w.dispose();
  });

  it('dispose and runSystems inside each are rejected; other worlds are independent', () => {
    const { w, P } = world();
    const other = world(2);
    invalidArg(() => w.each([P], ['read'], () => w.dispose()));
    expect(w.disposed).toBe(false);
    let inner = 0;
    w.each([P], ['read'], () => {
      other.w.each([other.P], ['write'], (_e, p) => {
        p.x += 1;
        inner++;
      });
    });
    expect(inner).toBe(12);
    other.w.dispose();
    w.dispose();
  });

  it('memory growth inside the callback does not break the views', () => {
    const { w, P, V } = world(4);
    const big = sim.createWorld({ capacity: 1 });
    let visited = 0;
    w.each([P, V], ['write', 'read'], (_e, p, v) => {
      // Allocate a lot in wasm (forces memory growth), then keep using the refs.
      for (let i = 0; i < 4; i++) big.registerComponent(`Big${visited}_${i}`, { a: ['f64', 500] });
      const before = sim.memoryBytes;
      const tmp = sim.createWorld({ capacity: 65536 });
      tmp.dispose();
      p.x = v.x + 40;
      visited++;
      expect(sim.memoryBytes).toBeGreaterThanOrEqual(before);
    });
    expect(visited).toBe(2);
    w.each([P, V], ['read', 'read'], (_e, p) => expect(p.x).toBe(41));
    big.dispose();
    w.dispose();
  });

  it('the empty query visits every live entity in slot order', () => {
    const { w, es } = world(5);
    w.destroy(es[1]!);
    const seen: Entity[] = [];
    w.each([], [], (e) => {
      seen.push(e);
      if (seen.length === 1) w.destroy(es[3]!); // legal: the empty query matches no archetype
    });
    expect(seen).toEqual([es[0], es[2], es[4]]);
    w.dispose();
  });

  it('arrays and every kind through refs', () => {
    const w = sim.createWorld({ capacity: 4 });
    const K = w.registerComponent('K', { d: 'f64', q: 'fx', path: ['f32', 3], s: 'i16', t: 'u16', pad: ['u16', 2] });
    const e = w.create();
    w.add(e, K, { d: 0.5, q: 65536, path: [1, 2, 3], s: -3, t: 3, pad: [0, 0] });
    w.each([K], ['write'], (_e, k) => {
      k.d *= 2;
      k.q += 1;
      k.path[1] = 20;
      k.s -= 1;
      k.t = 65535;
      expect(Array.isArray(k.path)).toBe(true); // a plain copy: element writes are checked when the callback returns
    });
    expect(w.get(e, K)).toEqual({ d: 1, q: 65537, path: [1, 20, 3], s: -4, t: 65535, pad: [0, 0] });
    w.each([K], ['read'], (_e, k) => {
      expect(Array.isArray(k.path)).toBe(true);
      expect(JSON.parse(JSON.stringify(k))).toEqual({ d: 1, q: 65537, path: [1, 20, 3], s: -4, t: 65535, pad: [0, 0] });
    });
    w.dispose();
  });

  it('unregistered-in-this-query components match nothing; an empty archetype is skipped', () => {
    const { w, P, V, es } = world(2);
    for (const e of es) w.remove(e, V);
    let n = 0;
    w.each([P, V], ['read', 'read'], () => n++);
    expect(n).toBe(0);
    w.dispose();
  });
});

describe('eachChunk (the column-view fast path)', () => {
  it('typed-array loops over the columns', () => {
    const { w, P, V, es } = world(8);
    let rows = 0;
    w.eachChunk([P, V], ['write', 'read'], (chunk) => {
      const px = chunk.field(P, 'x');
      const py = chunk.field(P, 'y');
      const vx = chunk.field(V, 'x');
      const vy = chunk.field(V, 'y');
      expect(px.stride).toBe(2);
      expect(px.array).toBeInstanceOf(Float32Array);
      for (let r = 0; r < chunk.rows; r++) {
        px.array[px.index + r * px.stride] = px.array[px.index + r * px.stride]! + vx.array[vx.index + r * vx.stride]!;
        py.array[py.index + r * py.stride] = py.array[py.index + r * py.stride]! + vy.array[vy.index + r * vy.stride]!;
        expect(w.isValid(chunk.entity(r))).toBe(true);
      }
      rows += chunk.rows;
    });
    expect(rows).toBe(4);
    expect(w.get(es[2]!, P)).toEqual({ x: 3, y: 2 });
    expect(w.get(es[1]!, P)).toEqual({ x: 1, y: 0 });
    invalidArg(() => w.eachChunk([P], ['read'], (c) => c.field(V, 'x')));
    invalidArg(() => w.eachChunk([P], ['read'], (c) => c.field(P, 'z' as 'x')));
    invalidArg(() => w.eachChunk([P], ['read'], (c) => c.entity(99)));
    invalidArg(() => w.eachChunk([P], ['read'], () => w.destroy(es[0]!)));
    w.dispose();
  });
});
