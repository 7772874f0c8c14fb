// sim.createGameLoop over a ScenarioRun or a World, with the per-tick
// `input` provider and the `onTick` observer: frame(now) at synthetic times
// (frames of 0-3 ticks) reproduces the native golden stream through onTick;
// an input payload reaches the systems (C++ and TypeScript); errors thrown
// in the callbacks end the frame and leave the loop usable.
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { GameLoop, LaigeError, type GameLoopOptions, type ScenarioRun, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';
import { attractor } from './support/attractor.js';

const golden = (name: string) => readFileSync(new URL(`../golden/${name}.txt`, import.meta.url), 'utf8');
const line = (t: number, h: bigint) => `${t} ${h.toString(16).padStart(16, '0')}\n`;
const code = (fn: () => unknown) => (thrown(fn) as LaigeError).code;

/** One tick at 60 Hz in ms, a little over (frame(t0 + n * TICK) has exactly n ticks due, whatever the ms -> ns rounding). */
const TICK = 16.66667;

/** Frames of 0..3 ticks (a fixed pseudo-random pattern) until `ticks` ticks ran; returns the frame count. */
function drive(loop: GameLoop, ticks: number): number {
  const t0 = 1000;
  expect(loop.frame(t0)).toBe(0); // the start reference
  let due = 0;
  let frames = 0;
  let x = 12345;
  while (loop.currentTick < ticks) {
    x = (x * 1103515245 + 12345) % 2147483648;
    due = Math.min(ticks, due + (x >>> 16) % 4);
    const before = loop.currentTick;
    expect(loop.frame(t0 + due * TICK)).toBe(due - before);
    frames++;
  }
  return frames;
}

describe('createGameLoop over a ScenarioRun', () => {
  it('types: a World or a ScenarioRun; input returns a payload or undefined; onTick gets the tick', () => {
    expectTypeOf(sim.createGameLoop).parameter(0).toEqualTypeOf<World | ScenarioRun>();
    expectTypeOf<NonNullable<GameLoopOptions['input']>>().toEqualTypeOf<(tick: number) => Uint8Array | undefined>();
    expectTypeOf<NonNullable<GameLoopOptions['onTick']>>().toEqualTypeOf<(tick: number) => void>();
    expectTypeOf<GameLoop['scenario']>().toEqualTypeOf<ScenarioRun | null>();
    // @ts-expect-error input must return bytes
    expectTypeOf(() => sim.createGameLoop(sim.createWorld({ capacity: 1 }), { input: () => 'x' })).toBeFunction();
  });

  for (const name of ['swarm', 'input']) {
    it(`${name}: frame(now) with frames of 0-3 ticks is the golden stream, via onTick`, () => {
      using run = sim.openScenario(name);
      let text = line(0, run.world.stateHash(0));
      const ticks: number[] = [];
      using loop = sim.createGameLoop(run, {
        tickRateHz: 60, maxCatchUpTicks: 3,
        onTick: (t) => { ticks.push(t); text += line(t, run.world.stateHash(t)); },
      });
      expect(loop.scenario).toBe(run);
      const frames = drive(loop, 600);
      expect(frames).toBeGreaterThan(300);
      expect(ticks).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
      expect(text).toBe(golden(name));
      expect(run.tick).toBe(600);
      expect(loop.stats().droppedTicks).toBe(0);
    });
  }

  it('input returning undefined is the generated input; an empty payload is none', () => {
    const g = golden('swarm').split('\n');
    using dflt = sim.openScenario('swarm');
    using loopD = sim.createGameLoop(dflt, { input: () => undefined });
    using none = sim.openScenario('swarm');
    using loopN = sim.createGameLoop(none, { input: () => new Uint8Array(0) });
    // swarm's generator writes no payload before tick 120.
    loopD.step(130);
    loopN.step(119);
    expect(line(119, none.stateHash())).toBe(`${g[119]}\n`);
    loopN.step(11);
    expect(line(130, dflt.stateHash())).toBe(`${g[130]}\n`);
    expect(none.stateHash()).not.toBe(dflt.stateHash());
  });

  it('a custom payload reaches the C++ swarm system from tick 1, tick by tick as step(payload)', () => {
    const g = golden('swarm').split('\n');
    using looped = sim.openScenario('swarm');
    using stepped = sim.openScenario('swarm');
    const asked: number[] = [];
    const observed: Array<[number, number]> = [];
    using loop = sim.createGameLoop(looped, {
      maxCatchUpTicks: 3,
      input: (t) => { asked.push(t); return attractor(20, -10); },
      onTick: (t) => {
        stepped.world.stateHash(0); // other worlds are usable from onTick
        observed.push([t, looped.tick]);
      },
    });
    let firstDiff = -1;
    loop.frame(0);
    for (let t = 1; t <= 60; t++) {
      loop.frame(t * TICK);
      stepped.step(attractor(20, -10));
      expect(looped.stateHash()).toBe(stepped.stateHash());
      if (firstDiff < 0 && line(t, looped.stateHash()) !== `${g[t]}\n`) firstDiff = t;
    }
    expect(asked).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(observed).toEqual(asked.map((t) => [t, t]));
    expect(firstDiff).toBe(1);
    // ScenarioRun.step and the loop share the tick count.
    looped.step();
    expect(looped.tick).toBe(61);
    expect(loop.step(2)).toBe(2);
    expect(looped.tick).toBe(63);
    expect(loop.currentTick).toBe(62);
    expect(observed.slice(-2)).toEqual([[61, 62], [62, 63]]); // onTick: the loop's tick numbers
  });

  it('rejects the run\'s world, a disposed run, and bad callbacks', () => {
    const run = sim.openScenario('hello');
    expect(code(() => sim.createGameLoop(run.world))).toBe('invalid_argument');
    for (const o of [{ input: 5 }, { input: 'x' }, { onTick: {} }, { onTick: null }, { tickRateHz: 200 }, { maxCatchUpTicks: 0 }]) {
      expect(code(() => sim.createGameLoop(run, o as never))).toBe('invalid_argument');
    }
    const loop = sim.createGameLoop(run);
    run.dispose();
    expect(code(() => loop.frame(0))).toBe('invalid_argument');
    expect(code(() => sim.createGameLoop(run))).toBe('invalid_argument');
  });
});

describe('createGameLoop over a World: input, onTick and errors', () => {
  function counter(): { w: World; seen: Array<[number, number[]]> } {
    const w = sim.createWorld({ capacity: 8 });
    const seen: Array<[number, number[]]> = [];
    w.registerSystem({ name: 'Seen', budgetMs: 100, run(ctx) { seen.push([ctx.tick, [...ctx.input]]); } });
    return { w, seen };
  }

  it('the payload reaches a TypeScript system; without input none; onTick sees every tick in order', () => {
    const { w, seen } = counter();
    const after: number[] = [];
    const loop = sim.createGameLoop(w, { maxCatchUpTicks: 3, input: (t) => (t % 2 === 0 ? new Uint8Array([t, 7]) : undefined), onTick: (t) => after.push(t) });
    drive(loop, 20);
    expect(after).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(seen).toEqual(after.map((t) => [t, t % 2 === 0 ? [t, 7] : []]));
    // A payload larger than any before grows the buffer (wasm memory may grow).
    const big = new Uint8Array(200_000).fill(3);
    const l2 = sim.createGameLoop(w, { input: () => big });
    l2.step(1);
    expect(seen.at(-1)![1].length).toBe(200_000);
    l2.dispose();
    const plain = sim.createGameLoop(w);
    plain.step(2);
    expect(seen.slice(-2).map(([, i]) => i.length)).toEqual([0, 0]);
    w.dispose();
  });

  it('a throwing input skips its tick and ends the frame; the loop stays usable', () => {
    const { w, seen } = counter();
    const boom = new Error('input boom');
    let fail = 3;
    const after: number[] = [];
    const loop = sim.createGameLoop(w, { input: (t) => { if (t === fail) throw boom; return undefined; }, onTick: (t) => after.push(t) });
    loop.frame(0);
    expect(thrown(() => loop.frame(5 * TICK))).toBe(boom);
    expect(loop.currentTick).toBe(2);
    expect(seen.map(([t]) => t)).toEqual([1, 2]);
    fail = 0;
    expect(loop.frame(5 * TICK)).toBe(3); // the due ticks 3..5
    expect(after).toEqual([1, 2, 3, 4, 5]);
    // A non-Uint8Array return is a LaigeError; a too large payload too.
    for (const bad of ['x', [1, 2], new ArrayBuffer(4), new Uint8Array((1 << 20) + 1)]) {
      const l = sim.createGameLoop(w, { input: () => bad as never });
      expect(code(() => l.step(1))).toBe('invalid_argument');
      expect(l.currentTick).toBe(0);
      l.dispose();
    }
    w.dispose();
  });

  it('a throwing onTick ends the frame after its tick; a throwing system ends it before onTick', () => {
    const { w } = counter();
    const boom = new Error('onTick boom');
    const after: number[] = [];
    const loop = sim.createGameLoop(w, { onTick: (t) => { after.push(t); if (t === 2) throw boom; } });
    loop.frame(0);
    expect(thrown(() => loop.frame(4 * TICK))).toBe(boom);
    expect(loop.currentTick).toBe(2);
    expect(loop.frame(4 * TICK)).toBe(2);
    expect(after).toEqual([1, 2, 3, 4]);
    const sys = new Error('system boom');
    let failAt = 6;
    w.registerSystem({ name: 'Boom', budgetMs: 100, run(ctx) { if (ctx.tick === failAt) throw sys; } });
    expect(thrown(() => loop.step(5))).toBe(sys);
    expect(loop.currentTick).toBe(6); // ticks 5 and 6 ran; 6's onTick was not called
    expect(after.at(-1)).toBe(5);
    failAt = 0;
    expect(loop.step(1)).toBe(1);
    expect(after.at(-1)).toBe(7);
    w.dispose();
  });

  it('ticking, disposing or stepping the run from inside a callback is rejected', () => {
    const { w } = counter();
    let action: () => void = () => {};
    const loop = sim.createGameLoop(w, { onTick: () => action() });
    for (const a of [() => loop.step(1), () => loop.frame(10), () => loop.dispose(), () => w.dispose(), () => w.runSystems()]) {
      action = a;
      expect(code(() => loop.step(1))).toBe('invalid_argument');
    }
    action = () => {};
    expect(loop.step(1)).toBe(1);
    using run = sim.openScenario('hello');
    const rl = sim.createGameLoop(run, { onTick: () => run.step() });
    expect(code(() => rl.step(1))).toBe('invalid_argument');
    expect(run.tick).toBe(1);
    expect(loop).toBeInstanceOf(GameLoop);
    w.dispose();
  });
});

describe('GameLoop.alpha', () => {
  it('is the fraction of a tick elapsed at the last frame, in [0, 1)', () => {
    const w = sim.createWorld({ capacity: 4 });
    let ticks = 0;
    w.registerSystem({ name: 'Count', budgetMs: 5, run() { ticks++; } });
    const loop = sim.createGameLoop(w, { tickRateHz: 50 }); // 20 ms a tick
    expect(loop.alpha).toBe(0);
    loop.frame(1000); // the first frame starts the clock
    expect(loop.alpha).toBe(0);
    loop.frame(1025); // 1.25 ticks due: 1 ran, a quarter elapsed
    expect(ticks).toBe(1);
    expect(loop.alpha).toBeCloseTo(0.25, 9);
    loop.frame(1039); // 1.95 ticks
    expect(ticks).toBe(1);
    expect(loop.alpha).toBeCloseTo(0.95, 9);
    loop.frame(1040); // exactly 2
    expect(ticks).toBe(2);
    expect(loop.alpha).toBe(0);
    loop.step(3); // no clock: unchanged
    expect(loop.alpha).toBe(0);
    for (let t = 1040; t < 1400; t += 7.3) {
      loop.frame(t);
      expect(loop.alpha).toBeGreaterThanOrEqual(0);
      expect(loop.alpha).toBeLessThan(1);
    }
    w.dispose();
  });
});
