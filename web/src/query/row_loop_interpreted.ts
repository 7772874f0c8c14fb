// row_loop_interpreted.ts - the row loop of each for runtimes without code
// generation (a Content-Security-Policy without 'unsafe-eval'): the same
// contract as the generated loops of row_loop.ts (snapshots, checks before
// stores, only changed fields stored), with closures only.
import type { Component } from '../component/component.js';
import { HEAP_OF, heapOf, scalarOk } from '../component/schema.js';
import { type Heap, copyOf, rowErrors, sameElements } from './row_errors.js';
import type { RefShape, RowLoop } from './row_loop_types.js';

/** The ref of one component in the interpreted loop: `s` holds the row's values, fields are accessors over it. */
interface SnapshotRef {
  $s: unknown[];
}

// One class per component (accessors on the prototype, closures only: no
// code generation), so a callback's `p.x` stays monomorphic.
const snapshotClasses = new WeakMap<Component, new () => SnapshotRef>();
function snapshotClass(c: Component): new () => SnapshotRef {
  let cls = snapshotClasses.get(c);
  if (cls !== undefined) return cls;
  const names = c._layout.map((f) => f.name);
  cls = class {
    $s: unknown[] = new Array<unknown>(names.length).fill(0); // $: never a field name
  };
  names.forEach((name, j) => {
    Object.defineProperty(cls!.prototype, name, {
      get(this: SnapshotRef) { return this.$s[j]; },
      set(this: SnapshotRef, v: unknown) { this.$s[j] = v; }, // checked when the callback returns
      enumerable: true,
      configurable: true,
    });
  });
  if (!names.includes('toJSON')) {
    Object.defineProperty(cls.prototype, 'toJSON', {
      value(this: SnapshotRef) { return Object.fromEntries(names.map((n, j) => [n, this.$s[j]])); },
    });
  }
  snapshotClasses.set(c, cls);
  return cls;
}

/**
 * @internal The interpreted twin of makeRowLoop, for runtimes without code
 * generation (a Content-Security-Policy without 'unsafe-eval': the module
 * itself needs no `new Function`; correct, not fast): the same snapshots,
 * checks and stores (only the fields the callback changed are stored, which
 * is what the generated fast path's stores amount to while no World.add or
 * growth intervened). Refs are one reused object per component whose
 * fields are accessors over the row's snapshot.
 */
export function makeInterpretedRowLoop(comps: readonly Component[], write: readonly boolean[], shape: RefShape): RowLoop {
  const { ro, roArray, bad } = rowErrors(comps);
  const n = comps.length;
  const plans = comps.map((c) => c._layout.map((f) => ({
    kind: f.kind, shift: HEAP_OF[f.kind][1], offset: f.offset, count: f.count, isArray: f.isArray,
    float: f.kind === 'f32' || f.kind === 'f64', ok: scalarOk(f.kind),
  })));
  const arrayOk = (p: (typeof plans)[number][number], v: unknown): boolean => {
    if (typeof v !== 'object' || v === null || (v as ArrayLike<unknown>).length !== p.count) return false;
    for (let k = 0; k < p.count; k++) if (!p.ok((v as ArrayLike<unknown>)[k])) return false;
    return true;
  };
  // Made once per loop, not per call: fresh arrays would start as small-int
  // arrays every call and deoptimise the loop when they turn to doubles. One
  // `each` per world runs at a time, and a loop belongs to one world.
  const refs = comps.map((c) => new (snapshotClass(c))());
  const snaps = plans.map((plan) => new Array<unknown>(plan.length).fill(0));
  const changed = plans.map((plan) => new Array<boolean>(plan.length).fill(false));
  const originals = plans.map((plan) => new Array<number[] | null>(plan.length).fill(null));
  const named: Record<string, unknown> | null = shape.names === null ? null : {};
  return (f, m, hb, start, rows, cols, at) => {
    const heaps = (): Heap[][] => plans.map((plan) => plan.map((p) => heapOf(m, p.kind)));
    let hs = heaps();
    const args = new Array<unknown>(n + 1);
    for (let i = 0; i < n; i++) args[i + 1] = refs[i];
    for (let r = start; r < rows; r++) {
      for (let i = 0; i < n; i++) {
        const base = cols[at + shape.cols[i]!]! + r * comps[i]!.size;
        const plan = plans[i]!;
        const h = hs[i]!;
        const s = refs[i]!.$s;
        const x = snaps[i]!;
        for (let j = 0; j < plan.length; j++) {
          const p = plan[j]!;
          const idx = (base + p.offset) >>> p.shift;
          // An array is a plain copy (a typed array would convert an element
          // write on the spot), compared with a second one after fn.
          if (p.isArray) originals[i]![j] = copyOf(h[j]!, idx, p.count);
          x[j] = s[j] = p.isArray ? copyOf(h[j]!, idx, p.count) : h[j]![idx];
        }
      }
      const e = m.u32[hb + r];
      const epoch = m.epoch;
      if (named !== null) {
        for (let i = 0; i < n; i++) named[shape.names![i]!] = refs[i];
        for (const a of shape.absent) named[a] = undefined;
        f(e, named);
      } else if (n === 1) f(e, refs[0]);
      else if (n === 2) f(e, refs[0], refs[1]);
      else if (n === 3) f(e, refs[0], refs[1], refs[2]);
      else {
        args[0] = e;
        f.apply(undefined, args);
      }
      const slow = m.epoch !== epoch || m.u8.length === 0;
      if (slow) {
        m.sync();
        hs = heaps();
      }
      // Checks of every field first (collecting what changed), then the stores.
      for (let i = 0; i < n; i++) {
        const plan = plans[i]!;
        const s = refs[i]!.$s;
        const x = snaps[i]!;
        const d = changed[i]!;
        for (let j = 0; j < plan.length; j++) {
          const p = plan[j]!;
          const v = s[j];
          const orig = originals[i]![j];
          d[j] = p.isArray ? v !== x[j] || !sameElements(v, orig!) : !(p.float ? Object.is(v, x[j]) : v === x[j]);
          if (!d[j]) continue;
          if (!write[i]) (p.isArray ? roArray(i, j, v, orig!) : ro(i, j));
          if (!(p.isArray ? arrayOk(p, v) : p.ok(v))) bad(i, j, v);
        }
      }
      for (let i = 0; i < n; i++) {
        if (!write[i]) continue;
        const base = cols[at + shape.cols[i]!]! + r * comps[i]!.size;
        const plan = plans[i]!;
        const h = hs[i]!;
        const s = refs[i]!.$s;
        const d = changed[i]!;
        for (let j = 0; j < plan.length; j++) {
          if (!d[j]) continue;
          const p = plan[j]!;
          const idx = (base + p.offset) >>> p.shift;
          if (p.isArray) for (let k = 0; k < p.count; k++) h[j]![idx + k] = (s[j] as ArrayLike<number>)[k]!;
          else h[j]![idx] = s[j] as number;
        }
      }
      if (slow) return r + 1;
    }
    return rows;
  };
}

