/// <reference lib="esnext.disposable" preserve="true" />
// world.ts - the World of @laige/sim: entities, components by schema,
// queries (`each` over column views, docs/typescript.md), the column-view
// fast path, state hash and diff. Systems, replays and the game loop build
// on it (systems.ts, replay.ts, loop.ts). Every argument is validated here
// before it reaches wasm; every failing Status becomes a LaigeError, and a
// throwing call leaves the world unchanged.
import { IterationCursorLayout, readArchetypeStats, readEntityStats, readGuardrailStats } from './boundary/layouts.gen.js';
import { Component, type Access, type FieldInfo } from './component/component.js';
import { type Entity, formatEntity } from './component/entity.js';
import { check, coreError, invalid, typeName, whereField } from './base/errors.js';
import type { LaigeRawModule, Mem } from './boundary/raw.js';
import { type ReadRef, type Ref, type Schema, type Value, type ValueInput } from './component/schema.js';
import { describe } from './base/describe.js';
import { runEach, runEachChunk } from './query/world_each.js';
import type { Chunk, FieldColumn } from './query/chunk.js';
import type { EachLoopMode } from './query/row_loop.js';
import { FastTables, type SlotTables, disableFastTables, fastAddress, refilledAddress, slotTablesOf } from './core/slot_tables.js';
import { restoreWorld, snapshotWorld, snapshotWorldInto } from './core/snapshot.js';
import { type AnyQuery, Query, type QueryOptions, type QueryTerms } from './query/query.js';
import { type RunningSystem, checkAccess, checkClear } from './systems/system_io.js';
import { SystemRegistry, type SystemContext, type SystemQueryDecl, type SystemDef, type SystemHandle, type SystemInfo,
  type SystemRngState, type SystemTimingStats, type SystemTimingWindow } from './systems/system_registry.js';
import { CallStack, activeCallback, logHandlers, refuseDisposeInside, refuseInsideLog } from './base/reentrancy.js';
import { adoptComponents, registerComponentOn } from './component/registration.js';
import { type CommandStats, type Commands, commandStats, phaseCommands, runDefer } from './systems/commands.js';

// Symbol.dispose for runtimes that lack it (older browsers): the symbol TS
// and Node use for `using`.
if (typeof (Symbol as { dispose?: symbol }).dispose !== 'symbol') {
  Object.defineProperty(Symbol, 'dispose', { value: Symbol.for('nodejs.dispose') });
}

export type {
  WorldOptions, EntityStats, GuardrailStats, ArchetypeStats, StateDiffItem, StateDiff, AnyComponent, AccessList, SchemaOf, Refs,
} from './world_types.js';
import type {
  WorldOptions, EntityStats, GuardrailStats, ArchetypeStats, StateDiff, AnyComponent, AccessList, Refs,
} from './world_types.js';
import { MAX_U32, coreRange, u32, u64, tickOf, lo, hi } from './base/args.js';
import { worldHash, diffWorlds } from './core/world_state.js';
import { INSPECT, count } from './base/inspect.js';

/** @internal What a World needs from its module (implemented by Laige). */
export interface Host {
  readonly raw: LaigeRawModule;
  readonly mem: Mem;
  registerWorld(ptr: number, world: World): void;
  unregisterWorld(ptr: number): void;
}

/** A simulation world (the C++ laige::World). Create it with `sim.createWorld`. */
export class World implements Disposable {
  /** @internal */ _ptr: number;
  /** @internal */ readonly _host: Host;
  /** @internal */ readonly _raw: LaigeRawModule;
  /** @internal */ readonly _mem: Mem;
  /** @internal */ readonly _options: Readonly<Required<WorldOptions>>;
  /** @internal */ readonly _components: Component[] = [];
  /** @internal */ readonly _systems: SystemRegistry;
  /** @internal Active `each`/`eachChunk` calls on this world (0 or 1). */
  _iterating = 0;
  /** @internal The callbacks running inside calls on this world (reentrancy.ts). */
  readonly _calls = new CallStack();
  /** @internal Disposers of loops and recorders bound to this world. */
  readonly _dependents = new Set<{ _detach(): void }>();
  #handles = 0;
  /** @internal The queries World.each and eachChunk run on, per shape (query.ts). */
  readonly _eachQueries = new Map<number | string, AnyQuery>();
  /** @internal The core's structureEpoch as of the last restore: query caches keyed by archetype id rebuild when it changes (snapshot.ts). */
  _structureEpoch = 0;
  /** @internal The core's slot tables (slot_tables.ts): undefined until used, null without them. */
  _slots: SlotTables | null | undefined = undefined;
  /** @internal What reads outside a system take without a call (slot_tables.ts FastTables). */
  readonly _fast = new FastTables();
  /** @internal The TypeScript system whose run is on the stack (system_io.ts), or null. */
  _sys: RunningSystem | null = null;
  /** @internal The read terms of the live each by component id, or null. */
  _liveRead: Uint8Array | null = null;
  /** @internal Which each row loops to use (row_loop.ts); tests pin each of them. */
  _eachLoops: EachLoopMode = 'auto';
  #handlesRows = 0;

  /** @internal The name of the C++ scenario whose run owns this world (sim.openScenario), or null. */
  readonly _scenario: string | null;

  /**
   * @internal Use sim.createWorld. `adopt` (sim.openScenario): the pointer of
   * a world the core already created (a scenario run's); its components are
   * read from the core's registry instead of being registered here.
   */
  constructor(host: Host, options: WorldOptions, adopt?: { ptr: number; scenario: string }) {
    const where = 'createWorld';
    this._scenario = adopt?.scenario ?? null;
    if (typeof options !== 'object' || options === null) throw invalid(`${where}: options must be an object with a capacity, got ${describe(options)}`, 'wrong_type', { where, field: 'options', got: typeName(options) });
    // Above the 65,536 entity ids: the core's capacity_invalid (0 is out_of_range: a world holds at least one entity).
    const capacity = typeof options.capacity === 'number' && options.capacity > 65536
      ? coreRange(`${where}: capacity`, options.capacity, 1, 65536, 'capacity_invalid', (v) => ({ capacity: v, max_capacity: 65536 }))
      : u32(`${where}: capacity`, options.capacity, 1, 65536);
    const churn = options.churnPerFrameBudget === undefined ? 256 : u32(`${where}: churnPerFrameBudget`, options.churnPerFrameBudget);
    const seed = options.seed === undefined ? 0n : u64(`${where}: seed`, options.seed);
    const deterministic = options.deterministic === undefined ? true : options.deterministic;
    if (typeof deterministic !== 'boolean') throw invalid(`${where}: deterministic must be a boolean, got ${describe(deterministic)}`, 'wrong_type', { where, field: 'deterministic', got: typeName(deterministic) });
    this._host = host;
    this._raw = host.raw;
    this._mem = host.mem;
    this._options = Object.freeze({ capacity, churnPerFrameBudget: churn, seed, deterministic });
    const m = this._mem;
    if (adopt !== undefined) {
      this._ptr = adopt.ptr;
    } else {
      const code = this._raw.worldCreate(capacity, churn, lo(seed), hi(seed), deterministic, m.out);
      m.sync();
      check(code, where);
      this._ptr = m.u32[m.out >>> 2]!;
    }
    this._systems = new SystemRegistry(this);
    host.registerWorld(this._ptr, this);
    if (adopt !== undefined) adoptComponents(this);
  }

  /** @internal Throws for calls that would change a scenario run's components or schedule. */
  _notScenario(where: string): void {
    if (this._scenario !== null) {
      throw invalid(`${where}: this world belongs to the C++ scenario run '${this._scenario}' (step it with its ScenarioRun)`, 'scenario_world', { where, scenario: this._scenario });
    }
  }

  // --- lifetime --------------------------------------------------------------

  /** True after dispose(). */
  get disposed(): boolean {
    return this._ptr === 0;
  }

  /** Frees the world (and stops its game loops and replay recorders). Idempotent; every later call throws. */
  dispose(): void {
    if (this._ptr === 0) return;
    // Refused, never deferred, while a call on this world is on the stack
    // (docs/typescript.md#callbacks-and-re-entrancy).
    if (logHandlers.depth !== 0) refuseInsideLog(this._scenario === null ? 'World.dispose' : `ScenarioRun(${this._scenario}).dispose`);
    refuseDisposeInside(this._scenario === null ? 'World.dispose' : `ScenarioRun(${this._scenario}).dispose`,
      this._scenario === null ? 'World' : 'ScenarioRun',
      activeCallback(this._calls) ?? (this._systems.running ? 'system' : undefined));
    for (const d of [...this._dependents]) d._detach();
    this._dependents.clear();
    if (this.#handles !== 0) this._raw._free(this.#handles);
    this.#handles = 0;
    this._host.unregisterWorld(this._ptr);
    this._raw.worldDestroy(this._ptr);
    this._ptr = 0;
    this._slots = null; // the tables died with the core's world (slot_tables.ts)
    disableFastTables(this._fast);
  }

  /** dispose(), for `using world = sim.createWorld(...)`. */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** @internal Throws unless the world is alive; returns its pointer. */
  _live(where: string): number {
    if (this._ptr === 0) throw invalid(`${where}: the world is disposed`, 'disposed', { where, object: 'World' });
    return this._ptr;
  }

  /** The options the world was created with. */
  get options(): Readonly<Required<WorldOptions>> {
    return this._options;
  }

  // --- entities ----------------------------------------------------------------

  /** @internal Validates an entity handle argument. */
  _entity(where: string, e: unknown): number {
    if (typeof e !== 'number' || !Number.isInteger(e) || e < 0 || e > MAX_U32) {
      throw invalid(`${where}: expected an entity handle (a 32-bit unsigned integer), got ${describe(e)}`,
        typeof e === 'number' ? 'out_of_range' : 'wrong_type', { where, field: 'entity', got: typeof e === 'number' ? e : typeName(e) });
    }
    return e;
  }

  /** Creates an entity (the slot freed last, else the next fresh slot). BudgetExhausted when `capacity` are live. */
  create(): Entity {
    if (logHandlers.depth !== 0) refuseInsideLog('World.create');
    const w = this._live('World.create');
    const m = this._mem;
    const code = this._raw.worldCreateEntity(w, m.out);
    if (code !== 0) throw coreError(code, 'World.create');
    return m.u32[m.out >>> 2]!;
  }

  /** Destroys a live entity; a stale or foreign handle throws InvalidArgument. */
  destroy(e: Entity): void {
    if (logHandlers.depth !== 0) refuseInsideLog('World.destroy');
    const w = this._live('World.destroy');
    if (this._sys !== null) checkAccess(this, 'World.destroy', null, 'destroy', this._entity('World.destroy', e));
    const code = this._raw.worldDestroyEntity(w, this._entity('World.destroy', e));
    if (code !== 0) throw coreError(code, `World.destroy(${formatEntity(e)})`);
  }

  /** Generation-checked liveness (no side effects). */
  isValid(e: Entity): boolean {
    return this._raw.worldIsValid(this._live('World.isValid'), this._entity('World.isValid', e)) !== 0;
  }

  /** The access check: throws InvalidArgument for a stale handle. */
  check(e: Entity): void {
    const code = this._raw.worldCheck(this._live('World.check'), this._entity('World.check', e));
    if (code !== 0) throw coreError(code, `World.check(${formatEntity(e)})`);
  }

  /** Live entities now. */
  get entityCount(): number {
    return this._raw.worldEntityCount(this._live('World.entityCount'));
  }

  /** The declared scene budget. */
  get capacity(): number {
    return this._raw.worldCapacity(this._live('World.capacity'));
  }

  /** The live handle at slot `id` (0..capacity-1; else InvalidArgument), or undefined. */
  handleAt(id: number): Entity | undefined {
    const w = this._live('World.handleAt');
    const h = this._raw.worldHandleAt(w, u32('World.handleAt: id', id, 0, this._options.capacity - 1));
    return h === 0 ? undefined : h;
  }

  /** The accounting snapshot. */
  stats(): EntityStats {
    const w = this._live('World.stats');
    const m = this._mem;
    this._raw.worldStats(w, m.out);
    return readEntityStats(m.f64, m.out >>> 3);
  }

  /** Marks a frame start (resets the per-frame churn counter). */
  beginFrame(): void {
    if (logHandlers.depth !== 0) refuseInsideLog('World.beginFrame');
    this._raw.worldBeginFrame(this._live('World.beginFrame'));
  }

  /** The guardrail snapshot. */
  guardrailStats(): GuardrailStats {
    const w = this._live('World.guardrailStats');
    const m = this._mem;
    this._raw.worldGuardrailStats(w, m.out);
    return readGuardrailStats(m.u32, m.out >>> 2);
  }

  /** Destroys every live entity (slots 0, 1, 2, ... are handed out again next). */
  clear(): void {
    checkClear(this);
    if (logHandlers.depth !== 0) refuseInsideLog('World.clear');
    check(this._raw.worldClear(this._live('World.clear')), 'World.clear');
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
    return registerComponentOn(this, name, schema);
  }

  /** The component registered under `name`, or undefined. */
  component<S extends Schema = Schema>(name: string): Component<S> | undefined {
    this._live('World.component');
    return this._components.find((c) => c !== undefined && c.name === name) as Component<S> | undefined;
  }

  /** Every registered component, by ascending id (for a scenario run's world: those its C++ setup registered). */
  components(): Component[] {
    this._live('World.components');
    return this._components.filter((c) => c !== undefined);
  }

  /** Registered components. */
  get componentCount(): number {
    return this._raw.worldComponentCount(this._live('World.componentCount'));
  }

  /**
   * @internal Validates a component argument of this world; `list[index]`
   * names it in the message (built only to throw: this runs on every add,
   * remove and each).
   */
  _component(where: string, c: unknown, list?: string, index?: number): Component {
    if (c instanceof Component && c._owner === this) return c;
    const at = list === undefined ? where : `${where}: ${list}[${index}]`;
    const field = list === undefined ? 'component' : `${list}[${index}]`;
    if (!(c instanceof Component)) throw invalid(`${at}: expected a Component from registerComponent, got ${describe(c)}`, 'wrong_type', { where, field, got: typeName(c) });
    throw invalid(`${at}: ${c.toString()} belongs to another world`, 'foreign_component', { where, field, component: c.name });
  }

  /**
   * Adds component `c` with `value` to `e`, or overwrites it in place when
   * `e` has it (create-or-update). Throws for a stale handle, a value that
   * does not match the schema (wrong type, NaN, out-of-range integer), a
   * component of another world, and what a live `each` forbids.
   */
  add<S extends Schema>(e: Entity, c: Component<S>, value: ValueInput<S>): void {
    // The hot path is kept small (V8 inlines it into a caller's loop); the
    // full checks and the messages run only to throw.
    if (logHandlers.depth !== 0) refuseInsideLog('World.add');
    const w = this._ptr;
    if (w === 0) this._live('World.add');
    if (typeof e !== 'number' || e >>> 0 !== e) this._entity('World.add', e);
    const comp = this._component('World.add', c);
    if (this._sys !== null || this._liveRead !== null) checkAccess(this, 'World.add', comp, 'add', e);
    const m = this._mem;
    comp._encode(m, value, m.scratch, 'World.add');
    const code = this._raw.worldAdd(w, e, comp.id, m.scratch, comp.size);
    m.sync();
    // A live each of this world may hold a snapshot of this row (row_loop.ts);
    // no walk of this world is live otherwise, and none elsewhere can see its rows.
    if (this._iterating !== 0) m.epoch++;
    if (code !== 0) this.#rejected('World.add', e, comp, code);
  }

  /** Removes `c` from `e` (a no-op when `e` lacks it). Throws for a stale handle and what a live `each` forbids. */
  remove(e: Entity, c: AnyComponent): void {
    // As in add().
    if (logHandlers.depth !== 0) refuseInsideLog('World.remove');
    const w = this._ptr;
    if (w === 0) this._live('World.remove');
    if (typeof e !== 'number' || e >>> 0 !== e) this._entity('World.remove', e);
    const comp = this._component('World.remove', c);
    if (this._sys !== null) checkAccess(this, 'World.remove', comp, 'remove', e);
    const code = this._raw.worldRemove(w, e, comp.id);
    this._mem.sync();
    if (code !== 0) this.#rejected('World.remove', e, comp, code);
  }

  /** True when live `e` has `c` (false for a stale handle: a pure query). */
  has(e: Entity, c: AnyComponent): boolean {
    const where = 'World.has';
    const w = this._live(where);
    return this._raw.worldHas(w, this._entity(where, e), this._component(where, c).id) !== 0;
  }

  /** A copy of e's `c`, or undefined when `e` lacks it. Throws for a stale handle. */
  get<S extends Schema>(e: Entity, c: Component<S>): Value<S> | undefined {
    // Outside a system, found through the core's slot tables without a call (slot_tables.ts).
    if (typeof e === 'number' && e >>> 0 === e && c instanceof Component && c._owner === this) {
      const p = fastAddress(this._fast, c._columns.places, c.size, e);
      if (p !== 0) return c._decode(this._mem, p) as Value<S>;
      if (this._sys === null) {
        const q = refilledAddress(this, c._columns, c.id, c.size, e);
        if (q !== 0) return c._decode(this._mem, q) as Value<S>;
      }
    }
    const where = 'World.get';
    const w = this._live(where);
    slotTablesOf(this); // (re-derives the table views after memory growth)
    this._entity(where, e);
    const comp = this._component(where, c);
    if (this._sys !== null) checkAccess(this, where, comp, 'read', e);
    const p = this._raw.worldGet(w, e, comp.id);
    if (p === 0) {
      if (!this._raw.worldIsValid(w, e)) check(this._raw.worldCheck(w, e), `${where}(${formatEntity(e)}, ${comp.name})`);
      return undefined;
    }
    return comp._decode(this._mem, p) as Value<S>;
  }

  #rejected(where: string, e: number, comp: Component, code: number): never {
    throw coreError(code, `${where}(${formatEntity(e)}, ${comp.name})`);
  }

  /** The archetype `e` is in (0 without components or when stale). */
  archetypeOf(e: Entity): number {
    return this._raw.worldArchetypeOf(this._live('World.archetypeOf'), this._entity('World.archetypeOf', e));
  }

  /** Archetypes created so far. */
  get archetypeCount(): number {
    return this._raw.worldArchetypeCount(this._live('World.archetypeCount'));
  }

  /** The component ids of archetype `id` (ascending; 0, the empty set, has none). An id above archetypeCount is InvalidArgument (archetype_unknown). */
  archetypeComponents(id: number): number[] {
    const where = 'World.archetypeComponents';
    const w = this._live(where);
    const count = this._raw.worldArchetypeCount(w);
    if (typeof id === 'number' && Number.isInteger(id) && id > count && id <= MAX_U32) {
      throw invalid(`${where}: no archetype ${id} (this world has ${count}: ids 1..${count}, 0 is the empty set)`,
        'archetype_unknown', { archetype: id, count });
    }
    const r = this._raw.worldArchetypeComponents(w, u32(`${where}: id`, id, 0, count));
    this._mem.sync();
    return r;
  }

  /** The archetype storage's accounting snapshot. */
  archetypeStats(): ArchetypeStats {
    const w = this._live('World.archetypeStats');
    const m = this._mem;
    this._raw.worldArchetypeStats(w, m.out);
    return readArchetypeStats(m.f64, m.out >>> 3);
  }

  // --- queries (query_object.ts, query.ts; docs/query.md#iteration-legality) ----

  /** @internal The per-world handle buffer (capacity u32), allocated on first use. */
  _handleBuffer(): number {
    if (this.#handles === 0) {
      this.#handlesRows = this._options.capacity + (this._options.capacity >>> 2) + 16;
      this.#handles = this._raw._malloc(this.#handlesRows * 4);
      this._mem.sync();
    }
    return this.#handles;
  }

  /**
   * Declares a query once: `world.query({ pos: Position.write, vel:
   * Velocity.read }, { without: [Frozen], optional: { hp: Health.read },
   * tags: [Player] })`, then `q.each((e, { pos, vel, hp }) => ...)`,
   * `q.eachChunk(fn)`, `q.count()` (query_object.ts; docs/typescript.md#queries).
   */
  query<const T extends QueryTerms, const O extends QueryTerms = Record<never, never>>(terms: T, options?: QueryOptions<O>): Query<T, O> {
    this._live('World.query');
    return new Query<T, O>(this, 'World.query', terms, options, false);
  }

  /** @internal Ends the guarded iteration (always, from a finally). */
  _end(): void {
    this._iterating--;
    this._calls.leave();
    if (this._ptr !== 0) this._raw.worldEndIteration(this._ptr);
    this._mem.sync(); // a top-level each's commands applied just now (docs/commands.md)
  }

  // --- deferred commands (commands.ts; docs/commands.md) ----------------------
  readonly #phase: { commands: Commands | null } = { commands: null };
  /** The open phase's command buffer (an each, a system's run, a defer; applied at its end); else throws command_outside_phase. */
  get commands(): Commands { return phaseCommands(this, this.#phase); }
  /** Runs fn(commands), then applies what it recorded (inside an each or a system: at that phase's end). */
  defer(fn: (commands: Commands) => void): void { runDefer(this, fn); }
  /** The command counters (recorded, applied, skipped, pending). */
  commandStats(): CommandStats { return commandStats(this); }

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
    runEach(this, components, access, fn as unknown as (...args: unknown[]) => void);
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
    runEachChunk(this, components, access, fn);
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
    this._notScenario('World.registerSystem');
    return this._systems.register(def as unknown as SystemDef<never>);
  }

  /** Orders the registered systems (dependencies, I/O checks); returns the system ids in run order. */
  scheduleSystems(): number[] {
    if (logHandlers.depth !== 0) refuseInsideLog('World.scheduleSystems');
    this._notScenario('World.scheduleSystems');
    return this._systems.schedule();
  }

  /** Runs one tick: every system, in schedule order (scheduling first when systems were added). `input` is ctx.input. */
  runSystems(input?: Uint8Array): void {
    this._notScenario('World.runSystems');
    this._systems.run(input);
  }

  /** Completed runSystems calls (ctx.tick of the next run is this + 1). */
  get systemTicksRun(): number {
    return this._raw.worldSystemTicksRun(this._live('World.systemTicksRun'));
  }

  /** Every registered system (TypeScript and C++). */
  systems(): SystemInfo[] {
    return this._systems.infos();
  }

  /** A system's timing counters (by id or name). */
  systemTimingStats(system: number | string | SystemHandle): SystemTimingStats {
    return this._systems.timingStats(system);
  }

  /** A system's rolling timing window: stats and the samples (ms), oldest first. */
  systemTimingWindow(system: number | string | SystemHandle): SystemTimingWindow {
    return this._systems.timingWindow(system);
  }

  /** A system's PRNG substream state (part of the state hash). */
  systemRngState(system: number | string | SystemHandle): SystemRngState {
    return this._systems.rngState(system);
  }

  /** Replaces the clock systems are timed with (ns; tests), or restores the default with null. */
  setTimingClock(nowNs: (() => number) | null): void {
    if (logHandlers.depth !== 0) refuseInsideLog('World.setTimingClock');
    this._systems.setClock(nowNs);
  }

  // --- state hash and diff -----------------------------------------------------

  /** FNV-1a-64 of the authoritative state after `tick` completed ticks (the `<tick> <hash>` value). */
  stateHash(tick: number | bigint): bigint {
    return worldHash(this, tick, false);
  }

  // --- snapshots (snapshot.ts; docs/snapshots.md) ------------------------------

  /** The whole authoritative state as portable bytes (the same natively and in wasm). */
  snapshot(): Uint8Array {
    return snapshotWorld(this);
  }

  /** Writes the snapshot to the start of `buf` and returns its byte count (snapshot_buffer_too_small when short). */
  snapshotInto(buf: Uint8Array): number {
    return snapshotWorldInto(this, buf);
  }

  /**
   * Makes the state the one `bytes` holds; bad bytes throw (snapshot_* reasons) and change nothing.
   * Refused (restore_inside_callback) inside any callback on this world and during its ticks.
   */
  restore(bytes: Uint8Array): void {
    restoreWorld(this, bytes);
  }

  /** stateHash without the per-system PRNG part. */
  componentStateHash(tick: number | bigint): bigint {
    return worldHash(this, tick, true);
  }

  /** Compares this world's live state (A) with `other` (B) per (slot, component); both must register the same components in the same order. */
  stateDiff(other: World, maxItems = 16): StateDiff {
    return diffWorlds(this, other, maxItems, other instanceof World);
  }

  /** "World(capacity 1000, 12 entities, 3 components, 4 archetypes, 2 systems)" (console.log and util.inspect show it too). */
  toString(): string {
    const w = this._ptr;
    if (w === 0) return 'World(disposed)';
    const r = this._raw;
    return `World(${this._scenario === null ? '' : `scenario ${this._scenario}, `}capacity ${this._options.capacity}, ${count(r.worldEntityCount(w), 'entity', 'entities')}, `
      + `${count(r.worldComponentCount(w), 'component')}, ${count(r.worldArchetypeCount(w), 'archetype')}, ${count(r.worldSystemCount(w), 'system')})`;
  }

  /** @internal util.inspect / console.log: toString(), not the internals (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }
}

export type { Access, Chunk, FieldColumn, FieldInfo, SystemContext };
export type { Query, QueryOptions, QueryTerms };
