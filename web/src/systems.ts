// systems.ts - systems written in TypeScript (DESIGN.md decision 6). They
// live in the world's C++ registry next to native systems: one C++
// trampoline calls back into JS with (world, system id), so schedule,
// budgets, timing and PRNG substreams are the core's. A JS exception never
// unwinds through C++: the trampoline catches it, records it, and the
// runSystems call that caused it rethrows after the C++ call returned.
import type { Access } from './component.js';
import { LaigeError, check, invalid } from './errors.js';
import { fx } from './fx.js';
import { describe } from './schema.js';
import { refuseTickInside } from './reentrancy.js';
import { checkName, systemNameProblem } from './names.js';
import type { AccessList, AnyComponent, Chunk, Refs, World } from './world.js';
import type { Entity } from './entity.js';

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

/** What a TypeScript system's run receives; valid during the run only. */
export interface SystemContext {
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
  /** world.each on the running system's world. */
  each<const C extends readonly AnyComponent[], const A extends AccessList<C>>(
    components: C, access: A, fn: (e: Entity, ...refs: Refs<C, A>) => void): void;
  /** world.eachChunk on the running system's world. */
  eachChunk<const C extends readonly AnyComponent[]>(components: C, access: AccessList<C>, fn: (chunk: Chunk) => void): void;
}

/** A system definition for World.registerSystem. */
export interface SystemDef {
  /** Unique, non-empty; what other systems' dependsOn name. */
  name: string;
  /** The declared per-run budget in milliseconds (> 0): a run above it warns, 3x errors (seed 002). */
  budgetMs: number;
  /** Declared component access: [component, 'read' | 'write'] pairs. */
  io?: ReadonlyArray<readonly [AnyComponent, Access]>;
  /** Names of systems this one runs after (may be registered later). */
  dependsOn?: readonly string[];
  /** The body. */
  run(ctx: SystemContext): void;
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
  constructor(world: World, ptr: number) {
    this.#world = world;
    this.ptr = ptr;
  }
  #p(where: string): number {
    if (this.ptr === 0) throw invalid(`SystemRng.${where}: the system run this rng belongs to has ended`);
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
        throw invalid(`SystemRng.nextRange: ${k} must be an integer in 0..2^32-1, got ${describe(v)}`);
      }
    }
    if (min >= max) throw invalid(`SystemRng.nextRange: requires min < max (got ${min}, ${max})`);
    return this.#world._raw.prngNextRange(p, min, max);
  }
  nextFloat01(): number {
    return this.#world._raw.prngNextFloat01(this.#p('nextFloat01'));
  }
}

/** @internal The TypeScript half of a world's system registry. */
export class SystemRegistry {
  readonly #world: World;
  readonly #bodies = new Map<number, { name: string; run: (ctx: SystemContext) => void }>();
  #error: unknown = undefined;
  #hasError = false;
  #clock: (() => number) | null = null;
  running = false;

  constructor(world: World) {
    this.#world = world;
  }

  register(def: SystemDef): SystemHandle {
    const world = this.#world;
    const where = `World.registerSystem(${describe((def as { name?: unknown } | null)?.name)})`;
    const w = world._live(where);
    if (typeof def !== 'object' || def === null) throw invalid(`${where}: the definition must be an object`);
    const { name, budgetMs, io = [], dependsOn = [], run } = def;
    checkName(where, 'system name', name, systemNameProblem(name), 'name_invalid');
    if (typeof budgetMs !== 'number' || !Number.isFinite(budgetMs) || budgetMs <= 0 || budgetMs >= 32768) {
      throw invalid(`${where}: budgetMs must be a finite number of milliseconds in (0, 32768), got ${describe(budgetMs)}`);
    }
    const budgetRaw = fx.fromDouble(budgetMs);
    if (budgetRaw <= 0) throw invalid(`${where}: budgetMs ${budgetMs} rounds to 0 in Q16.16`);
    if (typeof run !== 'function') throw invalid(`${where}: run must be a function`);
    if (!Array.isArray(dependsOn)) throw invalid(`${where}: dependsOn must be an array of system names`);
    if (dependsOn.length > 16) throw invalid(`${where}: at most 16 dependencies`);
    for (const d of dependsOn as unknown[]) {
      checkName(where, 'dependsOn entry', d, systemNameProblem(d), 'dep_spec_invalid');
    }
    if (!Array.isArray(io)) throw invalid(`${where}: io must be an array of [component, 'read' | 'write'] pairs`);
    if (io.length > 256) throw invalid(`${where}: too many io entries`);
    const m = world._mem;
    const ids = m.scratch >>> 2;
    const acc = m.scratch + 1024;
    for (let i = 0; i < io.length; i++) {
      const pair: unknown = io[i];
      if (!Array.isArray(pair) || pair.length !== 2) throw invalid(`${where}: io[${i}] must be [component, 'read' | 'write']`);
      const c = world._component(where, pair[0], 'io', i);
      const a: unknown = pair[1];
      if (a !== 'read' && a !== 'write') throw invalid(`${where}: io[${i}] access must be 'read' or 'write', got ${describe(a)}`);
      m.u32[ids + i] = c.id;
      m.u8[acc + i] = a === 'write' ? 1 : 0;
    }
    const code = world._raw.worldRegisterSystem(w, name, budgetRaw, dependsOn.join(','), m.scratch, acc, io.length, m.out);
    m.sync();
    if (code !== 0) {
      throw new LaigeError(code, `${where}: rejected by the registry (duplicate name, a component declared twice, or ${code === 4 ? 'the 256-system budget' : 'an invalid definition'})`);
    }
    const id = m.u32[m.out >>> 2]!;
    this.#bodies.set(id, { name, run });
    return Object.freeze({ id, name });
  }

  schedule(): number[] {
    const world = this.#world;
    const w = world._live('World.scheduleSystems');
    if (this.running) {
      // The core walks the world's schedule during the tick: rescheduling
      // now would rewrite it under the running runSystems.
      throw invalid('World.scheduleSystems: called inside a tick (from a system, the timing clock or a loop callback); schedule before or after the tick',
        'schedule_inside_tick', { callback: world._calls.innermost ?? 'system' });
    }
    const code = world._raw.worldScheduleSystems(w);
    world._mem.sync();
    check(code, 'World.scheduleSystems: a dependency is missing, the dependencies form a cycle, or two systems declare the same component write (see the log)');
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
    if (input !== undefined && !(input instanceof Uint8Array)) throw invalid(`${where}: input must be a Uint8Array, got ${describe(input)}`);
    if (input !== undefined && input.length > 1 << 20) throw invalid(`${where}: input is over 1 MiB`);
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
    check(code, `${where}: the tick was rejected (see the log)`);
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
    const rng = rngPtr === 0 ? null : new Rng(world, rngPtr);
    const input = inputSize === 0 ? new Uint8Array(0) : m.u8.slice(inputPtr, inputPtr + inputSize);
    const ctx: SystemContext = {
      world, id, name: body.name, tick, input, rng,
      each: (components, access, fn) => world.each(components, access, fn),
      eachChunk: (components, access, fn) => world.eachChunk(components, access, fn),
    };
    world._calls.enter('system');
    try {
      body.run(ctx);
    } catch (e) {
      this.#hasError = true;
      this.#error = e;
    } finally {
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
      throw invalid(`${where}: no system named ${describe(system)}`);
    }
    if (typeof system !== 'number' || !Number.isInteger(system) || system < 1) {
      throw invalid(`${where}: expected a system id, name or handle, got ${describe(system)}`);
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
    check(world._raw.worldSystemTimingStats(w, id, m.out), `${where}: no system ${id}`);
    const o = m.out >>> 3;
    return { runs: m.f64[o]!, lastMs: m.f64[o + 1]!, warns: m.f64[o + 2]!, errors: m.f64[o + 3]! };
  }

  timingWindow(system: unknown): SystemTimingWindow {
    const world = this.#world;
    const where = 'World.systemTimingWindow';
    const w = world._live(where);
    const id = this.#id(where, system);
    const m = world._mem;
    check(world._raw.worldSystemTimingWindow(w, id, m.scratch, 64), `${where}: no system ${id}`);
    const o = m.scratch >>> 3;
    const f = m.f64;
    const count = f[o]!;
    const samples: number[] = [];
    for (let i = 0; i < count && i < 64; i++) samples.push(f[o + 8 + i]!);
    return {
      count, totalRecorded: f[o + 1]!, min: f[o + 2]!, max: f[o + 3]!, mean: f[o + 4]!,
      p50: f[o + 5]!, p95: f[o + 6]!, p99: f[o + 7]!, samples,
    };
  }

  rngState(system: unknown): SystemRngState {
    const world = this.#world;
    const where = 'World.systemRngState';
    const w = world._live(where);
    const id = this.#id(where, system);
    const m = world._mem;
    check(world._raw.worldSystemRngState(w, id, m.out), `${where}: no system ${id}`);
    return {
      id: m.u32[m.out >>> 2]!, hasSubstream: m.u32[(m.out >>> 2) + 1] === 1,
      seed: m.u64At(m.out + 8), state1: m.u64At(m.out + 16), state2: m.u64At(m.out + 24),
    };
  }

  setClock(nowNs: (() => number) | null): void {
    const world = this.#world;
    const w = world._live('World.setTimingClock');
    if (nowNs !== null && typeof nowNs !== 'function') throw invalid(`World.setTimingClock: expected a function returning ns, or null`);
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

