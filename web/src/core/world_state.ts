// world_state.ts - the state hash and the state diff of a World
// (docs/typescript.md#hashes-diffs-replays-scenarios): thin calls into the core, with
// the argument checks and the log-handler rule (reentrancy.ts) in front.
import { invalid, typeName } from '../base/errors.js';
import { describe } from '../base/describe.js';
import { logHandlers, refuseInsideLog } from '../base/reentrancy.js';
import { tickOf, lo, hi, u32 } from '../base/args.js';
import type { WorldCore } from '../core/world_core.js';
import type { StateDiff } from '../world_types.js';
import { handleOrNull } from '../component/entity.js';

/** @internal World.stateHash (`components` false) and World.componentStateHash (true). */
export function worldHash(world: WorldCore, tick: number | bigint, components: boolean): bigint {
  const where = components ? 'World.componentStateHash' : 'World.stateHash';
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const w = world.live(where);
  const t = tickOf(where, tick);
  const m = world.mem;
  if (components) world.raw.worldComponentStateHash(w, lo(t), hi(t), m.out);
  else world.raw.worldStateHash(w, lo(t), hi(t), m.out);
  m.sync();
  return m.u64At(m.out);
}

/** @internal World.stateDiff (`other`: the core of the other World, undefined when `given` is none). */
export function diffWorlds(world: WorldCore, other: WorldCore | undefined, given: unknown, maxItems: number): StateDiff {
  const where = 'World.stateDiff';
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const w = world.live(where);
  if (other === undefined) throw invalid(`${where}: other must be a World, got ${describe(given)}`, 'wrong_type', { where, field: 'other', got: typeName(given) });
  if (other.host !== world.host) throw invalid(`${where}: other belongs to another module instance`, 'foreign_world', { where, field: 'other' });
  const o = other.live(`${where}: other`);
  const max = u32(`${where}: maxItems`, maxItems, 0, 1 << 20);
  const a = world.components;
  const b = other.components;
  if (a.length !== b.length || a.some((c, i) => c !== undefined && (b[i] === undefined || b[i]!.size !== c.size))) {
    throw invalid(`${where}: both worlds must register the same components in the same order`, 'diff_schema_mismatch', { where, a_components: Math.max(0, a.length - 1), b_components: Math.max(0, b.length - 1) });
  }
  const r = world.raw.worldStateDiff(w, o, max);
  world.mem.sync();
  return {
    total: r.total,
    items: r.items.map((it) => ({
      ...it,
      bytesA: it.bytesA === null ? null : Uint8Array.from(it.bytesA),
      bytesB: it.bytesB === null ? null : Uint8Array.from(it.bytesB),
      component: it.componentId === 0 ? '' : a[it.componentId]?.name ?? '',
      entityA: handleOrNull(it.entityA),
      entityB: handleOrNull(it.entityB),
      targetA: handleOrNull(it.targetA),
      targetB: handleOrNull(it.targetB),
    })),
  };
}
