// field_handle.ts - one field of a component read or written for one
// entity without building an object: `Position.field.x.get(e)`,
// `Position.field.x.set(e, 3)`. The handle is generation-checked like every
// entity access; set is validated like World.add and obeys the same rules
// (a live each's read terms, a running system's io).
import type { ArrayFieldHandle, Component, FieldHandles, ScalarFieldHandle } from './component.js';
import { type Entity, formatEntity } from './entity.js';
import { invalid, typeName } from '../base/errors.js';
import type { Mem } from '../boundary/raw.js';
import { type FieldLayout, type Schema, type ScalarKind, HEAP_OF, badScalar, scalarOk } from './schema.js';
import { describe } from '../base/describe.js';
import { checkAccess } from '../systems/system_io.js';
import { logHandlers, refuseInsideLog } from '../base/reentrancy.js';
import { INSPECT } from '../base/inspect.js';
import { type ColumnPlaces, fastTablesOf, refilledAddress, slotTablesOf } from '../core/slot_tables.js';
import type { WorldCore } from '../core/world_core.js';

export type { ScalarFieldHandle, ArrayFieldHandle, FieldHandles };

type Heap = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;
const HEAP: Readonly<Record<string, (m: Mem) => Heap>> = {
  i8: (m) => m.i8, u8: (m) => m.u8, i16: (m) => m.i16, u16: (m) => m.u16,
  i32: (m) => m.i32, u32: (m) => m.u32, f32: (m) => m.f32, f64: (m) => m.f64,
};

// The heap a field's elements live in, as a switch case (one call site per
// case keeps every load monomorphic whatever the mix of handles).
const HEAP_CODE: Readonly<Record<string, number>> = { f32: 0, f64: 1, i32: 2, u32: 3, i16: 4, u16: 5, i8: 6, u8: 7 };

// The scalar of heap `code` at byte address `at`.
function loadScalar(m: Mem, code: number, at: number): number {
  switch (code) {
    case 0: return m.f32[at >> 2]!;
    case 1: return m.f64[at >> 3]!;
    case 2: return m.i32[at >> 2]!;
    case 3: return m.u32[at >> 2]!;
    case 4: return m.i16[at >> 1]!;
    case 5: return m.u16[at >> 1]!;
    case 6: return m.i8[at]!;
    default: return m.u8[at]!;
  }
}

class FieldHandleImpl implements ScalarFieldHandle {
  /** The read: a closure of this handle's own (makeGetter), made again when the tables it holds were replaced. */
  get: (e: Entity, i?: number) => number;
  /** The generation table view the current get holds. */
  _gen: Uint16Array | null = null;
  readonly _size: number;
  readonly _offset: number;
  readonly #c: Component;
  readonly _world: WorldCore;
  readonly _columns: ColumnPlaces;
  readonly _id: number;
  readonly _heapCode: number;
  readonly _scalar: boolean;
  readonly #f: FieldLayout;
  readonly #shift: number;
  readonly #heap: (m: Mem) => Heap;
  readonly #ok: (v: unknown) => boolean;
  readonly #where: string;

  constructor(c: Component, f: FieldLayout) {
    this.#c = c;
    this._world = c._owner as WorldCore;
    this._columns = c._columns;
    this._id = c.id;
    this._size = c.size;
    this._offset = f.offset;
    this.#f = f;
    this._scalar = !f.isArray;
    const [heap, shift] = HEAP_OF[f.kind];
    this._heapCode = HEAP_CODE[heap]!;
    this.#shift = shift;
    this.#heap = HEAP[heap]!;
    this.#ok = scalarOk(f.kind);
    this.#where = `${c.name}.field.${f.name}`;
    if (this._world.ptr !== 0) fastTablesOf(this._world);
    this.get = makeGetter(this);
  }

  // The byte address of the field of live `e` (after the checks), or throws.
  #at(e: unknown, access: 'read' | 'write', i: unknown): number {
    const world = this.#c._owner as WorldCore;
    const w = world.ptr;
    if (w === 0) world.live(this.#where);
    if (typeof e !== 'number' || e >>> 0 !== e) world.entity(`${this.#where}.${access === 'read' ? 'get' : 'set'}`, e);
    if (world.sys !== null || (access === 'write' && world.liveRead !== null)) {
      checkAccess(world, `${this.#where}.${access === 'read' ? 'get' : 'set'}`, this.#c, access, e as number);
    }
    // A write takes the Write ref: it marks a tracked component changed in
    // the core (docs/changes.md#ticks), at no cost to set itself.
    const p = access === 'write' ? world.raw.changesGetForWrite(w, e as number, this.#c.id) : world.raw.worldGet(w, e as number, this.#c.id);
    if (p === 0) this.#missing(world, e as number);
    const f = this.#f;
    if (i === 0) return p + f.offset;
    // An array field without an index: refused, not element 0 (after the entity checks, like a bad index).
    if (i === undefined) this._indexMissing(access === 'read' ? 'get' : 'set');
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= f.count) {
      const where = `${this.#where}.${access === 'read' ? 'get' : 'set'}`;
      throw invalid(`${where}: element index ${describe(i)} outside 0..${f.count - 1}`, typeof i === 'number' ? 'out_of_range' : 'wrong_type',
        { where, field: 'i', got: typeof i === 'number' ? i : typeName(i), min: 0, max: f.count - 1 });
    }
    return p + f.offset + (i << this.#shift);
  }

  #missing(world: WorldCore, e: number): never {
    if (!world.raw.worldIsValid(world.ptr, e)) {
      throw invalid(`${this.#where}(${formatEntity(e)}): not a live entity of this world (destroyed, cleared or never issued)`, 'stale_entity_access',
        { where: this.#where, entity_id: e >>> 16, generation: e & 0xffff });
    }
    throw invalid(`${this.#where}(${formatEntity(e)}): the entity has no ${this.#c.name}`, 'component_missing', { where: this.#where, component: this.#c.name });
  }

  /**
   * @internal A read the fast tables missed: outside a system, refills them
   * (after memory growth, a system's run, a restore) and looks the address
   * up again (asking the core for an archetype's column place the first
   * time); else, or when that misses too, through worldGet with every check
   * (the errors, the io check inside a system).
   */
  _getChecked(e: Entity, i: number): number {
    const world = this._world;
    if (world.sys === null && this._scalar && typeof e === 'number' && e >>> 0 === e) {
      const p = refilledAddress(world, this._columns, this._id, this._size, e);
      // The views this handle's get holds were replaced (memory grew, or the
      // tables were empty when it was made): make it again over the current ones.
      if (world.fast.off[0] === 0 && world.fast.gen !== this._gen) this.get = makeGetter(this);
      if (p !== 0) return loadScalar(world.mem, this._heapCode, p + this._offset);
    }
    slotTablesOf(world); // (re-derives the table views after memory growth)
    const at = this.#at(e, 'read', i);
    const m = (this.#c._owner as WorldCore).mem;
    let v = this.#heap(m)[at >> this.#shift];
    if (v === undefined) {
      m.sync(); // memory grew and nothing re-derived the views yet
      v = this.#heap(m)[at >> this.#shift]!;
    }
    return v;
  }

  /** "FieldHandle(Position.field.x: f32)" (console.log and util.inspect show it too). */
  toString(): string {
    const f = this.#f;
    return `FieldHandle(${this.#where}: ${f.kind}${f.isArray ? `[${f.count}]` : ''})`;
  }

  /** @internal util.inspect / console.log: toString(), not the internals (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }

  /** @internal An array field read or written without an element index: refused (it would be element 0). */
  _indexMissing(call: 'get' | 'set'): never {
    const f = this.#f;
    const where = `${this.#where}.${call}`;
    throw invalid(`${where}: '${f.name}' is an array of ${f.count}; name the element: ${call === 'get' ? 'get(e, i)' : 'set(e, i, value)'} with i in 0..${f.count - 1}`,
      'wrong_type', { where, field: 'i', got: 'undefined', min: 0, max: f.count - 1 });
  }

  set(e: Entity, a: number, b?: number): void {
    if (logHandlers.depth !== 0) refuseInsideLog(`${this.#where}.set`);
    const f = this.#f;
    const isArray = f.isArray;
    // set(e, v) of an array field: the entity is checked, then the missing index refused (#at).
    // eslint-disable-next-line prefer-rest-params
    if (isArray && arguments.length < 3) this.#at(e, 'write', undefined);
    const v = isArray ? b : a;
    if (!this.#ok(v)) {
      // An element names itself as World.add and each do (`arr[1]`) once its index is valid.
      const field = isArray && Number.isInteger(a) && a >= 0 && a < f.count ? `${f.name}[${a}]` : f.name;
      throw invalid(`${this.#where}.set: ${badScalar(f.kind, v)}`, typeof v === 'number' ? (v !== v ? 'invalid_value' : 'out_of_range') : 'wrong_type',
        { where: `${this.#where}.set`, field, got: typeof v === 'number' ? v : typeName(v), kind: f.kind });
    }
    const at = this.#at(e, 'write', isArray ? a : 0);
    const m = (this.#c._owner as WorldCore).mem;
    m.sync();
    this.#heap(m)[at >> this.#shift] = v as number;
    // As in World.add: only a live each of this world can hold a snapshot of this row.
    if ((this.#c._owner as WorldCore).iterating !== 0) m.epoch++;
  }
}

// The read of one handle, as a closure over what its fast read needs (the
// world's slot tables and heap views, the column places, the row size and
// the field offset) rather than a method reading them from the handle and
// the world's FastTables. Once V8 inlines a handle's get into the caller's
// loop (a monomorphic call of a known closure), they are constants of the
// compiled code: a read is the loads of the lookup itself, not also the
// loads of the tables and of each typed array's length and data pointer.
// 10,000 reads of an f32 field in a loop, alternating processes: 3.8 ns per
// read as a method over FastTables, 3.1 as a closure over FastTables, 1.9 as
// a closure over the views (the floor over plain arrays: 1.7). The one
// word it reads besides, `off`, says whether the views may be taken (not
// while a system runs: its io is checked on the checked path; not after a
// restore or dispose). Memory growth detaches the views it holds (they read
// undefined, so every read misses), and the checked path makes a new get
// over the new views. The float kinds load through their own view, each
// from a closure written out for it: closures made at one place share V8's
// type feedback, so one closure for both would see two kinds of typed array
// at its load and compile both paths into every read. The lookup is
// written out in each rather than shared through a small address closure:
// that one extra level cost 0.5 ns per read (2.8 -> 3.3, alternating
// processes). The others load through the switch of loadScalar. `get` works detached from its
// handle too (`const read = Position.field.x.get`).
function makeGetter(h: FieldHandleImpl): (e: Entity, i?: number) => number {
  if (!h._scalar) return (e, i) => h._getChecked(e, i as number); // (a missing i is refused there)
  const t = h._world.fast;
  h._gen = t.gen;
  const places = h._columns.places;
  if (h._heapCode === HEAP_CODE.f32) return f32Getter(h, t.off, t.gen, t.arch, t.row, places, t.u32, t.f32, h._size, h._offset);
  if (h._heapCode === HEAP_CODE.f64) return f64Getter(h, t.off, t.gen, t.arch, t.row, places, t.u32, t.f64, h._size, h._offset);
  return scalarGetter(h, t.off, t.gen, t.arch, t.row, places, t.u32, h._world.mem, h._heapCode, h._size, h._offset);
}

// The three reads take what they hold as parameters of the function that
// makes them, not as consts of makeGetter: where V8 inlines a read it does
// not know as one closure (a call site that has also seen the reads of
// other worlds or fields: the tables are then loaded at run time), it checks
// every const it loads for initialisation first, and a parameter needs no
// such check. 65,000 reads after 10,000 from the same code, one process,
// alternating processes: 9.8-10.1 ns -> 8.5-8.7 ns per read; no change
// where the read is known (3.0-3.2 ns) (docs/benchmarks.md#handle-reads-past-32768-ids).
function f32Getter(h: FieldHandleImpl, off: Uint8Array, gen: Uint16Array, arch: Uint16Array, row: Uint32Array, places: Uint32Array,
  u32: Uint32Array, f32: Float32Array, size: number, offset: number): (e: Entity, i?: number) => number {
  return (e) => {
    if (typeof e === 'number' && e >>> 0 === e && off[0] === 0) {
      const slot = e >>> 16;
      if (gen[slot] === (e & 0xffff)) {
        const place = places[arch[slot]!]!;
        if (place > 1) return f32[(u32[place]! + row[slot]! * size + offset) >> 2]!;
      }
    }
    return h._getChecked(e, 0);
  };
}

function f64Getter(h: FieldHandleImpl, off: Uint8Array, gen: Uint16Array, arch: Uint16Array, row: Uint32Array, places: Uint32Array,
  u32: Uint32Array, f64: Float64Array, size: number, offset: number): (e: Entity, i?: number) => number {
  return (e) => {
    if (typeof e === 'number' && e >>> 0 === e && off[0] === 0) {
      const slot = e >>> 16;
      if (gen[slot] === (e & 0xffff)) {
        const place = places[arch[slot]!]!;
        if (place > 1) return f64[(u32[place]! + row[slot]! * size + offset) >> 3]!;
      }
    }
    return h._getChecked(e, 0);
  };
}

function scalarGetter(h: FieldHandleImpl, off: Uint8Array, gen: Uint16Array, arch: Uint16Array, row: Uint32Array, places: Uint32Array,
  u32: Uint32Array, m: Mem, code: number, size: number, offset: number): (e: Entity, i?: number) => number {
  return (e) => {
    if (typeof e === 'number' && e >>> 0 === e && off[0] === 0) {
      const slot = e >>> 16;
      if (gen[slot] === (e & 0xffff)) {
        const place = places[arch[slot]!]!;
        if (place > 1) return loadScalar(m, code, u32[place]! + row[slot]! * size + offset);
      }
    }
    return h._getChecked(e, 0);
  };
}

/** @internal The field handles of `c` (made once, at registration). */
export function makeFieldHandles<S extends Schema>(c: Component<S>): FieldHandles<S> {
  const out: Record<string, FieldHandleImpl> = Object.create(null) as Record<string, FieldHandleImpl>;
  for (const f of c._layout) {
    out[f.name] = new FieldHandleImpl(c as unknown as Component, f);
  }
  return Object.freeze(out) as unknown as FieldHandles<S>;
}

export type { ScalarKind };
