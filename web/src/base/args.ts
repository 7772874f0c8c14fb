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


// --- Declarative checks --------------------------------------------------------
// An API states what each argument or option must be as data (an ArgCheck);
// checkArg / checkOptions throw the LaigeError of the first value that is not,
// with the same reason, fields and message shape the hand-written checks used:
//   `${where}: ${field} must be ${expected}, got ${describe(v)}`, wrong_type,
//   { where, field, got: typeName(v) } for a value of the wrong kind;
//   u32(): wrong_type / out_of_range with { where, field, got, min, max };
//   coreRange(): an integer outside min..max gets the core's own reason.

/** @internal A bound of a range: a number, or computed from the options checked before it. */
export type Bound = number | ((earlier: Readonly<Record<string, unknown>>) => number);

/** @internal One value's declarative check. */
export type ArgCheck =
  /** An integer in min..max (default 0..2^32-1): wrong_type / out_of_range. */
  | { readonly type: 'u32'; readonly min?: Bound; readonly max?: Bound; readonly default?: number }
  /**
   * An integer whose range the core checks with a reason of its own: outside
   * min..max it is that reason with `fields(value, min, max, field)` (plus
   * where); `core: 'below'` / `'above'` limits the core's reason to that side
   * (the other side is out_of_range, as u32).
   */
  | { readonly type: 'limit'; readonly min: Bound; readonly max: Bound; readonly default?: number; readonly reason: string;
      readonly fields: (value: number, min: number, max: number, field: string) => Record<string, string | number>;
      readonly core?: 'below' | 'above' }
  /** One of the strings (invalid_value for another string, wrong_type else), or a function when `orFunction` gives its signature. */
  | { readonly type: 'oneOf'; readonly values: readonly string[]; readonly default?: string; readonly orFunction?: string }
  /** A u64 as a bigint: wrong_type / out_of_range (u64()). */
  | { readonly type: 'u64'; readonly default?: bigint }
  /** A value of one JS kind; `expected` is the text after "must be" when it says more than the kind. */
  | { readonly type: 'object' | 'function' | 'boolean' | 'string' | 'bytes'; readonly expected?: string; readonly default?: unknown };

const KIND_TEXT = { object: 'an object', function: 'a function', boolean: 'a boolean', string: 'a string', bytes: 'a Uint8Array' } as const;

function isKind(type: keyof typeof KIND_TEXT, v: unknown): boolean {
  switch (type) {
    case 'object': return typeof v === 'object' && v !== null;
    case 'function': return typeof v === 'function';
    case 'boolean': return typeof v === 'boolean';
    case 'string': return typeof v === 'string';
    case 'bytes': return v instanceof Uint8Array;
  }
}

const boundOf = (b: Bound | undefined, fallback: number, earlier: Readonly<Record<string, unknown>>): number =>
  b === undefined ? fallback : typeof b === 'number' ? b : b(earlier);

/**
 * @internal Checks `v`, the argument or option `field` of the call `where`,
 * against `check`; returns it (a number for u32 and limit checks). `earlier`:
 * the values checked before it (for computed bounds).
 */
export function checkArg(where: string, field: string, v: unknown, check: ArgCheck, earlier: Readonly<Record<string, unknown>> = {}): unknown {
  switch (check.type) {
    case 'u32':
      return u32(`${where}: ${field}`, v, boundOf(check.min, 0, earlier), boundOf(check.max, MAX_U32, earlier));
    case 'limit': {
      const min = boundOf(check.min, 0, earlier);
      const max = boundOf(check.max, MAX_U32, earlier);
      const at = `${where}: ${field}`;
      const integer = typeof v === 'number' && Number.isInteger(v);
      if (integer && ((check.core === 'below' && v > max) || (check.core === 'above' && v < min))) return u32(at, v, min, max);
      return coreRange(at, v, min, max, check.reason, (value) => check.fields(value, min, max, field));
    }
    case 'u64':
      return u64(`${where}: ${field}`, v);
    case 'oneOf': {
      if (typeof v === 'string' ? check.values.includes(v) : check.orFunction !== undefined && typeof v === 'function') return v;
      const items = [...check.values.map((s) => `'${s}'`), ...(check.orFunction !== undefined ? [`a function ${check.orFunction}`] : [])];
      const text = items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]!}` : items[0]!;
      throw invalid(`${where}: ${field} must be ${text}, got ${describe(v)}`, typeof v === 'string' ? 'invalid_value' : 'wrong_type',
        { where, field, got: typeof v === 'string' ? v : typeName(v) });
    }
    default:
      if (!isKind(check.type, v)) {
        throw invalid(`${where}: ${field} must be ${check.expected ?? KIND_TEXT[check.type]}, got ${describe(v)}`, 'wrong_type', { where, field, got: typeName(v) });
      }
      return v;
  }
}

/** @internal The options a table of checks gives: numbers for u32 and limit checks, bigints for u64. */
export type CheckedOptions<T extends Readonly<Record<string, ArgCheck>>> = {
  -readonly [K in keyof T]: T[K] extends { readonly type: 'u32' | 'limit' } ? number : T[K] extends { readonly type: 'u64' } ? bigint : unknown;
};

/**
 * @internal Checks an options object (`${where}: options must be ${expected}`
 * when it is not an object), then each option of `checks` in order: an
 * option left undefined takes the check's default; without one, a u32 or
 * limit option is required (undefined is wrong_type) and any other stays
 * undefined.
 */
export function checkOptions<T extends Readonly<Record<string, ArgCheck>>>(where: string, options: unknown, checks: T,
  expected = 'an object'): CheckedOptions<T> {
  checkArg(where, 'options', options, { type: 'object', expected });
  return checkFields(where, options as object, checks);
}

/** @internal checkOptions without the object check (done before, with other checks between). */
export function checkFields<T extends Readonly<Record<string, ArgCheck>>>(where: string, options: object, checks: T): CheckedOptions<T> {
  const out: Record<string, unknown> = {};
  for (const field of Object.keys(checks)) {
    const check = checks[field]!;
    const v = (options as Readonly<Record<string, unknown>>)[field];
    const required = !('default' in check) && (check.type === 'u32' || check.type === 'limit');
    out[field] = v === undefined && !required ? ('default' in check ? check.default : undefined) : checkArg(where, field, v, check, out);
  }
  return out as CheckedOptions<T>;
}
