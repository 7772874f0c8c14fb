// systems.ts - systems written in TypeScript (docs/typescript.md). They
// live in the world's C++ registry next to native systems: one C++
// trampoline calls back into JS with (world, system id), so schedule,
// budgets, timing and PRNG substreams are the core's. A JS exception never
// unwinds through C++: the trampoline catches it, records it, and the
// runSystems call that caused it rethrows after the C++ call returned.
import { HistogramStatsLayout, readHistogramStats, readSystemTimingStats } from '../boundary/layouts.gen.js';
import type { Access } from '../component/component.js';
import { check, invalid, typeName } from '../base/errors.js';
import { fx } from '../math/fx.js';
import { describe } from '../base/describe.js';
import { checkArg } from '../base/args.js';
import { logHandlers, refuseInsideLog, refuseTickInside } from '../base/reentrancy.js';
import { checkName, systemNameProblem } from '../component/names.js';
import type { AnyComponent } from '../world_types.js';
import type { WorldCore, RunningSystem } from '../core/world_core.js';
import type { SystemHandle, SystemInfo, SystemRng, SystemRngState, SystemTimingStats, SystemTimingWindow } from './system_types.js';
import { runEach, runEachChunk } from '../query/world_each.js';
import type { Chunk } from '../query/chunk.js';
import { disableFastTables } from '../core/slot_tables.js';
import { Query, QUERY_OPTION_KEYS } from '../query/query.js';
import { ioPairs, mergeIo, runningSystem, usedAfterCall } from './system_io.js';
import { Commands } from './commands.js';
import { INSPECT } from '../base/inspect.js';
import { eachRemoved } from '../changes/observers.js';

export type {
  SystemQueryDecl, DeclTerms, DeclOptional, SystemQueries, SystemRng, SystemHandle, SystemInfo, SystemTimingStats, SystemTimingWindow, SystemRngState,
} from './system_types.js';

class Rng implements SystemRng {
  ptr: number;
  readonly #world: WorldCore;
  readonly #system: string;
  constructor(world: WorldCore, ptr: number, system: string) {
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
    return this.#world.raw.prngNextU32(this.#p('nextU32'));
  }
  nextU64(): bigint {
    const m = this.#world.mem;
    this.#world.raw.prngNextU64(this.#p('nextU64'), m.out);
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
    return this.#world.raw.prngNextRange(p, min, max);
  }
  nextFloat01(): number {
    return this.#world.raw.prngNextFloat01(this.#p('nextFloat01'));
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

/** What a system's run receives, as the registry builds it (world.ts types it as SystemContext). */
type RunContext = Record<string, unknown>;
/** A system definition as registered (world.ts types it as SystemDef; every field is checked here). */
type RunDef = {
  readonly name: string; readonly budgetMs: number; readonly io?: ReadonlyArray<readonly [AnyComponent, Access]>;
  readonly dependsOn?: readonly string[]; readonly run: (ctx: RunContext) => void;
};

/** @internal The TypeScript half of a world's system registry. */
export class SystemRegistry {
  readonly #world: WorldCore;
  readonly #bodies = new Map<number, { name: string; run: (ctx: RunContext) => void; sys: RunningSystem; queries: Record<string, Query> }>();
  #error: unknown = undefined;
  #hasError = false;
  #clock: (() => number) | null = null;
  running = false;

  constructor(world: WorldCore) {
    this.#world = world;
  }

  register(def: unknown): SystemHandle {
    const world = this.#world;
    const where = `World.registerSystem(${describe((def as { name?: unknown } | null)?.name)})`;
    const w = world.live(where);
    if (typeof def !== 'object' || def === null) throw invalid(`${where}: the definition must be an object, got ${describe(def)}`, 'wrong_type', { where, field: 'def', got: typeName(def) });
    const { name, budgetMs, io = [], dependsOn = [], run } = def as RunDef;
    const queryDecls: unknown = (def as { queries?: unknown }).queries ?? {};
    checkName(where, 'system name', name, systemNameProblem(name), 'name_invalid');
    if (typeof budgetMs !== 'number' || !Number.isFinite(budgetMs) || budgetMs <= 0 || budgetMs >= 32768) {
      throw invalid(`${where}: budgetMs must be a finite number of milliseconds in (0, 32768), got ${describe(budgetMs)}`,
        typeof budgetMs === 'number' ? 'out_of_range' : 'wrong_type', { where, field: 'budgetMs', got: typeof budgetMs === 'number' ? budgetMs : typeName(budgetMs) });
    }
    const budgetRaw = fx.fromDouble(budgetMs);
    if (budgetRaw <= 0) throw invalid(`${where}: budgetMs ${budgetMs} rounds to 0 in Q16.16`, 'out_of_range', { where, field: 'budgetMs', got: budgetMs });
    checkArg(where, 'run', run, { type: 'function' });
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
    const m = world.mem;
    const ids = m.scratch >>> 2;
    const acc = m.scratch + 1024;
    for (let i = 0; i < all.length; i++) {
      m.u32[ids + i] = all[i]![0].id;
      m.u8[acc + i] = all[i]![1] === 'write' ? 1 : 0;
    }
    const code = world.raw.worldRegisterSystem(w, name, budgetRaw, dependsOn.join(','), m.scratch, acc, all.length, m.out);
    m.sync();
    check(code, where);
    const id = m.u32[m.out >>> 2]!;
    this.#bodies.set(id, { name, run: run as (ctx: RunContext) => void, sys: record, queries: Object.freeze(queries) });
    return Object.freeze({ id, name });
  }

  /** Every scheduling goes through here (World.scheduleSystems, and a loop, a session or runSystems scheduling first). */
  schedule(): number[] {
    const world = this.#world;
    if (logHandlers.depth !== 0) refuseInsideLog('World.scheduleSystems');
    const w = world.live('World.scheduleSystems');
    if (this.running) {
      // The core walks the world's schedule during the tick: rescheduling
      // now would rewrite it under the running runSystems.
      throw invalid('World.scheduleSystems: called inside a tick (from a system, the timing clock or a loop callback); schedule before or after the tick',
        'schedule_inside_tick', { callback: world.calls.innermost ?? 'system' });
    }
    const code = world.raw.worldScheduleSystems(w);
    world.mem.sync();
    check(code, 'World.scheduleSystems');
    const order = world.raw.worldScheduleOrder(w);
    world.mem.sync();
    return order;
  }

  /** @internal Schedules when systems were registered since the last schedule. */
  ensureScheduled(): void {
    const world = this.#world;
    if (world.raw.worldScheduledCount(world.ptr) !== world.raw.worldSystemCount(world.ptr)) this.schedule();
  }

  run(input?: Uint8Array): void {
    const world = this.#world;
    const where = 'World.runSystems';
    const w = world.live(where);
    if (input !== undefined) checkArg(where, 'input', input, { type: 'bytes' });
    if (input !== undefined && input.length > 1 << 20) throw invalid(`${where}: input is over 1 MiB (${input.length} bytes)`, 'out_of_range', { where, field: 'input.length', got: input.length, max: 1 << 20 });
    refuseTickInside(where, world.calls, this.running);
    this.ensureScheduled();
    const m = world.mem;
    let ptr = 0;
    const size = input?.length ?? 0;
    if (size > 0) ptr = m.copyIn(input!);
    let code: number;
    try {
      code = this.guard(() => world.raw.worldRunSystems(w, ptr, size));
    } finally {
      if (ptr !== 0) world.raw._free(ptr);
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
      this.#world.mem.sync();
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
    const m = world.mem;
    m.sync();
    const rng = rngPtr === 0 ? null : new Rng(world, rngPtr, body.name);
    const input = inputSize === 0 ? new Uint8Array(0) : m.u8.slice(inputPtr, inputPtr + inputSize);
    let live = true;
    const alive = (where: string): void => {
      if (!live) throw usedAfterCall(`SystemContext.${where}`, 'SystemContext', `SystemContext.${where}: the run of system '${body.name}' this ctx belongs to has returned (use ctx during its run only)`);
    };
    const commands = new Commands(world, `run of system '${body.name}'`);
    const ctx: RunContext = {
      world: world.facade, id, name: body.name, tick, input, rng,
      get queries() {
        alive('queries');
        return body.queries;
      },
      get commands() {
        alive('commands');
        return commands;
      },
      each: (components: unknown, access: unknown, fn: (...args: unknown[]) => void) => {
        alive('each');
        if (logHandlers.depth !== 0) refuseInsideLog('World.each');
        runEach(world, components, access, fn);
      },
      eachChunk: (components: unknown, access: unknown, fn: (chunk: Chunk) => void) => {
        alive('eachChunk');
        if (logHandlers.depth !== 0) refuseInsideLog('World.eachChunk');
        runEachChunk(world, components, access, fn);
      },
      removed: (c: unknown, fn: unknown) => {
        alive('removed');
        eachRemoved(world, c, fn);
      },
      toString: contextText,
      [INSPECT]: contextText,
    };
    const outer = world.sys;
    world.sys = body.sys;
    disableFastTables(world.fast); // reads inside a system take the checked path (its io); refilled on the next read after it
    world.calls.enter('system');
    try {
      body.run(ctx);
    } catch (e) {
      this.#hasError = true;
      this.#error = e;
    } finally {
      live = false;
      commands._close();
      world.sys = outer;
      world.calls.leave();
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
      const n = world.raw.worldSystemCount(world.ptr);
      for (let id = 1; id <= n; id++) {
        const info = world.raw.worldSystemInfo(world.ptr, id);
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
    const w = world.live('World.systems');
    const n = world.raw.worldSystemCount(w);
    const out: SystemInfo[] = [];
    for (let id = 1; id <= n; id++) {
      const r = world.raw.worldSystemInfo(w, id);
      if (r === null) continue;
      out.push({
        id: r.id, name: r.name, budgetMs: fx.toDouble(r.budgetRaw), native: r.native,
        dependsOn: r.dependsOn.split(',').map((s) => s.trim()).filter((s) => s.length > 0),
        io: r.io.map(([c, a]) => ({ componentId: c, component: world.components[c]?.name ?? '', access: a === 1 ? 'write' : 'read' })),
      });
    }
    world.mem.sync();
    return out;
  }

  timingStats(system: unknown): SystemTimingStats {
    const world = this.#world;
    const where = 'World.systemTimingStats';
    const w = world.live(where);
    const id = this.#id(where, system);
    const m = world.mem;
    check(world.raw.worldSystemTimingStats(w, id, m.out), where);
    return readSystemTimingStats(m.f64, m.out >>> 3);
  }

  timingWindow(system: unknown): SystemTimingWindow {
    const world = this.#world;
    const where = 'World.systemTimingWindow';
    const w = world.live(where);
    const id = this.#id(where, system);
    const m = world.mem;
    check(world.raw.worldSystemTimingWindow(w, id, m.scratch, 64), where);
    const o = m.scratch >>> 3;
    const stats = readHistogramStats(m.f64, o);
    const samples: number[] = [];
    for (let i = 0; i < stats.count && i < 64; i++) samples.push(m.f64[o + HistogramStatsLayout.size + i]!);
    return { ...stats, samples };
  }

  rngState(system: unknown): SystemRngState {
    const world = this.#world;
    const where = 'World.systemRngState';
    const w = world.live(where);
    const id = this.#id(where, system);
    const m = world.mem;
    check(world.raw.worldSystemRngState(w, id, m.out), where);
    return {
      id: m.u32[m.out >>> 2]!, hasSubstream: m.u32[(m.out >>> 2) + 1] === 1,
      seed: m.u64At(m.out + 8), state1: m.u64At(m.out + 16), state2: m.u64At(m.out + 24),
    };
  }

  setClock(nowNs: (() => number) | null): void {
    const world = this.#world;
    const w = world.live('World.setTimingClock');
    if (nowNs !== null && typeof nowNs !== 'function') throw invalid(`World.setTimingClock: expected a function returning ns, or null, got ${describe(nowNs)}`, 'wrong_type', { where: 'World.setTimingClock', field: 'nowNs', got: typeName(nowNs) });
    this.#clock = nowNs;
    world.raw.worldSetJsTimingClock(w, nowNs !== null);
  }

  /** @internal Called by the C++ clock hook. Never throws. */
  clockNs(): number {
    if (this.#clock === null) return 0;
    this.#world.calls.enter('clock');
    try {
      const v = this.#clock();
      return typeof v === 'number' && Number.isFinite(v) ? Math.floor(v) : 0;
    } catch (e) {
      this.recordError(e);
      return 0;
    } finally {
      this.#world.calls.leave();
    }
  }
}

