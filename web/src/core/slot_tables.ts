// slot_tables.ts - where one component of one entity lives, found without a
// wasm call: the core keeps per-slot tables (generation, archetype, row) in
// plain arrays allocated once per world, and every archetype keeps its
// column base pointers at a fixed place (an archetype is never moved). The
// field handles (field_handle.ts) and World.get read those tables straight
// from the heap: a generation check, two table loads, the column base and
// the value. Anything unusual (a stale or foreign handle, an entity without
// the component, a heap view detached by memory growth, a module without the
// exports) misses, and the caller takes its checked path through worldGet,
// which raises the errors and logs what it always did.
import type { Mem } from '../boundary/raw.js';

/**
 * A world's per-slot tables as views of the module's memory (capacity
 * entries each). Memory growth detaches them (they then read as length 0,
 * so every lookup misses) and the next checked call re-derives them.
 */
export interface SlotTables {
  /** Generation by slot. */
  readonly gen: Uint16Array;
  /** Archetype by slot (0 = none: a free slot, or no components). */
  readonly arch: Uint16Array;
  /** Row in its archetype by slot. */
  readonly row: Uint32Array;
}

/** Archetype ids a column cache covers (the core's archetype budget is 256). */
const ARCHETYPE_IDS = 257;
/** A column cache entry: the archetype lacks the component (a real entry is a u32 index >= 2). */
const ABSENT = 1;

/**
 * One component's column places, by archetype id: the u32 index of the
 * place holding the column's base pointer, ABSENT, or 0 (not asked yet).
 * Keyed by archetype id, so it belongs to one structure epoch of its world
 * (a restore that replaced archetypes raises it; docs/snapshots.md#guarantees):
 * fastTablesOf clears every component's places when the epoch moved.
 */
export class ColumnPlaces {
  readonly places = new Uint32Array(ARCHETYPE_IDS);
}

/** The module side of a world the lookups need (WorldCore implements it). */
export interface SlotTableOwner {
  ptr: number;
  readonly mem: Mem;
  structureEpoch: number;
  slots: SlotTables | null | undefined;
}

/**
 * The world's tables: their places are read from the core on first use (one
 * call) and the views re-derived after memory growth; null when the module
 * lacks the export (an older build: callers keep worldGet) or the world is
 * disposed. Called on the checked paths only.
 */
export function slotTablesOf(world: SlotTableOwner): SlotTables | null {
  const old = world.slots;
  if (old === null || (old !== undefined && old.gen.length !== 0)) return old;
  const m = world.mem;
  const raw = m.raw;
  if (raw.worldSlotTables === undefined || world.ptr === 0) {
    world.slots = null;
    return null;
  }
  raw.worldSlotTables(world.ptr, m.out);
  m.sync();
  const o = m.out >>> 2;
  const u32 = m.u32;
  const cap = u32[o + 3]!;
  const buf = u32.buffer;
  world.slots = Object.freeze({
    gen: new Uint16Array(buf, u32[o]!, cap), arch: new Uint16Array(buf, u32[o + 1]!, cap), row: new Uint32Array(buf, u32[o + 2]!, cap),
  });
  return world.slots;
}

// Asks the core once per (archetype, component).
function columnPlace(world: SlotTableOwner, cols: ColumnPlaces, id: number, a: number): number {
  const ref = world.mem.raw.worldColumnRef!(world.ptr, a, id);
  const place = ref === 0 ? ABSENT : ref >>> 2;
  cols.places[a] = place;
  return place;
}

const EMPTY16 = new Uint16Array(0);
const EMPTY32 = new Uint32Array(0);
const EMPTYF32 = new Float32Array(0);
const EMPTYF64 = new Float64Array(0);

/**
 * The tables a read outside a system takes, held on one object per world
 * so that a field handle's read is a few loads from it (V8 does not hoist
 * loads of the world's other objects out of the caller's loop): the slot
 * tables and the heap views, all of one memory buffer. Whenever a read must
 * take the checked path instead (a system is running: its io is checked
 * there; the world is disposed; the structure epoch moved), every view is
 * empty, so each lookup misses: one test covers every case. Memory growth
 * detaches the views, which then read as length 0 too. The checked paths
 * refill it (fastTablesOf).
 */
export class FastTables {
  gen: Uint16Array = EMPTY16;
  arch: Uint16Array = EMPTY16;
  row: Uint32Array = EMPTY32;
  u32: Uint32Array = EMPTY32;
  f32: Float32Array = EMPTYF32;
  f64: Float64Array = EMPTYF64;
  /**
   * 0 while the views above may be taken, 1 while they are emptied: for
   * readers that keep views of their own (a field handle's get) and test
   * this word instead of reloading the views on every read.
   */
  readonly off = new Uint8Array([1]);
  /** The world's structure epoch the components' column places were checked against. */
  epoch = 0;
}

/** Makes every fast read of the world miss (a system starts running, the world dies, its structure changed). */
export function disableFastTables(t: FastTables): void {
  t.off[0] = 1;
  t.gen = EMPTY16;
  t.arch = EMPTY16;
  t.row = EMPTY32;
  t.u32 = EMPTY32;
  t.f32 = EMPTYF32;
  t.f64 = EMPTYF64;
}

/** What refilling the fast tables needs of a world (WorldCore implements it). */
export interface FastTableOwner extends SlotTableOwner {
  readonly fast: FastTables;
  readonly sys: unknown;
  readonly components: readonly ({ readonly _columns: ColumnPlaces } | undefined)[];
}

/**
 * Refills the world's fast tables when a read outside a system may take
 * them (called on the checked paths; a few stores). A structure epoch the
 * column places were not checked against clears every component's places
 * first, since the fast read does not compare epochs.
 */
export function fastTablesOf(world: FastTableOwner): void {
  const f = world.fast;
  const t = world.sys === null ? slotTablesOf(world) : null;
  if (t === null) {
    disableFastTables(f);
    return;
  }
  if (f.epoch !== world.structureEpoch) {
    for (const c of world.components) if (c !== undefined) c._columns.places.fill(0);
    f.epoch = world.structureEpoch;
  }
  const m = world.mem;
  m.sync(); // (the views and the tables must be of one buffer)
  f.gen = t.gen;
  f.arch = t.arch;
  f.row = t.row;
  f.u32 = m.u32;
  f.f32 = m.f32;
  f.f64 = m.f64;
  f.off[0] = 0;
}

/**
 * The byte address of a component's value (`size` bytes, its column places
 * `places`) for u32 handle `e` through the fast tables, or 0: a miss (any
 * case fastTablesOf leaves empty, a stale handle, an archetype without the
 * component, a place not asked for yet). Small, to be inlined in the readers.
 */
export function fastAddress(t: FastTables, places: Uint32Array, size: number, e: number): number {
  const slot = e >>> 16;
  if (t.gen[slot] !== (e & 0xffff)) return 0;
  const place = places[t.arch[slot]!]!;
  // (0: not asked yet, ABSENT; undefined past the ids a cache covers)
  if (!(place > ABSENT)) return 0;
  return t.u32[place]! + t.row[slot]! * size;
}

/**
 * A read the fast tables missed (fastAddress), outside a system: refills
 * them (after memory growth, a system's run, a restore) and looks `e` up
 * again, asking the core for the column place the first time an archetype
 * is met for this component (one wasm call). 0 when the read must take the
 * checked path (inside a system, a stale handle, an entity without the
 * component, a disposed world): the caller then raises the right error.
 * `e` must already be a u32. No allocation.
 */
export function refilledAddress(world: FastTableOwner, cols: ColumnPlaces, id: number, size: number, e: number): number {
  fastTablesOf(world);
  const t = world.fast;
  const slot = e >>> 16;
  // A slot past the capacity, and every slot of emptied tables, read undefined and miss here.
  if (t.gen[slot] !== (e & 0xffff)) return 0;
  const a = t.arch[slot]!;
  if (a === 0 || a >= ARCHETYPE_IDS) return 0;
  if (cols.places[a] === 0) columnPlace(world, cols, id, a);
  return fastAddress(t, cols.places, size, e);
}
