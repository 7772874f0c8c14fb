// query.ts - World.each and World.eachChunk from TypeScript: conveniences
// over a Query (query_object.ts) cached per component/access shape. The
// core's iteration guard is installed for the whole walk (beginIteration /
// endIteration in try/finally; docs/query.md#iteration-legality), and the
// callbacks run over views of the archetype columns in wasm memory, one
// archetype at a time, rows in ascending slot order.
import { Component } from '../component/component.js';
import { coreError, invalid, typeName } from '../base/errors.js';
import { type AnyQuery, Query } from './query.js';
import { describe } from '../base/describe.js';
import type { WorldCore } from '../core/world_core.js';

export type { Chunk, FieldColumn } from './chunk.js';

type RowFn = (...args: unknown[]) => void;

/** @internal World.each. */
export function runEach(world: WorldCore, components: unknown, access: unknown, fn: RowFn): void {
  const where = 'World.each';
  world.live(where);
  const q = eachQuery(world, where, components, access);
  if (q === null) {
    if (typeof fn !== 'function') throw invalid(`${where}: fn must be a function, got ${describe(fn)}`, 'wrong_type', { where, field: 'fn', got: typeName(fn) });
    beginEmpty(world, where);
    try {
      eachEntity(world, fn);
    } finally {
      world.end();
    }
    return;
  }
  q._run(where, fn);
}

/** @internal World.eachChunk. */
export function runEachChunk(world: WorldCore, components: unknown, access: unknown, fn: (chunk: import('./chunk.js').Chunk) => void): void {
  const where = 'World.eachChunk';
  world.live(where);
  const q = eachQuery(world, where, components, access);
  if (q === null) {
    if (typeof fn !== 'function') throw invalid(`${where}: fn must be a function, got ${describe(fn)}`, 'wrong_type', { where, field: 'fn', got: typeName(fn) });
    beginEmpty(world, where); // the empty query matches no archetype: no chunk
    world.end();
    return;
  }
  q.eachChunk(fn);
}

// The empty query's guard (it walks slots, not archetypes).
function beginEmpty(world: WorldCore, where: string): void {
  const code = world.raw.worldBeginIteration(world.ptr, world.mem.scratch, world.mem.scratch + 128, 0);
  if (code !== 0) throw coreError(code, where);
  world.iterating++;
  world.calls.enter(where === 'World.eachChunk' ? 'eachChunk' : 'each');
}

// The cached query of this component/access shape (validated here: the
// arrays are new on every call), or null for the empty list. Shapes of up to
// four components key by one number (id and access in 10 bits each).
function eachQuery(world: WorldCore, where: string, components: unknown, access: unknown): AnyQuery | null {
  if (!Array.isArray(components)) throw invalid(`${where}: components must be an array, got ${describe(components)}`, 'wrong_type', { where, field: 'components', got: typeName(components) });
  if (!Array.isArray(access)) throw invalid(`${where}: access must be an array of 'read' | 'write', got ${describe(access)}`, 'wrong_type', { where, field: 'access', got: typeName(access) });
  const n = components.length;
  if (access.length !== n) {
    throw invalid(`${where}: ${n} components but ${access.length} accesses (one per component)`, 'out_of_range', { where, field: 'access.length', got: access.length, expected: n });
  }
  if (n === 0) return null;
  if (n > 32) throw invalid(`${where}: at most 32 components per query, got ${n}`, 'out_of_range', { where, field: 'components.length', got: n, max: 32 });
  let key: number | string = n <= 4 ? n : '';
  for (let i = 0; i < n; i++) {
    const c = components[i];
    if (!(c instanceof Component) || c._owner !== world) world.component(where, c, 'components', i);
    const a: unknown = access[i];
    if (a !== 'read' && a !== 'write') throw invalid(`${where}: access[${i}] must be 'read' or 'write', got ${describe(a)}`, 'invalid_value', { where, field: `access[${i}]`, got: describe(a) });
    const code = (c as Component).id * 2 + (a === 'write' ? 1 : 0);
    key = typeof key === 'number' ? key + code * 8 * 1024 ** i : `${key}${code},`;
  }
  let q = world.eachQueries.get(key) as AnyQuery | undefined;
  if (q === undefined) {
    const terms = (components as Component[]).map((c, i) => [String(i), c, access[i] === 'write'] as [string, Component, boolean]);
    for (let i = 1; i < n; i++) {
      if (terms.slice(0, i).some((t) => t[1] === terms[i]![1])) {
        throw invalid(`${where}: ${terms[i]![1].name} is listed twice`, 'duplicate_entry', { where, field: `components[${i}]`, component: terms[i]![1].name });
      }
    }
    q = new Query(world, where, terms, undefined, true);
    world.eachQueries.set(key, q);
  }
  return q;
}

// The empty query: every live entity in ascending slot id, except those
// the callback created (docs/query.md#entities-created-during-an-iteration):
// worldIterationHandleAt reads them as absent, in any slot.
function eachEntity(world: WorldCore, fn: RowFn): void {
  const w = world.ptr;
  const cap = world.options.capacity;
  let bound = 0;
  for (let id = cap - 1; id >= 0; id--) {
    if (world.raw.worldHandleAt(w, id) !== 0) {
      bound = id + 1;
      break;
    }
  }
  for (let id = 0; id < bound; id++) {
    const h = world.raw.worldIterationHandleAt(w, id);
    if (h !== 0) fn(h);
  }
}

