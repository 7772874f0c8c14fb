// args.ts - the argument checks every part of the World API shares: u32
// options, u64 seeds, ticks as number or bigint, and the bigint halves that
// cross the wasm boundary. A bad value is LaigeError invalid_argument with
// reason wrong_type or out_of_range and the field it came in.
import { invalid, typeName, whereField } from './errors.js';
import { messageFor } from './error_messages.js';
import { describe } from '../base/describe.js';

export const MAX_U32 = 0xffffffff;

/** @internal Validates a u32 option/argument. */
export function u32(where: string, v: unknown, min = 0, max = MAX_U32): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw invalid(`${where}: expected an integer in ${min}..${max}, got ${describe(v)}${typeof v === 'bigint' ? ' (a bigint where a number is expected)' : ''}`,
      typeof v === 'number' ? 'out_of_range' : 'wrong_type', { ...whereField(where), got: typeof v === 'number' ? v : typeName(v), min, max });
  }
  return v;
}

/**
 * @internal A u32 option whose range the core checks with a reason of its
 * own (tick_rate_invalid, rollback_option_invalid, ...): an integer outside
 * min..max is refused here with that reason and the core's fields (plus
 * `where`), so TypeScript and C++ name the same cause; a value that is not
 * an integer is `wrong_type` / `out_of_range` as for u32.
 */
export function coreRange(where: string, v: unknown, min: number, max: number, reason: string,
  fields: (v: number) => Record<string, string | number>): number {
  if (typeof v === 'number' && Number.isInteger(v) && (v < min || v > max)) {
    const call = whereField(where).where;
    const f = { where: call, ...fields(v) };
    throw invalid(`${call}: ${messageFor(reason, f)}`, reason, f);
  }
  return u32(where, v, min, max);
}

/** @internal Validates a u64 given as a bigint. */
export function u64(where: string, v: unknown): bigint {
  if (typeof v !== 'bigint') {
    throw invalid(`${where}: expected a bigint in 0n..2n**64n-1n, got ${describe(v)}${typeof v === 'number' ? ' (a number where a bigint is expected)' : ''}`,
      'wrong_type', { ...whereField(where), got: typeName(v), expected: 'bigint' });
  }
  if (v < 0n || v > 0xffffffffffffffffn) throw invalid(`${where}: ${v}n is outside 0n..2n**64n-1n`, 'out_of_range', { ...whereField(where), got: `${v}n` });
  return v;
}

/** @internal A tick: a non-negative safe integer number, or a bigint. */
export function tickOf(where: string, v: unknown): bigint {
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0) throw invalid(`${where}: a tick is a non-negative integer, got ${v}`, 'out_of_range', { ...whereField(where), field: 'tick', got: v });
    return BigInt(v);
  }
  if (typeof v === 'bigint') return u64(where, v);
  throw invalid(`${where}: a tick is a number or a bigint, got ${describe(v)}`, 'wrong_type', { ...whereField(where), field: 'tick', got: typeName(v) });
}

export function lo(v: bigint): number {
  return Number(v & 0xffffffffn);
}
export function hi(v: bigint): number {
  return Number(v >> 32n);
}

