// The deterministic math functions of the TypeScript package (fx.sin ...,
// f32.sin ...) against the known answers the C++ functions give
// (tests/kat/math_kat.txt), bit for bit, plus a few values by hand; f32 sin,
// cos and tan of large arguments against correctly rounded answers computed
// outside laige (tests/kat/f32_trig_reference.txt) and over a strided sweep
// of every finite float.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fx } from '../../dist/math/fx.js';
import { f32 } from '../../dist/math/f32_math.js';
import { checkMathKat, type MathFns } from './support/math_kat.js';

const table = readFileSync(new URL('../kat/math_kat.txt', import.meta.url), 'utf8');
const trigReference = readFileSync(new URL('../kat/f32_trig_reference.txt', import.meta.url), 'utf8');
const S = (v: number) => fx.fromFloat(v);

describe('math known answers (C++ = TypeScript)', () => {
  it('every row of the table, both backends', () => {
    const { rows, mismatches } = checkMathKat(table, fx as unknown as MathFns, f32 as unknown as MathFns);
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(rows).toBeGreaterThan(7000);
  });

  it('detects a wrong function (the check can fail)', () => {
    const wrong = { ...(f32 as unknown as MathFns), sin: (x: number) => Math.fround(Math.sin(x) * (1 + 1e-6)) };
    const { mismatches } = checkMathKat(table, fx as unknown as MathFns, wrong);
    expect(mismatches.length).toBeGreaterThan(100);
  });
});

describe('math values', () => {
  it('Q16.16', () => {
    expect(fx.sin(0)).toBe(0);
    expect(fx.cos(0)).toBe(65536);
    expect(fx.exp(0)).toBe(65536);
    expect(fx.log(65536)).toBe(0);
    expect(fx.log(0)).toBe(fx.MIN);
    expect(fx.pow(S(2), S(10))).toBe(S(1024));
    expect(fx.hypot(S(3), S(4))).toBe(S(5));
    expect(fx.floor(S(-1.5))).toBe(S(-2));
    expect(fx.ceil(S(-1.5))).toBe(S(-1));
    expect(fx.round(S(-1.5))).toBe(S(-2));
    expect(Math.abs(fx.sin(S(1)) - 0.8414709848 * 65536)).toBeLessThanOrEqual(1);
  });
  it('fp32', () => {
    expect(Object.is(f32.sin(-0), -0)).toBe(true);
    expect(f32.sin(Infinity)).toBeNaN();
    expect(f32.exp(100)).toBe(Infinity);
    expect(f32.log(0)).toBe(-Infinity);
    expect(f32.pow(-2, 3)).toBe(-8);
    expect(f32.pow(-2, 0.5)).toBeNaN();
    expect(f32.atan2(0, -0)).toBe(Math.fround(Math.PI));
    expect(Object.is(f32.round(-0.4), -0)).toBe(true);
    expect(f32.hypot(Infinity, NaN)).toBe(Infinity);
  });
});

describe('f32 sin, cos, tan over the whole float range', () => {
  const f32Bits = new Float32Array(1);
  const u32Bits = new Uint32Array(f32Bits.buffer);
  const floatOfBits = (b: number) => {
    u32Bits[0] = b;
    return f32Bits[0]!;
  };
  const bitsOf = (v: number) => {
    f32Bits[0] = v;
    return u32Bits[0]!;
  };

  it('large and edge arguments give the correctly rounded result (the C++ bits)', () => {
    const { rows, mismatches } = checkMathKat(trigReference, fx as unknown as MathFns, f32 as unknown as MathFns);
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(rows).toBe(510);
    // the known-answer table carries the same inputs (its last section), so
    // every target compares them bit for bit
    expect(table).toContain('# f32 sin, cos, tan of large');
    expect(table).toContain('f32 sin 7f7fffff = bf0599b3');
  });

  it('every 4096th finite float: in [-1, 1], sin^2 + cos^2 = 1, odd and even', () => {
    let checked = 0;
    const bad: string[] = [];
    for (let b = 0; b < 0x7f800000; b += 4096) {
      const x = floatOfBits(b);
      const s = f32.sin(x);
      const c = f32.cos(x);
      const t = f32.tan(x);
      const ok = Math.abs(s) <= 1 && Math.abs(c) <= 1 && Math.abs(s * s + c * c - 1) <= 2 ** -22 &&
        bitsOf(f32.sin(-x)) === (bitsOf(s) ^ 0x80000000) >>> 0 && f32.cos(-x) === c &&
        bitsOf(f32.tan(-x)) === (bitsOf(t) ^ 0x80000000) >>> 0;
      if (!ok && bad.length < 5) bad.push(`${b.toString(16)}: sin ${s} cos ${c} tan ${t}`);
      checked += 1;
    }
    expect(bad).toEqual([]);
    expect(checked).toBe(522240);
  });
});
