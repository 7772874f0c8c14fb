// A rollback session's hooks (docs/rollback.md#re-entrancy): everything the
// session calls while advance() is on the stack (the combine function, the
// world's systems and their each callbacks, onConfirmed) may not re-enter
// the session. advance() from one is tick_inside_callback naming the call
// and the callback, setLocalInput / addRemoteInput are input_inside_advance,
// dispose() is dispose_inside_call; each refusal leaves the session and its
// world exactly as a twin session that never made the call: the same
// currentTick, stats, lastAdvance, confirmed hashes, onConfirmed order and
// state hash.
import { describe, expect, it } from 'vitest';
import { LaigeError, type RollbackSession, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

type Hook = 'combine' | 'onConfirmed' | 'system' | 'each in a system' | 'clock';
interface Rig { w: World; s: RollbackSession; seen: number[]; fire: Partial<Record<Hook, () => void>> }

/** A world whose system sums ctx.input into a counter, and a 2-player session over it. */
function rig(): Rig {
  const w = sim.createWorld({ capacity: 8, seed: 7n });
  const C = w.registerComponent('C', { v: 'i32' });
  const fire: Rig['fire'] = {};
  w.registerSystem({
    name: 'Sum', budgetMs: 100, io: [[C, 'write']],
    run(ctx) {
      fire.system?.();
      let add = ctx.tick;
      for (const b of ctx.input) add += b;
      ctx.each([C], ['write'], (_e, c) => { fire['each in a system']?.(); c.v += add; });
    },
  });
  w.add(w.create(), C, { v: 0 });
  w.setTimingClock(() => { fire.clock?.(); return 0; });
  const seen: number[] = [];
  const s = sim.createRollbackSession(w, {
    players: 2, localPlayer: 0, depth: 6, maxInputBytes: 2,
    combine: (_tick, inputs) => { fire.combine?.(); return Uint8Array.from([...inputs[0]!, ...inputs[1]!]); },
    onConfirmed: (tick) => { seen.push(tick); fire.onConfirmed?.(); },
  });
  return { w, s, seen, fire };
}

/**
 * Ticks 1..6 with the remote input 2 ticks late, then 7 with the remote
 * inputs of 5 and 6 (5 differs from its prediction: a rollback; 5 and 6 are
 * confirmed by that one advance).
 */
function drive(r: Rig, beforeLast: () => void = () => {}): void {
  const { s } = r;
  for (let t = 1; t <= 6; t++) {
    s.setLocalInput(t, Uint8Array.of(t));
    if (t > 2) s.addRemoteInput(1, t - 2, Uint8Array.of(1));
    s.advance();
  }
  s.setLocalInput(7, Uint8Array.of(7));
  s.addRemoteInput(1, 5, Uint8Array.of(2));
  s.addRemoteInput(1, 6, Uint8Array.of(2));
  beforeLast();
  s.advance();
}

/** What must be equal between a rig and its twin. */
function state(r: Rig): unknown {
  const { s, w } = r;
  return {
    tick: s.currentTick, confirmed: s.confirmedTick, pending: s.pendingRollbackTick, stats: s.stats,
    last: { ...s.lastAdvance, ms: 0 }, hashes: s.confirmedHashes(), seen: r.seen, hash: w.stateHash(w.systemTicksRun),
  };
}

const CALLS: Record<string, { call: (s: RollbackSession) => unknown; reason: string; fields: (hook: string) => Record<string, string> }> = {
  advance: { call: (s) => s.advance(), reason: 'tick_inside_callback', fields: (hook) => ({ call: 'RollbackSession.advance', callback: hook }) },
  setLocalInput: { call: (s) => s.setLocalInput(s.currentTick + 3, Uint8Array.of(9)), reason: 'input_inside_advance', fields: () => ({ call: 'setLocalInput' }) },
  addRemoteInput: { call: (s) => s.addRemoteInput(1, s.currentTick + 3, Uint8Array.of(9)), reason: 'input_inside_advance', fields: () => ({ call: 'addRemoteInput' }) },
  dispose: { call: (s) => s.dispose(), reason: 'dispose_inside_call', fields: (hook) => ({ call: 'RollbackSession.dispose', object: 'RollbackSession', callback: hook }) },
};
/** The callback kind a refusal names for each hook. */
const CALLBACK: Record<Hook, string> = { combine: 'combine', onConfirmed: 'onConfirmed', system: 'system', 'each in a system': 'each', clock: 'clock' };

describe('rollback: the session cannot be re-entered from its hooks', () => {
  for (const hook of Object.keys(CALLBACK) as Hook[]) {
    for (const [name, c] of Object.entries(CALLS)) {
      // Fired at every call of the hook during the rolling advance (tick 7):
      // re-simulated ticks, the new tick and each confirmation.
      it(`${name} from ${hook}, during a rolling advance`, () => {
        const a = rig();
        const b = rig();
        const errors: unknown[] = [];
        drive(a, () => { a.fire[hook] = () => { errors.push(thrown(() => c.call(a.s))); }; });
        drive(b);
        expect(errors.length, 'the hook ran during the advance').toBeGreaterThan(0);
        for (const e of errors) {
          expect(e).toBeInstanceOf(LaigeError);
          expect((e as LaigeError).reason, (e as Error).message).toBe(c.reason);
          expect((e as LaigeError).fields).toEqual(c.fields(CALLBACK[hook]));
        }
        expect(a.s.disposed).toBe(false);
        expect(state(a)).toEqual(state(b));
        expect(a.s.lastAdvance.confirmed.map((x) => x.tick)).toEqual([5, 6]);
        expect(a.seen).toEqual([1, 2, 3, 4, 5, 6]);
        a.w.dispose();
        b.w.dispose();
      });
    }
  }

  it('advance() from onConfirmed: the outer call returns its own ticks, in order, and the callbacks run in tick order', () => {
    const a = rig();
    let inner: unknown = null;
    // Both ticks the last advance confirms try to advance again.
    a.fire.onConfirmed = () => {
      if (a.s.currentTick === 7 && inner === null) inner = thrown(() => a.s.advance());
    };
    for (let t = 1; t <= 6; t++) {
      a.s.setLocalInput(t, Uint8Array.of(t));
      if (t > 2) a.s.addRemoteInput(1, t - 2, Uint8Array.of(1));
      a.s.advance();
    }
    a.s.setLocalInput(7, Uint8Array.of(7));
    a.s.setLocalInput(8, Uint8Array.of(8)); // an inner advance would find its input
    a.s.addRemoteInput(1, 5, Uint8Array.of(2));
    a.s.addRemoteInput(1, 6, Uint8Array.of(2));
    a.s.addRemoteInput(1, 7, Uint8Array.of(2));
    const outer = a.s.advance();
    expect((inner as LaigeError).reason).toBe('tick_inside_callback');
    expect((inner as LaigeError).fields).toEqual({ call: 'RollbackSession.advance', callback: 'onConfirmed' });
    expect(outer.tick).toBe(7);
    expect(outer.confirmed.map((c) => c.tick)).toEqual([5, 6, 7]);
    expect(a.seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(a.s.currentTick).toBe(7);
    expect(a.s.stats.advances).toBe(7);
    a.w.dispose();
  });

  it('another session of the same world cannot advance from a hook either; one of another world can', () => {
    const a = rig();
    const other = sim.createRollbackSession(a.w, { players: 1, maxInputBytes: 1 });
    other.setLocalInput(1, Uint8Array.of(1));
    const elsewhere = rig();
    elsewhere.s.setLocalInput(1, Uint8Array.of(1));
    elsewhere.s.addRemoteInput(1, 1, Uint8Array.of(1));
    const got: unknown[] = [];
    a.fire.onConfirmed = () => {
      if (got.length > 0) return;
      got.push(thrown(() => other.advance()));
      got.push(elsewhere.s.advance().tick);
    };
    drive(a);
    expect((got[0] as LaigeError).reason).toBe('tick_inside_callback');
    expect((got[0] as LaigeError).fields).toEqual({ call: 'RollbackSession.advance', callback: 'onConfirmed' });
    expect(got[1]).toBe(1);
    expect(other.currentTick).toBe(0);
    a.w.dispose();
    elsewhere.w.dispose();
  });
});
