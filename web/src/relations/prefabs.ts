// prefabs.ts - prefabs from TypeScript (docs/prefabs.md#typescript): the
// Prefab tag, createPrefab, makePrefab, isPrefab, instantiate and its
// deferred form (Commands.instantiate). Every rule is the core's
// (web/bindings/prefabs.cpp, laige/prefabs.h): queries skip prefabs, the
// tree walk, the handles, the checks (all of them before anything changes)
// and the reasons. This layer checks the arguments' kinds, encodes the
// override values with the components' own encoders (as World.add does)
// and wraps the tag in a Component. What an observer threw is rethrown by
// the World methods (world.ts), after these return.
import type { Component } from '../component/component.js';
import { type Entity, formatEntity } from '../component/entity.js';
import { check, coreError, invalid, typeName } from '../base/errors.js';
import { describe } from '../base/describe.js';
import { logHandlers, refuseInsideLog } from '../base/reentrancy.js';
import { makeComponent } from '../component/registration.js';
import { checkArg } from '../base/args.js';
import { relationOf } from './relations.js';
import type { Relation } from './relations.js';
import type { Schema, ValueInput } from '../component/schema.js';
import type { WorldCore } from '../core/world_core.js';

/** The Prefab tag's schema: no field. */
export type PrefabSchema = Record<never, never>;

/** One override of instantiate: a component the prefab holds and its value on the root instance (as World.add takes it). */
export type PrefabOverride<S extends Schema = Schema> = readonly [component: Component<S>, value: ValueInput<S>];

/**
 * The overrides as given, each value checked against its component's
 * schema (a wrong field or kind is a compile error, as for World.add).
 */
export type CheckedOverrides<O> = {
  readonly [K in keyof O]: O[K] extends readonly [Component<infer S>, unknown] ? PrefabOverride<S> : PrefabOverride;
};

/** Options of World.instantiate and Commands.instantiate. */
export interface InstantiateOptions<O extends readonly (readonly [Component<any>, unknown])[] = readonly []> { // eslint-disable-line @typescript-eslint/no-explicit-any
  /**
   * The relation whose sources are the prefab's children (e.g. ChildOf):
   * each is instantiated as a source of the instance, recursively. Without
   * it, the prefab alone is copied (its relations keep their targets).
   */
  readonly hierarchy?: Relation;
  /** Values for the root instance: `[[Hull, { hp: 50 }]]` (components the prefab holds, not relations, not the tag; a later entry wins). */
  readonly overrides?: O & CheckedOverrides<O>;
}

/** At most this many overrides per call. */
export const MAX_OVERRIDES = 32;

/** @internal The Prefab tag's Component, wrapped once the core registered it (by any prefab call, or a C++ setup). */
function tagOf(world: WorldCore): Component<PrefabSchema> | undefined {
  const id = world.raw.prefabTag(world.ptr);
  if (id === 0) return undefined;
  const known = world.components[id];
  if (known !== undefined) return known as unknown as Component<PrefabSchema>;
  const info = world.raw.worldComponentInfo(world.ptr, id);
  world.mem.sync();
  if (info === null) throw coreError(1, 'World.registerPrefabs');
  return makeComponent(world, info.name, id, Object.freeze({}) as PrefabSchema, info);
}

// A call that may register the tag: refused for a scenario run's world
// (its components are its C++ setup's) when the tag is not there yet.
function mayRegister(world: WorldCore, where: string): number {
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const w = world.live(where);
  if (world.raw.prefabTag(w) === 0) world.notScenario(where);
  return w;
}

/** @internal world.registerPrefabs(): the tag's Component (idempotent). */
export function registerPrefabs(world: WorldCore): Component<PrefabSchema> {
  const where = 'World.registerPrefabs';
  const w = mayRegister(world, where);
  const m = world.mem;
  const code = world.raw.prefabRegister(w, m.out);
  m.sync();
  check(code, where);
  return tagOf(world)!;
}

/** @internal world.prefabTag: the tag's Component, or undefined before registerPrefabs. */
export function prefabTag(world: WorldCore): Component<PrefabSchema> | undefined {
  world.live('World.prefabTag');
  return tagOf(world);
}

/** @internal world.createPrefab(). */
export function createPrefab(world: WorldCore): Entity {
  const where = 'World.createPrefab';
  const w = mayRegister(world, where);
  const m = world.mem;
  const code = world.raw.prefabCreate(w, m.out);
  m.sync();
  tagOf(world);
  if (world.iterating !== 0) m.epoch++;
  if (code !== 0) throw coreError(code, where);
  const e = m.u32[m.out >>> 2]!;
  return e;
}

/** @internal world.makePrefab(e). */
export function makePrefab(world: WorldCore, e: unknown): void {
  const where = 'World.makePrefab';
  const w = mayRegister(world, where);
  world.entity(where, e);
  const code = world.raw.prefabMake(w, e as number);
  const m = world.mem;
  m.sync();
  tagOf(world);
  if (world.iterating !== 0) m.epoch++;
  if (code !== 0) throw coreError(code, `${where}(${formatEntity(e as number)})`);
}

/** @internal world.isPrefab(e): false for a stale handle (a pure query, as has). */
export function isPrefab(world: WorldCore, e: unknown): boolean {
  const where = 'World.isPrefab';
  const w = world.live(where);
  return world.raw.prefabIs(w, world.entity(where, e));
}

/**
 * @internal world.instantiate (deferred false) and Commands.instantiate
 * (deferred true): the options checked and the overrides encoded here,
 * then one core call (every rule and refusal is the core's).
 */
export function instantiate(world: WorldCore, where: string, prefab: unknown, options: unknown, deferred: boolean): Entity {
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const w = world.live(where);
  world.entity(where, prefab);
  const o = (options ?? {}) as { hierarchy?: unknown; overrides?: unknown };
  checkArg(where, 'options', o, { type: 'object', expected: 'an object { hierarchy?, overrides? }' });
  // (a Relation, or its component: relationOf says which is not a relation)
  const hierarchy = o.hierarchy === undefined ? 0 : relationOf(world, where, o.hierarchy).id;
  const list = o.overrides === undefined ? [] : o.overrides;
  if (!Array.isArray(list)) {
    throw invalid(`${where}: overrides must be an array of [component, value] pairs, got ${describe(list)}`, 'wrong_type', { where, field: 'overrides', got: typeName(list) });
  }
  if (list.length > MAX_OVERRIDES) {
    throw invalid(`${where}: at most ${MAX_OVERRIDES} overrides, got ${list.length}`, 'out_of_range', { where, field: 'overrides', got: list.length, max: MAX_OVERRIDES });
  }
  const comps: Component[] = [];
  let bytes = 0;
  for (let i = 0; i < list.length; i++) {
    const pair: unknown = list[i];
    if (!Array.isArray(pair) || pair.length !== 2) {
      throw invalid(`${where}: overrides[${i}] must be a [component, value] pair, got ${describe(pair)}`, 'wrong_type', { where, field: `overrides[${i}]`, got: typeName(pair) });
    }
    const c = world.component(where, pair[0], 'overrides', i);
    comps.push(c);
    bytes += (c.size + 7) & ~7;
  }
  // The triples, then the encoded values (each 8-aligned): in the scratch
  // area when they fit, else in a block of their own.
  const m = world.mem;
  const need = list.length * 12 + bytes + 8;
  const own = need > m.scratchSize;
  const buf = own ? world.raw._malloc(need) : m.scratch;
  try {
    m.sync();
    const values = buf;
    const base = (buf + list.length * 12 + 7) & ~7;
    let at = base;
    for (let i = 0; i < comps.length; i++) {
      const c = comps[i]!;
      c._encode(m, (list[i] as unknown[])[1] as ValueInput<Schema>, at, `${where}: overrides[${i}]`);
      m.u32[(values >>> 2) + 3 * i] = c.id;
      m.u32[(values >>> 2) + 3 * i + 1] = at - base;
      m.u32[(values >>> 2) + 3 * i + 2] = c.size;
      at += (c.size + 7) & ~7;
    }
    const code = world.raw.prefabInstantiate(w, prefab as number, hierarchy, values, comps.length, base, deferred, m.out);
    m.sync();
    if (code !== 0) throw coreError(code, `${where}(${formatEntity(prefab as number)})`);
    return m.u32[m.out >>> 2]!;
  } finally {
    if (own) world.raw._free(buf);
  }
}
