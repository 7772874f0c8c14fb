// Memory stability: 1,000 create/dispose cycles of a 10,000-entity world
// leave wasm memory where it was after the first cycle.
import { describe, expect, it } from 'vitest';
import { sim } from './support/sim.js';

function cycle(): void {
  const w = sim.createWorld({ capacity: 10_000, seed: 1n });
  const P = w.registerComponent('Position', { x: 'f32', y: 'f32' });
  const V = w.registerComponent('Velocity', { x: 'f32', y: 'f32' });
  w.registerSystem({ name: 'Move', budgetMs: 50, io: [[P, 'write'], [V, 'read']], run(ctx) {
    ctx.eachChunk([P, V], ['write', 'read'], (c) => {
      const px = c.field(P, 'x');
      const vx = c.field(V, 'x');
      for (let r = 0; r < c.rows; r++) px.array[px.index + r * px.stride] = px.array[px.index + r * px.stride]! + vx.array[vx.index + r * vx.stride]!;
    });
  } });
  for (let i = 0; i < 10_000; i++) {
    const e = w.create();
    w.add(e, P, { x: i, y: 0 });
    if (i % 2 === 0) w.add(e, V, { x: 1, y: 1 });
  }
  w.runSystems();
  w.each([P], ['read'], () => {});
  w.stateHash(1);
  w.dispose();
}

describe('memory', () => {
  it('1,000 create/dispose cycles of a 10,000-entity world do not grow wasm memory', () => {
    const worlds = sim.worldCount;
    cycle();
    const after1 = sim.memoryBytes;
    for (let i = 1; i < 1000; i++) cycle();
    expect(sim.memoryBytes).toBe(after1);
    expect(sim.worldCount).toBe(worlds);
  });
});
