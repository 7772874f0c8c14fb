// row_loop.ts - the per-row loop of World.each, generated per query shape
// and per callback so that V8 can inline the callback into the loop.
//
// Why generated: the cost of `each` from TS is dominated by what happens
// around the callback, not by the typed-array reads
// (docs/typescript.md). A loop shared by every callback has a megamorphic call
// site, so V8 cannot inline the callback and every `p.x` is an accessor call
// (measured: 11-17 ns per entity for pos += vel, 2.6-4x bitecs). A loop
// compiled for ONE callback source and ONE component layout has a
// monomorphic call site; V8 inlines the callback, and the refs, created per
// row as object literals, are scalar-replaced by escape analysis: `p.x += v.x`
// becomes a register add between a heap load and a heap store.
//
// The contract every loop keeps (the one generated per callback, the shared
// one long callbacks take, and the interpreted twin for runtimes without
// code generation, row_loop_interpreted.ts):
// - refs are snapshots of the row taken before fn runs; a Write-declared
//   field fn changed is validated like add() validates it (NaN, integer
//   range) and stored after fn returns; a field fn left unchanged is not
//   stored, so a w.add()/set() fn made on the same row stands;
// - a Read-declared field fn changed throws "was declared 'read'" and
//   nothing of that row is stored;
// - all of a row's checks run before any of its stores: a throw leaves the
//   row as it was (earlier rows keep their writes, as with any exception);
// - fixed arrays: a ref holds a plain array copy of the field (number[]:
//   a typed array would convert an element write on the spot, 300 into a
//   u8 is 44, and the check could not see it); on a Write ref element
//   writes are checked and stored with the rest of the row, after fn, like
//   scalars; on a Read ref a changed element throws read_only_field;
// - wasm memory growth inside fn (an allocating call) re-derives the heaps
//   before the stores (the loop notices a detached heap even when nothing
//   re-derived the views), and the loop is not run again over the old heap
//   (RowLoops.current); a callback that provably calls nothing
//   (call_free.ts) cannot grow memory or write the row another way, and
//   its loops leave that per-row test out.
import type { Component } from '../component/component.js';
import type { Mem } from '../boundary/raw.js';
import { CHECK_OF, HEAP_OF, type ScalarKind } from '../component/schema.js';
import { rowErrors } from './row_errors.js';
import { makeInterpretedRowLoop } from './row_loop_interpreted.js';
import type { RefShape, RowLoop } from './row_loop_types.js';

export type { RefShape, RowLoop };
import { type RefBindings, callFree } from '../base/call_free.js';

/**
 * @internal A generated walk: the row loop over every cursor of the table
 * `cur` from cursor `k` (row `start`) to `count` (`stride` words each,
 * `header` before the columns; every cursor has rows); `hb`: u32 index of
 * the handles of cursor k's rows (the walked cursors' handles follow each
 * other). Returns true when done;
 * false after a row took the slow commit, with where to go on in `st`
 * (cursor, row, handle index), for the caller to call again from there.
 */
export type WalkLoop = (fn: (...args: unknown[]) => void, m: Mem, hb: number, cur: Uint32Array, k: number, count: number,
  stride: number, header: number, start: number, st: Uint32Array) => boolean;


/** @internal The positional shape of n components. */
export function positional(n: number): RefShape {
  return { names: null, cols: Array.from({ length: n }, (_, i) => i), absent: [] };
}

const FLOAT: ReadonlySet<ScalarKind> = new Set(['f32', 'f64']);

/** By heap view: the index of Mem.epoch's word for that view (raw.ts Mem.epochWords). */
const EPOCH_WORD: Readonly<Record<string, string>> = {
  f64: 'm.epochWords >>> 3', u32: '(m.epochWords + 8) >>> 2', i32: '(m.epochWords + 8) >>> 2', f32: '(m.epochWords + 12) >>> 2',
};

/**
 * Callbacks whose source is longer than this share one loop per query shape
 * with reused refs: V8 does not inline a callback past ~460 bytes of
 * bytecode, and then a per-row literal is a real allocation per row
 * (measured, pos += vel: 26 ns per entity with literals).
 */
export const INLINE_SOURCE_LIMIT = 800;

/**
 * Fixed arrays up to this length are copied, compared, checked and stored
 * element by element in the generated code (a literal `[H[i], H[i + 1]]`
 * V8 may keep in registers); longer ones through the helpers of
 * row_errors.ts, so that the source stays small.
 */
export const INLINE_ARRAY_MAX = 16;

/** Generated loops kept per query shape (the oldest is dropped beyond it, so the path a callback takes depends only on its own source). */
export const LOOPS_PER_QUERY = 64;

/**
 * @internal Generates the row loop of one query shape. Refs are new object
 * literals per row (for an inlinable callback: escape analysis removes
 * them), or with `reuse` one object per component reused for every row (for
 * a callback V8 will not inline, where a literal would be a real
 * allocation per row; one `each` per world runs at a time and a loop
 * belongs to one world, so the reuse is safe). Throws when code
 * generation is unavailable (a Content-Security-Policy without
 * 'unsafe-eval'): the caller falls back to the interpreted loop.
 *
 * Per row, after fn: one combined test of everything that is not the
 * common case (Mem.epoch changed, read from its heap word through one of
 * the loop's views: a World.add, memory growth, or a view detached by a
 * growth nobody re-derived yet, which reads undefined there; a Write
 * field holding an invalid value; a Read field fn changed; a reused ref
 * that was given a non-number). Common case: every Write field is stored
 * through heaps and element indices held in locals. Otherwise the row's
 * values are kept and the loop is left with `break`; after it, commitSlow
 * re-derives the heaps, checks the row field by field (throwing the first
 * error) and stores only the fields fn changed, so a World.add fn made on
 * this row stands; the caller then re-enters the loop at the next row.
 *
 * Why `break` and not a call or a throw in the loop: a call that has never
 * run is a deoptimisation exit, and with one inside the loop TurboFan does
 * not peel the loop, so the callback's identity check and the heap checks
 * stay in every iteration and the indices stay tagged (measured, pos +=
 * vel: 4.8 ns per entity with the checks as calls, 3.9 with `break`).
 *
 * The heap views are constants of the loop, not loads from `m`: `make`
 * takes them from `m` once, and the loop reads them from its closure. V8
 * compiles a closure that is the only one of its function with its
 * context's constants folded in, so each typed-array access is the load or
 * the store and its bounds check, without loading the view's length and
 * data pointer first (measured, medians of 3 processes against bitecs: frag
 * 0.92x -> 0.79x, simple iter 1.20x -> 1.00x, pos += vel 0.65x -> 0.56x).
 * So a loop belongs to one heap: after memory growth its views are
 * detached, and RowLoops.current makes it again over the new heap before
 * the next call, from the same factory (no new compilation of its source).
 * Growth during a callback is seen as before (the epoch test reads a
 * detached view as undefined; commitSlow takes its views from `m`).
 *
 * `entity` false: the callback never reads its first parameter
 * (takesEntity), so the loop passes 0 instead of loading the row's handle
 * and `hb` is not read.
 */
export function makeRowLoop(comps: readonly Component[], write: readonly boolean[], reuse = false, entity = true,
  shape: RefShape = positional(comps.length), epochTest = true): LoopMaker<RowLoop> {
  return generate(comps, write, reuse, entity, shape, false, epochTest) as LoopMaker<RowLoop>;
}

/** @internal The factory of one generated loop: the loop over the views of `m`'s current heap. */
export type LoopMaker<L> = (m: Mem) => L;

/**
 * @internal makeRowLoop's loop with the walk over the cursor table around
 * it: one call runs every matched archetype with rows (for a query without
 * optional terms, whose archetypes all take the same loop).
 */
export function makeWalkLoop(comps: readonly Component[], write: readonly boolean[], reuse: boolean, entity: boolean,
  shape: RefShape, epochTest = true): LoopMaker<WalkLoop> {
  return generate(comps, write, reuse, entity, shape, true, epochTest) as LoopMaker<WalkLoop>;
}

// epochTest false: the callback provably calls nothing (call_free.ts), so
// nothing can bump Mem.epoch or grow memory while it runs: no test of the
// epoch word per row.
function generate(comps: readonly Component[], write: readonly boolean[], reuse: boolean, entity: boolean,
  shape: RefShape, walk: boolean, epochTest: boolean): LoopMaker<RowLoop | WalkLoop> {
  const shared: string[] = []; // ref objects made once per loop (reuse)
  const heaps = new Set<string>(entity ? ['u32'] : []);
  const pre: string[] = [];      // before the loop over one archetype's rows
  const perCall: string[] = [];  // once per call
  const step: string[] = [];     // index increments per row
  const load: string[] = [];     // snapshot of the row
  const refs: string[] = [];
  const after: string[] = [];    // the ref values after fn
  const odd: string[] = epochTest ? ['EV[EWI] !== E0'] : []; // the combined test: anything but the common case
  const fastStores: string[] = [];
  const slow: string[] = [];     // commitSlow: checks (throwing), then stores of changed fields
  const slowStores: string[] = [];
  const ws: string[] = [];       // ref values after fn, per field
  const xs: string[] = [];       // snapshot values, per field
  comps.forEach((c, i) => {
    const w = write[i]!;
    const shifts = new Set<number>();
    const col = shape.cols[i]!;
    slow.push(`const b${i} = cols[at + ${col}] + r * ${c.size};`);
    if (reuse) {
      odd.push(`R${i}.$any`);
      slow.push(`if (R${i}.$any) nonNumber(${i}, R${i}, ${w});`);
    }
    c._layout.forEach((f, j) => {
      const [heap, shift] = HEAP_OF[f.kind];
      heaps.add(heap);
      shifts.add(shift);
      const H = heap.toUpperCase();
      const x = `x${i}_${j}`;
      const y = `w${i}_${j}`;
      xs.push(x);
      ws.push(y);
      const key = JSON.stringify(f.name);
      // The ref's value of the field: a literal's property, or (reuse) the reused ref's slot.
      const field = !reuse ? `v${i}[${key}]` : f.isArray ? `R${i}.$a[${j}]` : `R${i}.$s[${j}]`;
      const el = (k: number) => `i${i}_${shift} + ${(f.offset >> shift) + k}`; // loop element index
      const sel = (k: number) => `((b${i} + ${f.offset}) >> ${shift}) + ${k}`;   // commitSlow element index
      const check = (v: string) => CHECK_OF[f.kind](v);
      after.push(`const ${y} = ${field};`);
      if (f.isArray) {
        // A plain array copy (`x`) and a second one (`o`) to compare with: a
        // typed array would convert an element write on the spot (300 into
        // a u8 is 44), so the check after fn could not see it. Element
        // writes are checked with the row and stored after fn, never half-applied;
        // on a Read ref a changed element throws read_only_field.
        const o = `o${i}_${j}`;
        const copy = f.count <= INLINE_ARRAY_MAX
          ? `[${Array.from({ length: f.count }, (_, k) => `${H}[${el(k)}]`).join(', ')}]`
          : `copyOf(${H}, ${el(0)}, ${f.count})`;
        load.push(`const ${x} = ${copy};`, `const ${o} = ${copy};`);
        xs.push(o);
        const same = f.count <= INLINE_ARRAY_MAX
          ? `${y}.length === ${f.count} && ${Array.from({ length: f.count }, (_, k) => `Object.is(${y}[${k}], ${o}[${k}])`).join(' && ')}`
          : `sameElements(${y}, ${o})`;
        if (w) {
          const ok = [`typeof v === 'object'`, `v !== null`, `v.length === ${f.count}`];
          if (f.count <= INLINE_ARRAY_MAX) for (let k = 0; k < f.count; k++) ok.push(check(`v[${k}]`));
          else ok.push(`arrayOk(${i}, ${j}, v)`);
          const invalid = `!((v) => ${ok.join(' && ')})(${y})`;
          odd.push(invalid);
          slow.push(`const d${i}_${j} = ${y} !== ${x} || !(${same});`, `if (d${i}_${j} && ${invalid}) bad(${i}, ${j}, ${y});`);
          const st = (idx: (k: number) => string) => f.count <= INLINE_ARRAY_MAX
            ? Array.from({ length: f.count }, (_, k) => `${H}[${idx(k)}] = ${y}[${k}];`).join(' ')
            : `for (let ek = 0; ek < ${f.count}; ek++) ${H}[${idx(0)} + ek] = ${y}[ek];`; // (ek: the walk loop has a k of its own)
          fastStores.push(st(el));
          slowStores.push(`if (d${i}_${j}) { ${st(sel)} }`);
        } else {
          odd.push(`${y} !== ${x} || !(${same})`);
          slow.push(`if (${y} !== ${x} || !(${same})) roArray(${i}, ${j}, ${y}, ${o});`);
        }
      } else {
        load.push(`const ${x} = ${H}[${el(0)}];`);
        const same = FLOAT.has(f.kind) ? `Object.is(${y}, ${x})` : `(${y} === ${x})`;
        if (w) {
          // Any value that does not validate leaves the loop, even an unchanged one (a
          // NaN a C++ system stored): commitSlow lets that pass. Testing `same` here
          // too cost ~0.8 ns per entity (pos += vel), for a case that is rare.
          odd.push(`!${check(y)}`);
          slow.push(`const d${i}_${j} = !${same};`, `if (d${i}_${j} && !${check(y)}) bad(${i}, ${j}, ${y});`);
          fastStores.push(`${H}[${el(0)}] = ${y};`);
          slowStores.push(`if (d${i}_${j}) ${H}[${sel(0)}] = ${y};`);
        } else {
          odd.push(`!${same}`);
          slow.push(`if (!${same}) ro(${i}, ${j});`);
        }
      }
    });
    // One running element index per (component, element size): rows are c.size bytes apart,
    // a multiple of every field's element size.
    for (const sh of shifts) {
      pre.push(`let i${i}_${sh} = (${walk ? 'cur[ac' : 'cols[at'} + ${col}] >>> ${sh}) + start * ${c.size >> sh};`);
      step.push(`i${i}_${sh} += ${c.size >> sh}`);
    }
    if (reuse) {
      // A class per component: fields are accessors over a Float64Array (no
      // boxing of doubles, whatever the callback stores); a non-number is
      // kept aside and reported when the callback returns. Internal slots
      // are $-named (field names cannot contain $), and the accessors are
      // defined with defineProperty so that fields named `constructor` or
      // `toJSON` work like any other.
      const defs = c._layout.map((f, j) => {
        const k = JSON.stringify(f.name);
        const body = f.isArray ? `get() { return this.$a[${j}]; }, set(v) { this.$a[${j}] = v; }`
          : `get() { return this.$s[${j}]; }, set(v) { if (typeof v === 'number') { this.$s[${j}] = v; this.$nb[${j}] = 0; } else { this.$nb[${j}] = 1; this.$o[${j}] = v; this.$any = true; } }`;
        return `Object.defineProperty(C.prototype, ${k}, { ${body}, enumerable: true, configurable: true });`;
      });
      const json = c._layout.map((f, j) => `${JSON.stringify(f.name)}: this.$nb[${j}] ? this.$o[${j}] : ${f.isArray ? `this.$a[${j}]` : `this.$s[${j}]`}`);
      if (!c._layout.some((f) => f.name === 'toJSON')) {
        defs.push(`Object.defineProperty(C.prototype, 'toJSON', { value() { return { ${json.join(', ')} }; } });`);
      }
      const nf = c._layout.length;
      shared.push(`const R${i} = (() => {
        class C { constructor() { this.$s = new Float64Array(${nf}); this.$a = new Array(${nf}).fill(null); this.$nb = new Uint8Array(${nf}); this.$o = new Array(${nf}).fill(null); this.$any = false; } }
        ${defs.join('\n')}
        return new C();
      })();`);
      refs.push(`const v${i} = R${i};`, ...c._layout.map((f, j) => `${f.isArray ? `R${i}.$a` : `R${i}.$s`}[${j}] = x${i}_${j};`));
      // A callback that threw after assigning a non-number left the flag up: clear it per call.
      perCall.push(`if (R${i}.$any) { R${i}.$any = false; R${i}.$nb.fill(0); R${i}.$o.fill(null); }`);
    } else {
      // A one-field ref is made by a constructor whose prototype is
      // Object.prototype: it looks like the literal `{ v }` (same keys,
      // prototype and constructor), but its map is its own. The literal's
      // map is shared with every one-key object `{ v: ... }` in the program
      // (the schema `{ v: 'f32' }` is one); its field then holds any value,
      // and the row's double was boxed and kept (measured, one f32 field
      // doubled: 1.9-3.0 ns per row instead of 0.9). With two or more fields
      // the literal was not affected, and the constructor was slower (two
      // f32 fields: 3.0 vs 2.15 ns per row), so those stay literals.
      const params = c._layout.map((_, j) => `a${j}`);
      if (c._layout.length !== 1) {
        refs.push(`const v${i} = { ${c._layout.map((f, j) => `${JSON.stringify(f.name)}: x${i}_${j}`).join(', ')} };`);
        return;
      }
      shared.push(`function R${i}(${params.join(', ')}) { ${c._layout.map((f, j) => `this[${JSON.stringify(f.name)}] = a${j};`).join(' ')} }`,
        `R${i}.prototype = Object.prototype;`);
      refs.push(`const v${i} = new R${i}(${c._layout.map((_, j) => `x${i}_${j}`).join(', ')});`);
    }
  });
  // The view the epoch test reads (Mem.epoch): one of the loop's own 32- or
  // 64-bit views, so that the test adds no view of its own (else U32).
  const ev = [...heaps].find((h) => h in EPOCH_WORD) ?? 'u32';
  if (epochTest) heaps.add(ev);
  const hs = [...heaps];
  const heapDecl = `${hs.map((h) => `${h.toUpperCase()} = m.${h}`).join(', ')};`;
  const vs = shape.names === null ? comps.map((_, i) => `v${i}`).join(', ')
    : `{ ${[...shape.names.map((n, i) => `${JSON.stringify(n)}: v${i}`), ...shape.absent.map((n) => `${JSON.stringify(n)}: undefined`)].join(', ')} }`;
  const kept = [...ws, ...xs];

  const rowLoop = [
    `for (let r = start; r < rows; r++${step.map((x) => `, ${x}`).join('')}) {`,
    ...load,
    ...refs,
    `f(${entity ? 'U32[hb + r]' : '0'}, ${vs});`,
    ...after,
    `if (${odd.length > 0 ? odd.join(' || ') : 'false'}) {`,
    `stop = r;${kept.map((v) => ` s_${v} = ${v};`).join('')}`,
    `break${walk ? ' walk' : ''};`,
    '}',
    ...fastStores,
    '}',
  ];
  const head = [
    // The views of the heap the loop was made for (the caller never calls it over another: RowLoops.current).
    `const ${hs.map((h) => `${h.toUpperCase()} = C_${h}`).join(', ')};`,
    ...perCall,
    // The values of the row that left the loop (stop >= 0), for commitSlow.
    `let stop = -1${kept.map((v) => `, s_${v}`).join('')};`,
    // Mem.epoch as the loop's view reads it: constant while the loop runs,
    // a change leaves it; a view detached by a growth nobody re-derived yet
    // (any allocating call) reads undefined, and leaves it too.
    ...(epochTest ? [`const EV = ${ev.toUpperCase()}, EWI = ${EPOCH_WORD[ev]!}, E0 = EV[EWI];`] : []),
  ];
  const loop = !walk ? [
    ...head,
    ...pre,
    ...rowLoop,
    `if (stop >= 0) { commitSlow(m, stop, cols, at${kept.map((v) => `, s_${v}`).join('')}); return stop + 1; }`,
    'return rows;',
  ].join('\n') : [
    ...head,
    // `break walk` leaves k and at on the archetype of the row that left.
    'let at = k * stride;',
    'walk: for (; k < count; k++, at += stride, start = 0) {',
    'const rows = cur[at + 1];',
    'const ac = at + header;',
    ...pre,
    ...rowLoop,
    'hb += rows;',
    '}',
    `if (stop >= 0) { commitSlow(m, stop, cur, at + header${kept.map((v) => `, s_${v}`).join('')}); st[0] = k; st[1] = stop + 1; st[2] = hb; return false; }`,
    'return true;',
  ].join('\n');
  const commit = ['m.sync();', `const ${heapDecl}`, ...slow, ...slowStores].join('\n');
  const { copyOf, sameElements, arrayOk, ro, roArray, bad, nonNumber } = rowErrors(comps);
  // The serial makes every source unique: V8 caches `new Function` by source
  // text and the cached copies share type feedback, which would make the
  // callback call site polymorphic again (measured: 18-22 ns instead of 6).
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const make = new Function('copyOf', 'sameElements', 'arrayOk', 'ro', 'roArray', 'bad', 'nonNumber', 'm', [
    `// row loop ${++loopSerial}`,
    `const ${hs.map((h) => `C_${h} = m.${h}`).join(', ')};`,
    ...shared,
    `function commitSlow(m, r, cols, at${kept.map((v) => `, ${v}`).join('')}) {\n${commit}\n}`,
    walk ? `return function walkLoop(f, m, hb, cur, k, count, stride, header, start, st) {\n${loop}\n};`
      : `return function rowLoop(f, m, hb, start, rows, cols, at) {\n${loop}\n};`,
  ].join('\n')) as (...h: unknown[]) => RowLoop | WalkLoop;
  return (m) => {
    m.sync();
    return make(copyOf, sameElements, arrayOk, ro, roArray, bad, nonNumber, m);
  };
}

/** @internal Which row loops World.each may use (World._eachLoops; tests pin one). */
export type EachLoopMode = 'auto' | 'shared' | 'interpreted';

let codegenAvailable = true;
let loopSerial = 0;

/**
 * @internal Whether a callback may read its first parameter (the entity),
 * judged from its source: false only when that parameter is a plain
 * identifier that appears nowhere else in the source, and the source has no
 * `arguments`, `eval` or `\u` escape (the ways to reach a parameter without
 * spelling its name). Anything this does not recognise counts as reading
 * it. Not seen: another function reading it through the deprecated
 * sloppy-mode `fn.arguments` while fn runs (it gets 0 there). Skipping the entity saves the handle load per row and the fill of the
 * handle buffer per call (measured, pos += vel: ~1.4 ns of ~6.5 per entity).
 */
export function takesEntity(src: string): boolean {
  if (/\barguments\b|\beval\b|\\u/.test(src)) return true;
  const ident = '[A-Za-z_$][\\w$]*';
  let name: string | undefined = new RegExp(`^\\s*(?:async\\s+)?(${ident})\\s*=>`).exec(src)?.[1];
  if (name === undefined) {
    const open = src.indexOf('(');
    if (open < 0) return true;
    // Before the parameter list: nothing (an arrow), `function [name]`, or a method name.
    const head = new RegExp(`^\\s*(?:async\\s+)?(?:function\\s*\\*?\\s*(?:${ident})?|\\*?\\s*${ident})?\\s*$`);
    if (!head.test(src.slice(0, open))) return true;
    name = new RegExp(`^\\(\\s*(${ident})\\s*[,)]`).exec(src.slice(open))?.[1];
    if (name === undefined) return true;
  }
  const uses = src.match(new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'));
  return uses === null || uses.length !== 1;
}

/** @internal The loops of one callback: whether it gets the entity (else the caller fills no handles), and one loop per optional-term mask. */
export interface RowLoopPlan {
  readonly entity: boolean;
  /** One shared loop with reused refs (a long callback), or the interpreted one. */
  readonly kind: 'inline' | 'reuse' | 'interpreted';
  /** The callback provably calls nothing (call_free.ts): its loops leave out the per-row epoch test. */
  readonly callFree?: boolean;
  /** By mask (bit j: optional term j is present in the archetype), generated on first use. */
  readonly loops: (RowLoop | undefined)[];
  /** The factories of the generated ones among `loops`, by mask (RowLoops.current). */
  readonly makers: (LoopMaker<RowLoop> | undefined)[];
  /** The walk over all archetypes (RowLoops.walk; undefined: not asked yet; null: none, run `loops`). */
  walk?: WalkLoop | null;
  /** The factory of `walk` when it was generated. */
  walkMaker?: LoopMaker<WalkLoop>;
  /** The byte view of the wasm heap the generated loops above hold views of (RowLoops.current). */
  heap?: Uint8Array;
}

/**
 * @internal The row loops of one query: a generated one per callback source
 * (so that the call site in each loop sees one function and V8 inlines it),
 * one generated with reused refs for every long callback (one with and one
 * without the entity), and the interpreted one for worlds with code
 * generation switched off and when `new Function` is refused. They belong
 * to one query, so two queries never share a loop (only the same query
 * given the same callback text from two places does).
 *
 * `comps`: the ref terms, then (from `optionalFrom`) the optional terms, in
 * cursor column order; `names` null for positional refs (World.each).
 */
export class RowLoops {
  readonly #comps: readonly Component[];
  readonly #write: readonly boolean[];
  readonly #names: readonly string[] | null;
  readonly #optionalFrom: number;
  readonly #bySource = new Map<string, RowLoopPlan>();
  readonly #long: (RowLoopPlan | null)[] = [null, null];
  #interpreted: RowLoopPlan | null = null;
  #refBindings: RefBindings | null = null;

  // What call_free.ts needs to know of the refs: each ref's field names, by position or by term name.
  #bindings(): RefBindings {
    if (this.#refBindings !== null) return this.#refBindings;
    const fields = this.#comps.map((c) => c._layout.map((f) => f.name));
    const arrays = new Map<string | number, ReadonlySet<string>>();
    this.#comps.forEach((c, i) => arrays.set(this.#names?.[i] ?? i, new Set(c._layout.filter((f) => f.isArray).map((f) => f.name))));
    const names = this.#names;
    this.#refBindings = names === null ? { positional: fields, named: null, arrays }
      : { positional: null, named: new Map(names.map((n, i) => [n, fields[i]!])), arrays };
    return this.#refBindings;
  }

  constructor(comps: readonly Component[], write: readonly boolean[], names: readonly string[] | null, optionalFrom = comps.length) {
    this.#comps = comps;
    this.#write = write;
    this.#names = names;
    this.#optionalFrom = optionalFrom;
  }

  /**
   * The plan for `fn`: 'auto' = generated for it (on first use) when its
   * source is short enough to inline, else the shared loop with reused refs;
   * 'shared' = always that one; 'interpreted' = never generate (tests).
   */
  forFn(fn: (...args: unknown[]) => void, mode: EachLoopMode): RowLoopPlan {
    if (mode !== 'interpreted' && codegenAvailable) {
      const src = Function.prototype.toString.call(fn);
      if (mode === 'shared' || src.length > INLINE_SOURCE_LIMIT) {
        const entity = takesEntity(src);
        return (this.#long[entity ? 1 : 0] ??= { entity, kind: 'reuse', loops: [], makers: [] });
      }
      let plan = this.#bySource.get(src);
      if (plan === undefined) {
        if (this.#bySource.size >= LOOPS_PER_QUERY) this.#bySource.delete(this.#bySource.keys().next().value!);
        plan = { entity: takesEntity(src), kind: 'inline', loops: [], makers: [], callFree: callFree(src, this.#bindings()) };
        this.#bySource.set(src, plan);
      }
      return plan;
    }
    return (this.#interpreted ??= { entity: true, kind: 'interpreted', loops: [], makers: [] });
  }

  /**
   * The walk of `plan` over every archetype (generated on first use), or
   * null: a query with optional terms (its archetypes take one loop per
   * mask) or the interpreted plan.
   */
  walk(plan: RowLoopPlan, m: Mem): WalkLoop | null {
    if (plan.walk !== undefined) return plan.walk;
    let run: WalkLoop | null = null;
    if (plan.kind !== 'interpreted' && this.#optionalFrom === this.#comps.length) {
      try {
        const make = makeWalkLoop(this.#comps, this.#write, plan.kind === 'reuse', plan.entity,
          { names: this.#names, cols: this.#comps.map((_, i) => i), absent: [] }, plan.callFree !== true);
        run = make(m);
        plan.walkMaker = make;
      } catch (e) {
        if (!(e instanceof EvalError)) throw e; // as in loop()
        codegenAvailable = false;
      }
    }
    plan.walk = run;
    return run;
  }

  /**
   * Makes `plan`'s loops usable over `m`'s current heap: a generated loop
   * holds the views of the heap it was made for (constants of its code, see
   * generate), so after memory growth replaced the heap each is made again
   * over the new one, by its factory (a new closure of the same compiled
   * source: ~0.3 ms less per loop than compiling it again, measured at the
   * first call after a growth). Call after m.sync(), before every call of
   * one of its loops; false when it made them again.
   */
  current(plan: RowLoopPlan, m: Mem): boolean {
    // (the views are replaced exactly when the heap is: Mem.reload)
    const heap = m.u8;
    if (plan.heap === heap || plan.kind === 'interpreted') return true;
    plan.heap = heap;
    const { loops, makers } = plan;
    for (let i = 0; i < loops.length; i++) {
      const make = makers[i];
      if (make !== undefined) loops[i] = make(m);
    }
    if (plan.walkMaker !== undefined) plan.walk = plan.walkMaker(m);
    return false;
  }

  /** The loop of `plan` for archetypes with optional-term mask `mask` (generated on first use). */
  loop(plan: RowLoopPlan, mask: number, m: Mem): RowLoop {
    const hit = plan.loops[mask];
    if (hit !== undefined) return hit;
    const comps: Component[] = [];
    const write: boolean[] = [];
    const cols: number[] = [];
    const names: string[] = [];
    const absent: string[] = [];
    this.#comps.forEach((c, i) => {
      const name = this.#names?.[i] ?? '';
      if (i >= this.#optionalFrom && (mask & (1 << (i - this.#optionalFrom))) === 0) {
        absent.push(name);
        return;
      }
      comps.push(c);
      write.push(this.#write[i]!);
      cols.push(i);
      names.push(name);
    });
    const shape: RefShape = { names: this.#names === null ? null : names, cols, absent };
    let run: RowLoop | undefined;
    if (plan.kind !== 'interpreted') {
      try {
        const make = makeRowLoop(comps, write, plan.kind === 'reuse', plan.entity, shape, plan.callFree !== true);
        run = make(m);
        plan.makers[mask] = make;
      } catch (e) {
        // A Content-Security-Policy without 'unsafe-eval' refuses `new Function`
        // with an EvalError; anything else is a bug here and must be seen.
        if (!(e instanceof EvalError)) throw e;
        codegenAvailable = false;
      }
    }
    run ??= makeInterpretedRowLoop(comps, write, shape);
    plan.loops[mask] = run;
    return run;
  }
}
