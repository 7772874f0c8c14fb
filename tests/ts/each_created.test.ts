// An iteration does not visit the entities created during it, whatever slot
// they land in (docs/query.md#entities-created-during-an-iteration).
import { describe, expect, it } from 'vitest';
import { entityId } from '../../dist/index.js';
import { sim } from './support/sim.js';

describe('each([]) and entities created during it', () => {
  it('created in a lower freed slot, a higher freed slot and above the old high-water: none visited', () => {
    const w = sim.createWorld({ capacity: 16 });
    const es = Array.from({ length: 6 }, () => w.create());
    w.destroy(es[1]!);
    w.destroy(es[4]!); // LIFO: slot 4 is handed out first, then 1, then the fresh 6
    const made: number[] = [];
    const seen: number[] = [];
    w.each([], [], (e) => {
      seen.push(entityId(e));
      if (entityId(e) === 2) for (let i = 0; i < 3; i++) made.push(entityId(w.create()));
    });
    expect(made).toEqual([4, 1, 6]);
    expect(seen).toEqual([0, 2, 3, 5]);
    const next: number[] = [];
    w.each([], [], (e) => next.push(entityId(e)));
    expect(next).toEqual([0, 1, 2, 3, 4, 5, 6]); // the next iteration sees them
    w.dispose();
  });

  it('destroyed and re-created ahead of the cursor: the new entity is not visited', () => {
    const w = sim.createWorld({ capacity: 8 });
    const es = Array.from({ length: 4 }, () => w.create());
    const seen: number[] = [];
    w.each([], [], (e) => {
      seen.push(entityId(e));
      if (entityId(e) === 0) {
        w.destroy(es[3]!);
        expect(entityId(w.create())).toBe(3);
      }
    });
    expect(seen).toEqual([0, 1, 2]);
    w.dispose();
  });

  it('a query with components does not see them either (they cannot enter a walked archetype)', () => {
    const w = sim.createWorld({ capacity: 8 });
    const P = w.registerComponent('P', { v: 'i32' });
    for (let i = 0; i < 3; i++) w.add(w.create(), P, { v: i });
    let visits = 0;
    w.each([P], ['read'], () => {
      visits++;
      const e = w.create(); // legal: component-less
      expect(() => w.add(e, P, { v: 9 })).toThrow(); // it would enter the walked archetype
    });
    expect(visits).toBe(3);
    w.dispose();
  });
});
