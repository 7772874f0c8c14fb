// Handles past id 32,767: a handle is id << 16 | generation as an unsigned
// 32-bit number (docs/entity.md), so every entity with id >= 32,768 has a
// handle >= 2^31, which is no small integer for V8 and no int32 either.
// Every call that takes a handle must work with them (and with generations
// >= 0x8000), return them as the same unsigned numbers, refuse their
// signed int32 form, and leave the snapshot bytes as they were.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Entity, LaigeError, entityGeneration, entityId, formatEntity, makeEntity } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

const CAP = 65536;
const expected = (id: number, gen: number): number => ((id << 16) | gen) >>> 0;

/** Deterministic pseudo-random bits (the test must replay). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
}

/**
 * A full world: every id handed out (0..65535), generations raised on a few
 * slots of each half (slot 40,000 by 33,000 destroy/create cycles, so its
 * generation has the top bit set), components on most entities.
 */
function fullWorld() {
  const w = sim.createWorld({ capacity: CAP, churnPerFrameBudget: 0 });
  const P = w.registerComponent('Position', { x: 'f32', y: 'f32' });
  const H = w.registerComponent('Health', { hp: 'i32', max: 'u16', armor: 'u16' });
  const M = w.registerComponent('Mass', { kg: 'f64' });
  const handles: Entity[] = [];
  for (let i = 0; i < CAP; i++) handles.push(w.create());
  // Raise generations: destroy then create hands the same slot back (LIFO) one generation up.
  const bump = (id: number, times: number) => {
    for (let k = 0; k < times; k++) {
      w.destroy(handles[id]!);
      handles[id] = w.create();
    }
  };
  bump(40000, 33000);
  bump(65535, 3);
  bump(32768, 1);
  bump(100, 2);
  for (let id = 0; id < CAP; id++) {
    const e = handles[id]!;
    if (id % 3 !== 2) w.add(e, P, { x: id + 0.5, y: -id });
    if (id % 5 === 0) w.add(e, H, { hp: -id, max: id & 0xffff, armor: 7 });
    if (id % 7 === 0) w.add(e, M, { kg: id / 4 });
  }
  return { w, P, H, M, handles };
}

describe('handles with ids >= 32,768', () => {
  it('create hands out id << 16 | generation as unsigned numbers, also with generations >= 0x8000', () => {
    const { w, handles } = fullWorld();
    for (let id = 0; id < CAP; id++) {
      const gen = id === 40000 ? 33001 : id === 65535 ? 4 : id === 32768 ? 2 : id === 100 ? 3 : 1;
      expect(handles[id]).toBe(expected(id, gen));
    }
    const top = handles[65535]!;
    expect(top).toBe(0xffff0004);
    expect(top).toBeGreaterThan(2 ** 31);
    expect(handles[40000]).toBe(expected(40000, 33001));
    expect(entityGeneration(handles[40000]!)).toBe(33001);
    expect(entityId(top)).toBe(65535);
    expect(formatEntity(top)).toBe('Entity(65535, 4)');
    expect(makeEntity(65535, 4)).toBe(top);
    // The ids >= 32,768 as the core sees them.
    for (const id of [32768, 40000, 50000, 65535]) expect(w.handleAt(id)).toBe(handles[id]);
    expect(w.entityCount).toBe(CAP);
    w.dispose();
  });

  it('get, has, isValid, check, archetypeOf and the field handles agree with a model on every entity', () => {
    const { w, P, H, M, handles } = fullWorld();
    const px = P.field.x, py = P.field.y, hp = H.field.hp, max = H.field.max, kg = M.field.kg;
    for (let id = 0; id < CAP; id++) {
      const e = handles[id]!;
      expect(w.isValid(e)).toBe(true);
      w.check(e);
      const hasP = id % 3 !== 2, hasH = id % 5 === 0, hasM = id % 7 === 0;
      if (w.has(e, P) !== hasP || w.has(e, H) !== hasH || w.has(e, M) !== hasM) throw new Error(`has of id ${id}`);
      if (hasP) {
        if (px.get(e) !== id + 0.5 || py.get(e) !== -id) throw new Error(`field get of id ${id}`);
        const v = w.get(e, P)!;
        if (v.x !== id + 0.5 || v.y !== -id) throw new Error(`World.get of id ${id}`);
      } else if (w.get(e, P) !== undefined) {
        throw new Error(`World.get of id ${id}: a value it lacks`);
      }
      if (hasH && (hp.get(e) !== -id || max.get(e) !== (id & 0xffff) || w.get(e, H)!.armor !== 7)) throw new Error(`Health of id ${id}`);
      if (hasM && kg.get(e) !== id / 4) throw new Error(`Mass of id ${id}`);
    }
    // Entities of one component set share an archetype whatever their id.
    expect(w.archetypeOf(handles[65535 - (65535 % 105)]!)).toBe(w.archetypeOf(handles[0]!));
    w.dispose();
  });

  it('set, add, remove and destroy on ids >= 32,768 match a model; each visits the unsigned handles', () => {
    const { w, P, H, handles } = fullWorld();
    const rnd = lcg(28);
    const model = new Map<Entity, { x: number; y: number } | undefined>();
    for (let id = 0; id < CAP; id++) model.set(handles[id]!, id % 3 !== 2 ? { x: id + 0.5, y: -id } : undefined);
    const high = handles.slice(32768);
    for (let step = 0; step < 20000; step++) {
      const e = high[rnd() % high.length]!;
      if (!model.has(e)) continue;
      const op = rnd() % 5;
      const v = step - 10000;
      if (op === 0) {
        w.add(e, P, { x: v, y: v / 2 });
        model.set(e, { x: v, y: v / 2 });
      } else if (op === 1) {
        w.remove(e, P);
        model.set(e, undefined);
      } else if (op === 2 && model.get(e) !== undefined) {
        P.field.y.set(e, v);
        model.get(e)!.y = v;
      } else if (op === 3 && step % 50 === 0) {
        w.destroy(e);
        model.delete(e);
        const again = w.create(); // the same slot, one generation up
        expect(again).toBe(expected(entityId(e), entityGeneration(e) + 1));
        expect(w.isValid(e)).toBe(false);
        model.set(again, undefined);
        high[high.indexOf(e)] = again;
      } else {
        w.add(e, H, { hp: v, max: 1, armor: 2 });
        w.remove(e, H);
      }
    }
    let visited = 0;
    w.each([P], ['read'], (e, p) => {
      visited++;
      const m = model.get(e);
      if (m === undefined || m.x !== p.x || m.y !== p.y) throw new Error(`each: ${formatEntity(e)} against the model`);
    });
    expect(visited).toBe([...model.values()].filter((m) => m !== undefined).length);
    for (const [e, m] of model) {
      expect(e).toBe(e >>> 0); // every handle the world gave is the unsigned number
      if (m === undefined) expect(w.get(e, P)).toBeUndefined();
      else expect(P.field.x.get(e)).toBe(m.x);
    }
    w.dispose();
  });

  it('commands and relations take and give the unsigned handles', () => {
    const { w, P, handles } = fullWorld();
    const ChildOf = w.registerRelation('ChildOf', { onTargetDestroyed: 'remove' });
    const parent = handles[65535]!, a = handles[40000]!, b = handles[32768]!, low = handles[5]!;
    w.add(a, ChildOf(parent));
    w.add(b, ChildOf(parent));
    w.add(low, ChildOf(a));
    expect(w.targetOf(a, ChildOf)).toBe(parent);
    expect(w.targetOf(low, ChildOf)).toBe(a);
    expect(w.sourcesOf(parent, ChildOf)).toEqual([b, a]);
    expect(w.sourceCount(parent, ChildOf)).toBe(2);
    expect(w.get(a, ChildOf.component)).toEqual({ target: parent });
    w.defer((c) => {
      c.add(a, P, { x: 1, y: 2 });
      c.remove(b, P);
      c.destroy(parent);
      c.add(handles[50000]!, ChildOf(a));
    });
    expect(w.get(a, P)).toEqual({ x: 1, y: 2 });
    expect(w.has(b, P)).toBe(false);
    expect(w.isValid(parent)).toBe(false);
    expect(w.targetOf(a, ChildOf)).toBeUndefined();
    expect(w.sourcesOf(a, ChildOf)).toEqual([low, handles[50000]]);
    let made = 0;
    w.defer((c) => { made = c.create(); c.add(made, P, { x: 3, y: 4 }); });
    expect(made).toBe(expected(65535, 5)); // the slot freed last, one generation up
    expect(w.get(made, P)).toEqual({ x: 3, y: 4 });
    w.checkRelations();
    w.dispose();
  });

  it('one read function given the field handles of two worlds and of every field kind reads each right', () => {
    const { w, P, H, M, handles } = fullWorld();
    const small = sim.createWorld({ capacity: 64 });
    const P2 = small.registerComponent('Position', { x: 'f32', y: 'f32' });
    const M2 = small.registerComponent('Mass', { kg: 'f64' });
    const s = [small.create(), small.create()];
    small.add(s[1]!, P2, { x: 7.5, y: 8 });
    small.add(s[1]!, M2, { kg: 9.25 });
    // One call site, many handles (f32, f64, i32, u16; two worlds), ids on both sides of 32,768.
    const read = (f: { get(e: Entity): number }, e: Entity): number => f.get(e);
    for (let round = 0; round < 3; round++) {
      for (const id of [0, 105, 32760, 32865, 40005, 65520]) {
        const e = handles[id]!;
        expect(read(P.field.x, e)).toBe(id + 0.5);
        expect(read(H.field.hp, e)).toBe(0 - id);
        expect(read(H.field.max, e)).toBe(id & 0xffff);
        expect(read(M.field.kg, e)).toBe(id / 4);
        expect(read(P2.field.x, s[1]!)).toBe(7.5);
        expect(read(M2.field.kg, s[1]!)).toBe(9.25);
      }
      // A handle of the other world is refused by each world's reads, whatever it reads in its own.
      expect((thrown(() => read(P2.field.x, handles[40005]!)) as LaigeError).reason).toBe('stale_entity_access');
      expect((thrown(() => read(P2.field.x, s[0]!)) as LaigeError).reason).toBe('component_missing');
    }
    small.dispose();
    w.dispose();
  });

  it('stale handles and the signed int32 form of a handle are refused, changing nothing', () => {
    const { w, P, handles } = fullWorld();
    const e = handles[50001]!;
    const before = w.stateHash(0);
    const signed = e | 0; // the same 32 bits as an int32: not a handle
    expect(signed).toBeLessThan(0);
    const calls: Array<[string, () => unknown]> = [
      ['field get', () => P.field.x.get(signed)], ['field set', () => P.field.x.set(signed, 1)], ['get', () => w.get(signed, P)],
      ['has', () => w.has(signed, P)], ['isValid', () => w.isValid(signed)], ['add', () => w.add(signed, P, { x: 1, y: 1 })],
      ['remove', () => w.remove(signed, P)], ['destroy', () => w.destroy(signed)],
    ];
    for (const [what, call] of calls) {
      const err = thrown(call) as LaigeError;
      expect(err, what).toBeInstanceOf(LaigeError);
      expect(err.reason, what).toBe('out_of_range');
    }
    const stale = expected(50000, 0); // a generation the slot never had
    expect(w.has(stale, P)).toBe(false);
    expect(w.isValid(stale)).toBe(false);
    expect((thrown(() => P.field.x.get(stale)) as LaigeError).reason).toBe('stale_entity_access');
    expect((thrown(() => P.field.x.set(stale, 1)) as LaigeError).reason).toBe('stale_entity_access');
    expect((thrown(() => w.get(stale, P)) as LaigeError).reason).toBe('stale_entity_access');
    expect(w.stateHash(0)).toBe(before);
    expect(P.field.x.get(e)).toBe(50001.5);
    w.dispose();
  });

  it('the snapshot bytes and the state hash are the ones the handles always gave; a restore gives the handles back', () => {
    const { w, P, handles } = fullWorld();
    const bytes = w.snapshot();
    // Values computed before handle reads past 32,768 ids were reworked.
    expect(w.stateHash(1)).toBe(KNOWN_HASH);
    expect(bytes.length).toBe(KNOWN_SNAPSHOT_BYTES);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(KNOWN_SNAPSHOT_SHA256);
    const w2 = sim.createWorld({ capacity: CAP, churnPerFrameBudget: 0 });
    const P2 = w2.registerComponent('Position', { x: 'f32', y: 'f32' });
    w2.registerComponent('Health', { hp: 'i32', max: 'u16', armor: 'u16' });
    w2.registerComponent('Mass', { kg: 'f64' });
    w2.restore(bytes);
    for (const id of [32768, 40000, 50000, 65535]) {
      expect(w2.handleAt(id)).toBe(handles[id]);
      if (id % 3 !== 2) expect(P2.field.x.get(handles[id]!)).toBe(P.field.x.get(handles[id]!));
    }
    expect(w2.stateHash(1)).toBe(KNOWN_HASH);
    w.dispose();
    w2.dispose();
  });
});

const KNOWN_HASH = 4997477070036980375n;
const KNOWN_SNAPSHOT_BYTES = 827272;
const KNOWN_SNAPSHOT_SHA256 = '35472062a7381528b42902ca5ca59bc04bf4ee0d5b66e29ce4d8548f572c72f8';
