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

/** @internal One field's column recipe in a query's eachChunk: what Chunk.field computes once per (term, field name), not per chunk. */
interface FieldPlan {
  readonly name: string;
  readonly kind: ScalarKind;
  /** Byte offset of the field in the component. */
  readonly offset: number;
  /** log2 of the element size: byte address >>> shift is the element index. */
  readonly shift: number;
  /** Elements between two rows. */
  readonly stride: number;
  readonly count: number;
}

/**
 * @internal What every Chunk of one query shares (made once per query): the
 * query's terms and read ids, the field plans, and what the current
 * eachChunk call set (begin): its cursor table and running system, and
 * the chunk whose call is running (`open`; a Chunk is usable while it is
 * the open one) with that call's handles and kept read columns. The walk
 * opens a chunk, calls fn and closes it; when fn throws, the caller's
 * finally closes it (closeOpen), so the walk needs no try block around the
 * call of fn.
 *
 * Why: V8 inlines a callback it sees at a monomorphic call site, and a
 * loop inlined inside a try is compiled with exception edges and runs
 * slower (row_walk.ts); and a chunk's fixed cost (a Chunk, a field lookup,
 * the call) is paid per matched archetype, where each's walk pays a few
 * loads per archetype: a Chunk is four fields, a field's plan is found by
 * name in a short list.
 */
export class ChunkScope {
  readonly comps: readonly Component[];
  readonly readIds: Uint8Array;
  /** By term: the plans of the fields asked for so far (a short list, searched by name). */
  readonly #plans: FieldPlan[][];
  world!: WorldCore;
  m!: Mem;
  cur!: Uint32Array;
  sys: RunningSystem | null = null;
  /** The chunk whose call is running, or null. */
  open: ChunkImpl | null = null;
  /** The open chunk's entity handles in the world's handle buffer (-1: not fetched yet). */
  handles = -1;
  /** Inside a system: copies of the read columns the open chunk handed out, checked when its call returns. */
  kept: Array<{ component: Component; at: number; bytes: Uint8Array }> | null = null;

  constructor(comps: readonly Component[], readIds: Uint8Array) {
    this.comps = comps;
    this.readIds = readIds;
    this.#plans = comps.map(() => []);
  }

  /** Sets what one eachChunk call's chunks read. */
  begin(world: WorldCore, cur: Uint32Array): void {
    this.world = world;
    this.m = world.mem;
    this.cur = cur;
    this.sys = world.sys;
    this.open = null;
    this.handles = -1;
    this.kept = null;
  }

  /**
   * Ends the open chunk's call. Inside a system: a read column that
   * changed is put back and the call throws system_io_violation (the
   * matched archetype cannot move or grow while the guard is live, so the
   * column is where it was).
   */
  close(): void {
    this.open = null;
    this.handles = -1;
    const kept = this.kept;
    if (kept === null) return;
    this.kept = null;
    const m = this.m;
    m.sync();
    for (const k of kept) {
      const now = m.u8.subarray(k.at, k.at + k.bytes.length);
      let same = true;
      for (let b = 0; b < now.length; b++) if (now[b] !== k.bytes[b]) { same = false; break; }
      if (same) continue;
      for (const r of kept) m.u8.set(r.bytes, r.at);
      throw ioViolation(this.sys!, k.component, 'write', 'eachChunk: a column of a read term was written');
    }
  }

  /** Closes the chunk whose call threw (from the caller's finally; may throw system_io_violation, as close does). */
  closeOpen(): void {
    if (this.open !== null) this.close();
  }

  /** Keeps a copy of a read column the open chunk hands out (once per component). */
  keep(c: Component, col: number, rows: number): void {
    if ((this.kept ??= []).some((k) => k.component === c)) return;
    this.kept.push({ component: c, at: col, bytes: this.m.u8.slice(col, col + rows * c.size) });
  }

  /** The plan of field `name` of term `i`, or undefined when the component has no such field. */
  plan(i: number, name: unknown): FieldPlan | undefined {
    const plans = this.#plans[i]!;
    for (let j = 0; j < plans.length; j++) if (plans[j]!.name === name) return plans[j];
    return this.#newPlan(i, name);
  }

  #newPlan(i: number, name: unknown): FieldPlan | undefined {
    const c = this.comps[i]!;
    const f = typeof name === 'string' ? c._byName.get(name) : undefined;
    if (f === undefined) return undefined;
    // Indices by shifts, not `/`: a quotient is a double to V8 even when it
    // is whole, and a loop counting from a double index may convert it at
    // every element access (pos += vel over 10,000 rows, eachChunk against
    // the same loop over plain arrays: 1.23x with `/`, 1.18x with shifts).
    const shift = 31 - Math.clz32(kindSize(f.kind));
    const p: FieldPlan = { name: f.name, kind: f.kind, offset: f.offset, shift, stride: c.size >>> shift, count: f.count };
    this.#plans[i]!.push(p);
    return p;
  }
}

/** @internal */
export class ChunkImpl implements Chunk {
  readonly archetype: number;
  readonly rows: number;
  readonly #s: ChunkScope;
  /** This chunk's cursor: words at #k of the scope's table (read while it is the open chunk). */
  readonly #k: number;

  constructor(s: ChunkScope, k: number, rows: number) {
    this.#s = s;
    this.#k = k;
    this.archetype = s.cur[k]!;
    this.rows = rows;
  }

  /** "Chunk(archetype 3, 100 rows)". */
  toString(): string {
    return this.#s.open === this ? `Chunk(archetype ${this.archetype}, ${count(this.rows, 'row')})` : `Chunk(archetype ${this.archetype}, call returned)`;
  }

  /** @internal util.inspect / console.log (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }

  entity(row: number): Entity {
    const s = this.#s;
    if (s.open !== this) closedChunk('Chunk.entity');
    if (!Number.isInteger(row) || row < 0 || row >= this.rows) {
      throw invalid(`Chunk.entity: row ${describe(row)} outside 0..${this.rows - 1}`, typeof row === 'number' ? 'out_of_range' : 'wrong_type',
        { where: 'Chunk.entity', field: 'row', got: typeof row === 'number' ? row : typeName(row), min: 0, max: this.rows - 1 });
    }
    if (s.handles < 0) {
      s.handles = s.world.handleBuffer();
      s.world.raw.worldFillHandles(s.world.ptr, s.cur[this.#k + 2]!, this.rows, s.handles);
    }
    return s.m.u32[(s.handles >>> 2) + row]!;
  }

  has(component: Component): boolean {
    const s = this.#s;
    if (s.open !== this) closedChunk('Chunk.has');
    const i = s.comps.indexOf(component);
    return i >= 0 && s.cur[this.#k + CURSOR_HEADER + i] !== 0;
  }

  // Kept small, its errors out of line: V8 then inlines it into the
  // callback, and the column object it returns need not be allocated.
  field<S extends Schema, K extends keyof S & string>(component: Component<S>, name: K): FieldColumn<KindOf<S[K]>> {
    const s = this.#s;
    if (s.open !== this) closedChunk('Chunk.field');
    const i = s.comps.indexOf(component as unknown as Component);
    const p = i < 0 ? undefined : s.plan(i, name);
    const col = p === undefined ? 0 : s.cur[this.#k + CURSOR_HEADER + i]!;
    if (col === 0) fieldError(this.archetype, s, component, name);
    const m = s.m;
    m.sync();
    // Inside a system a read column is kept aside, to be checked when the call returns.
    if (s.sys !== null && s.readIds[s.comps[i]!.id] !== 0) s.keep(s.comps[i]!, col, this.rows);
    return { array: heapOf(m, p!.kind) as TypedArrayOf<KindOf<S[K]>>, index: (col + p!.offset) >>> p!.shift, stride: p!.stride, count: p!.count };
  }
}
function closedChunk(where: string): never {
  throw usedAfterCall(where, 'Chunk', `${where}: this Chunk belongs to an eachChunk call that has returned (use a chunk during its call only)`);
}

// Chunk.field's refusals, in the order they were checked before plans: a
// component the query does not list, a field it lacks, an optional term
// this archetype lacks.
function fieldError(archetype: number, s: ChunkScope, component: unknown, name: unknown): never {
  const i = s.comps.indexOf(component as Component);
  if (i < 0) throw invalid(`Chunk.field: ${describe(component)} is not listed in this query`, 'unknown_component', { where: 'Chunk.field', field: 'component', got: component instanceof Object && 'name' in component ? String(component.name) : typeName(component) });
  const c = s.comps[i]!;
  if (s.plan(i, name) === undefined) throw invalid(`Chunk.field: ${c.name} has no field ${describe(name)}`, 'unknown_field', { where: 'Chunk.field', component: c.name, field: String(name) });
  throw invalid(`Chunk.field: archetype ${archetype} lacks the optional ${c.name} (test chunk.has first)`, 'component_missing', { where: 'Chunk.field', component: c.name });
}
