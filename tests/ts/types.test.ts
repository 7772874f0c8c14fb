// Type tests: what the schema infers (checked by tsc over tests/ts, and run by vitest).
import { describe, expectTypeOf, it } from 'vitest';
import type { Component, Entity, Query, ReadRef, Ref, SystemContext, Value, World } from '../../dist/index.js';
import { sim } from './support/sim.js';

describe('types inferred from schemas', () => {
  it('get returns the schema value or undefined, without casts', () => {
    const w = sim.createWorld({ capacity: 4 });
    const Position = w.registerComponent('Position', { x: 'f32', y: 'f32' });
    const Path = w.registerComponent('Path', { pts: ['fx', 4], n: 'u8', pad: ['u8', 3] });
    expectTypeOf(Position).toEqualTypeOf<Component<{ readonly x: 'f32'; readonly y: 'f32' }>>();
    const e = w.create();
    expectTypeOf(e).toEqualTypeOf<Entity>();
    expectTypeOf(w.get(e, Position)).toEqualTypeOf<{ x: number; y: number } | undefined>();
    expectTypeOf(w.get(e, Path)).toEqualTypeOf<{ pts: number[]; n: number; pad: number[] } | undefined>();
    expectTypeOf<Value<{ a: 'i8' }>>().toEqualTypeOf<{ a: number }>();
    // add takes exactly the fields.
    w.add(e, Position, { x: 1, y: 2 });
    // @ts-expect-error a missing field
    expectTypeOf(() => w.add(e, Position, { x: 1 })).toBeFunction();
    // @ts-expect-error a field of the wrong type
    expectTypeOf(() => w.add(e, Position, { x: 1, y: '2' })).toBeFunction();
    // @ts-expect-error an unknown kind
    expectTypeOf(() => w.registerComponent('Bad', { x: 'f16' })).toBeFunction();
    w.dispose();
  });

  it('each hands Ref for write and ReadRef for read, in list order', () => {
    const w = sim.createWorld({ capacity: 4 });
    const P = w.registerComponent('P', { x: 'f32', y: 'f32' });
    const V = w.registerComponent('V', { x: 'f32', y: 'f32' });
    const A = w.registerComponent('A', { v: ['f32', 2] });
    w.each([P, V, A], ['write', 'read', 'write'], (e, p, v, a) => {
      expectTypeOf(e).toEqualTypeOf<Entity>();
      expectTypeOf(p).toEqualTypeOf<Ref<{ readonly x: 'f32'; readonly y: 'f32' }>>();
      expectTypeOf(v).toEqualTypeOf<ReadRef<{ readonly x: 'f32'; readonly y: 'f32' }>>();
      expectTypeOf(p.x).toEqualTypeOf<number>();
      expectTypeOf(a.v).toEqualTypeOf<number[]>(); // a checked copy (docs/typescript.md#queries)
      p.x = v.x;
      // @ts-expect-error a read-declared component is readonly
      v.x = 1;
    });
    // @ts-expect-error one access per component
    expectTypeOf(() => w.each([P, V], ['write'], () => {})).toBeFunction();
    // @ts-expect-error accesses are 'read' | 'write'
    expectTypeOf(() => w.each([P], ['rw'], () => {})).toBeFunction();
    w.eachChunk([P], ['write'], (chunk) => {
      expectTypeOf(chunk.field(P, 'x').array).toEqualTypeOf<Float32Array>();
      // @ts-expect-error not a field of P
      expectTypeOf(() => chunk.field(P, 'z')).toBeFunction();
    });
    w.dispose();
  });

  it('systems, hashes and handles', () => {
    const w: World = sim.createWorld({ capacity: 4, seed: 1n });
    const P = w.registerComponent('P', { x: 'i32' });
    w.registerSystem({
      name: 'S', budgetMs: 1, io: [[P, 'write']], dependsOn: [],
      run(ctx) {
        expectTypeOf(ctx).toEqualTypeOf<SystemContext>();
        expectTypeOf(ctx.tick).toEqualTypeOf<number>();
        expectTypeOf(ctx.rng?.nextU64()).toEqualTypeOf<bigint | undefined>();
        ctx.each([P], ['write'], (_e, p) => {
          expectTypeOf(p.x).toEqualTypeOf<number>();
        });
      },
    });
    expectTypeOf(w.stateHash(0)).toEqualTypeOf<bigint>();
    // @ts-expect-error seeds are bigint
    expectTypeOf(() => sim.createWorld({ capacity: 4, seed: 5 })).toBeFunction();
    w.dispose();
  });

  it('queries: named refs typed from the schemas, optional refs possibly undefined, read refs readonly', () => {
    const w = sim.createWorld({ capacity: 4 });
    const Position = w.registerComponent('Position', { x: 'f32', y: 'f32' });
    const Velocity = w.registerComponent('Velocity', { x: 'f32', y: 'f32' });
    const Health = w.registerComponent('Health', { hp: 'i32', hist: ['i32', 2] });
    const Frozen = w.registerComponent('Frozen', {});
    const movers = w.query({ pos: Position.write, vel: Velocity.read }, { without: [Frozen], optional: { hp: Health.write }, tags: [] });
    expectTypeOf(movers.world).toEqualTypeOf<World>();
    expectTypeOf<Query>().toHaveProperty("each");
    movers.each((e, { pos, vel, hp }) => {
      expectTypeOf(e).toEqualTypeOf<Entity>();
      expectTypeOf(pos).toEqualTypeOf<Ref<{ readonly x: 'f32'; readonly y: 'f32' }>>();
      expectTypeOf(vel).toEqualTypeOf<ReadRef<{ readonly x: 'f32'; readonly y: 'f32' }>>();
      expectTypeOf(hp).toEqualTypeOf<Ref<{ readonly hp: 'i32'; readonly hist: readonly ['i32', 2] }> | undefined>();
      expectTypeOf(hp!.hist).toEqualTypeOf<number[]>();
      pos.x += vel.x;
      // @ts-expect-error a read ref is readonly
      vel.x = 1;
      // @ts-expect-error an optional ref may be undefined
      hp.hp = 1;
      // @ts-expect-error not a term of this query
      expectTypeOf(() => (({ pos: p, nope }) => [p, nope])).toBeFunction();
    });
    movers.eachChunk((chunk) => {
      expectTypeOf(chunk.field(Position, 'x').array).toEqualTypeOf<Float32Array>();
    });
    expectTypeOf(movers.count()).toEqualTypeOf<number>();
    // @ts-expect-error terms are Component.read / Component.write
    expectTypeOf(() => w.query({ pos: Position })).toBeFunction();
    // Field handles: a scalar takes (e), an array field (e, i).
    expectTypeOf(Position.field.x.get).returns.toEqualTypeOf<number>();
    expectTypeOf(Health.field.hist.get).parameters.toEqualTypeOf<[Entity, number]>();
    // @ts-expect-error not a field of Position
    expectTypeOf(() => Position.field.z).toBeFunction();
    w.registerSystem({
      name: 'Move', budgetMs: 1, io: [[Health, 'read']],
      queries: { movers: { pos: Position.write, vel: Velocity.read, without: [Frozen] } },
      run(ctx) {
        ctx.queries.movers.each((_e, { pos, vel }) => {
          expectTypeOf(pos.x).toEqualTypeOf<number>();
          // @ts-expect-error a read ref is readonly
          vel.y = pos.y;
        });
        // @ts-expect-error not a declared query
        expectTypeOf(() => ctx.queries.others).toBeFunction();
      },
    });
    w.dispose();
  });
});
