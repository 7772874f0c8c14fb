// The real first passes of fx.tan, atan2, asin, acos, log, pow and the
// rounding of fx.sin and cos (web/src/math/fx_real.ts, fx_q30.ts) against the exact
// integer kernels they fall back to (trigExact, atanExact, expLogExact, which
// tests/ts/fx_sweep.test.ts compares with the C++ functions) over dense
// input sets: every raw of wide ranges and every raw next to the places
// where the passes' bounds are tightest (the poles of tan, the table points
// and the swap of atan, the mantissa split of log).
import { describe, expect, it } from 'vitest';
import { fx } from '../../dist/math/fx.js';
import { atanExact, expLogExact, mr30, mrs, powRaw, trigExact } from '../../dist/math/fx_q30.js';

type Fn1 = (x: number) => number;

/** The inputs (at most 5) where `fast` and `exact` differ, of every x in `xs`. */
function differences(name: string, fast: Fn1, exact: Fn1, xs: Iterable<number>): string[] {
  const bad: string[] = [];
  for (const x of xs) {
    const got = fast(x);
    if (got !== exact(x) && bad.length < 5) bad.push(`fx.${name}(${x}) = ${got}, exact ${exact(x)}`);
  }
  return bad;
}
function* range(lo: number, hi: number, step = 1): Generator<number> {
  for (let x = lo; x <= hi; x += step) yield x;
}
/** Every raw within `w` of round(k pi/2 2^16) for every k with the multiple in the int32 range, both signs. */
function* nearHalfPiMultiples(w: number): Generator<number> {
  for (let k = 1; k * Math.PI * 32768 < 2147483647 - w; k++) {
    const c = Math.round(k * Math.PI * 32768);
    for (let d = -w; d <= w; d++) {
      yield c + d;
      yield -(c + d);
    }
  }
}
let s = 2463534242;
function next(): number {
  s ^= s << 13;
  s ^= s >>> 17;
  s ^= s << 5;
  return s | 0;
}

describe('the real first passes equal the exact integer kernels', () => {
  it('tan: every raw in [-2^22, 2^22], every raw within 64 of each multiple of pi/2, the ends', { timeout: 300_000 }, () => {
    const exact = (x: number) => trigExact(x, 2);
    expect(differences('tan', fx.tan, exact, range(-4194304, 4194304))).toEqual([]);
    expect(differences('tan', fx.tan, exact, nearHalfPiMultiples(64))).toEqual([]);
    expect(differences('tan', fx.tan, exact, range(-2147483648, 2147483647, 4093))).toEqual([]);
  });

  it('sin and cos: every raw in [-2^21, 2^21], every raw within 16 of each multiple of pi/2', { timeout: 300_000 }, () => {
    for (const [name, fn, f] of [['sin', 0, fx.sin], ['cos', 1, fx.cos]] as const) {
      const exact = (x: number) => trigExact(x, fn);
      expect(differences(name, f, exact, range(-2097152, 2097152))).toEqual([]);
      expect(differences(name, f, exact, nearHalfPiMultiples(16))).toEqual([]);
    }
  });

  it('asin and acos: every raw in [-2^17, 2^17] (all that are not clamped) and the ends', () => {
    for (const [name, fn, f] of [['asin', 1, fx.asin], ['acos', 2, fx.acos]] as const) {
      const exact = (x: number) => atanExact(x, 0, fn);
      expect(differences(name, f, exact, range(-131072, 131072))).toEqual([]);
      expect(differences(name, f, exact, [-2147483648, -2147483647, 2147483647, 65537, -65537])).toEqual([]);
    }
  });

  it('atan2: random pairs at every scale, pairs next to the swap (|y| = |x| + d), next to the table points and on the axes', { timeout: 300_000 }, () => {
    const bad: string[] = [];
    const check = (y: number, x: number) => {
      const got = fx.atan2(y, x);
      const want = atanExact(y, x, 0);
      if (got !== want && bad.length < 5) bad.push(`fx.atan2(${y}, ${x}) = ${got}, exact ${want}`);
    };
    for (let i = 0; i < 1_000_000; i++) {
      const sh = (i >>> 3) % 31;
      const y = next() >> sh;
      const x = next() >> (i % 8 === 0 ? sh : (next() >>> 0) % 31);
      check(y, x);
      const m = x === -2147483648 ? 2147483647 : Math.abs(x);
      for (let d = -2; d <= 2; d++) {
        const v = m + d;
        if (v >= -2147483648 && v <= 2147483647) check(i & 1 ? v : -v, i & 2 ? x : -x);
      }
      // |y| / |x| next to (j + 1/2) / 64 (where the table index changes) and j / 8
      const j = (next() >>> 0) % 64;
      const yt = Math.round((m * (j + 0.5)) / 64);
      const y8 = Math.round((m * (j % 9)) / 8);
      for (let d = -1; d <= 1; d++) {
        check(yt + d, x);
        if (y8 + d <= 2147483647) check(y8 + d, -x);
      }
      check(0, x);
      check(y, 0);
    }
    check(0, 0);
    check(-2147483648, -2147483648);
    expect(bad).toEqual([]);
  });

  it('log: every raw in [1, 2^23], a stride over all positive raws, every raw next to powers of two and sqrt2 multiples', { timeout: 300_000 }, () => {
    const exact = (x: number) => expLogExact(x, 0, 1);
    expect(differences('log', fx.log, exact, range(1, 8388608))).toEqual([]);
    expect(differences('log', fx.log, exact, range(8388609, 2147483647, 1021))).toEqual([]);
    const edges: number[] = [];
    for (let e = 0; e <= 31; e++) {
      for (const c of [2 ** e, Math.floor(Math.SQRT2 * 2 ** e)]) {
        for (let d = -512; d <= 512; d++) if (c + d >= 1 && c + d <= 2147483647) edges.push(c + d);
      }
    }
    expect(differences('log', fx.log, exact, edges)).toEqual([]);
  });

  it('pow (its log now unfloored): random pairs at every scale, integral y, x next to powers of two', { timeout: 300_000 }, () => {
    const bad: string[] = [];
    const check = (x: number, y: number) => {
      const got = powRaw(x, y);
      const want = expLogExact(x, y, 2);
      if (got !== want && bad.length < 5) bad.push(`powRaw(${x}, ${y}) = ${got}, exact ${want}`);
    };
    for (let i = 0; i < 1_000_000; i++) {
      const x = (next() >>> ((i >>> 2) % 31)) | 1;
      const y = next() >> (11 + (i % 21));
      check(x, y || 1);
      check(x, (y >> 4) * 65536 || 65536);
      const e = (next() >>> 0) % 31;
      check(Math.min(2147483647, 2 ** e + (next() % 8)) || 1, y || 1);
    }
    expect(bad).toEqual([]);
  });

  it("tan's premise: the integer sin and cos series within 0.6 + 1.5 |r| / 2^30 and 2 of the real ones", () => {
    // FixedFnCore::sinCosQ30 by the exact steps, and the series in binary64 as fx_real.ts evaluates them
    const bad: string[] = [];
    const check = (r: number) => {
      const z = mrs(r, r);
      let p = -27;
      for (const k of [2959, -213044, 8947849, -178956971]) p = k + mr30(p, z);
      const si = r + mrs(mrs(p, z), r);
      let q = 2;
      for (const k of [-296, 26631, -1491308, 44739243]) q = k + mr30(q, z);
      q = -536870912 + mrs(q, z);
      const ci = 1073741824 + mrs(q, z);
      const zs = r * r * 8.673617379884035e-19;
      const pr = (((-27 * zs + 2959) * zs - 213044) * zs + 8947849) * zs - 178956971;
      const sr = r + pr * zs * r * 9.313225746154785e-10;
      const qr = ((((2 * zs - 296) * zs + 26631) * zs - 1491308) * zs + 44739243) * zs - 536870912;
      const cr = qr * zs + 1073741824;
      if (Math.abs(si - sr) > 0.6 + (1.5 * Math.abs(r)) / 1073741824 || Math.abs(ci - cr) > 2) {
        if (bad.length < 5) bad.push(`r = ${r}: s ${si} vs ${sr}, c ${ci} vs ${cr}`);
      }
    };
    for (let r = -843314857; r <= 843314857; r += 397) check(r);
    for (let r = -1048576; r <= 1048576; r++) check(r);
    expect(bad).toEqual([]);
  });

  it('a pass wrong at one input is found (the check can fail)', () => {
    const wrong = (x: number) => (x === 1234567 ? fx.tan(x) + 1 : fx.tan(x));
    expect(differences('tan', wrong, (x) => trigExact(x, 2), range(1234000, 1235000))).toHaveLength(1);
  });
});
