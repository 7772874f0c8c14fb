// Inside a log handler (sim.onLog) one rule holds for every public call
// (docs/typescript.md#callbacks-and-re-entrancy): a call that ticks, walks,
// changes or disposes a world is refused with call_inside_log_handler
// before it does anything, and the world ends exactly like an untouched
// twin; a read is allowed. The matrix below names every public member of
// every public class, so a member added later without a verdict fails
// here: a new call cannot slip past the rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Commands, Component, Entities, GameLoop, Laige, LaigeError, Query, ReplayPlayer, ReplayRecorder, RollbackSession, ScenarioRun, World,
  type AnyQuery, type Relation, type SystemContext,
} from '../../dist/index.js';
import { sim } from './support/sim.js';

interface Rig {
  w: World;
  P: Component<{ v: 'i32'; a: ['u8', 4] }>;
  q: AnyQuery;
  Rel: Relation;
  L: GameLoop;
  R: ReplayRecorder;
  Pl: ReplayPlayer;
  S: RollbackSession;
  sw: World; // the rollback session's world
  run: ScenarioRun;
  e: number;
  stale: number;
  snap: Uint8Array;
  log: Uint8Array;
  /** Set while the trigger runs inside a defer / a system: what the handler may use there. */
  cmds?: Commands;
  ctx?: SystemContext;
  hook?: () => void;
}

function build(w: World, r: Partial<Rig>): void {
  const P = w.registerComponent('P', { v: 'i32', a: ['u8', 4] });
  w.registerSystem({ name: 'Count', budgetMs: 100, queries: { all: { p: P.write } }, run(ctx) { ctx.queries.all.each((_e, { p }) => { p.v += 1; }); } });
  const H = w.registerComponent('H', { v: 'i32' });
  w.registerSystem({
    name: 'Hook', budgetMs: 100, dependsOn: ['Count'], queries: { mine: { h: H.write } }, io: [[P, 'read']],
    run(ctx) {
      r.ctx = ctx as unknown as SystemContext;
      try { r.hook?.(); } finally { r.ctx = undefined; }
    },
  });
  for (let i = 0; i < 3; i++) {
    const e = w.create();
    w.add(e, P, { v: i, a: [i, 1, 0, 0] });
    w.add(e, H, { v: -i });
  }
}

function rig(): Rig {
  const r: Partial<Rig> = {};
  const w = sim.createWorld({ capacity: 16, seed: 5n });
  build(w, r);
  r.w = w;
  r.P = w.component('P') as Rig['P'];
  r.q = w.query({ p: r.P.write });
  r.e = w.handleAt(0)!;
  r.Rel = w.registerRelation('Rel');
  w.add(w.handleAt(1)!, r.Rel(r.e));
  const s = w.create();
  w.destroy(s);
  r.stale = s;
  r.snap = w.snapshot();
  r.R = sim.recordReplay(w);
  r.L = sim.createGameLoop(w);
  r.sw = sim.createWorld({ capacity: 16, seed: 6n });
  build(r.sw, {});
  r.S = sim.createRollbackSession(r.sw, { players: 1 });
  r.run = sim.openScenario('hello');
  r.log = replayLog;
  r.Pl = sim.openReplay(replayLog, replayOptions);
  return r as Rig;
}

function disposeRig(r: Rig): void {
  for (const d of [r.S, r.L, r.R, r.Pl]) d.dispose();
  r.run.dispose();
  r.sw.dispose();
  r.w.dispose();
}

let replayLog: Uint8Array;
const replayOptions = { world: { capacity: 16 }, setup: (w: World) => build(w, {}) };

type Verdict = 'refused' | 'allowed';
type Where = 'plain' | 'defer' | 'system';
interface Case { verdict: Verdict; call: (r: Rig) => unknown; where?: Where }
const refused = (call: Case['call'], where?: Where): Case => ({ verdict: 'refused', call, where });
const allowed = (call: Case['call'], where?: Where): Case => ({ verdict: 'allowed', call, where });

const input = new Uint8Array([1]);
// Every public member, by class: its verdict inside a log handler.
const MATRIX: Record<string, Record<string, Case>> = {
  World: {
    dispose: refused((r) => r.w.dispose()),
    create: refused((r) => r.w.create()),
    destroy: refused((r) => r.w.destroy(r.e)),
    add: refused((r) => r.w.add(r.e, r.P, { v: 9, a: [0, 0, 0, 0] })),
    remove: refused((r) => r.w.remove(r.e, r.P)),
    clear: refused((r) => r.w.clear()),
    beginFrame: refused((r) => r.w.beginFrame()),
    registerComponent: refused((r) => r.w.registerComponent('Late', { v: 'u8' })),
    registerSystem: refused((r) => r.w.registerSystem({ name: 'Late', budgetMs: 1, run() {} })),
    scheduleSystems: refused((r) => r.w.scheduleSystems()),
    runSystems: refused((r) => r.w.runSystems()),
    setTimingClock: refused((r) => r.w.setTimingClock(() => 0)),
    each: refused((r) => r.w.each([r.P], ['write'], (_e, p) => { p.v = 0; })),
    eachChunk: refused((r) => r.w.eachChunk([r.P], ['read'], () => {})),
    defer: refused((r) => r.w.defer(() => {})),
    commands: refused((r) => r.w.commands, 'defer'),
    stateHash: refused((r) => r.w.stateHash(0)),
    componentStateHash: refused((r) => r.w.componentStateHash(0)),
    stateDiff: refused((r) => r.w.stateDiff(r.w)),
    systemCheckpoints: allowed((r) => r.w.systemCheckpoints),
    checkpoints: allowed((r) => r.w.checkpoints()),
    stateTreeRoot: refused((r) => r.w.stateTreeRoot(0)),
    stateTreeChildren: refused((r) => r.w.stateTreeChildren({ level: 0, part: 0, index: 0 })),
    stateTreeLeaf: refused((r) => r.w.stateTreeLeaf({ level: 3, part: 0, index: 0 })),
    desyncReport: refused((r) => r.w.desyncReport(r.w)),
    snapshot: refused((r) => r.w.snapshot()),
    snapshotInto: refused((r) => r.w.snapshotInto(new Uint8Array(r.snap.length))),
    restore: refused((r) => r.w.restore(r.snap)),
    observe: refused((r) => r.w.observe(r.P, 'onAdd', () => {})),
    flushObservers: refused((r) => r.w.flushObservers()),
    markChanged: refused((r) => r.w.markChanged(r.e, r.P)),
    trackChanges: refused((r) => r.w.trackChanges(r.P)),
    registerRelation: refused((r) => r.w.registerRelation('Late')),
    eachCascade: refused((r) => r.w.eachCascade(r.Rel, () => {})),
    registerPrefabs: refused((r) => r.w.registerPrefabs()),
    createPrefab: refused((r) => r.w.createPrefab()),
    makePrefab: refused((r) => r.w.makePrefab(r.e)),
    instantiate: refused((r) => r.w.instantiate(r.e)),
    prefabTag: allowed((r) => r.w.prefabTag),
    isPrefab: allowed((r) => r.w.isPrefab(r.e)),
    targetOf: allowed((r) => r.w.targetOf(r.e, r.Rel)),
    sourcesOf: allowed((r) => r.w.sourcesOf(r.e, r.Rel)),
    sourceCount: allowed((r) => r.w.sourceCount(r.e, r.Rel)),
    checkRelations: allowed((r) => r.w.checkRelations()),
    observerStats: allowed((r) => r.w.observerStats()),
    changeTicks: allowed((r) => r.w.changeTicks(r.e, r.P)),
    disposed: allowed((r) => r.w.disposed),
    options: allowed((r) => r.w.options),
    isValid: allowed((r) => r.w.isValid(r.e)),
    check: allowed((r) => r.w.check(r.e)),
    entityCount: allowed((r) => r.w.entityCount),
    capacity: allowed((r) => r.w.capacity),
    handleAt: allowed((r) => r.w.handleAt(0)),
    stats: allowed((r) => r.w.stats()),
    guardrailStats: allowed((r) => r.w.guardrailStats()),
    component: allowed((r) => r.w.component('P')),
    components: allowed((r) => r.w.components()),
    componentCount: allowed((r) => r.w.componentCount),
    has: allowed((r) => r.w.has(r.e, r.P)),
    get: allowed((r) => r.w.get(r.e, r.P)),
    archetypeOf: allowed((r) => r.w.archetypeOf(r.e)),
    archetypeCount: allowed((r) => r.w.archetypeCount),
    archetypeComponents: allowed((r) => r.w.archetypeComponents(1)),
    archetypeStats: allowed((r) => r.w.archetypeStats()),
    query: allowed((r) => r.w.query({ p: r.P.read })),
    commandStats: allowed((r) => r.w.commandStats()),
    systemTicksRun: allowed((r) => r.w.systemTicksRun),
    systems: allowed((r) => r.w.systems()),
    systemTimingStats: allowed((r) => r.w.systemTimingStats('Count')),
    systemTimingWindow: allowed((r) => r.w.systemTimingWindow('Count')),
    systemRngState: allowed((r) => r.w.systemRngState('Count')),
    toString: allowed((r) => r.w.toString()),
  },
  Query: {
    each: refused((r) => r.q.each((_e, { p }) => { (p as unknown as { v: number }).v = 0; })),
    eachChunk: refused((r) => r.q.eachChunk(() => {})),
    eachCascade: refused((r) => r.q.eachCascade(r.Rel, () => {})),
    eachSourceOf: refused((r) => r.q.eachSourceOf(r.Rel, r.e as never, () => {})),
    world: allowed((r) => r.q.world),
    archetypes: allowed((r) => r.q.archetypes()),
    count: allowed((r) => r.q.count()),
    toString: allowed((r) => r.q.toString()),
  },
  'field handle': {
    set: refused((r) => r.P.field.v.set(r.e, 9)),
    get: allowed((r) => r.P.field.v.get(r.e)),
    toString: allowed((r) => String(r.P.field.v)),
  },
  Commands: {
    create: refused((r) => r.cmds!.create(), 'defer'),
    destroy: refused((r) => r.cmds!.destroy(r.e), 'defer'),
    add: refused((r) => r.cmds!.add(r.e, r.P, { v: 9, a: [0, 0, 0, 0] }), 'defer'),
    remove: refused((r) => r.cmds!.remove(r.e, r.P), 'defer'),
    instantiate: refused((r) => r.cmds!.instantiate(r.e), 'defer'),
    pending: allowed((r) => r.cmds!.pending, 'defer'),
    toString: allowed((r) => r.cmds!.toString(), 'defer'),
  },
  SystemContext: {
    each: refused((r) => r.ctx!.each([r.P], ['read'], () => {}), 'system'),
    eachChunk: refused((r) => r.ctx!.eachChunk([r.P], ['read'], () => {}), 'system'),
    removed: refused((r) => r.ctx!.removed(r.P, () => {}), 'system'),
    queries: refused((r) => (r.ctx!.queries as unknown as Record<string, Query>).mine!.each(() => {}), 'system'),
    commands: refused((r) => r.ctx!.commands.add(r.e, r.w.component('H')!, { v: 9 }), 'system'),
    'rng.nextU32': refused((r) => r.ctx!.rng!.nextU32(), 'system'),
    'rng.nextU64': refused((r) => r.ctx!.rng!.nextU64(), 'system'),
    'rng.nextRange': refused((r) => r.ctx!.rng!.nextRange(0, 9), 'system'),
    'rng.nextFloat01': refused((r) => r.ctx!.rng!.nextFloat01(), 'system'),
    world: allowed((r) => r.ctx!.world.entityCount, 'system'),
    'id, name, tick, input': allowed((r) => [r.ctx!.id, r.ctx!.name, r.ctx!.tick, r.ctx!.input], 'system'),
    toString: allowed((r) => String(r.ctx!), 'system'),
    'rng.toString': allowed((r) => String(r.ctx!.rng), 'system'),
  },
  GameLoop: {
    frame: refused((r) => r.L.frame(1000)),
    step: refused((r) => r.L.step(1)),
    currentTick: allowed((r) => r.L.currentTick),
    alpha: allowed((r) => r.L.alpha),
    stats: allowed((r) => r.L.stats()),
    dispose: allowed((r) => r.L.dispose()), // the loop is not running: it changes no world
    toString: allowed((r) => r.L.toString()),
  },
  ReplayRecorder: {
    step: refused((r) => r.R.step()),
    frameCount: allowed((r) => r.R.frameCount),
    keyframeCount: allowed((r) => r.R.keyframeCount),
    writeFrame: allowed((r) => r.R.writeFrame(1)), // the recording, not the world
    finish: allowed((r) => r.R.finish()),
    dispose: allowed((r) => r.R.dispose()),
    toString: allowed((r) => r.R.toString()),
  },
  RollbackSession: {
    advance: refused((r) => { r.S.setLocalInput(1, input); return r.S.advance(); }),
    setLocalInput: allowed((r) => r.S.setLocalInput(1, input)),
    addRemoteInput: allowed((r) => thrownOrValue(() => r.S.addRemoteInput(0, 1, input))), // (player 0 is the local one here: refused for that, not for the handler)
    currentTick: allowed((r) => r.S.currentTick),
    confirmedTick: allowed((r) => r.S.confirmedTick),
    oldestTick: allowed((r) => r.S.oldestTick),
    pendingRollbackTick: allowed((r) => r.S.pendingRollbackTick),
    stats: allowed((r) => r.S.stats),
    confirmedHash: allowed((r) => thrownOrValue(() => r.S.confirmedHash(0))),
    confirmedHashes: allowed((r) => r.S.confirmedHashes()),
    addRemoteHash: refused((r) => r.S.addRemoteHash(1, 1n)),
    receiveDesync: refused((r) => r.S.receiveDesync(new Uint8Array(16))),
    desyncTick: allowed((r) => r.S.desyncTick),
    disposed: allowed((r) => r.S.disposed),
    dispose: allowed((r) => r.S.dispose()),
    toString: allowed((r) => r.S.toString()),
  },
  ReplayPlayer: {
    seek: refused((r) => r.Pl.seek(1)),
    step: refused((r) => r.Pl.step()),
    stepBack: refused((r) => r.Pl.stepBack()),
    stateHash: refused((r) => r.Pl.stateHash()),
    dispose: refused((r) => r.Pl.dispose()),
    tick: allowed((r) => r.Pl.tick),
    stats: allowed((r) => r.Pl.stats()),
    disposed: allowed((r) => r.Pl.disposed),
    toString: allowed((r) => r.Pl.toString()),
  },
  ScenarioRun: {
    step: refused((r) => r.run.step()),
    stateHash: refused((r) => r.run.stateHash()),
    dispose: refused((r) => r.run.dispose()),
    tick: allowed((r) => r.run.tick),
    generatedInput: allowed((r) => r.run.generatedInput(1)),
    disposed: allowed((r) => r.run.disposed),
    toString: allowed((r) => r.run.toString()),
  },
  Laige: {
    createRollbackSession: refused((r) => sim.createRollbackSession(r.w)),
    runReplay: refused((r) => sim.runReplay(r.log, replayOptions)),
    openReplay: refused((r) => sim.openReplay(r.log, replayOptions)),
    diffReplays: refused((r) => sim.diffReplays(r.log, r.log, replayOptions)),
    runScenario: refused(() => sim.runScenario('hello', { ticks: 2 })),
    version: allowed(() => sim.version),
    worldCount: allowed(() => sim.worldCount),
    memoryBytes: allowed(() => sim.memoryBytes),
    errorLine: allowed(() => sim.errorLine(2)),
    createWorld: allowed(() => later.push(sim.createWorld({ capacity: 4 }))), // a new world: no call is working on it (disposing one is refused)
    createGameLoop: allowed((r) => sim.createGameLoop(r.w).dispose()),
    recordReplay: allowed((r) => sim.recordReplay(r.w).dispose()),
    parseReplay: allowed((r) => sim.parseReplay(r.log)),
    scenarios: allowed(() => sim.scenarios()),
    openScenario: allowed(() => later.push(sim.openScenario('hello').world)),
    scenarioPlayerInput: allowed(() => sim.scenarioPlayerInput('input', 0, 1)),
    onLog: allowed(() => undefined), // (replacing the handler from inside it: exercised by every case's cleanup)
    setLogRateLimiting: allowed(() => sim.setLogRateLimiting(false)),
    setLogLevel: allowed(() => sim.setLogLevel('debug')),
    toString: allowed(() => sim.toString()),
  },
  Entities: {
    // A plain TypeScript allocator, no world: nothing to refuse.
    spawn: allowed(() => new Entities(4).spawn()),
    despawn: allowed(() => { const a = new Entities(4); a.despawn(a.spawn()!); }),
    isAlive: allowed(() => new Entities(4).isAlive(0)),
    length: allowed(() => new Entities(4).length),
    capacity: allowed(() => new Entities(4).capacity),
    highWater: allowed(() => new Entities(4).highWater),
    despawnAll: allowed(() => new Entities(4).despawnAll()),
    toString: allowed(() => new Entities(4).toString()),
  },
  Component: {
    toString: allowed((r) => r.P.toString()),
  },
};

/** Worlds a case made inside the handler, disposed after it. */
const later: World[] = [];

function thrownOrValue(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (e) {
    if (e instanceof LaigeError && e.reason === 'call_inside_log_handler') throw e;
    return e;
  }
}

/** Members a class has that are no calls of the API (module internals marked @internal). */
const INTERNAL: Record<string, readonly string[]> = { Laige: ['registerWorld', 'unregisterWorld', 'registerLoop', 'unregisterLoop', 'registerSession', 'unregisterSession'] };

/** Makes the core log (a failing read: it changes nothing) with `fire` as the handler, from the context the case needs. */
function trigger(r: Rig, where: Where, fire: () => void): void {
  const logOnce = (): void => {
    sim.onLog(() => fire());
    try {
      r.w.check(r.stale);
    } catch {
      // stale_entity_access: expected, it is what logged
    } finally {
      sim.onLog(null);
    }
  };
  if (where === 'defer') {
    r.w.defer((c) => { r.cmds = c; try { logOnce(); } finally { r.cmds = undefined; } });
  } else if (where === 'system') {
    r.hook = logOnce;
    try { r.w.runSystems(); } finally { r.hook = undefined; }
  } else {
    logOnce();
  }
}

function hashes(r: Rig): bigint[] {
  return [r.w.stateHash(r.w.systemTicksRun), r.sw.stateHash(r.sw.systemTicksRun), r.run.disposed ? 0n : r.run.stateHash()];
}

beforeAll(() => {
  sim.setLogRateLimiting(false);
  const w = sim.createWorld({ capacity: 16 });
  build(w, {});
  const rec = sim.recordReplay(w);
  for (let i = 0; i < 2; i++) rec.step();
  replayLog = rec.finish();
  w.dispose();
});
afterAll(() => {
  sim.setLogRateLimiting(true);
  sim.setLogLevel('info');
});

describe('every public member has a verdict inside a log handler', () => {
  const classes: Record<string, { prototype: object }> = {
    World, Query, Commands, GameLoop, ReplayRecorder, ReplayPlayer, RollbackSession, ScenarioRun, Laige, Entities, Component,
  };
  for (const [name, cls] of Object.entries(classes)) {
    it(name, () => {
      const members = Object.getOwnPropertyNames(cls.prototype)
        .filter((m) => m !== 'constructor' && !m.startsWith('_') && !(INTERNAL[name] ?? []).includes(m));
      expect(members.filter((m) => MATRIX[name]![m] === undefined), `${name}: members without a verdict`).toEqual([]);
    });
  }
});

describe('the objects a system run hands out have a verdict too', () => {
  it('SystemContext, SystemRng and a field handle', () => {
    const r = rig();
    let keys: string[] = [];
    let rngKeys: string[] = [];
    r.hook = () => {
      keys = Object.keys(r.ctx!);
      rngKeys = Object.getOwnPropertyNames(Object.getPrototypeOf(r.ctx!.rng)).filter((m) => m !== 'constructor');
    };
    r.w.runSystems();
    const ctx = MATRIX.SystemContext!;
    const named = new Set(Object.keys(ctx).flatMap((k) => k.split(', ')));
    expect(keys.filter((k) => k !== 'rng' && !named.has(k))).toEqual([]);
    expect(rngKeys.filter((k) => ctx[`rng.${k}`] === undefined)).toEqual([]);
    const handle = Object.getOwnPropertyNames(Object.getPrototypeOf(r.P.field.v)).filter((m) => m !== 'constructor' && !m.startsWith('_'));
    expect(handle.filter((m) => MATRIX['field handle']![m] === undefined)).toEqual([]);
    disposeRig(r);
  });
});

describe('a call that is a read unless it must schedule first', () => {
  it('createGameLoop over a world with a system not scheduled yet is refused (it would schedule); the schedule is unchanged', () => {
    const r = rig();
    r.w.registerSystem({ name: 'Late', budgetMs: 1, run() {} });
    let outcome: unknown = 'not called';
    trigger(r, 'plain', () => {
      try {
        sim.createGameLoop(r.w);
        outcome = 'ok';
      } catch (e) {
        outcome = e;
      }
    });
    expect([(outcome as LaigeError).reason, (outcome as LaigeError).fields.call]).toEqual(['call_inside_log_handler', 'World.scheduleSystems']);
    expect(r.w.systems().map((s) => s.name)).toEqual(['Count', 'Hook', 'Late']);
    const L = sim.createGameLoop(r.w); // after the handler: schedules, then runs all three
    L.step(1);
    expect(r.w.systemTicksRun).toBe(1);
    L.dispose();
    disposeRig(r);
  });
});

describe('inside a log handler: the one rule', () => {
  for (const [cls, cases] of Object.entries(MATRIX)) {
    for (const [member, c] of Object.entries(cases)) {
      it(`${cls}.${member}: ${c.verdict}`, () => {
        const a = rig();
        const b = rig();
        let outcome: unknown = 'not called';
        let done = false;
        const where = c.where ?? 'plain';
        trigger(a, where, () => {
          if (done) return;
          done = true;
          try {
            c.call(a);
            outcome = 'ok';
          } catch (e) {
            outcome = e;
          }
        });
        trigger(b, where, () => {});
        expect(outcome, 'the handler ran').not.toBe('not called');
        if (c.verdict === 'allowed') {
          expect(outcome, `${cls}.${member}: ${String(outcome)}`).toBe('ok');
        } else {
          expect(outcome, `${cls}.${member}: ${String(outcome)}`).toBeInstanceOf(LaigeError);
          const e = outcome as LaigeError;
          expect([e.code, e.reason, e.fields.callback]).toEqual(['invalid_argument', 'call_inside_log_handler', 'onLog']);
          expect(String(e.fields.call)).not.toBe('');
          expect(a.w.disposed || a.run.disposed, 'nothing was disposed').toBe(false);
          expect(a.w.systemTicksRun).toBe(b.w.systemTicksRun);
          expect(a.w.entityCount).toBe(b.w.entityCount);
          expect(hashes(a), 'every world equals the untouched twin').toEqual(hashes(b));
        }
        disposeRig(a);
        disposeRig(b);
        for (const w of later.splice(0)) w.dispose();
      });
    }
  }
});
