// desync.test.ts - per-system checkpoints, the state hash tree and the desync
// report from TypeScript (docs/desync.md): a one-bit divergence injected in
// one system of one world at one tick is named by tick, system, entity and
// field; the tree walk finds the same rows; bad input is refused with the
// world unchanged.
import { describe, expect, it } from 'vitest';
import { LaigeError, type StateTreeNode, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

const TICKS = 12;

/** A world of 300 movers and three systems; `flip` (tick, slot) flips one bit of Velocity.y after Move, in Nudge. */
function build(flip: { tick: number; slot: number } | null): { world: World; entities: number[] } {
  const world = sim.createWorld({ capacity: 1024, seed: 0xde5eedn });
  const Position = world.registerComponent('Position', { x: 'f32', y: 'f32' });
  const Velocity = world.registerComponent('Velocity', { x: 'fx', y: 'fx' });
  const Tag = world.registerComponent('Tag', {});
  const Spin = world.registerComponent('Spin', { a: 'f32' });
  const entities: number[] = [];
  for (let i = 0; i < 300; i++) {
    const e = world.create();
    world.add(e, Position, { x: i, y: -i });
    world.add(e, Velocity, { x: (i % 7) * 16384, y: 65536 });
    if (i % 3 === 0) world.add(e, Tag, {});
    entities.push(e);
  }
  const movers = world.query({ pos: Position.write, vel: Velocity.read });
  world.registerSystem({ name: 'Move', budgetMs: 4, io: [[Position, 'write'], [Velocity, 'read']], run() { movers.each((_e, { pos, vel }) => { pos.x += vel.x / 65536; pos.y += vel.y / 65536; }); } });
  world.registerSystem({ name: 'Nudge', budgetMs: 4, io: [[Velocity, 'write']], dependsOn: ['Move'], run(ctx) {
    if (flip !== null && Number(ctx.tick) === flip.tick) {
      const e = entities[flip.slot]!;
      Velocity.field.y.set(e, Velocity.field.y.get(e)! ^ 1);
    }
  } });
  world.registerSystem({ name: 'Drift', budgetMs: 4, io: [[Spin, 'write']], dependsOn: ['Nudge'], run() { /* writes nothing this tick */ } });
  world.scheduleSystems();
  return { world, entities };
}

describe('desync forensics from TypeScript', () => {
  it('the report names the first differing tick, the system, the entity and the field with both values', () => {
    const flip = { tick: 7, slot: 123 };
    const a = build(null);
    const b = build(flip);
    a.world.systemCheckpoints = true;
    b.world.systemCheckpoints = true;
    expect(a.world.systemCheckpoints).toBe(true);
    let first = -1;
    for (let t = 1; t <= TICKS && first < 0; t++) {
      a.world.runSystems();
      b.world.runSystems();
      if (a.world.stateTreeRoot(t) !== b.world.stateTreeRoot(t)) first = t;
    }
    expect(first).toBe(flip.tick);
    const ca = a.world.checkpoints();
    const cb = b.world.checkpoints();
    expect(ca.tick).toBe(BigInt(flip.tick));
    expect(ca.items.map((c) => c.name)).toEqual(['Move', 'Nudge', 'Drift']);
    expect(ca.items[0]!.checksum).toBe(cb.items[0]!.checksum);
    expect(ca.items[1]!.checksum).not.toBe(cb.items[1]!.checksum);
    const report = a.world.desyncReport(b.world, 8);
    expect(report.tick).toBe(BigInt(flip.tick));
    expect(report.checkpointsCompared).toBe(true);
    expect(report.firstSystem).toBe('Nudge');
    expect(report.firstSystemPosition).toBe(1);
    expect(report.differences).toBe(1);
    expect(report.checksumA).not.toBe(report.checksumB);
    const item = report.items[0]!;
    expect(item.entityA).toBe(a.entities[flip.slot]);
    expect(item.component).toBe('Velocity');
    expect(item.field).toBe('y');
    expect(item.valueA).toBe(65536);
    expect(item.valueB).toBe(65537);
    // The same rows as stateDiff.
    const diff = a.world.stateDiff(b.world, 8);
    expect(diff.total).toBe(1);
    expect(diff.items[0]!.slot).toBe(item.slot);
    a.world.dispose();
    b.world.dispose();
  });

  it('walking the two trees down the differing nodes reaches the chunk of the differing row', () => {
    const a = build(null);
    const b = build({ tick: 3, slot: 200 });
    for (let t = 1; t <= 5; t++) {
      a.world.runSystems();
      b.world.runSystems();
    }
    expect(a.world.stateTreeRoot(5)).not.toBe(b.world.stateTreeRoot(5));
    // Model: descend from the root into every child whose hashes differ.
    const leaves: StateTreeNode[] = [];
    let hashesExchanged = 0;
    const walk = (node: StateTreeNode): void => {
      if (node.level === 3) { leaves.push(node); return; }
      const ha = a.world.stateTreeChildren(node);
      const hb = b.world.stateTreeChildren(node);
      hashesExchanged += hb.length;
      expect(ha.length).toBe(hb.length);
      ha.forEach((h, i) => {
        if (h === hb[i]) return;
        const child = node.level === 0 ? { level: 1, part: i, index: 0 }
          : node.level === 1 ? { level: 2, part: node.part, index: i } : { level: 3, part: node.part, index: node.index * 32 + i };
        walk(child);
      });
    };
    walk({ level: 0, part: 0, index: 0 });
    // Velocity differs from tick 3; Position from tick 4 (Move read the flipped velocity).
    const ids = ['Position', 'Velocity'].map((n) => a.world.components().find((c) => c.name === n)!.id).sort((x, y) => x - y);
    expect(leaves).toEqual(ids.map((part) => ({ level: 3, part, index: Math.floor(200 / 64) })));
    // (C + 2) parts + 32 x (2 differing parts + 2 differing groups), of a tree over 1,024 chunks per part.
    expect(hashesExchanged).toBe(6 + 32 * 4);
    const la = a.world.stateTreeLeaf(leaves[0]!);
    const lb = b.world.stateTreeLeaf(leaves[0]!);
    expect(la.length).toBe(lb.length);
    expect(la).not.toEqual(lb);
    a.world.dispose();
    b.world.dispose();
  });

  it('the root is a pure function of the state: a snapshot restored into a fresh world has the same root and tree', () => {
    const a = build(null);
    for (let t = 1; t <= 4; t++) a.world.runSystems();
    const c = build(null);
    c.world.restore(a.world.snapshot());
    expect(c.world.stateTreeRoot(4)).toBe(a.world.stateTreeRoot(4));
    expect(c.world.stateTreeChildren({ level: 0, part: 0, index: 0 })).toEqual(a.world.stateTreeChildren({ level: 0, part: 0, index: 0 }));
    // Checkpoints are diagnostics: switching them on changes no hash.
    const before = a.world.stateHash(4);
    a.world.systemCheckpoints = true;
    expect(a.world.stateHash(4)).toBe(before);
    a.world.dispose();
    c.world.dispose();
  });

  it('bad input is refused with a reason and the world unchanged', () => {
    const a = build(null);
    const b = build(null);
    a.world.runSystems();
    const hash = a.world.stateHash(1);
    const reasonOf = (fn: () => unknown): string => (thrown(fn) as LaigeError).reason;
    expect(reasonOf(() => { a.world.systemCheckpoints = 'yes' as never; })).toBe('wrong_type');
    expect(reasonOf(() => a.world.stateTreeChildren({ level: 1, part: 9999, index: 0 }))).toBe('state_tree_node_invalid');
    expect(reasonOf(() => a.world.stateTreeChildren({ level: 3, part: 1, index: 0 }))).toBe('state_tree_node_is_leaf');
    expect(reasonOf(() => a.world.stateTreeLeaf({ level: 1, part: 1, index: 0 }))).toBe('state_tree_node_invalid');
    expect(reasonOf(() => a.world.stateTreeChildren({ level: 5, part: 0, index: 0 }))).toBe('out_of_range');
    expect(reasonOf(() => a.world.stateTreeChildren(null as never))).toBe('wrong_type');
    expect(reasonOf(() => a.world.stateTreeRoot(-1))).toBe('out_of_range');
    expect(reasonOf(() => a.world.desyncReport(b.world))).toBe('desync_tick_mismatch');
    expect(reasonOf(() => a.world.desyncReport({} as never))).toBe('wrong_type');
    const err = thrown(() => a.world.desyncReport(b.world)) as LaigeError;
    expect(err).toBeInstanceOf(LaigeError);
    expect(err.fields).toMatchObject({ tick_a: 1, tick_b: 0 });
    expect(a.world.stateHash(1)).toBe(hash);
    // Switching checkpoints from inside a running system is refused.
    const c = sim.createWorld({ capacity: 16, seed: 1n });
    let inside: unknown = null;
    c.registerSystem({ name: 'S', budgetMs: 4, io: [], run() { inside = thrown(() => { c.systemCheckpoints = true; }); } });
    c.scheduleSystems();
    c.runSystems();
    expect((inside as LaigeError).reason).toBe('checkpoints_inside_tick');
    expect(c.systemCheckpoints).toBe(false);
    for (const w of [a.world, b.world, c]) w.dispose();
    expect(reasonOf(() => a.world.stateTreeRoot(0))).toBe('disposed');
  });
});
