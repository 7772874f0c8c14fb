// The option limits both sides check are one manifest (web/boundary.json):
// scripts/gen-boundary.mjs generates the TypeScript table
// (web/src/boundary/limits.gen.ts) and the C++ static assertions against the
// core's constants (web/bindings/limits.gen.h). This fails when a generated
// file is stale, when the wasm module was built from another manifest, or
// when a limit the TypeScript layer checks is not the one it enforces.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as generated from '../../dist/boundary/limits.gen.js';
import { LaigeError } from '../../dist/index.js';
import { sim } from './support/sim.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
type Limit = { min: number; max: number; default: number };
const limits = generated as unknown as { LIMITS_TABLE: string; ROLLBACK_LIMITS: Record<string, Limit>; LOOP_LIMITS: Record<string, Limit> };

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof LaigeError ? e.reason : String(e);
  }
  return undefined;
}

describe('boundary manifest', () => {
  it('the generated files are what web/boundary.json and web/layouts.json give', () => {
    expect(() => execFileSync(process.execPath, ['scripts/gen-boundary.mjs', '--check'], { cwd: root, stdio: 'pipe' })).not.toThrow();
  });

  it('the wasm module was built from the same manifest as the TypeScript layer', () => {
    const raw = (sim as unknown as { raw: { limitsTable(): string } }).raw;
    expect(limits.LIMITS_TABLE).toMatch(/^rollback:players=1\.\.8\/2,/);
    expect(raw.limitsTable()).toBe(limits.LIMITS_TABLE);
  });

  it('every rollback limit is the one a session enforces: max accepted, max + 1 refused with the core reason', () => {
    for (const option of ['players', 'depth', 'maxInputBytes', 'inputLead', 'hashHistory']) {
      const l = limits.ROLLBACK_LIMITS[option]!;
      const world = sim.createWorld({ capacity: 4 });
      const ok = sim.createRollbackSession(world, { [option]: l.max });
      ok.dispose();
      expect(reasonOf(() => sim.createRollbackSession(world, { [option]: l.max + 1 })), option).toBe('rollback_option_invalid');
      expect(reasonOf(() => sim.createRollbackSession(world, { [option]: l.min - 1 })), option).toMatch(/rollback_option_invalid|out_of_range/);
      world.dispose();
    }
  });

  it('the loop limits are the ones a loop enforces, and its defaults', () => {
    const world = sim.createWorld({ capacity: 4 });
    const r = limits.LOOP_LIMITS.tickRateHz!;
    const loop = sim.createGameLoop(world);
    expect(loop.tickRateHz).toBe(r.default);
    expect(loop.maxCatchUpTicks).toBe(limits.LOOP_LIMITS.maxCatchUpTicks!.default);
    loop.dispose();
    sim.createGameLoop(world, { tickRateHz: r.max }).dispose();
    sim.createGameLoop(world, { tickRateHz: r.min }).dispose();
    expect(reasonOf(() => sim.createGameLoop(world, { tickRateHz: r.max + 1 }))).toBe('tick_rate_invalid');
    expect(reasonOf(() => sim.createGameLoop(world, { tickRateHz: r.min - 1 }))).toBe('tick_rate_invalid');
    world.dispose();
  });
});
