// query_object.ts - queries declared once (World.query): terms (read,
// write), filters (without, tags), optional terms, the matched-archetype
// cache, and the row loops compiled for the query's callbacks. World.each is
// built on one (query.ts). Iteration legality is the core's: every walk runs
// between beginIteration and endIteration (docs/query.md#iteration-legality).
import { Component, type Access, type QueryTerm } from '../component/component.js';
import type { Entity } from '../component/entity.js';
import { coreError, invalid, typeName } from '../base/errors.js';
import { type RowLoopPlan, RowLoops } from './row_loop.js';
import { MATCH, type WalkTables, walkQuery } from './row_walk.js';
import { type ReadRef, type Ref, type Schema } from '../component/schema.js';
import { describe } from '../base/describe.js';
import type { Chunk } from './chunk.js';
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
  readonly without?: readonly Component[];
  /** Terms whose ref is `undefined` where the entity lacks the component. */
  readonly optional?: O;
  /** Components the entity must have, matched by presence only (no ref; typically empty components). */
  readonly tags?: readonly Component[];
}

/** The option keys, which therefore cannot name terms. */
export const QUERY_OPTION_KEYS: ReadonlySet<string> = new Set(['without', 'optional', 'tags']);

const NO_MATCH = 2; // (MATCH is 1: row_walk.ts)
/** At most this many optional terms (one compiled loop per presence mask). */
export const MAX_OPTIONAL_TERMS = 8;

type RowFn = (...args: unknown[]) => void;

/** Any query (its refs' types erased). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyQuery = Query<any, any>;

/**
 * A query declared once: `world.query({ pos: Position.write, vel:
 * Velocity.read }, { without: [Frozen] })`. It keeps its matched archetypes
 * (extended when new archetypes appear) and the row loops compiled for the
 * callbacks given to it. Valid while its world lives; a query a system
 * declared runs only inside that system's run.
 */
export class Query<T extends QueryTerms = QueryTerms, O extends QueryTerms = Record<never, never>> {
  readonly #world: WorldCore;
  /** Ref terms, then optional terms: the cursor columns. */
  readonly #comps: Component[];
  readonly #write: boolean[];
  readonly #optionalFrom: number;
  /** Required ref terms and tags: what the core's guard matches (all of them). */
  readonly #beginIds: number[];
  readonly #beginWrite: boolean[];
  readonly #without: Component[];
  readonly #tags: Component[];
  /** By component id: 1 when the core's guard holds it read (a read term, a tag), 2 for an optional read term, else 0. */
  readonly _readIds: Uint8Array;
  readonly #loops: RowLoops;
  /** What walkQuery reads (row_walk.ts). */
  readonly #walk: WalkTables;
  /** By archetype id: 0 not classified yet, MATCH or NO_MATCH; #mask: the optional terms present. */
  readonly #class = new Uint8Array(257);
  readonly #mask = new Uint16Array(257);
  #seen = 1;
  /** The world's _structureEpoch the classification belongs to (a restore may re-use archetype ids). */
  #epoch = 0;
  readonly #matched: number[] = [];
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
      if (!QUERY_OPTION_KEYS.has(k)) throw invalid(`${where}: unknown option ${describe(k)} (without, optional, tags)`, 'invalid_name', { where, field: 'options', got: k });
    }
    const compList = (v: unknown, list: string): Component[] => {
      if (v === undefined) return [];
      if (!Array.isArray(v)) throw invalid(`${where}: ${list} must be an array of components, got ${describe(v)}`, 'wrong_type', { where, field: list, got: typeName(v) });
      return v.map((c, i) => comp(c, list, i));
    };
    const required = termList(terms, 'terms');
    const optional = opts.optional === undefined ? [] : termList(opts.optional, 'optional');
    this.#tags = compList(opts.tags, 'tags');
    this.#without = compList(opts.without, 'without');
    if (optional.length > MAX_OPTIONAL_TERMS) throw invalid(`${where}: at most ${MAX_OPTIONAL_TERMS} optional terms, got ${optional.length}`, 'out_of_range', { where, field: 'optional', got: optional.length, max: MAX_OPTIONAL_TERMS });
    if (required.length + this.#tags.length === 0) {
      throw invalid(`${where}: a query needs at least one term or tag (World.each([], [], fn) visits every entity)`, 'out_of_range', { where, field: 'terms', got: 0, min: 1 });
    }
    const all = [...required, ...optional];
    if (required.length + this.#tags.length > 32 || all.length > 32) throw invalid(`${where}: at most 32 components per query`, 'out_of_range', { where, field: 'terms', got: all.length + this.#tags.length, max: 32 });
    this.#comps = all.map((t) => t[1]);
    this.#write = all.map((t) => t[2]);
    this.#optionalFrom = required.length;
    this.#beginIds = [...required.map((t) => t[1].id), ...this.#tags.map((c) => c.id)];
    this.#beginWrite = [...required.map((t) => t[2]), ...this.#tags.map(() => false)];
    this._readIds = new Uint8Array(257);
    // 1: a read the core's guard covers (a required term or a tag); 2: an
    // optional read term, which only this layer knows (system_io.ts).
    for (const [, c, w] of required) if (!w) this._readIds[c.id] = 1;
    for (const [, c, w] of optional) if (!w) this._readIds[c.id] = 2;
    for (const c of this.#tags) this._readIds[c.id] = 1;
    this.#names = positional ? null : all.map((t) => t[0]);
    this.#loops = new RowLoops(this.#comps, this.#write, this.#names, this.#optionalFrom);
    this.#walk = Object.freeze({ loops: this.#loops, cls: this.#class, masks: this.#mask, comps: this.#comps, readIds: this._readIds, resume: new Uint32Array(3) });
  }

  /** @internal Every component of the query with the access it needs (terms, optional terms; tags and without read). */
  _accesses(): Array<[Component, Access]> {
    return [
      ...this.#comps.map((c, i) => [c, this.#write[i] ? 'write' : 'read'] as [Component, Access]),
      ...this.#tags.map((c) => [c, 'read'] as [Component, Access]),
      ...this.#without.map((c) => [c, 'read'] as [Component, Access]),
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
    return `Query(${parts.filter((p) => p !== '').join('; ')})`;
  }

  /** @internal util.inspect / console.log: toString(), not the internals (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }

  /** The archetypes it matches now (ascending ids; extended as archetypes appear). */
  archetypes(): number[] {
    this.#live('Query.archetypes');
    this.#extend();
    return [...this.#matched];
  }

  /** Entities it matches now. */
  count(): number {
    const w = this.#live('Query.count');
    this.#access('Query.count');
    this.#extend();
    let n = 0;
    for (const a of this.#matched) n += this.#world.raw.worldArchetypeRowCount(w, a);
    return n;
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
   * ends and the exception propagates. Refs die when fn returns.
   */
  each(fn: (e: Entity, refs: QueryRefs<T, O>) => void): void {
    this._run('Query.each', fn as unknown as RowFn);
  }

  /**
   * The column-view fast path: fn(chunk) once per matched archetype with
   * rows, under the same guard as each. A Chunk dies when its call returns.
   * Inside a system, a column of a read term that fn changed is restored
   * and the call throws (system_io_violation).
   */
  eachChunk(fn: (chunk: Chunk) => void): void {
    const where = 'Query.eachChunk';
    const world = this.#world;
    if (logHandlers.depth !== 0) refuseInsideLog(where);
    this.#live(where);
    if (typeof fn !== 'function') throw invalid(`${where}: fn must be a function, got ${describe(fn)}`, 'wrong_type', { where, field: 'fn', got: typeName(fn) });
    this.#access(where);
    const count = this.#begin(where, 'eachChunk');
    try {
      const cur = this.#cur;
      const stride = CURSOR_HEADER + this.#comps.length;
      if (count > 0) this.#classOf(cur[(count - 1) * stride]!); // ids ascend: classifies the whole table
      walkQuery(this.#walk, world, cur, count, stride, CURSOR_HEADER, null, fn as unknown as RowFn, 0);
    } finally {
      this.#endWalk();
    }
  }

  /** @internal each with a callback taking the refs positionally (World.each) or by name (Query.each). */
  _run(where: string, fn: RowFn): void {
    const world = this.#world;
    if (logHandlers.depth !== 0) refuseInsideLog(where);
    if (world.ptr === 0) world.live(where);
    if (typeof fn !== 'function') throw invalid(`${where}: fn must be a function, got ${describe(fn)}`, 'wrong_type', { where, field: 'fn', got: typeName(fn) });
    if (world.sys !== this._checkedFor || this._owner !== null) this.#access(where);
    let plan = this.#lastPlan;
    // The last callback is found by identity (a callback kept in a variable
    // skips the lookup of its source text).
    if (fn !== this.#lastFn || plan === null || world.eachLoops !== this.#lastMode) {
      plan = this.#loops.forFn(fn, world.eachLoops);
      this.#lastFn = fn;
      this.#lastPlan = plan;
      this.#lastMode = world.eachLoops;
    }
    const count = this.#begin(where, 'each');
    try {
      const cur = this.#cur;
      const stride = CURSOR_HEADER + this.#comps.length;
      // Classify every archetype of the table before the walk (ids ascend:
      // the last one is the largest), so that the walk reads the class table only.
      if (count > 0) this.#classOf(cur[(count - 1) * stride]!);
      walkQuery(this.#walk, world, cur, count, stride, CURSOR_HEADER, plan, fn, plan.entity ? world.handleBuffer() : 0);
    } finally {
      this.#endWalk();
    }
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

  #classOf(a: number): number {
    if (this.#epoch !== this.#world.structureEpoch) this.#forget();
    if (a >= this.#seen) this.#extend();
    return this.#class[a]!;
  }

  // Drops every classification: a restore cut the archetype list back, so
  // an id may name another component set now (docs/snapshots.md#guarantees).
  #forget(): void {
    this.#class.fill(0);
    this.#mask.fill(0);
    this.#matched.length = 0;
    this.#seen = 1;
    this.#epoch = this.#world.structureEpoch;
  }

  // Classifies the archetypes created since the last look (archetypes are
  // never destroyed and keep their ids, also across World.clear).
  #extend(): void {
    const world = this.#world;
    if (this.#epoch !== world.structureEpoch) this.#forget();
    const w = world.ptr;
    const last = Math.min(world.raw.worldArchetypeCount(w), 256); // ids 1..count
    for (let a = this.#seen; a <= last; a++) {
      const ids = world.raw.worldArchetypeComponents(w, a);
      const has = (c: Component): boolean => ids.includes(c.id);
      const ok = this.#beginIds.every((id) => ids.includes(id)) && !this.#without.some(has);
      let mask = 0;
      for (let i = this.#optionalFrom; i < this.#comps.length; i++) if (has(this.#comps[i]!)) mask |= 1 << (i - this.#optionalFrom);
      this.#class[a] = ok ? MATCH : NO_MATCH;
      this.#mask[a] = mask;
      if (ok) this.#matched.push(a);
    }
    world.mem.sync();
    if (last + 1 > this.#seen) this.#seen = last + 1;
  }

  // Installs the core's guard over the required terms and tags (so archetypes
  // a `without` excludes are guarded too: a structural change there is
  // rejected as for a walked one), then copies the cursors of every
  // archetype it matched (this query's own copy: another world's walk in a
  // callback reuses the module's cursor buffer). Returns the count.
  #begin(where: string, kind: 'each' | 'eachChunk'): number {
    const world = this.#world;
    const m = world.mem;
    const raw = world.raw;
    const w = world.ptr;
    const ids = this.#beginIds;
    const nb = ids.length;
    const sc = m.scratch >>> 2;
    const u32 = m.u32;
    const u8 = m.u8;
    for (let i = 0; i < nb; i++) {
      u32[sc + i] = ids[i]!;
      u8[m.scratch + 128 + i] = this.#beginWrite[i] ? 1 : 0;
    }
    const comps = this.#comps;
    const nc = comps.length;
    for (let i = 0; i < nc; i++) u32[sc + 64 + i] = comps[i]!.id;
    let count: number;
    if (raw.worldBeginWalk !== undefined) {
      const r = raw.worldBeginWalk(w, m.scratch, m.scratch + 128, nb, m.scratch + 256, nc, m.cursors, 256);
      if ((r & 0xff) !== 0) this.#rejected(where, r & 0xff);
      count = r >>> 8;
    } else {
      const code = raw.worldBeginIteration(w, m.scratch, m.scratch + 128, nb);
      if (code !== 0) this.#rejected(where, code);
      count = raw.worldIterationCursors(w, m.scratch + 256, nc, m.cursors, 256);
    }
    world.iterating++;
    world.calls.enter(kind);
    this.#prevRead = world.liveRead;
    world.liveRead = this._readIds;
    m.sync();
    const need = count * (CURSOR_HEADER + nc);
    if (this.#cur.length < need) this.#cur = new Uint32Array(need + (need >>> 1));
    const start = m.cursors >>> 2;
    const cur = this.#cur;
    const heap = m.u32;
    if (need <= 256) for (let i = 0; i < need; i++) cur[i] = heap[start + i]!; // no view allocated
    else cur.set(heap.subarray(start, start + need));
    return count;
  }
  #prevRead: Uint8Array | null = null;

  #endWalk(): void {
    this.#world.liveRead = this.#prevRead;
    this.#prevRead = null;
    this.#world.end();
  }

  #rejected(where: string, code: number): never {
    throw coreError(code, where); // the core names the cause (iteration_nested, system_io_violation, ...)
  }

}
