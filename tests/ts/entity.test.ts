// Entity handles and the seed-003 Entities allocator in TypeScript.
import { describe, expect, it } from 'vitest';
import { Entities, MAX_ENTITIES, NULL_ENTITY, entityGeneration, entityId, formatEntity, isEntityHandle, makeEntity } from '../../dist/index.js';
import { sim } from './support/sim.js';

describe('entity handles', () => {
  it('are [id: 16 | generation: 16] numbers', () => {
    const e = makeEntity(12, 3);
    expect(e).toBe((12 << 16) | 3);
    expect(entityId(e)).toBe(12);
    expect(entityGeneration(e)).toBe(3);
    expect(formatEntity(e)).toBe('Entity(12, 3)');
    expect(makeEntity(0xffff, 0xffff)).toBe(0xffffffff);
    expect(entityId(0xffffffff)).toBe(0xffff);
    expect(NULL_ENTITY).toBe(0);
    expect(isEntityHandle(5)).toBe(true);
    expect(isEntityHandle(-1)).toBe(false);
    expect(isEntityHandle(1.5)).toBe(false);
    expect(isEntityHandle(2 ** 32)).toBe(false);
    // A LaigeError like every other rejected argument (was a RangeError).
    expect(() => makeEntity(65536, 0)).toThrow(expect.objectContaining({ reason: 'entity_handle_invalid' }));
    expect(() => makeEntity(1, -1)).toThrow(expect.objectContaining({ reason: 'entity_handle_invalid' }));
  });
  it('World handles read the same way (generations start at 1)', () => {
    const w = sim.createWorld({ capacity: 4 });
    const a = w.create();
    const b = w.create();
    expect([entityId(a), entityGeneration(a)]).toEqual([0, 1]);
    expect([entityId(b), entityGeneration(b)]).toEqual([1, 1]);
    w.destroy(a);
    const c = w.create();
    expect(formatEntity(c)).toBe('Entity(0, 2)');
    w.dispose();
  });
});

describe('Entities (docs/entity.md)', () => {
  it('the seed example', () => {
    const entities = new Entities();
    const first = entities.spawn()!;
    const second = entities.spawn()!;
    expect(entities.despawn(first)).toBe(true);
    expect(entities.isAlive(first)).toBe(false);
    const reused = entities.spawn()!;
    expect(reused).toBe(makeEntity(0, 1));
    expect(entities.length).toBe(2);
    expect(entities.isAlive(second)).toBe(true);
  });
  it('LIFO reuse on top of ascending fresh indices', () => {
    const es = new Entities(8);
    const hs = [0, 1, 2, 3].map(() => es.spawn()!);
    expect(hs.map(entityId)).toEqual([0, 1, 2, 3]);
    es.despawn(hs[1]!);
    es.despawn(hs[3]!);
    expect(entityId(es.spawn()!)).toBe(3);
    expect(entityId(es.spawn()!)).toBe(1);
    expect(entityId(es.spawn()!)).toBe(4);
    expect(es.highWater).toBe(5);
  });
  it('stale, never handed out and double despawns answer false and change nothing', () => {
    const es = new Entities(4);
    const a = es.spawn()!;
    expect(es.despawn(makeEntity(3, 0))).toBe(false);
    expect(es.despawn(a)).toBe(true);
    expect(es.despawn(a)).toBe(false);
    expect(es.length).toBe(0);
    expect(es.isAlive(a)).toBe(false);
    expect(es.isAlive(-5 as number)).toBe(false);
  });
  it('capacity is a budget; generations wrap to firstGeneration', () => {
    const es = new Entities(2, 1);
    expect(es.spawn()).toBe(makeEntity(0, 1));
    expect(es.spawn()).toBe(makeEntity(1, 1));
    expect(es.spawn()).toBeUndefined();
    let h = makeEntity(0, 1);
    let ok = true;
    for (let i = 0; i < 65535; i++) {
      ok = es.despawn(h) && ok;
      h = es.spawn()!;
    }
    expect(ok).toBe(true);
    expect(entityGeneration(h)).toBe(1);
    expect(new Entities().capacity).toBe(MAX_ENTITIES);
  });
  it('despawnAll hands out 0, 1, 2 ... again', () => {
    const es = new Entities(8);
    for (let i = 0; i < 5; i++) es.spawn();
    es.despawn(makeEntity(2, 0));
    es.despawnAll();
    expect(es.length).toBe(0);
    expect([es.spawn(), es.spawn(), es.spawn()].map((e) => entityId(e!))).toEqual([0, 1, 2]);
  });
  it('matches the World allocator operation for operation', () => {
    const w = sim.createWorld({ capacity: 64 });
    const es = new Entities(64, 1);
    let x = 12345;
    const live: number[] = [];
    for (let i = 0; i < 2000; i++) {
      x = (x * 1103515245 + 12345) >>> 0;
      if (live.length > 0 && (x >>> 16) % 3 === 0) {
        const k = (x >>> 8) % live.length;
        const h = live.splice(k, 1)[0]!;
        w.destroy(h);
        expect(es.despawn(h)).toBe(true);
      } else if (live.length < 64) {
        const h = w.create();
        expect(es.spawn()).toBe(h);
        live.push(h);
      }
    }
    w.dispose();
  });
});
