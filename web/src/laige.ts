// sim.ts - loadLaige() and the module object: worlds, loops, replays,
// scenarios and log forwarding over one wasm instance.
import { requireDevtools } from './core/devtools.js';
import { LOOP_LIMITS } from './boundary/limits.gen.js';
import { type LaigeError, addFailureSource, coreError, invalid, typeName } from './base/errors.js';
import { GameLoop, type GameLoopOptions } from './loop/game_loop.js';
import { type LaigeRawModule, Mem, instantiate } from './boundary/raw.js';
import { type LoadOptions, type WasmBytes, initialMemoryOf, wasmBytes } from './boundary/wasm_source.js';
import {
  type RecordOptions, type ReplayDiff, type ReplayInfo, type ReplayRunOptions, ReplayRecorder,
  MATH_CHECK, identityOf, logBytes, mathId, parseFailure,
} from './replay/replay_recorder.js';
import { type ReplayOpenOptions, ReplayPlayer } from './replay/replay_player.js';
import { describe } from './base/describe.js';
import { logHandlers, refuseInsideLog, refuseTickInside, within } from './base/reentrancy.js';
import { type ArgCheck, checkArg, checkFields, coreRange, hi, lo, tickOf, u32, u64 } from './base/args.js';
import { INSPECT, count } from './base/inspect.js';
import { World, type WorldOptions } from './world.js';
import { handleOrNull } from './component/entity.js';
import { visitRelation } from './relations/relations.js';
import { type LoopHooks, type RollbackHooks, type WorldCore, coreOf } from './core/world_core.js';

/** The core's rollback hooks on the emscripten Module (web/bindings/rollback.cpp). */
type RollbackModuleHooks = {
  laigeRollbackCombine?: (s: number, tick: number, pairs: number, players: number, out: number, capacity: number) => number;
  laigeRollbackAfterTick?: (s: number, tick: number) => number;
  laigeRollbackRestored?: (s: number) => void;
};
import { type ScenarioInfo, ScenarioRun } from './scenario/scenario_run.js';

export { ScenarioRun };
export type { ScenarioInfo };
import { RollbackSession, type RollbackSessionOptions } from './rollback/rollback_session.js';
import { LOG_TEXTS } from './boundary/log_texts.gen.js';

/** A log record of the core (JsSink -> Module.onLaigeLog). */
export interface LogRecord {
  severity: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  /** Stable snake_case subsystem, e.g. 'ecs'. */
  subsystem: string;
  /** Stable snake_case event, e.g. 'stale_entity_access'. */
  event: string;
  /** The message (warn/error: the 5-field line). */
  message: string;
  /** Structured fields, as strings. */
  fields: Record<string, string>;
  /** Wall-clock microseconds. */
  timestampUs: number;
}

/** Log levels, lowest first. */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'off';
const LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'off'];
/**
 * The scenario_unknown error. The module of '@laige/sim' holds no scenario
 * (docs/build.md#the-two-wasm-modules): then the message names the entry
 * whose module has them.
 */
function unknownScenario(where: string, call: string, name: string, all: ScenarioInfo[]): LaigeError {
  const which = all.length === 0
    ? "this module has no built-in scenarios: load the API from '@laige/sim/scenarios' (docs/scenarios.md#loading-the-scenarios)"
    : `one of ${all.map((s) => s.name).join(', ')}`;
  return invalid(`${where}: no such scenario (${which})`, 'scenario_unknown', { where: call, scenario: name, scenarios: all.length });
}

/** Scenario names into wasm memory (scenarioPlayerInput). */
const nameEncoder = new TextEncoder();

/** Options of runScenario. */
export interface ScenarioOptions {
  /** Ticks to run (0..65536). Default: the scenario's. */
  ticks?: number;
  /** The seed. Default: the scenario's. */
  seed?: bigint;
}

/** What runScenario returns: the `<tick> <hash>` stream laige-detcheck prints. */
export interface ScenarioStream {
  name: string;
  seed: bigint;
  ticks: number;
  /** Exactly the text laige-detcheck prints: one `<tick> <16 hex>` line per tick 0..ticks. */
  text: string;
  /** stateHash(t) for t = 0..ticks. */
  hashes: bigint[];
}

/** Options of openScenario. */
export interface OpenScenarioOptions {
  /** The seed. Default: the scenario's. */
  seed?: bigint;
}

/** What the options of runReplay and diffReplays must be, in order (then #replayWorld checks world and setup). */
const REPLAY_RUN_OPTIONS = {
  tickRateHz: { type: 'u32', min: LOOP_LIMITS.tickRateHz.min, max: LOOP_LIMITS.tickRateHz.max, default: LOOP_LIMITS.tickRateHz.default },
  math: MATH_CHECK,
} as const satisfies Record<string, ArgCheck>;
const REPLAY_DIFF_OPTIONS = { ...REPLAY_RUN_OPTIONS, maxEntries: { type: 'u32', min: 0, max: 64, default: 16 } } as const satisfies Record<string, ArgCheck>;

/** The loaded module: the entry point of @laige/sim. */
export class Laige {
  /** @internal */ readonly raw: LaigeRawModule;
  /** @internal */ readonly mem: Mem;
  readonly #worlds = new Map<number, WorldCore>();
  readonly #loops = new Map<number, LoopHooks>();
  readonly #sessions = new Map<number, RollbackHooks>();
  #onLog: ((record: LogRecord) => void) | null = null;

  /** @internal Use loadLaige(). */
  constructor(module: LaigeRawModule) {
    this.mem = new Mem(module);
    this.raw = this.mem.raw;
    const raw = module;
    raw.laigeRunSystem = (w, id, tick, rng, input, size) => {
      this.#worlds.get(w)?.systems.dispatch(id, tick, rng, input, size);
    };
    raw.laigeSystemError = (w, _id, error) => {
      this.#worlds.get(w)?.systems.recordError(error);
    };
    raw.laigeClockNs = (w) => this.#worlds.get(w)?.systems.clockNs() ?? 0;
    raw.laigeObserver = (w, id, event, _component, e, value, depth, resim) => this.#worlds.get(w)?.observers?._dispatch(id, event, e, value, depth, resim) ?? 0;
    raw.laigeTickInput = (l, tick) => this.#loops.get(l)?._tickInput(tick) ?? -2;
    raw.laigeAfterTick = (l, tick) => this.#loops.get(l)?._afterTick(tick) ?? 1;
    const hooks = raw as unknown as RollbackModuleHooks;
    hooks.laigeRollbackCombine = (s, tick, pairs, players, out, capacity) => this.#sessions.get(s)?._combine(tick, pairs, players, out, capacity) ?? -1;
    hooks.laigeRollbackAfterTick = (s) => this.#sessions.get(s)?._afterTick() ?? 1;
    hooks.laigeRollbackRestored = (s) => this.#sessions.get(s)?._restored();
    (raw as unknown as { laigeRelationVisit: typeof visitRelation }).laigeRelationVisit = visitRelation;
    addFailureSource(() => {
      const f = this.raw.lastFailure();
      if (f !== null) this.raw.clearLastFailure();
      return f;
    });
    raw.onLaigeLog = (sent) => {
      const fn = this.#onLog;
      if (fn === null) return;
      // The module leaves the catalogue's texts out: its id names the message (docs/logging.md#message-texts).
      const { textId, ...rest } = sent;
      const record: LogRecord = { ...rest, message: textId !== 0 ? LOG_TEXTS[textId] ?? '' : sent.message };
      // While a handler runs, every world counts as on the stack (reentrancy.ts).
      logHandlers.depth++;
      try {
        fn(record);
      } finally {
        logHandlers.depth--;
      }
    };
    this.raw.logInstallJsSink();
    this.mem.sync();
  }

  /** @internal */
  registerWorld(ptr: number, core: WorldCore): void {
    this.#worlds.set(ptr, core);
  }

  /** @internal */
  unregisterWorld(ptr: number): void {
    this.#worlds.delete(ptr);
  }

  /** @internal */
  registerLoop(ptr: number, loop: LoopHooks): void {
    this.#loops.set(ptr, loop);
  }

  /** @internal */
  registerSession(ptr: number, session: RollbackHooks): void {
    this.#sessions.set(ptr, session);
  }

  /** @internal */
  unregisterSession(ptr: number): void {
    this.#sessions.delete(ptr);
  }

  /** @internal */
  unregisterLoop(ptr: number): void {
    this.#loops.delete(ptr);
  }

  /** The library version, e.g. '0.1.0'. */
  get version(): string {
    return this.raw.version();
  }

  /** Live (not disposed) worlds of this module. */
  get worldCount(): number {
    return this.#worlds.size;
  }

  /** The wasm memory size in bytes (it only grows). */
  get memoryBytes(): number {
    return this.mem.module.HEAPU8.length;
  }

  /** The C++ registry's 5-field line of an error code (what LaigeError.line mirrors). */
  errorLine(codeId: number): string {
    return this.raw.errorLine(u32('errorLine', codeId));
  }

  /** Creates a world with every World::Options field. */
  createWorld(options: WorldOptions): World {
    return new World(this, options);
  }

  /**
   * A fixed-tick loop; call frame(performance.now()) from requestAnimationFrame.
   * Over a World: its systems (each tick's input: `options.input`, else none).
   * Over a ScenarioRun (openScenario): the scenario's C++ systems, each tick's
   * input being `options.input`'s payload or, by default, the scenario's own
   * generated input, so the loop reproduces the golden stream whatever ticks
   * its frames run. The run's world itself is rejected (pass the run). The
   * loop and ScenarioRun.step share the run's tick count.
   */
  createGameLoop(target: World | ScenarioRun, options: GameLoopOptions = {}): GameLoop {
    if (target instanceof ScenarioRun) {
      this.#own('createGameLoop', target.world);
      return new GameLoop(this, target.world, options, target);
    }
    const world = this.#own('createGameLoop', target);
    const scenario = coreOf(world)!.scenario;
    if (scenario !== null) {
      throw invalid(`createGameLoop: this world belongs to the C++ scenario run '${scenario}': pass the ScenarioRun itself`, 'scenario_world', { where: 'createGameLoop', scenario });
    }
    return new GameLoop(this, world, options);
  }

  /**
   * A rollback session (docs/rollback.md) over a World with TypeScript
   * systems, or over a C++ scenario run (openScenario; the players' combined
   * input replaces the scenario's generated input). The run's world itself
   * is rejected (pass the run).
   */
  createRollbackSession(target: World | ScenarioRun, options: RollbackSessionOptions = {}): RollbackSession {
    if (target instanceof ScenarioRun) {
      this.#own('createRollbackSession', target.world);
      return new RollbackSession(target.world, options, target);
    }
    const world = this.#own('createRollbackSession', target);
    const scenario = coreOf(world)!.scenario;
    if (scenario !== null) {
      throw invalid(`createRollbackSession: this world belongs to the C++ scenario run '${scenario}': pass the ScenarioRun itself`, 'scenario_world', { where: 'createRollbackSession', scenario });
    }
    return new RollbackSession(world, options, null);
  }

  /** Starts recording a replay of `world` (before its first tick). */
  recordReplay(world: World, options: RecordOptions = {}): ReplayRecorder {
    this.#own('recordReplay', world);
    return new ReplayRecorder(world, options);
  }

  #own(where: string, world: unknown): World {
    const core = coreOf(world);
    if (!(world instanceof World) || core === undefined) throw invalid(`${where}: expected a World${where === 'createGameLoop' || where === 'createRollbackSession' ? ' or a ScenarioRun' : ''}, got ${describe(world)}`, 'wrong_type', { where, field: 'world', got: typeName(world) });
    if (core.host !== this) throw invalid(`${where}: the world belongs to another module instance`, 'foreign_world', { where, field: 'world' });
    return world;
  }

  /** Parses a replay log (MalformedInput for anything that is not a well-formed LGRP log (version 1, 2 or 3)). */
  parseReplay(bytes: Uint8Array): ReplayInfo {
    const where = 'parseReplay';
    logBytes(where, bytes);
    const m = this.mem;
    const p = m.copyIn(bytes);
    try {
      const r = this.raw.replayParse(p, bytes.length);
      m.sync();
      if (r.code !== 0) throw parseFailure(where, r.code);
      return {
        identity: identityOf(r.identity!),
        frameCount: r.frameCount!,
        frames: r.frames!.map(([tick, size]) => ({ tick, size })),
        formatVersion: r.formatVersion!,
        keyframes: r.keyframes!.map(([tick, size]) => ({ tick, size })),
      };
    } finally {
      this.raw._free(p);
    }
  }

  #replayWorld(where: string, bytes: Uint8Array, options: ReplayRunOptions): World {
    if (typeof options !== 'object' || options === null) throw invalid(`${where}: options {world, setup} are required, got ${describe(options)}`, 'wrong_type', { where, field: 'options', got: typeName(options) });
    if (typeof options.setup !== 'function') throw invalid(`${where}: setup must be a function that registers the recording's components and systems, got ${describe(options.setup)}`, 'wrong_type', { where, field: 'setup', got: typeName(options.setup) });
    if (typeof options.world !== 'object' || options.world === null) throw invalid(`${where}: world options are required, got ${describe(options.world)}`, 'wrong_type', { where, field: 'world', got: typeName(options.world) });
    const info = this.parseReplay(bytes);
    const world = this.createWorld({ ...options.world, seed: options.world.seed ?? info.identity.seed });
    try {
      within(coreOf(world)!.calls, 'setup', () => options.setup(world));
    } catch (e) {
      world.dispose();
      throw e;
    }
    return world;
  }

  /**
   * Replays `bytes` into a fresh world built from `options` (setup must
   * register what the recording world had) and returns stateHash(t) for
   * t = 0..frameCount.
   */
  runReplay(bytes: Uint8Array, options: ReplayRunOptions): bigint[] {
    const where = 'runReplay';
    refuseTickInside(where, null);
    logBytes(where, bytes);
    const { tickRateHz: rate, math: mathName } = checkFields(where, options ?? {}, REPLAY_RUN_OPTIONS);
    const math = mathId(where, mathName);
    const world = this.#replayWorld(where, bytes, options);
    const m = this.mem;
    const p = m.copyIn(bytes);
    try {
      const core = coreOf(world)!;
      const r = core.systems.guard(() => this.raw.replayRun(core.ptr, p, bytes.length, rate, math));
      if (r.code !== 0) throw coreError(r.code, where);
      const h = r.hashes!;
      const out: bigint[] = [];
      for (let i = 0; i < h.length; i += 2) out.push((BigInt(h[i + 1]!) << 32n) | BigInt(h[i]!));
      return out;
    } finally {
      this.raw._free(p);
      world.dispose();
    }
  }

  /**
   * Opens a time-travel player over `bytes` (docs/replay.md#time-travel):
   * a fresh world built from `options` as for runReplay ({ world, setup,
   * tickRateHz?, math? }), or `{ scenario }` for a recording of a built-in
   * C++ scenario run. The player owns that world; seek(tick), step() and
   * stepBack() move it through the recording. Errors as runReplay, plus
   * keyframe_mismatch when the log's keyframes do not fit the world.
   */
  openReplay(bytes: Uint8Array, options: ReplayOpenOptions): ReplayPlayer {
    const where = 'openReplay';
    requireDevtools(this.raw, where, 'the replay player');
    refuseTickInside(where, null);
    logBytes(where, bytes);
    if (typeof options !== 'object' || options === null) throw invalid(`${where}: options ({world, setup} or {scenario}) are required, got ${describe(options)}`, 'wrong_type', { where, field: 'options', got: typeName(options) });
    if ('scenario' in options) {
      const name = options.scenario;
      if (typeof name !== 'string') throw invalid(`${where}: scenario must be a string, got ${describe(name)}`, 'wrong_type', { where, field: 'scenario', got: typeName(name) });
      const all = this.scenarios();
      const s = all.find((x) => x.name === name);
      if (s === undefined) throw unknownScenario(where, where, name, all);
      const info = this.parseReplay(bytes);
      const run = this.openScenario(name, { seed: info.identity.seed });
      try {
        return new ReplayPlayer(this, run.world, bytes, s.tickRateHz, mathId(where, s.math), run);
      } catch (e) {
        run.dispose();
        throw e;
      }
    }
    const { tickRateHz: rate, math: mathName } = checkFields(where, options, REPLAY_RUN_OPTIONS);
    const math = mathId(where, mathName);
    const world = this.#replayWorld(where, bytes, options);
    try {
      return new ReplayPlayer(this, world, bytes, rate, math, world);
    } catch (e) {
      world.dispose();
      throw e;
    }
  }

  /** Runs two logs in lock step (worlds built alike from `options`) and reports the first divergence. */
  diffReplays(a: Uint8Array, b: Uint8Array, options: ReplayRunOptions & { maxEntries?: number }): ReplayDiff {
    const where = 'diffReplays';
    requireDevtools(this.raw, where, 'the replay diff');
    refuseTickInside(where, null);
    logBytes(`${where}: a`, a);
    logBytes(`${where}: b`, b);
    const { tickRateHz: rate, math: mathName, maxEntries: max } = checkFields(where, options ?? {}, REPLAY_DIFF_OPTIONS);
    const math = mathId(where, mathName);
    const wa = this.#replayWorld(where, a, options);
    let wb: World | null = null;
    const m = this.mem;
    let pa = 0;
    let pb = 0;
    try {
      wb = this.#replayWorld(where, b, options);
      const worldB = wb;
      pa = m.copyIn(a);
      pb = m.copyIn(b);
      const ca = coreOf(wa)!;
      const cb = coreOf(worldB)!;
      const r = ca.systems.guard(() => cb.systems.guard(() =>
        this.raw.replayDiff(ca.ptr, cb.ptr, pa, a.length, pb, b.length, rate, math, max)));
      if (r.code !== 0) throw coreError(r.code, r.which ? `${where}: log ${r.which}` : where);
      return {
        identical: r.identical!, firstDivergentTick: r.firstDivergentTick!, lengthDivergence: r.lengthDivergence!,
        fullStateDivergent: r.fullStateDivergent!, framesA: r.framesA!, framesB: r.framesB!, differingItems: r.differingItems!,
        entries: r.entries!.map((e) => ({
          ...e, bytesA: Uint8Array.from(e.bytesA), bytesB: Uint8Array.from(e.bytesB), component: ca.components[e.componentId]?.name ?? '',
          entityA: handleOrNull(e.entityA), entityB: handleOrNull(e.entityB), targetA: handleOrNull(e.targetA), targetB: handleOrNull(e.targetB),
        })),
      };
    } finally {
      if (pa !== 0) this.raw._free(pa);
      if (pb !== 0) this.raw._free(pb);
      wa.dispose();
      wb?.dispose();
    }
  }

  /** The built-in scenarios (the same C++ as laige-detcheck). */
  scenarios(): ScenarioInfo[] {
    const list = this.raw.scenarioList();
    this.mem.sync();
    return list.map((s) => ({ ...s, defaultSeed: BigInt(`0x${s.defaultSeed}`), math: s.math === 1 ? 'float_pinned_32' : 'fixed_point_16_16' }));
  }

  /** Runs a built-in scenario and returns its `<tick> <hash>` stream, line for line what laige-detcheck prints. */
  runScenario(name: string, options: ScenarioOptions = {}): ScenarioStream {
    const where = `runScenario(${describe(name)})`;
    refuseTickInside(where, null);
    if (typeof name !== 'string') throw invalid(`${where}: name must be a string, got ${describe(name)}`, 'wrong_type', { where: 'runScenario', field: 'name', got: typeName(name) });
    if (typeof options !== 'object' || options === null) throw invalid(`${where}: options must be an object, got ${describe(options)}`, 'wrong_type', { where: 'runScenario', field: 'options', got: typeName(options) });
    const info = this.scenarios().find((s) => s.name === name);
    if (info === undefined) throw unknownScenario(where, 'runScenario', name, this.scenarios());
    const ticks = options.ticks === undefined ? info.defaultTicks
      : coreRange(`${where}: ticks`, options.ticks, 0, 65536, 'scenario_ticks_invalid', (v) => ({ scenario: name, ticks: v, max_ticks: 65536 }));
    const seed = options.seed === undefined ? info.defaultSeed : u64(`${where}: seed`, options.seed);
    const r = this.raw.scenarioRun(name, Number(seed & 0xffffffffn), Number(seed >> 32n), false, ticks, false);
    this.mem.sync();
    if (r.code !== 0) throw coreError(r.code, where);
    const text = r.text!;
    const hashes = text.split('\n').filter((l) => l.length > 0).map((l) => BigInt(`0x${l.slice(l.indexOf(' ') + 1)}`));
    return { name, seed, ticks, text, hashes };
  }

  /**
   * Opens a built-in C++ scenario as a run stepped tick by tick: its world is
   * a World this module can read. Unknown names and bad seeds: InvalidArgument.
   */
  openScenario(name: string, options: OpenScenarioOptions = {}): ScenarioRun {
    const where = `openScenario(${describe(name)})`;
    if (typeof name !== 'string') throw invalid(`${where}: name must be a string, got ${describe(name)}`, 'wrong_type', { where: 'openScenario', field: 'name', got: typeName(name) });
    if (typeof options !== 'object' || options === null) throw invalid(`${where}: options must be an object, got ${describe(options)}`, 'wrong_type', { where: 'openScenario', field: 'options', got: typeName(options) });
    const all = this.scenarios();
    const info = all.find((s) => s.name === name);
    if (info === undefined) throw unknownScenario(where, 'openScenario', name, all);
    const seed = options.seed === undefined ? info.defaultSeed : u64(`${where}: seed`, options.seed);
    const m = this.mem;
    const code = this.raw.scenarioOpen(name, Number(seed & 0xffffffffn), Number(seed >> 32n), false, m.out);
    m.sync();
    if (code !== 0) throw coreError(code, where);
    const ptr = m.u32[m.out >>> 2]!;
    const world = new World(this, { capacity: info.capacity, churnPerFrameBudget: info.churnPerFrameBudget, seed, deterministic: true },
      { ptr, scenario: name });
    return new ScenarioRun(this, info, seed, world);
  }

  /**
   * Player `player`'s input for `tick` from scenario `name`'s per-player
   * input generator: the C++ function laige-peer's rollback mode and the C++
   * tests call (`cpp/scenarios/player_input.h`), so two peers of a
   * rollback session (docs/rollback.md#player-inputs) and a reference
   * run compute the same bytes. A pure function of (player, tick): no state,
   * allowed anywhere (inside a system, a combine function, a log handler).
   * Today the `input` scenario has one: 0..2 six-byte commands (op, pawn,
   * a: i16 LE, b: i16 LE) for player p's pawns 8p..8p+7, held 4 ticks;
   * the players' inputs are combined by concatenation (`combine: 'concatenate'`).
   *
   * ```ts
   * const mine = sim.scenarioPlayerInput('input', session.localPlayer, tick); // a fresh Uint8Array, 0..12 bytes
   * session.setLocalInput(tick, mine);
   * ```
   *
   * Errors (LaigeError invalid_argument): `scenario_unknown` (no scenario of
   * that name), `scenario_no_player_input` (the scenario has no generator);
   * `wrong_type` / `out_of_range` for a name that is not a string, a player
   * that is not an integer in 0..2^32-1, or a tick that is not a
   * non-negative safe integer or a bigint in 0n..2n**64n-1n.
   * Cost: one wasm call, one copy of at most 64 bytes.
   */
  scenarioPlayerInput(name: string, player: number, tick: number | bigint): Uint8Array {
    const where = 'scenarioPlayerInput';
    checkArg(where, 'name', name, { type: 'string' });
    const p = u32(`${where}: player`, player);
    const t = tickOf(`${where}: tick`, tick);
    const m = this.mem;
    m.sync();
    // Names longer than the scratch area are cut there: no scenario has such a name, so the answer stays scenario_unknown.
    const { written } = nameEncoder.encodeInto(name, m.u8.subarray(m.scratch, m.scratch + m.scratchSize));
    const n = this.raw.scenarioPlayerInput(m.scratch, written, p, lo(t), hi(t), m.out);
    if (n < 0) throw coreError(-n, `${where}(${describe(name)})`);
    return m.u8.slice(m.out, m.out + n);
  }

  /** Receives every log record of the core (null stops it). Records are rate-limited per event by the core. */
  onLog(fn: ((record: LogRecord) => void) | null): void {
    if (fn !== null && typeof fn !== 'function') throw invalid(`onLog: expected a function or null, got ${describe(fn)}`, 'wrong_type', { where: 'onLog', field: 'fn', got: typeName(fn) });
    this.#onLog = fn;
  }

  /** Turns the core's per-event rate limiting of warn/error records on (default) or off (tests that count events). */
  setLogRateLimiting(on: boolean): void {
    if (typeof on !== 'boolean') throw invalid(`setLogRateLimiting: expected a boolean, got ${describe(on)}`, 'wrong_type', { where: 'setLogRateLimiting', field: 'on', got: typeName(on) });
    this.raw.logSetRateLimiting(on);
    this.mem.sync();
  }

  /** The lowest severity the core builds records for. */
  setLogLevel(level: LogLevel): void {
    const i = LEVELS.indexOf(level);
    if (i < 0) throw invalid(`setLogLevel: one of ${LEVELS.join(', ')}, got ${describe(level)}`, typeof level === 'string' ? 'invalid_value' : 'wrong_type', { where: 'setLogLevel', field: 'level', got: typeof level === 'string' ? level : typeName(level) });
    this.raw.logSetLevel(i);
  }

  /** "Laige(0.1.0, 2 worlds, 16 MiB of wasm memory)" (console.log and util.inspect show it too). */
  toString(): string {
    return `Laige(${this.version}, ${count(this.worldCount, 'world')}, ${Math.round(this.memoryBytes / 1048576)} MiB of wasm memory)`;
  }

  /** @internal util.inspect / console.log: toString(), not the internals (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }
}

/**
 * @internal Loads the wasm module from what `options` name, else from
 * `fallback` (the entry's own .wasm: next to the loader for '@laige/sim',
 * inlined for '@laige/sim/embedded'). Failures: LaigeError `wasm_not_found`,
 * `wasm_invalid`, `wasm_incompatible` (docs/bundlers.md).
 */
export async function loadLaigeFrom(options: LoadOptions, fallback: () => Promise<WasmBytes>): Promise<Laige> {
  if (typeof options !== 'object' || options === null) throw invalid(`loadLaige: options must be an object, got ${describe(options)}`, 'wrong_type', { where: 'loadLaige', field: 'options', got: typeName(options) });
  const initialMemory = initialMemoryOf(options);
  return new Laige(await instantiate(await wasmBytes(options, fallback), initialMemory));
}
