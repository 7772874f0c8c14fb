// The bad-input matrix: every public function of the World and of
// the package called with wrong types, NaN / Infinity, negative and huge
// integers, bigint where a number is expected and the reverse, stale,
// foreign and forged handles, disposed worlds, components of another world,
// and throwing callbacks. Each call throws a LaigeError (or is a documented
// no-op, listed where it is asserted), and the world's stateHash before the
// call equals the one after it. error_paths.test.ts covers the entity,
// component-value, schema, disposed-world and query basics; this file fills
// the remaining gaps and runs every case against the hash.
import { describe, expect, it } from 'vitest';
import { LaigeError, makeEntity, type World } from '../../dist/index.js';
import { DOCUMENTED_REASONS } from './support/reasons.js';
import { sim, thrown } from './support/sim.js';

/** Values that are not a valid non-negative safe integer argument. */
const BAD_NUMBERS: unknown[] = [
  '1', '', 1.5, -1, -0.5, 2 ** 32, 2 ** 53, Number.MAX_VALUE, NaN, Infinity, -Infinity, 5n, -1n,
  undefined, null, {}, [1], true, () => 1, Symbol('x'),
];
/** Values that are not a valid tick (number or bigint, 0..2^64-1, integral). */
const BAD_TICKS: unknown[] = [
  '1', 1.5, -1, NaN, Infinity, -Infinity, -1n, 2n ** 64n, undefined, null, {}, [0], true, Symbol('t'),
];

function code(fn: () => unknown): string {
  const e = thrown(fn);
  if (!(e instanceof LaigeError)) throw new Error(`expected a LaigeError, got ${String(e)}`);
  // Every failure names its specific, documented reason (docs/errors.md#reasons-and-fields).
  expect(DOCUMENTED_REASONS.has(e.reason), `${e.reason}: ${e.message}`).toBe(true);
  expect(e.fields.where ?? e.reason, e.message).toBeTruthy();
  return e.code;
}

function label(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol' || typeof v === 'function') return String(v);
  // Shallow: component and world objects reach the whole wasm heap.
  if (Array.isArray(v)) return `[${v.map((x) => (typeof x === 'object' && x !== null ? '{..}' : String(x))).join(',')}]`;
  if (typeof v === 'object' && v !== null) return `{${Object.keys(v).join(',')}}`;
  return typeof v === 'string' ? JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v) : String(v);
}

function world(): { w: World; P: ReturnType<typeof reg>; V: ReturnType<typeof reg>; e: number } {
  const w = sim.createWorld({ capacity: 16, seed: 7n });
  const P = reg(w, 'P');
  const V = reg(w, 'V');
  const e = w.create();
  w.add(e, P, { x: 1, y: 2 });
  w.add(w.create(), V, { x: 3, y: 4 });
  w.registerSystem({ name: 'Move', budgetMs: 50, io: [[P, 'write']], run(ctx) { ctx.each([P], ['write'], (_e, p) => { p.x += 1; }); } });
  w.runSystems();
  return { w, P, V, e };
}
function reg(w: World, name: string) {
  return w.registerComponent(name, { x: 'f32', y: 'f32' });
}

/** Every call must throw a LaigeError with `want` and leave the hash alone. */
function expectRejected(w: World, calls: Array<[string, () => unknown]>, want: string | string[] = 'invalid_argument'): void {
  for (const [name, fn] of calls) {
    const h = w.stateHash(5n);
    const c = w.componentStateHash(5n);
    let got: string;
    try {
      got = code(fn);
    } catch (err) {
      throw new Error(`${name}: ${String(err)}`);
    }
    if (Array.isArray(want)) expect(want, `${name}: ${got}`).toContain(got);
    else expect(got, name).toBe(want);
    expect(w.stateHash(5n), `${name}: stateHash changed`).toBe(h);
    expect(w.componentStateHash(5n), `${name}: componentStateHash changed`).toBe(c);
  }
}

describe('bad-input matrix', () => {
  it('numeric arguments: wrong types, NaN/Infinity, negative, huge, bigint for number', () => {
    const { w } = world();
    const calls: Array<[string, () => unknown]> = [];
    for (const v of BAD_NUMBERS) {
      const n = v as number;
      calls.push([`handleAt(${label(v)})`, () => w.handleAt(n)]);
      calls.push([`archetypeOf(${label(v)})`, () => w.archetypeOf(n)]);
      calls.push([`archetypeComponents(${label(v)})`, () => w.archetypeComponents(n)]);
      // maxItems and input are optional: undefined means the default (documented).
      if (v !== undefined) calls.push([`stateDiff(w, ${label(v)})`, () => w.stateDiff(w, n)]);
      if (v !== undefined) calls.push([`runSystems(${label(v)})`, () => w.runSystems(n as never)]);
    }
    expectRejected(w, calls);
    w.dispose();
  });

  it('system lookups: bad ids and names, foreign and forged handles', () => {
    const { w } = world();
    const other = sim.createWorld({ capacity: 4 });
    other.registerSystem({ name: 'A', budgetMs: 1, run() {} });
    const foreign = other.registerSystem({ name: 'B', budgetMs: 1, run() {} });
    const bad: unknown[] = [...BAD_NUMBERS, 0, 2, 999, 'Nope', foreign, { id: 'x', name: 'Move' }, { id: -1, name: 'Move' }];
    // Documented: a SystemHandle is looked up by its id, like an entity handle is
    // just its number; { id: 1, name: 'Other' } names system 1 of w.
    const calls: Array<[string, () => unknown]> = [];
    for (const v of bad) {
      const s = v as number;
      calls.push([`systemTimingStats(${label(v)})`, () => w.systemTimingStats(s)]);
      calls.push([`systemTimingWindow(${label(v)})`, () => w.systemTimingWindow(s)]);
      calls.push([`systemRngState(${label(v)})`, () => w.systemRngState(s)]);
    }
    expectRejected(w, calls);
    other.dispose();
    w.dispose();
  });

  it('ticks: number and bigint both accepted, everything else rejected', () => {
    const { w } = world();
    expect(w.stateHash(3)).toBe(w.stateHash(3n));
    expect(w.stateHash(2n ** 64n - 1n)).toBeTypeOf('bigint');
    const calls: Array<[string, () => unknown]> = [];
    for (const v of BAD_TICKS) {
      calls.push([`stateHash(${label(v)})`, () => w.stateHash(v as number)]);
      calls.push([`componentStateHash(${label(v)})`, () => w.componentStateHash(v as number)]);
    }
    expectRejected(w, calls);
    w.dispose();
  });

  it('entities: stale, foreign, forged handles and number-likes everywhere', () => {
    const { w, P, e } = world();
    const stale = w.create();
    w.destroy(stale);
    const other = sim.createWorld({ capacity: 64 });
    for (let i = 0; i < 40; i++) other.create();
    const foreignLive = other.create();
    const handles: unknown[] = [
      stale, foreignLive, makeEntity(15, 1), makeEntity(0, 7), makeEntity(65535, 65535), 0xffffffff, 2 ** 32 + 1,
      -0, -1, 1.5, NaN, Infinity, 3n, BigInt(e), `${e}`, null, undefined, { valueOf: () => e },
    ];
    const calls: Array<[string, () => unknown]> = [];
    for (const h of handles) {
      const x = h as number;
      if (typeof h === 'number' && Number.isInteger(h) && h >= 0 && h < 2 ** 32) {
        // A well-typed handle that is not live here: isValid/has are documented to answer false.
        expect(w.isValid(x), label(h)).toBe(false);
        expect(w.has(x, P), label(h)).toBe(false);
      } else {
        calls.push([`isValid(${label(h)})`, () => w.isValid(x)]);
        calls.push([`has(${label(h)})`, () => w.has(x, P)]);
        calls.push([`archetypeOf(${label(h)})`, () => w.archetypeOf(x)]);
      }
      calls.push([`destroy(${label(h)})`, () => w.destroy(x)]);
      calls.push([`check(${label(h)})`, () => w.check(x)]);
      calls.push([`add(${label(h)})`, () => w.add(x, P, { x: 0, y: 0 })]);
      calls.push([`get(${label(h)})`, () => w.get(x, P)]);
      calls.push([`remove(${label(h)})`, () => w.remove(x, P)]);
    }
    expectRejected(w, calls);
    other.dispose();
    w.dispose();
  });

  it('components of another world, of a disposed world, and forged component objects', () => {
    const { w, e } = world();
    const other = sim.createWorld({ capacity: 4 });
    const Q = reg(other, 'P'); // same name and id as w's P, still foreign
    const gone = sim.createWorld({ capacity: 4 });
    const G = reg(gone, 'P');
    gone.dispose();
    const forged: unknown[] = [Q, G, { id: 1, name: 'P' }, { ...Q }, Object.create(Q as object), 1, 'P', null, undefined, 1n];
    const calls: Array<[string, () => unknown]> = [];
    for (const c of forged) {
      const C = c as typeof Q;
      calls.push([`add(e, ${label(c)})`, () => w.add(e, C, { x: 0, y: 0 })]);
      calls.push([`get(e, ${label(c)})`, () => w.get(e, C)]);
      calls.push([`has(e, ${label(c)})`, () => w.has(e, C)]);
      calls.push([`remove(e, ${label(c)})`, () => w.remove(e, C)]);
      calls.push([`each([${label(c)}])`, () => w.each([C], ['read'], () => {})]);
      calls.push([`eachChunk([${label(c)}])`, () => w.eachChunk([C], ['read'], () => {})]);
      calls.push([`registerSystem(io ${label(c)})`, () => w.registerSystem({ name: 'X', budgetMs: 1, io: [[C, 'read']], run() {} })]);
    }
    expectRejected(w, calls);
    other.dispose();
    w.dispose();
  });

  it('registerSystem: malformed definitions', () => {
    const { w, P } = world();
    const run = () => {};
    const bad: unknown[] = [
      undefined, null, 5, 'S', [], {},
      { name: 5, budgetMs: 1, run }, { name: '', budgetMs: 1, run }, { name: 'Move', budgetMs: 1, run },
      { name: 'a,b', budgetMs: 1, run }, { name: ' S', budgetMs: 1, run }, { name: 'S', budgetMs: NaN, run }, { name: 'S', budgetMs: Infinity, run },
      { name: 'S', budgetMs: -1, run }, { name: 'S', budgetMs: 0, run }, { name: 'S', budgetMs: 1n, run }, { name: 'S', budgetMs: '1', run },
      { name: 'S', budgetMs: 1e12, run }, { name: 'S', budgetMs: 1 }, { name: 'S', budgetMs: 1, run: 5 },
      { name: 'S', budgetMs: 1, run, io: 5 }, { name: 'S', budgetMs: 1, run, io: [P] }, { name: 'S', budgetMs: 1, run, io: [[P]] },
      { name: 'S', budgetMs: 1, run, io: [[P, 'rw']] }, { name: 'S', budgetMs: 1, run, io: [[P, 'read'], [P, 'write']] },
      { name: 'S', budgetMs: 1, run, dependsOn: 'Move' }, { name: 'S', budgetMs: 1, run, dependsOn: [5] },
    ];
    // (dependsOn names are resolved by scheduleSystems, not at registration: a
    // self- or unknown dependency registers and fails the schedule instead.)
    const calls: Array<[string, () => unknown]> = bad.map((d, i) => [`registerSystem #${i} ${label(d)}`, () => w.registerSystem(d as never)]);
    expectRejected(w, calls);
    expect(w.systems().map((s) => s.name)).toEqual(['Move']);
    w.dispose();
  });

  it('setTimingClock: non-functions rejected; a throwing or lying clock never corrupts the world', () => {
    const { w } = world();
    expectRejected(w, [5, 'now', {}, 1n].map((v) => [`setTimingClock(${label(v)})`, () => w.setTimingClock(v as never)]));
    // A clock is outside the state hash; the world's state must only move by the system itself.
    const twin = world();
    for (const clock of [() => { throw new Error('clock'); }, () => NaN, () => -1, () => Infinity, () => 2 ** 60, () => 'x' as never]) {
      w.setTimingClock(clock);
      twin.w.setTimingClock(null);
      const before = w.stateHash(1n);
      let err: unknown = null;
      try {
        w.runSystems();
      } catch (e) {
        err = e;
      }
      if (err !== null) {
        // documented: a failing clock surfaces from runSystems; the tick may or may not have run.
        expect(err instanceof LaigeError || (err as Error).message === 'clock', String(err)).toBe(true);
        if (w.stateHash(1n) === before) continue;
      }
      twin.w.runSystems();
      expect(w.stateHash(1n), String(clock)).toBe(twin.w.stateHash(1n));
    }
    w.setTimingClock(null);
    twin.w.dispose();
    w.dispose();
  });

  it('throwing callbacks: each, eachChunk, a system body, a system each, onLog', () => {
    const { w, P } = world();
    const boom = new Error('boom');
    const h = w.stateHash(9n);
    expect(thrown(() => w.each([P], ['read'], () => { throw boom; }))).toBe(boom);
    expect(thrown(() => w.eachChunk([P], ['read'], () => { throw boom; }))).toBe(boom);
    expect(w.stateHash(9n)).toBe(h);
    expect(w.create()).toBeTypeOf('number'); // the guard is released
    w.clear();
    // A throwing system: the rest of the tick does not run; the world stays usable.
    const t = sim.createWorld({ capacity: 8, seed: 1n });
    const Q = reg(t, 'Q');
    t.add(t.create(), Q, { x: 0, y: 0 });
    t.registerSystem({ name: 'Throws', budgetMs: 5, run() { throw boom; } });
    const h2 = t.componentStateHash(1n);
    expect(thrown(() => t.runSystems())).toBe(boom);
    expect(t.componentStateHash(1n)).toBe(h2);
    expect(t.isValid(t.create())).toBe(true);
    t.dispose();
    // A throwing log sink must not break the core or leave the world changed.
    sim.onLog(() => { throw boom; });
    const w2 = sim.createWorld({ capacity: 2 });
    const h3 = w2.stateHash(0);
    try {
      expect(code(() => w2.destroy(makeEntity(1, 1)))).toBe('invalid_argument');
    } finally {
      sim.onLog(null);
    }
    expect(w2.stateHash(0)).toBe(h3);
    w2.dispose();
    expectRejected(w, [[`onLog(5)`, () => sim.onLog(5 as never)], [`onLog('f')`, () => sim.onLog('f' as never)]]);
    w.dispose();
  });

  it('disposed worlds: everything throws, dispose twice is a no-op, stateDiff against a disposed world', () => {
    const { w } = world();
    const d = sim.createWorld({ capacity: 4 });
    d.dispose();
    expect(d.dispose()).toBeUndefined(); // documented no-op
    expect(d.disposed).toBe(true);
    const calls: Array<[string, () => unknown]> = [
      ['stateDiff(disposed)', () => w.stateDiff(d)], ['disposed.stateDiff(w)', () => d.stateDiff(w)],
      ['disposed.systemTimingStats', () => d.systemTimingStats(1)], ['disposed.systemRngState', () => d.systemRngState(1)],
      ['disposed.systemTimingWindow', () => d.systemTimingWindow(1)], ['disposed.setTimingClock', () => d.setTimingClock(null)],
      ['disposed.archetypeOf', () => d.archetypeOf(0)], ['disposed.archetypeComponents', () => d.archetypeComponents(1)],
      ['disposed.archetypeCount', () => d.archetypeCount], ['disposed.systemTicksRun', () => d.systemTicksRun],
['createGameLoop(disposed)', () => sim.createGameLoop(d)],
      ['recordReplay(disposed)', () => sim.recordReplay(d)],
    ];
    expectRejected(w, calls);
    w.dispose();
  });

  it('package functions: game loop, replay, scenarios', () => {
    const { w } = world();
    const calls: Array<[string, () => unknown]> = [];
    for (const o of [5, 'x', { tickRateHz: 19 }, { tickRateHz: 121 }, { tickRateHz: NaN }, { tickRateHz: 60n }, { maxCatchUpTicks: 0 },
      { maxCatchUpTicks: -1 }, { maxCatchUpTicks: 1.5 }, { maxCatchUpTicks: Infinity }]) {
      calls.push([`createGameLoop(w, ${label(o)})`, () => sim.createGameLoop(w, o as never)]);
    }
    for (const x of [undefined, null, 5, {}, w.stateHash(0)]) calls.push([`createGameLoop(${label(x)})`, () => sim.createGameLoop(x as never)]);
    for (const o of [5, { tickRateHz: 0 }, { tickRateHz: NaN }, { math: 'f64' }, { maxBytes: 55 }, { maxBytes: -1 }, { maxBytes: NaN }, { maxBytes: 1n }]) {
      calls.push([`recordReplay(w, ${label(o)})`, () => sim.recordReplay(w, o as never)]);
    }
    // Replay bytes: a wrong type is invalid_argument; bytes that are not a log are malformed_input.
    const replayCalls: Array<[string, () => unknown]> = [];
    for (const b of [undefined, null, 'LGRP', [1, 2, 3], new ArrayBuffer(64), new Uint8Array(0), new Uint8Array(56), new Uint8Array(1000).fill(0xff), 5n]) {
      replayCalls.push([`parseReplay(${label(b)})`, () => sim.parseReplay(b as never)]);
      replayCalls.push([`runReplay(${label(b)})`, () => sim.runReplay(b as never, { world: { capacity: 4 }, setup() {} })]);
    }
    expectRejected(w, replayCalls, ['invalid_argument', 'malformed_input']);
    for (const n of [undefined, null, 5, '', 'nope', 'x'.repeat(1000), 'swarm\0']) calls.push([`runScenario(${label(n)})`, () => sim.runScenario(n as never)]);
    for (const o of [5, { ticks: -1 }, { ticks: 65537 }, { ticks: NaN }, { ticks: 1.5 }, { ticks: 2n }, { seed: 1 }, { seed: -1n }, { seed: 2n ** 64n }]) {
      calls.push([`runScenario('hello', ${label(o)})`, () => sim.runScenario('hello', o as never)]);
    }
    for (const c of [NaN, -1, 1.5, 2 ** 40, '1', 1n]) calls.push([`errorLine(${label(c)})`, () => sim.errorLine(c as never)]);
    expectRejected(w, calls);
    w.dispose();
  });

  it('a long hostile stream leaves the module consistent with a twin that saw only the valid calls', () => {
    const a = world();
    const b = world();
    let x = 12345;
    const rnd = (n: number) => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return x % n;
    };
    for (let i = 0; i < 3000; i++) {
      const bad = BAD_NUMBERS[rnd(BAD_NUMBERS.length)] as number;
      const pick = rnd(6);
      const calls = [() => a.w.destroy(bad), () => a.w.add(bad, a.P, { x: 1, y: 1 }), () => a.w.handleAt(bad),
        () => a.w.stateHash(bad), () => a.w.remove(bad, a.V), () => a.w.get(bad, a.P)];
      const e = thrown(calls[pick]!);
      expect(e, `call ${pick} with ${label(bad)}`).toBeInstanceOf(LaigeError);
      if (i % 10 === 0) {
        // A valid op on both.
        const ea = a.w.create();
        const eb = b.w.create();
        expect(ea).toBe(eb);
        a.w.add(ea, a.P, { x: i, y: -i });
        b.w.add(eb, b.P, { x: i, y: -i });
        if (i % 30 === 0) {
          a.w.runSystems();
          b.w.runSystems();
        }
        if (a.w.entityCount >= 14) {
          a.w.clear();
          b.w.clear();
        }
      }
    }
    expect(a.w.stateHash(77n)).toBe(b.w.stateHash(77n));
    a.w.dispose();
    b.w.dispose();
  });
});
