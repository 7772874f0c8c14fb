// sim.openScenario: a C++ scenario run stepped tick by tick from TypeScript
// (the demo's live view). Stepping it gives exactly the native golden
// stream; its world is a World TypeScript reads (components from the C++
// registry, each, stateDiff, systemTimingStats); an input payload given to
// step() is what the scenario's C++ systems read (swarm's attractor).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LaigeError, ScenarioRun } from '../../dist/index.js';
import { sim } from './support/sim.js';
import { attractor } from './support/attractor.js';

const goldenDir = new URL('../golden/', import.meta.url);
const goldens = existsSync(goldenDir) ? readdirSync(goldenDir).filter((f) => f.endsWith('.txt')).map((f) => f.slice(0, -4)) : [];
const golden = (name: string) => readFileSync(new URL(`${name}.txt`, goldenDir), 'utf8');
const line = (t: number, h: bigint) => `${t} ${h.toString(16).padStart(16, '0')}\n`;

describe('openScenario', () => {
  it('covers the demo scenarios', () => {
    for (const n of ['swarm', 'stress', 'float', 'input', 'hello', 'synthetic']) expect(goldens).toContain(n);
  });
  for (const name of goldens) {
    it(`stepping '${name}' 600 ticks is the golden stream, line for line`, () => {
      using run = sim.openScenario(name);
      expect(run).toBeInstanceOf(ScenarioRun);
      let text = line(run.tick, run.stateHash());
      for (let t = 1; t <= 600; t++) {
        run.step();
        expect(run.tick).toBe(t);
        text += line(t, run.stateHash());
      }
      expect(text).toBe(golden(name));
      expect(run.world.stateHash(run.tick)).toBe(run.stateHash());
    });
  }

  it('swarm: the world is readable from TypeScript', () => {
    using run = sim.openScenario('swarm');
    for (let t = 0; t < 10; t++) run.step();
    const w = run.world;
    expect(w.entityCount).toBeGreaterThan(1000);
    const pos = w.component('SwarmPos');
    expect(pos).toBeDefined();
    expect(pos!.fields.map((f) => f.name)).toEqual(['x', 'y']);
    let n = 0;
    w.each([pos!], ['read'], (_e, p) => {
      expect(Number.isFinite(p.x as unknown as number)).toBe(true);
      n++;
    });
    expect(n).toBeGreaterThan(1000);
    const systems = w.systems();
    expect(systems.length).toBeGreaterThan(0);
    expect(w.systemTimingStats(systems[0]!.id).runs).toBe(10);
    expect(() => w.registerComponent('X', { a: 'i32' })).toThrow(LaigeError);
    expect(() => w.runSystems()).toThrow(LaigeError);
    expect(() => sim.createGameLoop(w)).toThrow(LaigeError);
  });

  it('swarm: an attractor payload is read by the C++ steering system', () => {
    using plain = sim.openScenario('swarm');
    using steered = sim.openScenario('swarm');
    using empty = sim.openScenario('swarm');
    const g = golden('swarm').split('\n');
    for (let t = 1; t <= 60; t++) {
      plain.step();
      // Ticks 1..119 carry no generated payload: an explicit empty one is the same stream.
      empty.step(new Uint8Array(0));
      steered.step(attractor(20, -10));
    }
    expect(line(60, plain.stateHash())).toBe(`${g[60]}\n`);
    expect(empty.stateHash()).toBe(plain.stateHash());
    expect(steered.stateHash()).not.toBe(plain.stateHash());
    const diff = steered.world.stateDiff(plain.world, 4);
    expect(diff.total).toBeGreaterThan(0);
    expect(diff.items[0]!.component).toMatch(/^Swarm/);
  });

  it('generatedInput replays the golden stream through step(input)', () => {
    using run = sim.openScenario('swarm');
    const g = golden('swarm').split('\n');
    for (let t = 1; t <= 300; t++) run.step(run.generatedInput(t));
    expect(line(300, run.stateHash())).toBe(`${g[300]}\n`);
    expect(run.generatedInput(130)).toHaveLength(8);
    expect(run.generatedInput(10)).toHaveLength(0);
  });

  it('bad input is a LaigeError', () => {
    expect(() => sim.openScenario('nope')).toThrow(LaigeError);
    expect(() => sim.openScenario(42 as unknown as string)).toThrow(LaigeError);
    expect(() => sim.openScenario('swarm', { seed: 1 as unknown as bigint })).toThrow(LaigeError);
    const run = sim.openScenario('hello', { seed: 7n });
    expect(run.seed).toBe(7n);
    expect(() => run.step('x' as unknown as Uint8Array)).toThrow(LaigeError);
    expect(() => run.generatedInput(0)).toThrow(LaigeError);
    run.dispose();
    run.dispose();
    expect(run.disposed).toBe(true);
    expect(() => run.step()).toThrow(LaigeError);
    expect(() => run.stateHash()).toThrow(LaigeError);
  });
});
