// A query without optional terms runs its whole walk in one generated loop
// (row_loop.ts makeWalkLoop): archetypes without rows or not matched are
// skipped inside it, and a row that takes the slow commit (a World.add
// during the callback, a value checked field by field) leaves it; the walk
// goes on from the next row, in the same archetype or the next one. These
// cases pin that the resumed walk visits every row once, in archetype then
// slot order, with the right entity, and stores what it must.
import { describe, expect, it } from 'vitest';
import { type Component, LaigeError, type Entity, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';
import { LOOP_PATHS, type LoopPath, useLoopPath } from './support/kinds_world.js';

type Tag = Component<{ readonly t: 'u8' }>;

// Five archetypes around Data: (D), (D,T1) left empty, (D,X) excluded by
// `without`, (D,T2), (D,T3); rows of 4, 0, 3, 5 and 4 entities.
function build(path: LoopPath) {
  const w = sim.createWorld({ capacity: 256, seed: 9n });
  useLoopPath(w, path);
  const D = w.registerComponent('Data', { v: 'f32' });
  const [T1, X, T2, T3] = ['T1', 'X', 'T2', 'T3'].map((n) => w.registerComponent(n, { t: 'u8' })) as [Tag, Tag, Tag, Tag];
  let next = 1;
  const make = (count: number, extra: Tag | undefined) => {
    for (let i = 0; i < count; i++) {
      const e = w.create();
      w.add(e, D, { v: next++ });
      if (extra !== undefined) w.add(e, extra, { t: 0 });
    }
  };
  make(4, undefined);
  const gone = w.create();
  w.add(gone, D, { v: 0 });
  w.add(gone, T1, { t: 0 });
  w.destroy(gone); // (D,T1) exists with no rows
  make(3, X);
  make(5, T2);
  make(4, T3);
  const q = w.query({ d: D.write }, { without: [X] });
  const order: Entity[] = [];
  w.each([D, X], ['read', 'read'], () => {});
  q.each((e) => { order.push(e); });
  return { w, D, X: X, q, order };
}

const values = (w: World, D: Parameters<World['get']>[1], es: readonly Entity[]) => es.map((e) => (w.get(e, D) as { v: number }).v);

describe('the walk loop: one call over every matched archetype, resumed after a slow commit', () => {
  for (const path of LOOP_PATHS) {
    it(`${path}: World.add during the callback in the middle of an archetype and on its last row`, () => {
      const { w, D, q, order } = build(path);
      expect(order.length).toBe(13);
      const before = values(w, D, order);
      // Rows 5 (inside T2's archetype) and 8 (its last row) take the slow commit.
      const slow = new Set([order[5]!, order[8]!]);
      const seen: Entity[] = [];
      q.each((e, { d }) => {
        seen.push(e);
        if (slow.has(e)) w.add(e, D, { v: -7 }); // d left unchanged: the add stands
        else d.v *= 2;
      });
      expect(seen).toEqual(order);
      expect(values(w, D, order)).toEqual(before.map((v, i) => (i === 5 || i === 8 ? -7 : v * 2)));
    });

    it(`${path}: a callback that never reads its entity, resumed across archetypes`, () => {
      const { w, D, q, order } = build(path);
      const before = values(w, D, order);
      let row = 0;
      q.each((_e, { d }) => {
        // A World.add on the first row of the (D,T2) and (D,T3) archetypes (rows 4 and 9).
        if (row === 4 || row === 9) w.add(order[row]!, D, { v: 1000 + row });
        else d.v += 0.5;
        row++;
      });
      expect(row).toBe(13);
      expect(values(w, D, order)).toEqual(before.map((v, i) => (i === 4 || i === 9 ? 1000 + i : v + 0.5)));
    });

    it(`${path}: a bad value in a later archetype throws; earlier rows keep their writes, that row and later ones are untouched`, () => {
      const { w, D, q, order } = build(path);
      const before = values(w, D, order);
      const e = thrown(() => q.each((ent, { d }) => {
        d.v = ent === order[10] ? Number.NaN : d.v + 1;
      }));
      expect(e).toBeInstanceOf(LaigeError);
      expect((e as LaigeError).reason).toBe('invalid_value');
      expect(values(w, D, order)).toEqual(before.map((v, i) => (i < 10 ? v + 1 : v)));
      // The walk ended with the throw: a next walk runs (no guard left behind).
      const h = w.stateHash(0);
      q.each(() => {});
      expect(w.stateHash(0)).toBe(h);
    });
  }
});
