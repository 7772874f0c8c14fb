// query.ts - World.each and World.eachChunk from TypeScript (DESIGN.md
// decision 5; seed 004): the C++ iteration guard is installed for the whole
// walk (beginIteration / endIteration in try/finally), and the callbacks run
// over views of the archetype columns in wasm memory, one archetype at a
// time, rows in ascending slot order.
import type { Access, Component } from './component.js';
import { type RowLoopPlan, RowLoops } from './row_loop.js';
import type { Entity } from './entity.js';
import { invalid } from './errors.js';
import type { Mem } from './raw.js';
import { type KindOf, type Schema, type TypedArrayOf, describe, heapOf, kindSize } from './schema.js';
import type { World } from './world.js';

/** One field of one archetype's column: `array[index + row * stride + i]` is element i of `row`. */
export interface FieldColumn<K extends import('./schema.js').ScalarKind> {
  /** The wasm heap as this field's typed array; dies when memory grows (re-derive, never keep). */
  readonly array: TypedArrayOf<K>;
  /** Element index of row 0's field. */
  readonly index: number;
  /** Elements between two rows. */
  readonly stride: number;
  /** Elements of the field (1, or the fixed array length). */
  readonly count: number;
}

/** One matched archetype in World.eachChunk: rows in ascending slot order. */
export interface Chunk {
  /** The archetype id. */
  readonly archetype: number;
  /** Rows (entities) in this archetype. */
  readonly rows: number;
  /** The entity of `row`. */
  entity(row: number): Entity;
  /** The column of one field of a listed component. */
  field<S extends Schema, K extends keyof S & string>(component: Component<S>, name: K): FieldColumn<KindOf<S[K]>>;
}


type RowFn = (...args: unknown[]) => void;

/** @internal World.each. */
export function runEach(world: World, components: unknown, access: unknown, fn: RowFn): void {
  const where = 'World.each';
  world._live(where);
  const comps = world._query(where, components, access);
  if (typeof fn !== 'function') throw invalid(`${where}: fn must be a function, got ${describe(fn)}`);
  const n = comps.length;
  const cur = world._begin(where, n);
  try {
    if (n === 0) {
      eachEntity(world, fn);
      return;
    }
    const stride = 3 + n;
    const plan = rowLoopFor(world, comps, access as readonly Access[], fn);
    const loop = plan.run;
    // The entity argument: every matched row's handle, archetype after
    // archetype, in the world's handle buffer (rows are live under the guard).
    const hbuf = plan.entity ? world._handleBuffer() : 0;
    if (plan.entity) {
      for (let k = 0, off = 0; k < cur.length; k += stride) {
        const rows = cur[k + 1]!;
        if (rows !== 0) world._raw.worldFillHandles(world._ptr, cur[k + 2]!, rows, hbuf + off * 4);
        off += rows;
      }
    }
    const m = world._mem;
    let hb = hbuf >>> 2;
    for (let k = 0; k < cur.length; k += stride) {
      const rows = cur[k + 1]!;
      for (let r = 0; r < rows;) r = loop(fn, m, hb, r, rows, cur, k + 3);
      hb += rows;
    }
  } finally {
    world._end();
  }
}

// The row loop of this query shape for this callback (row_loop.ts): the
// loop generated for it, or the interpreted one.
function rowLoopFor(world: World, comps: Component[], access: readonly Access[], fn: RowFn): RowLoopPlan {
  let key = '';
  for (let i = 0; i < comps.length; i++) key += `${comps[i]!.id}${access[i] === 'write' ? 'w' : 'r'},`;
  let loops = world._rowLoops.get(key);
  if (loops === undefined) {
    loops = new RowLoops(comps, access.map((a) => a === 'write'));
    world._rowLoops.set(key, loops);
  }
  return loops.forFn(fn, world._eachLoops);
}

// The empty query: every live entity in ascending slot id, except those
// the callback created (docs/query.md#entities-created-during-an-iteration):
// worldIterationHandleAt reads them as absent, in any slot.
function eachEntity(world: World, fn: RowFn): void {
  const w = world._ptr;
  const cap = world._options.capacity;
  let bound = 0;
  for (let id = cap - 1; id >= 0; id--) {
    if (world._raw.worldHandleAt(w, id) !== 0) {
      bound = id + 1;
      break;
    }
  }
  for (let id = 0; id < bound; id++) {
    const h = world._raw.worldIterationHandleAt(w, id);
    if (h !== 0) fn(h);
  }
}

/** @internal World.eachChunk. */
export function runEachChunk(world: World, components: unknown, access: unknown, fn: (chunk: Chunk) => void): void {
  const where = 'World.eachChunk';
  world._live(where);
  const comps = world._query(where, components, access);
  if (typeof fn !== 'function') throw invalid(`${where}: fn must be a function, got ${describe(fn)}`);
  const n = comps.length;
  const cur = world._begin(where, n);
  try {
    const stride = 3 + n;
    const m = world._mem;
    for (let k = 0; k < cur.length; k += stride) {
      const rows = cur[k + 1]!;
      if (rows === 0) continue;
      fn(new ChunkImpl(world, m, comps, cur, k, rows));
    }
  } finally {
    world._end();
  }
}

class ChunkImpl implements Chunk {
  readonly archetype: number;
  readonly rows: number;
  readonly #world: World;
  readonly #m: Mem;
  readonly #comps: Component[];
  readonly #cur: Uint32Array;
  readonly #k: number;
  #handles = -1;

  constructor(world: World, m: Mem, comps: Component[], cur: Uint32Array, k: number, rows: number) {
    this.#world = world;
    this.#m = m;
    this.#comps = comps;
    this.#cur = cur;
    this.#k = k;
    this.archetype = cur[k]!;
    this.rows = rows;
  }

  entity(row: number): Entity {
    if (!Number.isInteger(row) || row < 0 || row >= this.rows) throw invalid(`Chunk.entity: row ${describe(row)} outside 0..${this.rows - 1}`);
    if (this.#handles < 0) {
      this.#handles = this.#world._handleBuffer();
      this.#world._raw.worldFillHandles(this.#world._ptr, this.#cur[this.#k + 2]!, this.rows, this.#handles);
    }
    return this.#m.u32[(this.#handles >>> 2) + row]!;
  }

  field<S extends Schema, K extends keyof S & string>(component: Component<S>, name: K): FieldColumn<KindOf<S[K]>> {
    const i = this.#comps.indexOf(component as unknown as Component);
    if (i < 0) throw invalid(`Chunk.field: ${describe(component)} is not listed in this query`);
    const f = this.#comps[i]!._byName.get(name);
    if (f === undefined) throw invalid(`Chunk.field: ${this.#comps[i]!.name} has no field ${describe(name)}`);
    const size = kindSize(f.kind);
    const col = this.#cur[this.#k + 3 + i]!;
    this.#m.sync();
    return {
      array: heapOf(this.#m, f.kind) as TypedArrayOf<KindOf<S[K]>>,
      index: (col + f.offset) / size,
      stride: this.#comps[i]!.size / size,
      count: f.count,
    };
  }
}

