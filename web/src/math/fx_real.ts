// math/fx_real.ts - the first pass of fx.tan, fx.atan2, fx.asin, fx.acos and
// fx.log (fx_math.ts): the function in plain binary64 arithmetic, with no
// exact integer step after the argument reduction, and a proven bound on
// how far the C++ integer result (FixedFnCore in
// cpp/include/laige/detail/sim_math_fn_fixed.h) can be from that real value.
// Where the rounding to raw is the same at both ends of the bound, that is
// the C++ result; else (about 1 input in 1,000; for tan 1 in 70, near its
// poles) the exact integer steps of fx_q30.ts run. Only + - * / and
// Math.sqrt, floor and abs, which IEEE 754 and ECMAScript define exactly: no
// Math.atan, Math.log. tests/ts/fx_real.test.ts compares these passes with
// the exact steps over dense inputs, fx_sweep.test.ts with the C++ code.
//
// Speed (V8): one function per entry point, small enough to be inlined into
// its fx.* caller, and one division where the exact kernels take two Q30
// ratios with their checks (atan: a 65-entry Taylor table instead of the
// second division; log: the mantissa ratio without its floor).

import { HALF_PI_Q30, PI_Q30, atanExact, expLogExact, trigExact } from './fx_q30.js';

const INV14 = 1 / 16384;

// atan(c + d) = sum_k a_k(c) d^k for the 65 points c = j / 64, with
// a_k = (-1)^(k+1) Im(((c + i) / (1 + c^2))^k) / k (from atan x = Im log(1 + i x)),
// k = 0..4, scaled by 2^30; a_0 = atan(c) by the 9-point table atan(i / 8)
// and its series (every term below 2^-52 relative). For |d| <= 1/128 the
// dropped terms are below 2^-35 / 5 rad (0.01 Q30 unit).
const ATAN_D = [0.0, 0.12435499454676144, 0.24497866312686414, 0.35877067027057225, 0.4636476090008061,
  0.5585993153435624, 0.6435011087932844, 0.7188299996216245, 0.7853981633974483]; // atan(i / 8)
const ATAN_T = new Float64Array(65 * 5);
for (let j = 0; j <= 64; j++) {
  const c = j / 64;
  const i8 = Math.floor(c * 8 + 0.5);
  const u = (c - i8 / 8) / (1 + (c * i8) / 8);
  const w = u * u;
  const p = ((((-1 / 11) * w + 1 / 9) * w - 1 / 7) * w + 1 / 5) * w - 1 / 3;
  ATAN_T[j * 5] = (ATAN_D[i8]! + (u + p * w * u)) * 1073741824;
  const n = 1 + c * c;
  const zr = c / n;
  const zi = 1 / n;
  let pr = 1;
  let pi = 0;
  for (let k = 1; k <= 4; k++) {
    const r = pr * zr - pi * zi;
    pi = pr * zi + pi * zr;
    pr = r;
    ATAN_T[j * 5 + k] = (((k & 1) === 1 ? 1 : -1) * pi * 1073741824) / k;
  }
}

// How far the C++ first-quadrant angle atanQ30(ay, ax) is from 2^30 atan(ay / ax)
// (ay <= ax; else pi/2 minus it, with the same constant on both sides): t
// is floored (< 1 unit, atan' <= 1), the table entry rounded (<= 0.47), the
// reduced u floored and its denominator rounded (< 1 + 1/32), the integer
// series within 0.6 of the real one: below 3.2 Q30 units. The real value
// here is within 0.01 of 2^30 atan(ay / ax). ATAN_SLACK = 8: 2.5 times that.
const ATAN_SLACK = 8 * INV14;

/** 2^30 atan(lo / hi) for 0 <= lo <= hi, hi > 0 (NaN for 0 / 0). */
function atanQ30Real(lo: number, hi: number): number {
  const t = lo / hi;
  const j = (t * 64 + 0.5) | 0;
  const d = t - j * 0.015625; // exact; |d| <= 1/128
  const b = j * 5;
  return ATAN_T[b]! + d * (ATAN_T[b + 1]! + d * (ATAN_T[b + 2]! + d * (ATAN_T[b + 3]! + d * ATAN_T[b + 4]!)));
}

// The swap and the angle's last steps (pi/2 - a when swapped, pi - a for x <
// 0, the sign) without a branch (the signs and the swap are unpredictable;
// Math.min and max for the swap measured 1.3-1.9 ns slower): flags 0 or 1 from the int32 sign
// bits, and sw = (ay > ax) as -floor((ax - ay) / 2^32) (|ax - ay| <= 2^31).
// The raw is then floor((v + 2^13) / 2^14) of the signed angle v, as round
// half away from zero but at the halves, which the check keeps out.
const INV32 = 1 / 4294967296;

/** FixedMathFunctions::atan2 of raw int32 values, as raw. */
export function atan2Raw(y: number, x: number): number {
  const ay = Math.abs(y);
  const ax = Math.abs(x);
  const sw = -Math.floor((ax - ay) * INV32);
  const a = atanQ30Real(ay + sw * (ax - ay), ax + sw * (ay - ax)); // NaN for (0, 0): the exact path
  const b = a + sw * (HALF_PI_Q30 - 2 * a); // swapped: pi/2 - a
  const c = b + (x >>> 31) * (PI_Q30 - 2 * b); // x < 0: pi - b
  const w = (c * (1 - 2 * (y >>> 31)) + 8192) * INV14;
  const f = Math.floor(w);
  const e = w - f;
  if (e >= ATAN_SLACK && e <= 1 - ATAN_SLACK) return f | 0;
  return atanExact(y, x, 0);
}

/** asin (acos = 0) or acos (acos = 1) of the raw int32 x, as raw (FixedMathFunctions::asin, acos). */
export function asinAcosRaw(x: number, acos: number): number {
  // asinQ30: atanQ30(a 2^8, floor(sqrt((2^32 - a^2) 2^16))) with a = min(|x|, 2^16); the root
  // is exact (fx_q30.ts, atanExact)
  const ab = Math.abs(x);
  const a = ab > 65536 ? 65536 : ab;
  const ay = a * 256;
  const ax = Math.floor(Math.sqrt((4294967296 - a * a) * 65536));
  const sw = -Math.floor((ax - ay) * INV32);
  const t = atanQ30Real(ay + sw * (ax - ay), ax + sw * (ay - ax));
  const b = (t + sw * (HALF_PI_Q30 - 2 * t)) * (1 - 2 * (x >>> 31)); // asin
  const w = (b + acos * (HALF_PI_Q30 - 2 * b) + 8192) * INV14; // acos: pi/2 - asin
  const f = Math.floor(w);
  const e = w - f;
  if (e >= ATAN_SLACK && e <= 1 - ATAN_SLACK) return f | 0;
  return atanExact(x, 0, 1 + acos);
}

// tan: the reduction and both series as in trigRaw (fx_q30.ts). The C++
// integer s and c are within S_s = 0.6 + 1.5 |r| / 2^30 (<= 1.8) and S_c = 2
// of these real ones (each mulRound step within 1/2, carried through the
// series by z / 2^30 <= 0.617: the sine's last step is mulRound(u, r) with u
// within 1.39, so its error is 0.5 + 1.39 |r| / 2^30, small near the poles of
// tan; tests/ts/fx_real.test.ts checks both bounds, seen: 1.37 and 1.25).
// The C++ result is round-half-up(an' 2^16 / ad') of the integer numerator
// and denominator, within (2^16 S_num + q S_den) / (ad - S_den) of q = an
// 2^16 / ad. Even quadrants (num = s, den = c >= 0.7 2^30, q <= 2^16): below
// 2^16 1.8 / (0.7 2^30) + q 2 / (0.7 2^30); odd ones (num = c >= 0.7 2^30,
// den = s >= 0.9 |r|, ad = an 2^16 / q): below q 2 / (0.7 2^30) + q 1.67 /
// 2^30 + q^2 0.6 / (0.7 2^46). TAN_D0 + TAN_D1 q + TAN_D2 q^2 covers both,
// times 1.01 (ad >= 1024, and the binary64 roundings). Half of it is too
// little: the dense test then finds inputs near the poles that differ.
const TAN_D0 = (1.01 * 1.8 * 65536) / (0.7 * 1073741824);
const TAN_D1 = (1.01 * (2 / 0.7 + 1.67)) / 1073741824;
const TAN_D2 = (1.01 * 0.6) / (0.7 * 70368744177664);
const HALF_PI_Q37 = 215888603272;
const QUARTER_PI_Q37 = 107944301636;
const INV_HALF_PI_Q37 = 1 / HALF_PI_Q37;
const SIN_R = Float64Array.of(-27, 2959, -213044, 8947849, -178956971);
const COS_R = Float64Array.of(2, -296, 26631, -1491308, 44739243, -536870912, 1073741824);

/**
 * FixedMathFunctions::tan of the raw int32 x, as raw. Its reduction and
 * series repeat trigRaw's (fx_q30.ts) on purpose: one shared function
 * leaving k, s and c in a scratch array or object cost sin, cos and tan
 * 5-17 % in node 20 (measured side by side, 2026-12-05), and tan has
 * almost no room under f32.tan.
 */
export function tanRaw(x: number): number {
  const m = Math.abs(x) * 2097152 + QUARTER_PI_Q37;
  let k = Math.floor(m * INV_HALF_PI_Q37);
  let rem = m - k * HALF_PI_Q37;
  if (rem < 0) {
    k -= 1;
    rem += HALF_PI_Q37;
  } else if (rem >= HALF_PI_Q37) {
    k += 1;
    rem -= HALF_PI_Q37;
  }
  const r = Math.floor((rem - QUARTER_PI_Q37 + 64) * 0.0078125);
  const zs = r * r * 8.673617379884035e-19;
  const p = (((SIN_R[0]! * zs + SIN_R[1]!) * zs + SIN_R[2]!) * zs + SIN_R[3]!) * zs + SIN_R[4]!;
  const s = r + p * zs * r * 9.313225746154785e-10;
  const qc = ((((COS_R[0]! * zs + COS_R[1]!) * zs + COS_R[2]!) * zs + COS_R[3]!) * zs + COS_R[4]!) * zs + COS_R[5]!;
  const c = qc * zs + COS_R[6]!;
  // s / c in even quadrants, c / -s in odd ones, odd in x: no branch on
  // them (unpredictable; Math.sign too), the quotient signed
  const odd = k & 1;
  const num = s + (c - s) * odd;
  const den = c + (-s - c) * odd;
  const qs = (num * 65536 * ((x >> 31) | 1)) / den;
  const aq = Math.abs(qs);
  const dq = TAN_D0 + aq * (TAN_D1 + aq * TAN_D2);
  // round half away from zero (C++) and floor(qs + 1/2) differ only at halves,
  // which the check keeps out: decided unless qs is within dq of a half
  const w = qs + 0.5;
  const f = Math.floor(w);
  const e = w - f;
  const ad = Math.abs(den);
  if (e >= dq && e <= 1 - dq && ad >= 1024) return (f > 2147483647 ? 2147483647 : f < -2147483648 ? -2147483648 : f) | 0;
  if (aq - dq >= 2147483648 && ad >= 1024) return qs < 0 ? -2147483648 : 2147483647; // saturated either way
  return trigExact(x, 2);
}

// log: with s = num / den the mantissa ratio in real arithmetic, the C++
// integer s (floored: < 1 unit) moves 2 atanh(s) by below 2.07 units (its
// derivative 2 / (1 - s^2), |s| <= 0.1716), its integer series is within 0.7
// of the real one: LOG_SLACK = 5.
const LOG_SLACK = 5;
const LOG_C = Float64Array.of(165191050, 195225786, 238609294, 306783378, 429496730, 715827883); // 2/13 .. 2/3
const LN2_Q30 = 744261118;
const SQRT2_Q30 = 1518500250;

/** FixedMathFunctions::log of the raw int32 x > 0, as raw. */
export function logRaw(x: number): number {
  const msb = 31 - Math.clz32(x);
  const m = x << (30 - msb);
  const big = (SQRT2_Q30 - m) >>> 31; // m > sqrt2: log of m / 2 instead, e + 1
  const e = msb - 16 + big;
  const s = ((m - 1073741824 * (1 + big)) * 1073741824) / (m + 1073741824 * (1 + big));
  const ws = s * s * 8.673617379884035e-19; // s^2 / 2^60
  let p = ((LOG_C[0]! * ws + LOG_C[1]!) * ws + LOG_C[2]!) * ws + LOG_C[3]!;
  p = (p * ws + LOG_C[4]!) * ws + LOG_C[5]!;
  const l = e * LN2_Q30 + 2 * s + p * ws * s * 9.313225746154785e-10;
  // raw = round(l / 2^14) half away from zero, = floor((l + 2^13) / 2^14) but at the halves (as atan2)
  const w = (l + 8192) * INV14;
  const f = Math.floor(w);
  const d = w - f;
  if (d >= LOG_SLACK * INV14 && d <= 1 - LOG_SLACK * INV14) return f | 0;
  return expLogExact(x, 0, 1);
}
