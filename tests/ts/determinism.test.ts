// Determinism across targets and languages: every scenario's stream in Node
// equals the committed golden stream native laige-detcheck printed; the same
// scenarios written in TypeScript give the same streams; TS systems are
// deterministic run to run, side by side, and through record + replay.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fx, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';
import { helloWorld, stream, syntheticWorld } from './support/synthetic.js';

const goldenDir = new URL('../golden/', import.meta.url);
const goldens = existsSync(goldenDir) ? readdirSync(goldenDir).filter((f) => f.endsWith('.txt')) : [];
const golden = (name: string) => readFileSync(new URL(`${name}.txt`, goldenDir), 'utf8');
const ticksOf = (text: string) => text.split('\n').filter((l) => l.length > 0).length - 1;

describe('hash equality with native', () => {
  it('every scenario has a golden stream', () => {
    expect(goldens.length).toBeGreaterThan(0);
    expect(sim.scenarios().map((s) => `${s.name}.txt`).sort()).toEqual([...goldens].sort());
  });
  for (const file of goldens) {
    const name = file.slice(0, -4);
    it(`runScenario('${name}') is the golden stream, line for line`, () => {
      const g = golden(name);
      const r = sim.runScenario(name, { ticks: ticksOf(g) });
      expect(r.text).toBe(g);
      expect(r.hashes).toHaveLength(ticksOf(g) + 1);
    });
  }
  const detcheck = new URL('../../build/native-release/laige-detcheck', import.meta.url);
  it.skipIf(!existsSync(detcheck))('a non-default seed and tick count agree with native laige-detcheck', () => {
    for (const name of ['synthetic', 'input', 'float']) {
      const native = execFileSync(detcheck.pathname, [`--scenario=${name}`, '--ticks=50', '--seed=0x1234abcd']).toString();
      expect(sim.runScenario(name, { ticks: 50, seed: 0x1234abcdn }).text).toBe(native);
    }
  });
});

describe('TypeScript scenarios hash like the C++ ones', () => {
  it('synthetic in TS (schema + TS system + fx + ctx.rng) is the golden stream', () => {
    const g = golden('synthetic');
    const w = syntheticWorld(sim);
    expect(stream(w, ticksOf(g))).toBe(g);
    w.dispose();
  });
  it('hello in TS (a fixed-array schema) is the golden stream', () => {
    const g = golden('hello');
    const w = helloWorld(sim);
    expect(stream(w, ticksOf(g))).toBe(g);
    w.dispose();
  });
});

// A TS scenario with inputs, churn and PRNG draws; registerInput is also
// the replay setup (it registers what the recording world had).
function registerInput(w: World): void {
  const Pos = w.registerComponent('Pos', { x: 'fx', y: 'fx' });
  const Vel = w.registerComponent('Vel', { x: 'fx', y: 'fx' });
  const Life = w.registerComponent('Life', { ticks: 'u16', kind: 'u8', pad: 'u8' });
  w.registerSystem({
    name: 'Spawn', budgetMs: 5, io: [[Life, 'write'], [Pos, 'read'], [Vel, 'read']],
    run(ctx) {
      const n = ctx.input.length > 0 ? ctx.input[0]! % 4 : 1;
      for (let i = 0; i < n && ctx.world.entityCount < 200; i++) {
        const e = ctx.world.create();
        ctx.world.add(e, Pos, { x: fx.fromInt(ctx.rng!.nextRange(0, 100)), y: 0 });
        ctx.world.add(e, Vel, { x: ctx.rng!.nextRange(0, 1 << 16) - (1 << 15), y: fx.fromFloat(0.25) });
        ctx.world.add(e, Life, { ticks: 20 + ctx.rng!.nextRange(0, 20), kind: i, pad: 0 });
      }
    },
  });
  w.registerSystem({
    name: 'Move', budgetMs: 5, dependsOn: ['Spawn'], io: [[Pos, 'write'], [Vel, 'read']],
    run(ctx) {
      ctx.eachChunk([Pos, Vel], ['write', 'read'], (c) => {
        const px = c.field(Pos, 'x');
        const vx = c.field(Vel, 'x');
        for (let r = 0; r < c.rows; r++) {
          const i = px.index + r * px.stride;
          px.array[i] = fx.add(px.array[i]!, vx.array[vx.index + r * vx.stride]!);
        }
      });
      ctx.each([Pos, Vel], ['write', 'read'], (_e, p, v) => { p.y = fx.add(p.y, v.y); });
    },
  });
  w.registerSystem({
    name: 'Age', budgetMs: 5, dependsOn: ['Move'], io: [[Life, 'read'], [Pos, 'read'], [Vel, 'read']],
    run(ctx) {
      const dead: number[] = [];
      ctx.each([Life], ['read'], (e, l) => { if (ctx.tick % l.ticks === 0) dead.push(e); });
      for (const e of dead) ctx.world.destroy(e);
    },
  });
}
function inputWorld(seed: bigint): World {
  const w = sim.createWorld({ capacity: 256, seed });
  registerInput(w);
  return w;
}
const inputOf = (t: number) => (t % 3 === 0 ? undefined : new Uint8Array([t * 7, t]));

describe('TypeScript systems are deterministic', () => {
  it('the same scenario run twice gives the same stream', () => {
    const a = inputWorld(77n);
    const s1 = stream(a, 120, inputOf);
    a.dispose();
    const b = inputWorld(77n);
    expect(stream(b, 120, inputOf)).toBe(s1);
    b.dispose();
    const c = inputWorld(78n);
    expect(stream(c, 120, inputOf)).not.toBe(s1);
    c.dispose();
  });

  it('two worlds side by side, ticked alternately, agree every tick', () => {
    const a = inputWorld(5n);
    const b = inputWorld(5n);
    for (let t = 1; t <= 100; t++) {
      a.runSystems(inputOf(t));
      b.runSystems(inputOf(t));
      expect(a.stateHash(t)).toBe(b.stateHash(t));
    }
    expect(a.stateDiff(b).total).toBe(0);
    a.dispose();
    b.dispose();
  });

  it('record a replay, run it back: every tick hash reproduced; diff finds a changed input', () => {
    const live = inputWorld(9n);
    const rec = sim.recordReplay(live, { tickRateHz: 60 });
    const hashes = [live.stateHash(0)];
    for (let t = 1; t <= 80; t++) {
      rec.step(inputOf(t));
      hashes.push(live.stateHash(t));
    }
    const bytes = rec.finish();
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(rec.finish()).toEqual(bytes);
    const info = sim.parseReplay(bytes);
    expect(info.frameCount).toBe(80);
    expect(info.identity.seed).toBe(9n);
    expect(info.identity.tickRateHz).toBe(60);
    expect(info.frames[0]).toEqual({ tick: 1, size: 2 });
    const rebuilt = sim.runReplay(bytes, { world: { capacity: 256 }, setup: registerInput });
    expect(rebuilt).toEqual(hashes);
    // The same log against itself is identical; a different input diverges at its tick.
    const same = sim.diffReplays(bytes, bytes, { world: { capacity: 256 }, setup: registerInput });
    expect(same.identical).toBe(true);
    const other = inputWorld(9n);
    const rec2 = sim.recordReplay(other);
    for (let t = 1; t <= 80; t++) rec2.step(t === 40 ? new Uint8Array([3, 3]) : inputOf(t));
    const diff = sim.diffReplays(bytes, rec2.finish(), { world: { capacity: 256 }, setup: registerInput });
    expect(diff.identical).toBe(false);
    expect(diff.firstDivergentTick).toBe(40);
    expect(diff.differingItems).toBeGreaterThan(0);
    expect(diff.entries[0]!.component === '' || ['Pos', 'Vel', 'Life'].includes(diff.entries[0]!.component)).toBe(true);
    other.dispose();
    live.dispose();
  });

  it('replay errors: malformed bytes, a mismatched world, a throwing setup', () => {
    const w = inputWorld(1n);
    const rec = sim.recordReplay(w);
    rec.step();
    const bytes = rec.finish();
    const broken = bytes.slice();
    broken[0] = 0;
    const setup = registerInput;
    expect(thrown(() => sim.parseReplay(broken))).toMatchObject({ code: 'malformed_input' });
    expect(thrown(() => sim.parseReplay(new Uint8Array(3)))).toMatchObject({ code: 'malformed_input' });
    expect(thrown(() => sim.parseReplay([1, 2] as never))).toMatchObject({ code: 'invalid_argument' });
    expect(thrown(() => sim.runReplay(broken, { world: { capacity: 256 }, setup }))).toMatchObject({ code: 'malformed_input' });
    expect(thrown(() => sim.runReplay(bytes, { world: { capacity: 255 }, setup }))).toMatchObject({ code: 'invalid_argument' });
    expect(thrown(() => sim.runReplay(bytes, { world: { capacity: 256 }, setup: () => {} }))).toMatchObject({ code: 'invalid_argument' });
    const boom = new Error('setup failed');
    const before = sim.worldCount;
    expect(() => sim.runReplay(bytes, { world: { capacity: 256 }, setup: () => { throw boom; } })).toThrow(boom);
    expect(sim.worldCount).toBe(before);
    const r2 = sim.recordReplay(w);
    expect(thrown(() => r2.writeFrame(2))).toMatchObject({ code: 'invalid_argument' });
    expect(thrown(() => r2.writeFrame(1, 'x' as never))).toMatchObject({ code: 'invalid_argument' });
    r2.dispose();
    expect(thrown(() => r2.writeFrame(1))).toMatchObject({ code: 'invalid_argument' });
    w.dispose();
  });
});

