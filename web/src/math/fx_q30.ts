// math/fx_q30.ts - the exact integer kernels of the Q16.16 math functions
// (fx_math.ts), the same steps as FixedFnCore in
// cpp/include/laige/detail/sim_math_fn_fixed.h, giving the same integers.
//
// The C++ code computes on int64. Here every value is an integer held in a
// double, and every step is exact:
// - a product below 2^53 is exact in binary64, and dividing by a power of two
//   then Math.floor is exact: `mr30` is mulRound(a, b, 30) where the bounds
//   below prove |a * b| < 2^53 - 2^29 (the "fast" sites);
// - a larger product a * b (|a|, |b| < 2^31) goes through `mrs`, with b split
//   into 16-bit halves (`hi16`): two exact partial products below 2^47;
// - floor(N / D) of integers with |N| < 2^53 is Math.floor(N / D) exactly
//   (the rounded quotient can reach the next integer only if the distance,
//   at least 1/D, were below half an ulp of N/D, which needs |N| >= 2^53);
// - ratioQ30 (numerators up to 2^62) fixes that one possible off-by-one with
//   the exact low 32 bits of the remainder (Math.imul).
// The bounds of each fast site (the largest |a * b| over the whole domain,
// from the ranges of the reduced arguments) are in the comments;
// tests/ts/fx_sweep.test.ts compares millions of inputs with the C++ code.
//
// Speed (V8; the results do not depend on it): every step stays in binary64,
// with no conversion to int32 and back between steps. The series
// coefficients are read from Float64Arrays so that V8 types the additions as
// float64 rather than small integers (two conversions per step: about 2x
// slower). The kernels write mr30 and mrs out as expressions (the comment
// `mr30(a, b)` or `mrs(a, b)` on each line names the step): V8 inlines only
// so many calls into one optimized function, and a call that is not inlined
// boxes its double arguments and result (about 10x slower).

const TWO29 = 536870912;
const INV14 = 1 / 16384;
const INV16 = 1 / 65536;
const INV30 = 1 / 1073741824;

export const ONE_Q30 = 1073741824;
export const HALF_PI_Q30 = 1686629713;
export const PI_Q30 = 3373259426;
const HALF_PI_Q37 = 215888603272;
const QUARTER_PI_Q37 = 107944301636;
const INV_HALF_PI_Q37 = 1 / HALF_PI_Q37;
const LN2_Q46 = 48775896626292;
const HALF_LN2_Q46 = 24387948313146;
const LN2_Q30 = 744261118;
const SQRT2_Q30 = 1518500250;

/**
 * mulRound(a, b, 30) = floor((a*b + 2^29) / 2^30) where |a*b| < 2^53 - 2^29
 * (exact). mr30 and mrs are the steps the kernels below write out inline.
 */
export function mr30(a: number, b: number): number {
  return Math.floor((a * b + TWO29) * INV30);
}

/**
 * mulRound(a, b, 30) for |a|, |b| < 2^31, b = bh 2^16 + bl (bh = floor(b / 2^16)):
 * floor((a bh 2^16 + a bl + 2^29) / 2^30) = floor((a bh + floor((a bl + 2^29) / 2^16)) / 2^14),
 * every partial result below 2^48.
 */
export function mrs(a: number, b: number): number {
  const bh = Math.floor(b * INV16);
  const bl = b - bh * 65536;
  return Math.floor((a * bh + Math.floor((a * bl + TWO29) * INV16)) * INV14);
}

/**
 * floor(a * 2^30 / b) for 0 <= a <= b, 0 < b < 2^32 (FixedFnCore::ratioQ30).
 * q = floor(fl(a 2^30 / b)) is exact unless the rounded quotient landed on
 * an integer; then the remainder a 2^30 - q b is within +-2^9 and its low
 * 32 bits (exact) say whether q is one too high.
 */
export function ratioQ30(a: number, b: number): number {
  const qd = (a * ONE_Q30) / b;
  const q = Math.floor(qd);
  if (q === qd && (((a << 30) - Math.imul(q, b)) | 0) < 0) return q - 1;
  return q;
}

/** round(v / 2^14), half away from zero (Q30 -> raw); |v| < 2^45, so no saturation. */
export function q30ToRaw(v: number): number {
  return v < 0 ? -Math.floor((8192 - v) * INV14) | 0 : Math.floor((v + 8192) * INV14) | 0;
}

// sin and cos series coefficients, round(2^30 c), highest power first.
const SIN_C = Float64Array.of(-27, 2959, -213044, 8947849, -178956971); // -1/11! .. -1/3!
const COS_C = Float64Array.of(2, -296, 26631, -1491308, 44739243, -536870912, ONE_Q30); // 1/12! .. -1/2, 1

// The series with real arithmetic: where the result is decided by it, the
// exact integer steps (trigExact) are skipped. Each rounding step of the
// integer series is within 1/2 of the real value; carried through the series
// (the largest terms and z <= 662337942), the integer sin and cos in Q30 are
// within 1.51 of the real ones (tests/ts/fx_sweep.test.ts checks the
// outcome over millions of inputs). TRIG_SLACK = 4 covers that and the
// binary64 rounding of the real series (below 2^-20 here) with room to
// spare. raw = round(v / 2^14) is monotone in v, so if v - 4 and v + 4 give
// the same raw, the integer v gives it too; else (about 1 input in 2000) the
// exact steps run.
const TRIG_SLACK = 4;
const SIN_R = Float64Array.of(-27, 2959, -213044, 8947849, -178956971);
const COS_R = Float64Array.of(2, -296, 26631, -1491308, 44739243, -536870912, ONE_Q30);

/**
 * sin (fn 0) or cos (fn 1) of the raw int32 x, as raw
 * (FixedMathFunctions::sin, cos over FixedFnCore::reduce and sinCosQ30):
 * the reduction exactly, then the series in real arithmetic where that
 * decides the result, else trigExact. (tan: fx_real.ts.)
 */
export function trigRaw(x: number, fn: number): number {
  const ax = Math.abs(x);
  // k = floor(m / (pi/2)) with m = ax 2^21 + pi/4 (Q37, < 2^53), by the
  // reciprocal, then fixed so that the exact remainder is in [0, pi/2)
  const m = ax * 2097152 + QUARTER_PI_Q37;
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
  const zs = r * r * 8.673617379884035e-19; // r^2 / 2^60: z / 2^30 as a real
  // both series, without a branch on the quadrant (unpredictable)
  const p = (((SIN_R[0]! * zs + SIN_R[1]!) * zs + SIN_R[2]!) * zs + SIN_R[3]!) * zs + SIN_R[4]!;
  const s = r + p * zs * r * 9.313225746154785e-10;
  const q = ((((COS_R[0]! * zs + COS_R[1]!) * zs + COS_R[2]!) * zs + COS_R[3]!) * zs + COS_R[4]!) * zs + COS_R[5]!;
  const c = q * zs + COS_R[6]!;
  // Without branches on the quadrant or the signs (unpredictable): sin in
  // quadrants 0..3 is s, c, -s, -c, odd for x < 0; cos is c, -s, -c, s.
  const v = fn === 0 ? s + (c - s) * (k & 1) : c + (s - c) * (k & 1);
  const neg = fn === 0 ? ((k >> 1) ^ (x >>> 31)) & 1 : ((k + 1) >> 1) & 1;
  // raw = round(sv / 2^14) half away from zero for the signed sv, which
  // floor((sv + 2^13) / 2^14) equals but at the halves; the integer sv is
  // within TRIG_SLACK of sv: decided unless sv + 2^13 is within it of a
  // multiple of 2^14 (no Math.sign or abs: a branch on a random sign)
  const w = (v * (1 - 2 * neg) + 8192) * INV14;
  const f = Math.floor(w);
  const d = w - f;
  if (d >= TRIG_SLACK * INV14 && d <= 1 - TRIG_SLACK * INV14) return f | 0;
  return trigExact(x, fn);
}

/**
 * sin (fn 0), cos (fn 1) or tan (fn 2) of the raw int32 x by the exact
 * integer steps. One function without calls, so that V8 compiles it whole (see above).
 */
export function trigExact(x: number, fn: number): number {
  const ax = x < 0 ? -x : x;
  // k = round(ax / (pi/2)): the numerator ax 2^21 + pi/4 (Q37) is below 2^53
  const k = Math.floor((ax * 2097152 + 107944301636) / 215888603272);
  // r = ax - k pi/2 in Q30, |r| <= 843314857; z = r^2, z <= 662337942 (2^29.31)
  const r = Math.floor((ax * 2097152 - k * 215888603272 + 64) * 0.0078125);
  const rh = Math.floor(r * 1.52587890625e-5);
  const rl = r - rh * 65536;
  const z = Math.floor((r * rh + Math.floor((r * rl + 536870912) * 1.52587890625e-5)) * 6.103515625e-5); // mrs(r, r)
  const zh = Math.floor(z * 1.52587890625e-5);
  const zl = z - zh * 65536;
  const odd = (k & 1) !== 0;
  let s = 0;
  let c = 0;
  if (fn === 2 || (fn === 0) !== odd) {
    let p = SIN_C[1]! + Math.floor((SIN_C[0]! * z + 536870912) * 9.313225746154785e-10); // mr30(p, z) < 2^34.1
    p = SIN_C[2]! + Math.floor((p * z + 536870912) * 9.313225746154785e-10); // mr30(p, z) < 2^40.9
    p = SIN_C[3]! + Math.floor((p * z + 536870912) * 9.313225746154785e-10); // mr30(p, z) < 2^47.1
    p = SIN_C[4]! + Math.floor((p * z + 536870912) * 9.313225746154785e-10); // mr30(p, z) < 2^52.42
    const u = Math.floor((p * zh + Math.floor((p * zl + 536870912) * 1.52587890625e-5)) * 6.103515625e-5); // mrs(p, z) 2^56.8
    s = r + Math.floor((u * rh + Math.floor((u * rl + 536870912) * 1.52587890625e-5)) * 6.103515625e-5); // mrs(u, r) 2^56.5
  }
  if (fn === 2 || (fn === 0) === odd) {
    let q = COS_C[1]! + Math.floor((COS_C[0]! * z + 536870912) * 9.313225746154785e-10); // mr30(q, z) < 2^30.4
    q = COS_C[2]! + Math.floor((q * z + 536870912) * 9.313225746154785e-10); // mr30(q, z) < 2^37.6
    q = COS_C[3]! + Math.floor((q * z + 536870912) * 9.313225746154785e-10); // mr30(q, z) < 2^44.1
    q = COS_C[4]! + Math.floor((q * z + 536870912) * 9.313225746154785e-10); // mr30(q, z) < 2^49.9
    q = COS_C[5]! + Math.floor((q * zh + Math.floor((q * zl + 536870912) * 1.52587890625e-5)) * 6.103515625e-5); // mrs(q, z) 2^54.8
    c = COS_C[6]! + Math.floor((q * zh + Math.floor((q * zl + 536870912) * 1.52587890625e-5)) * 6.103515625e-5); // mrs(q, z) 2^58.4
  }
  const quadrant = k & 3;
  if (fn === 0) {
    // quadrants 0..3: s, c, -s, -c; odd symmetry for x < 0
    const v = q30ToRaw(odd ? c : s);
    return ((quadrant & 2) === 0) === (x >= 0) ? v : -v | 0;
  }
  if (fn === 1) {
    // quadrants 0..3: c, -s, -c, s
    const v = q30ToRaw(odd ? s : c);
    return quadrant === 1 || quadrant === 2 ? -v | 0 : v;
  }
  // tan = sin / cos rounded once (half up), saturated
  let num = odd ? c : s;
  let den = odd ? -s : c;
  if (x < 0) num = -num;
  if (den < 0) {
    num = -num;
    den = -den;
  }
  if (den === 0) return num >= 0 ? 2147483647 : -2147483648;
  const an = num < 0 ? -num : num;
  const t = Math.floor((an * 131072 + den) / (2 * den)); // numerator < 2^48: exact
  if (num < 0) return t > 2147483648 ? -2147483648 : -t | 0;
  return t > 2147483647 ? 2147483647 : t;
}

const ATAN_TABLE = Float64Array.of(0, 133525159, 263043837, 385227074, 497837829, 599791448, 690954054, 771837835,
  843314857); // atan(i/8) in Q30
const ATAN_C = Float64Array.of(119304647, -153391689, 214748365, -357913941); // 1/9, -1/7, 1/5, -1/3

/**
 * atan2(y, x) (fn 0), asin(y) (fn 1) or acos(y) (fn 2) of raw int32 values,
 * as raw (FixedMathFunctions::atan2, asin, acos over FixedFnCore::atanQ30),
 * by the exact integer steps (the real first pass: fx_real.ts).
 */
export function atanExact(y: number, x: number, fn: number): number {
  let ay = y < 0 ? -y : y;
  let ax = x < 0 ? -x : x;
  if (fn !== 0) {
    // asin: atan2(a, sqrt(1 - a^2)) with a clamped to [0, 1] in Q24, the
    // root exact: floor(sqrt(n)) of an integer n < 2^52 (a root just below
    // an integer k is at least 1/(2k) from it, above half an ulp).
    const a = ay > 65536 ? 65536 : ay;
    ay = a * 256;
    ax = Math.floor(Math.sqrt((4294967296 - a * a) * 65536));
  } else if (x === 0 && y === 0) {
    return 0;
  }
  // atan(ay / ax) in Q30, the first-quadrant angle (FixedFnCore::atanQ30)
  const swap = ay > ax;
  const t = swap ? ratioQ30(ax, ay) : ratioQ30(ay, ax);
  const idx = Math.floor((t + 67108864) * 7.450580596923828e-9); // (t + 2^26) >> 27
  const num = t - idx * 134217728;
  // mulRound(t, idx 2^27, 30) is floor((t idx + 4) / 8) exactly; |u| <= 2^26
  const den = ONE_Q30 + Math.floor((t * idx + 4) * 0.125);
  const un = ratioQ30(num < 0 ? -num : num, den);
  const u = num < 0 ? -un : un;
  const w = Math.floor((u * u + 536870912) * 9.313225746154785e-10); // mr30(u, u) <= 2^52
  let p = ATAN_C[1]! + Math.floor((ATAN_C[0]! * w + 536870912) * 9.313225746154785e-10); // mr30(p, w) < 2^48.9
  p = ATAN_C[2]! + Math.floor((p * w + 536870912) * 9.313225746154785e-10); // mr30(p, w) < 2^49.2
  p = ATAN_C[3]! + Math.floor((p * w + 536870912) * 9.313225746154785e-10); // mr30(p, w) < 2^49.7
  const pw = Math.floor((p * w + 536870912) * 9.313225746154785e-10); // mr30(p, w) < 2^50.5
  const ang = ATAN_TABLE[idx]! + u + Math.floor((pw * u + 536870912) * 9.313225746154785e-10); // mr30(pw, u) < 2^46.5
  return q30ToRaw(angleQ30(ang, swap, y, x, fn));
}

/** The result in Q30 from the first-quadrant angle a: atan2 by the signs of y and x, asin by y's, acos = pi/2 - asin. */
function angleQ30(a: number, swap: boolean, y: number, x: number, fn: number): number {
  if (swap) a = HALF_PI_Q30 - a;
  if (fn === 0) {
    if (x < 0) a = PI_Q30 - a;
    return y < 0 ? -a : a;
  }
  if (y < 0) a = -a;
  return fn === 1 ? a : HALF_PI_Q30 - a;
}

const LOG_C = Float64Array.of(165191050, 195225786, 238609294, 306783378, 429496730, 715827883); // 2/13 .. 2/3
// 1/11!, 1/10!, ..., 1/2, 1, 1 in Q30
const EXP_C = Float64Array.of(27, 296, 2959, 26631, 213044, 1491308, 8947849, 44739243, 178956971, 536870912,
  ONE_Q30, ONE_Q30);
// 2^(sh-1) and 2^-sh for the final shift of exp, sh in 1..40.
const EXP_HALF = new Float64Array(41);
const EXP_SCALE = new Float64Array(41);
for (let sh = 1; sh <= 40; sh++) {
  EXP_HALF[sh] = 2 ** (sh - 1);
  EXP_SCALE[sh] = 2 ** -sh;
}

// As for sin and cos: exp's integer series (r exact, |r| <= 0.347 2^30, each
// step within 1/2, carried by r / 2^30) is within 0.77 of the real one, log's
// (s exact, w within 1/2, w <= 0.0295 2^30) within 0.7 (pow's log); EXP_LOG_SLACK = 2.
const EXP_LOG_SLACK = 2;
// log with the ratio s unfloored (fx_real.ts, logRaw): within 0.7 + 2.07 of the integer one.
const POW_LOG_SLACK = 5;

/** exp's series in real arithmetic (Q30) of r = round(d / 2^16), d the reduced Q46 argument. */
function expSeriesQ30(d: number): number {
  const rs = Math.floor((d + 32768) * 1.52587890625e-5) * 9.313225746154785e-10;
  let p = EXP_C[0]! * rs + EXP_C[1]!;
  p = (((p * rs + EXP_C[2]!) * rs + EXP_C[3]!) * rs + EXP_C[4]!) * rs + EXP_C[5]!;
  p = (((p * rs + EXP_C[6]!) * rs + EXP_C[7]!) * rs + EXP_C[8]!) * rs + EXP_C[9]!;
  return (p * rs + EXP_C[10]!) * rs + EXP_C[11]!;
}

/**
 * exp(x) of the raw int32 x, as raw: the exact reduction, then the series in
 * real arithmetic where that decides the result; else expLogExact. (A
 * function of its own, not a branch of powRaw's: V8 then compiles each for
 * its one caller.)
 */
export function expRaw(x: number): number {
  const a = x * 16384;
  if (a > 11811160064) return 2147483647;
  if (a < -18253611008) return 0;
  const n = a * 65536;
  const k = Math.floor((n + HALF_LN2_Q46) / LN2_Q46);
  const sh = 14 - k;
  if (sh >= 1 && sh <= 40) {
    const e = expSeriesQ30(n - k * LN2_Q46);
    const lo = Math.floor((e - EXP_LOG_SLACK + EXP_HALF[sh]!) * EXP_SCALE[sh]!);
    if (lo === Math.floor((e + EXP_LOG_SLACK + EXP_HALF[sh]!) * EXP_SCALE[sh]!)) return lo;
  }
  return expLogExact(x, 0, 0);
}

/**
 * pow(x, y) of raw int32 values, x != 0 and y != 0 (the caller handles the
 * rest; a negative x is taken as -x, the caller signs the result), as raw:
 * log's and exp's series in real arithmetic where that decides the result,
 * else expLogExact.
 */
export function powRaw(x: number, y: number): number {
  const ax = x < 0 ? -x : x; // pow of a negative x: of -x (the caller signs it)
  if (ax !== 2147483648) {
    // log as fx_real.ts logRaw computes it (the mantissa ratio s unfloored,
    // no branch on m > sqrt2): the integer l is within POW_LOG_SLACK of l
    const msb = 31 - Math.clz32(ax);
    const m = ax << (30 - msb);
    const big = (SQRT2_Q30 - m) >>> 31; // m > sqrt2: log of m / 2 instead, e + 1
    const s = ((m - ONE_Q30 * (1 + big)) * ONE_Q30) / (m + ONE_Q30 * (1 + big));
    const ws = s * s * 8.673617379884035e-19; // s^2 / 2^60
    let p = ((LOG_C[0]! * ws + LOG_C[1]!) * ws + LOG_C[2]!) * ws + LOG_C[3]!;
    p = (p * ws + LOG_C[4]!) * ws + LOG_C[5]!;
    const l = (msb - 16 + big) * LN2_Q30 + 2 * s + p * ws * s * 9.313225746154785e-10;
    // the integer l is in [l - 5, l + 5], so a = round(l y / 2^16) is in
    // [aLo, aHi] (monotone in l; widened by 1 for the rounding of the
    // products). If one k reduces both ends, r and then exp's series are
    // monotone in a, and so is the raw result: equal raws at both ends
    // decide it.
    const p1 = (l - POW_LOG_SLACK) * y * 1.52587890625e-5;
    const p2 = (l + POW_LOG_SLACK) * y * 1.52587890625e-5;
    const aLo = Math.floor(Math.min(p1, p2) + 0.5) - 1;
    const aHi = Math.floor(Math.max(p1, p2) + 0.5) + 1;
    if (aLo > -18253611008 && aHi <= 11811160064) {
      const nLo = aLo * 65536;
      const nHi = aHi * 65536;
      const k = Math.floor((nLo + HALF_LN2_Q46) / LN2_Q46);
      const sh = 14 - k;
      if (sh >= 1 && sh <= 40 && k === Math.floor((nHi + HALF_LN2_Q46) / LN2_Q46)) {
        const lo = Math.floor((expSeriesQ30(nLo - k * LN2_Q46) - EXP_LOG_SLACK + EXP_HALF[sh]!) * EXP_SCALE[sh]!);
        if (lo === Math.floor((expSeriesQ30(nHi - k * LN2_Q46) + EXP_LOG_SLACK + EXP_HALF[sh]!) * EXP_SCALE[sh]!)) {
          return lo;
        }
      }
    }
  }
  return expLogExact(x, y, 2);
}

/**
 * exp (fn 0), log (fn 1, x > 0) or pow (fn 2) by the exact integer steps:
 * FixedFnCore::logQ30, then mulRoundWide(l, y, 16), then expQ30ToRaw.
 */
export function expLogExact(x: number, y: number, fn: number): number {
  let a = x * 16384; // exp's argument in Q30
  if (fn !== 0) {
    // log(raw / 2^16) in Q30 for raw in [1, 2^31]
    const raw = x < 0 ? -x : x;
    const msb = 31 - Math.clz32(raw);
    // m in [2^30, 2^31); only raw = 2^31 (pow of min()) has msb 31: m = 2^30
    const m = msb <= 30 ? raw << (30 - msb) : ONE_Q30;
    let e = msb - 16;
    let num = m - ONE_Q30;
    let den = m + ONE_Q30;
    if (m > SQRT2_Q30) {
      num = m - 2 * ONE_Q30;
      den = m + 2 * ONE_Q30;
      e += 1;
    }
    const sn = ratioQ30(num < 0 ? -num : num, den);
    const s = num < 0 ? -sn : sn; // |s| <= 0.1716 2^30
    const sh = Math.floor(s * 1.52587890625e-5);
    const sl = s - sh * 65536;
    const w = Math.floor((s * sh + Math.floor((s * sl + 536870912) * 1.52587890625e-5)) * 6.103515625e-5); // mrs(s, s) 2^54.9; w <= 2^24.9
    const wh = Math.floor(w * 1.52587890625e-5);
    const wl = w - wh * 65536;
    let p = LOG_C[1]! + Math.floor((LOG_C[0]! * w + 536870912) * 9.313225746154785e-10); // mr30(p, w) < 2^52.3
    p = LOG_C[2]! + Math.floor((p * w + 536870912) * 9.313225746154785e-10); // mr30(p, w) < 2^52.5
    p = LOG_C[3]! + Math.floor((p * w + 536870912) * 9.313225746154785e-10); // mr30(p, w) < 2^52.8
    p = LOG_C[4]! + Math.floor((p * wh + Math.floor((p * wl + 536870912) * 1.52587890625e-5)) * 6.103515625e-5); // mrs(p, w) 2^53.2
    p = LOG_C[5]! + Math.floor((p * wh + Math.floor((p * wl + 536870912) * 1.52587890625e-5)) * 6.103515625e-5); // mrs(p, w) 2^53.7
    const pw = Math.floor((p * wh + Math.floor((p * wl + 536870912) * 1.52587890625e-5)) * 6.103515625e-5); // mrs(p, w) 2^54.4
    const l = e * LN2_Q30 + 2 * s + Math.floor((pw * s + 536870912) * 9.313225746154785e-10); // mr30(pw, s) < 2^51.9
    if (fn === 1) return q30ToRaw(l);
    // mulRoundWide(l, y, 16) by y's 16-bit halves: |l| < 2^35, both parts exact
    a = l * (y >> 16) + Math.floor((l * (y & 0xffff) + 32768) * 1.52587890625e-5);
  }
  // exp(a / 2^30) as raw, saturated (FixedFnCore::expQ30ToRaw)
  if (a > 11811160064) return 2147483647; // 11 * 2^30: e^11 > 32768
  if (a < -18253611008) return 0; // -17 * 2^30: e^-17 < 2^-17
  // n = a 2^16 < 2^50.1 here, so k is exact; |r| <= ln2/2 2^30 + 1
  const n = a * 65536;
  const k = Math.floor((n + HALF_LN2_Q46) / LN2_Q46);
  const r = Math.floor((n - k * LN2_Q46 + 32768) * 1.52587890625e-5);
  let p = EXP_C[1]! + Math.floor((EXP_C[0]! * r + 536870912) * 9.313225746154785e-10); // mr30(p, r) < 2^33.3
  p = EXP_C[2]! + Math.floor((p * r + 536870912) * 9.313225746154785e-10); // mr30(p, r) < 2^36.8
  p = EXP_C[3]! + Math.floor((p * r + 536870912) * 9.313225746154785e-10); // mr30(p, r) < 2^40.1
  p = EXP_C[4]! + Math.floor((p * r + 536870912) * 9.313225746154785e-10); // mr30(p, r) < 2^43.3
  p = EXP_C[5]! + Math.floor((p * r + 536870912) * 9.313225746154785e-10); // mr30(p, r) < 2^46.3
  p = EXP_C[6]! + Math.floor((p * r + 536870912) * 9.313225746154785e-10); // mr30(p, r) < 2^49.1
  p = EXP_C[7]! + Math.floor((p * r + 536870912) * 9.313225746154785e-10); // mr30(p, r) < 2^51.7
  const rh = Math.floor(r * 1.52587890625e-5);
  const rl = r - rh * 65536;
  p = EXP_C[8]! + Math.floor((p * rh + Math.floor((p * rl + 536870912) * 1.52587890625e-5)) * 6.103515625e-5); // mrs(p, r) 2^54.0
  p = EXP_C[9]! + Math.floor((p * rh + Math.floor((p * rl + 536870912) * 1.52587890625e-5)) * 6.103515625e-5); // mrs(p, r)
  p = EXP_C[10]! + Math.floor((p * rh + Math.floor((p * rl + 536870912) * 1.52587890625e-5)) * 6.103515625e-5); // mrs(p, r)
  const e = EXP_C[11]! + Math.floor((p * rh + Math.floor((p * rl + 536870912) * 1.52587890625e-5)) * 6.103515625e-5); // mrs(p, r): exp(r) in Q30, < 2^30.6
  const sh = 14 - k; // raw = e 2^(k - 14)
  if (sh <= 0) {
    const v = sh === 0 ? e : sh === -1 ? e * 2 : e * 4; // sh >= -2 (k <= 16)
    return v > 2147483647 ? 2147483647 : v;
  }
  if (sh > 40) return 0;
  return Math.floor((e + EXP_HALF[sh]!) * EXP_SCALE[sh]!);
}
