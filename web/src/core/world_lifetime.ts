// world_lifetime.ts - a World's birth and death: createWorld's options and
// the core world it creates (or a scenario run's it adopts), dispose (which
// detaches its game loops, recorders and sessions first), and the one-line
// description. World (world.ts) keeps only the calls.
import { check } from '../base/errors.js';
import { type ArgCheck, checkOptions, hi, lo } from '../base/args.js';
import { count } from '../base/inspect.js';
import { activeCallback, logHandlers, refuseDisposeInside, refuseInsideLog } from '../base/reentrancy.js';
import { adoptComponents } from '../component/registration.js';
import { SystemRegistry } from '../systems/system_registry.js';
import type { WorldOptions } from '../world_types.js';
import { disableFastTables } from './slot_tables.js';
import { type CoreHost, WorldCore } from './world_core.js';

/**
 * What each option of createWorld must be, in order. A capacity above the
 * 65,536 entity ids is the core's capacity_invalid; 0 is out_of_range (a
 * world holds at least one entity).
 */
const WORLD_OPTIONS = {
  capacity: { type: 'limit', min: 1, max: 65536, reason: 'capacity_invalid', fields: (v: number) => ({ capacity: v, max_capacity: 65536 }), core: 'above' },
  churnPerFrameBudget: { type: 'u32', default: 256 },
  seed: { type: 'u64', default: 0n },
  deterministic: { type: 'boolean', default: true },
} as const satisfies Record<string, ArgCheck>;

/**
 * Checks `options`, creates the core world (or adopts `adopt.ptr`, a
 * scenario run's, reading its components from the core's registry) and the
 * WorldCore and SystemRegistry of `facade` (the World).
 */
export function openWorld(host: CoreHost, options: WorldOptions, facade: object,
  adopt?: { ptr: number; scenario: string }): { core: WorldCore; systems: SystemRegistry } {
  const where = 'createWorld';
  const o = checkOptions(where, options, WORLD_OPTIONS, 'an object with a capacity');
  const { capacity, churnPerFrameBudget: churn, seed } = o;
  const deterministic = o.deterministic as boolean;
  const m = host.mem;
  let ptr: number;
  if (adopt !== undefined) {
    ptr = adopt.ptr;
  } else {
    const code = host.raw.worldCreate(capacity, churn, lo(seed), hi(seed), deterministic, m.out);
    m.sync();
    check(code, where);
    ptr = m.u32[m.out >>> 2]!;
  }
  let systems: SystemRegistry | null = null;
  const core = new WorldCore(host, ptr, Object.freeze({ capacity, churnPerFrameBudget: churn, seed, deterministic }), adopt?.scenario ?? null,
    facade, (c) => (systems = new SystemRegistry(c)));
  host.registerWorld(ptr, core);
  if (adopt !== undefined) adoptComponents(core);
  return { core, systems: systems! };
}

/** World.dispose: idempotent; refused, never deferred, while a call on this world is on the stack (docs/typescript.md#callbacks-and-re-entrancy). */
export function disposeWorld(core: WorldCore, systems: SystemRegistry): void {
  if (core.ptr === 0) return;
  const where = core.scenario === null ? 'World.dispose' : `ScenarioRun(${core.scenario}).dispose`;
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  refuseDisposeInside(where, core.scenario === null ? 'World' : 'ScenarioRun',
    activeCallback(core.calls) ?? (systems.running ? 'system' : undefined));
  for (const d of [...core.dependents]) d._detach();
  core.dependents.clear();
  if (core.handles !== 0) core.raw._free(core.handles);
  core.handles = 0;
  core.host.unregisterWorld(core.ptr);
  core.raw.worldDestroy(core.ptr);
  core.ptr = 0;
  core.slots = null; // the tables died with the core's world (slot_tables.ts)
  disableFastTables(core.fast);
}

/** World.toString: "World(capacity 1000, 12 entities, 3 components, 4 archetypes, 2 systems)". */
export function describeWorld(core: WorldCore): string {
  const w = core.ptr;
  if (w === 0) return 'World(disposed)';
  const r = core.raw;
  return `World(${core.scenario === null ? '' : `scenario ${core.scenario}, `}capacity ${core.options.capacity}, ${count(r.worldEntityCount(w), 'entity', 'entities')}, `
    + `${count(r.worldComponentCount(w), 'component')}, ${count(r.worldArchetypeCount(w), 'archetype')}, ${count(r.worldSystemCount(w), 'system')})`;
}
