// Query.eachChunk's walk (query/chunk.ts, row_walk.ts): on fragmented worlds
// it visits the rows and values each visits, with filters and optional
// terms; Chunk.field's cached plans give every field of every archetype
// (any kind, offset, column position, order of asking) the values World.get
// reads; its refusals keep their order and reasons; a chunk whose call threw
// is closed by the caller (used_after_call after, and inside a system a
// written read column is restored: system_io_violation, state unchanged).
import { describe, expect, it } from 'vitest';
import { type Chunk, type Entity, LaigeError } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

// A world of `kinds` archetypes: every entity has Data and Extra, plus one of
// `kinds` one-field components (so the Data column moves between archetypes),
// some have Opt (optional term), some Frozen (excluded), some Tag (tag filter).
function fragmented(kinds: number, seed: number) {
  const w = sim.createWorld({ capacity: 4096, seed: 3n, churnPerFrameBudget: 0 });
  const Data = w.registerComponent('Data', { x: 'f64', v: 'f32', n: 'u16', k: 'i16', a: ['u8', 4], m: 'i32' });
  const Extra = w.registerComponent('Extra', { s: 'i32' });
  const Opt = w.registerComponent('Opt', { o: 'f32' });
  const Frozen = w.registerComponent('Frozen', { f: 'u8' });
  const Tag = w.registerComponent('Tag', {});
  const ls = Array.from({ length: kinds }, (_, i) => w.registerComponent(`L${i}`, { t: 'u32' }));
  let r = seed;
  const rnd = (n: number) => { r = (r * 1103515245 + 12345) >>> 0; return (r >>> 8) % n; };
  const es: Entity[] = [];
  for (let i = 0; i < kinds * 12; i++) {
    const e = w.create();
    // The marker first on some: the Data column sits at another index there.
    if (i % 3 === 0) w.add(e, ls[rnd(kinds)]!, { t: i });
    w.add(e, Data, { x: i * 0.5, v: i, n: i * 7, k: -i, a: [i & 255, 1, 2, 3], m: i });
    w.add(e, Extra, { s: -3 * i });
    if (i % 3 !== 0) w.add(e, ls[rnd(kinds)]!, { t: i });
    if (rnd(3) === 0) w.add(e, Opt, { o: i / 4 });
    if (rnd(5) === 0) w.add(e, Frozen, { f: 1 });
    if (rnd(2) === 0) w.add(e, Tag, {});
    es.push(e);
  }
  // Holes: destroyed rows move others inside their archetype.
  for (let i = 0; i < es.length; i += 7) w.destroy(es[i]!);
  return { w, Data, Extra, Opt, Frozen, Tag };
}

type Row = [Entity, number, number, number, number, number[], number, number | undefined];

describe('eachChunk on fragmented worlds', () => {
  it('visits the same rows and values as each, with without, tags and an optional term', () => {
    const { w, Data, Extra, Opt, Frozen, Tag } = fragmented(26, 11);
    const q = w.query({ d: Data.read, x: Extra.read }, { without: [Frozen], tags: [Tag], optional: { o: Opt.read } });
    const byEach: Row[] = [];
    q.each((e, { d, x, o }) => { byEach.push([e, d.x, d.v, d.n, d.k, [...d.a], x.s, o?.o]); });
    const byChunk: Row[] = [];
    let chunks = 0;
    q.eachChunk((c) => {
      chunks++;
      // Asked in another order than the schema, a field twice, the optional term when present.
      const n = c.field(Data, 'n'), a = c.field(Data, 'a'), x = c.field(Data, 'x'), v = c.field(Data, 'v'), k = c.field(Data, 'k');
      const v2 = c.field(Data, 'v');
      expect(v2.index).toBe(v.index);
      const s = c.field(Extra, 's');
      const o = c.has(Opt) ? c.field(Opt, 'o') : null;
      for (let r = 0; r < c.rows; r++) {
        byChunk.push([c.entity(r), x.array[x.index + r * x.stride]!, v.array[v.index + r * v.stride]!, n.array[n.index + r * n.stride]!,
          k.array[k.index + r * k.stride]!, Array.from(a.array.subarray(a.index + r * a.stride, a.index + r * a.stride + a.count)),
          s.array[s.index + r * s.stride]!, o === null ? undefined : o.array[o.index + r * o.stride]]);
      }
    });
    expect(chunks).toBeGreaterThan(10);
    expect(byEach.length).toBeGreaterThan(20);
    expect(byChunk).toEqual(byEach);
    // And World.get agrees (the plans are per term and name, the columns per archetype).
    for (const [e, x, v, n, k, a] of byChunk) expect(w.get(e, Data)).toEqual({ x, v, n, k, a, m: expect.any(Number) });
    w.dispose();
  });

  it('writes through chunk columns give the state each writes give (same state hash)', () => {
    const A = fragmented(20, 5), B = fragmented(20, 5);
    expect(A.w.stateHash(0)).toBe(B.w.stateHash(0));
    const qa = A.w.query({ d: A.Data.write }, { without: [A.Frozen] });
    const qb = B.w.query({ d: B.Data.write }, { without: [B.Frozen] });
    for (let pass = 0; pass < 3; pass++) {
      qa.each((_e, { d }) => { d.v *= 2; d.n = (d.n + 3) & 0xffff; });
      qb.eachChunk((c) => {
        const v = c.field(B.Data, 'v'), n = c.field(B.Data, 'n');
        for (let r = 0; r < c.rows; r++) {
          v.array[v.index + r * v.stride] = v.array[v.index + r * v.stride]! * 2;
          n.array[n.index + r * n.stride] = (n.array[n.index + r * n.stride]! + 3) & 0xffff;
        }
      });
    }
    expect(B.w.stateHash(0)).toBe(A.w.stateHash(0));
    A.w.dispose();
    B.w.dispose();
  });

  it('World.eachChunk and a changed filter visit what World.each and Query.each visit', () => {
    const { w, Data, Extra } = fragmented(8, 2);
    const viaEach: number[] = [];
    w.each([Data, Extra], ['read', 'read'], (e) => { viaEach.push(e); });
    const viaChunk: number[] = [];
    w.eachChunk([Data, Extra], ['read', 'read'], (c) => { for (let r = 0; r < c.rows; r++) viaChunk.push(c.entity(r)); });
    expect(viaChunk).toEqual(viaEach);
    // Changed filter: two queries, the same writes, then the same visits.
    const qe = w.query({ x: Extra.read }, { changed: [Data] });
    const qc = w.query({ x: Extra.read }, { changed: [Data] });
    qe.each(() => {});
    qc.eachChunk(() => {});
    const some = viaEach.filter((_, i) => i % 4 === 1);
    for (const e of some) w.add(e, Data, { ...w.get(e, Data)!, v: 99 });
    const seenEach: number[] = [];
    qe.each((e) => { seenEach.push(e); });
    const seenChunk: number[] = [];
    qc.eachChunk((c) => { for (let r = 0; r < c.rows; r++) seenChunk.push(c.entity(r)); });
    expect(seenEach).toEqual(some);
    expect(seenChunk).toEqual(seenEach);
    w.dispose();
  });

  it('Chunk.field refuses in the same order with the same reasons, whatever it cached', () => {
    const { w, Data, Opt, Frozen } = fragmented(4, 9);
    const q = w.query({ d: Data.read }, { optional: { o: Opt.read } });
    const reasons = new Set<string>();
    const reason = (fn: () => unknown) => { const e = thrown(fn); expect(e).toBeInstanceOf(LaigeError); return e as LaigeError; };
    q.eachChunk((c) => {
      c.field(Data, 'v'); // cached
      const unknownField = reason(() => c.field(Data, 'nope' as 'v'));
      expect(unknownField.reason).toBe('unknown_field');
      expect(unknownField.fields).toMatchObject({ where: 'Chunk.field', component: 'Data', field: 'nope' });
      expect(reason(() => c.field(Data, 7 as unknown as 'v')).reason).toBe('unknown_field');
      const unlisted = reason(() => c.field(Frozen, 'f'));
      expect(unlisted.reason).toBe('unknown_component');
      expect(reason(() => c.field({} as typeof Data, 'v')).reason).toBe('unknown_component');
      if (!c.has(Opt)) {
        const missing = reason(() => c.field(Opt, 'o'));
        expect(missing.reason).toBe('component_missing');
        expect(missing.fields).toMatchObject({ where: 'Chunk.field', component: 'Opt' });
        // A field the component lacks is named before its absence.
        expect(reason(() => c.field(Opt, 'zz' as 'o')).reason).toBe('unknown_field');
        reasons.add('missing');
      } else {
        reasons.add('present');
      }
      expect(c.field(Data, 'v').count).toBe(1);
    });
    expect(reasons).toEqual(new Set(['missing', 'present']));
    w.dispose();
  });

  it('a chunk whose call threw is closed, the guard ended, and the next walk runs', () => {
    const { w, Data } = fragmented(6, 4);
    const q = w.query({ d: Data.write });
    let kept: Chunk | null = null;
    const boom = new Error('boom');
    let calls = 0;
    expect(thrown(() => q.eachChunk((c) => { calls++; kept = c; if (calls === 2) throw boom; }))).toBe(boom);
    expect(calls).toBe(2);
    const used = thrown(() => kept!.field(Data, 'v'));
    expect((used as LaigeError).reason).toBe('used_after_call');
    expect((thrown(() => kept!.entity(0)) as LaigeError).reason).toBe('used_after_call');
    expect((thrown(() => kept!.has(Data)) as LaigeError).reason).toBe('used_after_call');
    expect(String(kept)).toContain('call returned');
    // The guard is gone: structural changes and a new walk work.
    const e = w.create();
    w.add(e, Data, { x: 0, v: 0, n: 0, k: 0, a: [0, 0, 0, 0], m: 0 });
    let rows = 0;
    q.eachChunk((c) => { rows += c.rows; });
    expect(rows).toBe(q.count());
    // A chunk of a call that returned normally is closed too.
    q.eachChunk((c) => { kept = c; });
    expect((thrown(() => kept!.field(Data, 'v')) as LaigeError).reason).toBe('used_after_call');
    w.dispose();
  });

  it('inside a system, a read column written by a callback that then throws is put back: system_io_violation, rows unchanged', () => {
    const { w, Data, Extra } = fragmented(6, 8);
    // (running a system changes the state hash itself: compare the rows)
    const rows = (): unknown[] => { const out: unknown[] = []; w.each([Data, Extra], ['read', 'read'], (e, d, x) => { out.push([e, { ...d, a: [...d.a] }, { ...x }]); }); return out; };
    const before = rows();
    w.registerSystem({
      name: 'Bad', budgetMs: 50, io: [[Data, 'read'], [Extra, 'write']],
      run(ctx) {
        ctx.eachChunk([Data, Extra], ['read', 'write'], (c) => {
          const v = c.field(Data, 'v');
          v.array[v.index] = 12345; // a write to a read term's column
          throw new Error('after the write');
        });
      },
    });
    const err = thrown(() => w.runSystems());
    expect(err).toBeInstanceOf(LaigeError);
    expect((err as LaigeError).reason).toBe('system_io_violation');
    expect(rows()).toEqual(before);
    w.dispose();
  });
});
