// Errors that explain themselves: every failing call throws a LaigeError
// whose `reason` is the core's own (the log's event name) or the TypeScript
// layer's stable one, whose `fields` name what was involved, and whose
// message starts with the cause in plain words; the world is unchanged.
// The reasons and their fields are documented in docs/errors.md.
import { describe, expect, it } from 'vitest';
import { LaigeError, type World } from '../../dist/index.js';
import { DOCUMENTED_REASONS } from './support/reasons.js';
import { sim, thrown } from './support/sim.js';

/** The LaigeError fn throws, checked for what every one must have. */
function failure(fn: () => unknown): LaigeError {
  const e = thrown(fn);
  if (!(e instanceof LaigeError)) throw new Error(`expected a LaigeError, got ${String(e)}`);
  expect(e.message).not.toMatch(/see the log/);
  expect(e.reason, e.message).not.toBe(e.code); // a specific reason, not the code's id
  expect(DOCUMENTED_REASONS.has(e.reason), `${e.reason} is not in docs/errors.md`).toBe(true);
  expect(e.message, 'the reason\'s own sentence, without the generic 5-field line').toBe(e.detail);
  return e;
}

/** fn fails with `reason` and (a superset of) `fields`, and the world's hash stays. */
function rejects(w: World, fn: () => unknown, reason: string, fields: Record<string, string | number> = {}): LaigeError {
  const h = w.stateHash(9n);
  const e = failure(fn);
  expect(e.reason, e.message).toBe(reason);
  expect(e.fields).toMatchObject(fields);
  expect(w.stateHash(9n), `${reason}: stateHash changed`).toBe(h);
  return e;
}

function world(capacity = 16): World {
  return sim.createWorld({ capacity, seed: 5n });
}

describe('core reasons reach the LaigeError', () => {
  it("two writers ordered by dependsOn: double_writer, both systems and the component", () => {
    const w = world();
    const Position = w.registerComponent('Position', { x: 'f32', y: 'f32' });
    w.registerSystem({ name: 'A', budgetMs: 1, io: [[Position, 'write']], run() {} });
    w.registerSystem({ name: 'B', budgetMs: 1, io: [[Position, 'write']], dependsOn: ['A'], run() {} });
    const e = rejects(w, () => w.scheduleSystems(), 'double_writer',
      { first_writer: 'A', second_writer: 'B', component: 'Position', component_id: Position.id });
    expect(e.code).toBe('invalid_argument');
    expect(e.message.split('\n')[0]).toBe(
      "World.scheduleSystems: systems 'A' and 'B' both write 'Position'; only one system may write a component");
    expect(() => w.runSystems()).toThrow(LaigeError); // still unschedulable: nothing was half-done
    w.dispose();
  });

  it('dep_missing, dependency_cycle, duplicate, io_duplicate', () => {
    const w = world();
    const P = w.registerComponent('P', { x: 'f32' });
    w.registerSystem({ name: 'A', budgetMs: 1, dependsOn: ['Ghost'], run() {} });
    const e = rejects(w, () => w.scheduleSystems(), 'dep_missing', { system: 'A', missing_dep: 'Ghost', position: 0 });
    expect(e.detail).toBe("World.scheduleSystems: system 'A' depends on 'Ghost', but no system of that name is registered (names are case-sensitive)");
    w.dispose();

    const c = world();
    c.registerSystem({ name: 'X', budgetMs: 1, dependsOn: ['Y'], run() {} });
    c.registerSystem({ name: 'Y', budgetMs: 1, dependsOn: ['X'], run() {} });
    const cyc = rejects(c, () => c.scheduleSystems(), 'dependency_cycle', { cycle: 'X,Y', cycle_length: 2 });
    expect(cyc.detail).toContain("'X' -> 'Y' -> 'X'");
    c.dispose();

    const d = world();
    const Q = d.registerComponent('Q', { x: 'f32' });
    d.registerSystem({ name: 'S', budgetMs: 1, run() {} });
    rejects(d, () => d.registerSystem({ name: 'S', budgetMs: 1, run() {} }), 'duplicate', { system: 'S', existing_system_id: 1 });
    rejects(d, () => d.registerSystem({ name: 'T', budgetMs: 1, io: [[Q, 'read'], [Q, 'write']], run() {} }), 'io_duplicate',
      { system: 'T', component: 'Q', position: 1 });
    expect(d.systems()).toHaveLength(1);
    d.dispose();
    expect(P.name).toBe('P');
  });

  it('stale handles: stale_entity_destroy / stale_entity_access with the slot and generation', () => {
    const w = world();
    const P = w.registerComponent('P', { x: 'f32' });
    const e = w.create();
    w.destroy(e);
    const slot = e >>> 16;
    const gen = e & 0xffff;
    rejects(w, () => w.destroy(e), 'stale_entity_destroy', { entity_id: slot, generation: gen });
    rejects(w, () => w.check(e), 'stale_entity_access', { entity_id: slot, generation: gen });
    rejects(w, () => w.add(e, P, { x: 1 }), 'stale_entity_access', { entity_id: slot, generation: gen });
    rejects(w, () => w.remove(e, P), 'stale_entity_access', { entity_id: slot });
    const g = rejects(w, () => w.get(e, P), 'stale_entity_access', { entity_id: slot });
    expect(g.detail).toMatch(/^World\.get\(Entity\(\d+, \d+\), P\): Entity\(\d+, \d+\) is not a live entity of this world/);
    w.dispose();
  });

  it('entity_budget_exhausted names the capacity', () => {
    const w = world(2);
    w.create();
    w.create();
    rejects(w, () => w.create(), 'entity_budget_exhausted', { entity_count: 2, capacity: 2 });
    expect(w.entityCount).toBe(2);
    w.dispose();
  });

  it('the iteration guard: iteration_mutation, iteration_nested, iteration_clear, iteration_write_during_read', () => {
    const w = world();
    const P = w.registerComponent('P', { x: 'f32' });
    const V = w.registerComponent('V', { x: 'f32' });
    const e = w.create();
    w.add(e, P, { x: 1 });
    const seen: LaigeError[] = [];
    const h = w.stateHash(9n);
    w.each([P], ['read'], (ent) => {
      seen.push(failure(() => w.destroy(ent)));
      seen.push(failure(() => w.add(ent, V, { x: 2 })));
      seen.push(failure(() => w.each([P], ['read'], () => {})));
      seen.push(failure(() => w.clear()));
      seen.push(failure(() => w.add(ent, P, { x: 5 })));
    });
    expect(w.stateHash(9n)).toBe(h);
    expect(seen.map((x) => x.reason)).toEqual(
      ['iteration_mutation', 'iteration_mutation', 'iteration_nested', 'iteration_clear', 'iteration_write_during_read']);
    expect(seen[0]!.fields).toMatchObject({ operation: 'destroy', entity_id: e >>> 16 });
    expect(seen[1]!.fields).toMatchObject({ operation: 'add', component: 'V' });
    expect(seen[4]!.fields).toMatchObject({ component: 'P', component_id: P.id });
    expect(seen[4]!.detail).toContain("declared 'P' 'read'");
    w.dispose();
  });

  it('component registry: component_duplicate, component_desc_invalid, component_name_invalid, component_limit', () => {
    const w = world();
    w.registerComponent('P', { x: 'f32' });
    rejects(w, () => w.registerComponent('P', { y: 'f32' }), 'component_duplicate', { name: 'P', component_id: 1 });
    const pad = rejects(w, () => w.registerComponent('Padded', { b: 'u8', f: 'f32' }), 'component_desc_invalid', { name: 'Padded' });
    expect(pad.code).toBe('malformed_input');
    expect(typeof pad.fields.reason).toBe('string');
    // 40 two-byte characters: 40 JS characters, 80 UTF-8 bytes (the core's limit is 63 bytes).
    rejects(w, () => w.registerComponent('é'.repeat(40), { x: 'f32' }), 'component_name_invalid',
      { problem: 'too_long', name: 'é'.repeat(40), length: 80, max_length: 63 });
    rejects(w, () => w.registerComponent('P\nQ', { x: 'f32' }), 'component_name_invalid', { problem: 'control_char', length: 3 });
    rejects(w, () => w.registerSystem({ name: 'S'.repeat(64), budgetMs: 1, run() {} }), 'name_invalid',
      { problem: 'too_long', length: 64, max_length: 63 });
    rejects(w, () => w.registerSystem({ name: 'T', budgetMs: 1, dependsOn: ['A,B'], run() {} }), 'dep_spec_invalid', { problem: 'comma', name: 'A,B' });
    expect(w.componentCount).toBe(1);
    const cs = Array.from({ length: 33 }, (_, i) => w.registerComponent(`C${i}`, { v: 'u8' }));
    const e = w.create();
    for (let i = 0; i < 32; i++) w.add(e, cs[i]!, { v: i });
    rejects(w, () => w.add(e, cs[32]!, { v: 1 }), 'component_limit', { component: 'C32', components: 32, max_components: 32 });
    w.dispose();
  });

  it('system lookups: system_unknown with the id', () => {
    const w = world();
    w.registerSystem({ name: 'S', budgetMs: 1, run() {} });
    rejects(w, () => w.systemTimingStats(7), 'system_unknown', { id: 7, systems: 1 });
    rejects(w, () => w.systemTimingWindow(7), 'system_unknown', { id: 7 });
    rejects(w, () => w.systemRngState(7), 'system_unknown', { id: 7 });
    w.dispose();
  });

  it('replays: parse_rejected, record_failed, identity_mismatch, diff_identity_mismatch', () => {
    const bad = new Uint8Array(64);
    const p = failure(() => sim.parseReplay(bad));
    expect(p.reason).toBe('parse_rejected');
    expect(p.fields).toMatchObject({ reason: 'bad_magic', offset: 0 });
    expect(p.detail).toBe('parseReplay: the bytes are not a well-formed replay log: bad_magic at byte 0');

    const w = world();
    const rec = sim.recordReplay(w, { maxBytes: 70 });
    rejects(w, () => rec.writeFrame(1, new Uint8Array(40)), 'record_failed', { reason: 'size_cap', frames: 0, max_bytes: 70 });
    rejects(w, () => rec.finish(), 'record_failed', { reason: 'size_cap' }); // sticky: the same failure again
    w.dispose();

    const live = world();
    live.registerComponent('P', { v: 'i32' });
    const r2 = sim.recordReplay(live);
    live.runSystems();
    r2.writeFrame(1);
    const bytes = r2.finish();
    live.dispose();
    const id = failure(() => sim.runReplay(bytes, { world: { capacity: 16 }, setup(x) { x.registerComponent('P', { v: 'i32' }); x.registerComponent('Q', { v: 'i32' }); } }));
    expect(id.reason).toBe('identity_mismatch');
    expect(id.fields.mismatch).toBe('componentSchemaHash');
    // A non-deterministic world has another config hash: the identity check, which runs first, names it.
    const det = failure(() => sim.runReplay(bytes, { world: { capacity: 16, deterministic: false }, setup(x) { x.registerComponent('P', { v: 'i32' }); } }));
    expect(det.reason).toBe('identity_mismatch');
    expect(det.fields.mismatch).toBe('configHash');
    expect(det.detail).toBe('runReplay: the log was recorded under another setup than the world built from the options (differing: configHash)');
    const diff = failure(() => sim.diffReplays(bytes, bytes, { world: { capacity: 16 }, setup() {} }));
    expect(diff.reason).toBe('diff_identity_mismatch');
    expect(diff.fields).toMatchObject({ a_mismatch: 'componentSchemaHash', b_mismatch: 'componentSchemaHash' });
    expect(sim.worldCount).toBe(0); // the replay worlds were freed
  });

  it('the transport: a failure is read once, an ok call records nothing', () => {
    // The raw module (internal): lastFailure() is what check() reads.
    const raw = (sim as unknown as { raw: { lastFailure(): unknown } }).raw;
    const w = world();
    const e = w.create();
    w.destroy(e);
    failure(() => w.destroy(e));
    expect(raw.lastFailure()).toBeNull(); // consumed by the throw
    w.create();
    expect(raw.lastFailure()).toBeNull(); // ok calls never write it
    w.dispose();
  });
});

describe('TypeScript-side reasons name the field and the value type', () => {
  it('wrong_type and out_of_range', () => {
    const w = world();
    const P = w.registerComponent('P', { x: 'f32' });
    const B = w.registerComponent('B', { n: 'u8' });
    const e = w.create();
    const c = failure(() => sim.createWorld({ capacity: 10n as never }));
    expect(c.reason).toBe('wrong_type');
    expect(c.fields).toMatchObject({ where: 'createWorld', field: 'capacity', got: 'bigint' });
    const r = failure(() => sim.createWorld({ capacity: 0 }));
    expect(r.reason).toBe('out_of_range');
    expect(r.fields).toMatchObject({ where: 'createWorld', field: 'capacity', got: 0, min: 1, max: 65536 });
    rejects(w, () => w.add(e, P, { x: 'a' as never }), 'wrong_type', { where: 'World.add', field: 'x', got: 'string' });
    rejects(w, () => w.add(e, B, { n: 300 }), 'out_of_range', { where: 'World.add', field: 'n', got: 300, kind: 'u8' });
    rejects(w, () => w.add(e, P, { x: NaN }), 'invalid_value', { field: 'x' });
    rejects(w, () => w.handleAt(-1), 'out_of_range', { where: 'World.handleAt', field: 'id', got: -1 });
    rejects(w, () => w.stateDiff('w' as never), 'wrong_type', { where: 'World.stateDiff', field: 'other', got: 'string' });
    rejects(w, () => w.each([P], ['read'], 5 as never), 'wrong_type', { where: 'World.each', field: 'fn', got: 'number' });
    rejects(w, () => w.each([P, P], ['read', 'read'], () => {}), 'duplicate_entry', { component: 'P' });
    w.dispose();
  });

  it('components: foreign_component, read_only_field, unknown_field', () => {
    const a = world();
    const b = world();
    const Pa = a.registerComponent('P', { x: 'f32' });
    const Pb = b.registerComponent('P', { x: 'f32' });
    const e = a.create();
    a.add(e, Pa, { x: 1 });
    rejects(a, () => a.add(e, Pb, { x: 1 }), 'foreign_component', { where: 'World.add', component: 'P' });
    // A Read ref is a snapshot: the assignment is refused when the row is stored, and each throws.
    rejects(a, () => a.each([Pa], ['read'], (_e, p) => { (p as { x: number }).x = 3; }), 'read_only_field',
      { where: 'each', component: 'P', field: 'x' });
    const uf: LaigeError[] = [];
    a.eachChunk([Pa], ['read'], (ch) => { uf.push(failure(() => ch.field(Pa, 'nope' as never))); });
    expect(uf[0]!.reason).toBe('unknown_field');
    a.dispose();
    b.dispose();
  });

  it('disposed objects, re-entrant calls and replay ticks', () => {
    const w = world();
    const loop = sim.createGameLoop(w);
    const rec = sim.recordReplay(w);
    rejects(w, () => rec.writeFrame(2), 'tick_sequence', { where: 'ReplayRecorder.writeFrame', got: 2, expected: 1 });
    w.registerSystem({ name: 'S', budgetMs: 50, run() { inner.push(failure(() => w.runSystems())); } });
    const inner: LaigeError[] = [];
    w.runSystems();
    // A tick from a system is refused as tick_inside_callback (it was reentrant_call before ticks inside callbacks got their own reason).
    expect(inner[0]!.reason).toBe('tick_inside_callback');
    expect(inner[0]!.fields).toMatchObject({ call: 'World.runSystems', callback: 'system' });
    loop.dispose();
    const d = failure(() => loop.step());
    expect(d.reason).toBe('disposed');
    expect(d.fields).toMatchObject({ where: 'GameLoop.step', object: 'GameLoop' });
    w.dispose();
    const wd = failure(() => w.create());
    expect(wd.fields).toMatchObject({ where: 'World.create', object: 'World' });
    expect(failure(() => sim.openScenario('nope')).reason).toBe('scenario_unknown');
  });
});
