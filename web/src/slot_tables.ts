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
import type { Mem } from './raw.js';

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
 * (a restore that replaced archetypes raises it; docs/snapshots.md#guarantees).
 */
export class ColumnPlaces {
  readonly places = new Uint32Array(ARCHETYPE_IDS);
  epoch = 0;
}

/** The module side of a world the lookups need (World implements it). */
export interface SlotTableOwner {
  _ptr: number;
  readonly _mem: Mem;
  _structureEpoch: number;
  _slots: SlotTables | null | undefined;
}

/**
 * The world's tables: their places are read from the core on first use (one
 * call) and the views re-derived after memory growth; null when the module
 * lacks the export (an older build: callers keep worldGet) or the world is
 * disposed. Called on the checked paths only.
 */
export function slotTablesOf(world: SlotTableOwner): SlotTables | null {
  const old = world._slots;
  if (old === null || (old !== undefined && old.gen.length !== 0)) return old;
  const m = world._mem;
  const raw = m.raw;
  if (raw.worldSlotTables === undefined || world._ptr === 0) {
    world._slots = null;
    return null;
  }
  raw.worldSlotTables(world._ptr, m.out);
  m.sync();
  const o = m.out >>> 2;
  const u32 = m.u32;
  const cap = u32[o + 3]!;
  const buf = u32.buffer;
  world._slots = Object.freeze({
    gen: new Uint16Array(buf, u32[o]!, cap), arch: new Uint16Array(buf, u32[o + 1]!, cap), row: new Uint32Array(buf, u32[o + 2]!, cap),
  });
  return world._slots;
}

/**
 * The byte address of component `id`'s value (`size` bytes; its column
 * places cached in `cols`) for entity
 * `e` of `world`, or 0 when the fast lookup does not apply; the caller then
 * takes its checked path (which raises the right error). `e` must already
 * be a u32 (callers test `e >>> 0 === e`). No allocation; one wasm call the
 * first time an archetype is met per component.
 */
export function componentAddress(world: SlotTableOwner, cols: ColumnPlaces, id: number, size: number, e: number): number {
  const t = world._slots;
  if (t === null || t === undefined) return 0;
  const slot = e >>> 16;
  // A slot past the capacity, and any slot once memory grew (detached views
  // read as length 0), read undefined and miss here.
  if (t.gen[slot] !== (e & 0xffff)) return 0;
  const a = t.arch[slot]!;
  if (a === 0 || a >= ARCHETYPE_IDS) return 0;
  if (cols.epoch !== world._structureEpoch) {
    cols.places.fill(0);
    cols.epoch = world._structureEpoch;
  }
  let place = cols.places[a]!;
  if (place === 0) place = columnPlace(world, cols, id, a);
  if (place === ABSENT) return 0;
  const u32 = world._mem.u32;
  const base = u32[place];
  // (undefined only if memory grew since the tables were read: a miss)
  return base === undefined ? 0 : base + t.row[slot]! * size;
}

// Asks the core once per (archetype, component).
function columnPlace(world: SlotTableOwner, cols: ColumnPlaces, id: number, a: number): number {
  const ref = world._mem.raw.worldColumnRef!(world._ptr, a, id);
  const place = ref === 0 ? ABSENT : ref >>> 2;
  cols.places[a] = place;
  return place;
}
