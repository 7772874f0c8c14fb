// history.ts - the ticks an inspector's slider scrubs (docs/inspector.md#history).
// InspectorHistory is all the slider needs: a replay player (seek, per-tick
// hashes) fits it as well as KeyframeHistory below, which a page keeps
// while its world runs: a snapshot of the live world every `every` ticks
// (the latest `keep` of them) and every tick's state hash; seek(t)
// restores the keyframe at or before t into a scratch world of the same
// setup and runs the ticks after it there with the page's own `step`. The
// live world is never touched: scrubbing is reading.
import type { World } from '../world.js';
import { invalid, typeName } from '../base/errors.js';
import { describe } from '../base/describe.js';

/** What an inspector's tick slider scrubs. */
export interface InspectorHistory {
  /** The oldest tick it can show. */
  readonly firstTick: number;
  /** The newest tick it can show. */
  readonly lastTick: number;
  /** Shows `tick` (firstTick..lastTick): afterwards `world` (or the source's world) holds that tick's state. */
  seek(tick: number): Promise<void> | void;
  /** The state hash of `tick` (16 hex digits or a bigint), or null when it is not known. */
  hashAt(tick: number): string | bigint | null;
  /** The world that shows the sought tick (default: the world the source was made with). */
  readonly world?: World;
}

/** KeyframeHistory's options. */
export interface KeyframeHistoryOptions {
  /** The running world: record() snapshots it. */
  live: World;
  /** A world of the same setup (the same components and systems) that seek() restores into and runs. */
  scratch: World;
  /** Runs tick `tick` on the scratch world (with the input the live world had for it). */
  step: (tick: number) => void;
  /** Ticks between keyframes (default 60). */
  every?: number;
  /** Keyframes kept (default 32: the history reaches every x keep ticks back). */
  keep?: number;
  /** The live world's tick now (default 0): the first keyframe. */
  tick?: number;
}

function whole(where: string, field: string, v: unknown, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw invalid(`${where}: ${field} must be an integer, got ${describe(v)}`, 'wrong_type', { where, field, got: typeName(v) });
  if (v < min || v > max) throw invalid(`${where}: ${field} must be ${min}..${max}, got ${v}`, 'out_of_range', { where, field, got: v, min, max });
  return v;
}

/** Keyframes of a running world, and re-simulation from them into a scratch world. */
export class KeyframeHistory implements InspectorHistory {
  readonly #live: World;
  readonly #scratch: World;
  readonly #step: (tick: number) => void;
  readonly #every: number;
  readonly #keep: number;
  readonly #keyframes: { tick: number; bytes: Uint8Array }[] = [];
  readonly #hashes = new Map<number, string>();
  #last: number;
  /** The scratch world's tick (-1: not restored yet). */
  #scratchTick = -1;
  /** The tick shown (null: the live one). */
  #shown: number | null = null;

  constructor(options: KeyframeHistoryOptions) {
    const where = 'KeyframeHistory';
    if (typeof options !== 'object' || options === null) throw invalid(`${where}: options must be an object, got ${describe(options)}`, 'wrong_type', { where, field: 'options', got: typeName(options) });
    if (typeof options.step !== 'function') throw invalid(`${where}: step must be a function, got ${describe(options.step)}`, 'wrong_type', { where, field: 'step', got: typeName(options.step) });
    this.#live = options.live;
    this.#scratch = options.scratch;
    this.#step = options.step;
    this.#every = whole(where, 'every', options.every ?? 60, 1, 1 << 20);
    this.#keep = whole(where, 'keep', options.keep ?? 32, 1, 4096);
    this.#last = whole(where, 'tick', options.tick ?? 0, 0, Number.MAX_SAFE_INTEGER);
    this.#keyframes.push({ tick: this.#last, bytes: this.#live.snapshot() });
    this.#hashes.set(this.#last, this.#hex(this.#live.stateHash(this.#last)));
  }

  #hex(h: bigint): string {
    return h.toString(16).padStart(16, '0');
  }

  get firstTick(): number {
    return this.#keyframes[0]!.tick;
  }

  get lastTick(): number {
    return this.#last;
  }

  /** The world showing the sought tick: the scratch world, or the live one when the newest tick is shown. */
  get world(): World {
    return this.#shown === null ? this.#live : this.#scratch;
  }

  /** The tick shown, or null while the live world is (it follows record()). */
  get shownTick(): number | null {
    return this.#shown;
  }

  /** Records that the live world just ran tick `tick` (the next one), with its state hash if the caller has it. */
  record(tick: number, hash?: string | bigint): void {
    const where = 'KeyframeHistory.record';
    whole(where, 'tick', tick, this.#last + 1, this.#last + 1);
    this.#last = tick;
    this.#hashes.set(tick, typeof hash === 'string' ? hash : this.#hex(hash ?? this.#live.stateHash(tick)));
    if (tick % this.#every !== 0) return;
    this.#keyframes.push({ tick, bytes: this.#live.snapshot() });
    if (this.#keyframes.length > this.#keep) {
      this.#keyframes.shift();
      for (const t of this.#hashes.keys()) if (t < this.firstTick) this.#hashes.delete(t);
    }
  }

  hashAt(tick: number): string | null {
    return this.#hashes.get(tick) ?? null;
  }

  /** Shows `tick`: restores the keyframe at or before it into the scratch world and runs the ticks after it (the live tick: the live world). */
  seek(tick: number): void {
    const t = whole('KeyframeHistory.seek', 'tick', tick, this.firstTick, this.#last);
    if (t === this.#last) {
      this.#shown = null;
      return;
    }
    let from = this.#keyframes[0]!;
    for (const k of this.#keyframes) if (k.tick <= t) from = k;
    // Stepping on from where the scratch world is beats a restore when it is on the way.
    if (!(this.#scratchTick >= from.tick && this.#scratchTick <= t)) {
      this.#scratch.restore(from.bytes);
      this.#scratchTick = from.tick;
    }
    while (this.#scratchTick < t) {
      this.#step(this.#scratchTick + 1);
      this.#scratchTick++;
    }
    this.#shown = t;
  }
}
