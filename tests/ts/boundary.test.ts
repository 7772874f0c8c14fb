// The option limits both sides check are one manifest (web/boundary.json):
// scripts/gen-boundary.mjs generates the TypeScript table
// (web/src/boundary/limits.gen.ts) and the C++ static assertions against the
// core's constants (web/bindings/limits.gen.h). This fails when a generated
// file is stale, when the wasm module was built from another manifest, or
// when a limit the TypeScript layer checks is not the one it enforces. The
// same manifest lists every function the module exports (web/bindings'
// registrations, types/laige_wasm.d.ts and exports.gen.ts are generated
// from it): the loaded module must export exactly those, with their arity.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as generated from '../../dist/boundary/limits.gen.js';
import * as exportsGen from '../../dist/boundary/exports.gen.js';
import * as worldCore from '../../dist/core/world_core.js';
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
    expect(limits.LIMITS_TABLE).toMatch(/rollback:players=1\.\.8\/2,/);
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

  it('the module exports exactly the functions the manifest lists, each with its arity', () => {
    const { PLAIN_EXPORTS } = exportsGen as unknown as {
      PLAIN_EXPORTS: ReadonlyArray<readonly [string, string, number, boolean]>;
    };
    const module = (sim as unknown as { mem: { module: Record<string, unknown> & { asm: Record<string, unknown> } } }).mem.module;
    const raw = (sim as unknown as { raw: Record<string, unknown> }).raw;
    // No embind: no function of the module is an embind invoker (which names its function and checks its argument count).
    const embind = Object.keys(module).filter((k) => typeof module[k] === 'function' &&
      /throwBindingError|called with \$\{/.test(Function.prototype.toString.call(module[k])));
    expect(embind).toEqual([]);
    // Plain exports: emscripten's stubs, each forwarding to one export of the instance, whose length is its wasm arity.
    const plain = Object.keys(module).filter((k) => k.startsWith('_laige_')).sort();
    expect(plain).toEqual(PLAIN_EXPORTS.map(([, exported]) => exported).sort());
    for (const [name, exported, arity] of PLAIN_EXPORTS) {
      const key = /Module\["asm"\]\["([\w$]+)"\]/.exec(Function.prototype.toString.call(module[exported]))![1]!;
      expect((module.asm[key] as (...a: unknown[]) => unknown).length, exported).toBe(arity);
      expect(typeof raw[name], name).toBe('function');
    }
    expect(PLAIN_EXPORTS.length).toBeGreaterThan(100);
  });

  it('strings cross the boundary exactly both ways: UTF-8 in, escaped JSON and text out', () => {
    const raw = (sim as unknown as { raw: Record<string, (...a: unknown[]) => unknown> }).raw;
    // A name the TypeScript layer would refuse, sent straight to the module: it comes back
    // byte for byte in the failure's fields (quotes, backslashes, control characters, non-ASCII).
    const hostile = 'a"b\\c\n\u0001\u001fd \u00e9\u2713\u{1F600}';
    const r = raw['scenarioRun']!(hostile, 0, 0, true, 0, true) as { code: number };
    expect(r.code).not.toBe(0);
    const f = raw['lastFailure']!() as { reason: string; fields: Record<string, unknown> };
    expect(f.reason).toBe('scenario_unknown');
    expect(f.fields['scenario']).toBe(hostile);
    raw['clearLastFailure']!();
    expect(raw['lastFailure']!()).toBeNull();
    // A longer string than any before grows the argument buffer; a short one after reuses it.
    const long = 'x'.repeat(5000) + '\u2713';
    expect((raw['scenarioRun']!(long, 0, 0, true, 0, true) as { code: number }).code).not.toBe(0);
    expect((raw['lastFailure']!() as { fields: Record<string, unknown> }).fields['scenario']).toBe(long.slice(0, 44) + '...');
    raw['clearLastFailure']!();
    // Non-ASCII names and field names round-trip through registration and componentInfo.
    const world = sim.createWorld({ capacity: 4 });
    const C = world.registerComponent('Pösition✓', { x: 'f32', y: 'i32' });
    const info = raw['worldComponentInfo']!((worldCore as unknown as { coreOf(w: unknown): { ptr: number } }).coreOf(world).ptr, C.id);
    expect(C.name).toBe('Pösition✓');
    expect(info).toMatchObject({ name: 'Pösition✓', fields: [['x', expect.any(Number), 1, 0], ['y', expect.any(Number), 1, 4]] });
    world.dispose();
    expect(typeof raw['version']!()).toBe('string');
    expect(raw['scenarioGeneratedInput']).toBeTypeOf('function');
  });

  it('a plain export\'s result has the manifest type: u32 and ptr unsigned, bool a boolean', () => {
    const raw = (sim as unknown as { raw: Record<string, (...a: unknown[]) => unknown> }).raw;
    const mem = (sim as unknown as { mem: { out: number; u32: Uint32Array; sync(): void } }).mem;
    expect(raw['worldCreate']!(4, 0, 0, 0, true, mem.out)).toBe(0);
    mem.sync();
    const w = mem.u32[mem.out >>> 2]!;
    expect(raw['worldIsIterating']!(w)).toBe(false);
    expect(raw['worldCapacity']!(w)).toBe(4);
    expect(raw['worldCreateEntity']!(w, mem.out)).toBe(0);
    mem.sync();
    expect(raw['worldHandleAt']!(w, 0)).toBe(mem.u32[mem.out >>> 2]);
    raw['worldDestroy']!(w);
  });
});
