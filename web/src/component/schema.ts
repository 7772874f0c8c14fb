// schema.ts - components by schema (docs/component_registry.md): field kinds, the
// types inferred from a schema, value encoding into component bytes, and
// the per-entity views `each` hands to callbacks. The byte layout is the C
// struct layout the core computes (layoutComponentFields), so a JS schema and
// a C++ struct with the same fields give the same bytes and the same hash.
import { invalid, typeName } from '../base/errors.js';
import { describe as describeValue } from '../base/describe.js';

/** @internal base/describe.ts's value formatter, for the modules that still import it from here (fx.ts). */
export function describe(v: unknown): string {
  return describeValue(v);
}
import type { Mem } from '../boundary/raw.js';

/** The scalar kinds of a field. 'fx' is Q16.16 stored as its raw int32. */
export type ScalarKind = 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'f32' | 'f64' | 'fx';
/** A field: a scalar kind, or a fixed array [kind, length]. */
export type FieldSpec = ScalarKind | readonly [ScalarKind, number];
/** A component schema: field name -> kind, in C struct order. */
export type Schema = { readonly [field: string]: FieldSpec };

/** The typed array a field kind is stored as. */
export type TypedArrayOf<K extends ScalarKind> = K extends 'i8' ? Int8Array
  : K extends 'u8' ? Uint8Array
  : K extends 'i16' ? Int16Array
  : K extends 'u16' ? Uint16Array
  : K extends 'i32' | 'fx' ? Int32Array
  : K extends 'u32' ? Uint32Array
  : K extends 'f32' ? Float32Array
  : Float64Array;

/** The scalar kind of a field spec. */
export type KindOf<F extends FieldSpec> = F extends readonly [infer K extends ScalarKind, number] ? K : F extends ScalarKind ? F : never;

/** A component value as `get` returns it: numbers, and number[] for arrays. */
export type Value<S extends Schema> = {
  -readonly [K in keyof S]: S[K] extends ScalarKind ? number : S[K] extends readonly [ScalarKind, number] ? number[] : number | number[];
};
/** A component value as `add` accepts it. */
export type ValueInput<S extends Schema> = {
  readonly [K in keyof S]: S[K] extends ScalarKind ? number : S[K] extends readonly [ScalarKind, number] ? ArrayLike<number> : number | ArrayLike<number>;
};
/**
 * A Write-declared component inside `each`: assignable fields, a fixed
 * array as a plain `number[]` copy whose element writes are checked (like
 * `add`) and stored when the callback returns.
 */
export type Ref<S extends Schema> = {
  -readonly [K in keyof S]: S[K] extends ScalarKind ? number : number[];
};
/** A Read-declared component inside `each`: fields read from the column; a write (also of an array element) throws. */
export type ReadRef<S extends Schema> = { readonly [K in keyof S]: S[K] extends ScalarKind ? number : readonly number[] };

/** @internal FieldKind values of the C++ core (component.h). */
export const KIND_CODE: Readonly<Record<ScalarKind, number>> = {
  i8: 1, u8: 2, i16: 3, u16: 4, i32: 5, u32: 6, f32: 9, f64: 10, fx: 11,
};
const KIND_SIZE: Readonly<Record<ScalarKind, number>> = {
  i8: 1, u8: 1, i16: 2, u16: 2, i32: 4, u32: 4, f32: 4, f64: 8, fx: 4,
};
/** @internal */
export const KIND_BY_CODE: Readonly<Record<number, ScalarKind>> = {
  1: 'i8', 2: 'u8', 3: 'i16', 4: 'u16', 5: 'i32', 6: 'u32', 9: 'f32', 10: 'f64', 11: 'fx',
};
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Kind names; the keys of KIND_CODE. */
export const SCALAR_KINDS: readonly ScalarKind[] = Object.keys(KIND_CODE) as ScalarKind[];

/** @internal One laid-out field. */
export interface FieldLayout {
  readonly name: string;
  readonly kind: ScalarKind;
  readonly count: number;
  /** Byte offset inside the component. */
  readonly offset: number;
  readonly isArray: boolean;
}

/** @internal Validates a schema and returns its [name, kindCode, count] list (C order). */
export function parseSchema(where: string, schema: unknown): Array<[string, number, number]> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw invalid(`${where}: the schema must be a plain object of field kinds (got ${describe(schema)})`, 'wrong_type', { where, field: 'schema', got: typeName(schema) });
  }
  const out: Array<[string, number, number]> = [];
  for (const [name, spec] of Object.entries(schema as Record<string, unknown>)) {
    if (!NAME_RE.test(name) || name.length > 63) {
      throw invalid(`${where}: field name '${name}' must be an identifier of at most 63 characters`, 'invalid_name', { where, field: 'schema', got: name });
    }
    if (name === '__proto__') throw invalid(`${where}: field name '__proto__' is reserved in JavaScript objects`, 'invalid_name', { where, field: 'schema', got: name });
    let kind: unknown = spec;
    let count: unknown = 1;
    let isArray = false;
    if (Array.isArray(spec)) {
      if (spec.length !== 2) throw invalid(`${where}: field '${name}': an array field is [kind, length]`, 'invalid_schema', { where, field: name });
      kind = spec[0];
      count = spec[1];
      isArray = true;
    }
    if (typeof kind !== 'string' || !Object.prototype.hasOwnProperty.call(KIND_CODE, kind)) {
      throw invalid(`${where}: field '${name}': unknown kind ${describe(kind)} (one of ${SCALAR_KINDS.join(' ')})`, 'invalid_schema', { where, field: name, got: describe(kind) });
    }
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 4096) {
      throw invalid(`${where}: field '${name}': array length must be an integer in 1..4096 (got ${describe(count)})`, 'invalid_schema', { where, field: name, got: describe(count) });
    }
    if (isArray && count < 1) throw invalid(`${where}: field '${name}': empty array`, 'invalid_schema', { where, field: name });
    out.push([name, KIND_CODE[kind as ScalarKind], count]);
  }
  if (out.length > 64) throw invalid(`${where}: at most 64 fields (got ${out.length})`, 'invalid_schema', { where, field: 'schema', got: out.length, max: 64 });
  return out;
}

/** @internal The layout of registered fields ([name, kindCode, count, offset] from the core), with the array-ness of the schema. */
export function layoutFrom(raw: Array<[string, number, number, number]>, schema: Schema): FieldLayout[] {
  return raw.map(([name, code, count, offset]) => ({
    name,
    kind: KIND_BY_CODE[code]!,
    count,
    offset,
    isArray: Array.isArray(schema[name]),
  }));
}

const RANGE: Readonly<Record<ScalarKind, readonly [number, number] | null>> = {
  i8: [-128, 127], u8: [0, 255], i16: [-32768, 32767], u16: [0, 65535],
  i32: [-2147483648, 2147483647], u32: [0, 4294967295], fx: [-2147483648, 2147483647],
  f32: null, f64: null,
};

/**
 * @internal The LaigeError for a value `v` that is not a valid scalar of
 * `kind` at `field` (message: `detail`): reason wrong_type (not a number),
 * invalid_value (NaN) or out_of_range (an integer kind's range).
 */
export function badScalarError(detail: string, where: string, field: string, kind: ScalarKind, v: unknown): Error {
  const reason = typeof v !== 'number' ? 'wrong_type' : v !== v ? 'invalid_value' : 'out_of_range';
  return invalid(detail, reason, { where, field, kind, got: typeof v === 'number' ? v : typeName(v) });
}

/** @internal Why `v` is not a valid scalar of `kind`, or '' when it is. */
export function badScalar(kind: ScalarKind, v: unknown): string {
  if (typeof v !== 'number') return `expected a number, got ${describe(v)} (type ${typeof v})`;
  if (v !== v) return 'NaN is not a valid component value';
  const range = RANGE[kind];
  if (range === null) return '';
  if (!Number.isInteger(v) || v < range[0] || v > range[1]) {
    return `expected an integer in ${range[0]}..${range[1]} for kind ${kind}${kind === 'fx' ? ' (a raw Q16.16 value: use fx.fromFloat)' : ''}, got ${v}`;
  }
  return '';
}

function store(m: Mem, kind: ScalarKind, at: number, v: number): void {
  switch (kind) {
    case 'i8': m.i8[at] = v; break;
    case 'u8': m.u8[at] = v; break;
    case 'i16': m.i16[at >> 1] = v; break;
    case 'u16': m.u16[at >> 1] = v; break;
    case 'i32': case 'fx': m.i32[at >> 2] = v; break;
    case 'u32': m.u32[at >> 2] = v; break;
    case 'f32': m.f32[at >> 2] = v; break;
    case 'f64': m.f64[at >> 3] = v; break;
  }
}

function load(m: Mem, kind: ScalarKind, at: number): number {
  switch (kind) {
    case 'i8': return m.i8[at]!;
    case 'u8': return m.u8[at]!;
    case 'i16': return m.i16[at >> 1]!;
    case 'u16': return m.u16[at >> 1]!;
    case 'i32': case 'fx': return m.i32[at >> 2]!;
    case 'u32': return m.u32[at >> 2]!;
    case 'f32': return m.f32[at >> 2]!;
    case 'f64': return m.f64[at >> 3]!;
  }
}

/** @internal Writes a validated value at `base`; throws (before writing anything) when it does not match. */
export type Encoder = (m: Mem, value: unknown, base: number, where: string) => void;

/** @internal Whether `v` is a valid value of the kind (the closure twin of CHECK_OF). */
export function scalarOk(kind: ScalarKind): (v: unknown) => boolean {
  switch (kind) {
    case 'f32': case 'f64': return (v) => typeof v === 'number' && v === v;
    // typeof first: `1n | 0` and `Symbol() | 0` throw a TypeError.
    case 'i32': case 'fx': return (v) => typeof v === 'number' && (v | 0) === v;
    case 'u32': return (v) => typeof v === 'number' && v >>> 0 === v;
    case 'i16': return (v) => typeof v === 'number' && (v << 16) >> 16 === v;
    case 'u16': return (v) => typeof v === 'number' && (v & 0xffff) === v;
    case 'i8': return (v) => typeof v === 'number' && (v << 24) >> 24 === v;
    case 'u8': return (v) => typeof v === 'number' && (v & 0xff) === v;
  }
}

/**
 * @internal The encoder of a component: validates every field completely,
 * then stores (so a throw writes nothing). Specialised per field layout,
 * at registration; error messages are built only on failure.
 *
 * One encoder per distinct layout, shared by every component and world
 * that has it (its messages name fields, never the component): a fresh
 * closure per component made `World.add`'s call site see a new function
 * per world and component, so V8 stopped inlining the encoder there
 * (measured: remove + add 1 component, ~8 ns of ~70 per entity).
 */
export function makeEncoder(fields: readonly FieldLayout[]): Encoder {
  const source = generatedEncoderSource(fields);
  // Keyed by the kinds too: an fx and an i32 field generate the same source,
  // but their errors name their own kind (and an fx error the fx hint).
  const key = `${fields.map((f) => f.kind).join(',')}\n${source}`;
  const hit = sharedEncoders.get(key);
  if (hit !== undefined) return hit;
  const slow = makeClosureEncoder(fields);
  let encoder: Encoder;
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    encoder = (new Function('slow', source) as (s: Encoder) => Encoder)(slow);
  } catch {
    encoder = slow; // no code generation (a Content-Security-Policy without 'unsafe-eval')
  }
  sharedEncoders.set(key, encoder);
  return encoder;
}
const sharedEncoders = new Map<string, Encoder>();

/** @internal The Mem heap name and index shift of each kind. */
export const HEAP_OF: Readonly<Record<ScalarKind, [string, number]>> = {
  i8: ['i8', 0], u8: ['u8', 0], i16: ['i16', 1], u16: ['u16', 1], i32: ['i32', 2], fx: ['i32', 2],
  u32: ['u32', 2], f32: ['f32', 2], f64: ['f64', 3],
};
/**
 * @internal A JS expression that is true when `x` is a valid value of the
 * kind (generated code). The typeof test comes first: the bit operators
 * throw a TypeError for a bigint or a Symbol.
 */
export const CHECK_OF: Readonly<Record<ScalarKind, (x: string) => string>> = {
  f32: (x) => `(typeof ${x} === 'number' && ${x} === ${x})`,
  f64: (x) => `(typeof ${x} === 'number' && ${x} === ${x})`,
  i32: (x) => `(typeof ${x} === 'number' && (${x} | 0) === ${x})`,
  fx: (x) => `(typeof ${x} === 'number' && (${x} | 0) === ${x})`,
  u32: (x) => `(typeof ${x} === 'number' && (${x} >>> 0) === ${x})`,
  i16: (x) => `(typeof ${x} === 'number' && ((${x} << 16) >> 16) === ${x})`,
  u16: (x) => `(typeof ${x} === 'number' && (${x} & 0xffff) === ${x})`,
  i8: (x) => `(typeof ${x} === 'number' && ((${x} << 24) >> 24) === ${x})`,
  u8: (x) => `(typeof ${x} === 'number' && (${x} & 0xff) === ${x})`,
};

// The source of a straight-line encoder for one layout (field names are
// identifiers, checked by parseSchema, and are embedded as JSON string
// literals): `return function encode(m, v, base, where) {...}` over `slow`.
function generatedEncoderSource(fields: readonly FieldLayout[]): string {
  const lines: string[] = ["if (typeof v !== 'object' || v === null) return slow(m, v, base, where);"];
  const checks: string[] = [];
  const stores: string[] = [];
  fields.forEach((f, i) => {
    const [heap, shift] = HEAP_OF[f.kind];
    lines.push(`const a${i} = v[${JSON.stringify(f.name)}];`);
    if (f.isArray) {
      checks.push(`(typeof a${i} === 'object' && a${i} !== null && a${i}.length === ${f.count})`);
      for (let k = 0; k < f.count; k++) checks.push(CHECK_OF[f.kind](`a${i}[${k}]`));
      for (let k = 0; k < f.count; k++) {
        stores.push(`m.${heap}[(base + ${f.offset + k * KIND_SIZE[f.kind]}) >> ${shift}] = a${i}[${k}];`);
      }
    } else {
      checks.push(CHECK_OF[f.kind](`a${i}`));
      stores.push(`m.${heap}[(base + ${f.offset}) >> ${shift}] = a${i};`);
    }
  });
  if (checks.length > 0) lines.push(`if (!(${checks.join(' && ')})) return slow(m, v, base, where);`);
  lines.push(...stores);
  return `return function encode(m, v, base, where) {\n${lines.join('\n')}\n};`;
}

function makeClosureEncoder(fields: readonly FieldLayout[]): Encoder {
  const n = fields.length;
  const names = fields.map((f) => f.name);
  const oks = fields.map((f) => scalarOk(f.kind));
  const arrays = fields.map((f) => f.isArray);
  const fail = (where: string, value: unknown): never => {
    if (typeof value !== 'object' || value === null) {
      throw invalid(`${where}: the value must be an object with the component's fields (got ${describe(value)})`, 'wrong_type', { where, field: 'value', got: typeName(value) });
    }
    const obj = value as Record<string, unknown>;
    for (const f of fields) {
      const v = obj[f.name];
      if (f.isArray) {
        if (typeof v !== 'object' || v === null || typeof (v as ArrayLike<unknown>).length !== 'number') {
          throw invalid(`${where}: field '${f.name}' must be an array of ${f.count} numbers (got ${describe(v)})`, 'wrong_type', { where, field: f.name, got: typeName(v) });
        }
        const arr = v as ArrayLike<unknown>;
        if (arr.length !== f.count) throw invalid(`${where}: field '${f.name}' must have exactly ${f.count} elements (got ${arr.length})`, 'out_of_range', { where, field: `${f.name}.length`, got: arr.length, expected: f.count });
        for (let i = 0; i < f.count; i++) {
          const why = badScalar(f.kind, arr[i]);
          if (why) throw badScalarError(`${where}: field '${f.name}[${i}]': ${why}`, where, `${f.name}[${i}]`, f.kind, arr[i]);
        }
      } else {
        const why = badScalar(f.kind, v);
        if (why) throw badScalarError(`${where}: field '${f.name}': ${why}`, where, f.name, f.kind, v);
      }
    }
    throw invalid(`${where}: invalid value`, 'invalid_value', { where, field: 'value' });
  };
  const valid = (obj: Record<string, unknown>): boolean => {
    for (let i = 0; i < n; i++) {
      const v = obj[names[i]!];
      if (arrays[i]) {
        const f = fields[i]!;
        if (typeof v !== 'object' || v === null) return false;
        const arr = v as ArrayLike<unknown>;
        if (arr.length !== f.count) return false;
        const ok = oks[i]!;
        for (let k = 0; k < f.count; k++) if (!ok(arr[k])) return false;
      } else if (!oks[i]!(v)) {
        return false;
      }
    }
    return true;
  };
  return (m, value, base, where) => {
    if (typeof value !== 'object' || value === null || !valid(value as Record<string, unknown>)) fail(where, value);
    const obj = value as Record<string, unknown>;
    for (let i = 0; i < n; i++) {
      const f = fields[i]!;
      if (f.isArray) {
        const arr = obj[f.name] as ArrayLike<number>;
        const size = KIND_SIZE[f.kind];
        for (let k = 0; k < f.count; k++) store(m, f.kind, base + f.offset + k * size, arr[k]!);
      } else {
        store(m, f.kind, base + f.offset, obj[f.name] as number);
      }
    }
  };
}

/** @internal Reads a component value at `base` into a fresh object. */
export type Decoder = (m: Mem, base: number) => Record<string, number | number[]>;

/**
 * @internal The decoder of a field layout (code-generated, with a closure
 * fallback), one per distinct layout as with makeEncoder.
 */
export function makeDecoder(fields: readonly FieldLayout[]): Decoder {
  const parts = fields.map((f) => {
    const [heap, shift] = HEAP_OF[f.kind];
    const at = (k: number) => `m.${heap}[(b + ${f.offset + k * KIND_SIZE[f.kind]}) >> ${shift}]`;
    const value = f.isArray ? `[${Array.from({ length: f.count }, (_, k) => at(k)).join(', ')}]` : at(0);
    return `${JSON.stringify(f.name)}: ${value}`;
  });
  const source = `return { ${parts.join(', ')} };`;
  let decoder = sharedDecoders.get(source);
  if (decoder === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval
      decoder = new Function('m', 'b', source) as Decoder;
    } catch {
      decoder = (m: Mem, base: number) => decodeValue(m, fields, base);
    }
    sharedDecoders.set(source, decoder);
  }
  return decoder;
}
const sharedDecoders = new Map<string, Decoder>();

/** @internal Reads a component value at `base` into a fresh object. */
export function decodeValue(m: Mem, fields: readonly FieldLayout[], base: number): Record<string, number | number[]> {
  const out: Record<string, number | number[]> = {};
  for (const f of fields) {
    const size = KIND_SIZE[f.kind];
    if (f.isArray) {
      const a: number[] = new Array<number>(f.count);
      for (let i = 0; i < f.count; i++) a[i] = load(m, f.kind, base + f.offset + i * size);
      out[f.name] = a;
    } else {
      out[f.name] = load(m, f.kind, base + f.offset);
    }
  }
  return out;
}

/** @internal The byte size of one scalar of `kind`. */
export function kindSize(kind: ScalarKind): number {
  return KIND_SIZE[kind];
}

/** @internal The heap view of a kind. */
export function heapOf(m: Mem, kind: ScalarKind): Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array {
  switch (kind) {
    case 'i8': return m.i8;
    case 'u8': return m.u8;
    case 'i16': return m.i16;
    case 'u16': return m.u16;
    case 'i32': case 'fx': return m.i32;
    case 'u32': return m.u32;
    case 'f32': return m.f32;
    case 'f64': return m.f64;
  }
}

/** @internal Called when a Read-declared field is assigned inside `each`. */
export type ReadWriteHandler = (field: string) => never;

