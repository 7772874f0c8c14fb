// Systems written in TypeScript: the registry, schedule, I/O checks, PRNG
// substreams, timing and budgets (with an injected clock), log delivery,
// errors thrown by systems, and the game loop's integer tick accounting.
import { describe, expect, it } from 'vitest';
import { LaigeError, type LogRecord, type SystemContext } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

const M64 = (1n << 64n) - 1n;
const K = 0x9e3779b97f4a7c15n;
function mix(z: bigint): bigint {
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}
/** xorshift128+ seeded by splitmix64 (docs/prng.md), in BigInt: the reference for ctx.rng. */
function refPrng(seed: bigint): () => bigint {
  const z = (seed + K) & M64;
  let s0 = mix(z);
  let s1 = mix((z + K) & M64);
  return () => {
    const a = s0;
    const b = s1;
    s0 = b;
    const t = (a ^ (a << 23n)) & M64;
    s1 = t ^ b ^ (t >> 18n) ^ (b >> 5n);
    return (s1 + b) & M64;
  };
}

function code(fn: () => unknown): string {
  const e = thrown(fn);
  expect(e).toBeInstanceOf(LaigeError);
  return (e as LaigeError).code;
}

describe('TypeScript systems', () => {
  it('register, schedule by dependencies, run with tick, input and ctx.each', () => {
    const w = sim.createWorld({ capacity: 16, seed: 42n });
    const P = w.registerComponent('P', { x: 'i32' });
    const log: string[] = [];
    const a = w.registerSystem({
      name: 'Move', budgetMs: 5, io: [[P, 'write']], dependsOn: ['Spawn'],
      run(ctx) {
        log.push(`Move@${ctx.tick}:${Array.from(ctx.input).join(',')}`);
        ctx.each([P], ['write'], (_e, p) => { p.x += 1; });
      },
    });
    const b = w.registerSystem({
      name: 'Spawn', budgetMs: 5, io: [[P, 'read']],
      run(ctx) {
        log.push(`Spawn@${ctx.tick}`);
        ctx.world.add(ctx.world.create(), P, { x: 0 });
      },
    });
    expect([a.id, b.id]).toEqual([1, 2]);
    expect(w.scheduleSystems()).toEqual([2, 1]);
    w.runSystems(new Uint8Array([7, 8]));
    w.runSystems();
    expect(log).toEqual(['Spawn@1', 'Move@1:7,8', 'Spawn@2', 'Move@2:']);
    expect(w.systemTicksRun).toBe(2);
    expect(w.entityCount).toBe(2);
    const infos = w.systems();
    expect(infos[0]).toEqual({ id: 1, name: 'Move', budgetMs: 5, native: false, dependsOn: ['Spawn'], io: [{ componentId: 1, component: 'P', access: 'write' }] });
    expect(w.systemTimingStats('Move').runs).toBe(2);
    expect(w.systemTimingStats(b).runs).toBe(2);
    w.dispose();
  });

  it('rejects bad definitions and bad schedules', () => {
    const w = sim.createWorld({ capacity: 4 });
    const P = w.registerComponent('P', { x: 'i32' });
    const run = (): void => {};
    const bad: unknown[] = [
      null, {}, { name: '', budgetMs: 1, run }, { name: 'a,b', budgetMs: 1, run }, { name: ' a', budgetMs: 1, run },
      { name: 'A', budgetMs: 0, run }, { name: 'A', budgetMs: -1, run }, { name: 'A', budgetMs: NaN, run }, { name: 'A', budgetMs: 1n, run },
      { name: 'A', budgetMs: 1e-9, run }, { name: 'A', budgetMs: 1 }, { name: 'A', budgetMs: 1, run, io: [[P, 'rw']] },
      { name: 'A', budgetMs: 1, run, io: [P] }, { name: 'A', budgetMs: 1, run, dependsOn: 'B' }, { name: 'A', budgetMs: 1, run, dependsOn: [''] },
    ];
    for (const d of bad) expect(code(() => w.registerSystem(d as never))).toBe('invalid_argument');
    w.registerSystem({ name: 'A', budgetMs: 1, run });
    expect(code(() => w.registerSystem({ name: 'A', budgetMs: 1, run }))).toBe('invalid_argument');
    expect(code(() => w.registerSystem({ name: 'B', budgetMs: 1, run, io: [[P, 'read'], [P, 'write']] }))).toBe('invalid_argument');
    w.registerSystem({ name: 'C', budgetMs: 1, run, dependsOn: ['Nope'] });
    expect(code(() => w.scheduleSystems())).toBe('invalid_argument');
    expect(code(() => w.runSystems())).toBe('invalid_argument');
    expect(code(() => w.runSystems([1, 2] as never))).toBe('invalid_argument');
    w.dispose();
    const cyc = sim.createWorld({ capacity: 4 });
    cyc.registerSystem({ name: 'X', budgetMs: 1, run, dependsOn: ['Y'] });
    cyc.registerSystem({ name: 'Y', budgetMs: 1, run, dependsOn: ['X'] });
    expect(code(() => cyc.scheduleSystems())).toBe('invalid_argument');
    cyc.dispose();
    const dw = sim.createWorld({ capacity: 4 });
    const Q = dw.registerComponent('Q', { x: 'i32' });
    dw.registerSystem({ name: 'W1', budgetMs: 1, run, io: [[Q, 'write']] });
    dw.registerSystem({ name: 'W2', budgetMs: 1, run, io: [[Q, 'write']] });
    expect(code(() => dw.scheduleSystems())).toBe('invalid_argument');
    dw.dispose();
  });

  it('ctx.rng is the core substream deriveSubstream(seed, id), and null without determinism', () => {
    const seed = 0x1f055eedn;
    const w = sim.createWorld({ capacity: 4, seed });
    const draws: bigint[][] = [[], []];
    for (let i = 0; i < 2; i++) {
      w.registerSystem({
        name: `R${i}`, budgetMs: 1, run(ctx) {
          draws[i]!.push(ctx.rng!.nextU64(), BigInt(ctx.rng!.nextU32()));
          expect(ctx.rng!.nextRange(5, 6)).toBe(5);
          const f = ctx.rng!.nextFloat01();
          expect(f >= 0 && f < 1).toBe(true);
        },
      });
    }
    w.runSystems();
    for (let i = 0; i < 2; i++) {
      const ref = refPrng((seed + BigInt(i + 1) * K) & M64);
      expect(draws[i]![0]).toBe(ref());
      expect(draws[i]![1]).toBe(ref() >> 32n);
    }
    const st = w.systemRngState('R0');
    expect(st.hasSubstream).toBe(true);
    expect(st.seed).toBe((seed + K) & M64);
    let kept: SystemContext | null = null;
    const nd = sim.createWorld({ capacity: 4, deterministic: false });
    nd.registerSystem({ name: 'N', budgetMs: 1, run(ctx) { expect(ctx.rng).toBeNull(); kept = ctx; } });
    nd.runSystems();
    w.registerSystem({ name: 'Keep', budgetMs: 1, run(ctx) { kept = ctx; } });
    w.runSystems();
    expect(code(() => (kept as SystemContext | null)!.rng!.nextU32())).toBe('invalid_argument');
    expect(code(() => w.systemRngState(99))).toBe('invalid_argument');
    expect(code(() => w.systemRngState('nope'))).toBe('invalid_argument');
    nd.dispose();
    w.dispose();
  });

  it('timing and budgets with an injected clock; events reach the JS log callback', () => {
    const w = sim.createWorld({ capacity: 4 });
    let now = 0;
    const cost = [0.5, 2, 4];
    let tick = 0;
    w.setTimingClock(() => now);
    w.registerSystem({ name: 'Slow', budgetMs: 1, run() { now += cost[tick++ % 3]! * 1e6; } });
    const records: LogRecord[] = [];
    sim.onLog((r) => records.push(r));
    sim.setLogRateLimiting(false);
    try {
      for (let i = 0; i < 3; i++) w.runSystems();
    } finally {
      sim.setLogRateLimiting(true);
      sim.onLog(null);
    }
    const st = w.systemTimingStats('Slow');
    expect(st).toEqual({ runs: 3, lastMs: 4, warns: 2, errors: 1 });
    const win = w.systemTimingWindow('Slow');
    expect(win.samples).toEqual([0.5, 2, 4]);
    expect(win.count).toBe(3);
    expect(win.max).toBe(4);
    const events = records.filter((r) => r.subsystem === 'system').map((r) => `${r.severity}:${r.event}`);
    expect(events).toContain('warn:budget_overrun');
    expect(events).toContain('error:budget_critical');
    const overrun = records.find((r) => r.event === 'budget_overrun')!;
    expect(overrun.fields.system).toBe('Slow');
    expect(overrun.message.split(' | ')).toHaveLength(5);
    w.setTimingClock(null);
    w.dispose();
  });

  it('a throwing system: the error surfaces from runSystems, the world stays usable', () => {
    const w = sim.createWorld({ capacity: 8 });
    const P = w.registerComponent('P', { x: 'i32' });
    w.add(w.create(), P, { x: 1 });
    const boom = new Error('boom');
    let after = 0;
    w.registerSystem({ name: 'Boom', budgetMs: 10, io: [[P, 'write']], run(ctx) { ctx.each([P], ['write'], () => { throw boom; }); } });
    w.registerSystem({ name: 'After', budgetMs: 10, run() { after++; } });
    expect(thrown(() => w.runSystems())).toBe(boom);
    expect(after).toBe(0);
    expect(w.systemTicksRun).toBe(1);
    // Nothing is left locked: iteration, nested runs and disposal work again.
    w.each([P], ['write'], (_e, p) => { p.x = 5; });
    const nested = sim.createWorld({ capacity: 2 });
    nested.registerSystem({ name: 'Nest', budgetMs: 10, run(ctx) { ctx.world.runSystems(); } });
    expect(code(() => nested.runSystems())).toBe('invalid_argument');
    nested.registerSystem({ name: 'Dispose', budgetMs: 10, run(ctx) { ctx.world.dispose(); } });
    expect(code(() => nested.runSystems())).toBe('invalid_argument');
    nested.dispose();
    w.dispose();
  });
});

describe('GameLoop', () => {
  it('frame(nowMs) runs the whole ticks due, capped; step(n) runs exactly n', () => {
    const w = sim.createWorld({ capacity: 4 });
    let runs = 0;
    w.registerSystem({ name: 'Count', budgetMs: 100, run() { runs++; } });
    const loop = sim.createGameLoop(w, { tickRateHz: 60, maxCatchUpTicks: 5 });
    expect(loop.frame(1000)).toBe(0); // the first frame is the start reference
    expect(loop.frame(1000 + 16.6)).toBe(0);
    expect(loop.frame(1000 + 1000 / 60 + 0.0001)).toBe(1);
    expect(loop.frame(1050)).toBe(2); // floor(50 ms * 60 / 1000) = 3 due in total
    expect(loop.frame(2000)).toBe(5); // 60 due, 5 run, 52 dropped
    const s = loop.stats();
    expect(s).toEqual({ frames: 5, ticks: 8, droppedTicks: 52, droppedFrames: 1, startReferenceNs: 1e9 });
    expect(loop.step(3)).toBe(3);
    expect(loop.currentTick).toBe(11);
    expect(runs).toBe(11);
    expect(w.stateHash(loop.currentTick)).toBe(w.stateHash(11));
    expect(code(() => loop.frame(NaN))).toBe('invalid_argument');
    expect(code(() => loop.frame(-1))).toBe('invalid_argument');
    expect(code(() => loop.step(-1))).toBe('invalid_argument');
    expect(code(() => sim.createGameLoop(w, { tickRateHz: 19 }))).toBe('invalid_argument');
    expect(code(() => sim.createGameLoop(w, { tickRateHz: 121 }))).toBe('invalid_argument');
    expect(code(() => sim.createGameLoop(w, { maxCatchUpTicks: 0 }))).toBe('invalid_argument');
    w.dispose();
    expect(code(() => loop.frame(3000))).toBe('invalid_argument');
  });
});
