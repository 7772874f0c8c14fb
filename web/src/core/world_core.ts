// world_core.ts - the internal state of one world, which every part of the
// layer takes instead of the public World: the module and its memory views,
// the core's world pointer, the call stack (reentrancy), the system runner,
// the restore epoch, the fast read tables, and the objects bound to the world.
// World (world.ts) is the public facade over one WorldCore; nothing here is
// part of the public API (docs/internals/architecture.md).
import { Component, RELATION_COMPONENT, type RelationHandle } from '../component/component.js';
import { coreError, invalid, typeName } from '../base/errors.js';
import { describe } from '../base/describe.js';
import { CallStack, logHandlers, refuseInsideLog } from '../base/reentrancy.js';
import { MAX_U32 } from '../base/args.js';
import type { Detachable } from '../base/lifecycle.js';
import type { LaigeRawModule, Mem } from '../boundary/raw.js';
import { FastTables, type SlotTables } from './slot_tables.js';
import type { WorldOptions } from '../world_types.js';

/** @internal What the core's game-loop hooks reach (GameLoop implements it). */
export interface LoopHooks {
  _tickInput(tick: number): number;
  _afterTick(tick: number): number;
}

/** @internal What the core's rollback hooks reach (RollbackSession implements it). */
export interface RollbackHooks {
  _combine(tick: number, pairs: number, players: number, out: number, capacity: number): number;
  _afterTick(): number;
  _restored(): void;
}

/** @internal What the core's observer hook reaches (changes/observers.ts implements it). */
export interface ObserverHooks {
  _dispatch(id: number, event: number, entity: number, value: number, depth: number, resimulating: boolean): number;
}

/**
 * @internal The module a world lives in (Laige implements it): the one
 * router of the core's JS hooks, which reach the TypeScript object of the
 * C++ object they name (a world, a loop, a rollback session) by its pointer.
 */
export interface CoreHost {
  readonly raw: LaigeRawModule;
  readonly mem: Mem;
  registerWorld(ptr: number, core: WorldCore): void;
  unregisterWorld(ptr: number): void;
  registerLoop(ptr: number, loop: LoopHooks): void;
  unregisterLoop(ptr: number): void;
  registerSession(ptr: number, session: RollbackHooks): void;
  unregisterSession(ptr: number): void;
}

/** @internal The system whose run is on the stack: its name and its io by component id (0 none, 1 read, 2 write). */
export interface RunningSystem {
  readonly name: string;
  readonly io: Uint8Array;
  /** By archetype id: 1 when every component of it is declared (destroying its rows is allowed), else 0 (not checked yet). */
  readonly destroyable: Uint8Array;
}

/** @internal What the rest of the layer needs of a world's system registry (systems/system_registry.ts). */
export interface SystemRunner {
  /** True while a guarded call that may run TypeScript systems is on the stack. */
  readonly running: boolean;
  /** True while a system error of the current guarded call waits to be rethrown. */
  readonly hasError: boolean;
  /** Schedules when systems were registered since the last schedule. */
  ensureScheduled(): void;
  /** Runs a core call that may run TypeScript systems; rethrows the first system error after it returned. */
  guard<T>(call: () => T): T;
  /** The core's trampoline: runs system `id`'s body. Never throws. */
  dispatch(id: number, tick: number, rng: number, input: number, size: number): void;
  /** Records an error of the core's system call (the first one wins). */
  recordError(error: unknown): void;
  /** The timing clock hook. Never throws. */
  clockNs(): number;
}

/** @internal Which each row loops to use (query/row_loop.ts); tests pin each of them. */
export type EachLoopMode = 'auto' | 'shared' | 'interpreted';

/** @internal The internal state of one world (see the file comment). */
export class WorldCore {
  /** The core's World*, 0 once disposed. */
  ptr = 0;
  readonly host: CoreHost;
  readonly raw: LaigeRawModule;
  readonly mem: Mem;
  readonly options: Readonly<Required<WorldOptions>>;
  /** The name of the C++ scenario whose run owns this world, or null. */
  readonly scenario: string | null;
  /** The public object over this core (world.ts), handed to callbacks (ctx.world, query.world). */
  readonly facade: object;
  /** By component id (index 0 unused). */
  readonly components: Component[] = [];
  /** The system registry (systems/system_registry.ts). */
  readonly systems: SystemRunner;
  /** Active `each`/`eachChunk` calls on this world (0 or 1). */
  iterating = 0;
  /** The callbacks running inside calls on this world (base/reentrancy.ts). */
  readonly calls = new CallStack();
  /** Loops, recorders and sessions bound to this world: detached when it is disposed. */
  readonly dependents = new Set<Detachable>();
  /** The per-world handle buffer (query/chunk.ts) and its rows. */
  handles = 0;
  handlesRows = 0;
  /** The queries World.each and eachChunk run on, per shape (query/world_each.ts). */
  readonly eachQueries = new Map<number | string, unknown>();
  /** The core's structureEpoch as of the last restore: caches keyed by archetype id rebuild when it changes (core/snapshot.ts). */
  structureEpoch = 0;
  /** The core's slot tables (core/slot_tables.ts): undefined until used, null without them. */
  slots: SlotTables | null | undefined = undefined;
  /** What reads outside a system take without a call (core/slot_tables.ts FastTables). */
  readonly fast = new FastTables();
  /** The TypeScript system whose run is on the stack (systems/system_io.ts), or null. */
  sys: RunningSystem | null = null;
  /** The read terms of the live each by component id, or null. */
  liveRead: Uint8Array | null = null;
  /** Which each row loops to use (query/row_loop.ts). */
  eachLoops: EachLoopMode = 'auto';
  /** The open phase's command buffer (systems/commands.ts). */
  readonly phase: { commands: unknown } = { commands: null };
  /** The TypeScript observers (changes/observers.ts), made by the first World.observe. */
  observers: ObserverHooks | null = null;

  // Every field is set once, here (`systems` made from the core): V8 keeps
  // one hidden class and one field type per field for every core.
  constructor(host: CoreHost, ptr: number, options: Readonly<Required<WorldOptions>>, scenario: string | null,
    facade: object, systems: (core: WorldCore) => SystemRunner) {
    this.host = host;
    this.raw = host.raw;
    this.mem = host.mem;
    this.ptr = ptr;
    this.options = options;
    this.scenario = scenario;
    this.facade = facade;
    this.systems = systems(this);
    coresByFacade.set(facade, this);
  }

  /** Throws unless the world is alive; returns its pointer. */
  live(where: string): number {
    if (this.ptr === 0) throw invalid(`${where}: the world is disposed`, 'disposed', { where, object: 'World' });
    return this.ptr;
  }

  /** Throws for calls that would change a scenario run's components or schedule. */
  notScenario(where: string): void {
    if (this.scenario !== null) {
      throw invalid(`${where}: this world belongs to the C++ scenario run '${this.scenario}' (step it with its ScenarioRun)`, 'scenario_world', { where, scenario: this.scenario });
    }
  }

  /** World.create: the slot freed last, else the next fresh slot; BudgetExhausted when `capacity` are live. */
  createEntity(): number {
    if (logHandlers.depth !== 0) refuseInsideLog('World.create');
    const w = this.live('World.create');
    const m = this.mem;
    const code = this.raw.worldCreateEntity(w, m.out);
    if (code !== 0) throw coreError(code, 'World.create');
    return m.u32[m.out >>> 2]!;
  }

  /** Validates an entity handle argument. */
  entity(where: string, e: unknown): number {
    if (typeof e !== 'number' || !Number.isInteger(e) || e < 0 || e > MAX_U32) {
      throw invalid(`${where}: expected an entity handle (a 32-bit unsigned integer), got ${describe(e)}`,
        typeof e === 'number' ? 'out_of_range' : 'wrong_type', { where, field: 'entity', got: typeof e === 'number' ? e : typeName(e) });
    }
    return e;
  }

  /**
   * Validates a component argument of this world; `list[index]` names it in
   * the message (built only to throw: this runs on every add, remove and each).
   */
  component(where: string, c: unknown, list?: string, index?: number): Component {
    if (c instanceof Component && c._owner === this) return c;
    // A relation handle stands for its component (relations/relations.ts).
    if (typeof c === 'function' && RELATION_COMPONENT in c) return this.component(where, (c as RelationHandle)[RELATION_COMPONENT], list, index);
    const at = list === undefined ? where : `${where}: ${list}[${index}]`;
    const field = list === undefined ? 'component' : `${list}[${index}]`;
    if (!(c instanceof Component)) throw invalid(`${at}: expected a Component from registerComponent, got ${describe(c)}`, 'wrong_type', { where, field, got: typeName(c) });
    throw invalid(`${at}: ${c.toString()} belongs to another world`, 'foreign_component', { where, field, component: c.name });
  }

  /** The per-world handle buffer (capacity u32 and some), allocated on first use. */
  handleBuffer(): number {
    if (this.handles === 0) {
      this.handlesRows = this.options.capacity + (this.options.capacity >>> 2) + 16;
      this.handles = this.raw._malloc(this.handlesRows * 4);
      this.mem.sync();
    }
    return this.handles;
  }

  /** Ends the guarded iteration (always, from a finally). */
  end(): void {
    this.iterating--;
    this.calls.leave();
    if (this.ptr !== 0) this.raw.worldEndIteration(this.ptr);
    this.mem.sync(); // a top-level each's commands applied just now (docs/commands.md)
  }

  /** Ends the walk of the core's query `id` (always, from a finally): end() with the query's own end (its change filters' run recorded). */
  endQuery(id: number): void {
    this.iterating--;
    this.calls.leave();
    if (this.ptr !== 0) this.raw.worldQueryEnd(this.ptr, id);
    this.mem.sync();
  }
}

// Every live core by its public object (world.ts registers it): how the
// layer finds the core of a World it was given (sim.createGameLoop(world), ...).
const coresByFacade = new WeakMap<object, WorldCore>();

/** @internal The core of a public World, or undefined for anything else. */
export function coreOf(world: unknown): WorldCore | undefined {
  return typeof world === 'object' && world !== null ? coresByFacade.get(world) : undefined;
}
