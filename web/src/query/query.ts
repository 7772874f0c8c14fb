// query.ts - queries declared once (World.query): terms (read, write),
// filters (without, tags, the change filters changed / added), optional
// terms, and the row loops compiled for the query's callbacks. World.each is
// built on one (world_each.ts). A Query is a handle to a query registered
// once in the core (web/bindings/query.cpp): the core owns the matching,
// the archetype list and its restore epoch, the iteration guard and the
// change filters; a walk is one call to begin it (which writes the cursor
// table of the rows to visit) and one to end it. Iteration legality is the
// core's (docs/query.md#iteration-legality).
import { Component, type Access, type QueryTerm, type RelationHandle } from '../component/component.js';
import { type Relation, relationOf } from '../relations/relations.js';
import { type Entity, formatEntity } from '../component/entity.js';
import { check, coreError, invalid, typeName } from '../base/errors.js';
import { type RowLoopPlan, RowLoops } from './row_loop.js';
import { type WalkTables, walkQuery } from './row_walk.js';
import { type ReadRef, type Ref, type Schema } from '../component/schema.js';
import { describe } from '../base/describe.js';
import { type Chunk, ChunkScope } from './chunk.js';
import { checkQueryIo, usedAfterCall } from '../systems/system_io.js';
import { logHandlers, refuseInsideLog } from '../base/reentrancy.js';
import { INSPECT } from '../base/inspect.js';
import type { WorldCore } from '../core/world_core.js';
import { IterationCursorLayout } from '../boundary/layouts.gen.js';

// Words before the column pointers in one iteration cursor (web/layouts.json).
const CURSOR_HEADER = IterationCursorLayout.size;

export type { QueryTerm };

/** Named terms: `{ pos: Position.write, vel: Velocity.read }`. */
export type QueryTerms = { readonly [name: string]: QueryTerm };

/** The ref a term gives the callback: a Ref for write, a ReadRef for read. */
export type TermRef<T> = T extends QueryTerm<infer S, 'write'> ? Ref<S> : T extends QueryTerm<infer S, 'read'> ? ReadRef<S> : never;

/** The refs object of a query's callback: one ref per term, `undefined` for an optional term the entity lacks. */
export type QueryRefs<T extends QueryTerms, O extends QueryTerms = Record<never, never>> = {
  -readonly [K in keyof T | keyof O]: K extends keyof T ? TermRef<T[K]> : K extends keyof O ? TermRef<O[K]> | undefined : never;
};

/** Filters and optional terms of World.query. */
export interface QueryOptions<O extends QueryTerms = Record<never, never>> {
  /** Entities with any of these are not matched. */
  readonly without?: readonly (Component | RelationHandle)[];
  /** Terms whose ref is `undefined` where the entity lacks the component. */
  readonly optional?: O;
  /** Components the entity must have, matched by presence only (no ref; typically empty components). */
  readonly tags?: readonly (Component | RelationHandle)[];
  /**
   * Change filters (docs/changes.md#from-typescript-change-filters): only
   * entities whose component was written or added since the running
   * system's previous run (outside systems: since this query's previous
   * filtered each). Required, no ref unless also a term.
   */
  readonly changed?: readonly Component[];
  /** Change filters: only entities that gained the component since (as `changed`). Required, no ref unless also a term. */
  readonly added?: readonly Component[];
}

/** The option keys, which therefore cannot name terms. */
export const QUERY_OPTION_KEYS: ReadonlySet<string> = new Set(['without', 'optional', 'tags', 'changed', 'added']);

/** At most this many optional terms (one compiled loop per presence mask). */
export const MAX_OPTIONAL_TERMS = 8;

// The core's term kinds (laige::detail::TermKind, cpp/include/laige/detail/query_cache.h).
const enum TermKind { Read = 0, Write = 1, With = 2, Without = 3, OptionalRead = 4, OptionalWrite = 5, Changed = 6, Added = 7 }

type RowFn = (...args: unknown[]) => void;

/** Any query (its refs' types erased). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyQuery = Query<any, any>;

// A Query that is collected frees its core query (unless its world went first).
const released = new FinalizationRegistry<{ world: WorldCore; id: number }>(({ world, id }) => {
  if (world.ptr !== 0) world.raw.worldQueryDestroy(world.ptr, id);
});

export class Query<T extends QueryTerms = QueryTerms, O extends QueryTerms = Record<never, never>> {
  readonly #world: WorldCore;
  /** Ref terms, then optional terms: the cursor columns. */
  readonly #comps: Component[];
  readonly #write: boolean[];
  readonly #optionalFrom: number;
  readonly #without: Component[];
  readonly #tags: Component[];
  readonly #changed: Component[];
  readonly #added: Component[];
  /** The core's id of this query (web/bindings/query.cpp). */
  readonly #id: number;
  /** By component id: 1 when the core's guard holds it read (a required read term, a tag), 2 for an optional read term (checked here first), else 0. */
  readonly _readIds: Uint8Array;
  readonly #loops: RowLoops;
  /** What walkQuery reads (row_walk.ts). */
  readonly #walk: WalkTables;
  #cur = new Uint32Array(64);
  #lastFn: unknown = null;
  #lastPlan: RowLoopPlan | null = null;
  #lastMode: string = '';
  /** @internal The system that declared it (it runs only inside that system's run), or null. */
  readonly _owner: object | null;
  /** @internal The running system this query's terms were last checked against. */
  _checkedFor: object | null = null;
  /** @internal What an access error names it. */
  readonly _where: string;
  /** The term names (ref terms, then optional terms; null for World.each's positional refs), for toString. */
  readonly #names: readonly string[] | null;

  /** @internal Use World.query. */
  constructor(world: WorldCore, where: string, terms: unknown, options: unknown, positional: boolean, owner: object | null = null) {
    this.#world = world;
    this._owner = owner;
    this._where = where;
    const seen = new Set<Component>();
    const comp = (c: unknown, list: string, i: number | string): Component => {
      const k = world.component(where, c, list, i as number);
      if (seen.has(k)) throw invalid(`${where}: ${k.name} is listed twice in this query`, 'duplicate_entry', { where, field: `${list}${i === '' ? '' : `[${i}]`}`, component: k.name });
      seen.add(k);
      return k;
    };
    const termList = (obj: unknown, list: string): Array<[string, Component, boolean]> => {
      if (positional) return obj as Array<[string, Component, boolean]>;
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
        throw invalid(`${where}: ${list} must be an object of named terms ({ pos: Position.write }), got ${describe(obj)}`, 'wrong_type', { where, field: list, got: typeName(obj) });
      }
      return Object.entries(obj as Record<string, unknown>).map(([name, t]) => {
        if (QUERY_OPTION_KEYS.has(name)) throw invalid(`${where}: '${name}' is an option name and cannot name a term`, 'invalid_name', { where, field: `${list}.${name}`, got: name });
        if (typeof t !== 'object' || t === null || !('component' in t) || !('access' in t)) {
          throw invalid(`${where}: ${list}.${name} must be a term like Position.read or Position.write, got ${describe(t)}`, 'wrong_type', { where, field: `${list}.${name}`, got: typeName(t) });
        }
        const { component, access } = t as { component: unknown; access: unknown };
        if (access !== 'read' && access !== 'write') throw invalid(`${where}: ${list}.${name}: access must be 'read' or 'write', got ${describe(access)}`, 'invalid_value', { where, field: `${list}.${name}.access`, got: describe(access) });
        return [name, comp(component, `${list}.${name}`, ''), access === 'write'] as [string, Component, boolean];
      });
    };
    const opts = (options ?? {}) as QueryOptions;
    if (typeof opts !== 'object' || Array.isArray(opts)) throw invalid(`${where}: options must be an object, got ${describe(options)}`, 'wrong_type', { where, field: 'options', got: typeName(options) });
    for (const k of Object.keys(opts)) {
      if (!QUERY_OPTION_KEYS.has(k)) throw invalid(`${where}: unknown option ${describe(k)} (without, optional, tags, changed, added)`, 'invalid_name', { where, field: 'options', got: k });
    }
    const compList = (v: unknown, list: string, check: (c: unknown, list: string, i: number) => Component = comp): Component[] => {
      if (v === undefined) return [];
      if (!Array.isArray(v)) throw invalid(`${where}: ${list} must be an array of components, got ${describe(v)}`, 'wrong_type', { where, field: list, got: typeName(v) });
      return v.map((c, i) => check(c, list, i));
    };
    const required = termList(terms, 'terms');
    const optional = opts.optional === undefined ? [] : termList(opts.optional, 'optional');
    this.#tags = compList(opts.tags, 'tags');
    this.#without = compList(opts.without, 'without');
    // A change filter may name a component a term names (it adds no ref),
    // once per list; never one the query excludes.
    const filterList = (v: unknown, list: string): Component[] => {
      const inList = new Set<Component>();
      return compList(v, list, (c, l, i) => {
        const k = world.component(where, c, l, i);
        if (inList.has(k)) throw invalid(`${where}: ${k.name} is listed twice in ${list}`, 'duplicate_entry', { where, field: `${list}[${i}]`, component: k.name });
        if (this.#without.includes(k)) {
          throw invalid(`${where}: ${list} names ${k.name}, which the query excludes (without): it would match nothing`, 'filter_excluded', { where, field: `${list}[${i}]`, component: k.name });
        }
        inList.add(k);
        return k;
      });
    };
    this.#changed = filterList(opts.changed, 'changed');
    this.#added = filterList(opts.added, 'added');
    if (optional.length > MAX_OPTIONAL_TERMS) throw invalid(`${where}: at most ${MAX_OPTIONAL_TERMS} optional terms, got ${optional.length}`, 'out_of_range', { where, field: 'optional', got: optional.length, max: MAX_OPTIONAL_TERMS });
    if (required.length + this.#tags.length === 0) {
      throw invalid(`${where}: a query needs at least one term or tag (World.each([], [], fn) visits every entity)`, 'out_of_range', { where, field: 'terms', got: 0, min: 1 });
    }
    const all = [...required, ...optional];
    if (required.length + this.#tags.length > 32 || all.length > 32) throw invalid(`${where}: at most 32 components per query`, 'out_of_range', { where, field: 'terms', got: all.length + this.#tags.length, max: 32 });
    const total = all.length + this.#tags.length + this.#without.length + this.#changed.length + this.#added.length;
    if (total > 32) throw invalid(`${where}: at most 32 components per query (terms, optional terms, tags, without and change filters together), got ${total}`, 'out_of_range', { where, field: 'terms', got: total, max: 32 });
    this.#comps = all.map((t) => t[1]);
    this.#write = all.map((t) => t[2]);
    this.#optionalFrom = required.length;
    this._readIds = new Uint8Array(257);
    // 1: a read the core's guard covers (a required read term, a tag); 2:
    // an optional read term, whose in-place add this layer rejects first
    // (system_io.ts).
    for (const [, c, w] of required) if (!w) this._readIds[c.id] = 1;
    for (const [, c, w] of optional) if (!w) this._readIds[c.id] = 2;
    for (const c of this.#tags) this._readIds[c.id] = 1;
    this.#names = positional ? null : all.map((t) => t[0]);
    this.#loops = new RowLoops(this.#comps, this.#write, this.#names, this.#optionalFrom);
    this.#walk = Object.freeze({ loops: this.#loops, comps: this.#comps, readIds: this._readIds, optionalFrom: this.#optionalFrom, resume: new Uint32Array(3),
      chunks: new ChunkScope(this.#comps, this._readIds) });
    this.#id = this.#register(where, required, optional);
    released.register(this, { world, id: this.#id });
  }

  // The only crossing of the component ids: the terms as (id, kind) pairs,
  // the cursor columns first (ref terms, then optional terms).
  #register(where: string, required: Array<[string, Component, boolean]>, optional: Array<[string, Component, boolean]>): number {
    const world = this.#world;
    const m = world.mem;
    const kinds: number[] = [
      ...required.map((t) => (t[2] ? TermKind.Write : TermKind.Read)),
      ...optional.map((t) => (t[2] ? TermKind.OptionalWrite : TermKind.OptionalRead)),
      ...this.#tags.map(() => TermKind.With),
      ...this.#without.map(() => TermKind.Without),
      ...this.#changed.map(() => TermKind.Changed),
      ...this.#added.map(() => TermKind.Added),
    ];
    const ids = [...this.#comps, ...this.#tags, ...this.#without, ...this.#changed, ...this.#added].map((c) => c.id);
    m.sync();
    const sc = m.scratch >>> 2;
    for (let i = 0; i < ids.length; i++) {
      m.u32[sc + i] = ids[i]!;
      m.u8[m.scratch + 256 + i] = kinds[i]!;
    }
    const code = world.raw.worldQueryCreate(world.ptr, m.scratch, m.scratch + 256, ids.length, this.#comps.length, m.out);
    if (code !== 0) throw coreError(code, where);
    m.sync();
    return m.u32[m.out >>> 2]!;
  }

  /** @internal Every component of the query with the access it needs (terms, optional terms; tags, without and change filters read). */
  _accesses(): Array<[Component, Access]> {
    return [
      ...this.#comps.map((c, i) => [c, this.#write[i] ? 'write' : 'read'] as [Component, Access]),
      ...[...this.#tags, ...this.#without, ...this.#changed, ...this.#added].map((c) => [c, 'read'] as [Component, Access]),
    ];
  }

  // `world`, the public World the query belongs to, is typed by world.ts
  // (the facade, which this module does not import): its getter is defined
  // here, on the prototype.
  static {
    Object.defineProperty(this.prototype, 'world', {
      configurable: true,
      get(this: Query) {
        return this.#world.facade;
      },
    });
  }

  /** "Query(pos: Position write, vel: Velocity read; without Frozen)": its terms and filters (console.log and util.inspect show it too). */
  toString(): string {
    const term = (i: number): string => `${this.#names === null ? '' : `${this.#names[i]}: `}${this.#comps[i]!.name} ${this.#write[i] ? 'write' : 'read'}`;
    const parts = [this.#comps.slice(0, this.#optionalFrom).map((_, i) => term(i)).join(', ')];
    if (this.#optionalFrom < this.#comps.length) parts.push(`optional ${this.#comps.slice(this.#optionalFrom).map((_, i) => term(this.#optionalFrom + i)).join(', ')}`);
    if (this.#tags.length > 0) parts.push(`tags ${this.#tags.map((c) => c.name).join(', ')}`);
    if (this.#without.length > 0) parts.push(`without ${this.#without.map((c) => c.name).join(', ')}`);
    if (this.#changed.length > 0) parts.push(`changed ${this.#changed.map((c) => c.name).join(', ')}`);
    if (this.#added.length > 0) parts.push(`added ${this.#added.map((c) => c.name).join(', ')}`);
    return `Query(${parts.filter((p) => p !== '').join('; ')})`;
  }

  /** @internal util.inspect / console.log: toString(), not the internals (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }

  /** The archetypes it matches now (ascending ids; extended as archetypes appear). */
  archetypes(): number[] {
    const w = this.#world.live('Query.archetypes');
    const m = this.#world.mem;
    const n = this.#world.raw.worldQueryArchetypes(w, this.#id, m.scratch);
    m.sync();
    return Array.from(m.u32.subarray(m.scratch >>> 2, (m.scratch >>> 2) + n));
  }

  /** Entities it matches now (change filters are not applied: the entities its each could visit). */
  count(): number {
    const w = this.#world.live('Query.count');
    this.#access('Query.count');
    return this.#world.raw.worldQueryCount(w, this.#id);
  }

  /**
   * Calls fn(entity, refs) for every matched entity, in ascending archetype
   * id, then ascending slot (the order of World.each). `refs` has one ref
   * per term: a write term's ref is assignable and validated like
   * World.add; assigning a read term's throws; an optional term's ref is
   * undefined where the entity lacks it. Refs are snapshots of the row:
   * what fn changed is checked, then stored, when it returns (a failing
   * check stores nothing of that row). The core's iteration guard is live
   * while fn runs (docs/query.md#iteration-legality); if fn throws, the walk
   * ends and the exception propagates. Refs die when fn returns. With
   * change filters, only the entities they pass are visited.
   */
  each(fn: (e: Entity, refs: QueryRefs<T, O>) => void): void {
    this._run('Query.each', fn as unknown as RowFn);
  }

  /**
   * The column-view fast path: fn(chunk) once per matched archetype with
   * rows, under the same guard as each (with change filters: once per run
   * of consecutive rows they pass). A Chunk dies when its call returns.
   * Inside a system, a column of a read term that fn changed is restored
   * and the call throws (system_io_violation).
   */
  eachChunk(fn: (chunk: Chunk) => void): void {
    const where = 'Query.eachChunk';
    const world = this.#world;
    if (logHandlers.depth !== 0) refuseInsideLog(where);
    if (world.ptr === 0) world.live(where);
    if (typeof fn !== 'function') throw invalid(`${where}: fn must be a function, got ${describe(fn)}`, 'wrong_type', { where, field: 'fn', got: typeName(fn) });
    // (as in _run: the io check once per running system)
    if (world.sys !== this._checkedFor || this._owner !== null) this.#access(where);
    const count = this.#begin(where, 'eachChunk', 0);
    try {
      walkQuery(this.#walk, world, this.#cur, count, CURSOR_HEADER + this.#comps.length, CURSOR_HEADER, null, fn as unknown as RowFn, 0);
    } finally {
      // The chunk whose call threw (the walk closes the others): closed
      // before the guard ends, as a read column it restores must be.
      try {
        this.#walk.chunks.closeOpen();
      } finally {
        this.#endWalk(false);
      }
    }
  }

  /**
   * The cascade option (docs/relations.md#the-cascade-query-option): each
   * in hierarchy order through relation `rel`. Every entity the query
   * matches, depth by depth (depth 0: the entities without `rel`, the
   * roots; depth d + 1: those whose target is at depth d), each depth in
   * ascending slot order, so a target is visited (and its refs stored)
   * before its sources: one pass propagates (world = parent world x
   * local). Refs, checks and legality as each, and more (the core's): the
   * guard also covers the targets' rows; relation changes inside fn (add or
   * remove of a relation, destroy, clear, restore, a walk) throw
   * relation_walk_mutation (record them through world.commands: they apply
   * when the pass returns). Refused (nothing visited): `rel` not a relation
   * (relation_not_registered), a query with change filters (query_invalid,
   * reason cascade_filtered), inside another walk (iteration_nested,
   * relation_walk_mutation), inside a system without `rel` in its io
   * (system_io_violation). The order is cached in the core per relation and
   * rebuilt by the first pass after a structural change.
   */
  eachCascade(rel: Relation | RelationHandle, fn: (e: Entity, refs: QueryRefs<T, O>) => void): void {
    this.#walkRelation('Query.eachCascade', rel, 0, fn);
  }

  /**
   * The relation term for one target (flecs's `(ChildOf, parent)`, given at
   * call time): each over the rows the query matches whose `rel` names
   * `target`, in ascending slot order (the children of a parent:
   * `q.eachSourceOf(ChildOf, tank, (e, { pos }) => ...)`). Refs, checks,
   * legality and refusals as eachCascade (docs/relations.md#query-terms),
   * and a stale `target` throws (nothing visited). O(sources of target).
   */
  eachSourceOf(rel: Relation | RelationHandle, target: Entity, fn: (e: Entity, refs: QueryRefs<T, O>) => void): void {
    const where = 'Query.eachSourceOf';
    const world = this.#world;
    world.entity(where, target);
    // (0 names no entity; to the core it would mean the hierarchy order.)
    if (target === 0) check(world.raw.worldCheck(world.live(where), 0), `${where}(${formatEntity(0)})`);
    this.#walkRelation(where, rel, target, fn);
  }

  #walkRelation(where: string, rel: Relation | RelationHandle, target: number, fn: (e: Entity, refs: QueryRefs<T, O>) => void): void {
    const world = this.#world;
    if (logHandlers.depth !== 0) refuseInsideLog(where);
    this.#live(where);
    const c = relationOf(world, where, rel);
    if (typeof fn !== 'function') throw invalid(`${where}: fn must be a function, got ${describe(fn)}`, 'wrong_type', { where, field: 'fn', got: typeName(fn) });
    if (world.sys !== this._checkedFor || this._owner !== null) this.#access(where);
    const plan = this.#plan(fn as unknown as RowFn);
    const hbuf = plan.entity ? world.handleBuffer() : 0;
    const count = this.#begin(where, 'eachCascade', hbuf, c.id, target);
    try {
      walkQuery(this.#walk, world, this.#cur, count, CURSOR_HEADER + this.#comps.length, CURSOR_HEADER, plan, fn as unknown as RowFn, hbuf);
    } finally {
      this.#endWalk(true);
    }
  }

  /** @internal each with a callback taking the refs positionally (World.each) or by name (Query.each). */
  _run(where: string, fn: RowFn): void {
    const world = this.#world;
    if (logHandlers.depth !== 0) refuseInsideLog(where);
    if (world.ptr === 0) world.live(where);
    if (typeof fn !== 'function') throw invalid(`${where}: fn must be a function, got ${describe(fn)}`, 'wrong_type', { where, field: 'fn', got: typeName(fn) });
    if (world.sys !== this._checkedFor || this._owner !== null) this.#access(where);
    const plan = this.#plan(fn);
    // The core writes every walked row's handle to the world's handle buffer
    // when the callback takes the entity.
    const hbuf = plan.entity ? world.handleBuffer() : 0;
    const count = this.#begin(where, 'each', hbuf);
    try {
      walkQuery(this.#walk, world, this.#cur, count, CURSOR_HEADER + this.#comps.length, CURSOR_HEADER, plan, fn, hbuf);
    } finally {
      this.#endWalk(false);
    }
  }

  // The compiled row loops of `fn`. The last callback is found by identity
  // (a callback kept in a variable skips the lookup of its source text).
  #plan(fn: RowFn): RowLoopPlan {
    const world = this.#world;
    let plan = this.#lastPlan;
    if (fn !== this.#lastFn || plan === null || world.eachLoops !== this.#lastMode) {
      plan = this.#loops.forFn(fn, world.eachLoops);
      this.#lastFn = fn;
      this.#lastPlan = plan;
      this.#lastMode = world.eachLoops;
    }
    return plan;
  }

  #live(where: string): number {
    const w = this.#world.live(where);
    return w;
  }

  // Owner and system io checks (system_io.ts).
  #access(where: string): void {
    const world = this.#world;
    if (this._owner !== null && world.sys !== this._owner) throw usedAfterCall(where, 'Query', `${where}: this query belongs to a system and runs only inside that system's run`);
    if (world.sys !== null) checkQueryIo(world, this._accesses(), where);
    this._checkedFor = world.sys;
  }

  // One call: the core's guard (archetypes a `without` excludes are guarded
  // too), its change filters, and the cursor table of the rows to walk,
  // copied here (this query's own copy: another world's walk in a callback
  // reuses that world's table). With `rel` (eachCascade): the cascade
  // pass's begin, whose cursors are runs of the hierarchy order. Returns
  // the cursor count.
  #begin(where: string, kind: 'each' | 'eachChunk' | 'eachCascade', hbuf: number, rel = 0, target = 0): number {
    const world = this.#world;
    const m = world.mem;
    const r = rel === 0 ? world.raw.worldQueryBegin(world.ptr, this.#id, hbuf, m.out)
      : world.raw.relationQueryBeginCascade(world.ptr, this.#id, rel, target, hbuf, m.out);
    if ((r & 0xff) !== 0) this.#rejected(where, r & 0xff);
    const count = r >>> 8;
    world.iterating++;
    world.calls.enter(kind);
    this.#prevRead = world.liveRead;
    world.liveRead = this._readIds;
    m.sync();
    const need = count * (CURSOR_HEADER + this.#comps.length);
    if (this.#cur.length < need) this.#cur = new Uint32Array(need + (need >>> 1));
    const heap = m.u32;
    const start = heap[m.out >>> 2]! >>> 2;
    const cur = this.#cur;
    if (need <= 256) for (let i = 0; i < need; i++) cur[i] = heap[start + i]!; // no view allocated
    else cur.set(heap.subarray(start, start + need));
    return count;
  }
  #prevRead: Uint8Array | null = null;

  #endWalk(cascade: boolean): void {
    const world = this.#world;
    world.liveRead = this.#prevRead;
    this.#prevRead = null;
    if (!cascade) {
      world.endQuery(this.#id);
      return;
    }
    world.iterating--;
    world.calls.leave();
    if (world.ptr !== 0) world.raw.relationQueryEndCascade(world.ptr);
    world.mem.sync();
  }

  #rejected(where: string, code: number): never {
    throw coreError(code, where); // the core names the cause (iteration_nested, system_io_violation, ...)
  }

}
