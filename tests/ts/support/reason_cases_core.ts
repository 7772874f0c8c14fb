// How to provoke, from TypeScript, every core reason of docs/errors.md that
// is not marked C++ only: one case per reason (a few have two), with the
// fields the LaigeError must carry (a subset; reason_coverage.test.ts also
// checks that every field it carries is documented). The TypeScript layer's
// own reasons are in reason_cases_ts.ts.
import { expect } from 'vitest';
import type { Component, World } from '../../../dist/index.js';
import { sim } from './sim.js';

export interface ReasonCase {
  reason: string;
  /** What the case does, for the test name. */
  what: string;
  /** Throws (or rejects with) the error. Creates and frees what it needs. */
  provoke: () => unknown;
  /** Fields the error must carry (values or asymmetric matchers). */
  fields: Record<string, unknown>;
}

export function world(capacity = 16): World {
  return sim.createWorld({ capacity, seed: 5n });
}

/** Runs fn(w) on a fresh world and frees it however fn leaves. */
export function onWorld(fn: (w: World) => unknown, capacity = 16): () => unknown {
  return () => {
    const w = world(capacity);
    try {
      return fn(w);
    } finally {
      if (!w.disposed) w.dispose();
    }
  };
}

/** A 3-tick log of a world with component P and systems A (writes P) and B (reads P). */
export function recordedLog(options: { deterministic?: boolean } = {}): Uint8Array {
  const w = sim.createWorld({ capacity: 16, seed: 1n, ...options });
  setupAB(w, 'read');
  const r = sim.recordReplay(w);
  for (let i = 0; i < 3; i++) r.step();
  const log = r.finish();
  w.dispose();
  return log;
}

export function setupAB(w: World, bAccess: 'read' | 'write'): void {
  const P = w.registerComponent('P', { v: 'i32' });
  w.registerSystem({ name: 'A', budgetMs: 5, io: [[P, 'write']], run() {} });
  w.registerSystem({ name: 'B', budgetMs: 5, io: [[P, bAccess]], run() {} });
}

/** The error thrown inside fn's callback, run from inside `drive`. */
function inside(drive: (fire: () => void) => void, call: () => unknown): unknown {
  let got: unknown = 'not thrown';
  drive(() => {
    if (got !== 'not thrown') return;
    try {
      call();
      got = 'ok';
    } catch (e) {
      got = e;
    }
  });
  if (got instanceof Error) throw got;
  throw new Error(`the call inside the callback did not throw (${String(got)})`);
}

export const CORE_CASES: ReasonCase[] = [
  // --- systems and the scheduler
  { reason: 'name_invalid', what: 'an empty system name', fields: { where: expect.any(String), problem: 'empty', type: 'string', name: '', length: 0 },
    provoke: onWorld((w) => w.registerSystem({ name: '', budgetMs: 1, run() {} })) },
  { reason: 'dep_spec_invalid', what: 'a dependency named twice (the core)', fields: { system: 'S', reason: 'duplicate', position: 1 },
    provoke: onWorld((w) => w.registerSystem({ name: 'S', budgetMs: 1, dependsOn: ['A', 'A'], run() {} })) },
  { reason: 'dep_spec_invalid', what: 'a dependency with a comma (TypeScript)', fields: { where: expect.any(String), problem: 'comma', name: 'A,B' },
    provoke: onWorld((w) => w.registerSystem({ name: 'S', budgetMs: 1, dependsOn: ['A,B'], run() {} })) },
  { reason: 'duplicate', what: 'a system name registered twice', fields: { system: 'S', existing_system_id: 1 },
    provoke: onWorld((w) => { w.registerSystem({ name: 'S', budgetMs: 1, run() {} }); w.registerSystem({ name: 'S', budgetMs: 1, run() {} }); }) },
  { reason: 'io_duplicate', what: 'a component declared twice', fields: { system: 'T', component: 'Q', component_id: 1, position: 1 },
    provoke: onWorld((w) => { const Q = w.registerComponent('Q', { x: 'f32' }); w.registerSystem({ name: 'T', budgetMs: 1, io: [[Q, 'read'], [Q, 'write']], run() {} }); }) },
  { reason: 'budget_exhausted', what: 'the 257th system', fields: { system: 'S256', max_systems: 256 },
    provoke: onWorld((w) => { for (let i = 0; i < 257; i++) w.registerSystem({ name: `S${i}`, budgetMs: 1, run() {} }); }) },
  { reason: 'system_unknown', what: 'timing stats of an unknown id', fields: { id: 7, systems: 1 },
    provoke: onWorld((w) => { w.registerSystem({ name: 'S', budgetMs: 1, run() {} }); w.systemTimingStats(7); }) },
  { reason: 'dep_missing', what: 'a dependency on no system', fields: { system: 'A', missing_dep: 'Ghost', position: 0 },
    provoke: onWorld((w) => { w.registerSystem({ name: 'A', budgetMs: 1, dependsOn: ['Ghost'], run() {} }); w.scheduleSystems(); }) },
  { reason: 'dependency_cycle', what: 'X after Y after X', fields: { cycle: 'X,Y', cycle_length: 2 },
    provoke: onWorld((w) => {
      w.registerSystem({ name: 'X', budgetMs: 1, dependsOn: ['Y'], run() {} });
      w.registerSystem({ name: 'Y', budgetMs: 1, dependsOn: ['X'], run() {} });
      w.scheduleSystems();
    }) },
  { reason: 'double_writer', what: 'two writers of P', fields: { first_writer: 'A', second_writer: 'B', component: 'P', component_id: 1 },
    provoke: onWorld((w) => { setupAB(w, 'write'); w.scheduleSystems(); }) },
  { reason: 'tick_inside_callback', what: 'runSystems inside each', fields: { call: 'World.runSystems', callback: 'each' },
    provoke: onWorld((w) => { w.create(); return inside((fire) => w.each([], [], () => fire()), () => w.runSystems()); }) },
  { reason: 'schedule_inside_tick', what: 'scheduleSystems from a system', fields: { callback: 'system' },
    provoke: onWorld((w) => {
      let fire = (): void => {};
      w.registerSystem({ name: 'S', budgetMs: 5, run() { fire(); } });
      return inside((f) => { fire = f; w.runSystems(); }, () => w.scheduleSystems());
    }) },

  // --- entities, components, iteration
  { reason: 'capacity_invalid', what: 'a capacity of 65,537', fields: { where: 'createWorld', capacity: 65537, max_capacity: 65536 },
    provoke: () => sim.createWorld({ capacity: 65537 }) },
  { reason: 'entity_budget_exhausted', what: 'a third entity in a world of 2', fields: { entity_count: 2, capacity: 2 },
    provoke: onWorld((w) => { w.create(); w.create(); w.create(); }, 2) },
  { reason: 'stale_entity_access', what: 'get of a destroyed entity', fields: { entity_id: 0, generation: 1 },
    provoke: onWorld((w) => { const P = w.registerComponent('P', { x: 'f32' }); const e = w.create(); w.destroy(e); w.get(e, P); }) },
  { reason: 'stale_entity_access', what: "a field handle's get of a destroyed entity", fields: { where: 'P.field.x', entity_id: 0, generation: 1 },
    provoke: onWorld((w) => { const P = w.registerComponent('P', { x: 'f32' }); const e = w.create(); w.destroy(e); P.field.x.get(e); }) },
  { reason: 'stale_entity_destroy', what: 'destroy twice', fields: { entity_id: 0, generation: 1 },
    provoke: onWorld((w) => { const e = w.create(); w.destroy(e); w.destroy(e); }) },
  { reason: 'component_limit', what: 'a 33rd component on one entity', fields: { component: 'C32', components: 32, max_components: 32 },
    provoke: onWorld((w) => {
      const cs = Array.from({ length: 33 }, (_, i) => w.registerComponent(`C${i}`, { v: 'u8' }));
      const e = w.create();
      for (const c of cs) w.add(e, c, { v: 1 });
    }) },
  { reason: 'archetype_budget', what: 'the 257th component combination', fields: { archetype_count: 256, max_archetypes: 256, component: expect.any(String) },
    provoke: onWorld((w) => {
      const cs = Array.from({ length: 9 }, (_, i) => w.registerComponent(`C${i}`, { v: 'u8' }));
      for (let i = 1; i < 512; i++) {
        const e = w.create();
        for (let b = 0; b < 9; b++) if (i & (1 << b)) w.add(e, cs[b]!, { v: 1 });
      }
    }, 600) },
  { reason: 'iteration_mutation', what: 'destroy inside each', fields: { operation: 'destroy', entity_id: 0 },
    provoke: onWorld((w) => {
      const P = w.registerComponent('P', { x: 'f32' });
      w.add(w.create(), P, { x: 1 });
      return inside((fire) => w.each([P], ['read'], () => fire()), () => w.destroy(w.handleAt(0)!));
    }) },
  { reason: 'iteration_clear', what: 'clear inside each', fields: { entity_id: 0, rows: 1 },
    provoke: onWorld((w) => {
      const P = w.registerComponent('P', { x: 'f32' });
      w.add(w.create(), P, { x: 1 });
      return inside((fire) => w.each([P], ['read'], () => fire()), () => w.clear());
    }) },
  { reason: 'iteration_write_during_read', what: 'add over a read component inside each', fields: { component: 'P', component_id: 1 },
    provoke: onWorld((w) => {
      const P = w.registerComponent('P', { x: 'f32' });
      const e = w.create();
      w.add(e, P, { x: 1 });
      return inside((fire) => w.each([P], ['read'], () => fire()), () => w.add(e, P, { x: 5 }));
    }) },
  { reason: 'iteration_write_during_read', what: "a field handle's set inside each (TypeScript)", fields: { where: 'P.field.x.set', component: 'P', component_id: 1 },
    provoke: onWorld((w) => {
      const P = w.registerComponent('P', { x: 'f32' });
      const e = w.create();
      w.add(e, P, { x: 1 });
      return inside((fire) => w.each([P], ['read'], () => fire()), () => P.field.x.set(e, 5));
    }) },
  { reason: 'query_limit_exceeded', what: 'the 16,385th live query of a world', fields: { max: 16384 },
    provoke: onWorld((w) => {
      const P = w.registerComponent('P', { x: 'f32' });
      const kept = [];
      for (let i = 0; i <= 16384; i++) kept.push(w.query({ p: P.read }));
      return kept.length;
    }) },
  { reason: 'iteration_nested', what: 'each inside each', fields: { archetype_count: expect.any(Number) },
    provoke: onWorld((w) => {
      const P = w.registerComponent('P', { x: 'f32' });
      w.add(w.create(), P, { x: 1 });
      return inside((fire) => w.each([P], ['read'], () => fire()), () => w.each([P], ['read'], () => {}));
    }) },
  { reason: 'component_name_invalid', what: 'a name of 80 bytes', fields: { where: expect.any(String), problem: 'too_long', length: 80, max_length: 63 },
    provoke: onWorld((w) => w.registerComponent('é'.repeat(40), { x: 'f32' })) },
  { reason: 'component_desc_invalid', what: 'a padded layout', fields: { name: 'Padded', reason: expect.any(String) },
    provoke: onWorld((w) => w.registerComponent('Padded', { b: 'u8', f: 'f32' })) },
  { reason: 'component_duplicate', what: 'P twice', fields: { name: 'P', component_id: 1 },
    provoke: onWorld((w) => { w.registerComponent('P', { x: 'f32' }); w.registerComponent('P', { y: 'f32' }); }) },
  { reason: 'component_budget', what: 'the 257th component type', fields: { name: 'C256', component_count: 256, max_components: 256 },
    provoke: onWorld((w) => { for (let i = 0; i < 257; i++) w.registerComponent(`C${i}`, { v: 'u8' }); }) },

  // --- game loop
  { reason: 'tick_rate_invalid', what: 'tickRateHz 19', fields: { where: 'createGameLoop', tick_rate_hz: 19, min_hz: 20, max_hz: 120 },
    provoke: onWorld((w) => sim.createGameLoop(w, { tickRateHz: 19 })) },
  { reason: 'catchup_invalid', what: 'maxCatchUpTicks 0', fields: { where: 'createGameLoop', max_catch_up: 0 },
    provoke: onWorld((w) => sim.createGameLoop(w, { maxCatchUpTicks: 0 })) },

  // --- replays and scenarios
  { reason: 'record_failed', what: 'a frame past the size cap', fields: { reason: 'size_cap', frames: 0, max_bytes: 70 },
    provoke: onWorld((w) => sim.recordReplay(w, { maxBytes: 70 }).writeFrame(1, new Uint8Array(40))) },
  { reason: 'record_after_finish', what: 'writeFrame after finish', fields: { where: 'ReplayRecorder.writeFrame', frames: 1 },
    provoke: onWorld((w) => { const r = sim.recordReplay(w); r.step(); r.finish(); r.writeFrame(2); }) },
  { reason: 'recorder_finished', what: 'step after finish', fields: { where: 'ReplayRecorder.step' },
    provoke: onWorld((w) => { const r = sim.recordReplay(w); r.finish(); r.step(); }) },
  { reason: 'frame_too_large', what: 'a 1 MiB + 1 input', fields: { where: 'ReplayRecorder.step', length: (1 << 20) + 1, max_length: 1 << 20 },
    provoke: onWorld((w) => sim.recordReplay(w).step(new Uint8Array((1 << 20) + 1))) },
  { reason: 'replay_size_cap', what: 'a step that would pass the cap', fields: { bytes: expect.any(Number), max_bytes: 72 },
    provoke: onWorld((w) => { const r = sim.recordReplay(w, { maxBytes: 72 }); r.step(new Uint8Array(40)); }) },
  { reason: 'parse_rejected', what: '64 zero bytes', fields: { reason: 'bad_magic', offset: 0 },
    provoke: () => sim.parseReplay(new Uint8Array(64)) },
  { reason: 'identity_mismatch', what: 'another seed', fields: { mismatch: expect.stringContaining('seed') },
    provoke: () => sim.runReplay(recordedLog(), { world: { capacity: 16, seed: 9n }, setup: (w) => setupAB(w, 'read') }) },
  { reason: 'diff_identity_mismatch', what: 'both logs under another setup', fields: { a_mismatch: 'componentSchemaHash', b_mismatch: 'componentSchemaHash' },
    provoke: () => { const log = recordedLog(); return sim.diffReplays(log, log, { world: { capacity: 16 }, setup() {} }); } },
  { reason: 'determinism_disabled', what: 'a replay of a non-deterministic world', fields: { config_enabled: 'false', world_deterministic: 'false' },
    provoke: () => sim.runReplay(recordedLog({ deterministic: false }), { world: { capacity: 16, deterministic: false }, setup: (w) => setupAB(w, 'read') }) },
  { reason: 'diff_determinism_disabled', what: 'a diff of non-deterministic worlds', fields: { a_enabled: 'false', b_enabled: 'false' },
    provoke: () => { const log = recordedLog({ deterministic: false }); return sim.diffReplays(log, log, { world: { capacity: 16, deterministic: false }, setup: (w) => setupAB(w, 'read') }); } },
  { reason: 'diff_schema_mismatch', what: 'stateDiff of worlds with other components', fields: { where: 'World.stateDiff', a_components: 1, b_components: 2 },
    provoke: onWorld((a) => {
      a.registerComponent('P', { v: 'i32' });
      const b = world();
      b.registerComponent('P', { v: 'i32' });
      b.registerComponent('Q', { v: 'i32' });
      try {
        return a.stateDiff(b);
      } finally {
        b.dispose();
      }
    }) },
  { reason: 'scenario_unknown', what: 'openScenario of no scenario', fields: { where: 'openScenario', scenario: 'nope' },
    provoke: () => sim.openScenario('nope') },
  { reason: 'scenario_ticks_invalid', what: '65,537 ticks', fields: { scenario: 'hello', ticks: 65537, max_ticks: 65536 },
    provoke: () => sim.runScenario('hello', { ticks: 65537 }) },
  { reason: 'scenario_no_player_input', what: "hello's player input", fields: { scenario: 'hello' },
    provoke: () => sim.scenarioPlayerInput('hello', 0, 1) },

  // --- snapshots
  { reason: 'snapshot_buffer_too_small', what: 'snapshotInto 4 bytes', fields: { needed: expect.any(Number), given: 4 },
    provoke: onWorld((w) => w.snapshotInto(new Uint8Array(4))) },
  { reason: 'snapshot_truncated', what: 'the first 10 bytes', fields: { needed: expect.any(Number), given: 10 },
    provoke: onWorld((w) => w.restore(w.snapshot().subarray(0, 10))) },
  { reason: 'snapshot_trailing_bytes', what: 'one byte more', fields: { needed: expect.any(Number), given: expect.any(Number) },
    provoke: onWorld((w) => { const s = w.snapshot(); const b = new Uint8Array(s.length + 1); b.set(s); w.restore(b); }) },
  { reason: 'snapshot_version', what: 'version byte changed', fields: { version: 3, supported: 2 },
    provoke: onWorld((w) => { const s = w.snapshot(); s[8] = 3; w.restore(s); }) },
  { reason: 'snapshot_setup_mismatch', what: 'bytes of a world of another capacity', fields: { what: 'capacity' },
    provoke: onWorld((w) => { const other = world(8); const s = other.snapshot(); other.dispose(); w.restore(s); }) },
  { reason: 'snapshot_corrupt', what: 'a broken magic', fields: { what: 'magic', offset: 0 },
    provoke: onWorld((w) => { const s = w.snapshot(); s[0] = s[0]! ^ 0xff; w.restore(s); }) },
  { reason: 'restore_inside_callback', what: "restore inside a loop's onTick", fields: { call: 'World.restore', callback: 'onTick' },
    provoke: onWorld((w) => {
      const bytes = w.snapshot();
      let fire = (): void => {};
      const loop = sim.createGameLoop(w, { onTick: () => fire() });
      return inside((f) => { fire = f; loop.step(1); }, () => w.restore(bytes));
    }) },
  { reason: 'snapshot_commands_pending', what: 'snapshot inside a defer with a destroy recorded', fields: { pending: 1 },
    provoke: onWorld((w) => { const e = w.create(); w.defer((c) => { c.destroy(e); w.snapshot(); }); }) },

  // --- commands
  { reason: 'command_outside_phase', what: 'world.commands outside a phase', fields: { where: 'World.commands', op: 'commands' },
    provoke: onWorld((w) => w.commands) },

  // --- rollback sessions
  { reason: 'rollback_option_invalid', what: 'players 9', fields: { where: 'createRollbackSession', option: 'players', value: 9, min: 1, max: 8 },
    provoke: onWorld((w) => sim.createRollbackSession(w, { players: 9 })) },
  { reason: 'player_invalid', what: 'remote input of player 2 of 2', fields: { player: 2, players: 2, local: 0 },
    provoke: onWorld((w) => sim.createRollbackSession(w).addRemoteInput(2, 1, Uint8Array.of(1))) },
  { reason: 'input_too_large', what: '4 bytes over maxInputBytes 3', fields: { player: 0, size: 4, max: 3 },
    provoke: onWorld((w) => sim.createRollbackSession(w, { maxInputBytes: 3 }).setLocalInput(1, new Uint8Array(4))) },
  { reason: 'input_too_early', what: 'tick 33 with inputLead 32', fields: { tick: 33, newest: 32 },
    provoke: onWorld((w) => sim.createRollbackSession(w).setLocalInput(33, Uint8Array.of(1))) },
  { reason: 'input_too_late', what: 'a remote input older than the ring', fields: { tick: 1, oldest: 3, player: 1, current: 4 },
    provoke: onWorld((w) => {
      const s = sim.createRollbackSession(w, { depth: 2 });
      for (let t = 1; t <= 4; t++) { s.setLocalInput(t, new Uint8Array(0)); s.advance(); }
      s.addRemoteInput(1, 1, Uint8Array.of(1));
    }) },
  { reason: 'input_conflict', what: 'other bytes for a received tick', fields: { player: 1, tick: 1 },
    provoke: onWorld((w) => { const s = sim.createRollbackSession(w); s.addRemoteInput(1, 1, Uint8Array.of(1)); s.addRemoteInput(1, 1, Uint8Array.of(2)); }) },
  { reason: 'local_input_passed', what: 'the local input of a tick already run', fields: { tick: 1, current: 1 },
    provoke: onWorld((w) => { const s = sim.createRollbackSession(w); s.setLocalInput(1, new Uint8Array(0)); s.advance(); s.setLocalInput(1, Uint8Array.of(1)); }) },
  { reason: 'local_input_missing', what: 'advance without the local input', fields: { tick: 1 },
    provoke: onWorld((w) => sim.createRollbackSession(w).advance()) },
  { reason: 'prediction_limit', what: 'a fifth tick past the last given one with a limit of 4', fields: { current: 4, confirmed: 0, limit: 4 },
    provoke: onWorld((w) => {
      const s = sim.createRollbackSession(w, { maxPredictionTicks: 4 });
      for (let t = 1; t <= 5; t++) { s.setLocalInput(t, new Uint8Array(0)); s.advance(); }
    }) },
  { reason: 'input_inside_advance', what: 'setLocalInput from a combine function', fields: { call: 'setLocalInput' },
    provoke: onWorld((w) => {
      let fire = (): void => {};
      const s = sim.createRollbackSession(w, { players: 1, combine: (_t, inputs) => { fire(); return inputs[0]!; } });
      s.setLocalInput(1, new Uint8Array(0));
      return inside((f) => { fire = f; s.advance(); }, () => s.setLocalInput(5, Uint8Array.of(1)));
    }) },
  { reason: 'input_inside_advance', what: 'addRemoteInput from onConfirmed', fields: { call: 'addRemoteInput' },
    provoke: onWorld((w) => {
      let fire = (): void => {};
      const s = sim.createRollbackSession(w, { players: 2, onConfirmed: () => fire() });
      s.setLocalInput(1, new Uint8Array(0));
      s.addRemoteInput(1, 1, new Uint8Array(0));
      return inside((f) => { fire = f; s.advance(); }, () => s.addRemoteInput(1, 5, Uint8Array.of(1)));
    }) },
  { reason: 'hash_unavailable', what: 'the hash of a tick not confirmed', fields: { tick: 1, confirmed: 0 },
    provoke: onWorld((w) => sim.createRollbackSession(w).confirmedHash(1)) },
  { reason: 'combined_input_too_large', what: 'a combine function returning 9 bytes of 8', fields: { size: 9, max: 8 },
    provoke: onWorld((w) => {
      const s = sim.createRollbackSession(w, { players: 1, maxCombinedBytes: 8, combine: () => new Uint8Array(9) });
      s.setLocalInput(1, new Uint8Array(0));
      s.advance();
    }) },
  { reason: 'rollback_alloc_failed', what: 'a ring of 122 slots of a 9 MB state (over the 2 GiB wasm memory)', fields: { bytes: expect.any(Number) },
    provoke: onWorld((w) => {
      const Big = w.registerComponent('Big', { a: ['f64', 512] });
      const value = { a: new Array<number>(512).fill(0) };
      for (let i = 0; i < 2300; i++) w.add(w.create(), Big as Component<{ a: ['f64', 512] }>, value);
      sim.createRollbackSession(w, { players: 1, depth: 120 });
    }, 4096) },
  // --- relations (docs/relations.md#typescript)
  { reason: 'relation_not_registered', what: 'targetOf through a component that is no relation', fields: { where: 'World.targetOf', component_id: 1, component: 'P' },
    provoke: onWorld((w) => w.targetOf(w.create(), w.registerComponent('P', { x: 'i32' }) as never)) },
  { reason: 'relation_target_stale', what: 'a relation to a destroyed entity', fields: { entity_id: 0, component_id: 1, target_id: 1, target_generation: 1 },
    provoke: onWorld((w) => { const R = w.registerRelation('R'); const e = w.create(); const t = w.create(); w.destroy(t); w.add(e, R(t)); }) },
  { reason: 'relation_self', what: 'an entity made its own target', fields: { entity_id: 0, component_id: 1, target_id: 0 },
    provoke: onWorld((w) => { const R = w.registerRelation('R'); const e = w.create(); w.add(e, R(e)); }) },
  { reason: 'relation_cycle', what: 'a ChildOf b, b ChildOf a', fields: { entity_id: 1, component_id: 1, target_id: 0 },
    provoke: onWorld((w) => { const R = w.registerRelation('R'); const a = w.create(); const b = w.create(); w.add(a, R(b)); w.add(b, R(a)); }) },
  { reason: 'relation_walk_mutation', what: 'a reparent inside eachCascade', fields: { operation: 'add' },
    provoke: onWorld((w) => { const R = w.registerRelation('R'); const a = w.create(); const b = w.create(); const c = w.create(); w.add(a, R(b)); w.eachCascade(R, () => w.add(a, R(c))); }) },
  { reason: 'prefab_not_a_prefab', what: 'instantiate of an entity that is no prefab', fields: { entity_id: 0, generation: 1 },
    provoke: onWorld((w) => { w.registerPrefabs(); w.instantiate(w.create()); }) },
  { reason: 'prefab_override_invalid', what: 'an override of a component the prefab lacks', fields: { component_id: 1, why: 'absent' },
    provoke: onWorld((w) => { const P = w.registerComponent('P', { x: 'i32' }); const p = w.createPrefab(); w.instantiate(p, { overrides: [[P, { x: 1 }]] }); }) },
  { reason: 'query_invalid', what: 'a cascade pass of a query with a change filter', fields: { reason: 'cascade_filtered', term: 1 },
    provoke: onWorld((w) => { const R = w.registerRelation('R'); const P = w.registerComponent('P', { x: 'i32' }); w.query({ p: P.read }, { changed: [P] }).eachCascade(R, () => {}); }) },
  { reason: 'relation_register_inside_callback', what: 'registerRelation inside an each', fields: {},
    provoke: onWorld((w) => { const P = w.registerComponent('P', { x: 'i32' }); w.add(w.create(), P, { x: 1 }); w.each([P], ['read'], () => w.registerRelation('R')); }) },
  { reason: 'relation_options_invalid', what: 'exclusive: false', fields: { option: 'exclusive' },
    provoke: onWorld((w) => w.registerRelation('R', { exclusive: false })) },
  { reason: 'relation_budget', what: 'the 33rd relation', fields: { max: 32 },
    provoke: onWorld((w) => { for (let i = 0; i <= 32; i++) w.registerRelation(`R${i}`); }) },
  { reason: 'relation_invariant_broken', what: 'a target written through a write ref', fields: { what: 'index', component_id: 1 },
    provoke: onWorld((w) => {
      const R = w.registerRelation('R');
      const [a, b, c] = [w.create(), w.create(), w.create()];
      w.add(a, R(b));
      w.each([R.component], ['write'], (_e, r) => { r.target = c; });
      w.checkRelations();
    }) },
];
