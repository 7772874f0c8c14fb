// math/fx.ts - Q16.16 fixed point in TypeScript, bit-identical to
// cpp/include/laige/fpx16_16.h and SimMath<Fpx16_16> (sim_math.h;
// docs/sim_math.md). A value is its raw int32 (value = raw / 65536): the number a
// component field of kind 'fx' holds. Every operation computes the exact
// 64-bit intermediate the C++ code computes (in doubles split so that no
// partial result exceeds 2^53) and saturates to [MIN, MAX].
//
// Inputs are raw int32 values; other numbers are converted with ToInt32
// (`x | 0`) first, so every result is a valid raw value. A value that is not
// a number (a bigint, a string, a Symbol, ...) is a LaigeError
// invalid_argument, reason wrong_type, naming the argument and its type.
// The math functions (sin ... round) are in fx_math.ts, the fp32 twins
// (`f32`) in f32_math.ts.
import { invalid } from '../base/errors.js';
import { describe } from '../base/describe.js';

import { f32 } from './f32_math.js';
import { fxMath } from './fx_math.js';
import { FX_MAX, FX_MIN, FX_ONE, type Fx, wrongType as wrongTypeAt } from './fx_raw.js';

export type { Fx };
export { f32 };

const MIN = FX_MIN;
const MAX = FX_MAX;
const ONE = FX_ONE;
const TWO16 = 65536;

// Cold: builds the message only to throw.
function wrongType(where: string, arg: string, v: unknown): never {
  return wrongTypeAt(`fx.${where}`, arg, v);
}
function num1(where: string, a: unknown): void {
  if (typeof a !== 'number') wrongType(where, 'a', a);
}
function num2(where: string, a: unknown, b: unknown): void {
  if (typeof a !== 'number') wrongType(where, 'a', a);
  if (typeof b !== 'number') wrongType(where, 'b', b);
}
function num3(where: string, a: unknown, b: unknown, c: unknown, names: readonly [string, string, string]): void {
  if (typeof a !== 'number') wrongType(where, names[0], a);
  if (typeof b !== 'number') wrongType(where, names[1], b);
  if (typeof c !== 'number') wrongType(where, names[2], c);
}

function sat(v: number): Fx {
  return v > MAX ? MAX : v < MIN ? MIN : v;
}

/** Round-half-even of a double whose magnitude is < 2^53 (exact, as detail::roundHalfEven). */
function roundHalfEven(x: number): number {
  let t = Math.trunc(x);
  const frac = x - t;
  const odd = t % 2 !== 0;
  if (frac > 0.5 || (frac === 0.5 && odd)) t += 1;
  else if (frac < -0.5 || (frac === -0.5 && odd)) t -= 1;
  return t;
}

function fromBinary(v: number): Fx {
  if (v !== v) return 0;
  if (v >= 32768) return MAX;
  if (v <= -32768) return MIN;
  return sat(roundHalfEven(v * TWO16));
}

function mul(a: Fx, b: Fx): Fx {
  num2('mul', a, b);
  a |= 0;
  b |= 0;
  // a = ah * 2^16 + al with al in [0, 65535]: a*b = ah*b*2^16 + al*b, each
  // part below 2^47, so floor(a*b / 2^16) and the low 16 bits are exact.
  const al = a & 0xffff;
  const ah = a >> 16;
  const low = al * b;
  const lowQ = Math.floor(low / TWO16);
  const rem = low - lowQ * TWO16;
  let q = ah * b + lowQ;
  if (rem > 0x8000 || (rem === 0x8000 && q % 2 !== 0)) q += 1;
  return sat(q);
}

function div(a: Fx, b: Fx): Fx {
  num2('div', a, b);
  a |= 0;
  b |= 0;
  if (b === 0) return a === 0 ? 0 : a > 0 ? MAX : MIN;
  const num = a * TWO16;
  const den = b;
  // The sign of the TRUE quotient (docs/determinism.md#the-rules), not q's.
  const sign = (num < 0) !== (den < 0) ? -1 : 1;
  let q = Math.trunc(num / den);
  let r = num - q * den; // exact: |q * den| ~ |num| < 2^48
  // The double quotient can be one off for large |q|: fix it to truncation.
  while (r !== 0 && (r < 0) !== (num < 0)) {
    q -= sign;
    r = num - q * den;
  }
  while (Math.abs(r) >= Math.abs(den)) {
    q += sign;
    r = num - q * den;
  }
  if (r !== 0) {
    const twiceAbsR = 2 * Math.abs(r);
    const absDen = Math.abs(den);
    if (twiceAbsR > absDen || (twiceAbsR === absDen && q % 2 !== 0)) q += sign;
  }
  return sat(q);
}

function sqrt(a: Fx): Fx {
  num1('sqrt', a);
  a |= 0;
  if (a <= 0) return 0;
  const n = a * TWO16; // < 2^47
  let s = Math.floor(Math.sqrt(n));
  while (s * s > n) s -= 1;
  while ((s + 1) * (s + 1) <= n) s += 1;
  const rem = n - s * s;
  return s + (rem > s ? 1 : 0);
}

function add(a: Fx, b: Fx): Fx {
  num2('add', a, b);
  return sat((a | 0) + (b | 0));
}

function sub(a: Fx, b: Fx): Fx {
  num2('sub', a, b);
  return sat((a | 0) - (b | 0));
}

function length2(x: Fx, y: Fx): Fx {
  if (typeof x !== 'number') wrongType('length', 'x', x);
  if (typeof y !== 'number') wrongType('length', 'y', y);
  return sqrt(add(mul(x, x), mul(y, y)));
}

/**
 * Q16.16 helpers. `fx.fromFloat(1.5)` is the raw value 98304; `fx.mul(a, b)`
 * multiplies two raw values exactly as SimMath<Fpx16_16>::mul does.
 */
export const fx = Object.freeze({
  // sin, cos, tan, atan2, asin, acos, exp, log, pow, hypot, floor, ceil, round
  // (fx_math.ts; docs/sim_math.md#functions).
  ...fxMath,
  /** Raw of the smallest value, -32768.0. */
  MIN,
  /** Raw of the largest value, 32767.99998474. */
  MAX,
  /** Raw of 1.0. */
  ONE,
  /** Raw of the smallest value (fpx16_16::min()). */
  min: (): Fx => MIN,
  /** Raw of the largest value (fpx16_16::max()). */
  max: (): Fx => MAX,
  /** Raw of 1.0 (fpx16_16::one()). */
  one: (): Fx => ONE,
  /** Raw of 0.0. */
  zero: (): Fx => 0,
  /**
   * The raw value itself, checked to be an int32 (fpx16_16::fromRaw): an
   * integer in MIN..MAX. Anything else (1.5, 2**32 + 5, NaN, a bigint) is a
   * LaigeError invalid_argument (reason out_of_range or wrong_type).
   */
  fromRaw(raw: number): Fx {
    if (typeof raw !== 'number') wrongType('fromRaw', 'raw', raw);
    if ((raw | 0) !== raw) {
      throw invalid(`fx.fromRaw: a raw Q16.16 value is an integer in ${MIN}..${MAX}, got ${describe(raw)} (use fx.fromFloat for a real number)`,
        'out_of_range', { where: 'fx.fromRaw', field: 'raw', got: raw, min: MIN, max: MAX });
    }
    return raw | 0; // -0 -> 0
  },
  /**
   * fpx16_16::fromFloat: `v` is rounded to binary32 first (as a C++ float
   * argument is), then NaN -> 0, >= 32768 -> MAX, <= -32768 -> MIN, else
   * round-half-even(v * 65536). fromFloat(0.1) === 6554.
   */
  fromFloat(v: number): Fx {
    if (typeof v !== 'number') wrongType('fromFloat', 'v', v);
    return fromBinary(Math.fround(v));
  },
  /** fpx16_16::fromDouble: as fromFloat, without the binary32 rounding. */
  fromDouble(v: number): Fx {
    if (typeof v !== 'number') wrongType('fromDouble', 'v', v);
    return fromBinary(+v);
  },
  /** fpx16_16::toFloat: float(raw) / 65536 (one rounding). */
  toFloat(a: Fx): number {
    num1('toFloat', a);
    return Math.fround(a | 0) / TWO16;
  },
  /** fpx16_16::toDouble: raw / 65536 (exact). */
  toDouble(a: Fx): number {
    num1('toDouble', a);
    return (a | 0) / TWO16;
  },
  /** fpx16_16::fromInt32: exact, saturating (>= 32768 -> MAX, <= -32768 -> MIN). */
  fromInt(v: number): Fx {
    if (typeof v !== 'number') wrongType('fromInt', 'v', v);
    v |= 0;
    if (v >= 32768) return MAX;
    if (v <= -32768) return MIN;
    return v * TWO16;
  },
  /** fpx16_16::toInt32: nearest integer, ties to even, in [-32768, 32768]. */
  toInt(a: Fx): number {
    num1('toInt', a);
    a |= 0;
    const q = a >> 16;
    const rem = a & 0xffff;
    return rem > 0x8000 || (rem === 0x8000 && (q & 1) !== 0) ? q + 1 : q;
  },
  add,
  sub,
  /** sub(0, a): only negate(MIN) saturates (to MAX). */
  negate(a: Fx): Fx {
    num1('negate', a);
    return sub(0, a);
  },
  mul,
  /** a / b, round half even with the true sign; b == 0 -> 0, MAX or MIN by a's sign. */
  div,
  /** Square root rounded to nearest; a <= 0 -> 0. */
  sqrt,
  /** a + (b - a) * t as exactly sub, mul, add. */
  lerp(a: Fx, b: Fx, t: Fx): Fx {
    num3('lerp', a, b, t, ['a', 'b', 't']);
    return add(a, mul(sub(b, a), t));
  },
  /** Clamp x to [lo, hi]; lo > hi (after ToInt32) is a LaigeError invalid_argument, reason clamp_bounds_invalid. */
  clamp(x: Fx, lo: Fx, hi: Fx): Fx {
    num3('clamp', x, lo, hi, ['x', 'lo', 'hi']);
    x |= 0;
    const l = lo | 0;
    const h = hi | 0;
    if (l > h) throw invalid(`fx.clamp: lo (${l}) is greater than hi (${h})`, 'clamp_bounds_invalid', { lo: l, hi: h });
    return x < l ? l : x > h ? h : x;
  },
  /** sqrt(x*x + y*y), each op saturating (SimMath::length of a Vec2). */
  length: length2,
  /** sqrt((x*x + y*y) + z*z) (SimMath::length of a Vec3). */
  length3(x: Fx, y: Fx, z: Fx): Fx {
    num3('length3', x, y, z, ['x', 'y', 'z']);
    return sqrt(add(add(mul(x, x), mul(y, y)), mul(z, z)));
  },
  /** [x, y] / length, component-wise; a zero length gives [0, 0]. */
  normalize(x: Fx, y: Fx): [Fx, Fx] {
    const len = length2(x, y);
    if (len === 0) return [0, 0];
    return [div(x, len), div(y, len)];
  },
  /** [x, y, z] / length3, component-wise; a zero length gives [0, 0, 0]. */
  normalize3(x: Fx, y: Fx, z: Fx): [Fx, Fx, Fx] {
    num3('normalize3', x, y, z, ['x', 'y', 'z']);
    const len = sqrt(add(add(mul(x, x), mul(y, y)), mul(z, z)));
    if (len === 0) return [0, 0, 0];
    return [div(x, len), div(y, len), div(z, len)];
  },
});
