// Fixed-array fields through refs (docs/typescript.md#queries): an element
// write is checked like every other write (World.add, a field handle, a
// scalar field of a ref), with the same reason and fields, on every path
// that hands out refs: Query.each on its generated loop (one callback that
// calls something, one that provably calls nothing), the shared loop of
// long callbacks and the interpreted loop; World.each; a system's queries
// and ctx.each. A refused write leaves the element (and the world) as it
// was; an element write to a read ref is refused with read_only_field.
import { describe, expect, it } from 'vitest';
import { LaigeError, type ScalarKind, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';
import { LOOP_PATHS, useLoopPath } from './support/kinds_world.js';

// Internal (stripped from the published declarations).
const callFreeModule = '../../dist/base/call_free.js';
type Bindings = { positional: string[][] | null; named: Map<string, string[]> | null; arrays: Map<string | number, Set<string>> };
const { callFree } = (await import(callFreeModule)) as { callFree: (src: string, b: Bindings) => boolean };

const KINDS: readonly ScalarKind[] = ['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'f32', 'f64', 'fx'];
const RANGE: Partial<Record<ScalarKind, [number, number]>> = {
  i8: [-128, 127], u8: [0, 255], i16: [-32768, 32767], u16: [0, 65535],
  i32: [-2147483648, 2147483647], u32: [0, 4294967295], fx: [-2147483648, 2147483647],
};

/** Values an element of `kind` must refuse, as source text (for the call-free callbacks) and as values. */
function badValues(kind: ScalarKind): string[] {
  const r = RANGE[kind];
  const common = ['NaN', "'5'", 'undefined', 'null'];
  return r === undefined ? common : [String(r[1] + 1), String(r[0] - 1), '1.7', 'Infinity', ...common];
}
const valueOf = (src: string): unknown => new Function(`return ${src};`)();

const ORIGINAL = [1, 2, 3];

/** A world with one entity holding C { arr: [kind, 3] } = [1, 2, 3] (and a long array field, to take the helpers past the inline limit). */
function arrayWorld(kind: ScalarKind) {
  const w = sim.createWorld({ capacity: 8, seed: 3n });
  const C = w.registerComponent('C', { arr: [kind, 3] });
  const L = w.registerComponent('L', { big: ['u8', 40] });
  const e = w.create();
  w.add(e, C, { arr: ORIGINAL });
  w.add(e, L, { big: Array.from({ length: 40 }, (_, i) => i) });
  return { w, C, L, e };
}

/** What World.add says about the same value in element 1: reason and fields but `where`. */
function addVerdict(w: World, C: ReturnType<typeof arrayWorld>['C'], e: number, v: unknown) {
  const err = thrown(() => w.add(e, C, { arr: [1, v as number, 3] }));
  expect(err, `World.add refuses ${String(v)}`).toBeInstanceOf(LaigeError);
  const { where: _w, ...fields } = (err as LaigeError).fields;
  return { reason: (err as LaigeError).reason, fields };
}

function expectRefused(label: string, err: unknown, want: ReturnType<typeof addVerdict>): void {
  expect(err, label).toBeInstanceOf(LaigeError);
  const e = err as LaigeError;
  const { where, ...fields } = e.fields;
  expect({ reason: e.reason, fields }, label).toEqual(want);
  expect(String(where), label).toMatch(/each/);
}

describe('element writes through a write ref are checked like every write', () => {
  for (const kind of KINDS) {
    it(`${kind}: every path refuses what World.add refuses; the element keeps its value`, () => {
      for (const src of badValues(kind)) {
        const value = valueOf(src);
        for (const path of LOOP_PATHS) {
          const { w, C, L, e } = arrayWorld(kind);
          useLoopPath(w, path);
          const want = addVerdict(w, C, e, value);
          const hash = w.stateHash(0);
          const q = w.query({ c: C.write });
          // A callback that reads a closure variable (it may call something: the loop keeps its epoch test).
          expectRefused(`${kind} ${src} ${path} Query.each`, thrown(() => q.each((_e, { c }) => { c.arr[1] = value as number; })), want);
          // A call-free callback (a literal): the loop without the per-row test.
          const literal = new Function('_e', 'r', `r.c.arr[1] = ${src};`) as (e: number, r: unknown) => void;
          const free = callFree(Function.prototype.toString.call(literal), { positional: null, named: new Map([['c', ['arr']]]), arrays: new Map([['c', new Set(['arr'])]]) });
          expect(free, `${src} is call-free`).toBe(true);
          expectRefused(`${kind} ${src} ${path} call-free`, thrown(() => q.each(literal as never)), want);
          // Writes of other elements before the bad one are not stored either (the row is checked whole).
          expectRefused(`${kind} ${src} ${path} two writes`, thrown(() => q.each((_e, { c }) => { c.arr[0] = 0; c.arr[2] = value as number; })),
            { ...want, fields: { ...want.fields, field: 'arr[2]' } });
          expectRefused(`${kind} ${src} ${path} World.each`, thrown(() => w.each([C], ['write'], (_e, c) => { c.arr[1] = value as number; })), want);
          // A query with an optional term takes one loop per presence mask instead of the walk over all archetypes.
          const withOptional = w.query({ c: C.write }, { optional: { l: L.write } });
          expectRefused(`${kind} ${src} ${path} optional term`, thrown(() => withOptional.each((_e, { c }) => { c.arr[1] = value as number; })), want);
          expect(w.get(e, C)!.arr, `${kind} ${src} ${path}`).toEqual(ORIGINAL);
          expect(w.stateHash(0), `${kind} ${src} ${path}: the world is unchanged`).toBe(hash);
          w.dispose();
        }
      }
    });
  }

  it('past the inline length (40 elements): the same checks through the helpers', () => {
    for (const path of LOOP_PATHS) {
      const { w, L, e } = arrayWorld('u8');
      useLoopPath(w, path);
      const hash = w.stateHash(0);
      const q = w.query({ l: L.write });
      for (const [v, reason] of [[300, 'out_of_range'], [-1, 'out_of_range'], [1.5, 'out_of_range'], [NaN, 'invalid_value'], ['7', 'wrong_type']] as const) {
        const err = thrown(() => q.each((_e, { l }) => { l.big[39] = v as number; })) as LaigeError;
        expect([path, v, err.reason, err.fields.field, err.fields.got]).toEqual([path, v, reason, 'big[39]', typeof v === 'number' ? v : 'string']);
        expect(thrown(() => w.each([L], ['write'], (_e, l) => { l.big[0] = v as number; }))).toBeInstanceOf(LaigeError);
      }
      expect(w.stateHash(0)).toBe(hash);
      q.each((_e, { l }) => { l.big[39] = 255; l.big[0] = 9; });
      expect(w.get(e, L)!.big[39]).toBe(255);
      expect(w.get(e, L)!.big[0]).toBe(9);
      w.dispose();
    }
  });

  it('valid element writes of every kind are stored (the range ends, f32 rounding, fx raw values)', () => {
    for (const kind of KINDS) {
      for (const path of LOOP_PATHS) {
        const { w, C, e } = arrayWorld(kind);
        useLoopPath(w, path);
        const r = RANGE[kind];
        const vals = r === undefined ? [0.1, -1e30, 5] : [r[0], r[1], 7];
        w.query({ c: C.write }).each((_e, { c }) => { c.arr[0] = vals[0]!; c.arr[1] = vals[1]!; c.arr[2] = vals[2]!; });
        const want = kind === 'f32' ? vals.map((v) => Math.fround(v)) : vals;
        expect([kind, path, w.get(e, C)!.arr]).toEqual([kind, path, want]);
        // The ref's array is a plain number[]: whole-array methods work and are checked too.
        w.each([C], ['write'], (_e, c) => { expect(Array.isArray(c.arr)).toBe(true); c.arr.fill(1); });
        expect(w.get(e, C)!.arr).toEqual([1, 1, 1]);
        if (r !== undefined) expect(thrown(() => w.each([C], ['write'], (_e, c) => { c.arr.fill(r[1] + 1); }))).toBeInstanceOf(LaigeError);
        const short = thrown(() => w.each([C], ['write'], (_e, c) => { c.arr.pop(); })) as LaigeError;
        expect([short.reason, short.fields.field, short.fields.got]).toEqual(['out_of_range', 'arr', 2]);
        expect(w.get(e, C)!.arr).toEqual([1, 1, 1]);
        w.dispose();
      }
    }
  });
});

describe('element writes through a read ref are refused', () => {
  for (const path of LOOP_PATHS) {
    it(`${path}: read_only_field naming the element, as for a scalar field; nothing changes`, () => {
      const { w, C, L, e } = arrayWorld('u8');
      useLoopPath(w, path);
      const hash = w.stateHash(0);
      const cases: Array<[string, () => void, string]> = [
        ['Query.each', () => w.query({ c: C.read }).each((_e, { c }) => { (c.arr as number[])[1] = 9; }), 'arr[1]'],
        ['World.each', () => w.each([C], ['read'], (_e, c) => { (c.arr as number[])[2] = 9; }), 'arr[2]'],
        ['same value', () => w.each([C], ['read'], (_e, c) => { (c.arr as number[])[0] = 1; }), ''],
        ['push', () => w.each([C], ['read'], (_e, c) => { (c.arr as number[]).push(4); }), 'arr'],
        ['long array', () => w.each([L], ['read'], (_e, l) => { (l.big as number[])[33] = 0; }), 'big[33]'],
      ];
      for (const [label, run, field] of cases) {
        if (field === '') {
          run(); // writing an element's own value changes nothing: allowed, like a scalar
          continue;
        }
        const err = thrown(run) as LaigeError;
        expect(err, label).toBeInstanceOf(LaigeError);
        expect([label, err.reason, err.fields.field], label).toEqual([label, 'read_only_field', field]);
      }
      expect(w.get(e, C)!.arr).toEqual(ORIGINAL);
      expect(w.stateHash(0)).toBe(hash);
      w.dispose();
    });
  }
});

describe('inside a system', () => {
  it("ctx.queries and ctx.each check element writes; the element keeps its value", () => {
    for (const path of LOOP_PATHS) {
      const { w, C, e } = arrayWorld('i8');
      useLoopPath(w, path);
      let mode = 0;
      w.registerSystem({
        name: 'Arr', budgetMs: 100, queries: { q: { c: C.write } },
        run(ctx) {
          if (mode === 0) ctx.queries.q.each((_e, { c }) => { c.arr[1] = 128; });
          else ctx.each([C], ['write'], (_e, c) => { c.arr[1] = -129; });
        },
      });
      for (mode = 0; mode < 2; mode++) {
        const err = thrown(() => w.runSystems()) as LaigeError;
        expect([path, mode, err.reason, err.fields.field, err.fields.got]).toEqual([path, mode, 'out_of_range', 'arr[1]', mode === 0 ? 128 : -129]);
        expect(w.get(e, C)!.arr).toEqual(ORIGINAL);
      }
      w.dispose();
    }
  });
});

describe('eachChunk hands out the column itself', () => {
  it('its array is the heap view: writes through it are stored as the typed array converts them (documented)', () => {
    const { w, C, e } = arrayWorld('u8');
    w.eachChunk([C], ['write'], (chunk) => {
      const col = chunk.field(C, 'arr');
      expect(col.count).toBe(3);
      expect(col.array).toBeInstanceOf(Uint8Array);
      col.array[col.index + 1] = 300;
    });
    expect(w.get(e, C)!.arr).toEqual([1, 44, 3]);
    w.dispose();
  });
});

describe('World.add, the reference these checks follow', () => {
  it('names the kind of the field it refuses, also for an fx field laid out like an i32 one', () => {
    const w = sim.createWorld({ capacity: 4 });
    const I = w.registerComponent('I', { v: 'i32', a: ['i32', 2] });
    const F = w.registerComponent('F', { v: 'fx', a: ['fx', 2] });
    const e = w.create();
    const i = thrown(() => w.add(e, I, { v: 0.5, a: [0, 0] })) as LaigeError;
    const f = thrown(() => w.add(e, F, { v: 0.5, a: [0, 0] })) as LaigeError;
    const fa = thrown(() => w.add(e, F, { v: 0, a: [0, 0.5] })) as LaigeError;
    expect([i.fields.kind, f.fields.kind, fa.fields.kind, fa.fields.field]).toEqual(['i32', 'fx', 'fx', 'a[1]']);
    expect(f.message).toContain('fx.fromFloat');
    w.dispose();
  });
});
