// Relations in World.stateDiff (docs/relations.md#relations-in-a-state-diff):
// a relation item names its source, the relation and both targets, in
// fields and in words (the core's formatRelationDiff, so native and wasm
// print the same text); "(none)" for a side without the relation; equal
// worlds give no items; plain items keep an empty text.
import { describe, expect, it } from 'vitest';
import { type Entity, formatEntity, type World } from '../../dist/index.js';
import { sim } from './support/sim.js';

/** Two worlds set up the same way: a relation, a plain component, four entities. */
function pair() {
  const make = () => {
    const w = sim.createWorld({ capacity: 16 });
    const ChildOf = w.registerRelation('ChildOf', { onTargetDestroyed: 'destroy' });
    const Pos = w.registerComponent('Pos', { x: 'i32' });
    const [p1, p2, child, spare] = [w.create(), w.create(), w.create(), w.create()] as Entity[];
    return { w, ChildOf, Pos, p1: p1!, p2: p2!, child: child!, spare: spare! };
  };
  return { a: make(), b: make() };
}

function dispose(...worlds: World[]): void {
  for (const w of worlds) w.dispose();
}

describe('relations in a state diff', () => {
  it('two worlds that differ only in one parent give exactly that item, in words', () => {
    const { a, b } = pair();
    a.w.add(a.child, a.ChildOf(a.p1));
    b.w.add(b.child, b.ChildOf(b.p2));
    const d = a.w.stateDiff(b.w);
    expect(d.total).toBe(1);
    expect(d.items).toHaveLength(1);
    const item = d.items[0]!;
    expect(item).toMatchObject({
      slot: 2, componentId: a.ChildOf.id, component: 'ChildOf', presentInA: true, presentInB: true,
      relation: true, entityA: a.child, entityB: b.child, targetA: a.p1, targetB: b.p2,
    });
    expect(item.text).toBe(`${formatEntity(a.child)} ChildOf ${formatEntity(a.p1)} -> ${formatEntity(b.p2)}`);
    expect(item.text).toMatch(/^Entity\(2, \d+\) ChildOf Entity\(0, \d+\) -> Entity\(1, \d+\)$/);
    dispose(a.w, b.w);
  });

  it('equal worlds give no items', () => {
    const { a, b } = pair();
    a.w.add(a.child, a.ChildOf(a.p1));
    b.w.add(b.child, b.ChildOf(b.p1));
    expect(a.w.stateDiff(b.w)).toEqual({ total: 0, items: [] });
    expect(a.w.stateHash(0)).toBe(b.w.stateHash(0));
    dispose(a.w, b.w);
  });

  it('a relation present on one side only shows (none) for the other side', () => {
    const { a, b } = pair();
    a.w.add(a.child, a.ChildOf(a.p1));
    const ab = a.w.stateDiff(b.w);
    expect(ab.total).toBe(1);
    expect(ab.items[0]).toMatchObject({ relation: true, presentInA: true, presentInB: false, targetA: a.p1, targetB: null });
    expect(ab.items[0]!.text).toBe(`${formatEntity(a.child)} ChildOf ${formatEntity(a.p1)} -> (none)`);
    const ba = b.w.stateDiff(a.w);
    expect(ba.items[0]).toMatchObject({ relation: true, presentInA: false, presentInB: true, targetA: null, targetB: a.p1 });
    expect(ba.items[0]!.text).toBe(`${formatEntity(a.child)} ChildOf (none) -> ${formatEntity(a.p1)}`);
    dispose(a.w, b.w);
  });

  it('plain component and presence items are no relation items', () => {
    const { a, b } = pair();
    a.w.add(a.spare, a.Pos, { x: 1 });
    b.w.add(b.spare, b.Pos, { x: 2 });
    b.w.destroy(b.p2);
    const d = a.w.stateDiff(b.w);
    expect(d.total).toBe(2);
    expect(d.items[0]).toMatchObject({ componentId: 0, relation: false, entityA: a.p2, entityB: null, targetA: null, targetB: null, text: '' });
    expect(d.items[1]).toMatchObject({ component: 'Pos', relation: false, entityA: a.spare, entityB: b.spare, text: '' });
    dispose(a.w, b.w);
  });

  it('a destroy cascade shows as presence items (the subtree is gone)', () => {
    const { a, b } = pair();
    for (const s of [a, b]) s.w.add(s.child, s.ChildOf(s.p1));
    b.w.destroy(b.p1);  // onTargetDestroyed 'destroy': the child goes too
    const d = a.w.stateDiff(b.w);
    expect(d.items.map((i) => [i.slot, i.componentId, i.relation])).toEqual([[0, 0, false], [2, 0, false], [2, a.ChildOf.id, true]]);
    expect(d.items[2]!.text).toBe(`${formatEntity(a.child)} ChildOf ${formatEntity(a.p1)} -> (none)`);
    dispose(a.w, b.w);
  });
});
