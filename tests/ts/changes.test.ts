// Reacting to change from TypeScript (docs/changes.md#typescript): observers
// (order, timing after a system and a top-level call, commands inside, the
// depth, a throw, the bad-input matrix with the state hash unchanged),
// ctx.removed in systems, markChanged through field handles, commands and
// world.markChanged, snapshot/restore and rollback exactness (observers see
// ctx.resimulating; session.onResimulated), and a model test against a plain
// reference that records the events.
import { describe, expect, it } from 'vitest';
import { type Entity, LaigeError, type ObserverContext, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

function rig(capacity = 64) {
  const w = sim.createWorld({ capacity, seed: 11n, churnPerFrameBudget: 0 });
  const Pos = w.registerComponent('ChPos', { x: 'i32', y: 'i32' });
  const Hp = w.registerComponent('ChHp', { v: 'i32' });
  return { w, Pos, Hp };
}

function refusal(w: World, fn: () => unknown): LaigeError {
  const before = w.stateHash(0);
  const e = thrown(fn);
  expect(e).toBeInstanceOf(LaigeError);
  expect(w.stateHash(0)).toBe(before);
  return e as LaigeError;
}

describe('observers', () => {
  it('run after the top-level call, events in order, observers in registration order', () => {
    const { w, Pos, Hp } = rig();
    const log: string[] = [];
    w.observe(Pos, 'onAdd', (ctx) => log.push(`A1 ${ctx.entity} ${ctx.value.x} has=${w.has(ctx.entity, Pos)}`));
    w.observe(Pos, 'onAdd', (ctx) => log.push(`A2 ${ctx.entity}`));
    w.observe(Pos, 'onSet', (ctx) => log.push(`S ${ctx.entity} ${ctx.value.x}`));
    w.observe(Hp, 'onRemove', (ctx) => log.push(`R ${ctx.entity} ${ctx.value.v}`));
    const a = w.create();
    w.add(a, Pos, { x: 1, y: 0 });
    expect(log).toEqual([`A1 ${a} 1 has=true`, `A2 ${a}`]);
    w.add(a, Pos, { x: 2, y: 0 });
    expect(log.at(-1)).toBe(`S ${a} 2`);
    log.length = 0;
    // A defer: every event waits for the defer's end, in the order they happened.
    const b = w.create();
    w.defer((c) => {
      c.add(b, Pos, { x: 5, y: 0 });
      c.add(b, Hp, { v: 9 });
      c.add(a, Pos, { x: 3, y: 0 });
      expect(log).toEqual([]);
    });
    expect(log).toEqual([`A1 ${b} 5 has=true`, `A2 ${b}`, `S ${a} 3`]);
    log.length = 0;
    w.destroy(b); // one onRemove per component it had (only Hp is observed for removal)
    expect(log).toEqual([`R ${b} 9`]);
    expect(w.observerStats()).toMatchObject({ observers: 4, pending: 0, failures: 0 });
  });

  it('inside a tick: after the system that caused them (its commands applied), before the next system', () => {
    const { w, Pos } = rig();
    const log: string[] = [];
    w.observe(Pos, 'onAdd', (ctx) => log.push(`obs ${ctx.value.x} depth=${ctx.depth} resim=${ctx.resimulating}`));
    w.registerSystem({
      name: 'Spawn', budgetMs: 5, io: [[Pos, 'write']], run(ctx) {
        const e = ctx.commands.create();
        ctx.commands.add(e, Pos, { x: ctx.tick, y: 0 });
        log.push('spawn');
      },
    });
    w.registerSystem({ name: 'After', budgetMs: 5, dependsOn: ['Spawn'], run() { log.push('after'); } });
    w.runSystems();
    w.runSystems();
    expect(log).toEqual(['spawn', 'obs 1 depth=0 resim=false', 'after', 'spawn', 'obs 2 depth=0 resim=false', 'after']);
  });

  it('ctx.commands inside an observer apply right after it and queue events one level deeper', () => {
    const { w, Pos, Hp } = rig();
    const log: string[] = [];
    w.observe(Pos, 'onAdd', (ctx) => ctx.commands.add(ctx.entity, Hp, { v: ctx.value.x * 10 }));
    w.observe(Hp, 'onAdd', (ctx) => log.push(`hp ${ctx.value.v} depth=${ctx.depth}`));
    const e = w.create();
    w.add(e, Pos, { x: 4, y: 0 });
    expect(w.get(e, Hp)).toEqual({ v: 40 });
    expect(log).toEqual(['hp 40 depth=1']);
  });

  it('a cycle stops at the depth limit (counted) and the rest of the queue runs', () => {
    const { w, Pos } = rig();
    let calls = 0;
    w.observe(Pos, 'onSet', (ctx) => {
      calls++;
      ctx.commands.add(ctx.entity, Pos, { x: ctx.value.x + 1, y: 0 });
    });
    const e = w.create();
    w.add(e, Pos, { x: 0, y: 0 });
    w.add(e, Pos, { x: 1, y: 0 });
    expect(calls).toBe(9); // depth 0..8
    expect(w.observerStats().depthExceeded).toBe(1);
    expect(w.get(e, Pos)!.x).toBe(10);
  });

  it('an observer that throws: the call that ran it rethrows after the rest of the queue ran; the world keeps the change', () => {
    const { w, Pos } = rig();
    const seen: number[] = [];
    const boom = new Error('observer boom');
    w.observe(Pos, 'onAdd', (ctx) => {
      if (ctx.value.x === 2) throw boom;
    });
    w.observe(Pos, 'onAdd', (ctx) => seen.push(ctx.value.x));
    const a = w.create();
    const b = w.create();
    expect(thrown(() => w.defer((c) => {
      c.add(a, Pos, { x: 2, y: 0 });
      c.add(b, Pos, { x: 3, y: 0 });
    }))).toBe(boom);
    expect(seen).toEqual([2, 3]);
    expect(w.has(a, Pos) && w.has(b, Pos)).toBe(true);
    expect(w.observerStats().failures).toBe(1);
    // Nothing is left over: the next call does not rethrow it again.
    w.add(a, Pos, { x: 7, y: 0 });
    // Inside a tick it comes out of runSystems, as a system's error does.
    w.registerSystem({ name: 'Bad', budgetMs: 5, io: [[Pos, 'write']], run(ctx) { ctx.commands.add(ctx.commands.create(), Pos, { x: 2, y: 0 }); } });
    expect(thrown(() => w.runSystems())).toBe(boom);
    w.dispose();
  });

  it('bad input is refused with a reason and the state hash unchanged', () => {
    const { w, Pos } = rig();
    const other = sim.createWorld({ capacity: 4 });
    const Foreign = other.registerComponent('ChForeign', { v: 'i32' });
    const e = w.create();
    w.add(e, Pos, { x: 1, y: 1 });
    expect(refusal(w, () => w.observe(Foreign, 'onAdd', () => {})).reason).toBe('foreign_component');
    expect(refusal(w, () => w.observe({} as never, 'onAdd', () => {})).reason).toBe('wrong_type');
    const unknown = refusal(w, () => w.observe(Pos, 'onChange' as never, () => {}));
    expect(unknown.reason).toBe('unknown_event');
    expect(unknown.fields).toMatchObject({ field: 'event', got: 'onChange', component: 'ChPos' });
    expect(refusal(w, () => w.observe(Pos, 'onAdd', 42 as never)).reason).toBe('observer_invalid');
    expect(refusal(w, () => w.each([Pos], ['read'], () => { w.observe(Pos, 'onAdd', () => {}); })).fields)
      .toMatchObject({ callback: 'each' });
    expect(refusal(w, () => w.defer(() => { w.observe(Pos, 'onAdd', () => {}); })).reason).toBe('observe_inside_callback');
    // Inside an observer: observe and dispose are refused (the error comes out of the call that ran it).
    const reasons: string[] = [];
    w.observe(Pos, 'onSet', () => {
      for (const f of [() => w.observe(Pos, 'onAdd', () => {}), () => w.dispose(), () => w.runSystems()]) {
        try {
          f();
        } catch (err) {
          reasons.push((err as LaigeError).reason);
        }
      }
    });
    w.add(e, Pos, { x: 2, y: 2 });
    expect(reasons).toEqual(['observe_inside_callback', 'dispose_inside_call', 'tick_inside_callback']);
    expect(w.disposed).toBe(false);
    expect(w.observerStats().observers).toBe(1);
    other.dispose();
    w.dispose();
    expect(thrown(() => w.observe(Pos, 'onAdd', () => {}))).toMatchObject({ reason: 'disposed' });
  });

  it('a kept ctx: its commands throw after the call', () => {
    const { w, Pos, Hp } = rig();
    let kept: ObserverContext | null = null;
    w.observe(Pos, 'onAdd', (ctx) => { kept = ctx as unknown as ObserverContext; });
    const e = w.create();
    w.add(e, Pos, { x: 1, y: 0 });
    expect((thrown(() => kept!.commands.add(e, Hp, { v: 1 })) as LaigeError).reason).toBe('used_after_call');
  });
});

describe('removed', () => {
  it('ctx.removed: the entities that lost it since the system last ran, with the last value', () => {
    const { w, Pos, Hp } = rig();
    const seen: string[][] = [];
    w.registerSystem({
      name: 'Drop', budgetMs: 5, io: [[Hp, 'read']], run(ctx) {
        const out: string[] = [];
        ctx.removed(Hp, (e, last) => out.push(`${e}:${last.v}`));
        seen.push(out);
      },
    });
    const a = w.create();
    const b = w.create();
    w.add(a, Hp, { v: 1 });
    w.add(b, Hp, { v: 2 });
    w.runSystems(); // the first call starts the log
    w.remove(a, Hp);
    w.add(b, Hp, { v: 3 });
    w.destroy(b);
    w.runSystems();
    w.runSystems();
    expect(seen).toEqual([[], [`${a}:1`, `${b}:3`], []]);
    void Pos;
  });

  it('refused outside the io and outside a run', () => {
    const { w, Pos, Hp } = rig();
    let kept: { removed: (c: unknown, fn: unknown) => void } | null = null;
    const reasons: string[] = [];
    w.registerSystem({
      name: 'Wrong', budgetMs: 5, io: [[Pos, 'read']], run(ctx) {
        kept = ctx as never;
        try {
          ctx.removed(Hp, () => {});
        } catch (e) {
          reasons.push((e as LaigeError).reason);
        }
        try {
          ctx.removed(Pos, 3 as never);
        } catch (e) {
          reasons.push((e as LaigeError).reason);
        }
      },
    });
    w.runSystems();
    expect(reasons).toEqual(['system_io_violation', 'wrong_type']);
    expect((thrown(() => kept!.removed(Pos, () => {})) as LaigeError).reason).toBe('used_after_call');
  });
});

describe('markChanged', () => {
  it('field handle set, add over a value, a command and world.markChanged mark; reads do not', () => {
    const { w, Pos } = rig();
    const e = w.create();
    w.add(e, Pos, { x: 1, y: 1 });
    // Untracked: nothing is kept, the set costs one byte test.
    Pos.field.x.set(e, 2);
    expect(w.changeTicks(e, Pos)).toMatchObject({ tracked: false, changed: 0 });
    w.trackChanges(Pos);
    const t0 = w.changeTicks(e, Pos);
    expect(t0.tracked).toBe(true);
    const bump = () => w.registerSystem({ name: `Tick${w.systems().length}`, budgetMs: 5, run() {} });
    bump();
    w.runSystems(); // raises the change tick
    const now = () => w.changeTicks(e, Pos).now;
    const changed = () => w.changeTicks(e, Pos).changed;
    expect(changed()).toBeLessThan(now());
    Pos.field.x.get(e);
    w.get(e, Pos);
    expect(changed()).toBeLessThan(now());
    Pos.field.y.set(e, 5);
    expect(changed()).toBe(now());
    w.runSystems();
    w.add(e, Pos, { x: 1, y: 1 });
    expect(changed()).toBe(now());
    w.runSystems();
    w.defer((c) => c.add(e, Pos, { x: 2, y: 2 }));
    expect(changed()).toBe(now());
    w.runSystems();
    w.markChanged(e, Pos);
    expect(changed()).toBe(now());
    const bare: Entity = w.create();
    expect(refusal(w, () => w.markChanged(bare, Pos)).reason).toBe('component_absent');
  });
});

// A random-ops model test: every event the observers see against a plain
// reference that knows what each op does to (entity, component).
describe('model', () => {
  it('observer events match a plain reference over random ops (0 divergences)', () => {
    const w = sim.createWorld({ capacity: 128, seed: 3n, churnPerFrameBudget: 0 });
    const comps = [w.registerComponent('MA', { v: 'i32' }), w.registerComponent('MB', { v: 'i32' }), w.registerComponent('MC', { v: 'i32' })];
    const got: string[] = [];
    for (const c of comps) {
      for (const ev of ['onAdd', 'onSet', 'onRemove'] as const) w.observe(c, ev, (ctx) => got.push(`${ev} ${c.name} ${ctx.entity} ${ctx.value.v}`));
    }
    const ref = new Map<number, Map<number, number>>(); // entity -> component id -> value
    const want: string[] = [];
    let seed = 12345;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const live: number[] = [];
    let divergences = 0;
    for (let step = 0; step < 3000; step++) {
      const op = rnd(10);
      if (op < 2 || live.length === 0) {
        if (live.length < 100) {
          const e = w.create();
          live.push(e);
          ref.set(e, new Map());
        }
      } else {
        const e = live[rnd(live.length)]!;
        const c = comps[rnd(3)]!;
        const m = ref.get(e)!;
        if (op < 6) {
          const v = rnd(1000);
          want.push(`${m.has(c.id) ? 'onSet' : 'onAdd'} ${c.name} ${e} ${v}`);
          m.set(c.id, v);
          if (op === 5) w.defer((cmd) => cmd.add(e, c, { v }));
          else w.add(e, c, { v });
        } else if (op < 9) {
          if (m.has(c.id)) want.push(`onRemove ${c.name} ${e} ${m.get(c.id)}`);
          m.delete(c.id);
          w.remove(e, c);
        } else {
          for (const id of [...m.keys()].sort((x, y) => x - y)) want.push(`onRemove ${comps[id - comps[0]!.id]!.name} ${e} ${m.get(id)}`);
          w.destroy(e);
          ref.delete(e);
          live.splice(live.indexOf(e), 1);
        }
      }
      if (got.length !== want.length || got.at(-1) !== want.at(-1)) divergences++;
    }
    expect(divergences).toBe(0);
    expect(got).toEqual(want);
  });
});

describe('snapshots and rollback', () => {
  function game() {
    const w = sim.createWorld({ capacity: 256, seed: 0x5eedn, churnPerFrameBudget: 0 });
    const Pos = w.registerComponent('RbPos', { x: 'i32', y: 'i32' });
    const Life = w.registerComponent('RbLife', { ttl: 'i32' });
    const events: string[] = [];
    const removed: string[] = [];
    w.registerSystem({
      name: 'Spawn', budgetMs: 5, io: [[Pos, 'write'], [Life, 'write']], queries: { q: { life: Life.write } }, run(ctx) {
        ctx.queries.q.each((e, { life }) => {
          life.ttl -= 1;
          if (life.ttl <= 0) ctx.commands.destroy(e);
        });
        const n = ctx.input.length > 0 ? ctx.input[ctx.input.length - 1]! % 3 : 1;
        for (let i = 0; i < n; i++) {
          const e = ctx.commands.create();
          ctx.commands.add(e, Pos, { x: ctx.tick, y: i });
          ctx.commands.add(e, Life, { ttl: 3 + ((ctx.tick + i) % 4) });
        }
      },
    });
    w.registerSystem({
      name: 'Reap', budgetMs: 5, dependsOn: ['Spawn'], io: [[Pos, 'read']], run(ctx) {
        ctx.removed(Pos, (e, last) => removed.push(`${ctx.tick} ${e} ${last.x}`));
      },
    });
    const resim: boolean[] = [];
    w.observe(Pos, 'onAdd', (ctx) => { events.push(`add ${ctx.entity} ${ctx.value.x}`); resim.push(ctx.resimulating); });
    w.observe(Life, 'onRemove', (ctx) => events.push(`rm ${ctx.entity} ${ctx.value.ttl}`));
    return { w, events, removed, resim };
  }

  it('after restore, the same observer events, removed entries and hashes as the run that never rolled back', () => {
    const g = game();
    for (let t = 0; t < 10; t++) g.w.runSystems(Uint8Array.of(t));
    const snap = g.w.snapshot();
    const first = { ev: g.events.length, rm: g.removed.length };
    const hashes: bigint[] = [];
    for (let t = 10; t < 30; t++) {
      g.w.runSystems(Uint8Array.of(t));
      hashes.push(g.w.stateHash(t + 1));
    }
    const runEvents = g.events.slice(first.ev);
    const runRemoved = g.removed.slice(first.rm);
    g.w.restore(snap);
    g.events.length = first.ev;
    g.removed.length = first.rm;
    const again: bigint[] = [];
    for (let t = 10; t < 30; t++) {
      g.w.runSystems(Uint8Array.of(t));
      again.push(g.w.stateHash(t + 1));
    }
    expect(g.events.slice(first.ev)).toEqual(runEvents);
    expect(g.removed.slice(first.rm)).toEqual(runRemoved);
    expect(runRemoved.length).toBeGreaterThan(0);
    expect(again).toEqual(hashes);
  });

  it('a rollback session: observers see ctx.resimulating while it re-runs ticks, onResimulated names them, confirmed hashes equal the no-latency run', () => {
    const run = (latency: number) => {
      const g = game();
      const resimulated: Array<[number, number]> = [];
      const s = sim.createRollbackSession(g.w, { players: 2, localPlayer: 0, depth: 8, maxInputBytes: 1, onResimulated: (a, b) => resimulated.push([a, b]) });
      const pending: Array<[number, Uint8Array]> = [];
      const confirmed = new Map<number, bigint>();
      for (let t = 1; t <= 120; t++) {
        s.setLocalInput(t, Uint8Array.of(t % 5));
        pending.push([t, Uint8Array.of((t * 7) % 11)]);
        while (pending.length > 0 && pending[0]![0] <= t - latency) {
          const [tick, bytes] = pending.shift()!;
          s.addRemoteInput(1, tick, bytes);
        }
        for (const c of s.advance().confirmed) confirmed.set(c.tick, c.hash);
      }
      const out = { confirmed, resimulated, resim: g.resim };
      s.dispose();
      g.w.dispose();
      return out;
    };
    const base = run(0);
    const late = run(3);
    expect(base.resimulated).toEqual([]);
    expect(late.resimulated.length).toBeGreaterThan(0);
    expect(late.resim.some((r) => r)).toBe(true);
    expect(base.resim.every((r) => !r)).toBe(true);
    let compared = 0;
    for (const [tick, hash] of late.confirmed) {
      if (base.confirmed.has(tick)) {
        expect(hash).toBe(base.confirmed.get(tick));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});
