// system_io.ts - a TypeScript system's declared io, derived from its
// queries plus what it declares for get/add/remove, and the checks that
// hold every access inside its run to it (docs/typescript.md#enforced-access).
// Outside systems none of this runs. The same rule holds in the core, so a
// TS system is stopped here, before the call reaches wasm.
import type { Access, Component } from '../component/component.js';
import { formatEntity } from '../component/entity.js';
import { LaigeError, invalid, typeName } from '../base/errors.js';
import { ioDeclarationFix } from '../base/error_messages.js';
import { describe } from '../base/describe.js';
import type { RunningSystem, WorldCore } from '../core/world_core.js';

export type { RunningSystem };

/** @internal A running-system record for `io` (component id -> access). */
export function runningSystem(name: string, io: ReadonlyArray<readonly [Component, Access]>): RunningSystem {
  const table = new Uint8Array(257);
  for (const [c, a] of io) table[c.id] = Math.max(table[c.id]!, a === 'write' ? 2 : 1);
  return { name, io: table, destroyable: new Uint8Array(257) };
}

/**
 * @internal A system's io: its declared pairs as given (the core rejects a
 * component declared twice there), plus every component its queries touch
 * that the pairs lack; a query's write upgrades a declared read.
 */
export function mergeIo(declared: ReadonlyArray<readonly [Component, Access]>,
  derived: ReadonlyArray<readonly [Component, Access]>): Array<[Component, Access]> {
  const out = declared.map(([c, a]) => [c, a] as [Component, Access]);
  for (const [c, a] of derived) {
    const hit = out.find((p) => p[0] === c);
    if (hit === undefined) out.push([c, a]);
    else if (a === 'write') hit[1] = 'write';
  }
  return out;
}

/** @internal The attempted access named in a violation: a value read or write, or a structural change. */
export type AttemptedAccess = Access | 'add' | 'remove' | 'destroy';

/**
 * @internal The error of an access outside the running system's io; nothing
 * was changed. `overwrite`: for an add, whether the entity has the
 * component (the add overwrites its value: 'write' needed).
 */
export function ioViolation(sys: RunningSystem, c: Component, access: AttemptedAccess, what: string, overwrite?: boolean): LaigeError {
  const declared = sys.io[c.id] === 2 ? 'write' : sys.io[c.id] === 1 ? 'read' : 'none';
  const verb = access === 'write' ? 'writes' : access === 'read' ? 'reads' : access === 'add' ? (overwrite === true ? 'overwrites' : 'adds') : access === 'remove' ? 'removes' : 'destroys an entity with';
  return invalid(`${what}: system '${sys.name}' ${verb} ${c.name}, but declares ${declared === 'none' ? 'no access to it' : `it ${declared}`}; ${ioDeclarationFix(c.name, access, overwrite)} (docs/typescript.md#enforced-access)`,
    'system_io_violation', { system: sys.name, component: c.name, access, declared });
}

/** @internal The error of an object used after the call it belonged to returned. */
export function usedAfterCall(where: string, object: string, detail: string): LaigeError {
  return invalid(detail, 'used_after_call', { where, object });
}

/** @internal A query walked inside a running system: every term must be in its io (write terms declared write). */
export function checkQueryIo(world: WorldCore, accesses: ReadonlyArray<readonly [Component, Access]>, where: string): void {
  const sys = world.sys!;
  for (const [c, a] of accesses) {
    const have = sys.io[c.id]!;
    if (have === 0 || (a === 'write' && have !== 2)) throw ioViolation(sys, c, a, where);
  }
}

/**
 * @internal The access check of World.add / remove / get / destroy and the
 * field handles, run only while a system runs or an each is live
 * (`world._sys` or `world._liveRead` set): `c` null means every component of
 * `e` (destroy). Throws before anything changed.
 */
export function checkAccess(world: WorldCore, where: string, c: Component | null, access: AttemptedAccess, e: number): void {
  const sys = world.sys;
  if (sys !== null) {
    if (c !== null) {
      const have = sys.io[c.id]!;
      // A value write needs write; add of a component the entity lacks,
      // remove, and a value read need it declared (read or write).
      if (have === 0 || (have === 1 && (access === 'write' || (access === 'add' && world.raw.worldHas(world.ptr, e, c.id) !== 0)))) {
        const overwrite = access === 'add' ? world.raw.worldHas(world.ptr, e, c.id) !== 0 : undefined;
        throw ioViolation(sys, c, access === 'add' && have === 1 ? 'write' : access, `${where}(${formatEntity(e)})`, overwrite);
      }
    } else {
      const a = world.raw.worldArchetypeOf(world.ptr, e);
      if (a !== 0 && sys.destroyable[a] !== 1) {
        const ids = world.raw.worldArchetypeComponents(world.ptr, a);
        world.mem.sync();
        const bad = ids.find((id) => sys.io[id] === 0);
        if (bad !== undefined) throw ioViolation(sys, world.components[bad]!, 'destroy', `${where}(${formatEntity(e)})`);
        sys.destroyable[a] = 1;
      }
    }
  }
  // A live each's read terms: an in-place write of one is rejected. The core
  // checks its required terms and tags itself (World.add reaches it); this
  // covers the optional ones (2) and writes that bypass the core (field
  // handles: any read term).
  const read = world.liveRead;
  const held = read === null || c === null ? 0 : read[c.id]!;
  if (held !== 0 && (access === 'write' || (access === 'add' && held === 2)) && world.raw.worldHas(world.ptr, e, c!.id) !== 0) {
    throw invalid(`${where}(${formatEntity(e)}, ${c!.name}): the live each declared '${c!.name}' 'read'; writing it (entity ${e >>> 16}) is rejected: declare it 'write' in the each (${c!.name}.write in the query, 'write' in World.each's access list) (docs/query.md#iteration-legality)`,
      'iteration_write_during_read', { where, entity_id: e >>> 16, component: c!.name, component_id: c!.id });
  }
}

/** @internal World.clear inside a system: it destroys every entity, so every component of an archetype with live rows must be declared. */
export function checkClear(world: WorldCore): void {
  const sys = world.sys;
  if (sys === null) return;
  const w = world.ptr;
  const n = world.raw.worldArchetypeCount(w);
  for (let a = 1; a <= n; a++) {
    if (world.raw.worldArchetypeRowCount(w, a) === 0) continue;
    const bad = world.raw.worldArchetypeComponents(w, a).find((id) => sys.io[id] === 0);
    if (bad !== undefined) throw ioViolation(sys, world.components[bad]!, 'destroy', 'World.clear');
  }
  world.mem.sync();
}

/** @internal Validates a system's io pairs. */
export function ioPairs(world: WorldCore, where: string, io: unknown): Array<[Component, Access]> {
  if (!Array.isArray(io)) throw invalid(`${where}: io must be an array of [component, 'read' | 'write'] pairs, got ${describe(io)}`, 'wrong_type', { where, field: 'io', got: typeName(io) });
  if (io.length > 256) throw invalid(`${where}: at most 256 io entries, got ${io.length}`, 'out_of_range', { where, field: 'io.length', got: io.length, max: 256 });
  return io.map((pair: unknown, i) => {
    if (!Array.isArray(pair) || pair.length !== 2) throw invalid(`${where}: io[${i}] must be [component, 'read' | 'write'], got ${describe(pair)}`, 'wrong_type', { where, field: `io[${i}]`, got: typeName(pair) });
    const c = world.component(where, pair[0], 'io', i);
    const a: unknown = pair[1];
    if (a !== 'read' && a !== 'write') throw invalid(`${where}: io[${i}] access must be 'read' or 'write', got ${describe(a)}`, 'invalid_value', { where, field: `io[${i}][1]`, got: describe(a) });
    return [c, a];
  });
}
