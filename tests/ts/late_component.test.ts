// A component registered after systems have run is legal
// (docs/typescript.md#components-by-schema): the registration changes no
// state, systems and queries keep working, the state hash sees the new
// component once an entity has it (exactly as if it had been registered at
// setup), and what was saved of the setup before it is refused cleanly: a
// snapshot taken before it (snapshot_setup_mismatch), a rollback past it.
import { describe, expect, it } from 'vitest';
import { LaigeError, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

/** Position and a system moving it; `early`: Health registered at setup rather than later. */
function scene(early: boolean) {
  const w = sim.createWorld({ capacity: 32, seed: 7n });
  const P = w.registerComponent('P', { x: 'i32' });
  const H0 = early ? w.registerComponent('Health', { hp: 'u16', regen: 'u16' }) : undefined;
  w.registerSystem({ name: 'Move', budgetMs: 100, queries: { q: { p: P.write } }, run(ctx) { ctx.queries.q.each((_e, { p }) => { p.x += 3; }); } });
  for (let i = 0; i < 5; i++) w.add(w.create(), P, { x: i });
  return { w, P, H0 };
}

/** The late part of the scene: Health on two entities, a system that regenerates it. */
function addHealth(w: World, H: NonNullable<ReturnType<typeof scene>['H0']>): void {
  w.add(w.handleAt(1)!, H, { hp: 10, regen: 2 });
  w.add(w.handleAt(3)!, H, { hp: 20, regen: 1 });
  w.registerSystem({ name: 'Regen', budgetMs: 100, queries: { q: { h: H.write } }, run(ctx) { ctx.queries.q.each((_e, { h }) => { h.hp += h.regen; }); } });
}

const hash = (w: World): bigint => w.stateHash(w.systemTicksRun);

describe('a component registered after systems have run', () => {
  it('changes no state; the systems, the hash and snapshots keep working; the run equals one that registered it at setup', () => {
    const late = scene(false);
    const early = scene(true);
    for (let t = 0; t < 4; t++) {
      late.w.runSystems();
      early.w.runSystems();
    }
    const before = hash(late.w);
    const H = late.w.registerComponent('Health', { hp: 'u16', regen: 'u16' });
    expect(hash(late.w), 'registering alone changes no state').toBe(before);
    expect(H.id).toBe(early.H0!.id);
    addHealth(late.w, H);
    addHealth(early.w, early.H0!);
    for (let t = 0; t < 4; t++) {
      late.w.runSystems();
      early.w.runSystems();
      expect(hash(late.w), `tick ${late.w.systemTicksRun}`).toBe(hash(early.w));
    }
    expect(late.w.get(late.w.handleAt(1)!, H)).toEqual({ hp: 18, regen: 2 });
    expect(late.w.query({ h: H.read }).count()).toBe(2);
    // A snapshot taken after the registration round-trips.
    const snap = late.w.snapshot();
    const h = hash(late.w);
    late.w.runSystems();
    late.w.restore(snap);
    expect(hash(late.w)).toBe(h);
    late.w.dispose();
    early.w.dispose();
  });

  it('a snapshot taken before it is refused by restore (snapshot_setup_mismatch); the world is unchanged', () => {
    const { w } = scene(false);
    w.runSystems();
    const old = w.snapshot();
    const H = w.registerComponent('Health', { hp: 'u16', regen: 'u16' });
    addHealth(w, H);
    w.runSystems();
    const h = hash(w);
    const err = thrown(() => w.restore(old)) as LaigeError;
    expect(err).toBeInstanceOf(LaigeError);
    expect([err.reason, err.fields]).toEqual(['snapshot_setup_mismatch', { what: 'components', expected: 2, given: 1 }]);
    expect(hash(w)).toBe(h);
    expect(w.get(w.handleAt(1)!, H)).toEqual({ hp: 12, regen: 2 });
    w.runSystems(); // still usable
    w.dispose();
  });

  it('registered from inside a system run, the same way on every run: deterministic', () => {
    const run = (): bigint[] => {
      const w = sim.createWorld({ capacity: 8, seed: 2n });
      const P = w.registerComponent('P', { x: 'i32' });
      w.add(w.create(), P, { x: 1 });
      w.registerSystem({
        name: 'Grow', budgetMs: 100, io: [[P, 'read']],
        run(ctx) { if (ctx.tick === 2) ctx.world.registerComponent('Spawned', { n: 'u32' }); },
      });
      const out: bigint[] = [];
      for (let t = 0; t < 4; t++) {
        w.runSystems();
        out.push(hash(w));
      }
      expect(w.component('Spawned')?.id).toBe(2);
      w.dispose();
      return out;
    };
    expect(run()).toEqual(run());
  });

  it('a rollback session cannot roll back past it: advance refuses (snapshot_setup_mismatch) and changes nothing', () => {
    const { w } = scene(false);
    const s = sim.createRollbackSession(w, { players: 2 });
    for (let t = 1; t <= 3; t++) {
      s.setLocalInput(t, new Uint8Array([t]));
      s.advance();
    }
    w.registerComponent('Health', { hp: 'u16', regen: 'u16' });
    const h = hash(w);
    s.addRemoteInput(1, 2, new Uint8Array([9])); // differs from the prediction: a rollback to tick 1
    s.setLocalInput(4, new Uint8Array([4]));
    const err = thrown(() => s.advance()) as LaigeError;
    expect([err.reason, err.fields.what]).toEqual(['snapshot_setup_mismatch', 'components']);
    expect([hash(w), s.currentTick]).toEqual([h, 3]);
    s.dispose();
    w.dispose();
  });
});
