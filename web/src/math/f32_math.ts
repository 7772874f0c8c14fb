// math/f32_math.ts - deterministic sin, cos, tan, atan2, asin, acos, exp,
// log, pow, hypot, floor, ceil and round in pinned fp32, bit-identical to
// SimMath<Fp32Pinned>::sin ... (cpp/include/laige/detail/sim_math_fn_f32.h)
// in every JavaScript engine. Method, accuracy and special cases:
// docs/sim_math.md#functions.
//
// The input is rounded to binary32 (Math.fround), the function runs on
// binary64 + - * / and Math.sqrt exactly as the C++ code does, and the result
// is rounded once with Math.fround. Never Math.sin, Math.exp, Math.pow, ...:
// engines differ. A value that is not a number is a LaigeError wrong_type.

import { wrongType } from './fx_raw.js';

const f32buf = new Float32Array(1);
const u32buf = new Uint32Array(f32buf.buffer);
const POW2: number[] = [];  // 2^k for k in [-200, 200], built by exact doublings
{
  let v = 1;
  for (let k = 0; k <= 200; k++, v *= 2) POW2[200 + k] = v;
  v = 1;
  for (let k = 0; k <= 200; k++, v /= 2) POW2[200 - k] = v;
}
const INF = Infinity;

function signBit(d: number): boolean {
  return d < 0 || (d === 0 && 1 / d < 0);
}
function sinPoly(r: number): number {
  const z = r * r;
  let p = 1.6059043836821613e-10;
  p = -2.505210838544172e-8 + p * z;
  p = 2.7557319223985893e-6 + p * z;
  p = -0.0001984126984126984 + p * z;
  p = 0.008333333333333333 + p * z;
  p = -0.16666666666666666 + p * z;
  return r + p * z * r;
}
function cosPoly(r: number): number {
  const z = r * r;
  let p = -1.1470745597729725e-11;
  p = 2.08767569878681e-9 + p * z;
  p = -2.755731922398589e-7 + p * z;
  p = 2.48015873015873e-5 + p * z;
  p = -0.001388888888888889 + p * z;
  p = 0.041666666666666664 + p * z;
  p = -0.5 + p * z;
  return 1.0 + p * z;
}
// 2/pi in binary, bits 1..256 after the point, behind one zero word (as
// F32FnCore::kTwoOverPiWords).
const TWO_OVER_PI_WORDS = [0, 0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab,
  0xdebbc561];
const TWO24 = 16777216;
/** Bits p .. p+23 of 2/pi as an integer (bits p <= 0 are 0), -31 <= p <= 200. */
function twoOverPiBits24(p: number): number {
  const a = p + 31;
  const i = a >> 5;
  const off = a & 31;
  if (off <= 8) return (TWO_OVER_PI_WORDS[i]! >>> (8 - off)) & 0xffffff;
  return ((TWO_OVER_PI_WORDS[i]! << (off - 8)) | (TWO_OVER_PI_WORDS[i + 1]! >>> (40 - off))) & 0xffffff;
}
/**
 * reduceTrig for finite |x| >= 2^23: Payne-Hanek in exact integer steps on
 * doubles (every product m * c < 2^48), the same steps and bits as
 * F32FnCore::reduceLarge, which explains them.
 */
function reduceLarge(x: number): [number, number] {
  f32buf[0] = x < 0 ? -x : x;
  const bits = u32buf[0]!;
  const m = (bits & 0x7fffff) | 0x800000;
  const e = (bits >>> 23) - 150;
  const t0 = m * twoOverPiBits24(e - 1);
  const t1 = m * twoOverPiBits24(e + 23);
  const t2 = m * twoOverPiBits24(e + 47);
  const t3 = m * twoOverPiBits24(e + 71);
  const t4 = m * twoOverPiBits24(e + 95);
  let d4 = (t3 % TWO24) + Math.floor(t4 / TWO24);
  let d3 = (t2 % TWO24) + Math.floor(t3 / TWO24) + Math.floor(d4 / TWO24);
  let d2 = (t1 % TWO24) + Math.floor(t2 / TWO24) + Math.floor(d3 / TWO24);
  const d1 = ((t0 % TWO24) + Math.floor(t1 / TWO24) + Math.floor(d2 / TWO24)) % TWO24;
  d4 %= TWO24;
  d3 %= TWO24;
  d2 %= TWO24;
  const k = Math.floor((d1 + 2097152) / 4194304);
  const hi = d1 - k * 4194304 + d2 * 5.9604644775390625e-8;
  const lo = d3 * 3.552713678800501e-15 + d4 * 2.117582368135751e-22;
  const r = (hi + lo) * 2.384185791015625e-7 * 1.5707963267948966;
  const q = k % 4;
  return x < 0 ? [(4 - q) % 4, -r] : [q, r];
}
/**
 * x = k * pi/2 + r for sin, cos and tan: [k mod 4, r], or undefined for NaN
 * and +-inf; as F32FnCore::reduceTrig (Cody-Waite below 2^23, one test on
 * that path).
 */
function reduceTrig(x: number): [number, number] | undefined {
  if (Math.abs(x) < 8388608) {
    const k = Math.floor(x * 0.6366197723675814 + 0.5);
    const r = x - k * 1.5707963267341256 - k * 6.077100506303966e-11 - k * 2.0222662487959506e-21;
    return [k - Math.floor(k * 0.25) * 4, r];
  }
  return x - x === 0 ? reduceLarge(x) : undefined;
}
const ATAN_D = [0.0, 0.12435499454676144, 0.24497866312686414, 0.35877067027057225, 0.4636476090008061,
  0.5585993153435624, 0.6435011087932844, 0.7188299996216245, 0.7853981633974483];
function atanQuadrant(y: number, x: number): number {
  const swap = y > x;
  const t = swap ? x / y : y / x;
  const idx = Math.floor(t * 8.0 + 0.5);
  const c = idx * 0.125;
  const u = (t - c) / (1.0 + t * c);
  const w = u * u;
  let p = -0.09090909090909091;
  p = 0.1111111111111111 + p * w;
  p = -0.14285714285714285 + p * w;
  p = 0.2 + p * w;
  p = -0.3333333333333333 + p * w;
  const a = ATAN_D[idx]! + (u + p * w * u);
  return swap ? 1.5707963267948966 - a : a;
}
function atan2Finite(y: number, x: number): number {
  let a = atanQuadrant(y < 0 ? -y : y, x < 0 ? -x : x);
  if (signBit(x)) a = 3.141592653589793 - a;
  return signBit(y) ? -a : a;
}
function logPositive(xf: number): number {
  let bias = 0;
  if (xf < 1.1754943508222875e-38) {
    xf = Math.fround(xf * 16777216);
    bias = -24;
  }
  f32buf[0] = xf;
  const bits = u32buf[0]!;
  let e = (bits >>> 23) - 127 + bias;
  u32buf[0] = (bits & 0x7fffff) | 0x3f800000;
  let m = f32buf[0]!;
  if (m > 1.4142135623730951) {
    m = m * 0.5;
    e = e + 1.0;
  }
  const s = (m - 1.0) / (m + 1.0);
  const w = s * s;
  let p = 0.13333333333333333;
  p = 0.15384615384615385 + p * w;
  p = 0.18181818181818182 + p * w;
  p = 0.2222222222222222 + p * w;
  p = 0.2857142857142857 + p * w;
  p = 0.4 + p * w;
  p = 0.6666666666666666 + p * w;
  const lm = 2.0 * s + p * w * s;
  return e * 0.6931471803691238 + (e * 1.9082149292705877e-10 + lm);
}
const EXP_D = [2.505210838544172e-8, 2.755731922398589e-7, 2.7557319223985893e-6, 2.48015873015873e-5,
  0.0001984126984126984, 0.001388888888888889, 0.008333333333333333, 0.041666666666666664,
  0.16666666666666666, 0.5, 1.0];
function expClamped(x: number): number {
  const k = Math.floor(x * 1.4426950408889634 + 0.5);
  const r = x - k * 0.6931471803691238 - k * 1.9082149292705877e-10;
  let p = 2.08767569878681e-9;
  for (const c of EXP_D) p = c + p * r;
  const e = 1.0 + p * r;
  return e * POW2[200 + k]!;
}
function clampExpArg(x: number): number {
  return x > 90.0 ? 90.0 : x < -110.0 ? -110.0 : x;
}
function isIntegral(y: number): boolean {
  const a = y < 0 ? -y : y;
  return a >= 8388608 || Math.trunc(y) === y;
}
function isOddIntegral(y: number): boolean {
  const a = y < 0 ? -y : y;
  if (a >= 16777216 || !isIntegral(y)) return false;
  return (Math.trunc(y) & 1) !== 0;
}
function rounded(x: number, mode: 0 | 1 | 2): number {
  const a = x < 0 ? -x : x;
  if (!(a < 8388608)) return x;
  const t = Math.trunc(x);
  let r = t;
  if (mode === 0 && t > x) r = t - 1;
  if (mode === 1 && t < x) r = t + 1;
  if (mode === 2) {
    const frac = x - t;
    if (frac >= 0.5) r = t + 1;
    if (frac <= -0.5) r = t - 1;
  }
  if (r === 0) return signBit(x) ? -0 : 0;
  return r;
}

const fr = Math.fround;

/**
 * The pinned-fp32 functions: each takes numbers, rounds them to binary32
 * (Math.fround), and returns the binary32 result SimMath<Fp32Pinned> gives,
 * bit for bit. Use them (and Math.fround after every + - * /) in TypeScript
 * systems that mirror fp32 C++ code.
 */
export const f32 = Object.freeze({
  /** sin(x), within 0.5 ulp for every finite x (docs/sim_math.md#functions); NaN for NaN and +-inf. */
  sin(x: number): number {
    if (typeof x !== 'number') wrongType('f32.sin', 'a', x);
    x = fr(x);
    if (x === 0) return x;
    const qr = reduceTrig(x);
    if (qr === undefined) return NaN;
    const [q, r] = qr;
    const v = (q & 1) === 0 ? sinPoly(r) : cosPoly(r);
    return fr(q >= 2 ? -v : v);
  },
  /** cos(x), within 0.5 ulp for every finite x; NaN for NaN and +-inf. */
  cos(x: number): number {
    if (typeof x !== 'number') wrongType('f32.cos', 'a', x);
    x = fr(x);
    const qr = reduceTrig(x);
    if (qr === undefined) return NaN;
    const [q, r] = qr;
    const v = (q & 1) === 0 ? cosPoly(r) : sinPoly(r);
    return fr(q === 1 || q === 2 ? -v : v);
  },
  /** tan(x) = sin / cos in binary64, within 0.5 ulp for every finite x; NaN for NaN and +-inf. */
  tan(x: number): number {
    if (typeof x !== 'number') wrongType('f32.tan', 'a', x);
    x = fr(x);
    if (x === 0) return x;
    const qr = reduceTrig(x);
    if (qr === undefined) return NaN;
    const [q, r] = qr;
    const s = sinPoly(r);
    const c = cosPoly(r);
    return fr((q & 1) === 0 ? s / c : -c / s);
  },
  /** atan2(y, x) with the C99 special cases. */
  atan2(y: number, x: number): number {
    if (typeof y !== 'number') wrongType('f32.atan2', 'a', y);
    if (typeof x !== 'number') wrongType('f32.atan2', 'b', x);
    y = fr(y);
    x = fr(x);
    if (y !== y || x !== x) return NaN;
    const yInf = y === INF || y === -INF;
    const xInf = x === INF || x === -INF;
    let a = 0;
    if (yInf && xInf) a = signBit(x) ? 2.356194490192345 : 0.7853981633974483;
    else if (yInf) a = 1.5707963267948966;
    else if (xInf) a = signBit(x) ? 3.141592653589793 : 0.0;
    else if (y === 0 && x === 0) a = signBit(x) ? 3.141592653589793 : 0.0;
    else return fr(atan2Finite(y, x));
    return fr(signBit(y) ? -a : a);
  },
  /** asin(x); NaN outside [-1, 1]. */
  asin(x: number): number {
    if (typeof x !== 'number') wrongType('f32.asin', 'a', x);
    x = fr(x);
    if (!(x >= -1 && x <= 1)) return NaN;
    if (x === 0) return x;
    return fr(atan2Finite(x, Math.sqrt((1.0 - x) * (1.0 + x))));
  },
  /** acos(x); NaN outside [-1, 1]. */
  acos(x: number): number {
    if (typeof x !== 'number') wrongType('f32.acos', 'a', x);
    x = fr(x);
    if (!(x >= -1 && x <= 1)) return NaN;
    return fr(atan2Finite(Math.sqrt((1.0 - x) * (1.0 + x)), x));
  },
  /** e^x. */
  exp(x: number): number {
    if (typeof x !== 'number') wrongType('f32.exp', 'a', x);
    x = fr(x);
    if (x !== x) return NaN;
    return fr(expClamped(clampExpArg(x)));
  },
  /** Natural log; -inf at +-0, NaN below 0. */
  log(x: number): number {
    if (typeof x !== 'number') wrongType('f32.log', 'a', x);
    x = fr(x);
    if (x !== x || x < 0) return NaN;
    if (x === 0) return -INF;
    if (x === INF) return x;
    return fr(logPositive(x));
  },
  /** x^y with the C99 special cases. */
  pow(x: number, y: number): number {
    if (typeof x !== 'number') wrongType('f32.pow', 'a', x);
    if (typeof y !== 'number') wrongType('f32.pow', 'b', y);
    x = fr(x);
    y = fr(y);
    if (y === 0 || x === 1) return 1;
    if (x !== x || y !== y) return NaN;
    const yOdd = isOddIntegral(y);
    const yInf = y === INF || y === -INF;
    if (x === 0) {
      if (y < 0) return yOdd ? (signBit(x) ? -INF : INF) : INF;
      return yOdd ? x : 0;
    }
    if (yInf) {
      const ax = x < 0 ? -x : x;
      if (ax === 1) return 1;
      return (ax < 1) === (y < 0) ? INF : 0;
    }
    if (x === INF || x === -INF) {
      const mag = y < 0 ? 0 : INF;
      return x < 0 && yOdd ? -mag : mag;
    }
    if (x < 0 && !isIntegral(y)) return NaN;
    const l = logPositive(x < 0 ? -x : x);
    const v = expClamped(clampExpArg(y * l));
    return fr(x < 0 && yOdd ? -v : v);
  },
  /** sqrt(x*x + y*y) without overflow; +inf if either is infinite. */
  hypot(x: number, y: number): number {
    if (typeof x !== 'number') wrongType('f32.hypot', 'a', x);
    if (typeof y !== 'number') wrongType('f32.hypot', 'b', y);
    x = fr(x);
    y = fr(y);
    if (x === INF || x === -INF || y === INF || y === -INF) return INF;
    if (x !== x || y !== y) return NaN;
    return fr(Math.sqrt(x * x + y * y));
  },
  /** Largest integral value <= x (keeps -0). */
  floor(x: number): number {
    if (typeof x !== 'number') wrongType('f32.floor', 'a', x);
    return rounded(fr(x), 0);
  },
  /** Smallest integral value >= x. */
  ceil(x: number): number {
    if (typeof x !== 'number') wrongType('f32.ceil', 'a', x);
    return rounded(fr(x), 1);
  },
  /** Nearest integral value, halves away from zero. */
  round(x: number): number {
    if (typeof x !== 'number') wrongType('f32.round', 'a', x);
    return rounded(fr(x), 2);
  },
});
