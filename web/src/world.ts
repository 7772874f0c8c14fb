/// <reference lib="esnext.disposable" preserve="true" />
// world.ts - the World of @laige/sim: entities, components by schema,
// queries (`each` over column views, docs/typescript.md), the column-view
// fast path, state hash and diff. Systems, replays and the game loop build
// on it (systems.ts, replay.ts, loop.ts). Every argument is validated here
// before it reaches wasm; every failing Status becomes a LaigeError, and a
// throwing call leaves the world unchanged.
import {
  type DesyncReport, type StateTreeNode, type SystemCheckpoints, desyncReport, setSystemCheckpoints, stateTreeChildren, stateTreeLeaf,
  stateTreeRoot, systemCheckpoints, systemCheckpointsOn,
} from './desync/desync.js';
import { Component, type Access, type FieldInfo, type RelationHandle } from './component/component.js';
import {
  type Relation, type RelationOptions, type RelationTarget, checkRelations, eachCascade, isRelationTarget, registerRelation,
  sourceCount, sourcesOf, targetOf,
} from './relations/relations.js';
import {
  type InstantiateOptions, type PrefabSchema, createPrefab, instantiate, isPrefab, makePrefab, prefabTag, registerPrefabs,
} from './relations/prefabs.js';
import { type Entity, formatEntity } from './component/entity.js';
import { check, coreError } from './base/errors.js';
import type { LaigeRawModule, Mem } from './boundary/raw.js';
import type { ReadRef, Ref, Schema, Value, ValueInput } from './component/schema.js';
import { runEach, runEachChunk } from './query/world_each.js';
import type { Chunk, FieldColumn } from './query/chunk.js';
import { type FastTables, fastAddress, refilledAddress, slotTablesOf } from './core/slot_tables.js';
import { describeWorld, disposeWorld, openWorld } from './core/world_lifetime.js';
import { archetypeComponents, archetypeStats, entityStats, guardrailStats } from './core/world_stats.js';
import { restoreWorld, snapshotWorld, snapshotWorldInto } from './core/snapshot.js';
import { type AnyQuery, Query, type QueryOptions, type QueryTerms } from './query/query.js';
import { checkAccess, checkClear } from './systems/system_io.js';
import { SystemRegistry } from './systems/system_registry.js';
import type { SystemContextOf, SystemDefOf } from './systems/system_def.js';
import type { SystemQueryDecl, SystemQueries, SystemRng, SystemHandle, SystemInfo,
  SystemRngState, SystemTimingStats, SystemTimingWindow } from './systems/system_types.js';
import { logHandlers, refuseInsideLog } from './base/reentrancy.js';
import { registerComponentOn } from './component/registration.js';
import { type CommandStats, type Commands, commandStats, phaseCommands, runDefer } from './systems/commands.js';
import { type CoreHost, type EachLoopMode, WorldCore, coreOf } from './core/world_core.js';
import {
  type ObserverContext, type ObserverEvent, type ObserverHandle, type ObserverStats,
  changeTicks, flushObservers, markChanged, observe, observerStats, rethrowObserverError, trackChanges,
} from './changes/observers.js';

// Symbol.dispose for runtimes that lack it (older browsers): the symbol TS
// and Node use for `using`.
if (typeof (Symbol as { dispose?: symbol }).dispose !== 'symbol') {
  Object.defineProperty(Symbol, 'dispose', { value: Symbol.for('nodejs.dispose') });
}

export type {
  WorldOptions, EntityStats, GuardrailStats, ArchetypeStats, StateDiffItem, StateDiff, DiffRelationFields, AnyComponent, AccessList, SchemaOf, Refs,
} from './world_types.js';
import type {
  WorldOptions, EntityStats, GuardrailStats, ArchetypeStats, StateDiff, AnyComponent, AccessList, Refs,
} from './world_types.js';
import { u32 } from './base/args.js';
import { worldHash, diffWorlds } from './core/world_state.js';
import { INSPECT, count } from './base/inspect.js';

/** @internal What a World needs from its module (implemented by Laige). */
export type Host = CoreHost;

/** What a TypeScript system's run receives; valid during the run only (a kept ctx throws afterwards). */
export type SystemContext<Q = Record<never, never>> = SystemContextOf<World, Q>;
/** A system definition for World.registerSystem. */
export type SystemDef<Q extends { readonly [name: string]: SystemQueryDecl } = Record<never, never>> = SystemDefOf<World, Q>;

declare module './query/query.js' {
  interface Query<T extends QueryTerms = QueryTerms, O extends QueryTerms = Record<never, never>> {
    /** The world the query belongs to. */
    readonly world: World;
  }
}


/** A simulation world (the C++ laige::World). Create it with `sim.createWorld`. */
export class World implements Disposable {
  readonly #core: WorldCore;
  readonly #systems: SystemRegistry;
  // The core's memory views and fast read tables (the same objects, which
  // change in place): World.get reads them without going through the core.
  readonly #mem: Mem;
  readonly #fast: FastTables;

  /**
   * @internal Use sim.createWorld. `adopt` (sim.openScenario): the pointer of
   * a world the core already created (a scenario run's); its components are
   * read from the core's registry instead of being registered here.
   */
  constructor(host: Host, options: WorldOptions, adopt?: { ptr: number; scenario: string }) {
    const { core, systems } = openWorld(host, options, this, adopt);
    this.#core = core;
    this.#mem = core.mem;
    this.#fast = core.fast;
    this.#systems = systems;
  }

  /** @internal The module's exports (tests check they are wasm's own). */
  get _raw(): LaigeRawModule {
    return this.#core.raw;
  }

  /** @internal The memory views (tests read the heap size). */
  get _mem(): Mem {
    return this.#core.mem;
  }

  /** @internal Which each row loops to use (query/row_loop.ts); tests pin each of them. */
  get _eachLoops(): EachLoopMode {
    return this.#core.eachLoops;
  }

  /** @internal */
  set _eachLoops(mode: EachLoopMode) {
    this.#core.eachLoops = mode;
  }

  // --- lifetime --------------------------------------------------------------

  /** True after dispose(). */
  get disposed(): boolean {
    return this.#core.ptr === 0;
  }

  /** Frees the world (and stops its game loops and replay recorders). Idempotent; every later call throws. */
  dispose(): void {
    disposeWorld(this.#core, this.#systems);
  }

  /** dispose(), for `using world = sim.createWorld(...)`. */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** The options the world was created with. */
  get options(): Readonly<Required<WorldOptions>> {
    return this.#core.options;
  }

  // --- entities ----------------------------------------------------------------

  /** Creates an entity (the slot freed last, else the next fresh slot). BudgetExhausted when `capacity` are live. */
  create(): Entity {
    if (logHandlers.depth !== 0) refuseInsideLog('World.create');
    const core = this.#core;
    const w = core.ptr;
    if (w === 0) core.live('World.create');
    const m = this.#mem;
    const code = core.raw.worldCreateEntity(w, m.out);
    if (code !== 0) throw coreError(code, 'World.create');
    return m.u32[m.out >>> 2]!;
  }

  /** Destroys a live entity; a stale or foreign handle throws InvalidArgument. */
  destroy(e: Entity): void {
    if (logHandlers.depth !== 0) refuseInsideLog('World.destroy');
    const w = this.#core.live('World.destroy');
    if (this.#core.sys !== null) checkAccess(this.#core, 'World.destroy', null, 'destroy', this.#core.entity('World.destroy', e));
    const code = this.#core.raw.worldDestroyEntity(w, this.#core.entity('World.destroy', e));
    if (code !== 0) throw coreError(code, `World.destroy(${formatEntity(e)})`);
    if (this.#core.observers !== null) rethrowObserverError(this.#core);
  }

  /** Generation-checked liveness (no side effects). */
  isValid(e: Entity): boolean {
    return this.#core.raw.worldIsValid(this.#core.live('World.isValid'), this.#core.entity('World.isValid', e)) !== 0;
  }

  /** The access check: throws InvalidArgument for a stale handle. */
  check(e: Entity): void {
    const code = this.#core.raw.worldCheck(this.#core.live('World.check'), this.#core.entity('World.check', e));
    if (code !== 0) throw coreError(code, `World.check(${formatEntity(e)})`);
  }

  /** Live entities now. */
  get entityCount(): number {
    return this.#core.raw.worldEntityCount(this.#core.live('World.entityCount'));
  }

  /** The declared scene budget. */
  get capacity(): number {
    return this.#core.raw.worldCapacity(this.#core.live('World.capacity'));
  }

  /** The live handle at slot `id` (0..capacity-1; else InvalidArgument), or undefined. */
  handleAt(id: number): Entity | undefined {
    const w = this.#core.live('World.handleAt');
    const h = this.#core.raw.worldHandleAt(w, u32('World.handleAt: id', id, 0, this.#core.options.capacity - 1));
    return h === 0 ? undefined : h;
  }

  /** The accounting snapshot. */
  stats(): EntityStats { return entityStats(this.#core); }

  /** Marks a frame start (resets the per-frame churn counter). */
  beginFrame(): void {
    if (logHandlers.depth !== 0) refuseInsideLog('World.beginFrame');
    this.#core.raw.worldBeginFrame(this.#core.live('World.beginFrame'));
  }

  /** The guardrail snapshot. */
  guardrailStats(): GuardrailStats { return guardrailStats(this.#core); }

  /** Destroys every live entity (slots 0, 1, 2, ... are handed out again next). */
  clear(): void {
    checkClear(this.#core);
    if (logHandlers.depth !== 0) refuseInsideLog('World.clear');
    check(this.#core.raw.worldClear(this.#core.live('World.clear')), 'World.clear');
    this.#core.mem.sync();
    if (this.#core.observers !== null) rethrowObserverError(this.#core);
  }

  // --- components ----------------------------------------------------------

  /**
   * Registers a component by schema, laid out like the C struct with the same
   * fields: `registerComponent('Position', { x: 'f32', y: 'f32' })`. Field
   * kinds: i8 u8 i16 u16 i32 u32 f32 f64 fx, and fixed arrays ['f32', 4].
   * A layout that would need padding ({u8, f32}) is MalformedInput: order
   * fields largest kind first.
   */
  registerComponent<const S extends Schema>(name: string, schema: S): Component<S> {
    return registerComponentOn(this.#core, name, schema);
  }

  /** The component registered under `name`, or undefined. */
  component<S extends Schema = Schema>(name: string): Component<S> | undefined {
    this.#core.live('World.component');
    return this.#core.components.find((c) => c !== undefined && c.name === name) as Component<S> | undefined;
  }

  /** Every registered component, by ascending id (for a scenario run's world: those its C++ setup registered). */
  components(): Component[] {
    this.#core.live('World.components');
    return this.#core.components.filter((c) => c !== undefined);
  }

  /** Registered components. */
  get componentCount(): number {
    return this.#core.raw.worldComponentCount(this.#core.live('World.componentCount'));
  }

  /**
   * Adds component `c` with `value` to `e`, or overwrites it in place when
   * `e` has it (create-or-update). Throws for a stale handle, a value that
   * does not match the schema (wrong type, NaN, out-of-range integer), a
   * component of another world, and what a live `each` forbids.
   */
  add<S extends Schema>(e: Entity, c: Component<S>, value: ValueInput<S>): void;
  /** Relates `e` to a target: `world.add(turret, ChildOf(tank))` (a reparent when `e` has the relation; docs/relations.md#typescript). */
  add(e: Entity, link: RelationTarget): void;
  add<S extends Schema>(e: Entity, c: Component<S> | RelationTarget, value?: ValueInput<S>): void {
    if (value === undefined && isRelationTarget(c)) return this.add(e, c.relation.component, { target: c.target });
    const core = this.#core;
    // The hot path is kept small (V8 inlines it into a caller's loop); the
    // full checks and the messages run only to throw.
    if (logHandlers.depth !== 0) refuseInsideLog('World.add');
    const w = core.ptr;
    if (w === 0) core.live('World.add');
    if (typeof e !== 'number' || e >>> 0 !== e) core.entity('World.add', e);
    const comp = core.component('World.add', c);
    if (core.sys !== null || core.liveRead !== null) checkAccess(core, 'World.add', comp, 'add', e);
    const m = this.#mem;
    comp._encode(m, value as ValueInput<S>, m.scratch, 'World.add');
    const code = core.raw.worldAdd(w, e, comp.id, m.scratch, comp.size);
    m.sync();
    // A live each of this world may hold a snapshot of this row (row_loop.ts);
    // no walk of this world is live otherwise, and none elsewhere can see its rows.
    if (core.iterating !== 0) m.epoch++;
    if (code !== 0) this.#rejected('World.add', e, comp, code);
    if (core.observers !== null) rethrowObserverError(core);
  }

  /** Removes `c` from `e` (a no-op when `e` lacks it). Throws for a stale handle and what a live `each` forbids. */
  remove(e: Entity, c: AnyComponent | RelationHandle): void {
    const core = this.#core;
    // As in add().
    if (logHandlers.depth !== 0) refuseInsideLog('World.remove');
    const w = core.ptr;
    if (w === 0) core.live('World.remove');
    if (typeof e !== 'number' || e >>> 0 !== e) core.entity('World.remove', e);
    const comp = core.component('World.remove', c);
    if (core.sys !== null) checkAccess(core, 'World.remove', comp, 'remove', e);
    const code = core.raw.worldRemove(w, e, comp.id);
    core.mem.sync();
    if (code !== 0) this.#rejected('World.remove', e, comp, code);
    if (core.observers !== null) rethrowObserverError(core);
  }

  /** True when live `e` has `c` (false for a stale handle: a pure query). */
  has(e: Entity, c: AnyComponent | RelationHandle): boolean {
    const core = this.#core;
    const where = 'World.has';
    const w = core.live(where);
    return core.raw.worldHas(w, core.entity(where, e), core.component(where, c).id) !== 0;
  }

  /** A copy of e's `c`, or undefined when `e` lacks it. Throws for a stale handle. */
  get<S extends Schema>(e: Entity, c: Component<S>): Value<S> | undefined {
    const core = this.#core;
    // Outside a system, found through the core's slot tables without a call (slot_tables.ts).
    if (typeof e === 'number' && e >>> 0 === e && c instanceof Component && c._owner === core) {
      const p = fastAddress(this.#fast, c._columns.places, c.size, e);
      if (p !== 0) return c._decode(this.#mem, p) as Value<S>;
      if (core.sys === null) {
        const q = refilledAddress(core, c._columns, c.id, c.size, e);
        if (q !== 0) return c._decode(this.#mem, q) as Value<S>;
      }
    }
    const where = 'World.get';
    const w = core.live(where);
    slotTablesOf(core); // (re-derives the table views after memory growth)
    core.entity(where, e);
    const comp = core.component(where, c);
    if (core.sys !== null) checkAccess(core, where, comp, 'read', e);
    const p = core.raw.worldGet(w, e, comp.id);
    if (p === 0) {
      if (!core.raw.worldIsValid(w, e)) check(core.raw.worldCheck(w, e), `${where}(${formatEntity(e)}, ${comp.name})`);
      return undefined;
    }
    return comp._decode(core.mem, p) as Value<S>;
  }

  #rejected(where: string, e: number, comp: Component, code: number): never {
    throw coreError(code, `${where}(${formatEntity(e)}, ${comp.name})`);
  }

  /** The archetype `e` is in (0 without components or when stale). */
  archetypeOf(e: Entity): number {
    return this.#core.raw.worldArchetypeOf(this.#core.live('World.archetypeOf'), this.#core.entity('World.archetypeOf', e));
  }

  /** Archetypes created so far. */
  get archetypeCount(): number {
    return this.#core.raw.worldArchetypeCount(this.#core.live('World.archetypeCount'));
  }

  /** The component ids of archetype `id` (ascending; 0, the empty set, has none). An id above archetypeCount is InvalidArgument (archetype_unknown). */
  archetypeComponents(id: number): number[] { return archetypeComponents(this.#core, id); }

  /** The archetype storage's accounting snapshot. */
  archetypeStats(): ArchetypeStats { return archetypeStats(this.#core); }

  // --- relations (relations/relations.ts; docs/relations.md#typescript) ---------

  /** Registers a relation at setup: `const ChildOf = world.registerRelation('ChildOf', { onTargetDestroyed: 'destroy' })` (exclusive: one target per source). */
  registerRelation(name: string, options?: RelationOptions): Relation { return registerRelation(this.#core, name, options); }
  /** e's target through `rel`, or undefined when `e` has none. Throws for a stale handle. O(1). */
  targetOf(e: Entity, rel: Relation): Entity | undefined { return targetOf(this.#core, e, rel); }
  /** The entities relating to `target` through `rel`, in ascending slot order. O(sources). */
  sourcesOf(target: Entity, rel: Relation): Entity[] { return sourcesOf(this.#core, target, rel); }
  /** How many entities relate to `target` through `rel`. O(sources). */
  sourceCount(target: Entity, rel: Relation): number { return sourceCount(this.#core, target, rel); }
  /** fn(source, target) for every entity with `rel`, parents before children, depth by depth; relation changes inside go through commands. */
  eachCascade(rel: Relation, fn: (source: Entity, target: Entity) => void): void { eachCascade(this.#core, rel, fn); }
  /** Throws relation_invariant_broken when a relation value was written around the rules (a direct write of `target`). */
  checkRelations(): void { checkRelations(this.#core); }

  // --- prefabs (relations/prefabs.ts; docs/prefabs.md#typescript) ---------------

  /** Registers the Prefab tag at setup (idempotent) and returns it: queries skip prefabs unless a term, tag or optional names it. */
  registerPrefabs(): Component<PrefabSchema> { return registerPrefabs(this.#core); }
  /** The Prefab tag, or undefined before any prefab call registered it. */
  get prefabTag(): Component<PrefabSchema> | undefined { return prefabTag(this.#core); }
  /** Creates an entity carrying the Prefab tag (registering it when needed); give it components with add. */
  createPrefab(): Entity { return this.#observed(createPrefab(this.#core)); }
  /** Marks live `e` as a prefab (adds the tag; a no-op when marked). */
  makePrefab(e: Entity): void { makePrefab(this.#core, e); this.#observed(undefined); }
  /** True when live `e` carries the Prefab tag (false for a stale handle). */
  isPrefab(e: Entity): boolean { return isPrefab(this.#core, e); }
  /**
   * Copies `prefab` (every component but the tag) into a new entity and,
   * with `hierarchy`, its tree of children as children of the instance, in
   * one structural change; `overrides` replace the root's values:
   * `world.instantiate(tank, { hierarchy: ChildOf, overrides: [[Hull, { hp: 50 }]] })`.
   * Inside an each, a system or a defer use `commands.instantiate`.
   */
  instantiate<const O extends readonly (readonly [Component<any>, unknown])[] = readonly []>(prefab: Entity, options?: InstantiateOptions<O>): Entity { // eslint-disable-line @typescript-eslint/no-explicit-any
    return this.#observed(instantiate(this.#core, 'World.instantiate', prefab, options, false));
  }
  // Rethrows what an observer threw during the call that returned `v`.
  #observed<T>(v: T): T {
    if (this.#core.observers !== null) rethrowObserverError(this.#core);
    return v;
  }

  // --- queries (query_object.ts, query.ts; docs/query.md#iteration-legality) ----

  /**
   * Declares a query once: `world.query({ pos: Position.write, vel:
   * Velocity.read }, { without: [Frozen], optional: { hp: Health.read },
   * tags: [Player] })`, then `q.each((e, { pos, vel, hp }) => ...)`,
   * `q.eachChunk(fn)`, `q.count()` (query_object.ts; docs/typescript.md#queries).
   */
  query<const T extends QueryTerms, const O extends QueryTerms = Record<never, never>>(terms: T, options?: QueryOptions<O>): Query<T, O> {
    this.#core.live('World.query');
    return new Query<T, O>(this.#core, 'World.query', terms, options, false);
  }

  // --- deferred commands (commands.ts; docs/commands.md) ----------------------
    /** The open phase's command buffer (an each, a system's run, a defer; applied at its end); else throws command_outside_phase. */
  get commands(): Commands { return phaseCommands(this.#core); }
  /** Runs fn(commands), then applies what it recorded (inside an each or a system: at that phase's end). */
  defer(fn: (commands: Commands) => void): void {
    runDefer(this.#core, fn);
    if (this.#core.observers !== null) rethrowObserverError(this.#core);
  }
  /** The command counters (recorded, applied, skipped, pending). */
  commandStats(): CommandStats { return commandStats(this.#core); }

  /**
   * The convenience form of a query (built on one per component/access
   * shape, cached): fn(entity, ...refs) for every entity that has all
   * `components`, in ascending archetype id, then ascending slot, with the
   * refs, checks and guard of Query.each (query_object.ts). Speed: the
   * compiled row loops belong to the cached query of this shape, so two
   * places that pass the same callback text to the same shape share one
   * (docs/typescript.md#costs); declare a query for each of them.
   * `each([], [], fn)` visits every live entity in slot order.
   */
  each<const C extends readonly AnyComponent[], const A extends AccessList<C>>(
    components: C, access: A, fn: (e: Entity, ...refs: Refs<C, A>) => void): void {
    if (logHandlers.depth !== 0) refuseInsideLog('World.each');
    runEach(this.#core, components, access, fn as unknown as (...args: unknown[]) => void);
    if (this.#core.observers !== null && this.#core.iterating === 0) rethrowObserverError(this.#core);
  }

  /**
   * The column-view fast path: calls fn(chunk) once per matched archetype,
   * under the same iteration guard as `each`. `chunk.field(Position, 'x')`
   * gives the heap as a typed array plus the index and stride of the field,
   * so a pass is a plain typed-array loop. The arrays die when wasm memory
   * grows (any allocating call): re-derive them after mutating the world.
   */
  eachChunk<const C extends readonly AnyComponent[]>(components: C, access: AccessList<C>, fn: (chunk: Chunk) => void): void {
    if (logHandlers.depth !== 0) refuseInsideLog('World.eachChunk');
    runEachChunk(this.#core, components, access, fn);
    if (this.#core.observers !== null && this.#core.iterating === 0) rethrowObserverError(this.#core);
  }

  // --- systems (systems.ts) ----------------------------------------------------

  /**
   * Registers a TypeScript system in the world's registry, next to the C++
   * ones: same schedule, budgets, timing and PRNG substreams. `queries`
   * declares the queries it owns (ctx.queries.<name>), `io` further
   * component access ([Health, 'read']); the two together are its io, the
   * scheduler's and the one every access in its run is held to
   * (system_io_violation; docs/typescript.md#enforced-access). `dependsOn`
   * names systems it runs after.
   */
  registerSystem<const Q extends { readonly [name: string]: SystemQueryDecl } = Record<never, never>>(def: SystemDef<Q>): SystemHandle {
    if (logHandlers.depth !== 0) refuseInsideLog('World.registerSystem');
    this.#core.notScenario('World.registerSystem');
    return this.#systems.register(def);
  }

  /** Orders the registered systems (dependencies, I/O checks); returns the system ids in run order. */
  scheduleSystems(): number[] {
    if (logHandlers.depth !== 0) refuseInsideLog('World.scheduleSystems');
    this.#core.notScenario('World.scheduleSystems');
    return this.#systems.schedule();
  }

  /** Runs one tick: every system, in schedule order (scheduling first when systems were added). `input` is ctx.input. */
  runSystems(input?: Uint8Array): void {
    this.#core.notScenario('World.runSystems');
    this.#systems.run(input);
  }

  /** Completed runSystems calls (ctx.tick of the next run is this + 1). */
  get systemTicksRun(): number {
    return this.#core.raw.worldSystemTicksRun(this.#core.live('World.systemTicksRun'));
  }

  /** Every registered system (TypeScript and C++). */
  systems(): SystemInfo[] {
    return this.#systems.infos();
  }

  /** A system's timing counters (by id or name). */
  systemTimingStats(system: number | string | SystemHandle): SystemTimingStats {
    return this.#systems.timingStats(system);
  }

  /** A system's rolling timing window: stats and the samples (ms), oldest first. */
  systemTimingWindow(system: number | string | SystemHandle): SystemTimingWindow {
    return this.#systems.timingWindow(system);
  }

  /** A system's PRNG substream state (part of the state hash). */
  systemRngState(system: number | string | SystemHandle): SystemRngState {
    return this.#systems.rngState(system);
  }

  /** Replaces the clock systems are timed with (ns; tests), or restores the default with null. */
  setTimingClock(nowNs: (() => number) | null): void {
    if (logHandlers.depth !== 0) refuseInsideLog('World.setTimingClock');
    this.#systems.setClock(nowNs);
  }

  // --- reacting to change (changes/observers.ts; docs/changes.md#typescript) ---

  /**
   * Calls fn(ctx) after the system or top-level call that added (`'onAdd'`),
   * replaced (`'onSet'`) or removed (`'onRemove'`, once per component on
   * destroy and clear) component `c`: events in the order they happened,
   * for one event the observers in registration order. Structural changes
   * inside go through ctx.commands. Registered at setup (inside a callback:
   * observe_inside_callback); observers cannot be removed. What an observer
   * throws is rethrown by the call that ran it, after the rest of the queue ran.
   */
  observe<S extends Schema>(c: Component<S>, event: ObserverEvent, fn: (ctx: ObserverContext<S>) => void): ObserverHandle {
    return observe(this.#core, c, event, fn);
  }

  /** Runs the queued observer events now (a no-op inside a system, an each, a defer or an observer); rethrows what an observer threw. */
  flushObservers(): void {
    flushObservers(this.#core);
  }

  /** The observer counters. */
  observerStats(): ObserverStats {
    return observerStats(this.#core);
  }

  /** Marks e's `c` changed now, for code that wrote its column memory directly (a no-op when `c` is untracked). */
  markChanged(e: Entity, c: AnyComponent): void {
    markChanged(this.#core, e, c);
  }

  /** Starts change tracking of `c` now (setup: 8 bytes per entity slot, once); every entity that has it counts as added now. */
  trackChanges(c: AnyComponent): void {
    trackChanges(this.#core, c);
  }

  /** e's change ticks of `c` (added, changed; 0 when untracked, absent or stale), the world's current change tick and whether `c` is tracked. */
  changeTicks(e: Entity, c: AnyComponent): { added: number; changed: number; now: number; tracked: boolean } {
    return changeTicks(this.#core, e, c);
  }

  // --- state hash and diff -----------------------------------------------------

  /** FNV-1a-64 of the authoritative state after `tick` completed ticks (the `<tick> <hash>` value). */
  stateHash(tick: number | bigint): bigint {
    return worldHash(this.#core, tick, false);
  }

  // --- snapshots (snapshot.ts; docs/snapshots.md) ------------------------------

  /** The whole authoritative state as portable bytes (the same natively and in wasm). */
  snapshot(): Uint8Array {
    return snapshotWorld(this.#core);
  }

  /** Writes the snapshot to the start of `buf` and returns its byte count (snapshot_buffer_too_small when short). */
  snapshotInto(buf: Uint8Array): number {
    return snapshotWorldInto(this.#core, buf);
  }

  /**
   * Makes the state the one `bytes` holds; bad bytes throw (snapshot_* reasons) and change nothing.
   * Refused (restore_inside_callback) inside any callback on this world and during its ticks.
   */
  restore(bytes: Uint8Array): void {
    restoreWorld(this.#core, bytes);
  }

  /** stateHash without the per-system PRNG part. */
  componentStateHash(tick: number | bigint): bigint {
    return worldHash(this.#core, tick, true);
  }

  /** Compares this world's live state (A) with `other` (B) per (slot, component); both must register the same components in the same order. */
  stateDiff(other: World, maxItems = 16): StateDiff {
    return diffWorlds(this.#core, coreOf(other), other, maxItems);
  }

  /**
   * Per-system checkpoints (docs/desync.md#checkpoints): while true, every tick
   * records after each system the column checksum of the whole state, so two
   * peers' checkpoints of their first differing tick name the system after
   * which they differ. Off by default; costs up to about 2x the cheapest tick.
   */
  get systemCheckpoints(): boolean { return systemCheckpointsOn(this.#core); }
  set systemCheckpoints(on: boolean) { setSystemCheckpoints(this.#core, on); }

  /** The checkpoints of the last tick run with systemCheckpoints on, in run order. */
  checkpoints(): SystemCheckpoints { return systemCheckpoints(this.#core); }

  /** The state hash tree's root at `tick` (docs/desync.md#the-state-hash-tree): equal live state, equal root. */
  stateTreeRoot(tick: number | bigint): bigint { return stateTreeRoot(this.#core, tick); }

  /** The hashes of a tree node's children (what a peer sends for the nodes that differ). */
  stateTreeChildren(node: StateTreeNode): bigint[] { return stateTreeChildren(this.#core, node); }

  /** A leaf chunk's payload (its hash is XXH3 of these bytes): the rows a peer sends once the walk reached them. */
  stateTreeLeaf(node: StateTreeNode): Uint8Array { return stateTreeLeaf(this.#core, node); }

  /**
   * The desync report of this world (A) against `other` (B) at the same tick
   * (docs/desync.md#the-report): the first system after which their
   * checkpoints differ, and every differing (entity, component) with its
   * first differing field and both values.
   */
  desyncReport(other: World, maxItems = 16): DesyncReport { return desyncReport(this.#core, coreOf(other), other, maxItems); }

  /** "World(capacity 1000, 12 entities, 3 components, 4 archetypes, 2 systems)" (console.log and util.inspect show it too). */
  toString(): string { return describeWorld(this.#core); }

  /** @internal util.inspect / console.log: toString(), not the internals (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }
}

export type { Access, Chunk, FieldColumn, FieldInfo };
export type { Relation, RelationOptions, RelationTarget, RelationHandle };
export type { InstantiateOptions, PrefabSchema };
export type { Query, QueryOptions, QueryTerms };
export type { ObserverContext, ObserverEvent, ObserverHandle, ObserverStats };
