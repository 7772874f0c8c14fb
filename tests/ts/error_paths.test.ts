// Every error path of the TypeScript surface: each throws a LaigeError with
// the right code, and the world is unchanged afterwards (same state hash).
import { describe, expect, it } from 'vitest';
import { LaigeError, makeEntity, type World } from '../../dist/index.js';
import { DOCUMENTED_REASONS } from './support/reasons.js';
import { sim, thrown } from './support/sim.js';

function code(fn: () => unknown): string {
  const e = thrown(fn);
  if (!(e instanceof LaigeError)) throw new Error(`expected a LaigeError, got ${String(e)}`);
  expect(e.line.split(' | ')).toHaveLength(5);
  expect(e.detail.length).toBeGreaterThan(0);
  // Every failure names its specific, documented reason (docs/errors.md#reasons-and-fields).
  expect(DOCUMENTED_REASONS.has(e.reason), `${e.reason}: ${e.message}`).toBe(true);
  return e.code;
}

function setup(): { w: World; P: ReturnType<typeof reg>; e: number } {
  const w = sim.createWorld({ capacity: 16, seed: 3n });
  const P = reg(w);
  const e = w.create();
  w.add(e, P, { x: 1, y: 2, n: 3, b: 4, pad: [0, 0, 0] });
  return { w, P, e };
}
function reg(w: World) {
  return w.registerComponent('P', { x: 'f32', y: 'f32', n: 'i32', b: 'u8', pad: ['u8', 3] });
}

const BAD_HANDLES: unknown[] = ['1', 1.5, -1, 2 ** 32, NaN, Infinity, 5n, undefined, null, {}, [1]];

describe('error paths', () => {
  it('createWorld options: wrong types, ranges, bigint/number confusion', () => {
    const bad: unknown[] = [
      undefined, null, 5, {}, { capacity: '10' }, { capacity: 10n }, { capacity: 0 }, { capacity: 65537 }, { capacity: NaN },
      { capacity: 1.5 }, { capacity: 4, churnPerFrameBudget: -1 }, { capacity: 4, churnPerFrameBudget: 2 ** 32 },
      { capacity: 4, seed: 5 }, { capacity: 4, seed: -1n }, { capacity: 4, seed: 2n ** 64n }, { capacity: 4, deterministic: 'yes' },
    ];
    for (const o of bad) expect(code(() => sim.createWorld(o as never)), JSON.stringify(o, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))).toBe('invalid_argument');
    expect(sim.createWorld({ capacity: 65536, seed: 2n ** 64n - 1n }).dispose()).toBeUndefined();
  });

  it('entity arguments: wrong types are rejected before wasm', () => {
    const { w, P } = setup();
    const h = w.stateHash(0);
    for (const bad of BAD_HANDLES) {
      const b = bad as number;
      expect(code(() => w.destroy(b))).toBe('invalid_argument');
      expect(code(() => w.isValid(b))).toBe('invalid_argument');
      expect(code(() => w.check(b))).toBe('invalid_argument');
      expect(code(() => w.add(b, P, { x: 0, y: 0, n: 0, b: 0, pad: [0, 0, 0] }))).toBe('invalid_argument');
      expect(code(() => w.get(b, P))).toBe('invalid_argument');
      expect(code(() => w.has(b, P))).toBe('invalid_argument');
      expect(code(() => w.remove(b, P))).toBe('invalid_argument');
    }
    expect(w.stateHash(0)).toBe(h);
    w.dispose();
  });

  it('stale and foreign handles', () => {
    const { w, P, e } = setup();
    w.destroy(e);
    const h = w.stateHash(0);
    const foreign = makeEntity(9, 1); // never handed out here
    for (const x of [e, foreign, 0]) {
      expect(code(() => w.destroy(x))).toBe('invalid_argument');
      expect(code(() => w.check(x))).toBe('invalid_argument');
      expect(code(() => w.add(x, P, { x: 0, y: 0, n: 0, b: 0, pad: [0, 0, 0] }))).toBe('invalid_argument');
      expect(code(() => w.get(x, P))).toBe('invalid_argument');
      expect(code(() => w.remove(x, P))).toBe('invalid_argument');
      expect(w.isValid(x)).toBe(false);
      expect(w.has(x, P)).toBe(false);
    }
    // A handle of another world is just a number: valid only if that slot and generation are live here.
    const other = sim.createWorld({ capacity: 4 });
    const oe = other.create();
    other.create();
    expect(w.isValid(makeEntity(1, 1))).toBe(false);
    expect(code(() => w.destroy(makeEntity(1, 1)))).toBe('invalid_argument');
    expect(w.stateHash(0)).toBe(h);
    other.destroy(oe);
    other.dispose();
    w.dispose();
  });

  it('a component of another world', () => {
    const { w, e } = setup();
    const other = sim.createWorld({ capacity: 4 });
    const Q = reg(other);
    const h = w.stateHash(0);
    expect(code(() => w.add(e, Q, { x: 0, y: 0, n: 0, b: 0, pad: [0, 0, 0] }))).toBe('invalid_argument');
    expect(code(() => w.get(e, Q))).toBe('invalid_argument');
    expect(code(() => w.has(e, Q))).toBe('invalid_argument');
    expect(code(() => w.remove(e, Q))).toBe('invalid_argument');
    expect(code(() => w.each([Q], ['read'], () => {}))).toBe('invalid_argument');
    expect(code(() => w.registerSystem({ name: 'S', budgetMs: 1, io: [[Q, 'read']], run() {} }))).toBe('invalid_argument');
    expect(code(() => w.add(e, { id: 1 } as never, {} as never))).toBe('invalid_argument');
    for (const notComponent of [null, undefined, 1, 'P']) {
      expect(code(() => w.add(e, notComponent as never, {} as never))).toBe('invalid_argument');
      expect(code(() => w.get(e, notComponent as never))).toBe('invalid_argument');
      expect(code(() => w.has(e, notComponent as never))).toBe('invalid_argument');
      expect(code(() => w.remove(e, notComponent as never))).toBe('invalid_argument');
    }
    expect(w.stateHash(0)).toBe(h);
    other.dispose();
    w.dispose();
  });

  it('component values: wrong types, NaN, out-of-range integers, arrays', () => {
    const w = sim.createWorld({ capacity: 4 });
    const K = w.registerComponent('K', { f: 'f64', i: 'i32', u: 'u32', q: 'fx', s: 'i16', us: 'u16', b: 'i8', ub: 'u8', a: ['u8', 2], z: ['u8', 4] });
    const e = w.create();
    const ok = { f: 1, i: 1, u: 1, q: 1, s: 1, us: 1, b: 1, ub: 1, a: [1, 2], z: [0, 0, 0, 0] };
    w.add(e, K, ok);
    const h = w.stateHash(0);
    const bad: Array<Record<string, unknown>> = [
      { f: NaN }, { f: '1' }, { f: 1n }, { f: undefined }, { i: 1.5 }, { i: 2 ** 31 }, { i: -(2 ** 31) - 1 }, { u: -1 }, { u: 2 ** 32 },
      { q: 0.5 }, { q: 2 ** 31 }, { s: 32768 }, { us: -1 }, { us: 65536 }, { b: -129 }, { b: 128 }, { ub: 256 }, { ub: true },
      { a: [1] }, { a: [1, 2, 3] }, { a: 'ab' }, { a: [1, 256] }, { a: null }, { z: [0, 0, 0, NaN] },
    ];
    for (const patch of bad) {
      expect(code(() => w.add(e, K, { ...ok, ...patch } as never)), Object.keys(patch).join()).toBe('invalid_argument');
    }
    expect(code(() => w.add(e, K, null as never))).toBe('invalid_argument');
    expect(code(() => w.add(e, K, 5 as never))).toBe('invalid_argument');
    const { f: _f, ...missing } = ok;
    expect(code(() => w.add(e, K, missing as never))).toBe('invalid_argument');
    expect(w.get(e, K)).toEqual(ok);
    expect(w.stateHash(0)).toBe(h);
    w.dispose();
  });

  it('schema errors', () => {
    const w = sim.createWorld({ capacity: 4 });
    w.registerComponent('Taken', { x: 'f32' });
    const invalid: unknown[][] = [
      ['', { x: 'f32' }], [5, { x: 'f32' }], ['x'.repeat(64), { x: 'f32' }], ['A', null], ['A', 5], ['A', ['f32']],
      ['A', { x: 'f16' }], ['A', { x: 'i64' }], ['A', { x: ['f32'] }], ['A', { x: ['f32', 0] }], ['A', { x: ['f32', 1.5] }],
      ['A', { x: ['f32', 5000] }], ['A', { '1x': 'f32' }], ['A', { 'a b': 'f32' }], ['A', { x: 5 }],
      ['Taken', { y: 'f32' }],
    ];
    for (const [name, schema] of invalid) expect(code(() => w.registerComponent(name as string, schema as never))).toBe('invalid_argument');
    // Layouts a C struct would pad are malformed input (the core's checkComponentLayout).
    expect(code(() => w.registerComponent('Pad1', { a: 'u8', b: 'f32' }))).toBe('malformed_input');
    expect(code(() => w.registerComponent('Pad2', { a: 'f32', b: 'u8' }))).toBe('malformed_input');
    expect(code(() => w.registerComponent('Big', { a: ['f64', 600] }))).toBe('malformed_input');
    const many: Record<string, 'u8'> = {};
    for (let i = 0; i < 65; i++) many[`f${i}`] = 'u8';
    expect(code(() => w.registerComponent('Many', many))).toBe('invalid_argument');
    expect(w.componentCount).toBe(1);
    w.dispose();
  });

  it('the component budget (256) is budget_exhausted', () => {
    const w = sim.createWorld({ capacity: 4 });
    for (let i = 0; i < 256; i++) w.registerComponent(`C${i}`, { v: 'u8' });
    expect(code(() => w.registerComponent('C256', { v: 'u8' }))).toBe('budget_exhausted');
    w.dispose();
  });

  it('a disposed world throws everywhere', () => {
    const { w, P, e } = setup();
    w.dispose();
    const calls: Array<() => unknown> = [
      () => w.create(), () => w.destroy(e), () => w.isValid(e), () => w.check(e), () => w.entityCount, () => w.capacity,
      () => w.stats(), () => w.beginFrame(), () => w.guardrailStats(), () => w.clear(), () => w.handleAt(0),
      () => w.registerComponent('X', { x: 'f32' }), () => w.add(e, P, { x: 0, y: 0, n: 0, b: 0, pad: [0, 0, 0] }),
      () => w.get(e, P), () => w.has(e, P), () => w.remove(e, P), () => w.each([P], ['read'], () => {}),
      () => w.eachChunk([P], ['read'], () => {}), () => w.registerSystem({ name: 'S', budgetMs: 1, run() {} }),
      () => w.runSystems(), () => w.scheduleSystems(), () => w.stateHash(0), () => w.componentStateHash(0),
      () => w.archetypeStats(), () => w.systems(), () => w.componentCount, () => sim.createGameLoop(w),
      () => sim.recordReplay(w),
    ];
    for (const c of calls) expect(code(c)).toBe('invalid_argument');
  });

  it('query arguments', () => {
    const { w, P } = setup();
    const bad: Array<[unknown, unknown, unknown]> = [
      [P, ['read'], () => {}], [[P], 'read', () => {}], [[P], ['read', 'read'], () => {}], [[P], ['rw'], () => {}],
      [[P, P], ['read', 'read'], () => {}], [[P], ['read'], 5], [[{}], ['read'], () => {}],
    ];
    for (const [c, a, f] of bad) expect(code(() => w.each(c as never, a as never, f as never))).toBe('invalid_argument');
    expect(code(() => w.stateHash(-1))).toBe('invalid_argument');
    expect(code(() => w.stateHash(1.5))).toBe('invalid_argument');
    expect(code(() => w.stateHash('1' as never))).toBe('invalid_argument');
    expect(code(() => w.stateHash(-1n))).toBe('invalid_argument');
    expect(code(() => w.stateDiff({} as never))).toBe('invalid_argument');
    expect(code(() => w.stateDiff(w, -1))).toBe('invalid_argument');
    w.dispose();
  });

  it('the module keeps working after every rejected call (it never aborts)', () => {
    const w = sim.createWorld({ capacity: 2 });
    const e = w.create();
    expect(w.isValid(e)).toBe(true);
    expect(sim.runScenario('hello', { ticks: 2 }).hashes).toHaveLength(3);
    w.dispose();
  });
});
