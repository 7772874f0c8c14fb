// math/fx_raw.ts - what the Q16.16 helpers (fx.ts) and math functions
// (fx_math.ts) share: the raw type, its range, and the argument check every
// fx.* and f32.* function makes (a value that is not a number is a LaigeError
// invalid_argument, reason wrong_type, naming the function, argument and type).
import { invalid } from '../base/errors.js';
import { describe } from '../base/describe.js';

/** A Q16.16 raw value (an int32). */
export type Fx = number;

/** Raw of the smallest value, -32768.0. */
export const FX_MIN = -2147483648;
/** Raw of the largest value, 32767.99998474. */
export const FX_MAX = 2147483647;
/** Raw of 1.0. */
export const FX_ONE = 65536;

/**
 * Throws the wrong_type error for argument `arg` of `where` (e.g. 'fx.sin').
 * Cold: callers test `typeof v !== 'number'` inline and call this only to throw.
 */
export function wrongType(where: string, arg: string, v: unknown): never {
  throw invalid(`${where}: ${arg} must be a number, got ${describe(v)} (type ${typeof v})`, 'wrong_type',
    { where, field: arg, type: typeof v });
}
