// The binding's out-parameter layouts are one table (web/layouts.json): the
// C++ writers (web/bindings/layouts.gen.h) and the TypeScript readers
// (web/src/boundary/layouts.gen.ts) are generated from it. This fails when the
// generated files are stale or the wasm module was built from another table.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as generated from '../../dist/boundary/layouts.gen.js';
import { sim } from './support/sim.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('layouts', () => {
  it('the generated files are what web/layouts.json gives', () => {
    expect(() => execFileSync(process.execPath, ['scripts/gen-layouts.mjs', '--check'], { cwd: root, stdio: 'pipe' })).not.toThrow();
  });

  it('the wasm module was built from the same table as the TypeScript layer', () => {
    // Both are internal (stripped from the declarations).
    const table = (generated as unknown as { LAYOUT_TABLE: string }).LAYOUT_TABLE;
    const raw = (sim as unknown as { raw: { layoutTable(): string } }).raw;
    expect(table).toMatch(/^EntityStats:f64:capacity,/);
    expect(raw.layoutTable()).toBe(table);
  });

  it('the readers return what the C++ wrote: stats of a world with known counts', () => {
    const world = sim.createWorld({ capacity: 100, churnPerFrameBudget: 7 });
    const C = world.registerComponent('C', { v: 'u32' });
    const es = Array.from({ length: 5 }, () => world.create());
    world.destroy(es[4]!);
    for (const e of es.slice(0, 3)) world.add(e, C, { v: 1 });
    expect(world.stats()).toMatchObject({ capacity: 100, inUse: 4, peakInUse: 5, totalCreated: 5, totalDestroyed: 1 });
    expect(world.guardrailStats()).toMatchObject({ capacity: 100, entityCount: 4, churnPerFrameBudget: 7, entityBudgetWarns: [0, 0, 0] });
    expect(world.archetypeStats()).toMatchObject({ rowsLive: 3, totalAdds: 3 });
    world.dispose();
  });
});
