// row_errors.ts - what every row loop of each (row_loop.ts, the generated
// ones; row_loop_interpreted.ts) shares: the plain array copy of a fixed
// array field and its checks, and the errors a row's checks throw (their
// messages are built only when they are thrown).
import type { Component } from '../component/component.js';
import { badScalar, badScalarError, scalarOk } from '../component/schema.js';
import { invalid, typeName } from '../base/errors.js';

/** @internal Any heap view of the module. */
export type Heap = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

/** @internal The elements [start, start + count) of `h` as a plain array (a ref's copy of a fixed-array field). */
export function copyOf(h: Heap, start: number, count: number): number[] {
  const a: number[] = [];
  for (let k = 0; k < count; k++) a.push(h[start + k]!);
  return a;
}

/** @internal True when `a` holds exactly the elements of `b` (same length, Object.is per element). */
export function sameElements(a: unknown, b: readonly number[]): boolean {
  if (typeof a !== 'object' || a === null) return false;
  const v = a as ArrayLike<unknown>;
  if (v.length !== b.length) return false;
  for (let k = 0; k < b.length; k++) if (!Object.is(v[k], b[k])) return false;
  return true;
}

// The helpers the loops share: array copies and checks, and the errors
// (messages built only when they are thrown).
/** @internal The array helpers and the errors of one loop's components. */
export function rowErrors(comps: readonly Component[]) {
  const oks = comps.map((c) => c._layout.map((f) => scalarOk(f.kind)));
  /** Whether every element of array field j of component i is a valid value of its kind (the length is checked by the caller). */
  const arrayOk = (i: number, j: number, v: ArrayLike<unknown>): boolean => {
    const ok = oks[i]![j]!;
    for (let k = 0; k < v.length; k++) if (!ok(v[k])) return false;
    return true;
  };
  const ro = (i: number, j: number): never => comps[i]!._readOnly(comps[i]!._layout[j]!.name);
  // A Read ref's array that fn changed: names the first changed element when
  // fn changed elements of the copy (the array itself replaced, or its length: the field).
  const roArray = (i: number, j: number, v: unknown, original: readonly number[]): never => {
    const name = comps[i]!._layout[j]!.name;
    if (Array.isArray(v) && v.length === original.length) {
      for (let k = 0; k < original.length; k++) if (!Object.is(v[k], original[k])) comps[i]!._readOnly(`${name}[${k}]`);
    }
    return comps[i]!._readOnly(name);
  };
  const bad = (i: number, j: number, v: unknown): never => {
    const c = comps[i]!;
    const f = c._layout[j]!;
    const where = `each: ${c.name}`;
    if (!f.isArray) throw badScalarError(`${c.name}.${f.name}: ${badScalar(f.kind, v)}`, where, f.name, f.kind, v);
    const arr = v as ArrayLike<unknown>;
    if (typeof v !== 'object' || v === null || arr.length !== f.count) {
      throw invalid(`${c.name}.${f.name}: expected ${f.count} numbers, got ${typeName(v)}`, typeof v === 'object' && v !== null ? 'out_of_range' : 'wrong_type',
        { where, field: f.name, got: typeof v === 'object' && v !== null ? arr.length : typeName(v), expected: f.count });
    }
    for (let k = 0; k < f.count; k++) {
      const why = badScalar(f.kind, arr[k]);
      if (why) throw badScalarError(`${c.name}.${f.name}[${k}]: ${why}`, where, `${f.name}[${k}]`, f.kind, arr[k]);
    }
    throw invalid(`${c.name}.${f.name}: invalid value`, 'invalid_value', { where, field: f.name });
  };
  // A reused ref (makeRowLoop, reuse) that was assigned a non-number: throw
  // for its first field still holding one (the loop clears the flags on its
  // next call); a field given a number again afterwards is fine.
  const nonNumber = (i: number, ref: { $any: boolean; $nb: Uint8Array; $o: unknown[] }, write: boolean): void => {
    const j = ref.$nb.indexOf(1);
    if (j < 0) {
      ref.$any = false;
      return;
    }
    if (write) bad(i, j, ref.$o[j]);
    ro(i, j);
  };
  return { copyOf, sameElements, arrayOk, ro, roArray, bad, nonNumber };
}

