// fx_math.ts - deterministic sin, cos, tan, atan2, asin, acos, exp, log,
// pow, hypot, floor, ceil and round, bit-identical to the C++ functions of
// laige/sim_math_fn.h (SimMath<Fpx16_16>::sin ..., SimMath<Fp32Pinned>::sin
// ...), in every JavaScript engine. Method, accuracy and special cases:
// docs/sim_math.md#functions.
//
// Q16.16 (`fx.sin(raw)` etc., merged into `fx`): the same integer steps as
// the C++ code, on doubles that stay below 2^53 (products are split so each
// partial product is exact). Pinned fp32 (`f32.sin(x)` etc.): the input is
// rounded to binary32 (Math.fround), the function runs on binary64 + - * /
// and Math.sqrt exactly as the C++ code does, and the result is rounded once
// with Math.fround. Never Math.sin, Math.exp, Math.pow, ...: engines differ.

import type { Fx } from './fx.js';

const MAX = 2147483647;
const MIN = -2147483648;
const ONE_Q30 = 1073741824;
const HALF_PI_Q37 = 215888603272;
const PI_Q30 = 3373259426;
const HALF_PI_Q30 = 1686629713;
const LN2_Q46 = 48775896626292;
const LN2_Q30 = 744261118;
const SQRT2_Q30 = 1518500250;
const ATAN_Q30 = [0, 133525159, 263043837, 385227074, 497837829, 599791448, 690954054, 771837835, 843314857];

function sat(v: number): Fx {
  return v > MAX ? MAX : v < MIN ? MIN : v;
}

/** floor((a*b + 2^(s-1)) / 2^s) exactly, |a| < 2^36, |b| < 2^32, s = 30 or 16. */
function mulRound(a: number, b: number, s: 30 | 16): number {
  const bh = Math.floor(b / 65536);
  const bl = b - bh * 65536;
  const p1 = a * bh;
  const p0 = a * bl;
  if (s === 30) {
    const q1 = Math.floor(p1 / 16384);
    return q1 + Math.floor(((p1 - q1 * 16384) * 65536 + p0 + 536870912) / 1073741824);
  }
  return p1 + Math.floor((p0 + 32768) / 65536);
}
/** floor(n / d) for integers |n| < 2^53, 0 < d, with the quotient fixed up exactly. */
function floorDiv(n: number, d: number): number {
  let q = Math.floor(n / d);
  const r = n - q * d;
  if (r < 0) q -= 1;
  else if (r >= d) q += 1;
  return q;
}
/** floor(a * 2^30 / b), 0 <= a <= b < 2^33, as two 15-bit long-division steps. */
function ratioQ30(a: number, b: number): number {
  const q1 = floorDiv(a * 32768, b);
  const r1 = a * 32768 - q1 * b;
  return q1 * 32768 + floorDiv(r1 * 32768, b);
}
function q30ToRaw(v: number): Fx {
  const m = v < 0 ? -v : v;
  const r = Math.floor((m + 8192) / 16384);
  return sat(v < 0 ? -r : r) | 0;
}
function isqrt(n: number): number {
  let s = Math.floor(Math.sqrt(n));
  while (s * s > n) s -= 1;
  while ((s + 1) * (s + 1) <= n) s += 1;
  return s;
}
// sinCosQ30 and reduce leave their results here (no tuple per call).
let outS = 0;
let outC = 0;
function sinCosQ30(r: number): void {
  const z = mulRound(r, r, 30);
  let p = -27;
  p = 2959 + mulRound(p, z, 30);
  p = -213044 + mulRound(p, z, 30);
  p = 8947849 + mulRound(p, z, 30);
  p = -178956971 + mulRound(p, z, 30);
  const s = r + mulRound(mulRound(p, z, 30), r, 30);
  let q = 2;
  q = -296 + mulRound(q, z, 30);
  q = 26631 + mulRound(q, z, 30);
  q = -1491308 + mulRound(q, z, 30);
  q = 44739243 + mulRound(q, z, 30);
  q = -536870912 + mulRound(q, z, 30);
  outS = s;
  outC = ONE_Q30 + mulRound(q, z, 30);
}
/** Quadrant (k mod 4) of raw ax >= 0; outS, outC: sin, cos (Q30) of ax - k * pi/2. */
function reduce(ax: number): number {
  const n = ax * 2097152;
  const k = floorDiv(n + HALF_PI_Q37 / 2, HALF_PI_Q37);
  const r37 = n - k * HALF_PI_Q37;
  sinCosQ30(Math.floor((r37 + 64) / 128));
  return k % 4;
}
function atanQ30(y: number, x: number): number {
  const swap = y > x;
  const t = swap ? ratioQ30(x, y) : ratioQ30(y, x);
  const idx = Math.floor((t + 67108864) / 134217728);
  const cst = idx * 134217728;
  const num = t - cst;
  const den = ONE_Q30 + mulRound(t, cst, 30);
  const un = ratioQ30(num < 0 ? -num : num, den);
  const u = num < 0 ? -un : un;
  const w = mulRound(u, u, 30);
  let p = 119304647;
  p = -153391689 + mulRound(p, w, 30);
  p = 214748365 + mulRound(p, w, 30);
  p = -357913941 + mulRound(p, w, 30);
  const a = ATAN_Q30[idx]! + u + mulRound(mulRound(p, w, 30), u, 30);
  return swap ? HALF_PI_Q30 - a : a;
}
function logQ30(raw: number): number {
  const msb = 31 - Math.clz32(raw);
  const m = msb <= 30 ? raw * 2 ** (30 - msb) : raw / 2 ** (msb - 30);
  let e = msb - 16;
  let num = m - ONE_Q30;
  let den = m + ONE_Q30;
  if (m > SQRT2_Q30) {
    num = m - 2 * ONE_Q30;
    den = m + 2 * ONE_Q30;
    e += 1;
  }
  const sn = ratioQ30(num < 0 ? -num : num, den);
  const s = num < 0 ? -sn : sn;
  const w = mulRound(s, s, 30);
  let p = 165191050;
  p = 195225786 + mulRound(p, w, 30);
  p = 238609294 + mulRound(p, w, 30);
  p = 306783378 + mulRound(p, w, 30);
  p = 429496730 + mulRound(p, w, 30);
  p = 715827883 + mulRound(p, w, 30);
  return e * LN2_Q30 + 2 * s + mulRound(mulRound(p, w, 30), s, 30);
}
const EXP_Q30 = [296, 2959, 26631, 213044, 1491308, 8947849, 44739243, 178956971, 536870912, ONE_Q30];
function expQ30ToRaw(a: number): Fx {
  if (a > 11 * ONE_Q30) return MAX;
  if (a < -17 * ONE_Q30) return 0;
  const n = a * 65536;
  const k = floorDiv(n + LN2_Q46 / 2, LN2_Q46);
  const r = Math.floor((n - k * LN2_Q46 + 32768) / 65536);
  let p = 27;
  for (const c of EXP_Q30) p = c + mulRound(p, r, 30);
  const e = ONE_Q30 + mulRound(p, r, 30);
  const sh = 14 - k;
  if (sh <= 0) return sat(e * 2 ** -sh);
  if (sh > 40) return 0;
  return sat(Math.floor((e + 2 ** (sh - 1)) / 2 ** sh));
}
function asinQ30(x: number): number {
  const v = x > 65536 ? 65536 : x < -65536 ? -65536 : x;
  const a = v < 0 ? -v : v;
  const c24 = isqrt((4294967296 - a * a) * 65536);
  const ang = atanQ30(a * 256, c24);
  return v < 0 ? -ang : ang;
}

/** The Q16.16 functions (raw int32 in, raw int32 out), merged into `fx`. */
export const fxMath = Object.freeze({
  /** sin(x), within 1 raw unit; as SimMath<Fpx16_16>::sin. */
  sin(x: Fx): Fx {
    x |= 0;
    const q = reduce(x < 0 ? -x : x);
    const s = outS;
    const c = outC;
    const v = q === 0 ? s : q === 1 ? c : q === 2 ? -s : -c;
    return q30ToRaw(x < 0 ? -v : v);
  },
  /** cos(x), within 1 raw unit. */
  cos(x: Fx): Fx {
    x |= 0;
    const q = reduce(x < 0 ? -x : x);
    const s = outS;
    const c = outC;
    return q30ToRaw(q === 0 ? c : q === 1 ? -s : q === 2 ? -c : s);
  },
  /** tan(x), saturated near the poles. */
  tan(x: Fx): Fx {
    x |= 0;
    const q = reduce(x < 0 ? -x : x);
    const s = outS;
    const c = outC;
    let num = (q & 1) === 0 ? s : c;
    let den = (q & 1) === 0 ? c : -s;
    if (x < 0) num = -num;
    if (den < 0) {
      num = -num;
      den = -den;
    }
    if (den === 0) return num >= 0 ? MAX : MIN;
    const an = num < 0 ? -num : num;
    const r = floorDiv(2 * an * 65536 + den, 2 * den);
    return sat(num < 0 ? -r : r) | 0;
  },
  /** atan2(y, x) in (-pi, pi]; atan2(0, 0) = 0. */
  atan2(y: Fx, x: Fx): Fx {
    y |= 0;
    x |= 0;
    if (x === 0 && y === 0) return 0;
    let a = atanQ30(y < 0 ? -y : y, x < 0 ? -x : x);
    if (x < 0) a = PI_Q30 - a;
    return q30ToRaw(y < 0 ? -a : a);
  },
  /** asin(x); x clamped to [-1, 1]. */
  asin(x: Fx): Fx {
    return q30ToRaw(asinQ30(x | 0));
  },
  /** acos(x); x clamped to [-1, 1]. */
  acos(x: Fx): Fx {
    return q30ToRaw(HALF_PI_Q30 - asinQ30(x | 0));
  },
  /** e^x, saturated. */
  exp(x: Fx): Fx {
    return expQ30ToRaw((x | 0) * 16384);
  },
  /** Natural log; x <= 0 gives MIN. */
  log(x: Fx): Fx {
    x |= 0;
    return x <= 0 ? MIN : q30ToRaw(logQ30(x));
  },
  /** x^y; pow(x, 0) = 1, pow(0, y<0) = MAX, negative x with fractional y = 0. */
  pow(x: Fx, y: Fx): Fx {
    x |= 0;
    y |= 0;
    if (y === 0) return 65536;
    if (x === 0) return y > 0 ? 0 : MAX;
    let ax = x;
    let negate = false;
    if (ax < 0) {
      if ((y & 0xffff) !== 0) return 0;
      negate = ((y >> 16) & 1) !== 0;
      ax = -ax;
    }
    const r = expQ30ToRaw(mulRound(logQ30(ax), y, 16));
    return negate ? -r | 0 : r;
  },
  /** sqrt(x*x + y*y) to 1/2 raw unit (64-bit integer root, BigInt), saturated. */
  hypot(x: Fx, y: Fx): Fx {
    const ax = BigInt(Math.abs(x | 0));
    const ay = BigInt(Math.abs(y | 0));
    const n = ax * ax + ay * ay;
    let s = BigInt(Math.floor(Math.sqrt(Number(n))));
    while (s * s > n) s -= 1n;
    while ((s + 1n) * (s + 1n) <= n) s += 1n;
    const r = n - s * s > s ? s + 1n : s;
    return r > BigInt(MAX) ? MAX : Number(r);
  },
  /** The largest integer <= x. */
  floor(x: Fx): Fx {
    return (x | 0) & ~0xffff;
  },
  /** The smallest integer >= x, saturated to MAX. */
  ceil(x: Fx): Fx {
    return sat(Math.floor(((x | 0) + 0xffff) / 65536) * 65536);
  },
  /** The nearest integer, halves away from zero, saturated. */
  round(x: Fx): Fx {
    x |= 0;
    const a = x < 0 ? -x : x;
    const r = Math.floor((a + 0x8000) / 65536) * 65536;
    return sat(x < 0 ? -r : r) | 0;
  },
});

// ---- pinned binary32 --------------------------------------------------------

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
    x = fr(x);
    const qr = reduceTrig(x);
    if (qr === undefined) return NaN;
    const [q, r] = qr;
    const v = (q & 1) === 0 ? cosPoly(r) : sinPoly(r);
    return fr(q === 1 || q === 2 ? -v : v);
  },
  /** tan(x) = sin / cos in binary64, within 0.5 ulp for every finite x; NaN for NaN and +-inf. */
  tan(x: number): number {
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
    x = fr(x);
    if (!(x >= -1 && x <= 1)) return NaN;
    if (x === 0) return x;
    return fr(atan2Finite(x, Math.sqrt((1.0 - x) * (1.0 + x))));
  },
  /** acos(x); NaN outside [-1, 1]. */
  acos(x: number): number {
    x = fr(x);
    if (!(x >= -1 && x <= 1)) return NaN;
    return fr(atan2Finite(Math.sqrt((1.0 - x) * (1.0 + x)), x));
  },
  /** e^x. */
  exp(x: number): number {
    x = fr(x);
    if (x !== x) return NaN;
    return fr(expClamped(clampExpArg(x)));
  },
  /** Natural log; -inf at +-0, NaN below 0. */
  log(x: number): number {
    x = fr(x);
    if (x !== x || x < 0) return NaN;
    if (x === 0) return -INF;
    if (x === INF) return x;
    return fr(logPositive(x));
  },
  /** x^y with the C99 special cases. */
  pow(x: number, y: number): number {
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
    x = fr(x);
    y = fr(y);
    if (x === INF || x === -INF || y === INF || y === -INF) return INF;
    if (x !== x || y !== y) return NaN;
    return fr(Math.sqrt(x * x + y * y));
  },
  /** Largest integral value <= x (keeps -0). */
  floor(x: number): number {
    return rounded(fr(x), 0);
  },
  /** Smallest integral value >= x. */
  ceil(x: number): number {
    return rounded(fr(x), 1);
  },
  /** Nearest integral value, halves away from zero. */
  round(x: number): number {
    return rounded(fr(x), 2);
  },
});
