// math/fx_math.ts - deterministic sin, cos, tan, atan2, asin, acos, exp,
// log, pow, hypot, floor, ceil and round on Q16.16 raw values, bit-identical
// to SimMath<Fpx16_16>::sin ... (cpp/include/laige/detail/
// sim_math_fn_fixed.h) in every JavaScript engine. Method, accuracy and
// special cases: docs/sim_math.md#functions. fx.ts merges them into `fx`.
//
// No BigInt and no Math.sin: the integer steps of the C++ code run exactly on
// doubles and 32-bit integer operations (fx_q30.ts explains why each is
// exact), after a first pass in binary64 that decides the result wherever
// its proven distance to those steps cannot change the rounding (fx_real.ts,
// fx_q30.ts). Raw int32 in, raw int32 out; other numbers are converted with
// ToInt32 (`x | 0`) first; a value that is not a number is a LaigeError
// wrong_type.

import { FX_MAX, FX_MIN, type Fx, wrongType } from './fx_raw.js';
import { expRaw, powRaw, trigRaw } from './fx_q30.js';
import { asinAcosRaw, atan2Raw, logRaw, tanRaw } from './fx_real.js';

const MAX = FX_MAX;
const MIN = FX_MIN;

/** round(sqrt(n)) of the integer n = ax^2 + ay^2 (< 2^63), exact. */
function hypotRaw(ax: number, ay: number): number {
  const n = ax * ax + ay * ay;
  // Below 2^48, n is exact and sqrt(n) (< 2^24) is at least 1/(8 sqrt(n)) >
  // 2^-27 from any k + 1/2, above the two roundings (2^-30 each): round it.
  if (n < 281474976710656) return Math.floor(Math.sqrt(n) + 0.5);
  // Above: r is within 1 of the answer; d = n - r^2 exactly (low 32 bits by
  // Math.imul, the rest from the doubles, within 2^12), then step r.
  let r = Math.floor(Math.sqrt(n) + 0.5);
  const lo = (Math.imul(ax, ax) + Math.imul(ay, ay) - Math.imul(r, r)) | 0;
  let d = lo + Math.floor((ax * ax - r * r + ay * ay - lo) / 4294967296 + 0.5) * 4294967296;
  // the answer r has (r - 1/2)^2 < n < (r + 1/2)^2: -r < d <= r
  while (d > r) {
    d -= 2 * r + 1;
    r += 1;
  }
  while (d <= -r) {
    r -= 1;
    d += 2 * r + 1;
  }
  return r > MAX ? MAX : r;
}

/** The Q16.16 functions (raw int32 in, raw int32 out), merged into `fx`. */
export const fxMath = Object.freeze({
  /** sin(x), within 1 raw unit; as SimMath<Fpx16_16>::sin. */
  sin(x: Fx): Fx {
    if (typeof x !== 'number') wrongType('fx.sin', 'a', x);
    return trigRaw(x | 0, 0);
  },
  /** cos(x), within 1 raw unit. */
  cos(x: Fx): Fx {
    if (typeof x !== 'number') wrongType('fx.cos', 'a', x);
    return trigRaw(x | 0, 1);
  },
  /** tan(x) = sin / cos rounded once, saturated near the poles. */
  tan(x: Fx): Fx {
    if (typeof x !== 'number') wrongType('fx.tan', 'a', x);
    return tanRaw(x | 0);
  },
  /** atan2(y, x) in (-pi, pi]; atan2(0, 0) = 0. */
  atan2(y: Fx, x: Fx): Fx {
    if (typeof y !== 'number') wrongType('fx.atan2', 'a', y);
    if (typeof x !== 'number') wrongType('fx.atan2', 'b', x);
    return atan2Raw(y | 0, x | 0);
  },
  /** asin(x); x clamped to [-1, 1]. */
  asin(x: Fx): Fx {
    if (typeof x !== 'number') wrongType('fx.asin', 'a', x);
    return asinAcosRaw(x | 0, 0);
  },
  /** acos(x); x clamped to [-1, 1]. */
  acos(x: Fx): Fx {
    if (typeof x !== 'number') wrongType('fx.acos', 'a', x);
    return asinAcosRaw(x | 0, 1);
  },
  /** e^x, saturated. */
  exp(x: Fx): Fx {
    if (typeof x !== 'number') wrongType('fx.exp', 'a', x);
    return expRaw(x | 0);
  },
  /** Natural log; x <= 0 gives MIN. */
  log(x: Fx): Fx {
    if (typeof x !== 'number') wrongType('fx.log', 'a', x);
    x |= 0;
    return x <= 0 ? MIN : logRaw(x);
  },
  /** x^y; pow(x, 0) = 1, pow(0, y<0) = MAX, negative x with fractional y = 0. */
  pow(x: Fx, y: Fx): Fx {
    if (typeof x !== 'number') wrongType('fx.pow', 'a', x);
    if (typeof y !== 'number') wrongType('fx.pow', 'b', y);
    x |= 0;
    y |= 0;
    if (y === 0) return 65536;
    if (x === 0) return y > 0 ? 0 : MAX;
    if (x > 0) return powRaw(x, y);
    if ((y & 0xffff) !== 0) return 0;
    const r = powRaw(x, y); // of -x
    return ((y >> 16) & 1) !== 0 ? -r | 0 : r;
  },
  /** sqrt(x*x + y*y) to 1/2 raw unit (exact 64-bit integer root), saturated. */
  hypot(x: Fx, y: Fx): Fx {
    if (typeof x !== 'number') wrongType('fx.hypot', 'a', x);
    if (typeof y !== 'number') wrongType('fx.hypot', 'b', y);
    x |= 0;
    y |= 0;
    return hypotRaw(Math.abs(x), Math.abs(y)); // no branch on the signs (unpredictable)
  },
  /** The largest integer <= x. */
  floor(x: Fx): Fx {
    if (typeof x !== 'number') wrongType('fx.floor', 'a', x);
    return x & ~0xffff;
  },
  /** The smallest integer >= x, saturated to MAX. */
  ceil(x: Fx): Fx {
    if (typeof x !== 'number') wrongType('fx.ceil', 'a', x);
    x |= 0;
    return x > 0x7fff0000 ? MAX : (x + 0xffff) & ~0xffff;
  },
  /** The nearest integer, halves away from zero, saturated. */
  round(x: Fx): Fx {
    if (typeof x !== 'number') wrongType('fx.round', 'a', x);
    x |= 0;
    // halves away from zero without a branch on the sign (unpredictable):
    // -floor((-x + 2^15) / 2^16) = floor((x + 2^15 - 1) / 2^16) for x < 0,
    // the -1 being x >> 31; only the largest x saturate (MIN is exact)
    const v = Math.floor((x + 0x8000 + (x >> 31)) * 1.52587890625e-5) * 65536;
    return v > MAX ? MAX : v;
  },
});
