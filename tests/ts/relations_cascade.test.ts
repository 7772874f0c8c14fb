// The cascade option from TypeScript (docs/relations.md#the-cascade-query-option):
// Query.eachCascade(rel, fn) walks a query in hierarchy order (depth by
// depth, ascending slot within a depth), so one pass propagates. The fixed
// forest and the model test of tests/cpp/relations_cascade_test.cpp replayed
// op for op (the same golden visit digest as the native and wasm gtests),
// refusals with the core's reasons and the state hash unchanged, commands
// inside a pass, a system's pass, restore.
import { describe, expect, it } from 'vitest';
import { type Entity, LaigeError, type Relation, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';
import { DOCUMENTED_REASONS } from './support/reasons.js';
import { RefPrng } from './support/synthetic.js';

function refused(w: World, fn: () => unknown, reason: string, fields: Record<string, unknown> = {}): void {
  const before = w.stateHash(0);
  const count = w.entityCount;
  const e = thrown(fn);
  expect(e).toBeInstanceOf(LaigeError);
  const err = e as LaigeError;
  expect(DOCUMENTED_REASONS.has(err.reason), `${err.reason} is documented`).toBe(true);
  expect(err.reason, err.message).toBe(reason);
  expect(err.fields).toMatchObject(fields);
  expect(w.stateHash(0)).toBe(before);
  expect(w.entityCount).toBe(count);
}

/** The rig of relations_cascade_test.cpp: CParent (a relation), CLocal, CWorld, CTag, in that order. */
function rig(capacity = 64, rule: 'destroy' | 'remove' = 'destroy') {
  const w = sim.createWorld({ capacity });
  const CParent = w.registerRelation('CParent', { onTargetDestroyed: rule });
  const CLocal = w.registerComponent('CLocal', { v: 'i32' });
  const CWorld = w.registerComponent('CWorld', { v: 'i32' });
  const CTag = w.registerComponent('CTag', { v: 'i32' });
  // Xf of the C++ test (Reads<CLocal>, Writes<CWorld>), with the parent as an optional read term.
  const q = w.query({ l: CLocal.read, out: CWorld.write }, { optional: { parent: CParent.read } });
  const make = (local: number) => {
    const e = w.create();
    w.add(e, CLocal, { v: local });
    w.add(e, CWorld, { v: 0 });
    return e;
  };
  /** world = parent world x 3 + local (wrapping), the parent's value read as this pass left it. */
  const pass = (visit?: (e: Entity, v: number) => void) => {
    q.eachCascade(CParent, (e, { l, out, parent }) => {
      const up = parent === undefined ? undefined : w.get(parent.target, CWorld);
      out.v = compose(up?.v, l.v);
      visit?.(e, out.v);
    });
  };
  return { w, CParent, CLocal, CWorld, CTag, q, make, pass };
}

function compose(up: number | undefined, local: number): number {
  return (Math.imul((up ?? 0) >>> 0, 3) + (local >>> 0)) | 0;
}

describe('Query.eachCascade', () => {
  it('visits depth by depth, ascending slot within a depth, with the parent\'s value written earlier in the pass', () => {
    const { w, CParent, CLocal, CWorld, q, make, pass } = rig();
    const e = Array.from({ length: 10 }, (_, i) => make(i + 1));
    for (const [s, t] of [[9, 0], [3, 0], [1, 3], [8, 1], [2, 5], [4, 2], [6, 2]] as Array<[number, number]>) w.add(e[s]!, CParent(e[t]!));
    const order: number[] = [];
    pass((x) => { order.push(x >>> 16); });
    expect(order).toEqual([0, 5, 7, 2, 3, 9, 1, 4, 6, 8]);
    expect(w.get(e[8]!, CWorld)!.v).toBe(((1 * 3 + 4) * 3 + 2) * 3 + 9);
    // An entity the terms do not match is skipped; its sources are visited and read its value as it is.
    w.remove(e[3]!, CLocal);
    w.add(e[3]!, CWorld, { v: 100 });
    order.length = 0;
    pass((x) => { order.push(x >>> 16); });
    expect(order).toEqual([0, 5, 7, 2, 9, 1, 4, 6, 8]);
    expect(w.get(e[1]!, CWorld)!.v).toBe(100 * 3 + 2);
    // The refs by position (World.each's shape) and without the entity: the same walk.
    let n = 0;
    q.eachCascade(CParent, () => { n++; });
    expect(n).toBe(9);
  });

  it('relation changes inside a pass go through commands and apply when it returns; the next pass follows them', () => {
    const { w, CParent, make, pass } = rig();
    const [a, b, c] = [make(1), make(2), make(3)];
    w.add(c, CParent(b));
    const order: Entity[] = [];
    pass((x) => {
      order.push(x);
      if (x === a) w.commands.add(b, CParent(a)); // b (and c) go below a
    });
    expect(order).toEqual([a, b, c]);
    expect(w.targetOf(b, CParent)).toBe(a);
    order.length = 0;
    pass((x) => { order.push(x); });
    expect(order).toEqual([a, b, c]);
    const depth: number[] = [];
    pass((x, v) => { depth.push(v); void x; });
    expect(depth).toEqual([1, 1 * 3 + 2, (1 * 3 + 2) * 3 + 3]);
    w.checkRelations();
  });

  it('refusals: not a relation, another world\'s, change filters, nested walks, changes inside the pass, bad fn', () => {
    const { w, CParent, CLocal, CWorld, q, make } = rig();
    const [a, b] = [make(1), make(2)];
    w.add(b, CParent(a));
    refused(w, () => q.eachCascade(CLocal as unknown as Relation, () => {}), 'relation_not_registered', { component_id: CLocal.id });
    const other = rig(8);
    refused(w, () => q.eachCascade(other.CParent, () => {}), 'foreign_component');
    refused(w, () => q.eachCascade(CParent, 5 as never), 'wrong_type', { field: 'fn' });
    refused(w, () => w.query({ l: CLocal.read }, { added: [CWorld] }).eachCascade(CParent, () => {}), 'query_invalid', { reason: 'cascade_filtered', term: 1 });
    // Inside an each: a nested walk; inside a relation walk: the walk flag.
    w.each([CLocal], ['read'], () => { refused(w, () => q.eachCascade(CParent, () => {}), 'iteration_nested'); });
    w.eachCascade(CParent, () => { refused(w, () => q.eachCascade(CParent, () => {}), 'relation_walk_mutation'); });
    // Inside the pass: relation changes, a destroy, a nested pass, a restore.
    const loose = w.create();
    const snap = w.snapshot();
    let inside = 0;
    q.eachCascade(CParent, (e) => {
      inside++;
      refused(w, () => w.add(a, CParent(loose)), 'relation_walk_mutation');
      refused(w, () => w.remove(b, CParent), 'relation_walk_mutation');
      refused(w, () => w.destroy(e), 'relation_walk_mutation');
      refused(w, () => q.eachCascade(CParent, () => {}), 'iteration_nested');
      refused(w, () => w.restore(snap), 'restore_inside_callback', { callback: 'eachCascade' });
    });
    expect(inside).toBe(2);
    // What fn throws ends the pass and is rethrown; the world is usable after.
    const boom = new Error('boom');
    let visits = 0;
    expect(thrown(() => q.eachCascade(CParent, () => { visits++; throw boom; }))).toBe(boom);
    expect(visits).toBe(1);
    w.add(a, CParent(make(5)));
    expect(w.targetOf(a, CParent)).toBeDefined();
    other.w.dispose();
  });

  it('inside a system: the relation must be in its io (read is enough)', () => {
    const { w, CParent, CLocal, CWorld, make } = rig();
    w.add(make(2), CParent(make(1)));
    let visited = 0;
    w.registerSystem({
      name: 'Propagate', budgetMs: 50, queries: { xf: { l: CLocal.read, out: CWorld.write } }, io: [[CParent, 'read']],
      run(ctx) { ctx.queries.xf.eachCascade(CParent, (_e, { out }) => { out.v += 1; visited++; }); },
    });
    w.registerSystem({
      name: 'Blind', budgetMs: 50, dependsOn: ['Propagate'], queries: { xf: { l: CLocal.read } },
      run(ctx) { ctx.queries.xf.eachCascade(CParent, () => {}); },
    });
    expect((thrown(() => w.runSystems()) as LaigeError).reason).toBe('system_io_violation');
    expect(visited).toBe(2);
  });
});

// --- the model test of relations_cascade_test.cpp, op for op -----------------

interface Model { parent: number[]; handle: number[] }

function readModel(w: World, rel: Relation, cap: number): Model {
  const m: Model = { parent: new Array<number>(cap).fill(-1), handle: new Array<number>(cap).fill(0) };
  w.each([], [], (e) => {
    m.handle[e >>> 16] = e;
    const t = w.targetOf(e, rel);
    if (t !== undefined) m.parent[e >>> 16] = t >>> 16;
  });
  return m;
}

const M64 = (1n << 64n) - 1n;

/** One pass checked against the reference (checkPass of the C++ test); returns the divergences and the new digest. */
function checkPass(r: ReturnType<typeof rig>, m: Model, digest: bigint): { divergences: number; digest: bigint } {
  const { w, CParent, CLocal, CWorld, q } = r;
  const cap = m.handle.length;
  const queue: number[] = [];
  for (let s = 0; s < cap; s++) if (m.handle[s] !== 0 && m.parent[s]! < 0) queue.push(s);
  const depth = new Array<number>(cap).fill(0);
  for (let i = 0; i < queue.length; i++) {
    for (let s = 0; s < cap; s++) {
      if (m.handle[s] !== 0 && m.parent[s] === queue[i]) { depth[s] = depth[queue[i]!]! + 1; queue.push(s); }
    }
  }
  queue.sort((a, b) => (depth[a] !== depth[b] ? depth[a]! - depth[b]! : a - b));
  const expect_ = new Array<number>(cap).fill(0);
  const hasWorld = new Array<boolean>(cap).fill(false);
  for (let s = 0; s < cap; s++) {
    if (m.handle[s] === 0) continue;
    const v = w.get(m.handle[s]!, CWorld);
    if (v !== undefined) { expect_[s] = v.v; hasWorld[s] = true; }
  }
  const order: number[] = [];
  for (const s of queue) {
    const h = m.handle[s]!;
    if (!w.has(h, CLocal) || !hasWorld[s]) continue;
    order.push(s);
    const p = m.parent[s]!;
    expect_[s] = compose(p >= 0 && hasWorld[p] ? expect_[p] : undefined, w.get(h, CLocal)!.v);
  }
  let divergences = 0;
  const seen: number[] = [];
  try {
    q.eachCascade(CParent, (e, { l, out, parent }) => {
      const p = m.parent[e >>> 16]!;
      const up = parent === undefined ? undefined : w.get(parent.target, CWorld);
      if ((p >= 0 && hasWorld[p]) !== (up !== undefined)) divergences++;
      if (e !== m.handle[e >>> 16]) divergences++;
      out.v = compose(up?.v, l.v);
      seen.push(e >>> 16);
      digest = ((digest ^ BigInt(((e >>> 0) + (out.v >>> 0)) >>> 0)) * 1099511628211n) & M64;
    });
  } catch {
    divergences++;
  }
  if (seen.join() !== order.join()) divergences++;
  for (let s = 0; s < cap; s++) if (hasWorld[s] && w.get(m.handle[s]!, CWorld)!.v !== expect_[s]) divergences++;
  return { divergences, digest };
}

// The relation term for one target (docs/relations.md#query-terms): the
// query's rows whose relation names the target, ascending slot.
describe('Query.eachSourceOf', () => {
  it('visits the sources of one target the query matches, ascending slot, with refs; reparents move them', () => {
    const { w, CParent, CLocal, CWorld, CTag, q, make } = rig();
    const e = Array.from({ length: 8 }, (_, i) => make(i * 10));
    for (const [s, t] of [[5, 0], [2, 0], [7, 0], [3, 2], [4, 1]] as const) w.add(e[s]!, CParent(e[t]!));
    w.add(e[7]!, CTag, { v: 1 }); // another archetype
    const kids = (t: Entity) => { const out: number[] = []; q.eachSourceOf(CParent, t, (x) => { out.push(x >>> 16); }); return out; };
    expect(kids(e[0]!)).toEqual([2, 5, 7]);
    expect(kids(e[2]!)).toEqual([3]);
    expect(kids(e[6]!)).toEqual([]);
    w.remove(e[5]!, CLocal); // the query no longer matches it
    expect(kids(e[0]!)).toEqual([2, 7]);
    // Writes through the refs land; the parent's value is at hand.
    q.eachSourceOf(CParent, e[0]!, (_x, { l, out, parent }) => { out.v = compose(w.get(parent!.target, CWorld)!.v, l.v); });
    expect(w.get(e[2]!, CWorld)!.v).toBe(compose(0, 20));
    w.add(e[7]!, CParent(e[2]!));
    expect(kids(e[0]!)).toEqual([2]);
    expect(kids(e[2]!)).toEqual([3, 7]);
    // The same rows as a filter over the whole query, by a plain reference.
    for (const t of e) {
      if (!w.isValid(t)) continue;
      const expected: number[] = [];
      q.each((x, { parent }) => { if (parent?.target === t) expected.push(x >>> 16); });
      expect(kids(t)).toEqual(expected);
    }
  });

  it('refusals: a stale, null or malformed target, not a relation, nested walks, changes inside; commands apply after', () => {
    const { w, CParent, CLocal, q, make } = rig();
    const [a, b, c, gone] = [make(1), make(2), make(3), make(4)];
    w.add(b, CParent(a));
    w.add(c, CParent(a));
    w.destroy(gone);
    refused(w, () => q.eachSourceOf(CParent, gone, () => {}), 'stale_entity_access');
    refused(w, () => q.eachSourceOf(CParent, 0 as Entity, () => {}), 'stale_entity_access');
    refused(w, () => q.eachSourceOf(CParent, -1 as Entity, () => {}), 'out_of_range', { field: 'entity' });
    refused(w, () => q.eachSourceOf(CParent, 'a' as unknown as Entity, () => {}), 'wrong_type', { field: 'entity' });
    refused(w, () => q.eachSourceOf(CLocal as unknown as Relation, a, () => {}), 'relation_not_registered');
    refused(w, () => q.eachSourceOf(CParent, a, 5 as never), 'wrong_type', { field: 'fn' });
    w.each([CLocal], ['read'], () => { refused(w, () => q.eachSourceOf(CParent, a, () => {}), 'iteration_nested'); });
    w.eachCascade(CParent, () => { refused(w, () => q.eachSourceOf(CParent, a, () => {}), 'relation_walk_mutation'); });
    let inside = 0;
    q.eachSourceOf(CParent, a, (x) => {
      inside++;
      refused(w, () => w.remove(x, CParent), 'relation_walk_mutation');
      refused(w, () => w.destroy(a), 'relation_walk_mutation');
      if (x === c) w.commands.destroy(b);
    });
    expect(inside).toBe(2);
    expect(w.isValid(b)).toBe(false);
    const seen: Entity[] = [];
    q.eachSourceOf(CParent, a, (x) => { seen.push(x); });
    expect(seen).toEqual([c]);
  });
});

describe('the model test (tests/cpp/relations_cascade_test.cpp)', () => {
  it('random forests, reparents, removes, row moves, cascading destroys, snapshots, restores: every pass equals the reference; the native digest', () => {
    const CAP = 96;
    const ops = Number(process.env.LAIGE_RELATION_MODEL_OPS ?? 3000);
    let digestSeed1 = 0n;
    const report: string[] = [];
    for (let seed = 1n; seed <= 5n; seed++) {
      const r = rig(CAP, seed % 2n === 0n ? 'remove' : 'destroy');
      const { w, CParent, CLocal, CWorld, CTag } = r;
      const rng = new RefPrng(seed);
      const next = () => rng.nextU64();
      let snapshot: Uint8Array | null = null;
      let divergences = 0;
      let passes = 0;
      let digest = 14695981039346656037n;
      const attempt = (fn: () => unknown) => { try { fn(); } catch (e) { if (!(e instanceof LaigeError)) throw e; } };
      for (let op = 0; op < ops; op++) {
        const all: Entity[] = [];
        w.each([], [], (e) => { all.push(e); });
        const pick = () => all[Number(next() % BigInt(all.length))]!;
        const kind = all.length < 4 ? 0n : next() % 16n;
        if (kind <= 3n) {
          if (all.length < CAP - 8) {
            const e = w.create();
            if (next() % 8n !== 0n) attempt(() => w.add(e, CLocal, { v: Number(next() % 1000n) }));
            if (next() % 8n !== 0n) attempt(() => w.add(e, CWorld, { v: 0 }));
            if (all.length > 0 && next() % 4n !== 0n) { const t = pick(); attempt(() => w.add(e, CParent(t))); }
          }
        } else if (kind <= 7n) {
          const source = pick();
          const target = pick();
          attempt(() => w.add(source, CParent(target)));
        } else if (kind === 8n) {
          const e = pick();
          attempt(() => w.remove(e, CParent));
        } else if (kind === 9n) {
          w.destroy(pick());
        } else if (kind === 10n) {
          const e = pick();
          if (w.has(e, CLocal)) w.remove(e, CLocal);
          else w.add(e, CLocal, { v: Number(next() % 1000n) });
        } else if (kind === 11n) {
          const e = pick();
          if (w.has(e, CTag)) w.remove(e, CTag);
          else w.add(e, CTag, { v: 1 });
        } else if (kind === 12n) {
          snapshot = w.snapshot();
        } else if (kind === 13n && snapshot !== null) {
          w.restore(snapshot);
        } else if (kind >= 13n) {
          const res = checkPass(r, readModel(w, CParent, CAP), digest);
          divergences += res.divergences;
          digest = res.digest;
          passes++;
        }
      }
      w.checkRelations();
      if (divergences !== 0) report.push(`seed ${seed}: ${divergences} divergences`);
      if (passes <= ops / 10) report.push(`seed ${seed}: only ${passes} passes`);
      if (seed === 1n) digestSeed1 = digest;
      w.dispose();
    }
    expect(report).toEqual([]);
    if (ops === 3000) expect(digestSeed1).toBe(16322972405601972757n);
  });
});
