// replay_player.ts - time travel over a replay log (sim.openReplay;
// docs/replay.md#time-travel): seek to any tick, step forward and backward.
// The C++ ReplayPlayer restores the nearest keyframe and re-simulates the
// recorded inputs; this wrapper owns the world it drives.
import { WorldBound } from '../base/lifecycle.js';
import { check, invalid, typeName } from '../base/errors.js';
import { describe } from '../base/describe.js';
import { logHandlers, refuseDisposeInside, refuseInsideLog, refuseTickInside } from '../base/reentrancy.js';
import { INSPECT } from '../base/inspect.js';
import type { LaigeRawModule, Mem } from '../boundary/raw.js';
import { type WorldCore, coreOf } from '../core/world_core.js';
import { noteRestored } from '../core/snapshot.js';
import type { World } from '../world.js';
import type { ReplayRunOptions } from './replay_recorder.js';

/**
 * Options of sim.openReplay: how to rebuild the recording's world, as for
 * runReplay ({ world, setup, tickRateHz?, math? }), or `{ scenario }` for a
 * recording of a built-in C++ scenario run (its world, tick rate and math;
 * the seed is the log's).
 */
export type ReplayOpenOptions = ReplayRunOptions | { scenario: string };

/** What a ReplayPlayer did so far (the cost of its jumps). */
export interface ReplayPlayerStats {
  /** Snapshots restored: keyframes, the start, stepBack's checkpoints. */
  restores: number;
  /** Ticks re-simulated. */
  ticksSimulated: number;
  /** Keyframes a step() landed on and compared with the re-simulated state. */
  keyframesVerified: number;
}

/** @internal What a player needs of its module (Laige implements it). */
export interface ReplayPlayerHost {
  readonly raw: LaigeRawModule;
  readonly mem: Mem;
}

/**
 * Time travel over a replay (sim.openReplay): `seek(tick)`, `step()`,
 * `stepBack()`, `tick`, `tickCount`, `stateHash()`. `world` is the world it
 * drives, at `tick` after every call: read it (each, get, stateDiff), do not
 * change it. A jump restores the nearest keyframe at or before the tick and
 * re-simulates the rest with the recorded inputs; without keyframes it
 * re-simulates from tick 0. Disposing the player disposes its world.
 */
export class ReplayPlayer extends WorldBound implements Disposable {
  /** The world the player drives (owned by the player). */
  readonly world: World;
  /** The recording's last tick (its frame count): ticks are 0..tickCount. */
  readonly tickCount: number;
  /** The ticks whose state the log holds as keyframes (ascending; empty without). */
  readonly keyframeTicks: readonly number[];
  readonly #core: WorldCore;
  readonly #host: ReplayPlayerHost;
  readonly #owner: { dispose(): void };
  #ptr: number;
  #busy = false;

  /** @internal Use sim.openReplay. */
  constructor(host: ReplayPlayerHost, world: World, bytes: Uint8Array, tickRateHz: number, math: number, owner: { dispose(): void }) {
    super();
    const where = 'openReplay';
    const core = coreOf(world)!;
    this.#core = core;
    this.#host = host;
    this.#owner = owner;
    const m = host.mem;
    const p = m.copyIn(bytes);
    let code: number;
    try {
      code = core.systems.guard(() => host.raw.replayPlayerOpen(core.ptr, p, bytes.length, tickRateHz, math, m.out));
    } finally {
      host.raw._free(p);
    }
    m.sync();
    check(code, where);
    this.#ptr = m.u32[m.out >>> 2]!;
    const info = host.raw.replayPlayerInfo(this.#ptr);
    m.sync();
    this.world = world;
    this.tickCount = host.raw.replayPlayerTickCount(this.#ptr);
    this.keyframeTicks = Object.freeze(info.keyframes.slice());
    this.bind(core.dependents);
  }

  #live(where: string): number {
    if (this.#ptr === 0) throw invalid(`${where}: the replay player is disposed (or its world is)`, 'disposed', { where, object: 'ReplayPlayer' });
    return this.#ptr;
  }

  /** The tick the world is at (0..tickCount). */
  get tick(): number {
    return this.#host.raw.replayPlayerTick(this.#live('ReplayPlayer.tick'));
  }

  // One core call that moves the world: refused inside callbacks on it;
  // TypeScript systems run inside; the world's read caches are stale after.
  #move(where: string, call: (p: number) => number): void {
    const p = this.#live(where);
    if (logHandlers.depth !== 0) refuseInsideLog(where);
    const core = this.#core;
    refuseTickInside(where, core.calls, core.systems.running || this.#busy);
    this.#busy = true;
    let code: number;
    try {
      code = core.systems.guard(() => call(p));
    } finally {
      this.#busy = false;
      noteRestored(core);
    }
    check(code, where);
  }

  /**
   * Puts the world at `tick` (0..tickCount). A tick outside the recording
   * is refused (tick_out_of_range, fields tick and tick_count) and nothing
   * changes. Cost: one restore plus the ticks after the keyframe at or
   * before `tick` (docs/replay.md#time-travel).
   */
  seek(tick: number): void {
    const where = 'ReplayPlayer.seek';
    if (typeof tick !== 'number' || !Number.isSafeInteger(tick) || tick < 0) {
      throw invalid(`${where}: tick must be an integer >= 0, got ${describe(tick)}`, typeof tick === 'number' ? 'out_of_range' : 'wrong_type',
        { where, field: 'tick', got: typeof tick === 'number' ? tick : typeName(tick), min: 0 });
    }
    this.#move(where, (p) => this.#host.raw.replayPlayerSeek(p, tick));
  }

  /** Runs the next recorded tick (tick_out_of_range at the end; keyframe_diverged when it misses a recorded keyframe). */
  step(): void {
    this.#move('ReplayPlayer.step', (p) => this.#host.raw.replayPlayerStep(p));
  }

  /** Goes back one tick (tick_out_of_range at tick 0). Repeated steps back reuse checkpoints of the interval. */
  stepBack(): void {
    this.#move('ReplayPlayer.stepBack', (p) => this.#host.raw.replayPlayerStepBack(p));
  }

  /** The world's stateHash at the current tick: the recording's hash of this tick. */
  stateHash(): bigint {
    const where = 'ReplayPlayer.stateHash';
    if (logHandlers.depth !== 0) refuseInsideLog(where);
    const p = this.#live(where);
    const m = this.#host.mem;
    this.#host.raw.replayPlayerStateHash(p, m.out);
    m.sync();
    const o = m.out >>> 2;
    return (BigInt(m.u32[o + 1]!) << 32n) | BigInt(m.u32[o]!);
  }

  /** What the player did so far (restores, ticks re-simulated, keyframes verified). */
  stats(): ReplayPlayerStats {
    const info = this.#host.raw.replayPlayerInfo(this.#live('ReplayPlayer.stats'));
    this.#host.mem.sync();
    return { restores: info.restores, ticksSimulated: info.ticksSimulated, keyframesVerified: info.keyframesVerified };
  }

  /** True after dispose() (or after its world was disposed). */
  get disposed(): boolean {
    return this.#ptr === 0;
  }

  /** Frees the player and its world. Idempotent. */
  override dispose(): void {
    // Its world goes with it: refused where disposing a world is.
    if (logHandlers.depth !== 0) refuseInsideLog('ReplayPlayer.dispose');
    super.dispose();
    this.#owner.dispose();
  }

  /** "ReplayPlayer(tick 12 of 600, 7 keyframes)" or "ReplayPlayer(disposed)". */
  toString(): string {
    return this.#ptr === 0 ? 'ReplayPlayer(disposed)' : `ReplayPlayer(tick ${this.tick} of ${this.tickCount}, ${this.keyframeTicks.length} keyframes)`;
  }

  /** @internal util.inspect / console.log: toString(), not the internals (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }

  /** @internal Refused while one of its own calls (a system of its tick) is on the stack. */
  protected _refuseDispose(): void {
    if (this.#busy) refuseDisposeInside('ReplayPlayer.dispose', 'ReplayPlayer', this.#core.calls.innermost ?? 'system');
  }

  /** @internal */
  _detach(): void {
    if (this.#ptr === 0) return;
    this.#host.raw.replayPlayerDestroy(this.#ptr);
    this.#ptr = 0;
  }
}
