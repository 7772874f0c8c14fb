// How to provoke every reason of docs/errors.md#typescript-reasons (the
// TypeScript layer's own), with the fields the LaigeError must carry; the
// `disposed` and `used_after_call` cases cover every object the docs list.
import { expect } from 'vitest';
import { MatchClient, entityId, fx, loadLaige, type World } from '../../../dist/index.js';
import { type ReasonCase, onWorld, world } from './reason_cases_core.js';
import { sim } from './sim.js';
import { makePeer, runPeers } from './desync_peers.js';
import { inspectRequest, remoteSource, worldSource } from '../../../dist/inspector.js';

/** A live world with component P on one entity. */
function withP(fn: (w: World, P: ReturnType<typeof registerP>, e: number) => unknown): () => unknown {
  return onWorld((w) => {
    const P = registerP(w);
    const e = w.create();
    w.add(e, P, { x: 1 });
    return fn(w, P, e);
  });
}
function registerP(w: World) {
  return w.registerComponent('P', { x: 'f32' });
}

/** Keeps what a callback hands out, to use it after the call returned. */
function kept<T>(take: (keep: (v: T) => void) => void): T {
  let out: T | undefined;
  take((v) => { out ??= v; });
  if (out === undefined) throw new Error('the callback did not run');
  return out;
}


/** A desync message: the 16-byte header (kind, version 1, size, tick) and `body`. */
function desyncMessage(kind: number, tick: number, body: number[] = []): Uint8Array {
  const m = new Uint8Array(16 + body.length);
  const v = new DataView(m.buffer);
  m[0] = kind;
  m[1] = 1;
  v.setUint32(4, m.length, true);
  v.setBigUint64(8, BigInt(tick), true);
  m.set(body, 16);
  return m;
}
/** Two peers of docs/desync.md#across-peers after 6 ticks, peer a walking tick 2 (told a wrong checksum of it). */
function walkingPeer() {
  const a = makePeer(20, null, 0);
  const b = makePeer(20, null, 1);
  runPeers(a, b, 6);
  a.outbox.length = 0;
  a.session.addRemoteHash(2, 12345n);
  return a;
}
const ROOT = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/** A world with one counter and one system adding `step` to it per tick (named `name`; `hook` runs in it). */
function counterOptions(step: number, name = 'Count', hook?: () => void) {
  return {
    world: { capacity: 8 },
    setup: (w: World): void => {
      const C = w.registerComponent('C', { v: 'i32' });
      w.registerSystem({ name, budgetMs: 100, io: [[C, 'write']], run(ctx) { hook?.(); ctx.each([C], ['write'], (_e, c) => { c.v += step; }); } });
      w.add(w.create(), C, { v: 0 });
    },
  };
}
/** A 3-tick recording of counterOptions(step) with keyframes every 2 ticks. */
function counterLog(step: number): Uint8Array {
  const w = sim.createWorld({ capacity: 8, seed: 0n });
  counterOptions(step).setup(w);
  const r = sim.recordReplay(w, { keyframeEvery: 2 });
  for (let t = 0; t < 3; t++) r.step();
  const log = r.finish();
  w.dispose();
  return log;
}

export const TS_CASES: ReasonCase[] = [
  { reason: 'wrong_type', what: 'a bigint capacity', fields: { where: 'createWorld', field: 'capacity', got: 'bigint' },
    provoke: () => sim.createWorld({ capacity: 10n as never }) },
  { reason: 'wrong_type', what: 'a string in fx.add', fields: { where: 'fx.add', field: 'a', type: 'string' },
    provoke: () => fx.add('a' as never, 1) },
  { reason: 'out_of_range', what: 'a u8 of 300', fields: { where: 'World.add', field: 'n', got: 300, kind: 'u8' },
    provoke: onWorld((w) => { const B = w.registerComponent('B', { n: 'u8' }); w.add(w.create(), B, { n: 300 }); }) },
  { reason: 'out_of_range', what: 'fx.fromRaw(1.5)', fields: { where: 'fx.fromRaw', field: 'raw', got: 1.5 },
    provoke: () => fx.fromRaw(1.5) },
  { reason: 'invalid_value', what: 'NaN in a field', fields: { where: 'World.add', field: 'x', got: NaN },
    provoke: withP((w, P, e) => w.add(e, P, { x: NaN })) },
  { reason: 'invalid_name', what: 'a schema field name with a space', fields: { where: expect.any(String), field: 'schema', got: 'a b' },
    provoke: onWorld((w) => w.registerComponent('A', { 'a b': 'f32' })) },
  { reason: 'invalid_schema', what: 'an unknown kind', fields: { where: expect.any(String), field: 'x' },
    provoke: onWorld((w) => w.registerComponent('A', { x: 'f16' as never })) },
  { reason: 'invalid_schema', what: '65 fields', fields: { where: expect.any(String), field: 'schema', got: 65, max: 64 },
    provoke: onWorld((w) => w.registerComponent('A', Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`f${i}`, 'u8'])) as never)) },
  { reason: 'duplicate_entry', what: 'P twice in each', fields: { where: 'World.each', component: 'P' },
    provoke: withP((w, P) => w.each([P, P], ['read', 'read'], () => {})) },
  { reason: 'filter_excluded', what: 'changed names a without component', fields: { where: 'World.query', field: 'changed[0]', component: 'Q' },
    provoke: withP((w, P) => { const Q = w.registerComponent('Q', { y: 'f32' }); return w.query({ p: P.read }, { without: [Q], changed: [Q] }); }) },
  { reason: 'unknown_component', what: 'Chunk.field of an unlisted component', fields: { where: 'Chunk.field', field: 'component', got: 'Q' },
    provoke: withP((w, P) => {
      const Q = w.registerComponent('Q', { y: 'f32' });
      let err: unknown = null;
      w.eachChunk([P], ['read'], (ch) => { try { ch.field(Q as never, 'y' as never); } catch (e) { err = e; } });
      throw err;
    }) },
  { reason: 'unknown_field', what: 'Chunk.field of a field P lacks', fields: { where: 'Chunk.field', component: 'P', field: 'nope' },
    provoke: withP((w, P) => {
      let err: unknown = null;
      w.eachChunk([P], ['read'], (ch) => { try { ch.field(P, 'nope' as never); } catch (e) { err = e; } });
      throw err;
    }) },
  { reason: 'foreign_component', what: 'a component of another world', fields: { where: 'World.add', component: 'P' },
    provoke: withP((w, _P, e) => {
      const other = world();
      try {
        w.add(e, registerP(other), { x: 1 });
      } finally {
        other.dispose();
      }
    }) },
  { reason: 'desync_not_enabled', what: 'addRemoteHash on a session without sendDesync', fields: { where: 'RollbackSession.addRemoteHash' },
    provoke: () => sim.createRollbackSession(sim.createWorld({ capacity: 4 }), { players: 2 }).addRemoteHash(1, 1n) },
  { reason: 'desync_message_malformed', what: 'a 3-byte desync message', fields: { size: 3, kind: 1, what: 'header' },
    provoke: () => makePeer(4, null, 0).session.receiveDesync(Uint8Array.of(1, 1, 0)) },
  { reason: 'desync_message_too_large', what: 'a desync message of 2^19 + 1 bytes', fields: { size: 524289, max: 524288 },
    provoke: () => makePeer(4, null, 0).session.receiveDesync(new Uint8Array(524289)) },
  { reason: 'desync_message_unknown_kind', what: 'a desync message of kind 9', fields: { kind: 9 },
    provoke: () => makePeer(4, null, 0).session.receiveDesync(desyncMessage(9, 1, ROOT)) },
  { reason: 'desync_answer_unexpected', what: 'a children answer nobody asked for', fields: { kind: 5, tick: 1 },
    provoke: () => makePeer(4, null, 0).session.receiveDesync(desyncMessage(5, 1, [...ROOT, 0, 0, 0, 0])) },
  { reason: 'desync_tick_unavailable', what: 'a request of a tick not confirmed', fields: { tick: 50, confirmed: 0 },
    provoke: () => makePeer(4, null, 0).session.receiveDesync(desyncMessage(2, 50, ROOT)) },
  { reason: 'desync_already_pinned', what: 'a request of tick 3 to a peer walking tick 2', fields: { tick: 3, pinned: 2 },
    provoke: () => walkingPeer().session.receiveDesync(desyncMessage(2, 3, ROOT)) },
  { reason: 'desync_remote_refused', what: 'an Error answer to the walk of tick 2', fields: { tick: 2, reason: 'desync_tick_unavailable' },
    provoke: () => walkingPeer().session.receiveDesync(desyncMessage(7, 2, [...ROOT, 23, 0, 0, 0, ...new TextEncoder().encode('desync_tick_unavailable')])) },
  { reason: 'desync_pin_mismatch', what: 'pinning a tick of a system that is not deterministic', fields: { tick: 2 },
    provoke: () => {
      const w = sim.createWorld({ capacity: 4 });
      const C = w.registerComponent('C', { n: 'i32' });
      const e = w.create();
      w.add(e, C, { n: 0 });
      let outside = 0;
      w.registerSystem({ name: 'Leaky', budgetMs: 5, io: [[C, 'write']], run() { C.field.n.set(e, ++outside); } });
      const s = sim.createRollbackSession(w, { players: 1, sendDesync: () => {}, onDesync: () => {} });
      for (let t = 1; t <= 4; t++) {
        s.setLocalInput(t, Uint8Array.of(1));
        s.advance();
      }
      s.addRemoteHash(2, 1n);
    } },
  { reason: 'match_bad_id', what: 'a match id with a space (MatchClient, before anything is sent)', fields: { where: 'MatchClient.join', field: 'match', got: 'bad id' },
    provoke: () => new MatchClient(() => { throw new Error('nothing may be sent'); }).join('bad id', 'player') },
  { reason: 'devtools_not_linked', what: "openReplay on the module of '@laige/sim' (no dev tools)", fields: { where: 'openReplay', tool: 'the replay player' },
    provoke: async () => (await loadLaige()).openReplay(new Uint8Array(0), { scenario: 'hello' }) },
  { reason: 'foreign_world', what: 'a world of another loadLaige()', fields: { where: 'createGameLoop', field: 'world' },
    provoke: async () => {
      const other = await loadLaige();
      const w = other.createWorld({ capacity: 4 });
      try {
        sim.createGameLoop(w);
      } finally {
        w.dispose();
      }
    } },
  { reason: 'read_only_field', what: 'an assignment to a read ref', fields: { where: 'each', component: 'P', field: 'x' },
    provoke: withP((w, P) => w.each([P], ['read'], (_e, p) => { (p as { x: number }).x = 3; })) },
  { reason: 'scenario_world', what: "a loop over a scenario run's world", fields: { where: 'createGameLoop', scenario: 'hello' },
    provoke: () => { const run = sim.openScenario('hello'); try { sim.createGameLoop(run.world); } finally { run.dispose(); } } },
  { reason: 'tick_sequence', what: 'frame 2 first', fields: { where: 'ReplayRecorder.writeFrame', field: 'tick', got: 2, expected: 1 },
    provoke: onWorld((w) => sim.recordReplay(w).writeFrame(2)) },
  { reason: 'component_missing', what: "a field handle's get on an entity without P", fields: { where: expect.any(String), component: 'P' },
    provoke: onWorld((w) => { const P = registerP(w); P.field.x.get(w.create()); }) },
  { reason: 'unknown_event', what: 'World.observe of an unknown event', fields: { where: 'World.observe', field: 'event', got: 'onChange', component: 'P' },
    provoke: withP((w, P) => w.observe(P, 'onChange' as never, () => {})) },
  { reason: 'observer_invalid', what: 'World.observe of a non-function', fields: { where: 'World.observe', field: 'fn', got: 'number', component: 'P' },
    provoke: withP((w, P) => w.observe(P, 'onAdd', 3 as never)) },
  { reason: 'observe_inside_callback', what: 'World.observe inside each', fields: { where: 'World.observe', callback: 'each', component: 'P', event: 'onAdd' },
    provoke: withP((w, P) => { let err: unknown = null; w.each([P], ['read'], () => { try { w.observe(P, 'onAdd', () => {}); } catch (e) { err ??= e; } }); throw err; }) },
  { reason: 'dispose_inside_call', what: 'world.dispose inside an observer', fields: { call: 'World.dispose', object: 'World', callback: 'observer' },
    provoke: withP((w, P, e) => { let err: unknown = null; w.observe(P, 'onSet', () => { try { w.dispose(); } catch (x) { err ??= x; } }); w.add(e, P, { x: 2 }); throw err; }) },
  { reason: 'component_absent', what: 'World.markChanged of a component the entity lacks', fields: { component_id: 1 },
    provoke: withP((w, P) => w.markChanged(w.create(), P)) },
  { reason: 'observer_depth_exceeded', what: 'an observer cycle inside a tick', fields: { depth: 9, max_depth: 8 },
    provoke: withP((w, P, e) => {
      w.observe(P, 'onSet', (ctx) => ctx.commands.add(ctx.entity, P, { x: 1 }));
      w.registerSystem({ name: 'Cycle', budgetMs: 5, io: [[P, 'write']], run(ctx) { ctx.commands.add(e, P, { x: 2 }); } });
      w.runSystems();
    }) },
  { reason: 'dispose_inside_call', what: 'world.dispose inside each', fields: { call: 'World.dispose', object: 'World', callback: 'each' },
    provoke: withP((w, P) => { let err: unknown = null; w.each([P], ['read'], () => { try { w.dispose(); } catch (e) { err ??= e; } }); throw err; }) },
  { reason: 'dispose_inside_call', what: 'session.dispose inside its combine', fields: { call: 'RollbackSession.dispose', object: 'RollbackSession', callback: 'combine' },
    provoke: onWorld((w) => {
      let err: unknown = null;
      const s = sim.createRollbackSession(w, { players: 1, combine: (_t, inputs) => { try { s.dispose(); } catch (e) { err ??= e; } return inputs[0]!; } });
      s.setLocalInput(1, new Uint8Array(0));
      s.advance();
      throw err;
    }) },
  { reason: 'dispose_inside_call', what: "run.dispose inside a loop's onTick", fields: { object: 'ScenarioRun', callback: 'onTick' },
    provoke: () => {
      const run = sim.openScenario('hello');
      let err: unknown = null;
      try {
        sim.createGameLoop(run, { onTick: () => { try { run.dispose(); } catch (e) { err ??= e; } } }).step(1);
      } finally {
        run.dispose();
      }
      throw err;
    } },
  { reason: 'dispose_inside_call', what: 'loop.dispose inside its input', fields: { call: 'GameLoop.dispose', object: 'GameLoop', callback: 'input' },
    provoke: onWorld((w) => {
      let err: unknown = null;
      const loop = sim.createGameLoop(w, { input: () => { try { loop.dispose(); } catch (e) { err ??= e; } return undefined; } });
      loop.step(1);
      throw err;
    }) },
  { reason: 'dispose_inside_call', what: 'recorder.finish inside its step', fields: { object: 'ReplayRecorder', callback: 'system' },
    provoke: onWorld((w) => {
      let err: unknown = null;
      const r = sim.recordReplay(w);
      w.registerSystem({ name: 'F', budgetMs: 5, run() { try { r.finish(); } catch (e) { err ??= e; } } });
      r.step();
      throw err;
    }) },
  { reason: 'call_inside_log_handler', what: 'create from a log handler', fields: { call: 'World.create', callback: 'onLog' },
    provoke: onWorld((w) => {
      let err: unknown = null;
      sim.setLogRateLimiting(false);
      sim.onLog(() => { try { w.create(); } catch (e) { err ??= e; } });
      try {
        for (let i = 0; i < 4; i++) w.create(); // the 4th of 16 logs entity_budget_25
      } finally {
        sim.onLog(null);
        sim.setLogRateLimiting(true);
      }
      throw err;
    }) },
  { reason: 'entity_handle_invalid', what: 'entityId(-1)', fields: { type: 'number' },
    provoke: () => entityId(-1) },
  { reason: 'clamp_bounds_invalid', what: 'fx.clamp with lo > hi', fields: { lo: expect.any(Number), hi: expect.any(Number) },
    provoke: () => fx.clamp(0, fx.fromInt(2), fx.fromInt(1)) },
  { reason: 'archetype_unknown', what: 'archetypeComponents(99)', fields: { archetype: 99, count: 0 },
    provoke: onWorld((w) => w.archetypeComponents(99)) },
  { reason: 'wasm_not_found', what: 'no file at the path', fields: { url: '/nonexistent/laige_wasm.wasm' },
    provoke: () => loadLaige({ wasmUrl: '/nonexistent/laige_wasm.wasm' }) },
  { reason: 'wasm_invalid', what: '8 zero bytes', fields: { source: 'wasmBinary' },
    provoke: () => loadLaige({ wasmBinary: new Uint8Array(8) }) },
  { reason: 'wasm_incompatible', what: 'a module importing a function this build lacks', fields: { source: 'wasmBinary' },
    provoke: () => loadLaige({ wasmBinary: Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 2, 8, 1, 1, 0x61, 2, 0x7a, 0x7a, 0, 0) }) },
  { reason: 'wasm_url_invalid', what: 'wasmUrl 42', fields: {},
    provoke: () => loadLaige({ wasmUrl: 42 as never }) },
  { reason: 'system_io_violation', what: 'a system writing what it declared read', fields: { system: 'S', component: 'P', access: 'write', declared: 'read' },
    provoke: withP((w, P, e) => {
      let err: unknown = null;
      w.registerSystem({ name: 'S', budgetMs: 5, io: [[P, 'read']], run() { try { w.add(e, P, { x: 2 }); } catch (x) { err ??= x; } } });
      w.runSystems();
      throw err;
    }) },

  // time travel (docs/replay.md#time-travel)
  { reason: 'keyframe_tick', what: 'a keyframed frame the world has not run', fields: { where: 'ReplayRecorder.writeFrame', tick: 2, world_tick: 0 },
    provoke: onWorld((w) => { const r = sim.recordReplay(w, { keyframeEvery: 2 }); r.writeFrame(1); r.writeFrame(2); }) },
  { reason: 'tick_out_of_range', what: 'seek past the last tick', fields: { tick: 4, tick_count: 3 },
    provoke: () => { using p = sim.openReplay(counterLog(1), counterOptions(1)); p.seek(4); } },
  { reason: 'keyframe_mismatch', what: 'a replay opened under other systems', fields: { keyframe_tick: 0, cause: 'snapshot_setup_mismatch' },
    provoke: () => sim.openReplay(counterLog(1), counterOptions(1, 'Other')) },
  { reason: 'keyframe_diverged', what: 'a step that misses the recorded keyframe', fields: { tick: 2, world_checksum: expect.anything(), keyframe_checksum: expect.anything() },
    provoke: () => { using p = sim.openReplay(counterLog(1), counterOptions(2)); p.step(); p.step(); } },
  { reason: 'disposed', what: 'a disposed ReplayPlayer', fields: { where: 'ReplayPlayer.seek', object: 'ReplayPlayer' },
    provoke: () => { const p = sim.openReplay(counterLog(1), counterOptions(1)); p.dispose(); p.seek(0); } },
  { reason: 'dispose_inside_call', what: 'player.dispose inside its seek', fields: { call: 'ReplayPlayer.dispose', object: 'ReplayPlayer', callback: 'system' },
    provoke: () => {
      const box: { p?: { dispose(): void } } = {};
      const p = sim.openReplay(counterLog(1), counterOptions(1, 'Count', () => box.p?.dispose()));
      box.p = p;
      try { p.seek(1); } finally { box.p = undefined; p.dispose(); }
    } },

  // disposed: every object with a lifetime.
  { reason: 'disposed', what: 'a disposed World', fields: { where: 'World.create', object: 'World' },
    provoke: () => { const w = world(); w.dispose(); w.create(); } },
  { reason: 'disposed', what: 'a disposed ScenarioRun', fields: { where: 'ScenarioRun(hello).step', object: 'ScenarioRun' },
    provoke: () => { const run = sim.openScenario('hello'); run.dispose(); run.step(); } },
  { reason: 'disposed', what: 'a disposed GameLoop', fields: { where: 'GameLoop.step', object: 'GameLoop' },
    provoke: onWorld((w) => { const l = sim.createGameLoop(w); l.dispose(); l.step(); }) },
  { reason: 'disposed', what: 'a disposed ReplayRecorder', fields: { where: 'ReplayRecorder.step', object: 'ReplayRecorder' },
    provoke: onWorld((w) => { const r = sim.recordReplay(w); r.dispose(); r.step(); }) },
  { reason: 'disposed', what: 'a disposed RollbackSession', fields: { where: 'RollbackSession.advance', object: 'RollbackSession' },
    provoke: onWorld((w) => { const s = sim.createRollbackSession(w); s.dispose(); s.advance(); }) },
  { reason: 'disposed', what: 'a SystemRng kept after its run', fields: { object: 'SystemRng' },
    provoke: onWorld((w) => {
      const rng = kept<{ nextU32(): number }>((keep) => {
        w.registerSystem({ name: 'R', budgetMs: 5, run(ctx) { keep(ctx.rng!); } });
        w.runSystems();
      });
      rng.nextU32();
    }) },

  // used_after_call: everything that lives for one call.
  { reason: 'used_after_call', what: 'a SystemContext kept after its run', fields: { object: 'SystemContext' },
    provoke: onWorld((w) => {
      const ctx = kept<{ each: World['each'] }>((keep) => {
        w.registerSystem({ name: 'K', budgetMs: 5, run(c) { keep(c); } });
        w.runSystems();
      });
      ctx.each([], [], () => {});
    }) },
  { reason: 'used_after_call', what: 'a Chunk kept after its eachChunk', fields: { where: 'Chunk.field', object: 'Chunk' },
    provoke: withP((w, P) => kept<{ field: (c: unknown, f: string) => unknown }>((keep) => w.eachChunk([P], ['read'], (ch) => keep(ch as never))).field(P, 'x')) },
  { reason: 'used_after_call', what: "a system's query outside its run", fields: { object: 'Query' },
    provoke: withP((w, P) => {
      const q = kept<{ count(): number }>((keep) => {
        w.registerSystem({ name: 'Q', budgetMs: 5, queries: { q: { p: P.read } }, run(ctx: { queries: { q: unknown } }) { keep(ctx.queries.q as never); } } as never);
        w.runSystems();
      });
      q.count();
    }) },
  { reason: 'used_after_call', what: "a defer's Commands kept after it returned", fields: { object: 'Commands' },
    provoke: onWorld((w) => { const c = kept<{ create(): number }>((keep) => w.defer((cmds) => keep(cmds))); c.create(); }) },
  // The live inspector's error answers (docs/inspector.md#errors): the core's reasons, read by InspectorSource.ask.
  { reason: 'inspect_request_too_large', what: 'a 300-byte request', fields: { size: 300, max: 256 },
    provoke: onWorld((w) => worldSource(w).ask('1 summary'.padEnd(300, ' '))) },
  { reason: 'inspect_version', what: 'version 7', fields: { got: 7, expected: 1 }, provoke: onWorld((w) => worldSource(w).ask('7 summary')) },
  { reason: 'inspect_unknown_request', what: 'a verb it does not know', fields: { request: 'teleport' }, provoke: onWorld((w) => worldSource(w).ask('1 teleport')) },
  { reason: 'inspect_malformed', what: 'a negative handle', fields: { part: '-3' }, provoke: onWorld((w) => worldSource(w).ask('1 entity -3')) },
  { reason: 'inspect_page_too_large', what: 'a page of 201', fields: { limit: 201, max: 200 }, provoke: onWorld((w) => worldSource(w).ask(inspectRequest.entities(0, 201))) },
  { reason: 'inspect_unknown_entity', what: 'a handle never created', fields: { entity: 65537 }, provoke: onWorld((w) => worldSource(w).ask(inspectRequest.entity(65537))) },
  { reason: 'inspect_unknown_archetype', what: 'archetype 9 of a world with none', fields: { archetype: 9 },
    provoke: onWorld((w) => worldSource(w).ask(inspectRequest.entities(0, 5, { archetype: 9 }))) },
  { reason: 'inspect_tick_outside_history', what: 'a seek without a history', fields: { tick: 3, first: 0, last: 0 }, provoke: onWorld((w) => worldSource(w).ask(inspectRequest.seek(3))) },
  { reason: 'inspector_disconnected', what: 'a request after close()', fields: { where: 'InspectorSource.ask' },
    provoke: () => { const s = remoteSource({ send() {}, onLine() {} }); s.close(); return s.ask('1 summary'); } },
  { reason: 'inspector_peer_refused', what: 'a peer without a scenario', fields: { where: 'InspectorSource.ask', peer_reason: 'peer_no_scenario' },
    provoke: () => {
      let reply: (l: string) => void = () => {};
      return remoteSource({ send() { reply('error peer_no_scenario'); }, onLine(h) { reply = h; } }).ask('1 summary');
    } },
];
