// world_state.ts - the state hash and the state diff of a World
// (docs/typescript.md#state-hash-and-diff): thin calls into the core, with
// the argument checks and the log-handler rule (reentrancy.ts) in front.
import { invalid, typeName } from '../base/errors.js';
import { describe } from '../base/describe.js';
import { logHandlers, refuseInsideLog } from '../base/reentrancy.js';
import { tickOf, lo, hi, u32 } from '../base/args.js';
import type { World } from '../world.js';
import type { StateDiff } from '../world_types.js';

/** @internal World.stateHash (`components` false) and World.componentStateHash (true). */
export function worldHash(world: World, tick: number | bigint, components: boolean): bigint {
  const where = components ? 'World.componentStateHash' : 'World.stateHash';
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const w = world._live(where);
  const t = tickOf(where, tick);
  const m = world._mem;
  if (components) world._raw.worldComponentStateHash(w, lo(t), hi(t), m.out);
  else world._raw.worldStateHash(w, lo(t), hi(t), m.out);
  m.sync();
  return m.u64At(m.out);
}

/** @internal World.stateDiff (`isWorld`: other is a World). */
export function diffWorlds(world: World, other: World, maxItems: number, isWorld: boolean): StateDiff {
  const where = 'World.stateDiff';
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const w = world._live(where);
  if (!isWorld) throw invalid(`${where}: other must be a World, got ${describe(other)}`, 'wrong_type', { where, field: 'other', got: typeName(other) });
  if (other._host !== world._host) throw invalid(`${where}: other belongs to another module instance`, 'foreign_world', { where, field: 'other' });
  const o = other._live(`${where}: other`);
  const max = u32(`${where}: maxItems`, maxItems, 0, 1 << 20);
  const a = world._components;
  const b = other._components;
  if (a.length !== b.length || a.some((c, i) => c !== undefined && (b[i] === undefined || b[i]!.size !== c.size))) {
    throw invalid(`${where}: both worlds must register the same components in the same order`, 'diff_schema_mismatch', { where, a_components: Math.max(0, a.length - 1), b_components: Math.max(0, b.length - 1) });
  }
  const r = world._raw.worldStateDiff(w, o, max);
  world._mem.sync();
  return {
    total: r.total,
    items: r.items.map((it) => ({ ...it, component: it.componentId === 0 ? '' : a[it.componentId]?.name ?? '' })),
  };
}
