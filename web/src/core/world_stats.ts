// world_stats.ts - the World's accounting reads: entity and guardrail
// counters, archetype storage counters and an archetype's components, read
// from the core's out-parameter layouts (web/layouts.json).
import { invalid } from '../base/errors.js';
import { MAX_U32, u32 } from '../base/args.js';
import { readArchetypeStats, readEntityStats, readGuardrailStats } from '../boundary/layouts.gen.js';
import type { ArchetypeStats, EntityStats, GuardrailStats } from '../world_types.js';
import type { WorldCore } from './world_core.js';

/** World.stats. */
export function entityStats(core: WorldCore): EntityStats {
  const w = core.live('World.stats');
  const m = core.mem;
  core.raw.worldStats(w, m.out);
  return readEntityStats(m.f64, m.out >>> 3);
}

/** World.guardrailStats. */
export function guardrailStats(core: WorldCore): GuardrailStats {
  const w = core.live('World.guardrailStats');
  const m = core.mem;
  core.raw.worldGuardrailStats(w, m.out);
  return readGuardrailStats(m.u32, m.out >>> 2);
}

/** World.archetypeStats. */
export function archetypeStats(core: WorldCore): ArchetypeStats {
  const w = core.live('World.archetypeStats');
  const m = core.mem;
  core.raw.worldArchetypeStats(w, m.out);
  return readArchetypeStats(m.f64, m.out >>> 3);
}

/** World.archetypeComponents: an id above the archetype count is archetype_unknown. */
export function archetypeComponents(core: WorldCore, id: number): number[] {
  const where = 'World.archetypeComponents';
  const w = core.live(where);
  const count = core.raw.worldArchetypeCount(w);
  if (typeof id === 'number' && Number.isInteger(id) && id > count && id <= MAX_U32) {
    throw invalid(`${where}: no archetype ${id} (this world has ${count}: ids 1..${count}, 0 is the empty set)`,
      'archetype_unknown', { archetype: id, count });
  }
  const r = core.raw.worldArchetypeComponents(w, u32(`${where}: id`, id, 0, count));
  core.mem.sync();
  return r;
}
