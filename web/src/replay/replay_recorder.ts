// replay.ts - replay logs (LGRP v3 with keyframes, v2 without, v1 read; docs/replay.md) with bytes in and
// out: an in-memory recorder bound to a world, the parser, the runner and
// the lock-step diff. A replay re-runs the world's systems from the
// recorded identity and per-tick input; runReplay returns every tick's
// state hash.
import { LOOP_LIMITS } from '../boundary/limits.gen.js';
import { WorldBound } from '../base/lifecycle.js';
import { LaigeError, check, coreError, invalid, typeName, whereField } from '../base/errors.js';
import { describe } from '../base/describe.js';
import { refuseDisposeInside, refuseTickInside } from '../base/reentrancy.js';
import { messageFor } from '../base/error_messages.js';
import { type ArgCheck, checkArg, checkFields } from '../base/args.js';
import { INSPECT, count } from '../base/inspect.js';
import { type WorldCore, coreOf } from '../core/world_core.js';
import type { World, WorldOptions } from '../world.js';
import type { DiffRelationFields } from '../world_types.js';

/** The math backends (replay identity). */
export type MathBackend = 'fixed_point_16_16' | 'float_pinned_32';
const MATH: Readonly<Record<MathBackend, number>> = { fixed_point_16_16: 0, float_pinned_32: 1 };

/** @internal What a `math` option must be. */
export const MATH_CHECK = { type: 'oneOf', values: Object.keys(MATH), default: 'fixed_point_16_16' } as const satisfies ArgCheck;

/** @internal */
export function mathId(where: string, v: unknown): number {
  if (v === undefined) return 0;
  return MATH[checkArg(where, 'math', v, MATH_CHECK) as MathBackend];
}

/** What each option of recordReplay must be, in order. */
const RECORD_OPTIONS = {
  tickRateHz: { type: 'u32', min: LOOP_LIMITS.tickRateHz.min, max: LOOP_LIMITS.tickRateHz.max, default: LOOP_LIMITS.tickRateHz.default },
  math: MATH_CHECK,
  maxBytes: { type: 'u32', min: 56, default: 0 },
  keyframeEvery: { type: 'u32', min: 0, default: 0 },
} as const satisfies Record<string, ArgCheck>;

/** Options of World.recordReplay / sim.recordReplay. */
export interface RecordOptions {
  /** The tick rate stored in the identity (20..120). Default 60. */
  tickRateHz?: number;
  /** The math backend the systems use. Default 'fixed_point_16_16'. */
  math?: MathBackend;
  /** The size cap in bytes (>= 56), keyframes included. Default 128 MiB. */
  maxBytes?: number;
  /**
   * A keyframe (the world's snapshot) at tick 0 and after every
   * `keyframeEvery`-th frame, so that a ReplayPlayer jumps to any tick by
   * restoring the nearest one (docs/replay.md#keyframes). The log is then
   * LGRP version 3. Default 0: no keyframes, a version 2 log.
   */
  keyframeEvery?: number;
}

/** The five identity fields of a replay header. */
export interface ReplayIdentity {
  seed: bigint;
  tickRateHz: number;
  componentSchemaHash: bigint;
  mathBackendId: number;
  configHash: bigint;
}

/** A parsed replay log. */
export interface ReplayInfo {
  identity: ReplayIdentity;
  frameCount: number;
  /** Per frame: its tick and payload size. */
  frames: Array<{ tick: number; size: number }>;
  /** The LGRP format version (3 carries keyframes). */
  formatVersion: number;
  /** Per keyframe (version 3): the tick whose state it holds and its snapshot size. */
  keyframes: Array<{ tick: number; size: number }>;
}

/** Records a replay of a world into memory. Create it before the first tick. */
export class ReplayRecorder extends WorldBound implements Disposable {
  readonly #core: WorldCore;
  readonly world: World;
  #ptr: number;
  #bytes: Uint8Array | null = null;
  #finishedFrames = 0;
  #finishedKeyframes = 0;
  readonly #keyframeEvery: number;
  /** True while step() runs (its tick may call back into JS). */
  #stepping = false;

  /** @internal Use sim.recordReplay(world, options). */
  constructor(world: World, options: RecordOptions = {}) {
    super();
    const core = coreOf(world)!;
    this.#core = core;
    const where = 'recordReplay';
    checkArg(where, 'options', options, { type: 'object' });
    const w = core.live(where);
    const o = checkFields(where, options, RECORD_OPTIONS);
    const rate = o.tickRateHz;
    const math = MATH[o.math as MathBackend];
    const max = o.maxBytes;
    const every = o.keyframeEvery;
    if (every > 0 && world.systemTicksRun !== 0) {
      throw invalid(`${where}: a recording with keyframes starts at tick 0, the world has run ${world.systemTicksRun} ticks`, 'keyframe_tick',
        { where, tick: 0, world_tick: world.systemTicksRun });
    }
    const m = core.mem;
    const code = every > 0 ? core.raw.replayWriterCreateKeyframed(w, rate, math, max, every, m.out) : core.raw.replayWriterCreate(w, rate, math, max, m.out);
    m.sync();
    check(code, where);
    this.#ptr = m.u32[m.out >>> 2]!;
    this.#keyframeEvery = every;
    if (every > 0) {
      const k = core.raw.replayWriterKeyframe(this.#ptr, w);
      m.sync();
      if (k !== 0) {
        const e = coreError(k, where);
        core.raw.replayWriterDestroy(this.#ptr);
        this.#ptr = 0;
        throw e;
      }
    }
    this.world = world;
    this.bind(core.dependents);
  }

  // After a successful finish() the recorder is freed but not disposed: a
  // step is the core's recorder_finished, a frame its record_after_finish.
  #live(where: string, after: 'recorder_finished' | 'record_after_finish' = 'recorder_finished'): number {
    if (this.#ptr === 0 && this.#bytes !== null && this.#core.ptr !== 0) {
      const fields: Record<string, string | number> = after === 'record_after_finish' ? { where, frames: this.#finishedFrames } : { where };
      throw invalid(`${where}: ${messageFor(after, fields)}`, after, fields);
    }
    if (this.#ptr === 0) throw invalid(`${where}: the recorder is disposed (or its world is)`, 'disposed', { where, object: 'ReplayRecorder' });
    return this.#ptr;
  }

  /** "ReplayRecorder(12 frames)", "(finished, 812 bytes)" or "(disposed)" (console.log and util.inspect show it too). */
  toString(): string {
    if (this.#bytes !== null) return `ReplayRecorder(finished, ${count(this.#bytes.length, 'byte')})`;
    return this.#ptr === 0 ? 'ReplayRecorder(disposed)' : `ReplayRecorder(${count(this.frameCount, 'frame')})`;
  }

  /** @internal util.inspect / console.log: toString(), not the internals (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }

  /** Frames written so far (after finish(): the log's frames). */
  get frameCount(): number {
    if (this.#bytes !== null && this.#ptr === 0) return this.#finishedFrames;
    return this.#core.raw.replayWriterFrameCount(this.#live('ReplayRecorder.frameCount'));
  }

  /** Keyframes written so far (0 without the keyframeEvery option). */
  get keyframeCount(): number {
    if (this.#bytes !== null && this.#ptr === 0) return this.#finishedKeyframes;
    return this.#core.raw.replayWriterKeyframeCount(this.#live('ReplayRecorder.keyframeCount'));
  }

  /**
   * Appends the input of completed tick `tick` (1, 2, 3, ...). With
   * keyframeEvery, a tick that is a multiple of it also records the world's
   * snapshot, so the world must then have completed exactly `tick` ticks
   * (keyframe_tick otherwise, checked before anything is written).
   */
  writeFrame(tick: number, input?: Uint8Array): void {
    const where = 'ReplayRecorder.writeFrame';
    const r = this.#live(where, 'record_after_finish');
    if (typeof tick !== 'number' || !Number.isSafeInteger(tick) || tick < 1) {
      throw invalid(`${where}: tick must be an integer >= 1, got ${describe(tick)}`, typeof tick === 'number' ? 'out_of_range' : 'wrong_type',
        { where, field: 'tick', got: typeof tick === 'number' ? tick : typeName(tick), min: 1 });
    }
    if (input !== undefined) checkArg(where, 'input', input, { type: 'bytes' });
    if (input !== undefined && input.length > 1 << 20) throw invalid(`${where}: input is over 1 MiB (${input.length} bytes)`, 'out_of_range', { where, field: 'input.length', got: input.length, max: 1 << 20 });
    if (tick !== this.frameCount + 1) throw invalid(`${where}: expected tick ${this.frameCount + 1}, got ${tick}`, 'tick_sequence', { where, field: 'tick', got: tick, expected: this.frameCount + 1 });
    const keyframe = this.#keyframeEvery > 0 && tick % this.#keyframeEvery === 0;
    if (keyframe && this.world.systemTicksRun !== tick) {
      throw invalid(`${where}: tick ${tick} takes a keyframe, but the world has completed ${this.world.systemTicksRun} ticks (record the world as it runs)`, 'keyframe_tick',
        { where, tick, world_tick: this.world.systemTicksRun });
    }
    const m = this.#core.mem;
    const size = input?.length ?? 0;
    const p = size > 0 ? m.copyIn(input!) : 0;
    try {
      const code = this.#core.raw.replayWriterFrame(r, tick, p, size);
      m.sync();
      check(code, where);
    } finally {
      if (p !== 0) this.#core.raw._free(p);
    }
    if (keyframe) {
      const code = this.#core.raw.replayWriterKeyframe(r, this.#core.ptr);
      m.sync();
      check(code, where);
    }
  }

  /**
   * Runs one tick of the world with `input` and records it: runSystems +
   * writeFrame. Everything is checked before the tick runs (the recorder is
   * live and not finished, the input is valid, the frame fits the size cap,
   * no callback of this world is on the stack), so a call that throws for
   * one of those changes nothing. A tick that ran is always recorded, also
   * when one of its systems threw (the error is rethrown after recording).
   */
  step(input?: Uint8Array): void {
    const where = 'ReplayRecorder.step';
    const r = this.#live(where);
    const core = this.#core;
    core.live(where);
    if (input !== undefined) checkArg(where, 'input', input, { type: 'bytes' });
    const size = input?.length ?? 0;
    if (size > 1 << 20) throw invalid(`${where}: input is over 1 MiB`, 'frame_too_large', { where, length: size, max_length: 1 << 20 });
    if (this.#stepping) refuseTickInside(where, core.calls, true);
    refuseTickInside(where, core.calls, core.systems.running);
    const admit = core.raw.replayWriterCanWrite(r, size);
    if (admit !== 0) {
      // The core's own reason and fields (replay_size_cap, record_failed, recorder_finished).
      const e = coreError(admit, where);
      throw new LaigeError(admit, `${e.detail}; the tick was not run`, e.reason, e.fields);
    }
    const world = this.world;
    const before = world.systemTicksRun;
    this.#stepping = true;
    try {
      world.runSystems(input);
    } finally {
      this.#stepping = false;
      if (world.systemTicksRun !== before) this.writeFrame(this.frameCount + 1, input);
    }
  }

  /** Appends the trailer and returns the log bytes (idempotent: a second call returns them again). */
  finish(): Uint8Array {
    if (this.#bytes !== null) return this.#bytes.slice();
    const where = 'ReplayRecorder.finish';
    if (this.#stepping) refuseDisposeInside(where, 'ReplayRecorder', this.#core.calls.innermost ?? 'system');
    const r = this.#live(where);
    check(this.#core.raw.replayWriterFinish(r), where);
    const bytes = this.#core.raw.replayWriterBytes(r);
    this.#core.mem.sync();
    this.#finishedFrames = this.frameCount;
    this.#finishedKeyframes = this.keyframeCount;
    this.#bytes = bytes;
    this.dispose();
    return bytes.slice();
  }

  /** @internal Refused, never deferred, while one of its own calls is on the stack. */
  protected _refuseDispose(): void {
    if (this.#stepping) refuseDisposeInside('ReplayRecorder.dispose', 'ReplayRecorder', this.#core.calls.innermost ?? 'system');
  }

  /** @internal */
  _detach(): void {
    if (this.#ptr === 0) return;
    this.#core.raw.replayWriterDestroy(this.#ptr);
    this.#ptr = 0;
  }
}

/** Options of runReplay / diffReplays: how to rebuild the recording's world. */
export interface ReplayRunOptions {
  /** The recording world's options; `seed` defaults to the log's seed. */
  world: WorldOptions;
  /** Registers the components and systems the recording world had, in the same order. */
  setup: (world: World) => void;
  /** The tick rate of the recording. Default 60. */
  tickRateHz?: number;
  /** The math backend of the recording. Default 'fixed_point_16_16'. */
  math?: MathBackend;
}

/** What diffReplays found. */
export interface ReplayDiff {
  identical: boolean;
  /** The first tick whose component state differs (0 = the initial state); meaningless when identical. */
  firstDivergentTick: number;
  lengthDivergence: boolean;
  fullStateDivergent: boolean;
  framesA: number;
  framesB: number;
  /** The exact number of differing (entity, component) items at firstDivergentTick. */
  differingItems: number;
  /** The first differing items (as World.stateDiff's, relation fields and words included). */
  entries: Array<{ slot: number; componentId: number; component: string; size: number; presentInA: boolean; presentInB: boolean; bytesA: Uint8Array; bytesB: Uint8Array } & DiffRelationFields>;
}

/** @internal Validates log bytes. */
export function logBytes(where: string, v: unknown): Uint8Array {
  if (!(v instanceof Uint8Array)) throw invalid(`${where}: a replay log is a Uint8Array, got ${describe(v)}`, 'wrong_type', { where: whereField(where).where, field: whereField(where).field || 'bytes', got: typeName(v) });
  return v;
}

/** @internal */
export function identityOf(raw: { seed: string; tickRateHz: number; componentSchemaHash: string; mathBackendId: number; configHash: string }): ReplayIdentity {
  return {
    seed: BigInt(`0x${raw.seed}`), tickRateHz: raw.tickRateHz, componentSchemaHash: BigInt(`0x${raw.componentSchemaHash}`),
    mathBackendId: raw.mathBackendId, configHash: BigInt(`0x${raw.configHash}`),
  };
}

/** @internal The LaigeError of a failed parse (the core's parse_rejected, with its reason and offset fields). */
export function parseFailure(where: string, code: number): LaigeError {
  return coreError(code, where);
}
