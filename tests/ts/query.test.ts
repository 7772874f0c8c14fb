// Query objects: terms, filters, optional terms and tags against a simple
// model; the archetype cache across archetype creation and clear; the visit
// order of World.each; Chunks and refs that die with their call; Write-ref
// array fields (no half-applied row, nothing lost on memory growth).
import { describe, expect, it } from 'vitest';
import { type Entity, LaigeError, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

function rig(capacity = 512) {
  const w = sim.createWorld({ capacity });
  const A = w.registerComponent('A', { x: 'f32', y: 'f32' });
  const B = w.registerComponent('B', { v: 'i32' });
  const C = w.registerComponent('C', { k: 'u8', pad: ['u8', 3] });
  const T = w.registerComponent('T', {}); // a tag
  return { w, A, B, C, T, all: [A, B, C, T] as const };
}

/** Deterministic pseudo-random bits (no Math.random: the test must replay). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
}

/** What a query must visit: entities having `with`, none of `without`, in archetype then slot order. */
function model(w: World, es: Entity[], has: Map<Entity, Set<string>>, withs: string[], withouts: string[]): Entity[] {
  return es.filter((e) => w.isValid(e) && withs.every((c) => has.get(e)!.has(c)) && !withouts.some((c) => has.get(e)!.has(c)))
    .sort((a, b) => w.archetypeOf(a) - w.archetypeOf(b) || (a >>> 16) - (b >>> 16));
}

describe('World.query', () => {
  it('with, without, optional and tags match the model, in archetype then slot order', () => {
    const { w, A, B, C, T } = rig();
    const rnd = lcg(7);
    const es: Entity[] = [];
    const has = new Map<Entity, Set<string>>();
    for (let i = 0; i < 300; i++) {
      const e = w.create();
      const set = new Set<string>();
      if (rnd() & 1) { w.add(e, A, { x: i, y: -i }); set.add('A'); }
      if (rnd() & 2) { w.add(e, B, { v: i }); set.add('B'); }
      if (rnd() & 4) { w.add(e, C, { k: i & 0xff, pad: [0, 0, 0] }); set.add('C'); }
      if (rnd() & 8) { w.add(e, T, {}); set.add('T'); }
      es.push(e);
      has.set(e, set);
    }
    for (let i = 0; i < 40; i++) { const e = es[(rnd() % es.length)]!; if (w.isValid(e)) w.destroy(e); }
    const q1 = w.query({ a: A.read }, { without: [B] });
    const seen1: Entity[] = [];
    q1.each((e, { a }) => { seen1.push(e); expect(a.x).toBe(w.get(e, A)!.x); });
    expect(seen1).toEqual(model(w, es, has, ['A'], ['B']));
    expect(q1.count()).toBe(seen1.length);

    const q2 = w.query({ b: B.write }, { optional: { c: C.read }, tags: [T] });
    const seen2: Array<[Entity, number | undefined]> = [];
    q2.each((e, { b, c }) => { seen2.push([e, c?.k]); b.v += 1; });
    const exp2 = model(w, es, has, ['B', 'T'], []);
    expect(seen2.map((s) => s[0])).toEqual(exp2);
    for (const [e, k] of seen2) {
      expect(k).toBe(has.get(e)!.has('C') ? w.get(e, C)!.k : undefined);
      expect(w.get(e, B)!.v).toBe((e >>> 16) + 1);
    }
    const q3 = w.query({}, { tags: [T], without: [A, C] });
    const seen3: Entity[] = [];
    q3.each((e) => { seen3.push(e); });
    expect(seen3).toEqual(model(w, es, has, ['T'], ['A', 'C']));
    expect(q3.archetypes().every((a) => w.archetypeComponents(a).includes(T.id))).toBe(true);
    w.dispose();
  });

  it('visits exactly what World.each visits, in the same order', () => {
    const { w, A, B } = rig();
    const rnd = lcg(3);
    for (let i = 0; i < 200; i++) {
      const e = w.create();
      if (rnd() & 1) w.add(e, B, { v: i });
      w.add(e, A, { x: i, y: 0 });
      if (rnd() & 4) w.destroy(e);
    }
    const viaEach: Entity[] = [];
    w.each([A], ['read'], (e) => { viaEach.push(e); });
    const viaQuery: Entity[] = [];
    w.query({ a: A.read }).each((e) => { viaQuery.push(e); });
    expect(viaQuery).toEqual(viaEach);
    expect(viaQuery.length).toBeGreaterThan(50);
    w.dispose();
  });

  it('the archetype cache grows with new archetypes and stays right across clear', () => {
    const { w, A, B, C } = rig();
    const q = w.query({ a: A.write }, { without: [C] });
    expect(q.count()).toBe(0);
    const e1 = w.create();
    w.add(e1, A, { x: 1, y: 1 });
    expect(q.archetypes()).toEqual([w.archetypeOf(e1)]);
    const e2 = w.create();
    w.add(e2, B, { v: 2 });
    w.add(e2, A, { x: 2, y: 2 }); // a new archetype {A, B}
    const e3 = w.create();
    w.add(e3, A, { x: 3, y: 3 });
    w.add(e3, C, { k: 1, pad: [0, 0, 0] }); // {A, C}: excluded
    const got: Entity[] = [];
    q.each((e, { a }) => { got.push(e); a.x *= 10; });
    expect(got).toEqual([e1, e2]);
    expect(w.get(e3, A)!.x).toBe(3);
    w.clear();
    expect(q.count()).toBe(0);
    const f = w.create();
    w.add(f, C, { k: 2, pad: [0, 0, 0] });
    w.add(f, A, { x: 5, y: 5 }); // {C, A}: the {A, C} archetype again
    const g = w.create();
    w.add(g, A, { x: 6, y: 6 });
    const after: Entity[] = [];
    q.each((e) => { after.push(e); });
    expect(after).toEqual([g]);
    expect(q.count()).toBe(1);
    w.dispose();
  });

  it('rejects bad terms with a reason', () => {
    const { w, A, B } = rig();
    const other = sim.createWorld({ capacity: 4 });
    const O = other.registerComponent('O', { x: 'f32' });
    const bad: Array<() => unknown> = [
      () => w.query({ a: A.read, b: A.write }),
      () => w.query({ a: A.read }, { without: [A] }),
      () => w.query({ a: { component: A, access: 'rw' } as never }),
      () => w.query({ o: O.read } as never),
      () => w.query({}),
      () => w.query({ a: A.read }, { tagz: [B] } as never),
      () => w.query({ without: A.read } as never),
    ];
    for (const f of bad) {
      const e = thrown(f);
      expect(e).toBeInstanceOf(LaigeError);
      expect((e as LaigeError).code).toBe('invalid_argument');
    }
    expect((thrown(bad[0]!) as LaigeError).reason).toBe('duplicate_entry');
    other.dispose();
    w.dispose();
  });

  it('a read ref throws on assignment and stores nothing of that row; the guard is live', () => {
    const { w, A, B } = rig();
    const e = w.create();
    w.add(e, A, { x: 1, y: 1 });
    w.add(e, B, { v: 1 });
    const q = w.query({ a: A.write, b: B.read });
    const h = w.stateHash(0);
    expect(thrown(() => q.each((_e, { a, b }) => { a.x = 9; (b as { v: number }).v = 2; }))).toBeInstanceOf(LaigeError);
    expect(thrown(() => q.each((x) => { w.remove(x, B); }))).toBeInstanceOf(LaigeError);
    expect(thrown(() => q.each(() => { q.each(() => {}); }))).toMatchObject({ reason: 'iteration_nested' });
    expect(w.stateHash(0)).toBe(h);
    w.dispose();
  });

  it('an optional read term is guarded like a read term: World.add of it in place is rejected', () => {
    const { w, A, C } = rig();
    const e = w.create();
    w.add(e, A, { x: 1, y: 1 });
    w.add(e, C, { k: 1, pad: [0, 0, 0] });
    const q = w.query({ a: A.write }, { optional: { c: C.read } });
    const h = w.stateHash(0);
    const err = thrown(() => q.each((x) => { w.add(x, C, { k: 5, pad: [0, 0, 0] }); })) as LaigeError;
    expect(err.reason).toBe('iteration_write_during_read');
    expect(thrown(() => q.each((x) => { C.field.k.set(x, 4); }))).toMatchObject({ reason: 'iteration_write_during_read' });
    expect(w.stateHash(0)).toBe(h);
    q.each((x) => { A.field.x.set(x, 7); }); // a write term: legal, and the ref's snapshot does not undo it
    expect(w.get(e, A)!.x).toBe(7);
    const other = w.create();
    w.add(other, C, { k: 2, pad: [0, 0, 0] }); // {C}: not walked
    q.each(() => { w.remove(other, C); }); // a structural change of an unwalked archetype: legal
    expect(w.has(other, C)).toBe(false);
    w.dispose();
  });

  it('two queries given the same callback text keep their own loops and results', () => {
    const { w, A, B } = rig();
    for (let i = 0; i < 10; i++) { const e = w.create(); w.add(e, A, { x: i, y: 0 }); if (i & 1) w.add(e, B, { v: 0 }); }
    const q1 = w.query({ a: A.write }, { without: [B] });
    const q2 = w.query({ a: A.write }, { tags: [B] });
    for (let k = 0; k < 3; k++) {
      q1.each((_e, { a }) => { a.y += 1; });
      q2.each((_e, { a }) => { a.y += 1; });
    }
    let s = 0;
    w.each([A], ['read'], (_e, a) => { s += a.y; });
    expect(s).toBe(30);
    w.dispose();
  });
});

describe('a model of queries mixed with mutations', () => {
  it('random creates, destroys, adds, removes, clears and query walks agree with a plain model', () => {
    const { w, A, B, C } = rig(256);
    const rnd = lcg(11);
    const model = new Map<Entity, { a?: number; b?: number; c?: number }>();
    const moves = w.query({ a: A.write }, { without: [B], optional: { c: C.read } });
    const tagged = w.query({ b: B.read }, { tags: [C] });
    const live = (): Entity[] => [...model.keys()];
    let visited = 0;
    let clears = 0;
    for (let step = 0; step < 1500; step++) {
      const op = rnd() % 9;
      const es = live();
      const pick = es.length > 0 ? es[rnd() % es.length]! : undefined;
      if (op === 0 && model.size < 200) model.set(w.create(), {});
      else if (op === 1 && pick !== undefined) { w.destroy(pick); model.delete(pick); }
      else if (op === 2 && pick !== undefined) { const x = rnd() % 100; w.add(pick, A, { x, y: 0 }); model.get(pick)!.a = x; }
      else if (op === 3 && pick !== undefined) { const v = rnd() % 100; w.add(pick, B, { v }); model.get(pick)!.b = v; }
      else if (op === 4 && pick !== undefined) { const k = rnd() % 100; w.add(pick, C, { k, pad: [0, 0, 0] }); model.get(pick)!.c = k; }
      else if (op === 5 && pick !== undefined) { const c = [A, B, C][rnd() % 3]!; w.remove(pick, c); delete model.get(pick)![(['a', 'b', 'c'] as const)[[A, B, C].indexOf(c)]!]; }
      else if (op === 6) {
        const seen: Entity[] = [];
        moves.each((e, { a, c }) => {
          seen.push(e);
          const m = model.get(e)!;
          expect(c?.k).toBe(m.c);
          a.x += 1;
          m.a! += 1;
        });
        const expected = live().filter((e) => model.get(e)!.a !== undefined && model.get(e)!.b === undefined);
        expect(seen.slice().sort((x, y) => x - y)).toEqual(expected.sort((x, y) => x - y));
        expect(moves.count()).toBe(expected.length);
        visited += seen.length;
      } else if (op === 7) {
        const seen: Entity[] = [];
        tagged.each((e, { b }) => { seen.push(e); expect(b.v).toBe(model.get(e)!.b); });
        expect(seen.length).toBe(live().filter((e) => model.get(e)!.b !== undefined && model.get(e)!.c !== undefined).length);
      } else if (op === 8 && rnd() % 40 === 0) { w.clear(); model.clear(); clears++; }
    }
    expect(visited).toBeGreaterThan(200);
    expect(clears).toBeGreaterThan(0);
    for (const [e, m] of model) {
      expect(w.get(e, A)?.x).toBe(m.a);
      expect(w.get(e, B)?.v).toBe(m.b);
      expect(w.get(e, C)?.k).toBe(m.c);
    }
    w.dispose();
  });
});

describe('query loops: generated, shared and interpreted agree', () => {
  for (const path of ['auto', 'shared', 'interpreted'] as const) {
    it(`${path}: named refs, optional terms present and absent, array fields, a failing row`, () => {
      const { w, A, B, C } = rig();
      (w as unknown as { _eachLoops: string })._eachLoops = path;
      const Arr = w.registerComponent('Arr', { v: ['i32', 2] });
      const es: Entity[] = [];
      for (let i = 0; i < 12; i++) {
        const e = w.create();
        w.add(e, A, { x: i, y: 0 });
        if (i % 3 === 0) w.add(e, B, { v: i });
        if (i % 2 === 0) w.add(e, Arr, { v: [i, -i] });
        es.push(e);
      }
      const q = w.query({ a: A.write }, { optional: { b: B.read, arr: Arr.write }, without: [C] });
      const seen: string[] = [];
      q.each((e, { a, b, arr }) => {
        seen.push(`${e >>> 16}:${b === undefined ? '-' : b.v}:${arr === undefined ? '-' : arr.v[1]}`);
        a.y = (b?.v ?? 0) + 1;
        if (arr !== undefined) arr.v[0] = arr.v[0]! * 10;
      });
      expect(seen.slice().sort()).toEqual(es.map((e, i) => `${e >>> 16}:${i % 3 === 0 ? i : '-'}:${i % 2 === 0 ? -i : '-'}`).sort());
      es.forEach((e, i) => {
        expect(w.get(e, A)!.y).toBe((i % 3 === 0 ? i : 0) + 1);
        if (i % 2 === 0) expect(w.get(e, Arr)!.v).toEqual([i * 10, -i | 0]);
      });
      let chunks = 0;
      q.eachChunk((c) => {
        chunks++;
        expect(c.has(A)).toBe(true);
        if (!c.has(B)) expect(() => c.field(B, 'v')).toThrow(LaigeError);
      });
      expect(chunks).toBe(q.archetypes().length);
      const h = w.stateHash(0);
      expect(thrown(() => q.each((_e, { a, arr }) => { if (arr !== undefined) arr.v[1] = 7; a.x = NaN; }))).toBeInstanceOf(LaigeError);
      expect(w.stateHash(0)).toBe(h);
      w.dispose();
    });
  }
});

describe('objects that die with their call', () => {
  it('a Chunk kept after eachChunk throws used_after_call', () => {
    const { w, A } = rig();
    w.add(w.create(), A, { x: 1, y: 2 });
    let kept: { field: (c: typeof A, n: 'x') => unknown; entity: (r: number) => unknown } | null = null;
    w.query({ a: A.read }).eachChunk((c) => { kept = c; expect(c.field(A, 'x')).toBeDefined(); });
    w.eachChunk([A], ['read'], (c) => { kept = c; });
    for (const f of [() => kept!.field(A, 'x'), () => kept!.entity(0)]) {
      expect(thrown(f)).toMatchObject({ reason: 'used_after_call' });
    }
    w.dispose();
  });

  it('a Chunk whose call threw is closed too, the guard is released, and a read column it wrote inside a system is put back', () => {
    const { w, A } = rig();
    const e = w.create();
    w.add(e, A, { x: 1, y: 2 });
    const boom = new Error('boom');
    let kept: { field: (c: typeof A, n: 'x') => unknown } | null = null;
    expect(thrown(() => w.query({ a: A.read }).eachChunk((c) => { kept = c; throw boom; }))).toBe(boom);
    expect(thrown(() => kept!.field(A, 'x'))).toMatchObject({ reason: 'used_after_call' });
    w.remove(e, A); // the guard is released: a structural change of the matched archetype is legal again
    w.add(e, A, { x: 1, y: 2 });
    w.registerSystem({ name: 'Writer', budgetMs: 5, io: [[A, 'read']], run: (ctx) => {
      ctx.eachChunk([A], ['read'], (c) => {
        const f = c.field(A, 'x');
        f.array[f.index] = 99; // a read column written, then the callback throws
        throw boom;
      });
    } });
    const h = w.stateHash(0);
    expect(thrown(() => w.runSystems())).toMatchObject({ reason: 'system_io_violation' });
    expect(w.get(e, A)).toEqual({ x: 1, y: 2 });
    expect(w.stateHash(0)).toBe(h);
    w.dispose();
  });

  it('a ctx kept after its system returned throws used_after_call', () => {
    const { w, A } = rig();
    const e = w.create();
    w.add(e, A, { x: 1, y: 2 });
    let kept: { each: (...a: never[]) => void; queries: unknown } | null = null;
    let keptQuery: { each: (fn: () => void) => void } | null = null;
    w.registerSystem({
      name: 'Keep', budgetMs: 5, queries: { as: { a: A.write } },
      run(ctx) { kept = ctx as never; keptQuery = ctx.queries.as as never; ctx.queries.as.each((_e, { a }) => { a.x += 1; }); },
    });
    w.runSystems();
    expect(w.get(e, A)!.x).toBe(2);
    const h = w.stateHash(0);
    expect(thrown(() => kept!.queries)).toMatchObject({ reason: 'used_after_call' });
    expect(thrown(() => (kept!.each as (c: unknown, a: unknown, f: unknown) => void)([A], ['write'], () => {}))).toMatchObject({ reason: 'used_after_call' });
    expect(thrown(() => keptQuery!.each(() => {}))).toMatchObject({ reason: 'used_after_call' });
    expect(w.stateHash(0)).toBe(h);
    w.dispose();
  });
});

describe('Write-ref array fields', () => {
  it('all checks of a row run before any store: an element write is not kept when a later check fails', () => {
    const { w, B } = rig();
    const Arr = w.registerComponent('Arr', { v: ['i32', 3] });
    const e = w.create();
    w.add(e, Arr, { v: [1, 2, 3] });
    w.add(e, B, { v: 0 });
    const q = w.query({ arr: Arr.write, b: B.write });
    const h = w.stateHash(0);
    expect(thrown(() => q.each((_e, { arr, b }) => { arr.v[0] = 99; b.v = 1.5; }))).toBeInstanceOf(LaigeError);
    expect(w.get(e, Arr)!.v).toEqual([1, 2, 3]);
    expect(w.stateHash(0)).toBe(h);
    w.each([Arr, B], ['write', 'write'], (_e, arr, b) => { arr.v[1] = 20; b.v = 4; });
    expect(w.get(e, Arr)!.v).toEqual([1, 20, 3]);
    w.dispose();
  });

  it('element writes made after wasm memory grew inside the callback are stored', () => {
    const w = sim.createWorld({ capacity: 65536, churnPerFrameBudget: 0 });
    const Arr = w.registerComponent('Arr', { v: ['f64', 4] });
    const Big = w.registerComponent('Big', { b: ['f64', 64] });
    const e = w.create();
    w.add(e, Arr, { v: [1, 2, 3, 4] });
    const big = { b: new Array<number>(64).fill(1) };
    const bytes = (): number => (w as unknown as { _mem: { u8: Uint8Array } })._mem.u8.buffer.byteLength;
    for (const path of ['query', 'each'] as const) {
      const before = bytes();
      const body = (arr: { v: number[] }): void => {
        arr.v[0] = arr.v[0]! + 10;
        for (let i = 0; i < 20000; i++) w.add(w.create(), Big, big); // ~10 MB of columns: memory grows
        arr.v[3] = arr.v[3]! + 10;
      };
      if (path === 'query') w.query({ arr: Arr.write }).each((_e, { arr }) => body(arr));
      else w.each([Arr], ['write'], (_e, arr) => body(arr));
      expect(bytes()).toBeGreaterThan(before);
    }
    expect(w.get(e, Arr)!.v).toEqual([21, 2, 3, 24]);
    w.dispose();
  });
});

describe('field handles', () => {
  it('get and set one field, generation-checked, validated, nothing built', () => {
    const { w, A, C } = rig();
    const Arr = w.registerComponent('Arr', { v: ['i32', 2] });
    const e = w.create();
    w.add(e, A, { x: 1.5, y: 2 });
    w.add(e, Arr, { v: [3, 4] });
    expect(A.field.x.get(e)).toBe(1.5);
    A.field.y.set(e, 8);
    expect(w.get(e, A)).toEqual({ x: 1.5, y: 8 });
    expect(Arr.field.v.get(e, 1)).toBe(4);
    Arr.field.v.set(e, 0, 30);
    expect(w.get(e, Arr)!.v).toEqual([30, 4]);
    const h = w.stateHash(0);
    expect(thrown(() => A.field.x.set(e, NaN))).toBeInstanceOf(LaigeError);
    expect(thrown(() => Arr.field.v.set(e, 0, 1.5))).toBeInstanceOf(LaigeError);
    expect(thrown(() => Arr.field.v.get(e, 2))).toBeInstanceOf(LaigeError);
    expect(thrown(() => C.field.k.get(e))).toMatchObject({ reason: 'component_missing' });
    const stale = w.create();
    w.destroy(stale);
    expect(thrown(() => A.field.x.get(stale))).toMatchObject({ reason: 'stale_entity_access' });
    expect(thrown(() => A.field.x.get(-1 as Entity))).toBeInstanceOf(LaigeError);
    expect(w.stateHash(0)).toBe(h);
    w.dispose();
  });

  it('an array field needs its element index: get(e) and set(e, v) are refused, never element 0', () => {
    const { w } = rig();
    const Arr = w.registerComponent('Arr', { v: ['u8', 4] });
    const e = w.create();
    w.add(e, Arr, { v: [3, 4, 5, 6] });
    const h = w.stateHash(0);
    const get = Arr.field.v.get as (e: Entity, i?: number) => number;
    const set = Arr.field.v.set as unknown as (e: Entity, a: number, b?: number) => void;
    const cases: Array<[string, () => unknown, Record<string, unknown>]> = [
      ['get(e)', () => get(e), { where: 'Arr.field.v.get', field: 'i', got: 'undefined', min: 0, max: 3 }],
      ['get(e, undefined)', () => get(e, undefined), { where: 'Arr.field.v.get', field: 'i', got: 'undefined', min: 0, max: 3 }],
      ['detached get(e)', () => { const read = Arr.field.v.get as (e: Entity) => number; return read(e); }, { where: 'Arr.field.v.get', field: 'i' }],
      ['set(e, 9)', () => set.call(Arr.field.v, e, 9), { where: 'Arr.field.v.set', field: 'i', got: 'undefined', min: 0, max: 3 }],
      ['get(e, 4)', () => get(e, 4), { where: 'Arr.field.v.get', field: 'i', got: 4 }],
      ["get(e, '1')", () => get(e, '1' as unknown as number), { where: 'Arr.field.v.get', field: 'i', got: 'string' }],
      ['set(e, 1, 300)', () => set.call(Arr.field.v, e, 1, 300), { where: 'Arr.field.v.set', field: 'v[1]', got: 300, kind: 'u8' }],
    ];
    for (const [label, run, fields] of cases) {
      const err = thrown(run) as LaigeError;
      expect(err, label).toBeInstanceOf(LaigeError);
      expect(err.fields, label).toMatchObject(fields);
      if (fields.got === 'undefined') {
        expect([label, err.reason]).toEqual([label, 'wrong_type']);
        expect(err.message, label).toMatch(/'v' is an array of 4; name the element/);
      }
    }
    expect(w.get(e, Arr)!.v).toEqual([3, 4, 5, 6]);
    expect(w.stateHash(0)).toBe(h);
    w.dispose();
  });
});
