// No raw TypeError anywhere: every public method, option, callback return,
// ref, chunk accessor and helper given a Symbol, a bigint, an object (one
// whose valueOf throws too), a string, null, undefined, NaN or a function
// either works or throws LaigeError - never a TypeError from a bit operator
// or a user valueOf running inside the library.
/* eslint-disable @typescript-eslint/no-explicit-any -- the point is to pass values of every wrong type */
import { expect, it } from 'vitest';
import { LaigeError, fx, entityId, entityGeneration, formatEntity, makeEntity, Entities } from '../../dist/index.js';
import { sim } from './support/sim.js';

it('every entry point answers a wrong type with a LaigeError', () => {
  const BAD: any[] = [Symbol('s'), 5n, {}, [], 'x', null, undefined, NaN, () => 1, { valueOf() { throw new Error('valueOf'); } }];
  const raw: string[] = [];
  function probe(label: string, fn: () => unknown): void {
    try { fn(); } catch (e: any) {
      if (!(e instanceof LaigeError)) raw.push(`${label}: ${e?.constructor?.name}: ${String(e?.message ?? e).split('\n')[0]}`);
    }
  }
  function fresh() {
    const w = sim.createWorld({ capacity: 8 });
    const P = w.registerComponent('P', { v: 'i32', a: ['f32', 2] });
    w.registerSystem({ name: 'S', budgetMs: 1, io: [[P, 'write']], run() {} });
    w.add(w.create(), P, { v: 1, a: [1, 2] });
    return { w, P };
  }
  const skip = new Set(['constructor', 'dispose', 'toString']);
  for (const bad of BAD) {
    const { w, P } = fresh() as { w: any; P: any };
    const L = sim.createGameLoop(w);
    const R = sim.recordReplay(w);
    for (const [name, obj] of <Array<[string, any]>>[['World', w], ['GameLoop', L], ['ReplayRecorder', R], ['Laige', sim]]) {
      const proto = Object.getPrototypeOf(obj);
      for (const m of Object.getOwnPropertyNames(proto)) {
        if (skip.has(m) || m.startsWith('_') || m === 'onLog' && false) continue;
        const d = Object.getOwnPropertyDescriptor(proto, m)!;
        if (typeof d.value !== 'function') continue;
        for (let pos = 0; pos < 3; pos++) {
          const args: any[] = [0, P, { v: 1, a: [1, 2] }];
          args[pos] = bad;
          probe(`${name}.${m} arg${pos}=${String(typeof bad)}`, () => obj[m](...args));
        }
      }
    }
    probe(`createWorld capacity`, () => sim.createWorld({ capacity: bad }));
    probe(`createWorld seed`, () => sim.createWorld({ capacity: 4, seed: bad }));
    probe(`createWorld options`, () => sim.createWorld(bad));
    probe(`createGameLoop opts`, () => sim.createGameLoop(w, { tickRateHz: bad }));
    probe(`createGameLoop opts2`, () => sim.createGameLoop(w, bad));
    probe(`recordReplay opts`, () => sim.recordReplay(w, { maxBytes: bad }));
    probe(`registerSystem budget`, () => w.registerSystem({ name: 'X', budgetMs: bad, run() {} }));
    probe(`registerSystem io`, () => w.registerSystem({ name: 'X', budgetMs: 1, io: [[P, bad]], run() {} }));
    probe(`registerSystem io2`, () => w.registerSystem({ name: 'X', budgetMs: 1, io: bad, run() {} }));
    probe(`registerSystem deps`, () => w.registerSystem({ name: 'X', budgetMs: 1, dependsOn: bad, run() {} }));
    probe(`registerComponent schema`, () => w.registerComponent('Z', { v: bad }));
    probe(`registerComponent arr`, () => w.registerComponent('Z', { v: ['i32', bad] }));
    probe(`each access`, () => w.each([P], [bad], () => {}));
    probe(`each comps`, () => w.each(bad, [], () => {}));
    probe(`add field`, () => w.add(w.handleAt(0), P, { v: bad, a: [1, 2] }));
    probe(`add arr`, () => w.add(w.handleAt(0), P, { v: 1, a: bad }));
    probe(`ref`, () => w.each([P], ['write'], (_e: any, p: any) => { p.v = bad; }));
    probe(`ref arr`, () => w.each([P], ['write'], (_e: any, p: any) => { p.a[0] = bad; }));
    probe(`chunk field`, () => w.eachChunk([P], ['read'], (c: any) => c.field(P, bad)));
    probe(`chunk entity`, () => w.eachChunk([P], ['read'], (c: any) => c.entity(bad)));
    probe(`chunk field comp`, () => w.eachChunk([P], ['read'], (c: any) => c.field(bad, 'v')));
    probe(`ctx rng`, () => { w.registerSystem({ name: 'R' + raw.length + Math.random().toString(36).slice(2, 6), budgetMs: 1, run(ctx: any) { ctx.rng.nextRange(bad, 5); } }); w.runSystems(); });
    probe(`loop input ret`, () => sim.createGameLoop(w, { input: () => bad }).step(1));
    probe(`runScenario opts`, () => sim.runScenario('hello', { ticks: bad }));
    probe(`openScenario opts`, () => sim.openScenario('hello', { seed: bad }));
    probe(`runReplay opts`, () => sim.runReplay(new Uint8Array(60), { world: bad, setup() {} }));
    probe(`runReplay opts2`, () => sim.runReplay(new Uint8Array(60), bad));
    for (const [n, f] of Object.entries(fx) as Array<[string, any]>) if (typeof f === 'function') { probe(`fx.${n}`, () => f(bad, 1, 2)); probe(`fx.${n} b`, () => f(1, bad, 2)); probe(`fx.${n} c`, () => f(0, 1, bad)); }
    for (const f of [entityId, entityGeneration, formatEntity, makeEntity] as any[]) probe(f.name, () => f(bad));
    probe('Entities', () => new Entities(bad));
    probe('Entities isAlive', () => new Entities(4).isAlive(bad));
    probe('Entities despawn', () => new Entities(4).despawn(bad));
    w.dispose();
  }

  expect([...new Set(raw)]).toEqual([]);
});
