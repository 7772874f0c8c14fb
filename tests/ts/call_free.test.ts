// Callbacks that provably call nothing (web/src/base/call_free.ts) get row loops
// without the per-row epoch test. Checked: the classification, conservative
// on every shape it does not recognise; and that such loops compute exactly
// what the interpreted loop computes, errors included.
import { describe, expect, it } from 'vitest';
import { LaigeError, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';
import { KINDS, kindsWorld } from './support/kinds_world.js';

// Internal (stripped from the published declarations).
const callFreeModule = '../../dist/base/call_free.js';
type Bindings = {
  positional: string[][] | null;
  named: Map<string, string[]> | null;
  arrays: Map<string | number, Set<string>>;
};
const { callFree } = (await import(callFreeModule)) as { callFree: (src: string, b: Bindings) => boolean };

const named: Bindings = {
  positional: null,
  named: new Map([['pos', ['x', 'y']], ['vel', ['x', 'y']], ['d', ['v']], ['a', ['v']], ['b', ['v']], ['arr', ['v']]]),
  arrays: new Map([['arr', new Set(['v'])]]),
};
const positional: Bindings = { positional: [['x', 'y'], ['x', 'y']], named: null, arrays: new Map([[0, new Set()], [1, new Set()]]) };

describe('callFree: whether a callback can run anything but its own arithmetic on its refs', () => {
  it('true for arithmetic on ref fields, locals, literals, control flow and ternaries', () => {
    const yes: Array<[Bindings, string]> = [
      [named, '(_e, { pos, vel }) => { pos.x += vel.x; pos.y += vel.y; }'],
      [named, '(_e, { d }) => { d.v *= 2; if (d.v > 1e30) d.v = 1; }'],
      [named, '(_e, { a, b }) => { const t = a.v; a.v = b.v; b.v = t; }'],
      [named, '(_e, { d }) => { d.v = d.v > 1e30 ? 1 : d.v * 2; }'],
      [named, '(e, { d }) => { d.v = e & 1 ? (d.v + 1) / 2 : d.v; }'],
      [named, '(_e, { arr }) => { for (let i = 0; i < 2; i++) arr.v[i] += 1; }'],
      [named, '(_e, r) => { r.pos.x += r.vel.x; }'],
      [named, '(_e, { pos: p, vel: v }) => { p.x += v.x; } // a comment'],
      [named, "(_e, { d }) => { switch (d.v) { case 1: d.v = 2; break; default: d.v = 'x'; } }"],
      [positional, '(_e, p, v) => { p.x += v.x; p.y += v.y; }'],
      [positional, 'function (_e, p, v) { p.x += v.x; }'],
      [positional, 'e => {}'],
    ];
    for (const [b, src] of yes) expect([src, callFree(src, b)]).toEqual([src, true]);
  });

  it('false for a call, a closure variable or global, a member that is no field, and every shape it does not take', () => {
    const no: Array<[Bindings, string]> = [
      [named, '(_e, { d }) => { d.v = Math.sqrt(d.v); }'],
      [named, '(e, { d }) => { w.add(e, D, { v: 1 }); }'],
      [named, '(_e, { d }) => { d.v += dt; }'], // a closure variable: an object with valueOf, a getter behind it
      [named, '(_e, { d }) => { d.v = d.w; }'], // not a field: a getter on Object.prototype could answer
      [named, '(_e, { d }) => { d.v = d.constructor; }'],
      [named, '(_e, { d }) => { const o = { get x() { return 1; } }; d.v = o.x; }'],
      [named, '(_e, { d }) => { d.v = `${d.v}`; }'],
      [named, '(_e, { d }) => { d.v = [1, 2][0]; }'],
      [named, '(_e, { d }) => { for (const x of [1]) d.v = x; }'],
      [named, '(_e, { d }) => { d.v = (() => 1)(); }'],
      [named, '(_e, { d }) => { d.v = new Number(1); }'],
      [named, '(_e, { d }) => { d.v = this; }'],
      [named, "(_e, { d }) => { d.v = 'x' in d ? 1 : 0; }"],
      [named, "(_e, { d }) => { d.v = /a/.test('a') ? 1 : 0; }"],
      [named, '(_e, { d }) => { const q = d; q.v = 1; }'],
      [named, '(_e, { d = 1 }) => {}'],
      [named, '(_e, { ...rest }) => {}'],
      [named, '(_e, { d }) => { d.v.toFixed; }'],
      [named, "(_e, { d }) => { d.v = d['v']; }"],
      [named, '(_e, { d }) => { delete d.v; }'],
      [named, '(_e, { zz }) => {}'], // not a term
      [named, 'async (_e, { d }) => { d.v = 1; }'],
      [named, '(_e, { d }) => { let a = 1, b = 2; d.v = a + b; }'], // a second declarator is not taken
      [named, "(_e, { d }) => { d.v = eval('1'); }"],
      [named, '(_e, { d }) => { d.v = d?.v; }'],
      [named, '(_e, { d }) => { d.v = arguments.length; }'],
      [named, '(_e, { d }) => { d.v = globalThis.x; }'],
      [named, '(_e, { d }) => { d.v = 1; \\u0064.v = 2; }'],
      [named, '(_e, { d }) => { d.v = { v: 1 }.v; }'],
      [named, '(_e, { d }) => ({ ...d })'],
      [positional, '(_e, p, v, extra) => { p.x = 1; }'],
      [positional, '(_e, p) => { p.x = p.x.y; }'],
      [positional, 'each(e, p) { p.x = 1; }'],
      [positional, 'function () { [native code] }'],
      [positional, '(e, p) => { p.x = e.x; }'],
      [positional, '(e, p) => { p.x /= 2; p.y = /2/g; }'],
    ];
    for (const [b, src] of no) expect([src, callFree(src, b)]).toEqual([src, false]);
  });
});

function build(interpreted: boolean) {
  return kindsWorld(interpreted ? 'interpreted' : 'auto');
}

// Call-free callbacks (asserted below): every kind, a fixed array, read and write refs, the entity.
type KRef = { a: number; b: number; c: number; d: number; e: number; f: number; g: number; h: number; q: number; arr: number[] };
const step = (e: number, { k, p }: { k: KRef; p: { x: number; y: number } }) => {
  k.a = (k.a + 3) % 100;
  k.b = (k.b + 5) & 0xff;
  k.c = (k.c * 3) % 30000;
  k.d = (k.d + 1) & 0xffff;
  k.e = (k.e ^ e) | 0;
  k.f = (k.f + 77) >>> 0;
  k.g = k.g > 1e6 ? 0 : k.g * 1.5 + p.x;
  k.h = k.h - p.y / 3;
  k.q = (k.q + 65536) | 0;
  k.arr[1] = (k.arr[0]! + 7) % 1000;
};
const drift = (_e: number, { p }: { p: { x: number; y: number } }) => { p.y += 0.25; if (p.y > 100) p.y = -p.x; };

function stepsBindings(): [Bindings, Bindings] {
  const kFields = Object.keys(KINDS);
  return [
    { positional: null, named: new Map([['k', kFields], ['p', ['x', 'y']]]), arrays: new Map([['k', new Set(['arr', 'pad'])], ['p', new Set()]]) },
    { positional: null, named: new Map([['p', ['x', 'y']]]), arrays: new Map([['p', new Set()]]) },
  ];
}

describe('loops of call-free callbacks', () => {
  it('the callbacks used here are call-free (so these tests run the loops without the epoch test)', () => {
    const [kp, p] = stepsBindings();
    expect(callFree(Function.prototype.toString.call(step), kp)).toBe(true);
    expect(callFree(Function.prototype.toString.call(drift), p)).toBe(true);
  });

  it('compute what the interpreted loop computes: every kind, arrays, several archetypes, 10 passes', () => {
    const hashes = [false, true].map((interpreted) => {
      const { w, K, P } = build(interpreted);
      const kp = w.query({ k: K.write, p: P.read });
      const pw = w.query({ p: P.write });
      for (let pass = 0; pass < 10; pass++) {
        kp.each(step as never);
        pw.each(drift as never);
      }
      const h = w.stateHash(10);
      w.dispose();
      return h;
    });
    expect(hashes[0]).toBe(hashes[1]);
  });

  it('a bad value, and a write to a read ref, throw and store nothing of that row', () => {
    for (const interpreted of [false, true]) {
      const { w, K, P } = build(interpreted);
      const q = w.query({ p: P.write });
      const h = w.stateHash(0);
      const nan = thrown(() => q.each((_e, { p }) => { p.x = p.x > -1 ? NaN : 0; }));
      expect(nan).toBeInstanceOf(LaigeError);
      expect((nan as LaigeError).reason).toBe('invalid_value');
      expect(w.stateHash(0)).toBe(h); // the first row threw: nothing stored
      const ro = thrown(() => w.query({ k: K.read }).each((_e, { k }) => { (k as { a: number }).a = 1; }));
      expect(ro).toBeInstanceOf(LaigeError);
      expect(w.stateHash(0)).toBe(h);
      w.dispose();
    }
  });

  it('a callback that calls anything keeps the test: a World.add on the visited row stands, memory growth is survived', () => {
    const { w, P } = build(false);
    const q = w.query({ p: P.write });
    const keep: World[] = [];
    const bytes0 = sim.memoryBytes;
    let i = 0;
    q.each((e, { p }) => {
      if (i === 3) while (sim.memoryBytes === bytes0) keep.push(sim.createWorld({ capacity: 65536 }));
      if (i % 2 === 0) w.add(e, P, { x: 7, y: p.y });
      else p.y = -1;
      i++;
    });
    expect(sim.memoryBytes).toBeGreaterThan(bytes0);
    let r = 0;
    q.each((_e, { p }) => {
      if (r % 2 === 0) expect(p.x).toBe(7);
      else expect(p.y).toBe(-1);
      r++;
    });
    for (const k of keep) k.dispose();
    w.dispose();
  });
});
