// loop.ts - the fixed-tick GameLoop (docs/game_loop.md) driven by
// requestAnimationFrame: frame(nowMs) converts the browser's millisecond
// timestamp to integer nanoseconds once, and the C++ loop does the exact
// integer tick accounting (no fractional accumulator in JS). The optional
// `input` and `onTick` callbacks are the C++ loop's tickInput provider and
// after-tick hook (docs/game_loop.md), called from inside the frame.
import { WorldBound } from '../base/lifecycle.js';
import { coreError, invalid, typeName } from '../base/errors.js';
import { readGameLoopStats } from '../boundary/layouts.gen.js';
import { LOOP_LIMITS } from '../boundary/limits.gen.js';
import { describe } from '../base/describe.js';
import { activeCallback, refuseDisposeInside, refuseTickInside } from '../base/reentrancy.js';
import type { ScenarioRun } from '../scenario/scenario_run.js';
import { type ArgCheck, MAX_U32, checkArg, checkFields } from '../base/args.js';
import { INSPECT } from '../base/inspect.js';
import { type CoreHost, type WorldCore, coreOf } from '../core/world_core.js';
import type { World } from '../world.js';

/** The largest payload `input` may return (the replay frame limit, 1 MiB). */
const MAX_INPUT_BYTES = 1 << 20;

/** Options of createGameLoop. */
export interface GameLoopOptions {
  /** Fixed ticks per second, 20..120. Default 60. */
  tickRateHz?: number;
  /** The most ticks one frame runs (>= 1); due ticks above it are dropped. Default 5. */
  maxCatchUpTicks?: number;
  /**
   * Supplies each tick's input payload (what `ctx.input` shows every system
   * of the tick, C++ and TypeScript alike), called once before the tick with
   * the loop's number of the tick about to run (`currentTick + 1`). Return
   * the payload (copied at once, at most 1 MiB; an empty array = no
   * payload), or `undefined` for the default: a ScenarioRun's own generated
   * input (the golden stream's), none for a plain world. Without `input`
   * every tick gets that default.
   */
  input?: (tick: number) => Uint8Array | undefined;
  /**
   * Called after every completed tick with its number (`currentTick`), e.g.
   * to read `world.stateHash(tick)`. Runs inside the frame: it must not run
   * ticks itself (frame/step/runSystems/ScenarioRun.step throw there) nor
   * dispose the loop or the world.
   */
  onTick?: (tick: number) => void;
}

/** The loop's counters since creation. */
export interface GameLoopStats {
  frames: number;
  ticks: number;
  droppedTicks: number;
  droppedFrames: number;
  /** The first frame's time in ns (0 before it). */
  startReferenceNs: number;
}

/** @internal What a loop needs of its module (Laige): the table the C++ hooks dispatch through. */
/** @internal What a loop needs of its module (Laige implements it): the router of the core's hooks. */
export type LoopHost = Pick<CoreHost, 'registerLoop' | 'unregisterLoop'>;

const RATE = LOOP_LIMITS.tickRateHz;
/** What each option of createGameLoop must be, in order; out-of-range integers get the core's reasons (web/boundary.json limits). */
const LOOP_OPTIONS = {
  tickRateHz: { type: 'limit', min: RATE.min, max: RATE.max, default: RATE.default, reason: 'tick_rate_invalid',
    fields: (v: number) => ({ tick_rate_hz: v, min_hz: RATE.min, max_hz: RATE.max }) },
  // Over u32 it is out_of_range; 0 is the core's catchup_invalid.
  maxCatchUpTicks: { type: 'limit', min: 1, max: MAX_U32, default: LOOP_LIMITS.maxCatchUpTicks.default, reason: 'catchup_invalid',
    fields: (v: number) => ({ max_catch_up: v }), core: 'below' },
  input: { type: 'function', expected: 'a function (tick) => Uint8Array | undefined' },
  onTick: { type: 'function', expected: 'a function (tick) => void' },
} as const satisfies Record<string, ArgCheck>;

/**
 * A fixed-tick loop over a world's schedule (the C++ laige::GameLoop), or
 * over a C++ scenario run (sim.openScenario), whose generated input it feeds
 * by default so that frames of any length reproduce the scenario's golden
 * stream.
 *
 * Errors inside a frame: when `input` or `onTick` throws (or `input` returns
 * something that is not a Uint8Array, or more than 1 MiB), or a TypeScript
 * system throws, the frame ends there and frame()/step() rethrow that error
 * (the original value; a bad `input` return is a LaigeError
 * invalid_argument). A throwing `input` skips its tick (not run, not
 * counted); a throwing `onTick` or system ends the frame after its tick (the
 * tick counts; for a system, onTick is not called for that tick). The loop
 * stays usable: frame() later runs the ticks still due (within
 * maxCatchUpTicks), step(n) runs n more.
 */
export class GameLoop extends WorldBound implements Disposable {
  readonly #core: WorldCore;
  readonly world: World;
  /** The scenario run the loop drives (sim.createGameLoop(run)), or null for a plain world. */
  readonly scenario: ScenarioRun | null;
  readonly tickRateHz: number;
  readonly maxCatchUpTicks: number;
  readonly #host: LoopHost;
  readonly #input: ((tick: number) => Uint8Array | undefined) | undefined;
  readonly #onTick: ((tick: number) => void) | undefined;
  #ptr: number;
  #inFrame = false;
  #alpha = 0;
  #hasError = false;
  #error: unknown = undefined;

  /** @internal Use sim.createGameLoop. */
  constructor(host: LoopHost, world: World, options: GameLoopOptions = {}, scenario: ScenarioRun | null = null) {
    super();
    const core = coreOf(world)!;
    this.#core = core;
    const where = 'createGameLoop';
    checkArg(where, 'options', options, { type: 'object' });
    const w = core.live(where);
    const o = checkFields(where, options, LOOP_OPTIONS);
    this.tickRateHz = o.tickRateHz;
    this.maxCatchUpTicks = o.maxCatchUpTicks;
    const { input, onTick } = options;
    if (scenario === null) core.systems.ensureScheduled();
    // The after-tick hook also ends a frame whose TypeScript system threw.
    const after = onTick !== undefined || scenario === null;
    const m = core.mem;
    const code = core.raw.loopCreate(w, this.tickRateHz, this.maxCatchUpTicks, input !== undefined, after, m.out);
    m.sync();
    if (code !== 0) throw coreError(code, where);
    this.#ptr = m.u32[m.out >>> 2]!;
    this.#host = host;
    this.#input = input;
    this.#onTick = onTick;
    this.world = world;
    this.scenario = scenario;
    host.registerLoop(this.#ptr, this);
    this.bind(core.dependents);
  }

  #live(where: string): number {
    if (this.#ptr === 0) throw invalid(`${where}: the loop is disposed (or its world is)`, 'disposed', { where, object: 'GameLoop' });
    return this.#ptr;
  }

  /**
   * One presentation frame at `nowMs` (requestAnimationFrame's timestamp or
   * performance.now()): beginFrame, then the ticks due since the first frame
   * (at most maxCatchUpTicks). Returns the ticks this frame ran. Throws what
   * a callback or system threw (see the class comment).
   */
  frame(nowMs: number): number {
    const where = 'GameLoop.frame';
    const l = this.#live(where);
    if (typeof nowMs !== 'number' || !Number.isFinite(nowMs) || nowMs < 0 || nowMs * 1e6 > Number.MAX_SAFE_INTEGER) {
      throw invalid(`${where}: nowMs must be a finite, non-negative number of milliseconds, got ${describe(nowMs)}`,
        typeof nowMs === 'number' ? 'out_of_range' : 'wrong_type', { where, field: 'nowMs', got: typeof nowMs === 'number' ? nowMs : typeName(nowMs) });
    }
    const ns = Math.floor(nowMs * 1e6);
    const ran = this.#ticks(where, () => this.#core.raw.loopFrameAt(l, ns));
    this.#alpha = this.#fraction(ns);
    return ran;
  }

  /**
   * The fraction of a tick elapsed at the last frame(), in [0, 1): how far
   * the clock was past the last tick it made due, for a renderer that draws
   * between the last two ticks (`prev + (cur - prev) * loop.alpha`). 0 before
   * the second frame; step() leaves it as it was. Presentation only: the
   * simulation never reads it.
   */
  get alpha(): number {
    return this.#alpha;
  }

  // frac(elapsed * rate / 1e9) since the loop's first frame (a double: rendering only).
  #fraction(ns: number): number {
    const start = this.stats().startReferenceNs;
    if (!(ns > start)) return 0;
    const due = ((ns - start) * this.tickRateHz) / 1e9;
    const f = due - Math.floor(due);
    return f >= 0 && f < 1 ? f : 0;
  }

  /** Runs exactly `n` ticks as one frame, without the clock and the cap (tests, tools, a single-step button). */
  step(n = 1): number {
    const where = 'GameLoop.step';
    const l = this.#live(where);
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
      throw invalid(`${where}: n must be a non-negative integer, got ${describe(n)}`, typeof n === 'number' ? 'out_of_range' : 'wrong_type',
        { where, field: 'n', got: typeof n === 'number' ? n : typeName(n) });
    }
    return this.#ticks(where, () => this.#core.raw.loopStep(l, n));
  }

  #ticks(where: string, call: () => number): number {
    this.#core.live(where);
    refuseTickInside(where, this.#core.calls, this.#core.systems.running || this.#inFrame);
    if (this.scenario === null) this.#core.systems.ensureScheduled();
    const before = this.currentTick;
    this.#inFrame = true;
    this.#hasError = false;
    this.#error = undefined;
    let code: number;
    let failed: boolean;
    let error: unknown;
    try {
      code = this.#core.systems.guard(call); // rethrows a TypeScript system's error
    } finally {
      this.#inFrame = false;
      failed = this.#hasError;
      error = this.#error;
      this.#hasError = false;
      this.#error = undefined;
    }
    if (failed) throw error;
    if (code !== 0) throw coreError(code, where);
    return this.currentTick - before;
  }

  #fail(e: unknown): void {
    if (!this.#hasError) {
      this.#hasError = true;
      this.#error = e;
    }
  }

  /** @internal The C++ tickInput hook (Module.laigeTickInput): the payload size, -1 = default, -2 = end the frame. Never throws. */
  _tickInput(tick: number): number {
    const fn = this.#input;
    if (fn === undefined || this.#ptr === 0) return -1;
    const calls = this.#core.calls;
    calls.enter('input');
    try {
      const p: unknown = fn(tick);
      if (p === undefined) return -1;
      if (!(p instanceof Uint8Array)) throw invalid(`GameLoop input(${tick}): must return a Uint8Array or undefined, got ${describe(p)}`, 'wrong_type', { where: 'GameLoop input', field: 'return value', got: typeName(p), tick });
      if (p.length > MAX_INPUT_BYTES) throw invalid(`GameLoop input(${tick}): the payload is over 1 MiB (${p.length} bytes)`, 'out_of_range', { where: 'GameLoop input', field: 'return value.length', got: p.length, max: MAX_INPUT_BYTES });
      if (p.length === 0) return 0;
      const m = this.#core.mem;
      const at = this.#core.raw.loopInputBuffer(this.#ptr, p.length);
      m.sync();
      m.u8.set(p, at);
      return p.length;
    } catch (e) {
      this.#fail(e);
      return -2;
    } finally {
      calls.leave();
    }
  }

  /** @internal The C++ after-tick hook (Module.laigeAfterTick): 0 = go on, 1 = end the frame. Never throws. */
  _afterTick(tick: number): number {
    if (this.#core.systems.hasError) return 1; // a TypeScript system of this tick threw: guard rethrows it
    const fn = this.#onTick;
    if (fn === undefined) return 0;
    const calls = this.#core.calls;
    calls.enter('onTick');
    try {
      fn(tick);
      return 0;
    } catch (e) {
      this.#fail(e);
      return 1;
    } finally {
      calls.leave();
      this.#core.mem.sync();
    }
  }

  /** Completed ticks since creation. */
  get currentTick(): number {
    return this.stats().ticks;
  }

  /** "GameLoop(60 Hz, tick 12)" (console.log and util.inspect show it too). */
  toString(): string {
    return this.#ptr === 0 ? 'GameLoop(disposed)'
      : `GameLoop(${this.scenario === null ? '' : `scenario ${this.scenario.name}, `}${this.tickRateHz} Hz, tick ${this.currentTick})`;
  }

  /** @internal util.inspect / console.log: toString(), not the internals (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }

  /** The counters since creation. */
  stats(): GameLoopStats {
    const l = this.#live('GameLoop.stats');
    const m = this.#core.mem;
    this.#core.raw.loopStats(l, m.out);
    return readGameLoopStats(m.f64, m.out >>> 3);
  }

  /** @internal Refused, never deferred, while one of its own calls is on the stack. */
  protected _refuseDispose(): void {
    if (this.#inFrame) refuseDisposeInside('GameLoop.dispose', 'GameLoop', activeCallback(this.#core.calls) ?? 'system');
  }

  /** @internal */
  _detach(): void {
    if (this.#ptr === 0) return;
    this.#host.unregisterLoop(this.#ptr);
    this.#core.raw.loopDestroy(this.#ptr);
    this.#ptr = 0;
  }
}
