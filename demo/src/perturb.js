// perturb.js - the "perturb" control of one player's world, shared by the
// netplay view (netplay.js: "perturb peer 1") and match mode
// (match_online.js: "perturb this player"; docs/desync.md#worked-example-the-demo).
// A TypeScript scenario's system flips one bit at a tick ahead
// (system_fault.js); the core's scenarios (C++ systems) get one component of
// one entity changed between two ticks. Either way that world's checksums
// stop agreeing from then on, and the desync exchange reports where.
import { formatEntity } from '@laige/sim/scenarios';

/** The armed tick: this many ticks ahead of the player's current tick, plus up to FAULT_SPREAD - 1 more. */
const FAULT_LEAD = 10;
const FAULT_SPREAD = 30;

/**
 * Arms `built.fault` (a TypeScript scenario's SystemFault): `at` = { tick,
 * slot, bit } (world ticks; each optional: a tick 10..39 ahead of
 * `current`, a live entity's slot, a bit 0..15, from `random`); the tick
 * must not have run yet. Returns what is armed (`who` names the player in
 * the view's note), or undefined when the scenario has no fault.
 */
export function armSystemFault(built, { peer, who, current, random, at = {} }) {
  const fault = built.fault;
  if (fault === undefined) return undefined;
  const tick = at.tick ?? current + FAULT_LEAD + Math.floor(random() * FAULT_SPREAD);
  if (tick <= current) throw new Error(`perturb: tick ${tick} has run on ${who} already (its current tick is ${current}); pick a later tick`);
  let slot = at.slot;
  if (slot === undefined) {
    const live = [];
    built.world.each([fault.component], ['read'], (e) => { live.push(e >>> 16); });
    slot = live.length === 0 ? 0 : live[Math.floor(random() * live.length)];
  }
  const armed = fault.arm({ tick, slot, bit: at.bit ?? Math.floor(random() * 16) });
  return {
    peer, who, how: 'system', tick, system: fault.system, component: fault.component.name, field: fault.field,
    slot: armed.slot, bit: armed.bit, get entity() { return armed.entity === null ? null : formatEntity(armed.entity); },
  };
}

/**
 * The core's scenarios: one component of one entity (`built.perturbTarget`)
 * changed between two ticks. Returns { perturbed, change(tick) } - the
 * caller calls change(tick) after a tick `tick` that ran with every
 * player's input (no rollback restores a state from before the change, and
 * the ring snapshot of that tick, taken by the next advance, holds it: the
 * desync exchange's re-run from it gives the same checksums) - or null when
 * the scenario names nothing to change. The report then names the next
 * tick and its first system (the first after which the checkpoints
 * differ), though the change came from outside the systems.
 */
export function betweenTicksChange(built, { peer, who }) {
  const { world, perturbTarget } = built;
  if (perturbTarget === undefined) return null;
  const perturbed = { peer, who, how: 'between ticks', tick: null, component: perturbTarget.component.name, entity: null };
  const change = (tick) => {
    let target = null;
    world.each([perturbTarget.component], ['read'], (e) => { if (target === null) target = e; });
    if (target === null) return;
    world.add(target, perturbTarget.component, perturbTarget.change(world.get(target, perturbTarget.component)));
    perturbed.tick = tick;
    perturbed.entity = formatEntity(target);
  };
  return { perturbed, change };
}
