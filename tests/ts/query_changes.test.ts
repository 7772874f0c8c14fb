// Change filters from TypeScript (docs/changes.md#from-typescript-change-filters):
// `world.query(terms, { changed: [C], added: [C] })` and the same in a
// system's `queries`, run by the core (its ticks, its per-archetype skip,
// its "since"). A model test against a plain reference that records change
// ticks, bad input, and snapshot/restore exactness of the systems' "since".
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { LaigeError, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

function setup(capacity = 64) {
  const w = sim.createWorld({ capacity, seed: 3n });
  const P = w.registerComponent('P', { x: 'f32' });
  const V = w.registerComponent('V', { x: 'f32' });
  const S = w.registerComponent('S', { v: 'u8' });
  return { w, P, V, S };
}

const sorted = (a: number[]): number[] => [...a].sort((x, y) => x - y);

describe('change filters from TypeScript', () => {
  it('changed and added outside systems: since this query object last ran', () => {
    const { w, P, V } = setup();
    const a = w.create();
    const b = w.create();
    w.add(a, P, { x: 1 });
    w.add(b, P, { x: 2 });
    w.add(b, V, { x: 0 });
    const moved = w.query({ p: P.read }, { changed: [P] });
    const seen = (): number[] => { const out: number[] = []; moved.each((e) => { out.push(e); }); return out; };
    expect(seen()).toEqual([a, b]); // the first run sees every entity that has P
    expect(seen()).toEqual([]); // nothing changed since
    w.add(b, P, { x: 5 }); // an add over an existing value marks changed
    expect(seen()).toEqual([b]);
    w.query({ p: P.write, v: V.read }).each((_e, { p }) => { p.x += 1; }); // a Write term marks every row it walks
    expect(seen()).toEqual([b]);
    const fresh = w.query({ v: V.read }, { added: [V] });
    const added: number[] = [];
    fresh.each((e) => { added.push(e); });
    expect(added).toEqual([b]);
    w.add(a, V, { x: 1 });
    w.add(b, V, { x: 9 }); // an overwrite: changed, not added
    added.length = 0;
    fresh.each((e) => { added.push(e); });
    expect(added).toEqual([a]);
    // A second query object has its own "since".
    const other: number[] = [];
    w.query({ p: P.read }, { changed: [P] }).each((e) => { other.push(e); });
    expect(other).toEqual([a, b]);
    expect(String(moved)).toBe('Query(p: P read; changed P)');
    expect(moved.count()).toBe(2); // count ignores the filters
  });

  it('a filter component is required and gives no ref unless it is a term', () => {
    const { w, P, V } = setup();
    const a = w.create();
    w.add(a, P, { x: 1 });
    const b = w.create();
    w.add(b, P, { x: 2 });
    w.add(b, V, { x: 3 });
    const q = w.query({ p: P.read }, { changed: [V] });
    const refs: object[] = [];
    const es: number[] = [];
    q.each((e, r) => { es.push(e); refs.push({ ...r }); });
    expect(es).toEqual([b]);
    expect(Object.keys(refs[0]!)).toEqual(['p']);
  });

  it('eachChunk of a filtered query: one chunk per run of rows the filters pass', () => {
    const { w, P } = setup();
    const es = Array.from({ length: 6 }, (_, i) => { const e = w.create(); w.add(e, P, { x: i }); return e; });
    const q = w.query({ p: P.read }, { changed: [P] });
    q.each(() => {});
    w.add(es[1]!, P, { x: 10 });
    w.add(es[2]!, P, { x: 20 });
    w.add(es[4]!, P, { x: 40 });
    const chunks: Array<[number, number[]]> = [];
    q.eachChunk((c) => {
      const f = c.field(P, 'x');
      chunks.push([c.rows, Array.from({ length: c.rows }, (_, r) => f.array[f.index + r * f.stride]!)]);
    });
    expect(chunks).toEqual([[2, [10, 20]], [1, [40]]]);
  });

  it('inside systems: since that system last ran, in the system queries declaration', () => {
    const { w, P, V } = setup();
    const log: Record<string, number[][]> = { A: [], B: [] };
    w.registerSystem({ name: 'A', budgetMs: 10, queries: { q: { p: P.read, v: V.write, changed: [P] } },
      run(ctx) { const out: number[] = []; ctx.queries.q.each((e, { v }) => { out.push(e); v.x += 1; }); log.A!.push(out); } });
    w.registerSystem({ name: 'B', budgetMs: 10, queries: { q: { v: V.read, changed: [V] } },
      run(ctx) { const out: number[] = []; ctx.queries.q.each((e) => { out.push(e); }); log.B!.push(out); } });
    const a = w.create();
    w.add(a, P, { x: 1 });
    w.add(a, V, { x: 1 });
    const b = w.create();
    w.add(b, P, { x: 1 });
    w.add(b, V, { x: 1 });
    w.runSystems();
    expect(log.A).toEqual([[a, b]]);
    expect(log.B).toEqual([[a, b]]);
    w.runSystems();
    expect(log.A![1]).toEqual([]);
    expect(log.B![1]).toEqual([]);
    w.add(b, P, { x: 7 });
    w.runSystems();
    expect(log.A![2]).toEqual([b]);
    expect(log.B![2]).toEqual([b]); // A wrote V of the rows it visited
  });

  it('a nested each refused inside a filtered walk leaves that walk\'s "since" as it was', () => {
    const { w, P } = setup();
    const a = w.create();
    w.add(a, P, { x: 1 });
    const q = w.query({ p: P.read }, { changed: [P] });
    const inner = w.query({ p: P.read }, { added: [P] });
    let nested: unknown = null;
    q.each(() => { nested = thrown(() => inner.each(() => {})); });
    expect((nested as LaigeError).reason).toBe('iteration_nested');
    const again: number[] = [];
    q.each((e) => { again.push(e); });
    expect(again).toEqual([]); // the first walk was recorded
  });

  it('bad input: a LaigeError with reason and fields, the world unchanged', () => {
    const { w, P, V } = setup();
    w.add(w.create(), P, { x: 1 });
    const other = sim.createWorld({ capacity: 4 });
    const Q = other.registerComponent('Q', { x: 'f32' });
    const h = w.stateHash(1n);
    const cases: Array<[() => unknown, string, Record<string, unknown>]> = [
      [() => w.query({ p: P.read }, { changed: P as never }), 'wrong_type', { where: 'World.query', field: 'changed' }],
      [() => w.query({ p: P.read }, { added: 'P' as never }), 'wrong_type', { where: 'World.query', field: 'added' }],
      [() => w.query({ p: P.read }, { changed: [Q as never] }), 'foreign_component', { where: 'World.query' }],
      [() => w.query({ p: P.read }, { changed: [{} as never] }), 'wrong_type', { where: 'World.query' }],
      [() => w.query({ p: P.read }, { without: [V], changed: [V] }), 'filter_excluded', { where: 'World.query', field: 'changed[0]', component: 'V' }],
      [() => w.query({ p: P.read }, { without: [V], added: [V] }), 'filter_excluded', { field: 'added[0]', component: 'V' }],
      [() => w.query({ p: P.read }, { changed: [V, V] }), 'duplicate_entry', { field: 'changed[1]', component: 'V' }],
      [() => w.query({ p: P.read }, { changes: [V] } as never), 'invalid_name', { field: 'options', got: 'changes' }],
      [() => w.query({ changed: P.read } as never), 'invalid_name', { field: 'terms.changed' }],
      [() => w.registerSystem({ name: 'Bad', budgetMs: 1, queries: { q: { p: P.read, changed: [V], without: [V] } }, run() {} }), 'filter_excluded', { component: 'V' }],
    ];
    for (const [fn, reason, fields] of cases) {
      const e = thrown(fn);
      expect(e, reason).toBeInstanceOf(LaigeError);
      expect((e as LaigeError).reason, (e as LaigeError).message).toBe(reason);
      expect((e as LaigeError).fields).toMatchObject(fields);
      expect(w.stateHash(1n)).toBe(h);
    }
    // A filter outside the running system's io: system_io_violation, before the core.
    let inside: unknown = null;
    const q = w.query({ p: P.read }, { changed: [V] });
    w.registerSystem({ name: 'S', budgetMs: 1, io: [[P, 'read']], run() { inside = thrown(() => q.each(() => {})); } });
    w.runSystems();
    expect((inside as LaigeError).reason).toBe('system_io_violation');
    other.dispose();
    w.dispose();
  });
});

// --- the model test ---------------------------------------------------------

/** A plain reference: per entity its components, per (entity, component) the added / changed sequence numbers. */
class Reference {
  seq = 0;
  readonly tracked = new Set<string>();
  readonly has = new Map<number, Map<string, { added: number; changed: number }>>();
  readonly lastRun = new Map<string, number>();

  add(e: number, c: string): void {
    const m = this.has.get(e)!;
    const t = m.get(c);
    const now = ++this.seq;
    if (t === undefined) m.set(c, { added: now, changed: now });
    else t.changed = now;
  }
  write(e: number, c: string): void {
    const t = this.has.get(e)?.get(c);
    if (t !== undefined) t.changed = ++this.seq;
  }
  /** The entities an observer's filtered query visits; its filter components start being tracked. */
  visit(observer: string, req: string[], without: string[], changed: string[], added: string[]): number[] {
    for (const c of [...changed, ...added]) {
      if (this.tracked.has(c)) continue;
      this.tracked.add(c); // tracking starts: every holder counts as added and changed now
      const now = ++this.seq;
      for (const m of this.has.values()) { const t = m.get(c); if (t !== undefined) { t.added = now; t.changed = now; } }
    }
    const since = this.lastRun.get(observer) ?? 0;
    const out: number[] = [];
    for (const [e, m] of this.has) {
      if (![...req, ...changed, ...added].every((c) => m.has(c)) || without.some((c) => m.has(c))) continue;
      if (changed.some((c) => this.tick(m, c, 'changed') <= since)) continue;
      if (added.some((c) => this.tick(m, c, 'added') <= since)) continue;
      out.push(e);
    }
    return sorted(out);
  }
  tick(m: Map<string, { added: number; changed: number }>, c: string, k: 'added' | 'changed'): number {
    return this.tracked.has(c) ? m.get(c)![k] : Number.POSITIVE_INFINITY;
  }
  ran(observer: string): void { this.lastRun.set(observer, this.seq); }
}

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
}

describe('change filters: model test', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`random ops against a reference that records change ticks (seed ${seed}): 0 divergences`, () => {
      const { w, P, V, S } = setup(48);
      const comps = { P, V, S } as const;
      const addTo = (e: number, n: 'P' | 'V' | 'S', step: number): void => {
        if (n === 'S') w.add(e, S, { v: step & 0xff });
        else w.add(e, n === 'P' ? P : V, { x: step });
      };
      type Name = keyof typeof comps;
      const names: Name[] = ['P', 'V', 'S'];
      const ref = new Reference();
      const rnd = prng(seed);
      const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
      let divergences = 0;
      const check = (what: string, got: number[], want: number[]): void => {
        if (JSON.stringify(sorted(got)) !== JSON.stringify(want)) {
          divergences++;
          if (divergences < 4) console.log(what, 'got', sorted(got), 'want', want);
        }
      };
      // Two systems with filters; A writes V on the rows it visits.
      w.registerSystem({ name: 'A', budgetMs: 100, queries: { q: { p: P.read, v: V.write, changed: [P] } },
        run(ctx) {
          const want = ref.visit('A', ['P', 'V'], [], ['P'], []);
          const got: number[] = [];
          ctx.queries.q.each((e, { v }) => { got.push(e); v.x += 1; });
          for (const e of want) ref.write(e, 'V');
          check('system A', got, want);
          ref.ran('A');
        } });
      w.registerSystem({ name: 'B', budgetMs: 100, queries: { q: { s: S.read, added: [S], changed: [V] } },
        run(ctx) {
          const want = ref.visit('B', ['S'], [], ['V'], ['S']);
          const got: number[] = [];
          ctx.queries.q.each((e) => { got.push(e); });
          check('system B', got, want);
          ref.ran('B');
        } });
      const outside = w.query({ p: P.read }, { changed: [P], without: [S] });
      const outsideAdded = w.query({ v: V.write }, { added: [V] });
      const writer = w.query({ p: P.write });
      const live = (): number[] => [...ref.has.keys()];
      for (let step = 0; step < 600; step++) {
        const r = rnd();
        if (r < 0.2 && ref.has.size < 40) {
          const e = w.create();
          ref.has.set(e, new Map());
          for (const n of names) if (rnd() < 0.5) { addTo(e, n, step); ref.add(e, n); }
        } else if (r < 0.4 && ref.has.size > 0) {
          const e = pick(live());
          const n = pick(names);
          addTo(e, n, step); // structural or an overwrite
          ref.add(e, n);
        } else if (r < 0.5 && ref.has.size > 0) {
          const e = pick(live());
          const n = pick(names);
          if (ref.has.get(e)!.has(n)) { w.remove(e, comps[n]); ref.has.get(e)!.delete(n); }
        } else if (r < 0.57 && ref.has.size > 0) {
          const e = pick(live());
          w.destroy(e);
          ref.has.delete(e);
        } else if (r < 0.6 && ref.has.size > 0) {
          // A field handle's set marks its component changed (a read through get does not).
          const e = pick(live());
          const n = pick(['P', 'V'] as const);
          if (ref.has.get(e)!.has(n)) {
            const c = n === 'P' ? P : V;
            c.field.x.get(e);
            c.field.x.set(e, step);
            ref.write(e, n);
          }
        } else if (r < 0.62 && ref.has.size > 0) {
          // markChanged marks without writing.
          const e = pick(live());
          const n = pick(names);
          if (ref.has.get(e)!.has(n)) { w.markChanged(e, comps[n]); ref.write(e, n); }
        } else if (r < 0.67) {
          // An unfiltered Write walk marks every row it visits (tracked components).
          writer.each((_e, { p }) => { p.x += 0.5; });
          for (const [e, m] of ref.has) if (m.has('P')) ref.write(e, 'P');
        } else if (r < 0.76) {
          const want = ref.visit('outside', ['P'], ['S'], ['P'], []);
          const got: number[] = [];
          outside.each((e) => { got.push(e); });
          check('outside changed', got, want);
          ref.ran('outside');
        } else if (r < 0.82) {
          const want = ref.visit('outsideAdded', ['V'], [], [], ['V']);
          const got: number[] = [];
          outsideAdded.each((e, { v }) => { got.push(e); v.x -= 1; });
          for (const e of want) ref.write(e, 'V');
          check('outside added', got, want);
          ref.ran('outsideAdded');
        } else {
          w.runSystems();
        }
      }
      expect(divergences).toBe(0);
      w.dispose();
    });
  }
});

describe('change filters: snapshot and restore', () => {
  it('a restore, then the same ops, gives the same filtered results inside systems', () => {
    const { w, P, V } = setup();
    const log: number[][] = [];
    w.registerSystem({ name: 'A', budgetMs: 10, queries: { q: { p: P.read, changed: [P] } },
      run(ctx) { const out: number[] = []; ctx.queries.q.each((e) => { out.push(e); }); log.push(out); } });
    w.registerSystem({ name: 'B', budgetMs: 10, queries: { q: { v: V.read, added: [V] } },
      run(ctx) { const out: number[] = []; ctx.queries.q.each((e) => { out.push(e + 1e6); }); log.push(out); } });
    const es = Array.from({ length: 8 }, (_, i) => { const e = w.create(); w.add(e, P, { x: i }); return e; });
    w.runSystems();
    w.runSystems();
    const snap = w.snapshot();
    const h = w.stateHash(1n);
    const ops = (world: World): number[][] => {
      log.length = 0;
      world.add(es[2]!, P, { x: 9 });
      world.add(es[3]!, V, { x: 1 });
      world.runSystems();
      world.add(es[5]!, P, { x: 9 });
      world.remove(es[3]!, V);
      world.add(es[3]!, V, { x: 2 });
      world.runSystems();
      world.runSystems();
      return log.map((l) => [...l]);
    };
    const first = ops(w);
    expect(first.flat().length).toBeGreaterThan(0);
    w.restore(snap);
    expect(w.stateHash(1n)).toBe(h);
    expect(ops(w)).toEqual(first);
    w.dispose();
  });
});

describe('the core query table', () => {
  it('a Query that is garbage collected frees its core query (more than the limit made over time, none kept)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { w, P } = setup();
    w.add(w.create(), P, { x: 1 });
    for (let batch = 0; batch < 5; batch++) {
      for (let i = 0; i < 8000; i++) w.query({ p: P.read }); // dropped at once
      gc();
      await new Promise((r) => setTimeout(r, 0)); // the finalizers run
      gc();
      await new Promise((r) => setTimeout(r, 0));
    }
    // 40,000 queries made, at most 16,384 live at a time: the dropped ones were freed.
    expect(w.query({ p: P.read }).count()).toBe(1);
    w.dispose();
  }, 60_000);
});
