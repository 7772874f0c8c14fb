// The demo's one-bit divergence inside a system (demo/src/system_fault.js,
// used by the netplay view's "perturb peer 1"): armed in one of two worlds
// of a TypeScript scenario, the system flips one bit of one field of one
// entity at one tick, on every run of that tick, and the desync report of
// the two worlds names that tick, that system, that entity and that field.
import { describe, expect, it } from 'vitest';
import { formatEntity } from '../../dist/index.js';
import { sim } from './support/sim.js';

interface World {
  stateHash(tick: number): bigint; snapshot(): Uint8Array; restore(b: Uint8Array): void; dispose(): void;
  systemCheckpoints: boolean; desyncReport(o: World, max?: number): { tick: bigint; firstSystem: string | null; items: { entityA: number | null; component: string; field: string | null; valueA: unknown; valueB: unknown }[] };
  runSystems(): void; readonly systemTicksRun: number;
}
interface Fault { system: string; field: string; armed: { tick: number; slot: number; bit: number; entity: number | null } | null;
  arm(a: { tick: number; slot: number; bit: number }): unknown; flipped(v: number, bit: number): number }
interface Built { world: World; fault: Fault }

// Plain JS modules of the demo (no types): imported by path.
const scenariosPath = '../../demo/src/scenarios.js';
const faultPath = '../../demo/src/system_fault.js';
const { liveScenarios } = (await import(scenariosPath)) as { liveScenarios: Record<string, { seed: bigint; build(s: unknown, seed: bigint): Built }> };
const { SystemFault } = (await import(faultPath)) as { SystemFault: new (s: string, c: unknown, f: string) => Fault };

const run = (b: Built, ticks: number) => { for (let i = 0; i < ticks; i++) b.world.runSystems(); };

describe('a one-bit divergence inside a system of a demo scenario', () => {
  for (const [name, at, component] of [['ts-orbits', { tick: 37, slot: 300, bit: 4 }, 'OrbVel'], ['ts-hierarchy', { tick: 23, slot: 5, bit: 9 }, 'HLocal']] as const) {
    it(`${name}: the report names the tick, the system, the entity and the field, one bit apart`, () => {
      const spec = liveScenarios[name]!;
      const a = spec.build(sim, spec.seed);
      const b = spec.build(sim, spec.seed);
      b.fault.arm(at);
      a.world.systemCheckpoints = true;
      b.world.systemCheckpoints = true;
      run(a, at.tick - 1);
      run(b, at.tick - 1);
      expect(b.world.stateHash(at.tick - 1)).toBe(a.world.stateHash(at.tick - 1));
      expect(b.fault.armed!.entity).toBe(null);
      // Tick `at.tick` twice on b: the flip comes again on a re-run from a snapshot (a rollback's).
      const before = b.world.snapshot();
      run(b, 1);
      const once = b.world.stateHash(at.tick);
      b.world.restore(before);
      expect(b.world.systemTicksRun).toBe(at.tick - 1);
      run(a, 1);
      run(b, 1);
      expect(b.world.stateHash(at.tick)).toBe(once);
      expect(once).not.toBe(a.world.stateHash(at.tick));
      const r = a.world.desyncReport(b.world, 64);
      expect(Number(r.tick)).toBe(at.tick);
      expect(r.firstSystem).toBe(b.fault.system);
      const e = b.fault.armed!.entity!;
      expect(e >>> 16).toBe(at.slot);
      const item = r.items.find((it) => it.component === component && it.field === b.fault.field)!;
      expect(formatEntity(item.entityA!)).toBe(formatEntity(e));
      expect(((item.valueA as number) ^ (item.valueB as number)) >>> 0).toBe(2 ** at.bit);
      a.world.dispose();
      b.world.dispose();
    });
  }

  it('flips within the field\'s own range and refuses a bit outside it', () => {
    const w = sim.createWorld({ capacity: 8 });
    const C = w.registerComponent('Kinds', { c: 'u32', d: 'fx', e: 'f32', a: 'i16', b: 'u8', pad: 'u8' });
    const f = (field: string) => new SystemFault('S', C, field);
    expect(f('a').flipped(5, 15)).toBe(5 - 32768);
    expect(f('b').flipped(200, 7)).toBe(72);
    expect(f('c').flipped(1, 31)).toBe(2 ** 31 + 1);
    expect(f('d').flipped(65536, 31)).toBe(65536 - 2 ** 31);
    expect(() => f('e')).toThrow(/not a scalar integer field/);
    expect(() => f('b').arm({ tick: 5, slot: 0, bit: 8 })).toThrow(/bit 0\.\.7/);
    expect(() => f('b').arm({ tick: 0, slot: 0, bit: 1 })).toThrow(/tick >= 1/);
    w.dispose();
  });
});
