// chunk.ts - one matched archetype of an eachChunk walk: the archetype's
// columns as views of the wasm heap. A Chunk dies when its call returns.
import type { Component } from '../component/component.js';
import type { Entity } from '../component/entity.js';
import { invalid, typeName } from '../base/errors.js';
import type { Mem } from '../boundary/raw.js';
import { type KindOf, type Schema, type ScalarKind, type TypedArrayOf, heapOf, kindSize } from '../component/schema.js';
import { describe } from '../base/describe.js';
import { type RunningSystem, ioViolation, usedAfterCall } from '../systems/system_io.js';
import type { WorldCore } from '../core/world_core.js';
import { IterationCursorLayout } from '../boundary/layouts.gen.js';
import { INSPECT, count } from '../base/inspect.js';

// Words before the column pointers in one iteration cursor (web/layouts.json).
const CURSOR_HEADER = IterationCursorLayout.size;

/** One field of one archetype's column: `array[index + row * stride + i]` is element i of `row`. */
export interface FieldColumn<K extends ScalarKind> {
  /** The wasm heap as this field's typed array: a write through it is stored unchecked, as the typed array converts it; dies when memory grows (re-derive, never keep). */
  readonly array: TypedArrayOf<K>;
  /** Element index of row 0's field. */
  readonly index: number;
  /** Elements between two rows. */
  readonly stride: number;
  /** Elements of the field (1, or the fixed array length). */
  readonly count: number;
}

/** One matched archetype in eachChunk: rows in ascending slot order. Valid during its call only. */
export interface Chunk {
  /** The archetype id. */
  readonly archetype: number;
  /** Rows (entities) in this archetype. */
  readonly rows: number;
  /** The entity of `row`. */
  entity(row: number): Entity;
  /** True when this archetype has `component` (an optional term may be absent). */
  has(component: Component): boolean;
  /** The column of one field of a listed component (a term or an optional term the archetype has). */
  field<S extends Schema, K extends keyof S & string>(component: Component<S>, name: K): FieldColumn<KindOf<S[K]>>;
}

/** @internal */
export class ChunkImpl implements Chunk {
  readonly archetype: number;
  readonly rows: number;
  readonly #world: WorldCore;
  readonly #m: Mem;
  readonly #comps: readonly Component[];
  readonly #readIds: Uint8Array;
  readonly #cur: Uint32Array;
  readonly #k: number;
  readonly #sys: RunningSystem | null;
  #handles = -1;
  #open = true;
  /** Inside a system: copies of the read columns handed out, checked when the call returns. */
  #kept: Array<{ component: Component; at: number; bytes: Uint8Array }> | null = null;

  constructor(world: WorldCore, m: Mem, comps: readonly Component[], readIds: Uint8Array, cur: Uint32Array, k: number,
    rows: number, sys: RunningSystem | null) {
    this.#world = world;
    this.#m = m;
    this.#comps = comps;
    this.#readIds = readIds;
    this.#cur = cur;
    this.#k = k;
    this.#sys = sys;
    this.archetype = cur[k]!;
    this.rows = rows;
  }

  /** "Chunk(archetype 3, 100 rows)". */
  toString(): string {
    return this.#open ? `Chunk(archetype ${this.archetype}, ${count(this.rows, 'row')})` : `Chunk(archetype ${this.archetype}, call returned)`;
  }

  /** @internal util.inspect / console.log (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }

  #alive(where: string): void {
    if (!this.#open) throw usedAfterCall(where, 'Chunk', `${where}: this Chunk belongs to an eachChunk call that has returned (use a chunk during its call only)`);
  }

  entity(row: number): Entity {
    this.#alive('Chunk.entity');
    if (!Number.isInteger(row) || row < 0 || row >= this.rows) {
      throw invalid(`Chunk.entity: row ${describe(row)} outside 0..${this.rows - 1}`, typeof row === 'number' ? 'out_of_range' : 'wrong_type',
        { where: 'Chunk.entity', field: 'row', got: typeof row === 'number' ? row : typeName(row), min: 0, max: this.rows - 1 });
    }
    if (this.#handles < 0) {
      this.#handles = this.#world.handleBuffer();
      this.#world.raw.worldFillHandles(this.#world.ptr, this.#cur[this.#k + 2]!, this.rows, this.#handles);
    }
    return this.#m.u32[(this.#handles >>> 2) + row]!;
  }

  has(component: Component): boolean {
    this.#alive('Chunk.has');
    const i = this.#comps.indexOf(component);
    return i >= 0 && this.#cur[this.#k + CURSOR_HEADER + i] !== 0;
  }

  field<S extends Schema, K extends keyof S & string>(component: Component<S>, name: K): FieldColumn<KindOf<S[K]>> {
    this.#alive('Chunk.field');
    const i = this.#comps.indexOf(component as unknown as Component);
    if (i < 0) throw invalid(`Chunk.field: ${describe(component)} is not listed in this query`, 'unknown_component', { where: 'Chunk.field', field: 'component', got: component instanceof Object && 'name' in component ? String(component.name) : typeName(component) });
    const c = this.#comps[i]!;
    const f = c._byName.get(name);
    if (f === undefined) throw invalid(`Chunk.field: ${c.name} has no field ${describe(name)}`, 'unknown_field', { where: 'Chunk.field', component: c.name, field: String(name) });
    const col = this.#cur[this.#k + CURSOR_HEADER + i]!;
    if (col === 0) throw invalid(`Chunk.field: archetype ${this.archetype} lacks the optional ${c.name} (test chunk.has first)`, 'component_missing', { where: 'Chunk.field', component: c.name });
    this.#m.sync();
    // Inside a system a read column is kept aside, to be checked when the call returns.
    if (this.#sys !== null && this.#readIds[c.id] !== 0 && !(this.#kept ??= []).some((k) => k.component === c)) {
      this.#kept.push({ component: c, at: col, bytes: this.#m.u8.slice(col, col + this.rows * c.size) });
    }
    const size = kindSize(f.kind);
    // Indices by shifts, not `/`: a quotient is a double to V8 even when it
    // is whole, and a loop counting from a double index may convert it at
    // every element access (pos += vel over 10,000 rows, eachChunk against
    // the same loop over plain arrays: 1.23x with `/`, 1.18x with shifts).
    const shift = 31 - Math.clz32(size);
    return {
      array: heapOf(this.#m, f.kind) as TypedArrayOf<KindOf<S[K]>>,
      index: (col + f.offset) >>> shift,
      stride: c.size >>> shift,
      count: f.count,
    };
  }

  /**
   * @internal Ends the chunk's call. Inside a system: a read column that
   * changed is put back and the call throws system_io_violation (the
   * matched archetype cannot move or grow while the guard is live, so the
   * column is where it was).
   */
  _close(): void {
    this.#open = false;
    const kept = this.#kept;
    if (kept === null) return;
    this.#kept = null;
    const m = this.#m;
    m.sync();
    for (const k of kept) {
      const now = m.u8.subarray(k.at, k.at + k.bytes.length);
      let same = true;
      for (let b = 0; b < now.length; b++) if (now[b] !== k.bytes[b]) { same = false; break; }
      if (same) continue;
      for (const r of kept) m.u8.set(r.bytes, r.at);
      throw ioViolation(this.#sys!, k.component, 'write', 'eachChunk: a column of a read term was written');
    }
  }
}
