// The re-entrancy matrix (docs/typescript.md#callbacks-and-re-entrancy):
// every tick-running, restoring and disposing call, made from every
// callback kind, has its documented outcome (refused with its reason, or
// allowed), never a wasm RuntimeError, and the world ends exactly like an
// untouched twin that ran the same callbacks without making the call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaigeError, type GameLoop, type ReplayRecorder, type RollbackSession, type World } from '../../dist/index.js';
import { sim } from './support/sim.js';

interface Hooks {
  system?: () => void; input?: () => void; onTick?: () => void; clock?: () => void; combine?: () => void; onConfirmed?: () => void;
}
/** A world with a loop, a recorder and (outside a replay's setup) a rollback session, and the state it started from. */
interface Rig { w: World; L: GameLoop; R: ReplayRecorder; S: RollbackSession | null; start: Uint8Array; hooks: Hooks }

/** The scene: a counter component, a system that counts, one that reads it and calls a hook, 3 entities. */
function build(w: World, hooks: Hooks): void {
  const P = w.registerComponent('P', { v: 'i32' });
  w.registerSystem({
    name: 'Count', budgetMs: 100, io: [[P, 'write']],
    run(ctx) { ctx.each([P], ['write'], (_e, p) => { p.v += ctx.tick; }); },
  });
  // Hook reads P: the 'each in a system' kind iterates P from inside it, and a
  // system's declared io is enforced (docs/typescript.md#enforced-access).
  w.registerSystem({ name: 'Hook', budgetMs: 100, dependsOn: ['Count'], io: [[P, 'read']], run() { hooks.system?.(); } });
  for (let i = 0; i < 3; i++) w.add(w.create(), P, { v: i });
  w.setTimingClock(() => { hooks.clock?.(); return 0; });
}

function rigOn(w: World, hooks: Hooks, withSession = true): Rig {
  build(w, hooks);
  const start = w.snapshot();
  const R = sim.recordReplay(w);
  const L = sim.createGameLoop(w, { input: () => { hooks.input?.(); return undefined; }, onTick: () => hooks.onTick?.() });
  // One player: every advance confirms its tick (onConfirmed runs each time).
  const S = withSession
    ? sim.createRollbackSession(w, {
      players: 1, maxInputBytes: 1,
      combine: (_tick, inputs) => { hooks.combine?.(); return inputs[0]!; },
      onConfirmed: () => hooks.onConfirmed?.(),
    })
    : null;
  for (let t = 1; t <= 8 && S !== null; t++) S.setLocalInput(t, Uint8Array.of(t));
  return { w, L, R, S, start, hooks };
}
function rig(): Rig {
  return rigOn(sim.createWorld({ capacity: 16, seed: 5n }), {});
}

// A small recording of the scene (3 ticks), replayed by the sim.runReplay call.
let log: Uint8Array;
const replayOptions = { world: { capacity: 16 }, setup: (w: World) => build(w, {}) };

type Call = (r: Rig) => unknown;
const TICKS: Record<string, Call> = {
  'world.runSystems': (r) => r.w.runSystems(),
  'loop.step': (r) => r.L.step(1),
  'loop.frame': (r) => r.L.frame(1000),
  'recorder.step': (r) => r.R.step(),
};
const MODULE_TICKS: Record<string, Call> = {
  'sim.runScenario': () => sim.runScenario('hello', { ticks: 3 }),
  'sim.runReplay': () => sim.runReplay(log, replayOptions),
};
const SESSION_TICKS: Record<string, Call> = {
  'session.advance': (r) => r.S!.advance(),
};
const RESTORES: Record<string, Call> = {
  // Valid bytes: outside a callback they restore (checked below).
  'world.restore': (r) => r.w.restore(r.start),
};
const DISPOSALS: Record<string, Call> = {
  'world.dispose': (r) => r.w.dispose(),
  'loop.dispose': (r) => r.L.dispose(),
  'recorder.dispose': (r) => r.R.dispose(),
  'recorder.finish': (r) => r.R.finish(),
};
const SESSION_DISPOSALS: Record<string, Call> = {
  'session.dispose': (r) => r.S!.dispose(),
};
/** Every call of the matrix on a rig with a session. */
const CALLS: Record<string, Call> = { ...TICKS, ...SESSION_TICKS, ...MODULE_TICKS, ...RESTORES, ...DISPOSALS, ...SESSION_DISPOSALS };

type Fire = () => void;
/** How each callback kind is entered: the driver runs `fire` from inside it. */
const KINDS: Record<string, (r: Rig, fire: Fire) => void> = {
  each: (r, fire) => r.w.each([r.w.component('P')!], ['read'], () => fire()),
  eachChunk: (r, fire) => r.w.eachChunk([r.w.component('P')!], ['read'], () => fire()),
  'system (runSystems)': (r, fire) => { r.hooks.system = fire; r.w.runSystems(); },
  'system (loop.step)': (r, fire) => { r.hooks.system = fire; r.L.step(1); },
  'system (recorder.step)': (r, fire) => { r.hooks.system = fire; r.R.step(); },
  'each in a system': (r, fire) => {
    r.hooks.system = () => r.w.each([r.w.component('P')!], ['read'], () => fire());
    r.w.runSystems();
  },
  'loop input': (r, fire) => { r.hooks.input = fire; r.L.step(1); },
  'loop onTick': (r, fire) => { r.hooks.onTick = fire; r.L.step(1); },
  'timing clock': (r, fire) => { r.hooks.clock = fire; r.w.runSystems(); },
  defer: (r, fire) => r.w.defer(() => fire()),
  'session combine': (r, fire) => { r.hooks.combine = fire; r.S!.advance(); },
  'session onConfirmed': (r, fire) => { r.hooks.onConfirmed = fire; r.S!.advance(); },
  'system (session.advance)': (r, fire) => { r.hooks.system = fire; r.S!.advance(); },
  // The 4th entity of 16 crosses the 25% budget: create() logs entity_budget_25.
  'onLog (during create)': (r, fire) => {
    sim.onLog(() => fire());
    try {
      r.w.create();
    } finally {
      sim.onLog(null);
    }
  },
};

/** The documented outcome: the reason of the refusal, or null when the call is allowed. */
function expected(kind: string, call: string): string | null {
  // Inside a log handler one rule comes first (tests/ts/log_handler_calls.test.ts).
  if (kind.startsWith('onLog') && (call in TICKS || call in SESSION_TICKS || call in MODULE_TICKS || call === 'world.dispose')) return 'call_inside_log_handler';
  if (call in TICKS || call in SESSION_TICKS) return 'tick_inside_callback';
  if (call in MODULE_TICKS) return kind.startsWith('onLog') ? 'tick_inside_callback' : null;
  if (call in RESTORES) return kind.startsWith('onLog') ? 'call_inside_log_handler' : 'restore_inside_callback';
  if (call === 'world.dispose') return 'dispose_inside_call';
  const loopFrame = kind === 'loop input' || kind === 'loop onTick' || kind === 'system (loop.step)';
  if (call === 'loop.dispose') return loopFrame ? 'dispose_inside_call' : null;
  const inAdvance = kind.startsWith('session ') || kind === 'system (session.advance)';
  if (call === 'session.dispose') return inAdvance ? 'dispose_inside_call' : null;
  return kind === 'system (recorder.step)' ? 'dispose_inside_call' : null; // recorder.dispose / finish
}

/** The callback kind a refusal names (fields.callback), by matrix kind. */
const CALLBACK_OF: Record<string, string> = {
  each: 'each', eachChunk: 'eachChunk', 'system (runSystems)': 'system', 'system (loop.step)': 'system', 'system (recorder.step)': 'system',
  'each in a system': 'each', 'loop input': 'input', 'loop onTick': 'onTick', 'timing clock': 'clock', 'onLog (during create)': 'onLog',
  defer: 'defer', 'session combine': 'combine', 'session onConfirmed': 'onConfirmed', 'system (session.advance)': 'system',
};

/** Runs `call` once from inside the callback; returns what it threw (or 'ok'). */
function fireOnce(r: Rig, call: Call | null): { fire: Fire; result: () => unknown } {
  let done = false;
  let outcome: unknown = 'not called';
  return {
    fire: () => {
      if (done) return;
      done = true;
      if (call === null) return;
      try {
        call(r);
        outcome = 'ok';
      } catch (e) {
        outcome = e;
      }
    },
    result: () => outcome,
  };
}

function hashOf(w: World): bigint {
  return w.stateHash(w.systemTicksRun);
}

beforeAll(() => {
  sim.setLogRateLimiting(false);
  const r = rig();
  for (let i = 0; i < 3; i++) r.R.step();
  log = r.R.finish();
  r.w.dispose();
});
afterAll(() => sim.setLogRateLimiting(true));

function checkOutcome(label: string, got: unknown, want: string | null, callback?: string): void {
  expect(got, `${label}: the callback ran`).not.toBe('not called');
  if (got !== 'ok') {
    expect((got as Error).name, `${label}: ${String(got)}`).not.toBe('RuntimeError'); // a wasm trap
    expect(got, `${label}: ${String(got)}`).toBeInstanceOf(LaigeError);
  }
  if (want === null) {
    expect(got, `${label}: allowed`).toBe('ok');
  } else {
    const e = got as LaigeError;
    expect(e.code, label).toBe('invalid_argument');
    expect(e.reason, label).toBe(want);
    expect(e.message.startsWith('World') || e.message.includes(':'), label).toBe(true);
    if (callback !== undefined && want !== 'call_inside_log_handler') {
      // The refusal names the refused call and the callback it came from.
      expect(e.fields, `${label}: ${e.message}`).toMatchObject({ call: expect.any(String), callback });
    }
  }
}

describe('re-entrancy matrix: every call from every callback kind', () => {
  for (const [kind, drive] of Object.entries(KINDS)) {
    for (const [call, fn] of Object.entries(CALLS)) {
      it(`${call} from ${kind}`, () => {
        const a = rig();
        const b = rig();
        const fa = fireOnce(a, fn);
        const fb = fireOnce(b, null);
        drive(a, fa.fire);
        drive(b, fb.fire);
        checkOutcome(`${call} from ${kind}`, fa.result(), expected(kind, call), CALLBACK_OF[kind]);
        expect(a.w.disposed, 'the world is still there').toBe(false);
        expect(a.w.systemTicksRun).toBe(b.w.systemTicksRun);
        expect(hashOf(a.w), 'state hash equals the untouched twin').toBe(hashOf(b.w));
        if (a.S !== null && !a.S.disposed) {
          // The session is exactly as its twin's: ticks, confirmations, counters.
          expect([a.S.currentTick, a.S.confirmedTick, a.S.stats.advances]).toEqual([b.S!.currentTick, b.S!.confirmedTick, b.S!.stats.advances]);
          expect(a.S.confirmedHashes()).toEqual(b.S!.confirmedHashes());
        }
        // Both stay usable and stay equal.
        a.hooks.system = a.hooks.clock = undefined;
        b.hooks.system = b.hooks.clock = undefined;
        a.w.runSystems();
        b.w.runSystems();
        expect(hashOf(a.w)).toBe(hashOf(b.w));
        // Outside every callback the same bytes restore.
        a.w.restore(a.start);
        b.w.restore(b.start);
        expect(hashOf(a.w)).toBe(hashOf(b.w));
        a.w.dispose();
        b.w.dispose();
      });
    }
  }
});

describe('re-entrancy matrix: a replay setup', () => {
  // A session cannot be created inside setup (it is refused like a tick): the rig has none.
  for (const [call, fn] of Object.entries({ ...TICKS, ...MODULE_TICKS, ...RESTORES, ...DISPOSALS })) {
    it(`${call} from a replay's setup`, () => {
      let outcome: unknown = 'not called';
      const withCall = sim.runReplay(log, {
        world: { capacity: 16 },
        setup: (w) => {
          const r = rigOn(w, {}, false);
          try {
            fn(r);
            outcome = 'ok';
          } catch (e) {
            outcome = e;
          }
        },
      });
      const twin = sim.runReplay(log, { world: { capacity: 16 }, setup: (w) => { rigOn(w, {}, false); } });
      const want = call in MODULE_TICKS || call === 'loop.dispose' || call.startsWith('recorder.') && call !== 'recorder.step'
        ? null : call === 'world.dispose' ? 'dispose_inside_call' : call in RESTORES ? 'restore_inside_callback' : 'tick_inside_callback';
      checkOutcome(`${call} from setup`, outcome, want, 'setup');
      expect(withCall, 'every tick hash equals the twin').toEqual(twin);
    });
  }
});

describe('re-entrancy matrix: a C++ scenario run', () => {
  type RunRig = { run: ReturnType<typeof sim.openScenario>; L: GameLoop; S: RollbackSession; start: Uint8Array; hooks: Hooks };
  function runRig(): RunRig {
    const hooks: Hooks = {};
    const run = sim.openScenario('hello');
    const start = run.world.snapshot();
    const L = sim.createGameLoop(run, { input: () => { hooks.input?.(); return undefined; }, onTick: () => hooks.onTick?.() });
    const S = sim.createRollbackSession(run, {
      players: 1, maxInputBytes: 1,
      combine: (_tick, inputs) => { hooks.combine?.(); return inputs[0]!; },
      onConfirmed: () => hooks.onConfirmed?.(),
    });
    for (let t = 1; t <= 4; t++) S.setLocalInput(t, new Uint8Array(0));
    return { run, L, S, start, hooks };
  }
  const calls: Record<string, (r: RunRig) => unknown> = {
    'run.step': (r) => r.run.step(),
    'loop.step': (r) => r.L.step(1),
    'session.advance': (r) => r.S.advance(),
    'run.world.restore': (r) => r.run.world.restore(r.start),
    'run.dispose': (r) => r.run.dispose(),
  };
  const kinds: Record<string, (r: RunRig, fire: Fire) => void> = {
    each: (r, fire) => r.run.world.each([], [], () => fire()),
    'loop input': (r, fire) => { r.hooks.input = fire; r.L.step(1); },
    'loop onTick': (r, fire) => { r.hooks.onTick = fire; r.L.step(1); },
    'session combine': (r, fire) => { r.hooks.combine = fire; r.S.advance(); },
    'session onConfirmed': (r, fire) => { r.hooks.onConfirmed = fire; r.S.advance(); },
  };
  const callbackOf: Record<string, string> = {
    each: 'each', 'loop input': 'input', 'loop onTick': 'onTick', 'session combine': 'combine', 'session onConfirmed': 'onConfirmed',
  };
  for (const [kind, drive] of Object.entries(kinds)) {
    for (const [call, fn] of Object.entries(calls)) {
      it(`${call} from ${kind}`, () => {
        const a = runRig();
        const b = runRig();
        a.run.step();
        b.run.step();
        let outcome: unknown = 'not called';
        let done = false;
        drive(a, () => {
          if (done) return;
          done = true;
          try {
            fn(a);
            outcome = 'ok';
          } catch (e) {
            outcome = e;
          }
        });
        drive(b, () => {});
        const want = call === 'run.dispose' ? 'dispose_inside_call' : call === 'run.world.restore' ? 'restore_inside_callback' : 'tick_inside_callback';
        checkOutcome(`${call} from ${kind}`, outcome, want, callbackOf[kind]);
        expect(a.run.disposed).toBe(false);
        expect(a.run.tick).toBe(b.run.tick);
        expect(a.run.stateHash()).toBe(b.run.stateHash());
        a.run.step();
        b.run.step();
        expect(a.run.stateHash()).toBe(b.run.stateHash());
        a.run.dispose();
        b.run.dispose();
      });
    }
  }
});

describe('inside a log handler: calls that change or walk a world are refused', () => {
  const calls: Record<string, (r: Rig) => unknown> = {
    create: (r) => r.w.create(),
    destroy: (r) => r.w.destroy(r.w.handleAt(0)!),
    add: (r) => r.w.add(r.w.handleAt(0)!, r.w.component('P')!, { v: 7 }),
    remove: (r) => r.w.remove(r.w.handleAt(0)!, r.w.component('P')!),
    clear: (r) => r.w.clear(),
    beginFrame: (r) => r.w.beginFrame(),
    registerComponent: (r) => r.w.registerComponent('Q', { v: 'u8' }),
    registerSystem: (r) => r.w.registerSystem({ name: 'Late', budgetMs: 1, run() {} }),
    scheduleSystems: (r) => r.w.scheduleSystems(),
    each: (r) => r.w.each([], [], () => {}),
    eachChunk: (r) => r.w.eachChunk([r.w.component('P')!], ['read'], () => {}),
    stateHash: (r) => r.w.stateHash(0),
    componentStateHash: (r) => r.w.componentStateHash(0),
    stateDiff: (r) => r.w.stateDiff(r.w),
  };
  for (const [name, fn] of Object.entries(calls)) {
    it(`${name} from a log handler during create()`, () => {
      const a = rig();
      const b = rig();
      const fa = fireOnce(a, fn);
      KINDS['onLog (during create)']!(a, fa.fire);
      KINDS['onLog (during create)']!(b, () => {});
      checkOutcome(`${name} from onLog`, fa.result(), 'call_inside_log_handler');
      expect(a.w.entityCount).toBe(b.w.entityCount);
      expect(hashOf(a.w)).toBe(hashOf(b.w));
      // Reads stay allowed: the handler may look at what it is told about.
      const fr = fireOnce(a, (r) => [r.w.entityCount, r.w.isValid(r.w.handleAt(0)!), r.L.currentTick, r.w.systems().length]);
      sim.onLog(() => fr.fire());
      try {
        a.w.create();
        a.w.create();
        a.w.create();
        a.w.create(); // the 8th of 16: entity_budget_50
      } finally {
        sim.onLog(null);
      }
      expect(fr.result()).toBe('ok');
      a.w.dispose();
      b.w.dispose();
    });
  }
});

describe('scheduling inside a tick', () => {
  it('scheduleSystems from a system is refused; the running tick is unchanged', () => {
    const a = rig();
    const b = rig();
    const got: unknown[] = [];
    a.hooks.system = () => {
      for (const fn of [() => a.w.scheduleSystems()]) {
        try {
          fn();
          got.push('ok');
        } catch (e) {
          got.push(e);
        }
      }
    };
    a.w.runSystems();
    b.w.runSystems();
    expect(got).toHaveLength(1);
    for (const e of got) checkOutcome('schedule inside a tick', e, 'schedule_inside_tick');
    expect(hashOf(a.w)).toBe(hashOf(b.w));
    a.w.dispose();
    b.w.dispose();
  });
});
