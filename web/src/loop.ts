// loop.ts - the fixed-tick GameLoop (FACTS.md section 13) driven by
// requestAnimationFrame: frame(nowMs) converts the browser's millisecond
// timestamp to integer nanoseconds once, and the C++ loop does the exact
// integer tick accounting (no fractional accumulator in JS).
import { LaigeError, invalid } from './errors.js';
import { describe } from './schema.js';
import { u32, type World } from './world.js';

/** Options of createGameLoop. */
export interface GameLoopOptions {
  /** Fixed ticks per second, 20..120. Default 60. */
  tickRateHz?: number;
  /** The most ticks one frame runs (>= 1); due ticks above it are dropped. Default 5. */
  maxCatchUpTicks?: number;
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

/** A fixed-tick loop over a world's schedule (the C++ laige::GameLoop). */
export class GameLoop implements Disposable {
  readonly world: World;
  readonly tickRateHz: number;
  readonly maxCatchUpTicks: number;
  #ptr: number;

  /** @internal Use sim.createGameLoop. */
  constructor(world: World, options: GameLoopOptions = {}) {
    const where = 'createGameLoop';
    if (typeof options !== 'object' || options === null) throw invalid(`${where}: options must be an object`);
    const w = world._live(where);
    this.tickRateHz = options.tickRateHz === undefined ? 60 : u32(`${where}: tickRateHz`, options.tickRateHz, 20, 120);
    this.maxCatchUpTicks = options.maxCatchUpTicks === undefined ? 5 : u32(`${where}: maxCatchUpTicks`, options.maxCatchUpTicks, 1);
    world._systems.ensureScheduled();
    const m = world._mem;
    const code = world._raw.loopCreate(w, this.tickRateHz, this.maxCatchUpTicks, m.out);
    m.sync();
    if (code !== 0) throw new LaigeError(code, `${where}: rejected by the core`);
    this.#ptr = m.u32[m.out >>> 2]!;
    this.world = world;
    world._dependents.add(this);
  }

  #live(where: string): number {
    if (this.#ptr === 0) throw invalid(`${where}: the loop is disposed (or its world is)`);
    return this.#ptr;
  }

  /**
   * One presentation frame at `nowMs` (requestAnimationFrame's timestamp or
   * performance.now()): beginFrame, then the ticks due since the first frame
   * (at most maxCatchUpTicks). Returns the ticks this frame ran.
   */
  frame(nowMs: number): number {
    const where = 'GameLoop.frame';
    const l = this.#live(where);
    if (typeof nowMs !== 'number' || !Number.isFinite(nowMs) || nowMs < 0 || nowMs * 1e6 > Number.MAX_SAFE_INTEGER) {
      throw invalid(`${where}: nowMs must be a finite, non-negative number of milliseconds, got ${describe(nowMs)}`);
    }
    const ns = Math.floor(nowMs * 1e6);
    return this.#ticks(where, () => this.world._raw.loopFrameAt(l, ns));
  }

  /** Runs exactly `n` ticks as one frame, without the clock and the cap (tests, tools). */
  step(n = 1): number {
    const where = 'GameLoop.step';
    const l = this.#live(where);
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw invalid(`${where}: n must be a non-negative integer, got ${describe(n)}`);
    return this.#ticks(where, () => this.world._raw.loopStep(l, n));
  }

  #ticks(where: string, call: () => number): number {
    this.world._live(where);
    this.world._systems.ensureScheduled();
    const before = this.currentTick;
    const code = this.world._systems.guard(call);
    if (code !== 0) throw new LaigeError(code, `${where}: a tick failed (see the log)`);
    return this.currentTick - before;
  }

  /** Completed ticks since creation. */
  get currentTick(): number {
    return this.stats().ticks;
  }

  /** The counters since creation. */
  stats(): GameLoopStats {
    const l = this.#live('GameLoop.stats');
    const m = this.world._mem;
    this.world._raw.loopStats(l, m.out);
    const o = m.out >>> 3;
    const f = m.f64;
    return { frames: f[o]!, ticks: f[o + 1]!, droppedTicks: f[o + 2]!, droppedFrames: f[o + 3]!, startReferenceNs: f[o + 4]! };
  }

  /** Frees the loop (the world stays). Idempotent. */
  dispose(): void {
    this._detach();
    this.world._dependents.delete(this);
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  /** @internal */
  _detach(): void {
    if (this.#ptr === 0) return;
    this.world._raw.loopDestroy(this.#ptr);
    this.#ptr = 0;
  }
}
