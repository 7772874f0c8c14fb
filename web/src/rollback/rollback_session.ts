// rollback.ts - sim.createRollbackSession (docs/rollback.md): the C++
// laige::RollbackSession over a World with TypeScript systems, or over a C++
// scenario run (sim.openScenario). Per-player input per tick, prediction of
// the remote inputs that have not arrived ("repeat the last known"), and
// restore + re-simulation inside advance() when a late input differs from
// the prediction. The ring of snapshots, the input ring and the hash history
// live in wasm memory, allocated once by the session; inputs are copied into
// the session's own wasm buffer, so setLocalInput / addRemoteInput allocate
// nothing in wasm.
import { readRollbackState } from '../boundary/layouts.gen.js';
import { ROLLBACK_ENUMS, ROLLBACK_LIMITS as L } from '../boundary/limits.gen.js';
import { WorldBound } from '../base/lifecycle.js';
import { ErrorCodes, LaigeError, coreError, invalid, typeName } from '../base/errors.js';
import { messageFor } from '../base/error_messages.js';
import { type ArgCheck, type Bound, checkArg, checkFields, u32, u64 } from '../base/args.js';
import { activeCallback, logHandlers, refuseDisposeInside, refuseInsideLog, refuseTickInside } from '../base/reentrancy.js';
import { describe } from '../base/describe.js';
import type { ScenarioRun } from '../scenario/scenario_run.js';
import { type WorldCore, coreOf } from '../core/world_core.js';
import type { World } from '../world.js';
import { noteRestored } from '../core/snapshot.js';
import { INSPECT } from '../base/inspect.js';
import { type DesyncExchangeOptions, DesyncLink } from '../desync/desync_exchange.js';

type RollbackState = ReturnType<typeof readRollbackState>;

/** Builds a tick's single payload (ctx.input) from the players' inputs (player order). */
export type RollbackCombine = (tick: number, inputs: readonly Uint8Array[]) => Uint8Array;

/** Options of sim.createRollbackSession (sendDesync, onDesync, desyncMaxItems: docs/desync.md#across-peers). */
export interface RollbackSessionOptions extends DesyncExchangeOptions {
  /** Players in the session, 1..8. Default 2. */
  players?: number;
  /** This peer's player, 0..players-1 (its input: setLocalInput). Default 0. */
  localPlayer?: number;
  /** Ring depth: how many past ticks a late input can still rewrite, 1..120. Default 12. */
  depth?: number;
  /** The largest input of one player for one tick, 0..255 bytes. Default 16. */
  maxInputBytes?: number;
  /** How many ticks past currentTick an input may be given, 1..1024. Default 32. */
  inputLead?: number;
  /**
   * 0 (default): advance() never waits. Else advance() throws
   * `prediction_limit` while currentTick minus the last tick every player
   * has given (what the next advance confirms) is >= this (1..depth): with
   * it no remote input can ever arrive too late.
   */
  maxPredictionTicks?: number;
  /** How many confirmed hashes confirmedHash() keeps, 1..4096 (at least depth + 2 are kept). Default 64. */
  hashHistory?: number;
  /** The combined payload's capacity; default players x (1 + maxInputBytes). */
  maxCombinedBytes?: number;
  /**
   * How the players' inputs become the tick's one payload:
   * 'lengthPrefixed' (default: per player in order, a length byte then the
   * bytes), 'concatenate' (the bytes only, for fixed-size records), or a
   * function (tick, inputs) => Uint8Array that must be a pure function of
   * its arguments (it runs again for every re-simulated tick).
   */
  combine?: 'lengthPrefixed' | 'concatenate' | RollbackCombine;
  /**
   * Called at the end of advance() for every tick it confirmed, in tick
   * order. An error it throws comes out of advance() after all of them
   * were called (the tick has run then; it is not undone). It runs inside
   * advance(): advance(), setLocalInput, addRemoteInput and dispose() of the
   * session, and ticks, restore and dispose() of its world, are refused
   * there (docs/rollback.md#re-entrancy).
   */
  onConfirmed?: (tick: number, hash: bigint) => void;
  /**
   * Called at the end of an advance() that rolled back, with the ticks it
   * re-simulated (fromTick..toTick, inclusive), before onConfirmed. Observers
   * saw `ctx.resimulating` true for those ticks (docs/changes.md#rollback):
   * a renderer that skipped its side effects then resynchronises here. An
   * error it throws comes out of advance() (the ticks have run); the same
   * calls as in onConfirmed are refused inside it.
   */
  onResimulated?: (fromTick: number, toTick: number) => void;
  /**
   * The checksum kept of every confirmed tick (what two peers compare;
   * docs/rollback.md#checksums): 'fast' (default: the C++ World::stateChecksum, 64-bit XXH3 over the
   * canonical state, computed only for ticks that become confirmed),
   * 'stateHash' (World.stateHash, FNV-1a-64, after every tick run) or
   * 'columns' (the C++ columnChecksumCached on 'fast''s schedule: one hash
   * per column kept in the world, only the columns written since hashed
   * again; docs/determinism.md#the-column-checksum). Every peer of a
   * session must use the same.
   */
  checksum?: 'fast' | 'stateHash' | 'columns';
}

/** A confirmed tick and its checksum (options.checksum of the state after it: the fast checksum, or World.stateHash). */
export interface ConfirmedHash {
  tick: number;
  hash: bigint;
}

/** What the last advance() did (the demo's frame graph). */
export interface RollbackAdvance {
  /** The tick it ran (== currentTick after it). */
  tick: number;
  /** Ticks it restored back over (0 = no rollback). */
  rolledBackTicks: number;
  /** Ticks it re-ran (== rolledBackTicks; the new tick not included). */
  resimulatedTicks: number;
  /** Wall-clock milliseconds of the whole call. */
  ms: number;
  /** The ticks it confirmed, in order. */
  confirmed: readonly ConfirmedHash[];
}

/** The session's counters since creation. */
export interface RollbackStats {
  advances: number;
  rollbacks: number;
  resimulatedTicks: number;
  predictionMisses: number;
  predictionHits: number;
  duplicateInputs: number;
  deepestRollback: number;
  lastAdvanceRolledBackTicks: number;
  lastAdvanceResimulatedTicks: number;
  ringGrowths: number;
}


function tickArg(where: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw invalid(`${where}: a tick is a non-negative integer, got ${describe(v)}`, typeof v === 'number' ? 'out_of_range' : 'wrong_type',
      { where, field: 'tick', got: typeof v === 'number' ? v : typeName(v) });
  }
  return v;
}

/** A numeric session option: an integer outside its range is the core's `rollback_option_invalid`. */
function option(min: Bound, max: Bound, def?: number): Extract<ArgCheck, { type: 'limit' }> {
  return { type: 'limit', min, max, default: def, reason: 'rollback_option_invalid', fields: (value, lo, hi, field) => ({ option: field, value, min: lo, max: hi }) };
}

/** What each option of createRollbackSession must be (checked in this order; limits: web/boundary.json). */
const SESSION_OPTIONS = {
  players: option(L.players.min, L.players.max, L.players.default),
  localPlayer: option(0, (o) => (o['players'] as number) - 1, 0),
  depth: option(L.depth.min, L.depth.max, L.depth.default),
  maxInputBytes: option(L.maxInputBytes.min, L.maxInputBytes.max, L.maxInputBytes.default),
  inputLead: option(L.inputLead.min, L.inputLead.max, L.inputLead.default),
  maxPredictionTicks: option(0, (o) => o['depth'] as number, 0),
  hashHistory: option(L.hashHistory.min, L.hashHistory.max, L.hashHistory.default),
  maxCombinedBytes: option(L.maxCombinedBytes.min, L.maxCombinedBytes.max, L.maxCombinedBytes.default),
  combine: { type: 'oneOf', values: ['lengthPrefixed', 'concatenate'], orFunction: '(tick, inputs) => Uint8Array' },
  checksum: { type: 'oneOf', values: ROLLBACK_ENUMS.checksum.values, default: ROLLBACK_ENUMS.checksum.default },
  onConfirmed: { type: 'function', expected: 'a function (tick, hash) => void' },
  onResimulated: { type: 'function', expected: 'a function (fromTick, toTick) => void' },
  sendDesync: { type: 'function', expected: 'a function (bytes) => void' },
  onDesync: { type: 'function', expected: 'a function (report) => void' },
  desyncMaxItems: { type: 'u32', min: 0, max: 65536, default: 16 },
} as const satisfies Record<string, ArgCheck>;

function bytesArg(where: string, v: unknown): Uint8Array {
  if (!(v instanceof Uint8Array)) throw invalid(`${where}: the input must be a Uint8Array, got ${describe(v)}`, 'wrong_type', { where, field: 'bytes', got: typeName(v) });
  return v;
}

/**
 * A rollback session (the C++ laige::RollbackSession): see
 * docs/rollback.md. Create it with sim.createRollbackSession(world or
 * scenario run, options). Every call does all it says or throws a
 * LaigeError and changes nothing (the world's state hash included).
 */
export class RollbackSession extends WorldBound implements Disposable {
  readonly #core: WorldCore;
  /** The world the session drives (a scenario run's world for a run). */
  readonly world: World;
  /** The scenario run, or null for a plain world. */
  readonly scenario: ScenarioRun | null;
  readonly players: number;
  readonly localPlayer: number;
  readonly depth: number;
  readonly maxInputBytes: number;
  /** How many confirmed hashes confirmedHash() keeps: max(options.hashHistory, depth + 2). */
  readonly hashHistory: number;
  /** What the last successful advance() did (all zero before the first). */
  lastAdvance: RollbackAdvance = { tick: 0, rolledBackTicks: 0, resimulatedTicks: 0, ms: 0, confirmed: [] };
  readonly #combine: RollbackCombine | null;
  readonly #onConfirmed: ((tick: number, hash: bigint) => void) | null;
  readonly #onResimulated: ((fromTick: number, toTick: number) => void) | null;
  #ptr: number;
  #input: number;
  #inAdvance = false;
  #error: { value: unknown } | null = null;
  #desync: DesyncLink | null = null;

  /** @internal Use sim.createRollbackSession. */
  constructor(world: World, options: RollbackSessionOptions, scenario: ScenarioRun | null) {
    super();
    const core = coreOf(world)!;
    this.#core = core;
    const where = 'createRollbackSession';
    checkArg(where, 'options', options, { type: 'object' });
    const w = core.live(where);
    refuseTickInside(where, core.calls, core.systems.running);
    const o = checkFields(where, options, SESSION_OPTIONS);
    const { players, localPlayer, depth, maxInputBytes, inputLead, maxPredictionTicks: maxPrediction, hashHistory, maxCombinedBytes: maxCombined } = o;
    const { combine, onConfirmed, onResimulated } = options;
    const mode = combine === 'concatenate' ? 1 : typeof combine === 'function' ? 2 : 0;
    const checksum = (ROLLBACK_ENUMS.checksum.values as readonly unknown[]).indexOf(o.checksum);
    if (scenario === null) core.systems.ensureScheduled();
    const m = core.mem;
    // A plain world's TypeScript systems may throw: stop the advance there.
    const code = core.raw.rollbackCreate(w, players, localPlayer, depth, maxInputBytes, inputLead, maxPrediction, hashHistory, maxCombined, mode, scenario === null, checksum, m.out);
    m.sync();
    if (code !== 0) throw coreError(code, where);
    this.#ptr = m.u32[m.out >>> 2]!;
    this.#input = core.raw.rollbackInputBuffer(this.#ptr);
    this.world = world;
    this.scenario = scenario;
    this.players = players;
    this.localPlayer = localPlayer;
    this.depth = depth;
    this.maxInputBytes = maxInputBytes;
    this.hashHistory = Math.max(hashHistory, depth + 2);
    this.#combine = typeof combine === 'function' ? combine : null;
    this.#onConfirmed = onConfirmed ?? null;
    this.#onResimulated = onResimulated ?? null;
    core.host.registerSession(this.#ptr, this);
    try {
      this.#desync = DesyncLink.create(core, w, this.#ptr, options, o.desyncMaxItems);
    } catch (e) {
      this._detach();
      throw e;
    }
    this.bind(core.dependents);
  }

  #live(where: string): number {
    if (this.#ptr === 0) throw invalid(`${where}: the rollback session is disposed (or its world is)`, 'disposed', { where, object: 'RollbackSession' });
    this.#core.live(where);
    return this.#ptr;
  }

  // The core refuses inputs inside its advance(); the onConfirmed callbacks
  // run after the core call returned but still inside advance(), so this
  // layer refuses them there too, with the core's reason and fields.
  #refuseInsideAdvance(where: string, call: string): void {
    if (!this.#inAdvance) return;
    const fields = { call };
    throw invalid(`${where}: ${messageFor('input_inside_advance', fields)}`, 'input_inside_advance', fields);
  }

  // Copies `bytes` into the session's input buffer (only when they fit:
  // a longer input is refused by the core with its size, unread).
  #stage(bytes: Uint8Array): void {
    if (bytes.length > this.maxInputBytes || bytes.length === 0) return;
    const m = this.#core.mem;
    m.sync();
    m.u8.set(bytes, this.#input);
  }

  /**
   * The local player's input for `tick` (before the advance() that runs it;
   * usually a few ticks ahead, the input delay). The same bytes again are a
   * no-op. Throws `input_too_large`, `input_too_early`, `input_conflict`,
   * `local_input_passed`, `input_inside_advance`.
   */
  setLocalInput(tick: number, bytes: Uint8Array): void {
    const where = 'RollbackSession.setLocalInput';
    const s = this.#live(where);
    this.#refuseInsideAdvance(where, 'setLocalInput');
    const t = tickArg(where, tick);
    const b = bytesArg(where, bytes);
    this.#stage(b);
    const code = this.#core.raw.rollbackSetLocalInput(s, t, b.length);
    if (code !== 0) throw coreError(code, where);
  }

  /**
   * Remote player `player`'s input for `tick`, in any order, duplicates
   * allowed (the same bytes again are a no-op). A tick already run that ran
   * with other bytes is rolled back to by the next advance(). Throws
   * `player_invalid`, `input_too_large`, `input_too_early`,
   * `input_conflict`, `input_too_late`, `input_inside_advance`.
   */
  addRemoteInput(player: number, tick: number, bytes: Uint8Array): void {
    const where = 'RollbackSession.addRemoteInput';
    const s = this.#live(where);
    this.#refuseInsideAdvance(where, 'addRemoteInput');
    const p = u32(`${where}: player`, player);
    const t = tickArg(where, tick);
    const b = bytesArg(where, bytes);
    this.#stage(b);
    const code = this.#core.raw.rollbackAddRemoteInput(s, p, t, b.length);
    if (code !== 0) throw coreError(code, where);
  }

  /**
   * Runs the next tick; first, when a late input changed a tick already
   * run, restores the snapshot before it and re-runs every tick up to the
   * present. Returns (and keeps as lastAdvance) what it did. Throws
   * `local_input_missing`, `prediction_limit`, `tick_inside_callback`
   * (inside any callback on this world: a system, an each, a combine
   * function or an onConfirmed callback of any of its sessions), or what a
   * TypeScript system or the combine function threw (after a throw the
   * world is as it was before the call), or what onConfirmed threw (after
   * the tick ran).
   */
  advance(): RollbackAdvance {
    const where = 'RollbackSession.advance';
    const s = this.#live(where);
    const core = this.#core;
    // Refused while anything of an advance() of this world is on the stack:
    // a system, an each, a combine function, an onConfirmed callback (this
    // session's or another's), and this session's own advance() however it
    // was re-entered (docs/rollback.md#re-entrancy).
    refuseTickInside(where, core.calls, core.systems.running || this.#inAdvance);
    if (this.scenario === null) core.systems.ensureScheduled();
    const before = this.confirmedTick;
    const t0 = performance.now();
    this.#inAdvance = true;
    let done: RollbackAdvance;
    try {
      done = this.#advance(s, where, before, t0);
    } finally {
      this.#inAdvance = false;
    }
    // Remote checksums given before these ticks were confirmed (or inside onConfirmed).
    this.#checkRemoteHashes();
    return done;
  }

  /**
   * The remote peer's confirmed checksum of `tick` (what its onConfirmed
   * gave), from any transport: compared with this session's once `tick` is
   * confirmed here. At the first tick whose checksums differ, the session
   * pins that tick and its desync exchange asks the remote (through
   * options.sendDesync) until the report is ready for options.onDesync
   * (docs/desync.md#across-peers). Throws `desync_not_enabled` without
   * options.sendDesync, `wrong_type` / `out_of_range` for a bad argument;
   * what the pin throws (a TypeScript system's error, `desync_tick_unavailable`).
   */
  addRemoteHash(tick: number, hash: bigint): void {
    const where = 'RollbackSession.addRemoteHash';
    if (logHandlers.depth !== 0) refuseInsideLog(where);
    this.#live(where);
    const link = this.#link(where);
    const t = tickArg(where, tick);
    if (t === 0) throw invalid(`${where}: ticks are numbered from 1, got 0`, 'out_of_range', { where, field: 'tick', got: 0 });
    link.remember(t, u64(`${where}: hash`, hash));
    if (!this.#inAdvance) this.#checkRemoteHashes();
  }

  /**
   * One message of the remote peer's desync exchange (what its
   * options.sendDesync handed over). Requests are answered from the pinned
   * tick (pinned now if need be); answers move the walk on; the report goes
   * to options.onDesync. Throws `desync_not_enabled`, `desync_message_*`,
   * `desync_answer_unexpected`, `desync_remote_refused`,
   * `desync_tick_unavailable`, `desync_already_pinned`,
   * `state_tree_node_invalid` (docs/desync.md#across-peers); the session and
   * its world are unchanged then.
   */
  receiveDesync(bytes: Uint8Array): void {
    const where = 'RollbackSession.receiveDesync';
    if (logHandlers.depth !== 0) refuseInsideLog(where);
    this.#live(where);
    this.#link(where).receive(bytes);
  }

  /** The first confirmed tick whose checksums differed from the remote's (0 = none seen). */
  get desyncTick(): number {
    return this.#desync?.detectedTick ?? 0;
  }

  #link(where: string): DesyncLink {
    if (this.#desync === null) throw invalid(`${where}: the session has no desync exchange (create it with options.sendDesync)`, 'desync_not_enabled', { where });
    return this.#desync;
  }

  #checkRemoteHashes(): void {
    const link = this.#desync;
    if (link === null || link.detectedTick !== 0) return;
    link.check(this.confirmedTick, (t) => {
      try {
        return this.confirmedHash(t);
      } catch {
        return null;
      }
    });
  }

  // advance() after its checks; #inAdvance is set for all of it, the
  // onConfirmed callbacks included.
  #advance(s: number, where: string, before: number, t0: number): RollbackAdvance {
    const core = this.#core;
    this.#error = null;
    let code: number;
    let error: { value: unknown } | null;
    try {
      code = core.systems.guard(() => core.raw.rollbackAdvance(s)); // rethrows a TypeScript system's error
    } finally {
      error = this.#error as { value: unknown } | null; // set by _combine during the call
      this.#error = null;
    }
    if (error !== null) throw error.value;
    if (code !== 0) throw coreError(code, where);
    const ms = performance.now() - t0;
    const st = this.#state();
    const confirmed: ConfirmedHash[] = [];
    for (let t = before + 1; t <= st.confirmedTick; t++) confirmed.push({ tick: t, hash: this.confirmedHash(t) });
    this.lastAdvance = { tick: st.currentTick, rolledBackTicks: st.lastAdvanceRolledBackTicks, resimulatedTicks: st.lastAdvanceResimulatedTicks, ms, confirmed };
    const resim = this.#onResimulated;
    if (resim !== null && st.lastAdvanceResimulatedTicks > 0) {
      // The re-run ticks are the ones before the new tick.
      core.calls.enter('onResimulated');
      try {
        resim(st.currentTick - st.lastAdvanceResimulatedTicks, st.currentTick - 1);
      } finally {
        core.calls.leave();
      }
    }
    const fn = this.#onConfirmed;
    if (fn !== null) {
      // The tick has run: every callback is called, then the first error is
      // rethrown. The callbacks run inside the advance: a tick of the world,
      // an advance, a restore or a dispose from one is refused.
      let failure: { value: unknown } | null = null;
      core.calls.enter('onConfirmed');
      try {
        for (const c of confirmed) {
          try {
            fn(c.tick, c.hash);
          } catch (e) {
            failure ??= { value: e };
          }
        }
      } finally {
        core.calls.leave();
      }
      if (failure !== null) throw failure.value;
    }
    return this.lastAdvance;
  }

  // The session's state words (web/layouts.json RollbackState), read into a fresh object.
  #state(): RollbackState {
    const m = this.#core.mem;
    this.#core.raw.rollbackState(this.#live('RollbackSession.stats'), m.out);
    m.sync();
    return readRollbackState(m.f64, m.out >>> 3);
  }

  /** Ticks run (0 before the first advance). */
  get currentTick(): number {
    return this.#state().currentTick;
  }

  /** The last tick whose every player's input is known (as of the last advance). */
  get confirmedTick(): number {
    return this.#state().confirmedTick;
  }

  /** The earliest tick a late remote input may still be given for. */
  get oldestTick(): number {
    return this.#state().oldestTick;
  }

  /** The earliest tick the next advance() rolls back to (0 = none pending). */
  get pendingRollbackTick(): number {
    return this.#state().pendingRollbackTick;
  }

  /** The counters since creation. */
  get stats(): RollbackStats {
    const s = this.#state();
    return {
      advances: s.advances, rollbacks: s.rollbacks, resimulatedTicks: s.resimulatedTicks, predictionMisses: s.predictionMisses,
      predictionHits: s.predictionHits, duplicateInputs: s.duplicateInputs, deepestRollback: s.deepestRollback,
      lastAdvanceRolledBackTicks: s.lastAdvanceRolledBackTicks, lastAdvanceResimulatedTicks: s.lastAdvanceResimulatedTicks, ringGrowths: s.ringGrowths,
    };
  }

  /** The checksum of confirmed tick `tick` (options.checksum; the last hashHistory ones). Throws `hash_unavailable`. */
  confirmedHash(tick: number): bigint {
    const where = 'RollbackSession.confirmedHash';
    const s = this.#live(where);
    const t = tickArg(where, tick);
    const m = this.#core.mem;
    const code = this.#core.raw.rollbackConfirmedHash(s, t, m.out);
    m.sync();
    if (code !== 0) throw coreError(code, where);
    return m.u64At(m.out);
  }

  /** The confirmed hashes still in the history, from `fromTick` (default: the oldest kept) to confirmedTick. */
  confirmedHashes(fromTick?: number): ConfirmedHash[] {
    const last = this.confirmedTick;
    const oldest = Math.max(1, last - this.hashHistory + 1);
    const from = fromTick === undefined ? oldest : Math.max(1, tickArg('RollbackSession.confirmedHashes', fromTick));
    const out: ConfirmedHash[] = [];
    for (let t = from; t <= last; t++) out.push({ tick: t, hash: this.confirmedHash(t) });
    return out;
  }

  /** @internal Module.laigeRollbackCombine: the bytes written at `out`, or -1 (the error is rethrown by advance). Never throws. */
  _combine(tick: number, pairs: number, players: number, out: number, capacity: number): number {
    const fn = this.#combine;
    if (fn === null) return -1;
    const core = this.#core;
    const m = core.mem;
    core.calls.enter('combine');
    try {
      m.sync();
      const inputs: Uint8Array[] = [];
      for (let p = 0; p < players; p++) {
        const at = m.u32[(pairs >>> 2) + 2 * p]!;
        const size = m.u32[(pairs >>> 2) + 2 * p + 1]!;
        inputs.push(m.u8.slice(at, at + size));
      }
      const r: unknown = fn(tick, inputs);
      if (!(r instanceof Uint8Array)) throw invalid(`RollbackSession combine(${tick}): must return a Uint8Array, got ${describe(r)}`, 'wrong_type', { where: 'RollbackSession combine', field: 'return value', got: typeName(r), tick });
      if (r.length > capacity) {
        // The core's reason for a combiner that wrote too much (it never sees these bytes).
        const fields = { size: r.length, max: capacity };
        throw new LaigeError(ErrorCodes.budget_exhausted, `RollbackSession combine(${tick}): ${messageFor('combined_input_too_large', fields)}`,
          'combined_input_too_large', fields);
      }
      m.sync();
      m.u8.set(r, out);
      return r.length;
    } catch (e) {
      if (this.#error === null) this.#error = { value: e };
      return -1;
    } finally {
      core.calls.leave();
    }
  }

  /** @internal Module.laigeRollbackAfterTick: 1 when a TypeScript system of the tick threw. */
  _afterTick(): number {
    return this.#core.systems.hasError ? 1 : 0;
  }

  /** @internal Module.laigeRollbackRestored: column views and archetype classifications are stale. */
  _restored(): void {
    noteRestored(this.#core);
  }

  /** True after dispose() (or after its world was disposed). */
  get disposed(): boolean {
    return this.#ptr === 0;
  }

  /** @internal Refused, never deferred, while one of its own calls is on the stack. */
  protected _refuseDispose(): void {
    if (this.#inAdvance) refuseDisposeInside('RollbackSession.dispose', 'RollbackSession', activeCallback(this.#core.calls) ?? 'system');
  }

  /** "RollbackSession(2 players, local 0, tick 12, confirmed 10)" (console.log and util.inspect show it too). */
  toString(): string {
    return this.#ptr === 0 ? 'RollbackSession(disposed)'
      : `RollbackSession(${this.players} players, local ${this.localPlayer}, tick ${this.currentTick}, confirmed ${this.confirmedTick})`;
  }

  /** @internal util.inspect / console.log: toString(), not the internals (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }

  /** @internal */
  _detach(): void {
    if (this.#ptr === 0) return;
    this.#core.host.unregisterSession(this.#ptr);
    this.#desync?.dispose();
    this.#desync = null;
    this.#core.raw.rollbackDestroy(this.#ptr);
    this.#ptr = 0;
  }
}
