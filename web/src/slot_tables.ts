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

/** Where a world's per-slot tables are (heap indices), read once per world. */
export interface SlotTables {
  /** u16 index of the generation table (capacity entries). */
  readonly gen: number;
  /** u16 index of the archetype table (0 = no archetype: free slot or no components). */
  readonly arch: number;
  /** u32 index of the row table. */
  readonly row: number;
  /** Entries per table (the world's capacity). */
  readonly capacity: number;
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
 * The world's tables: read from the core on first use (one call), null when
 * the module lacks the export (an older build: callers keep worldGet).
 */
export function slotTablesOf(world: SlotTableOwner): SlotTables | null {
  if (world._slots !== undefined) return world._slots;
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
  world._slots = Object.freeze({ gen: u32[o]! >>> 1, arch: u32[o + 1]! >>> 1, row: u32[o + 2]! >>> 2, capacity: u32[o + 3]! });
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
  if (slot >= t.capacity) return 0; // (World.dispose sets _slots to null)
  const m = world._mem;
  const u16 = m.u16;
  // A detached view (memory grew) reads undefined and misses here.
  if (u16[t.gen + slot] !== (e & 0xffff)) return 0;
  const a = u16[t.arch + slot]!;
  if (a === 0 || a >= ARCHETYPE_IDS) return 0;
  if (cols.epoch !== world._structureEpoch) {
    cols.places.fill(0);
    cols.epoch = world._structureEpoch;
  }
  let place = cols.places[a]!;
  if (place === 0) place = columnPlace(world, cols, id, a);
  if (place === ABSENT) return 0;
  const u32 = m.u32;
  return u32[place]! + u32[t.row + slot]! * size;
}

// Asks the core once per (archetype, component).
function columnPlace(world: SlotTableOwner, cols: ColumnPlaces, id: number, a: number): number {
  const ref = world._mem.raw.worldColumnRef!(world._ptr, a, id);
  const place = ref === 0 ? ABSENT : ref >>> 2;
  cols.places[a] = place;
  return place;
}
