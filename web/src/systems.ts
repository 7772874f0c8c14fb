// systems.ts - systems written in TypeScript (docs/typescript.md). They
// live in the world's C++ registry next to native systems: one C++
// trampoline calls back into JS with (world, system id), so schedule,
// budgets, timing and PRNG substreams are the core's. A JS exception never
// unwinds through C++: the trampoline catches it, records it, and the
// runSystems call that caused it rethrows after the C++ call returned.
import { HistogramStatsLayout, readHistogramStats, readSystemTimingStats } from './layouts.gen.js';
import type { Access } from './component.js';
import { check, invalid, typeName } from './errors.js';
import { fx } from './math/fx.js';
import { describe } from './schema.js';
import { logHandlers, refuseInsideLog, refuseTickInside } from './reentrancy.js';
import { checkName, systemNameProblem } from './names.js';
import type { AccessList, AnyComponent, Chunk, Refs, World } from './world.js';
import { disableFastTables } from './slot_tables.js';
import type { Entity } from './entity.js';
import { Query, QUERY_OPTION_KEYS, type QueryTerm, type QueryTerms } from './query_object.js';
import { type RunningSystem, ioPairs, mergeIo, runningSystem, usedAfterCall } from './system_io.js';
import { Commands } from './commands.js';
import { INSPECT } from './inspect.js';

/**
 * A query a system declares: its terms, plus `without`, `optional`, `tags`
 * as in World.query (`{ pos: Position.write, vel: Velocity.read, without: [Frozen] }`).
 */
export type SystemQueryDecl = {
  readonly [name: string]: QueryTerm | readonly AnyComponent[] | QueryTerms | undefined;
};
/** The terms of a declared query. */
export type DeclTerms<D> = { [K in keyof D as K extends 'without' | 'optional' | 'tags' ? never : K]: Extract<D[K], QueryTerm> };
/** The optional terms of a declared query. */
export type DeclOptional<D> = D extends { readonly optional: infer O extends QueryTerms } ? O : Record<never, never>;
/** The Query objects a system's ctx.queries holds. */
export type SystemQueries<Q> = { readonly [K in keyof Q]: Query<DeclTerms<Q[K]>, DeclOptional<Q[K]>> };

/** A system's PRNG substream (xorshift128+ of the core), valid during its run only. */
export interface SystemRng {
  /** The next 32 bits (the upper half of the next u64). */
  nextU32(): number;
  /** The next 64 bits. */
  nextU64(): bigint;
  /** Uniform integer in [min, max) (max exclusive; min < max, both u32). */
  nextRange(min: number, max: number): number;
  /** Uniform float in [0, 1) (24 bits, exact). */
  nextFloat01(): number;
}

/** What a TypeScript system's run receives; valid during the run only (a kept ctx throws afterwards). */
export interface SystemContext<Q = Record<never, never>> {
  /** The queries the system declared, by name (they run only inside this system's run). */
  readonly queries: Q;
  /** The world running the system. */
  readonly world: World;
  /** The system's id (dense from 1 in registration order). */
  readonly id: number;
  /** The system's name. */
  readonly name: string;
  /** The tick being run: completed runSystems calls + 1. */
  readonly tick: number;
  /** The tick's input payload (a copy; empty without input). */
  readonly input: Uint8Array;
  /** The system's PRNG substream; null when the world is not deterministic. */
  readonly rng: SystemRng | null;
  /** The system's command buffer: what it records applies right after its run, in recording order, under its io (docs/commands.md). */
  readonly commands: Commands;
  /** world.each on the running system's world. */
  each<const C extends readonly AnyComponent[], const A extends AccessList<C>>(
    components: C, access: A, fn: (e: Entity, ...refs: Refs<C, A>) => void): void;
  /** world.eachChunk on the running system's world. */
  eachChunk<const C extends readonly AnyComponent[]>(components: C, access: AccessList<C>, fn: (chunk: Chunk) => void): void;
}

/** A system definition for World.registerSystem. */
export interface SystemDef<Q extends { readonly [name: string]: SystemQueryDecl } = Record<never, never>> {
  /** Unique, non-empty; what other systems' dependsOn name. */
  name: string;
  /** The declared per-run budget in milliseconds (> 0): a run above it warns, 3x errors (docs/system_timing.md). */
  budgetMs: number;
  /**
   * Queries the system owns, by name (ctx.queries.<name>); their terms are
   * part of its io (write terms write; read, optional, tags and without
   * read).
   */
  queries?: Q;
  /** Component access beyond the queries' (for get/add/remove/destroy and field handles): [component, 'read' | 'write'] pairs. */
  io?: ReadonlyArray<readonly [AnyComponent, Access]>;
  /** Names of systems this one runs after (may be registered later). */
  dependsOn?: readonly string[];
  /** The body. Every access inside it is held to the system's io (system_io_violation). */
  run(ctx: SystemContext<SystemQueries<Q>>): void;
}

/** A registered system. */
export interface SystemHandle {
  readonly id: number;
  readonly name: string;
}

/** A registered system as the registry holds it. */
export interface SystemInfo extends SystemHandle {
  /** The declared budget (ms, as the Q16.16 value the core holds). */
  budgetMs: number;
  dependsOn: string[];
  io: Array<{ componentId: number; component: string; access: Access }>;
  /** True for a C++ system, false for a TypeScript one. */
  native: boolean;
}

/** A system's timing counters (SystemTimingStats). */
export interface SystemTimingStats {
  runs: number;
  lastMs: number;
  warns: number;
  errors: number;
}

/** A system's rolling timing window (64 samples). */
export interface SystemTimingWindow {
  count: number;
  totalRecorded: number;
  min: number;
  max: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  /** The samples in ms, oldest first. */
  samples: number[];
}

/** A system's PRNG substream state. */
export interface SystemRngState {
  id: number;
  hasSubstream: boolean;
  seed: bigint;
  state1: bigint;
  state2: bigint;
}

class Rng implements SystemRng {
  ptr: number;
  readonly #world: World;
  readonly #system: string;
  constructor(world: World, ptr: number, system: string) {
    this.#world = world;
    this.ptr = ptr;
    this.#system = system;
  }
  #p(where: string): number {
    // A draw changes the system's substream, which is world state (in the hash).
    if (logHandlers.depth !== 0) refuseInsideLog(`SystemRng.${where}`);
    if (this.ptr === 0) throw invalid(`SystemRng.${where}: the system run this rng belongs to has ended`, 'disposed', { where: `SystemRng.${where}`, object: 'SystemRng' });
    return this.ptr;
  }
  nextU32(): number {
    return this.#world._raw.prngNextU32(this.#p('nextU32'));
  }
  nextU64(): bigint {
    const m = this.#world._mem;
    this.#world._raw.prngNextU64(this.#p('nextU64'), m.out);
    return m.u64At(m.out);
  }
  nextRange(min: number, max: number): number {
    const p = this.#p('nextRange');
    for (const [k, v] of [['min', min], ['max', max]] as const) {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff) {
        throw invalid(`SystemRng.nextRange: ${k} must be an integer in 0..2^32-1, got ${describe(v)}`,
          typeof v === 'number' ? 'out_of_range' : 'wrong_type', { where: 'SystemRng.nextRange', field: k, got: typeof v === 'number' ? v : typeName(v) });
      }
    }
    if (min >= max) throw invalid(`SystemRng.nextRange: requires min < max (got ${min}, ${max})`, 'out_of_range', { where: 'SystemRng.nextRange', field: 'min', got: min, max });
    return this.#world._raw.prngNextRange(p, min, max);
  }
  nextFloat01(): number {
    return this.#world._raw.prngNextFloat01(this.#p('nextFloat01'));
  }

  /** "SystemRng(system 'Move')", or "(run ended)" once its run returned. */
  toString(): string {
    return `SystemRng(system '${this.#system}'${this.ptr === 0 ? ', run ended' : ''})`;
  }

  /** @internal util.inspect / console.log: toString(), not the internals (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }
}

/** What console.log, util.inspect and String() show of a SystemContext: "SystemContext(system 'Move' #2, tick 12)". */
function contextText(this: { name: string; id: number; tick: number }): string {
  return `SystemContext(system '${this.name}' #${this.id}, tick ${this.tick})`;
}

/** @internal The TypeScript half of a world's system registry. */
export class SystemRegistry {
  readonly #world: World;
  readonly #bodies = new Map<number, { name: string; run: (ctx: SystemContext<never>) => void; sys: RunningSystem; queries: Record<string, Query> }>();
  #error: unknown = undefined;
  #hasError = false;
  #clock: (() => number) | null = null;
  running = false;

  constructor(world: World) {
    this.#world = world;
  }

  register(def: SystemDef<never>): SystemHandle {
    const world = this.#world;
    const where = `World.registerSystem(${describe((def as { name?: unknown } | null)?.name)})`;
    const w = world._live(where);
    if (typeof def !== 'object' || def === null) throw invalid(`${where}: the definition must be an object, got ${describe(def)}`, 'wrong_type', { where, field: 'def', got: typeName(def) });
    const { name, budgetMs, io = [], dependsOn = [], run } = def;
    const queryDecls: unknown = (def as { queries?: unknown }).queries ?? {};
    checkName(where, 'system name', name, systemNameProblem(name), 'name_invalid');
    if (typeof budgetMs !== 'number' || !Number.isFinite(budgetMs) || budgetMs <= 0 || budgetMs >= 32768) {
      throw invalid(`${where}: budgetMs must be a finite number of milliseconds in (0, 32768), got ${describe(budgetMs)}`,
        typeof budgetMs === 'number' ? 'out_of_range' : 'wrong_type', { where, field: 'budgetMs', got: typeof budgetMs === 'number' ? budgetMs : typeName(budgetMs) });
    }
    const budgetRaw = fx.fromDouble(budgetMs);
    if (budgetRaw <= 0) throw invalid(`${where}: budgetMs ${budgetMs} rounds to 0 in Q16.16`, 'out_of_range', { where, field: 'budgetMs', got: budgetMs });
    if (typeof run !== 'function') throw invalid(`${where}: run must be a function, got ${describe(run)}`, 'wrong_type', { where, field: 'run', got: typeName(run) });
    if (!Array.isArray(dependsOn)) throw invalid(`${where}: dependsOn must be an array of system names, got ${describe(dependsOn)}`, 'wrong_type', { where, field: 'dependsOn', got: typeName(dependsOn) });
    if (dependsOn.length > 16) throw invalid(`${where}: at most 16 dependencies, got ${dependsOn.length}`, 'out_of_range', { where, field: 'dependsOn.length', got: dependsOn.length, max: 16 });
    for (const d of dependsOn as unknown[]) {
      checkName(where, 'dependsOn entry', d, systemNameProblem(d), 'dep_spec_invalid');
    }
    if (typeof queryDecls !== 'object' || queryDecls === null || Array.isArray(queryDecls)) {
      throw invalid(`${where}: queries must be an object of named query declarations, got ${describe(queryDecls)}`, 'wrong_type', { where, field: 'queries', got: typeName(queryDecls) });
    }
    const declared = ioPairs(world, where, io);
    const record = runningSystem(name, []);
    const queries: Record<string, Query> = {};
    const derived: Array<[AnyComponent, Access]> = [];
    for (const [qname, decl] of Object.entries(queryDecls as Record<string, unknown>)) {
      if (typeof decl !== 'object' || decl === null || Array.isArray(decl)) throw invalid(`${where}: queries.${qname} must be an object of terms, got ${describe(decl)}`, 'wrong_type', { where, field: `queries.${qname}`, got: typeName(decl) });
      const terms: Record<string, unknown> = {};
      const opts: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(decl)) (QUERY_OPTION_KEYS.has(k) ? opts : terms)[k] = v;
      const q = new Query(world, `${where}: queries.${qname}`, terms, opts, false, record);
      queries[qname] = q;
      derived.push(...q._accesses());
    }
    const all = mergeIo(declared, derived);
    record.io.set(runningSystem(name, all).io); // the queries' owner is the record the dispatcher installs
    const m = world._mem;
    const ids = m.scratch >>> 2;
    const acc = m.scratch + 1024;
    for (let i = 0; i < all.length; i++) {
      m.u32[ids + i] = all[i]![0].id;
      m.u8[acc + i] = all[i]![1] === 'write' ? 1 : 0;
    }
    const code = world._raw.worldRegisterSystem(w, name, budgetRaw, dependsOn.join(','), m.scratch, acc, all.length, m.out);
    m.sync();
    check(code, where);
    const id = m.u32[m.out >>> 2]!;
    this.#bodies.set(id, { name, run: run as (ctx: SystemContext<never>) => void, sys: record, queries: Object.freeze(queries) });
    return Object.freeze({ id, name });
  }

  /** Every scheduling goes through here (World.scheduleSystems, and a loop, a session or runSystems scheduling first). */
  schedule(): number[] {
    const world = this.#world;
    if (logHandlers.depth !== 0) refuseInsideLog('World.scheduleSystems');
    const w = world._live('World.scheduleSystems');
    if (this.running) {
      // The core walks the world's schedule during the tick: rescheduling
      // now would rewrite it under the running runSystems.
      throw invalid('World.scheduleSystems: called inside a tick (from a system, the timing clock or a loop callback); schedule before or after the tick',
        'schedule_inside_tick', { callback: world._calls.innermost ?? 'system' });
    }
    const code = world._raw.worldScheduleSystems(w);
    world._mem.sync();
    check(code, 'World.scheduleSystems');
    const order = world._raw.worldScheduleOrder(w);
    world._mem.sync();
    return order;
  }

  /** @internal Schedules when systems were registered since the last schedule. */
  ensureScheduled(): void {
    const world = this.#world;
    if (world._raw.worldScheduledCount(world._ptr) !== world._raw.worldSystemCount(world._ptr)) this.schedule();
  }

  run(input?: Uint8Array): void {
    const world = this.#world;
    const where = 'World.runSystems';
    const w = world._live(where);
    if (input !== undefined && !(input instanceof Uint8Array)) throw invalid(`${where}: input must be a Uint8Array, got ${describe(input)}`, 'wrong_type', { where, field: 'input', got: typeName(input) });
    if (input !== undefined && input.length > 1 << 20) throw invalid(`${where}: input is over 1 MiB (${input.length} bytes)`, 'out_of_range', { where, field: 'input.length', got: input.length, max: 1 << 20 });
    refuseTickInside(where, world._calls, this.running);
    this.ensureScheduled();
    const m = world._mem;
    let ptr = 0;
    const size = input?.length ?? 0;
    if (size > 0) ptr = m.copyIn(input!);
    let code: number;
    try {
      code = this.guard(() => world._raw.worldRunSystems(w, ptr, size));
    } finally {
      if (ptr !== 0) world._raw._free(ptr);
    }
    check(code, where);
  }

  /** @internal Runs a C++ call that may run TS systems; rethrows the first system error after it returned. */
  guard<T>(call: () => T): T {
    this.running = true;
    this.#hasError = false;
    this.#error = undefined;
    let result: T;
    try {
      result = call();
    } finally {
      this.running = false;
      this.#world._mem.sync();
    }
    if (this.#hasError) {
      const e = this.#error;
      this.#hasError = false;
      this.#error = undefined;
      throw e;
    }
    return result;
  }

  /** @internal Called by the C++ trampoline (through Laige). Never throws. */
  dispatch(id: number, tick: number, rngPtr: number, inputPtr: number, inputSize: number): void {
    const world = this.#world;
    const body = this.#bodies.get(id);
    if (body === undefined) return;
    if (this.#hasError) return; // a system of this tick threw: the remaining TS systems do not run
    const m = world._mem;
    m.sync();
    const rng = rngPtr === 0 ? null : new Rng(world, rngPtr, body.name);
    const input = inputSize === 0 ? new Uint8Array(0) : m.u8.slice(inputPtr, inputPtr + inputSize);
    let live = true;
    const alive = (where: string): void => {
      if (!live) throw usedAfterCall(`SystemContext.${where}`, 'SystemContext', `SystemContext.${where}: the run of system '${body.name}' this ctx belongs to has returned (use ctx during its run only)`);
    };
    const commands = new Commands(world, `run of system '${body.name}'`);
    const ctx = {
      world, id, name: body.name, tick, input, rng,
      get queries() {
        alive('queries');
        return body.queries;
      },
      get commands() {
        alive('commands');
        return commands;
      },
      each: (components, access, fn) => {
        alive('each');
        world.each(components, access, fn);
      },
      eachChunk: (components, access, fn) => {
        alive('eachChunk');
        world.eachChunk(components, access, fn);
      },
      toString: contextText,
      [INSPECT]: contextText,
    } as SystemContext<Record<string, Query>>;
    const outer = world._sys;
    world._sys = body.sys;
    disableFastTables(world._fast); // reads inside a system take the checked path (its io); refilled on the next read after it
    world._calls.enter('system');
    try {
      body.run(ctx as unknown as SystemContext<never>);
    } catch (e) {
      this.#hasError = true;
      this.#error = e;
    } finally {
      live = false;
      commands._close();
      world._sys = outer;
      world._calls.leave();
      if (rng !== null) rng.ptr = 0;
      m.sync();
    }
  }

  /** @internal True while a system error of the current guarded call waits to be rethrown. */
  get hasError(): boolean {
    return this.#hasError;
  }

  /** @internal */
  recordError(e: unknown): void {
    if (!this.#hasError) {
      this.#hasError = true;
      this.#error = e;
    }
  }

  #id(where: string, system: unknown): number {
    const world = this.#world;
    if (typeof system === 'object' && system !== null && typeof (system as SystemHandle).id === 'number') {
      system = (system as SystemHandle).id;
    }
    if (typeof system === 'string') {
      const n = world._raw.worldSystemCount(world._ptr);
      for (let id = 1; id <= n; id++) {
        const info = world._raw.worldSystemInfo(world._ptr, id);
        if (info !== null && info.name === system) return id;
      }
      throw invalid(`${where}: no system named ${describe(system)}`, 'system_unknown', { where, system });
    }
    if (typeof system !== 'number' || !Number.isInteger(system) || system < 1) {
      throw invalid(`${where}: expected a system id, name or handle, got ${describe(system)}`,
        typeof system === 'number' ? 'out_of_range' : 'wrong_type', { where, field: 'system', got: typeof system === 'number' ? system : typeName(system) });
    }
    return system;
  }

  infos(): SystemInfo[] {
    const world = this.#world;
    const w = world._live('World.systems');
    const n = world._raw.worldSystemCount(w);
    const out: SystemInfo[] = [];
    for (let id = 1; id <= n; id++) {
      const r = world._raw.worldSystemInfo(w, id);
      if (r === null) continue;
      out.push({
        id: r.id, name: r.name, budgetMs: fx.toDouble(r.budgetRaw), native: r.native,
        dependsOn: r.dependsOn.split(',').map((s) => s.trim()).filter((s) => s.length > 0),
        io: r.io.map(([c, a]) => ({ componentId: c, component: world._components[c]?.name ?? '', access: a === 1 ? 'write' : 'read' })),
      });
    }
    world._mem.sync();
    return out;
  }

  timingStats(system: unknown): SystemTimingStats {
    const world = this.#world;
    const where = 'World.systemTimingStats';
    const w = world._live(where);
    const id = this.#id(where, system);
    const m = world._mem;
    check(world._raw.worldSystemTimingStats(w, id, m.out), where);
    return readSystemTimingStats(m.f64, m.out >>> 3);
  }

  timingWindow(system: unknown): SystemTimingWindow {
    const world = this.#world;
    const where = 'World.systemTimingWindow';
    const w = world._live(where);
    const id = this.#id(where, system);
    const m = world._mem;
    check(world._raw.worldSystemTimingWindow(w, id, m.scratch, 64), where);
    const o = m.scratch >>> 3;
    const stats = readHistogramStats(m.f64, o);
    const samples: number[] = [];
    for (let i = 0; i < stats.count && i < 64; i++) samples.push(m.f64[o + HistogramStatsLayout.size + i]!);
    return { ...stats, samples };
  }

  rngState(system: unknown): SystemRngState {
    const world = this.#world;
    const where = 'World.systemRngState';
    const w = world._live(where);
    const id = this.#id(where, system);
    const m = world._mem;
    check(world._raw.worldSystemRngState(w, id, m.out), where);
    return {
      id: m.u32[m.out >>> 2]!, hasSubstream: m.u32[(m.out >>> 2) + 1] === 1,
      seed: m.u64At(m.out + 8), state1: m.u64At(m.out + 16), state2: m.u64At(m.out + 24),
    };
  }

  setClock(nowNs: (() => number) | null): void {
    const world = this.#world;
    const w = world._live('World.setTimingClock');
    if (nowNs !== null && typeof nowNs !== 'function') throw invalid(`World.setTimingClock: expected a function returning ns, or null, got ${describe(nowNs)}`, 'wrong_type', { where: 'World.setTimingClock', field: 'nowNs', got: typeName(nowNs) });
    this.#clock = nowNs;
    world._raw.worldSetJsTimingClock(w, nowNs !== null);
  }

  /** @internal Called by the C++ clock hook. Never throws. */
  clockNs(): number {
    if (this.#clock === null) return 0;
    this.#world._calls.enter('clock');
    try {
      const v = this.#clock();
      return typeof v === 'number' && Number.isFinite(v) ? Math.floor(v) : 0;
    } catch (e) {
      this.recordError(e);
      return 0;
    } finally {
      this.#world._calls.leave();
    }
  }
}

