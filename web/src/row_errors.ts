// row_errors.ts - what every row loop of each (row_loop.ts, the generated
// ones; row_loop_interpreted.ts) shares: the frozen copy of a Read array
// field, and the errors a row's checks throw (their messages are built only
// when they are thrown).
import type { Component } from './component.js';
import { badScalar, badScalarError } from './schema.js';
import { invalid, typeName } from './errors.js';

/** @internal Any heap view of the module. */
export type Heap = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

// The helpers the loops share: the frozen copy of a Read array field, and
// the errors (messages built only when they are thrown).
/** @internal The frozen copy of a Read array field and the errors of one loop's components. */
export function rowErrors(comps: readonly Component[]) {
  const frozen = (h: Heap, start: number, count: number): readonly number[] => Object.freeze(Array.from(h.subarray(start, start + count)));
  const ro = (i: number, j: number): never => comps[i]!._readOnly(comps[i]!._layout[j]!.name);
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
  return { frozen, ro, bad, nonNumber };
}

