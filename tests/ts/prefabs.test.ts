// Prefabs from TypeScript (docs/prefabs.md#typescript): the Prefab tag,
// createPrefab / makePrefab / isPrefab, queries skipping prefabs,
// instantiate with its tree and overrides, the deferred form in a defer, an
// each and a system, every refusal with the core's reason and the state
// hash unchanged, snapshot / restore exactness, and the model test of
// tests/cpp/prefabs_model_test.cpp replayed op for op (its golden state
// hashes are the native ones).
import { describe, expect, it } from 'vitest';
import { type Entity, LaigeError, type Relation, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';
import { DOCUMENTED_REASONS } from './support/reasons.js';
import { RefPrng } from './support/synthetic.js';
import { byteInput, expectConfirmedHashes, lateRemoteSession, noLatencyHashes } from './support/rollback_net.js';

/** Expects fn to throw `reason` (with `fields` among its fields) and to leave the state hash and the entity count as they were. */
function refused(w: World, fn: () => unknown, reason: string, fields: Record<string, unknown> = {}): LaigeError {
  const before = w.stateHash(0);
  const count = w.entityCount;
  const e = thrown(fn);
  expect(e).toBeInstanceOf(LaigeError);
  const err = e as LaigeError;
  expect(DOCUMENTED_REASONS.has(err.reason), `${err.reason} is documented in docs/errors.md`).toBe(true);
  expect(err.reason, err.message).toBe(reason);
  expect(err.fields).toMatchObject(fields);
  expect(w.stateHash(0)).toBe(before);
  expect(w.entityCount).toBe(count);
  return err;
}

const slotOf = (e: Entity) => e >>> 16;

/** A tank prefab: hull 100, a turret child (gun 3) and a muzzle grandchild (gun 1), plus a plain entity. */
function tank(capacity = 64) {
  const w = sim.createWorld({ capacity });
  const ChildOf = w.registerRelation('ChildOf', { onTargetDestroyed: 'destroy' });
  const Hull = w.registerComponent('Hull', { hp: 'i32' });
  const Gun = w.registerComponent('Gun', { power: 'i32', ammo: 'u16', spare: 'u16' });
  const Prefab = w.registerPrefabs();
  const plain = w.create();
  w.add(plain, Hull, { hp: 7 });
  const t = w.createPrefab();
  w.add(t, Hull, { hp: 100 });
  const turret = w.createPrefab();
  w.add(turret, Gun, { power: 3, ammo: 10, spare: 0 });
  w.add(turret, ChildOf(t));
  const muzzle = w.createPrefab();
  w.add(muzzle, Gun, { power: 1, ammo: 0, spare: 0 });
  w.add(muzzle, ChildOf(turret));
  return { w, ChildOf, Hull, Gun, Prefab, plain, tank: t, turret, muzzle };
}

describe('the prefab API', () => {
  it('registerPrefabs gives the Prefab tag (idempotent); createPrefab, makePrefab, isPrefab', () => {
    const w = sim.createWorld({ capacity: 16 });
    expect(w.prefabTag).toBeUndefined();
    const P = w.registerComponent('P', { x: 'i32' });
    const Prefab = w.registerPrefabs();
    expect(Prefab.name).toBe('Prefab');
    expect(Prefab.size).toBe(0);
    expect(w.registerPrefabs()).toBe(Prefab);
    expect(w.prefabTag).toBe(Prefab);
    expect(w.component('Prefab')).toBe(Prefab);
    const p = w.createPrefab();
    expect(w.isPrefab(p)).toBe(true);
    expect(w.has(p, Prefab)).toBe(true);
    const e = w.create();
    w.add(e, P, { x: 1 });
    expect(w.isPrefab(e)).toBe(false);
    w.makePrefab(e);
    w.makePrefab(e); // a no-op overwrite
    expect(w.isPrefab(e)).toBe(true);
    expect(w.get(e, P)).toEqual({ x: 1 });
    w.destroy(e);
    expect(w.isPrefab(e)).toBe(false); // stale: false, as has
    // createPrefab registers the tag in a world that did not.
    const w2 = sim.createWorld({ capacity: 4 });
    const q = w2.createPrefab();
    expect(w2.prefabTag?.name).toBe('Prefab');
    expect(w2.isPrefab(q)).toBe(true);
    w.dispose();
    w2.dispose();
  });

  it('queries skip prefabs unless they name the tag: terms, tags, optional, without, World.each, counts', () => {
    const { w, Hull, Gun, Prefab, plain, tank: t, turret, muzzle } = tank();
    const seen = (q: { each(fn: (e: Entity) => void): void }) => { const out: Entity[] = []; q.each((e) => { out.push(e); }); return out; };
    expect(seen(w.query({ h: Hull.read }))).toEqual([plain]);
    expect(w.query({ h: Hull.read }).count()).toBe(1);
    expect(w.query({ g: Gun.read }).count()).toBe(0);
    expect(seen(w.query({ h: Hull.read }, { tags: [Prefab] }))).toEqual([t]);
    expect(seen(w.query({}, { tags: [Prefab] })).sort()).toEqual([t, turret, muzzle].sort());
    expect(seen(w.query({ h: Hull.read }, { optional: { p: Prefab.read } })).sort()).toEqual([plain, t].sort());
    expect(seen(w.query({ h: Hull.read }, { without: [Prefab] }))).toEqual([plain]);
    const each: Entity[] = [];
    w.each([Hull], ['read'], (e) => { each.push(e); });
    expect(each).toEqual([plain]);
    // Walks that are not archetype queries see them (sourcesOf, eachCascade).
    expect(w.sourcesOf(t, w.component('ChildOf') as never)).toEqual([turret]);
  });

  it('instantiate copies the tree breadth first into the slots create would give; the root is a root; the tag is not copied', () => {
    const { w, ChildOf, Hull, Gun, tank: t } = tank();
    // The handles create would hand out, from a twin restored to the same state.
    const twin = sim.createWorld({ capacity: 64 });
    twin.registerRelation('ChildOf', { onTargetDestroyed: 'destroy' });
    twin.registerComponent('Hull', { hp: 'i32' });
    twin.registerComponent('Gun', { power: 'i32', ammo: 'u16', spare: 'u16' });
    twin.registerPrefabs();
    twin.restore(w.snapshot());
    const want = [twin.create(), twin.create(), twin.create()];
    const root = w.instantiate(t, { hierarchy: ChildOf });
    expect(root).toBe(want[0]);
    const [turret1] = w.sourcesOf(root, ChildOf);
    expect(turret1).toBe(want[1]);
    expect(w.sourcesOf(turret1!, ChildOf)).toEqual([want[2]]);
    expect(w.targetOf(root, ChildOf)).toBeUndefined();
    expect(w.get(root, Hull)).toEqual({ hp: 100 });
    expect(w.get(turret1!, Gun)).toEqual({ power: 3, ammo: 10, spare: 0 });
    expect([root, turret1!, want[2]!].map((e) => w.isPrefab(e))).toEqual([false, false, false]);
    // Queries see instances.
    expect(w.query({ g: Gun.read }).count()).toBe(2);
    // Without a hierarchy: the prefab alone; its relations keep their targets.
    const lone = w.instantiate(w.sourcesOf(t, ChildOf)[0]!);
    expect(w.targetOf(lone, ChildOf)).toBe(t);
    expect(w.sourcesOf(lone, ChildOf)).toEqual([]);
    w.checkRelations();
    twin.dispose();
  });

  it('overrides replace the root\'s values (a later entry wins); the children keep the prefab\'s', () => {
    const { w, ChildOf, Hull, Gun, tank: t, turret } = tank();
    const weak = w.instantiate(t, { hierarchy: ChildOf, overrides: [[Hull, { hp: 50 }], [Hull, { hp: 40 }]] });
    expect(w.get(weak, Hull)).toEqual({ hp: 40 });
    expect(w.get(t, Hull)).toEqual({ hp: 100 });
    expect(w.get(w.sourcesOf(weak, ChildOf)[0]!, Gun)).toEqual({ power: 3, ammo: 10, spare: 0 });
    const gun = w.instantiate(turret, { overrides: [[Gun, { power: 9, ammo: 1, spare: 2 }]] });
    expect(w.get(gun, Gun)).toEqual({ power: 9, ammo: 1, spare: 2 });
    // The override values are typed from the schema, as World.add's.
    expect(() => {
      // @ts-expect-error hp is a number
      w.instantiate(t, { overrides: [[Hull, { hp: 'x' }]] });
    }).toThrow(LaigeError);
    expect(() => {
      // @ts-expect-error Hull has no field power
      w.instantiate(t, { overrides: [[Hull, { power: 1 }]] });
    }).toThrow(LaigeError);
  });

  it('the deferred form: handles now, components at the phase end; in a defer, an each and a system; same state as direct', () => {
    const direct = tank();
    const deferred = tank();
    const a = direct.w.instantiate(direct.tank, { hierarchy: direct.ChildOf, overrides: [[direct.Hull, { hp: 5 }]] });
    let b = 0;
    deferred.w.defer((cmds) => {
      b = cmds.instantiate(deferred.tank, { hierarchy: deferred.ChildOf, overrides: [[deferred.Hull, { hp: 5 }]] });
      expect(deferred.w.isValid(b)).toBe(true);
      expect(deferred.w.has(b, deferred.Hull)).toBe(false); // the adds apply at the end
    });
    expect(b).toBe(a);
    expect(deferred.w.get(b, deferred.Hull)).toEqual({ hp: 5 });
    expect(deferred.w.stateHash(0)).toBe(direct.w.stateHash(0));
    // Inside an each: world.commands.
    const { w, ChildOf, Hull, tank: t, plain } = tank();
    const made: Entity[] = [];
    w.each([Hull], ['read'], () => { made.push(w.commands.instantiate(t, { hierarchy: ChildOf })); });
    expect(made).toHaveLength(1);
    expect(w.get(made[0]!, Hull)).toEqual({ hp: 100 });
    expect(w.sourceCount(made[0]!, ChildOf)).toBe(1);
    // Inside a system: ctx.commands, under its io.
    w.registerSystem({
      name: 'Spawn', budgetMs: 50, io: [[Hull, 'write'], [ChildOf, 'write'], [w.component('Gun')!, 'write']],
      run(ctx) { made.push(ctx.commands.instantiate(t, { hierarchy: ChildOf })); },
    });
    w.runSystems();
    expect(w.get(made[1]!, Hull)).toEqual({ hp: 100 });
    expect(w.query({ h: Hull.read }).count()).toBe(3);
    expect(w.isValid(plain)).toBe(true);
    w.checkRelations();
  });

  it('snapshot / restore: prefabs and instances are state; a restored world instantiates the same handles and hashes', () => {
    const { w, ChildOf, Hull, tank: t } = tank();
    w.instantiate(t, { hierarchy: ChildOf });
    const snap = w.snapshot();
    const h0 = w.stateHash(0);
    const r1 = w.instantiate(t, { hierarchy: ChildOf, overrides: [[Hull, { hp: 1 }]] });
    const h1 = w.stateHash(0);
    w.restore(snap);
    expect(w.stateHash(0)).toBe(h0);
    expect(w.isPrefab(t)).toBe(true);
    expect(w.instantiate(t, { hierarchy: ChildOf, overrides: [[Hull, { hp: 1 }]] })).toBe(r1);
    expect(w.stateHash(0)).toBe(h1);
    // A fresh world with the same setup.
    const fresh = tank();
    fresh.w.restore(snap);
    expect(fresh.w.stateHash(0)).toBe(h0);
    expect(fresh.w.query({ h: fresh.Hull.read }).count()).toBe(2);
    // A world without the tag is another setup.
    const bare = sim.createWorld({ capacity: 64 });
    bare.registerRelation('ChildOf', { onTargetDestroyed: 'destroy' });
    bare.registerComponent('Hull', { hp: 'i32' });
    bare.registerComponent('Gun', { power: 'i32', ammo: 'u16', spare: 'u16' });
    expect((thrown(() => bare.restore(snap)) as LaigeError).reason).toMatch(/^snapshot_/);
  });
});

describe('rollback', () => {
  it('a rollback session whose systems instantiate (deferred), destroy and run a cascade pass every tick confirms the no-latency run\'s hashes', () => {
    const TICKS = 90;
    const LATE = 4;
    const input = byteInput;
    const game = () => {
      const { w, ChildOf, Hull, Gun, tank: t, turret, muzzle } = tank(512);
      const Depth = w.registerComponent('Depth', { d: 'i32' });
      for (const e of [t, turret, muzzle]) w.add(e, Depth, { d: -1 });
      w.registerSystem({
        name: 'Spawn', budgetMs: 50, io: [[Hull, 'write'], [Gun, 'write'], [ChildOf, 'write'], [Depth, 'read']],
        run(ctx) {
          const roots: Entity[] = [];
          ctx.each([Hull], ['read'], (e) => { if (ctx.world.targetOf(e, ChildOf) === undefined) roots.push(e); });
          for (let i = 0; i < ctx.input.length; i++) {
            const x = ctx.input[i]!;
            if (x % 3 !== 0 && roots.length < 40) ctx.commands.instantiate(t, { hierarchy: ChildOf, overrides: [[Hull, { hp: x }]] });
            if (x % 4 === 0 && roots.length > 0) ctx.commands.destroy(roots[(x + ctx.tick) % roots.length]!);
          }
        },
      });
      w.registerSystem({
        name: 'Depths', budgetMs: 50, dependsOn: ['Spawn'], queries: { all: { dep: Depth.write } }, io: [[ChildOf, 'read']],
        run(ctx) {
          ctx.queries.all.eachCascade(ChildOf, (e, { dep }) => {
            const p = ctx.world.targetOf(e, ChildOf);
            dep.d = p === undefined ? 0 : ctx.world.get(p, Depth)!.d + 1;
          });
        },
      });
      return { w, Depth };
    };
    const ref = game();
    const refHashes = noLatencyHashes(ref.w, TICKS, input);
    // The pass ran: every instance has its depth, the templates keep theirs.
    const depths = new Set<number>();
    ref.w.query({ dep: ref.Depth.read }).each((_e, { dep }) => { depths.add(dep.d); });
    expect([...depths].sort()).toEqual([0, 1, 2]);
    const { w } = game();
    const s = lateRemoteSession(w, TICKS, LATE, input);
    expect(s.stats.rollbacks).toBeGreaterThan(10);
    expectConfirmedHashes(s, refHashes, TICKS);
    w.checkRelations();
    s.dispose();
  });
});

describe('bad input is refused with the core\'s reason and changes nothing', () => {
  it('not a prefab, stale, another world\'s, wrong types', () => {
    const { w, ChildOf, Hull, plain, tank: t } = tank();
    refused(w, () => w.instantiate(plain), 'prefab_not_a_prefab', { entity_id: slotOf(plain), generation: plain & 0xffff });
    const dead = w.create();
    w.destroy(dead);
    refused(w, () => w.instantiate(dead), 'stale_entity_access');
    refused(w, () => w.makePrefab(dead), 'stale_entity_access');
    // Another world's handle: not live here.
    const other = tank(8);
    const foreign = other.w.createPrefab();
    other.w.createPrefab();
    refused(w, () => w.instantiate(foreign + 40 * 65536), 'stale_entity_access');
    refused(w, () => w.instantiate(t, { hierarchy: other.ChildOf }), 'foreign_component');
    refused(w, () => w.instantiate(t, { overrides: [[other.Hull, { hp: 1 }]] }), 'foreign_component');
    refused(w, () => w.instantiate('t' as unknown as Entity), 'wrong_type');
    refused(w, () => w.instantiate(-1), 'out_of_range');
    refused(w, () => w.instantiate(t, 5 as never), 'wrong_type', { field: 'options' });
    refused(w, () => w.instantiate(t, { overrides: {} as never }), 'wrong_type', { field: 'overrides' });
    refused(w, () => w.instantiate(t, { overrides: [[Hull]] as never }), 'wrong_type', { field: 'overrides[0]' });
    refused(w, () => w.instantiate(t, { overrides: [[Hull, { hp: 2 ** 40 }]] }), 'out_of_range');
    refused(w, () => w.instantiate(t, { overrides: Array.from({ length: 33 }, () => [Hull, { hp: 1 }] as const) }), 'out_of_range', { max: 32 });
    refused(w, () => w.instantiate(t, { hierarchy: Hull as unknown as Relation }), 'relation_not_registered', { component_id: Hull.id });
    refused(w, () => w.instantiate(t, { hierarchy: 'ChildOf' as unknown as Relation }), 'wrong_type');
    void ChildOf;
    other.w.dispose();
  });

  it('overrides: a component the prefab lacks, a relation, the tag', () => {
    const { w, ChildOf, Gun, Prefab, tank: t, turret } = tank();
    refused(w, () => w.instantiate(t, { overrides: [[Gun, { power: 1, ammo: 1, spare: 1 }]] }), 'prefab_override_invalid', { component_id: Gun.id, why: 'absent' });
    refused(w, () => w.instantiate(turret, { overrides: [[ChildOf.component, { target: t }]] }), 'prefab_override_invalid', { why: 'relation' });
    refused(w, () => w.instantiate(t, { overrides: [[Prefab, {}]] }), 'prefab_override_invalid', { why: 'tag' });
    // The deferred form checks the same before recording anything.
    w.defer((c) => {
      refused(w, () => c.instantiate(t, { overrides: [[Gun, { power: 1, ammo: 1, spare: 1 }]] }), 'prefab_override_invalid');
      expect(c.pending).toBe(0);
    });
  });

  it('the phase rules: inside an each or a system (direct), inside a relation walk, outside a phase, a closed buffer', () => {
    const { w, ChildOf, Hull, tank: t } = tank();
    w.each([Hull], ['read'], () => {
      refused(w, () => w.instantiate(t), 'iteration_mutation', { operation: 'instantiate' });
    });
    w.eachCascade(ChildOf, () => {
      refused(w, () => w.instantiate(t, { hierarchy: ChildOf }), 'relation_walk_mutation');
      w.defer((c) => { refused(w, () => c.instantiate(t, { hierarchy: ChildOf }), 'relation_walk_mutation'); });
    });
    let kept: { instantiate(p: Entity): Entity } | null = null;
    w.defer((c) => { kept = c; });
    refused(w, () => kept!.instantiate(t), 'used_after_call');
    w.registerSystem({ name: 'Direct', budgetMs: 50, io: [[Hull, 'write']], run(ctx) { ctx.world.instantiate(t); } });
    const h = w.stateHash(0);
    expect((thrown(() => w.runSystems()) as LaigeError).reason).toBe('iteration_mutation');
    expect(w.stateHash(0)).toBe(h);
    expect(w.query({ h: Hull.read }).count()).toBe(1);
  });

  it('a system must declare what the deferred form adds (system_io_violation); the entity budget covers the whole tree', () => {
    const { w, ChildOf, Hull, tank: t } = tank(7);
    w.registerSystem({ name: 'Blind', budgetMs: 50, io: [[Hull, 'write']], run(ctx) { ctx.commands.instantiate(t, { hierarchy: ChildOf }); } });
    expect((thrown(() => w.runSystems()) as LaigeError).reason).toBe('system_io_violation');
    expect(w.query({ h: Hull.read }).count()).toBe(1);
    // 4 live of 7: a tree of 3 fits once, not twice.
    w.instantiate(t, { hierarchy: ChildOf });
    refused(w, () => w.instantiate(t, { hierarchy: ChildOf }), 'entity_budget_exhausted', { needed: 3 });
    refused(w, () => w.defer((c) => c.instantiate(t, { hierarchy: ChildOf })), 'entity_budget_exhausted');
  });
});

// --- the model test of tests/cpp/prefabs_model_test.cpp, op for op ------------

interface RefSlot { alive: boolean; gen: number; x: number; parent: number; prefab: boolean }

/** The plain reference of prefabs_model_test.cpp: slots, the free list, breadth-first trees. */
class Ref {
  slots: RefSlot[];
  freed: number[] = [];
  high = 0;
  constructor(cap: number) { this.slots = Array.from({ length: cap }, () => ({ alive: false, gen: 1, x: 0, parent: -1, prefab: false })); }
  clone(): Ref {
    const r = new Ref(0);
    r.slots = this.slots.map((s) => ({ ...s }));
    r.freed = [...this.freed];
    r.high = this.high;
    return r;
  }
  live(): number { return this.slots.filter((s) => s.alive).length; }
  create(): number {
    const id = this.freed.length > 0 ? this.freed.pop()! : this.high++;
    this.slots[id] = { alive: true, gen: this.slots[id]!.gen, x: 0, parent: -1, prefab: false };
    return ((id << 16) | this.slots[id]!.gen) >>> 0;
  }
  childrenOf(t: number): number[] {
    const out: number[] = [];
    this.slots.forEach((s, i) => { if (s.alive && s.parent === t) out.push(i); });
    return out;
  }
  bfs(root: number): number[] {
    const order = [root];
    for (let i = 0; i < order.length; i++) order.push(...this.childrenOf(order[i]!));
    return order;
  }
  destroy(id: number): void {
    for (const s of this.bfs(id)) {
      this.slots[s]!.alive = false;
      this.slots[s]!.gen = (this.slots[s]!.gen + 1) & 0xffff;
      this.freed.push(s);
    }
  }
  instantiate(root: number, overrideX: number, useOverride: boolean): number {
    const tree = this.bfs(root);
    const made: number[] = [];
    for (let i = 0; i < tree.length; i++) {
      const id = this.create() >>> 16;
      made.push(id);
      const s = this.slots[id]!;
      s.x = this.slots[tree[i]!]!.x;
      if (i === 0 && useOverride) s.x = overrideX;
      if (i !== 0) s.parent = made[tree.indexOf(this.slots[tree[i]!]!.parent)]!;
    }
    return ((made[0]! << 16) | this.slots[made[0]!]!.gen) >>> 0;
  }
}

/** One seed of ModelTestAgainstAPlainReference through the TypeScript API: the divergences and the final state hash. */
function runSeed(seed: bigint, steps: number): { divergences: string[]; hash: bigint } {
  const CAP = 96;
  const w = sim.createWorld({ capacity: CAP });
  const ChildOf = w.registerRelation('MChildOf', { onTargetDestroyed: 'destroy' });
  const MPos = w.registerComponent('MPos', { x: 'i32' });
  w.registerPrefabs();
  const posQuery = w.query({ p: MPos.read });
  let ref = new Ref(CAP);
  const rng = new RefPrng(seed);
  const below = (n: number) => Number(rng.nextU64() % BigInt(n));
  let snap: Uint8Array | null = null;
  let saved = new Ref(CAP);
  const divergences: string[] = [];
  const diverge = (step: number, what: string) => { if (divergences.length < 5) divergences.push(`seed ${seed} step ${step}: ${what}`); };
  for (let step = 0; step < steps; step++) {
    const op = below(10);
    const prefabs: number[] = [];
    const live: number[] = [];
    ref.slots.forEach((s, i) => { if (s.alive) { live.push(i); if (s.prefab) prefabs.push(i); } });
    if (op < 3 && ref.live() < CAP) {
      const x = below(1000);
      const child = prefabs.length > 0 && below(2) === 0;
      const parent = child ? prefabs[below(prefabs.length)]! : 0;
      const got = w.createPrefab();
      w.add(got, MPos, { x });
      if (child) w.add(got, ChildOf(w.handleAt(parent)!));
      const want = ref.create();
      Object.assign(ref.slots[want >>> 16]!, { x, prefab: true, parent: child ? parent : -1 });
      if (got !== want) diverge(step, 'prefab handle');
    } else if (op < 6 && prefabs.length > 0) {
      const p = prefabs[below(prefabs.length)]!;
      const over = below(2) === 0;
      const x = below(1000);
      const options = { hierarchy: ChildOf, overrides: over ? [[MPos, { x }] as const] : [] };
      const prefab = w.handleAt(p)!;
      const fits = ref.bfs(p).length <= CAP - ref.live();
      let got: Entity | string;
      try {
        if (below(2) === 0) got = w.instantiate(prefab, options);
        else { let r = 0; w.defer((c) => { r = c.instantiate(prefab, options); }); got = r; }
      } catch (e) {
        got = (e as LaigeError).reason;
      }
      if (!fits) {
        if (got !== 'entity_budget_exhausted') diverge(step, `instantiate past the budget: ${got}`);
      } else if (got !== ref.instantiate(p, x, over)) diverge(step, `instantiate: ${got}`);
    } else if (op < 8 && live.length > 0) {
      const s = live[below(live.length)]!;
      w.destroy(w.handleAt(s)!);
      ref.destroy(s);
    } else if (op === 8) {
      snap = w.snapshot();
      saved = ref.clone();
    } else if (snap !== null) {
      w.restore(snap);
      ref = saved.clone();
    }
    let plain = 0;
    for (let s = 0; s < CAP; s++) {
      const rs = ref.slots[s]!;
      const h = w.handleAt(s);
      if ((h !== undefined) !== rs.alive) { diverge(step, `liveness of slot ${s}`); continue; }
      if (!rs.alive) continue;
      const t = w.targetOf(h!, ChildOf);
      if ((h! & 0xffff) !== rs.gen || w.get(h!, MPos)?.x !== rs.x || w.isPrefab(h!) !== rs.prefab || (t === undefined ? -1 : t >>> 16) !== rs.parent) {
        diverge(step, `slot ${s}`);
      }
      if (!rs.prefab) plain++;
    }
    if (posQuery.count() !== plain) diverge(step, 'the query counted a prefab');
  }
  w.checkRelations();
  const hash = w.stateHash(0);
  w.dispose();
  return { divergences, hash };
}

describe('the model test (tests/cpp/prefabs_model_test.cpp)', () => {
  it('random prefab trees, instantiates (direct, deferred, overrides), cascading destroys, snapshots, restores: 0 divergences, the native state hashes', () => {
    const hashes: string[] = [];
    const divergences: string[] = [];
    for (const seed of [1n, 2n, 3n, 4n, 5n]) {
      const r = runSeed(seed, 1500);
      divergences.push(...r.divergences);
      hashes.push(r.hash.toString(16).padStart(16, '0'));
    }
    expect(divergences).toEqual([]);
    expect(hashes).toEqual(NATIVE_HASHES);
  });
});

/** The final state hashes (tick 0) of seeds 1..5 that prefabs_model_test.cpp checks natively and in wasm. */
const NATIVE_HASHES = ['76dd489b670931d2', '1ff35cd2a59a000f', '782421ebb41d2b52', 'e27193497cf6af3e', '921a834c666baa5e'];
