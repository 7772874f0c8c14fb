// snapshot.ts - World.snapshot / snapshotInto / restore (docs/snapshots.md):
// the core's portable snapshot bytes, copied through a wasm buffer. The
// World methods (world.ts) forward here. Every failure is a LaigeError
// carrying the core's reason (snapshot_truncated, snapshot_corrupt, ...).
import { check, invalid, typeName } from '../base/errors.js';
import { logHandlers, refuseInsideLog, refuseRestoreInside } from '../base/reentrancy.js';
import { describe } from '../base/describe.js';
import type { WorldCore } from '../core/world_core.js';
import { disableFastTables } from './slot_tables.js';

function bytesArg(where: string, v: unknown, field: string): Uint8Array {
  if (!(v instanceof Uint8Array)) {
    throw invalid(`${where}: ${field} must be a Uint8Array, got ${describe(v)}`, 'wrong_type', { where, field, got: typeName(v) });
  }
  return v;
}

// Runs `fn` with a fresh wasm buffer of `size` bytes, freed afterwards. Not
// the shared scratch: a snapshot may be taken inside a system, whose tick
// input may live there.
function withBuffer<T>(world: WorldCore, size: number, fn: (ptr: number) => T): T {
  const m = world.mem;
  const p = world.raw._malloc(Math.max(size, 1));
  m.sync();
  try {
    return fn(p);
  } finally {
    world.raw._free(p);
  }
}

/** World.snapshot(): the whole authoritative state as new bytes. */
export function snapshotWorld(world: WorldCore): Uint8Array {
  const where = 'World.snapshot';
  if (logHandlers.depth !== 0) refuseInsideLog(where);  // it reorders archetype rows
  const w = world.live(where);
  const size = world.raw.worldSnapshotSize(w);
  return withBuffer(world, size, (p) => {
    const code = world.raw.worldSnapshot(w, p, size);
    world.mem.sync();
    check(code, where);
    return world.mem.u8.slice(p, p + size);
  });
}

/** World.snapshotInto(buf): writes the snapshot to the start of `buf`, returns its byte count. */
export function snapshotWorldInto(world: WorldCore, buf: Uint8Array): number {
  const where = 'World.snapshotInto';
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const w = world.live(where);
  const out = bytesArg(where, buf, 'buf');
  const size = world.raw.worldSnapshotSize(w);
  if (out.length < size) {
    // The core refuses before writing anything (reason snapshot_buffer_too_small,
    // fields needed and given): the pointer is never used.
    check(world.raw.worldSnapshot(w, 0, out.length), where);
  }
  return withBuffer(world, size, (p) => {
    const code = world.raw.worldSnapshot(w, p, size);
    world.mem.sync();
    check(code, where);
    out.set(world.mem.u8.subarray(p, p + size));
    return size;
  });
}

/** World.restore(bytes): the state `bytes` holds, or a LaigeError and no change at all. */
export function restoreWorld(world: WorldCore, bytes: Uint8Array): void {
  const where = 'World.restore';
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const w = world.live(where);
  // Inside any callback on this world, and during any tick of it (a loop's
  // onTick, a rollback session's combine run between the core's systems,
  // where the core's own guard is not up): restore_inside_callback.
  refuseRestoreInside(where, world.calls, world.systems.running);
  const input = bytesArg(where, bytes, 'bytes');
  const m = world.mem;
  withBuffer(world, input.length, (p) => {
    m.u8.set(input, p);
    const code = world.raw.worldRestore(w, p, input.length);
    m.sync();
    check(code, where);
  });
  noteRestored(world);
}

/**
 * @internal After the core restored `world` (World.restore, a rollback):
 * component values changed under any column view a caller kept, and
 * archetype ids may name other sets when the restore cut the list back, so
 * the each loops' snapshots, the queries' classifications and the fast
 * read tables are stale (their column places are checked against the new
 * epoch on the next read).
 */
export function noteRestored(world: WorldCore): void {
  world.mem.epoch++;
  world.structureEpoch = world.raw.worldStructureEpoch(world.ptr);
  disableFastTables(world.fast);
}
