// The three loops of World.each give the same results: the one generated per
// callback (row_loop.ts: refs are per-row snapshots, stored when the callback
// returns), the shared one with reused refs that long callbacks take, and
// the interpreted twin for runtimes without code generation. Each case runs
// on all three; a world is pinned to one by its internal loop mode.
import { describe, expect, it } from 'vitest';
import { LaigeError, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';
import { LOOP_PATHS, type LoopPath, kindsWorld, useLoopPath } from './support/kinds_world.js';

// Internal (stripped from the published declarations).
const rowLoopModule = '../../dist/query/row_loop.js';
const { takesEntity } = (await import(rowLoopModule)) as { takesEntity: (src: string) => boolean };


function invalidArg(fn: () => unknown): LaigeError {
  const e = thrown(fn);
  expect(e).toBeInstanceOf(LaigeError);
  expect((e as LaigeError).code).toBe('invalid_argument');
  return e as LaigeError;
}

describe('takesEntity: whether a callback may read its entity, from its source', () => {
  it('false only for a plain first parameter named nowhere else; anything unclear counts as read', () => {
    const cases: Array<[string, boolean]> = [
      ['(_e, p, v) => { p.x += v.x; p.y += v.y; }', false],
      ['e => 1', false],
      ['async (e, p) => {}', false],
      ['function f(e, p) { p.x = 1; }', false],
      ['function (e, p) { p.x = 1; }', false],
      ['each(e, p) { p.x = 1; }', false],
      ['($, p) => { p.x = 1; }', false],
      ['(e, p) => { p.x = e; }', true],
      ['(e, p) => { p.x = 1; } // e', true], // a comment naming it: kept (conservative)
      ['($, p) => { p.x = $; }', true],
      ['function (e, p) { p.x = arguments[0]; }', true],
      ['(e, p) => { p.x = \\u0065; }', true],
      ['(e, p) => eval("p.x = e")', true],
      ['({ a }, p) => {}', true],
      ['(e = 1, p) => {}', true],
      ['(/* entity */ e, p) => {}', true],
      ['(...args) => {}', true],
      ['function () { [native code] }', true],
      ['x.y(e, p)', true],
      ['e(e, p) { p.x = 1; }', true], // a method named like its parameter
    ];
    for (const [src, want] of cases) expect([src, takesEntity(src)]).toEqual([src, want]);
  });
});

describe('each: the generated, shared and interpreted loops agree', () => {
  it('every kind, fixed arrays, several archetypes, read and write refs: equal state hashes after 10 passes', () => {
    const hashes = LOOP_PATHS.map((path) => {
      const { w, K, P } = kindsWorld(path);
      for (let pass = 0; pass < 10; pass++) {
        w.each([K, P], ['write', 'read'], (e, k, p) => {
          k.a = (k.a + 3) % 100;
          k.b = (k.b + pass) & 0xff;
          k.c = (k.c * 3) % 30000;
          k.d = (k.d + 1) & 0xffff;
          k.e = (k.e ^ e) | 0;
          k.f = (k.f + 77) >>> 0;
          k.g = k.g * 1.5 + p.x;
          k.h = k.h - p.y / 3;
          k.q = (k.q + 65536) | 0;
          k.arr[1] = (k.arr[0]! + pass) % 1000;
        });
        w.each([P], ['write'], (_e, p) => { p.y += pass; });
      }
      const h = w.stateHash(10);
      w.dispose();
      return h;
    });
    expect(new Set(hashes).size).toBe(1);
  });

  it('long callbacks (over the inline limit) take the interpreted loop and still match', () => {
    const long = new Function('return (_e, p) => { ' + '/* long */ '.repeat(120) + 'p.x = p.x * 2 + 1; }')() as (e: number, p: { x: number }) => void;
    const hashes = LOOP_PATHS.map((path) => {
      const { w, P } = kindsWorld(path);
      w.each([P], ['write'], long);
      const h = w.stateHash(1);
      w.dispose();
      return h;
    });
    expect(new Set(hashes).size).toBe(1);
  });

  for (const path of LOOP_PATHS) {
    describe(path, () => {
      it('a failing check stores nothing of that row: NaN, wrong type, out of range, bad array', () => {
        const { w, K, P } = kindsWorld(path, 4);
        const h0 = w.stateHash(0);
        const cases: Array<(k: Record<string, unknown>) => void> = [
          (k) => { k.g = 1; k.h = NaN; },
          (k) => { k.a = 5; k.b = '7'; },
          (k) => { k.e = 1; k.d = 65536; },
          (k) => { k.f = -1; },
          (k) => { k.q = 0.5; },
          (k) => { k.c = 1; k.arr = [1, 2]; },
          (k) => { k.arr = [1, 2, 1e9]; },
        ];
        for (const mutate of cases) {
          let calls = 0;
          invalidArg(() => w.each([K], ['write'], (_e, k) => {
            calls++;
            mutate(k as unknown as Record<string, unknown>);
          }));
          expect(calls).toBe(1);
          expect(w.stateHash(0)).toBe(h0);
        }
        // Earlier rows keep their writes when a later row fails.
        let row = 0;
        invalidArg(() => w.each([P], ['write'], (_e, p) => {
          p.x = row === 1 ? NaN : 100 + row;
          row++;
        }));
        const xs: number[] = [];
        w.each([P], ['read'], (_e, p) => { xs.push(p.x); });
        expect(xs[0]).toBe(100);
        expect(xs[1]).not.toBe(101);
        w.dispose();
      });

      it('assigning a read ref throws and stores nothing of that row', () => {
        const { w, K, P } = kindsWorld(path, 4);
        const h0 = w.stateHash(0);
        const err = invalidArg(() => w.each([K, P], ['write', 'read'], (_e, k, p) => {
          k.a = 9;
          (p as { x: number }).x = 1;
        }));
        expect(err.detail).toMatch(/Position\.x was declared 'read'/);
        expect(w.stateHash(0)).toBe(h0);
        invalidArg(() => w.each([K], ['read'], (_e, k) => { (k as unknown as { arr: number[] }).arr = [0, 0, 0]; }));
        expect(w.stateHash(0)).toBe(h0);
        invalidArg(() => w.each([K, P], ['write', 'read'], (_e, k, p) => { k.a = 1; (p as unknown as { y: string }).y = 'up'; }));
        expect(w.stateHash(0)).toBe(h0);
        // A callback that throws its own error after a bad assignment leaves nothing behind either.
        const boom = new Error('boom');
        expect(thrown(() => w.each([K], ['write'], (_e, k) => { (k as unknown as { a: string }).a = 'x'; throw boom; }))).toBe(boom);
        expect(w.stateHash(0)).toBe(h0);
        let clean = 0;
        w.each([K], ['write'], () => { clean++; }); // the same query shape: the same loop
        expect(clean).toBeGreaterThan(0);
        // A non-number assigned, then a number: the last value counts, as for any field.
        w.each([K], ['write'], (_e, k) => { (k as unknown as { a: unknown }).a = 'x'; k.a = 7; });
        const as: number[] = [];
        w.each([K], ['read'], (_e, k) => { as.push(k.a); });
        expect(as.length).toBeGreaterThan(0);
        expect(as.every((a) => a === 7)).toBe(true);
        // The failed rows left no flag behind: the next pass runs clean.
        let rows = 0;
        w.each([K, P], ['write', 'read'], () => { rows++; });
        expect(rows).toBeGreaterThan(0);
        w.dispose();
      });

      it('a World.add on the current row stands when the ref leaves the field alone; memory growth is survived', () => {
        const { w, P } = kindsWorld(path, 6);
        const keep: World[] = [];
        const bytes0 = sim.memoryBytes;
        let i = 0;
        w.each([P], ['write'], (e, p) => {
          if (i % 2 === 0) w.add(e, P, { x: 7, y: p.y }); // y unchanged through the ref
          else p.y = -1;
          if (i === 2) while (sim.memoryBytes === bytes0) keep.push(sim.createWorld({ capacity: 65536 })); // grows wasm memory
          i++;
        });
        expect(sim.memoryBytes).toBeGreaterThan(bytes0); // the heaps were re-derived mid-iteration
        const got: Array<[number, number]> = [];
        w.each([P], ['read'], (_e, p) => { got.push([p.x, p.y]); });
        for (let r = 0; r < got.length; r++) {
          if (r % 2 === 0) expect(got[r]![0]).toBe(7);
          else expect(got[r]![1]).toBe(-1);
        }
        for (const k of keep) k.dispose();
        w.dispose();
      });

      it('loops made before memory grew are not run over the old heap: writes after growth land, with and without optional terms', () => {
        const { w, P, K } = kindsWorld(path, 30);
        const plain = w.query({ p: P.write });
        const withOptional = w.query({ p: P.write }, { optional: { k: K.read } });
        // Call-free callbacks (no per-row epoch test): only the walk can see the new heap.
        const inc = (_e: unknown, { p }: { p: { x: number } }) => { p.x += 1; };
        const dec = (_e: unknown, { p }: { p: { y: number } }) => { p.y -= 1; };
        const before = new Map<number, [number, number]>();
        w.each([P], ['read'], (e, p) => { before.set(e, [p.x, p.y]); });
        plain.each(inc);
        withOptional.each(dec);
        w.each([P], ['write'], (_e, p) => { p.x += 10; });
        const keep: World[] = [];
        const bytes0 = sim.memoryBytes;
        while (sim.memoryBytes === bytes0) keep.push(sim.createWorld({ capacity: 65536 })); // grows wasm memory
        plain.each(inc);
        withOptional.each(dec);
        w.each([P], ['write'], (_e, p) => { p.x += 10; });
        expect(before.size).toBeGreaterThan(0);
        for (const [e, [x, y]] of before) {
          expect(P.field.x.get(e as never)).toBe(x + 22);
          expect(P.field.y.get(e as never)).toBe(y - 2);
        }
        for (const k of keep) k.dispose();
        w.dispose();
      });

      it('field names that shadow the loops\' own names or object members work', () => {
        const w = sim.createWorld({ capacity: 8 });
        useLoopPath(w, path);
        const T = w.registerComponent('Tricky', {
          s: 'f32', a: 'i32', nb: 'u32', o: 'i32', any: 'fx', toJSON: 'i32', constructor: 'f32', R0: 'i32', v0: 'i32', x0_0: 'i32',
          f: 'i32', m: 'i32', hb: 'i32', r: 'i32', rows: 'i32', cols: 'i32', at: 'i32', start: 'i32', epoch: 'i32', U32: 'i32',
        });
        const e = w.create();
        const zero = Object.fromEntries(Object.keys(T.schema).map((k) => [k, 0]));
        w.add(e, T, zero as never);
        w.each([T], ['write'], (_e, t) => {
          for (const k of Object.keys(T.schema)) (t as unknown as Record<string, number>)[k] = k.length;
        });
        expect(w.get(e, T)).toEqual(Object.fromEntries(Object.keys(T.schema).map((k) => [k, k.length])));
        invalidArg(() => w.each([T], ['read'], (_e, t) => { (t as unknown as { constructor: number }).constructor = 9; }));
        expect(thrown(() => w.registerComponent('Proto', JSON.parse('{"__proto__": "f32"}')))).toBeInstanceOf(LaigeError);
        w.dispose();
      });

      it('a value that would not validate but was already in the column (a NaN written through a column view) passes when left alone', () => {
        const { w, P } = kindsWorld(path, 9);
        w.eachChunk([P], ['write'], (c) => {
          const col = c.field(P, 'x');
          for (let r = 0; r < c.rows; r += 2) col.array[col.index + r * col.stride] = NaN;
        });
        const before: number[] = [];
        const ys: number[] = [];
        w.each([P], ['read'], (_e, p) => { before.push(p.x); ys.push(p.y); });
        expect(before.filter(Number.isNaN).length).toBe(4); // rows 0, 2, 4 of {K,P}; row 0 of {K,P,T}
        // Left alone (and assigned NaN again: the same value): no throw, the other field lands.
        w.each([P], ['write'], (_e, p) => { p.y += 1; });
        w.each([P], ['write'], (_e, p) => { if (Number.isNaN(p.x)) p.x = NaN; });
        const after: Array<[number, number]> = [];
        w.each([P], ['read'], (_e, p) => { after.push([p.x, p.y]); });
        expect(after.map(([x]) => x)).toEqual(before);
        expect(after.map(([, y]) => y)).toEqual(ys.map((y) => y + 1));
        // Replaced by a valid value: stored; by a NaN where there was none: throws.
        w.each([P], ['write'], (_e, p) => { if (Number.isNaN(p.x)) p.x = 3; });
        const fixed: number[] = [];
        w.each([P], ['read'], (_e, p) => { fixed.push(p.x); });
        expect(fixed.some(Number.isNaN)).toBe(false);
        invalidArg(() => w.each([P], ['write'], (_e, p) => { p.x = NaN; }));
        w.dispose();
      });

      it('the entity argument: every way of reading it gets the row\'s handle; a callback that never names it still runs', () => {
        const { w, P } = kindsWorld(path, 12);
        const expected: number[] = [];
        w.each([P], ['read'], (e) => { expected.push(e); });
        expect(expected.length).toBe(8);
        expect(expected.every((e) => w.isValid(e))).toBe(true);
        const seen: number[][] = [[], [], [], []];
        w.each([P], ['read'], (e, _p) => { seen[0]!.push(e); });
        w.each([P], ['read'], function (this: unknown) { seen[1]!.push(arguments[0] as number); }); // eslint-disable-line prefer-rest-params
        w.each([P], ['read'], new Function('seen', 'return (e, p) => { seen.push(\\u0065); }')(seen[2]) as (e: number) => void);
        w.each([P], ['read'], (...args: unknown[]) => { seen[3]!.push(args[0] as number); });
        for (const s of seen) expect(s).toEqual(expected);
        // Never named: the handle buffer is not filled; writes land.
        let rows = 0;
        w.each([P], ['write'], (_e, p) => { p.x = 7; rows++; });
        expect(rows).toBe(8);
        // A structural change between calls: the next callback that names
        // its entity gets the new rows' handles (the buffer is refilled).
        const fresh = w.create();
        w.add(fresh, P, { x: 1, y: 2 });
        const after: number[] = [];
        w.each([P], ['read'], (e, p) => { after.push(e); expect(p.x === 7 || e === fresh).toBe(true); });
        expect(after).toContain(fresh);
        expect(after.length).toBe(9);
        w.dispose();
      });

      it('refs are snapshots of their own row; keeping one does not alias the next row', () => {
        const { w, P } = kindsWorld(path, 6);
        const seen: number[] = [];
        w.each([P], ['read'], (_e, p) => { seen.push(p.x); });
        const kept: Array<{ x: number }> = [];
        w.each([P], ['read'], (_e, p) => { kept.push({ x: p.x }); });
        expect(kept.map((k) => k.x)).toEqual(seen);
        const json: string[] = [];
        w.each([P], ['write'], (_e, p) => { json.push(JSON.stringify(p)); });
        expect(json[0]).toBe(JSON.stringify({ x: seen[0], y: -1 }));
        w.dispose();
      });
    });
  }

  it('many distinct callbacks on one query (past the per-query loop cache) stay correct', () => {
    const adders = Array.from({ length: 80 }, (_, i) =>
      new Function('return (_e, p) => { p.x = p.x + ' + i + '; }')() as (e: number, p: { x: number }) => void);
    const hashes = LOOP_PATHS.map((path) => {
      const { w, P } = kindsWorld(path, 10);
      for (const add of adders) w.each([P], ['write'], add);
      for (const add of adders.slice(0, 5)) w.each([P], ['write'], add); // evicted ones come back
      const h = w.stateHash(0);
      w.dispose();
      return h;
    });
    expect(new Set(hashes).size).toBe(1);
  });
});
