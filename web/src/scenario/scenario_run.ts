// scenario_run.ts - a built-in C++ scenario run stepped from TypeScript
// (sim.openScenario): the same ScenarioRun laige-detcheck steps, inside a
// World TypeScript can read.
import { coreError, invalid, typeName } from '../base/errors.js';
import { describe } from '../base/describe.js';
import { logHandlers, refuseInsideLog, refuseTickInside } from '../base/reentrancy.js';
import { INSPECT } from '../base/inspect.js';
import type { LaigeRawModule, Mem } from '../boundary/raw.js';
import { type WorldCore, coreOf } from '../core/world_core.js';
import type { World } from '../world.js';

/** @internal What a run needs of its module (Laige implements it). */
export interface ScenarioHost {
  readonly raw: LaigeRawModule;
  readonly mem: Mem;
}

/** A built-in scenario (cpp/scenarios). */
export interface ScenarioInfo {
  name: string;
  description: string;
  defaultSeed: bigint;
  defaultTicks: number;
  tickRateHz: number;
  capacity: number;
  churnPerFrameBudget: number;
  math: 'fixed_point_16_16' | 'float_pinned_32';
}

/**
 * A C++ scenario run stepped from TypeScript (sim.openScenario): the same
 * ScenarioRun laige-detcheck steps, inside a World TypeScript can read
 * (entityCount, component(name), each, stateDiff, systemTimingStats...).
 * Step it tick by tick with step(), or drive it with
 * `sim.createGameLoop(run, ...)`; both advance the same tick count.
 */
export class ScenarioRun implements Disposable {
  readonly #core: WorldCore;
  /** The scenario's name. */
  readonly name: string;
  /** The seed the run was opened with. */
  readonly seed: bigint;
  /** The scenario. */
  readonly info: ScenarioInfo;
  /** The run's world (read it; its components and schedule belong to the scenario). */
  readonly world: World;
  readonly #sim: ScenarioHost;

  /** @internal Use sim.openScenario. */
  constructor(sim: ScenarioHost, info: ScenarioInfo, seed: bigint, world: World) {
    const core = coreOf(world)!;
    this.#core = core;
    this.#sim = sim;
    this.info = info;
    this.name = info.name;
    this.seed = seed;
    this.world = world;
  }

  // The run's world, or `disposed` naming the run (its world dies with it).
  #live(where: string): number {
    if (this.world.disposed) throw invalid(`${where}: the scenario run is disposed`, 'disposed', { where, object: 'ScenarioRun' });
    return this.#core.ptr;
  }

  /** Completed ticks (0 right after setup). */
  get tick(): number {
    return this.#sim.raw.scenarioTick(this.#live('ScenarioRun.tick'));
  }

  /**
   * Runs the next tick. Without `input`: with the scenario's own generated
   * input (the golden stream). With `input`: that payload instead (an empty
   * array = no payload), e.g. swarm's attractor (8 bytes: int32 x, y, Q16.16, little-endian).
   */
  step(input?: Uint8Array): void {
    const where = `ScenarioRun(${this.name}).step`;
    const w = this.#live(where);
    if (input !== undefined && !(input instanceof Uint8Array)) throw invalid(`${where}: input must be a Uint8Array, got ${describe(input)}`, 'wrong_type', { where, field: 'input', got: typeName(input) });
    if (input !== undefined && input.length > 1 << 20) throw invalid(`${where}: input is over 1 MiB (${input.length} bytes)`, 'out_of_range', { where, field: 'input.length', got: input.length, max: 1 << 20 });
    refuseTickInside(where, this.#core.calls, this.#core.systems.running);
    const m = this.#sim.mem;
    const size = input?.length ?? 0;
    const ptr = size > 0 ? m.copyIn(input!) : 0;
    let code: number;
    try {
      code = this.#sim.raw.scenarioStep(w, input !== undefined, ptr, size);
    } finally {
      if (ptr !== 0) this.#sim.raw._free(ptr);
    }
    m.sync();
    if (code !== 0) throw coreError(code, where);
  }

  /** The payload the scenario's generator writes for `tick` (empty when it writes none). */
  generatedInput(tick: number): Uint8Array {
    const where = `ScenarioRun(${this.name}).generatedInput`;
    const w = this.#live(where);
    if (typeof tick !== 'number' || !Number.isSafeInteger(tick) || tick < 1) {
      throw invalid(`${where}: tick must be an integer >= 1, got ${describe(tick)}`, typeof tick === 'number' ? 'out_of_range' : 'wrong_type',
        { where, field: 'tick', got: typeof tick === 'number' ? tick : typeName(tick), min: 1 });
    }
    const r = this.#sim.raw.scenarioGeneratedInput(w, tick);
    this.#sim.mem.sync();
    return r;
  }

  /** World::stateHash(tick): this tick's line of the scenario's stream. */
  stateHash(): bigint {
    if (logHandlers.depth !== 0) refuseInsideLog(`ScenarioRun(${this.name}).stateHash`);
    const w = this.#live(`ScenarioRun(${this.name}).stateHash`);
    const m = this.#sim.mem;
    this.#sim.raw.scenarioHash(w, m.out);
    m.sync();
    const o = m.out >>> 2;
    return (BigInt(m.u32[o + 1]!) << 32n) | BigInt(m.u32[o]!);
  }

  /** True after dispose() (or after its world was disposed). */
  get disposed(): boolean {
    return this.world.disposed;
  }

  /** Frees the run and its world. Idempotent. */
  dispose(): void {
    this.world.dispose();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  /** "ScenarioRun(swarm, tick 12)" (console.log and util.inspect show it too). */
  toString(): string {
    return this.world.disposed ? `ScenarioRun(${this.name}, disposed)` : `ScenarioRun(${this.name}, tick ${this.tick})`;
  }

  /** @internal util.inspect / console.log: toString(), not the internals (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }
}
