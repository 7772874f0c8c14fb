// laige_wasm.d.ts - the raw wasm module: the contract between web/bindings/*.cpp
// (embind) and web/src (the TypeScript layer). Nothing here is public API:
// web/src wraps every function, validates every argument before it gets
// here, and turns every returned code into a LaigeError.
//
// Conventions (see the header of web/bindings/common.h):
// - `Ptr` is a wasm address (u32); World, GameLoop and ReplayWriter handles
//   are pointers too, passed back only by the TS object that owns them.
// - `Code` is 0 for ok, else an ErrorCode value (1..5).
// - `out` parameters point into memory the TS layer allocated with _malloc;
//   64-bit values are written as (lo, hi) u32 pairs.
// - Entity handles are their 32-bit representation.

declare module '*/laige_wasm.mjs' {
  type Ptr = number;
  type Code = number;

  /** A log record as JsSink hands it to Module.onLaigeLog. */
  export interface RawLogRecord {
    severity: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
    subsystem: string;
    event: string;
    message: string;
    fields: Record<string, string>;
    timestampUs: number;
  }

  /**
   * The last failing Status a binding returned (lastFailure()): its code,
   * reason (the core's stable event name) and fields (integers as numbers,
   * as strings above 15 digits).
   */
  export interface RawFailure {
    code: Code;
    reason: string;
    fields: Record<string, string | number>;
  }

  export interface RawRegisterResult {
    code: Code;
    id: number;
    reason: string;
    field: number;
  }

  export interface RawComponentInfo {
    id: number;
    name: string;
    size: number;
    alignment: number;
    /** [name, kind (FieldKind value), count, offset] */
    fields: Array<[string, number, number, number]>;
  }

  export interface RawSystemInfo {
    id: number;
    name: string;
    budgetRaw: number;
    dependsOn: string;
    native: boolean;
    /** [component id, access (0 read, 1 write)] */
    io: Array<[number, number]>;
  }

  export interface RawDiffItem {
    slot: number;
    componentId: number;
    size: number;
    presentInA: boolean;
    presentInB: boolean;
    bytesA: Uint8Array | null;
    bytesB: Uint8Array | null;
  }

  export interface RawIdentity {
    /** 16 lowercase hex digits */
    seed: string;
    tickRateHz: number;
    componentSchemaHash: string;
    mathBackendId: number;
    configHash: string;
  }

  export interface RawParseResult {
    code: Code;
    reason: string;
    offset: number;
    identity?: RawIdentity;
    frameCount?: number;
    /** [tick, payload size] */
    frames?: Array<[number, number]>;
  }

  export interface RawReplayDiff {
    code: Code;
    which?: 'a' | 'b';
    identical?: boolean;
    firstDivergentTick?: number;
    lengthDivergence?: boolean;
    fullStateDivergent?: boolean;
    framesA?: number;
    framesB?: number;
    differingItems?: number;
    entries?: Array<{
      slot: number;
      componentId: number;
      size: number;
      presentInA: boolean;
      presentInB: boolean;
      bytesA: Uint8Array;
      bytesB: Uint8Array;
    }>;
  }

  export interface RawScenarioInfo {
    name: string;
    description: string;
    defaultSeed: string;
    defaultTicks: number;
    tickRateHz: number;
    capacity: number;
    churnPerFrameBudget: number;
    math: number;
  }

  export interface LaigeRawModule {
    // emscripten runtime
    HEAP8: Int8Array;
    HEAPU8: Uint8Array;
    HEAP16: Int16Array;
    HEAPU16: Uint16Array;
    HEAP32: Int32Array;
    HEAPU32: Uint32Array;
    HEAPF32: Float32Array;
    HEAPF64: Float64Array;
    _malloc(size: number): Ptr;
    _free(ptr: Ptr): void;

    // hooks the C++ side calls (set by web/src)
    onLaigeLog?: (record: RawLogRecord) => void;
    laigeRunSystem?: (world: Ptr, id: number, tick: number, rng: Ptr, input: Ptr, inputSize: number) => void;
    laigeSystemError?: (world: Ptr, id: number, error: unknown) => void;
    laigeClockNs?: (world: Ptr) => number;
    /**
     * A loop's per-tick input (loopCreate with jsInput): the payload's byte
     * count after writing it at loopInputBuffer(loop, size); -1 = the default
     * (a scenario's generated input, else none); -2 = end the frame (an error).
     */
    laigeTickInput?: (loop: Ptr, tick: number) => number;
    /** After every completed tick of a loop created with jsAfterTick: 0 = go on, else end the frame. */
    laigeAfterTick?: (loop: Ptr, tick: number) => number;
    /** A rollback session's JS combiner (rollbackCreate combineMode 2): bytes written at `out`, -1 = error. */
    laigeRollbackCombine?: (session: Ptr, tick: number, pairs: Ptr, players: number, out: Ptr, capacity: number) => number;
    /** After every tick a rollback session runs (rollbackCreate jsAfterTick): 0 = go on, else stop the advance. */
    laigeRollbackAfterTick?: (session: Ptr, tick: number) => number;
    /** After every restore a rollback session makes. */
    laigeRollbackRestored?: (session: Ptr) => void;

    // Module
    version(): string;
    errorLine(code: number): string;
    /**
     * The failure behind the last non-zero Code any binding returned (its
     * reason and fields), or null when none was returned since the last
     * clearLastFailure(). Only failures write it.
     */
    lastFailure(): RawFailure | null;
    /** Forgets the recorded failure (lastFailure() returns null until the next one). */
    clearLastFailure(): void;
    logInstallJsSink(): void;
    /** 0..6 = trace, debug, info, warn, error, fatal, off */
    logSetLevel(level: number): void;
    logSetRateLimiting(on: boolean): void;
    /** The out-parameter layout table the module was built from (web/layouts.json, as layouts.gen.ts LAYOUT_TABLE). */
    layoutTable(): string;
    /** The option-limit manifest the module was built from (web/boundary.json, as limits.gen.ts LIMITS_TABLE). */
    limitsTable(): string;

    // World
    worldCreate(capacity: number, churn: number, seedLo: number, seedHi: number, deterministic: boolean, out: Ptr): Code;
    worldDestroy(w: Ptr): void;
    worldCreateEntity(w: Ptr, out: Ptr): Code;
    worldDestroyEntity(w: Ptr, e: number): Code;
    worldCheck(w: Ptr, e: number): Code;
    /** 1 when live (a plain wasm export: see raw.ts HOT_EXPORTS) */
    worldIsValid(w: Ptr, e: number): number;
    worldCapacity(w: Ptr): number;
    worldEntityCount(w: Ptr): number;
    worldClear(w: Ptr): Code;
    worldHandleAt(w: Ptr, id: number): number;
    /** worldHandleAt, but 0 also for an entity created during the live iteration (each([]) skips it). */
    worldIterationHandleAt(w: Ptr, id: number): number;
    worldBeginFrame(w: Ptr): void;
    /** EntityStats (web/layouts.json; read with layouts.gen.ts) */
    worldStats(w: Ptr, out: Ptr): void;
    /** GuardrailStats (web/layouts.json) */
    worldGuardrailStats(w: Ptr, out: Ptr): void;
    /** ArchetypeStats (web/layouts.json) */
    worldArchetypeStats(w: Ptr, out: Ptr): void;

    // Components
    /** fields: [name, kind, count] */
    worldRegisterComponent(w: Ptr, name: string, fields: Array<[string, number, number]>): RawRegisterResult;
    worldComponentInfo(w: Ptr, id: number): RawComponentInfo | null;
    worldComponentCount(w: Ptr): number;
    worldAdd(w: Ptr, e: number, component: number, bytes: Ptr, size: number): Code;
    worldRemove(w: Ptr, e: number, component: number): Code;
    /** 1 when present (a plain wasm export: see raw.ts HOT_EXPORTS) */
    worldHas(w: Ptr, e: number, component: number): number;
    /** the component's bytes, or 0 */
    worldGet(w: Ptr, e: number, component: number): Ptr;
    worldArchetypeOf(w: Ptr, e: number): number;
    worldArchetypeCount(w: Ptr): number;
    worldArchetypeComponents(w: Ptr, archetype: number): number[];
    /** The live rows of archetype `archetype` (0 for an unknown id). */
    worldArchetypeRowCount(w: Ptr, archetype: number): number;

    // Iteration
    /** ids: n u32; access: n u8 (0 read, 1 write) */
    worldBeginIteration(w: Ptr, ids: Ptr, access: Ptr, n: number): Code;
    worldEndIteration(w: Ptr): void;

    // Deferred commands (web/bindings/commands.cpp; docs/commands.md)
    /** records destroy(e) into the world's command buffer (a plain wasm export: see raw.ts HOT_EXPORTS) */
    worldCommandDestroy(w: Ptr, e: number): Code;
    /** records add(e, component, `size` bytes at `bytes`) */
    worldCommandAdd(w: Ptr, e: number, component: number, bytes: Ptr, size: number): Code;
    /** records remove(e, component) */
    worldCommandRemove(w: Ptr, e: number, component: number): Code;
    /** opens a defer phase; pair with worldEndDefer */
    worldBeginDefer(w: Ptr): Code;
    /** closes a defer phase; the outermost one (outside a system and an each) applies the commands */
    worldEndDefer(w: Ptr): void;
    /** 1 while a command phase is open (a system runs, an each is live, a defer is open; a plain wasm export) */
    worldCommandsRecording(w: Ptr): number;
    worldCommandsReserve(w: Ptr, bytes: number): Code;
    /** 7 f64: recorded, applied, skippedDead, skippedFailed, pending, bufferBytes, grows */
    worldCommandStats(w: Ptr, out: Ptr): void;
    worldIsIterating(w: Ptr): boolean;
    /** writes an IterationCursor header (web/layouts.json) + n column pointers (u32) per matched archetype; returns the matched count */
    worldIterationCursors(w: Ptr, ids: Ptr, n: number, out: Ptr, max: number): number;
    /** out[r] = the live handle of slots[r] (rows of a matched archetype: live under the guard) */
    worldFillHandles(w: Ptr, slots: Ptr, rows: number, out: Ptr): void;
    // The TypeScript queries registered in the core (web/bindings/query.cpp). Plain exports (raw.ts).
    /** registers a query of n terms (ids: n u32, kinds: n u8 laige::detail::TermKind; the cursor columns are terms [0, columns)); writes its id (u32 >= 1) at out */
    worldQueryCreate(w: Ptr, ids: Ptr, kinds: Ptr, n: number, columns: number, out: Ptr): Code;
    /** frees query q (its Query was collected) */
    worldQueryDestroy(w: Ptr, q: number): void;
    /**
     * begins a walk of query q (guard, io check, change filters) and writes its cursor table (an IterationCursor
     * header (web/layouts.json) + one column pointer per column term, per run of rows) and its address (u32) at out;
     * the rows' handles at `handles` when non-zero. Returns the begin code when it failed, else the cursor count << 8.
     */
    worldQueryBegin(w: Ptr, q: number, handles: Ptr, out: Ptr): number;
    /** ends the walk worldQueryBegin began (a filtered run outside systems is recorded) */
    worldQueryEnd(w: Ptr, q: number): void;
    /** live rows of the archetypes query q matches (filters not applied) */
    worldQueryCount(w: Ptr, q: number): number;
    /** the archetype ids query q matches now, ascending, as u32 at out (at most 256); returns their count */
    worldQueryArchetypes(w: Ptr, q: number, out: Ptr): number;
    /** out: [generation table (u16 per slot), archetype table (u16 per slot), row table (u32 per slot), capacity] as u32. A plain export (raw.ts); absent in older modules. */
    worldSlotTables?(w: Ptr, out: Ptr): void;
    /** The place of archetype a's column base pointer for component c (a u32 holding the pointer), or 0 when a lacks c. A plain export; absent in older modules. */
    worldColumnRef?(w: Ptr, a: number, c: number): Ptr;

    // Systems
    worldRegisterSystem(w: Ptr, name: string, budgetRaw: number, dependsOn: string, ids: Ptr, access: Ptr, n: number, out: Ptr): Code;
    worldScheduleSystems(w: Ptr): Code;
    worldScheduledCount(w: Ptr): number;
    worldScheduleOrder(w: Ptr): number[];
    worldRunSystems(w: Ptr, input: Ptr, size: number): Code;
    worldSystemCount(w: Ptr): number;
    worldSystemTicksRun(w: Ptr): number;
    worldSystemInfo(w: Ptr, id: number): RawSystemInfo | null;
    /** SystemTimingStats (web/layouts.json) */
    worldSystemTimingStats(w: Ptr, id: number, out: Ptr): Code;
    /** HistogramStats (web/layouts.json), then up to max samples (f64) */
    worldSystemTimingWindow(w: Ptr, id: number, out: Ptr, max: number): Code;
    /** u32 id, u32 hasSubstream, u64 seed, u64 state1, u64 state2 */
    worldSystemRngState(w: Ptr, id: number, out: Ptr): Code;
    worldSetJsTimingClock(w: Ptr, js: boolean): void;
    prngNextU32(rng: Ptr): number;
    prngNextU64(rng: Ptr, out: Ptr): void;
    prngNextRange(rng: Ptr, min: number, max: number): number;
    prngNextFloat01(rng: Ptr): number;

    // GameLoop
    /**
     * A loop over world w (a scenario world: over its ScenarioRun, whose
     * generator is the default input). jsInput: ask Module.laigeTickInput for
     * every tick's payload; jsAfterTick: call Module.laigeAfterTick after every tick.
     */
    loopCreate(w: Ptr, tickRateHz: number, maxCatchUp: number, jsInput: boolean, jsAfterTick: boolean, out: Ptr): Code;
    /** The loop's input buffer, grown to at least `size` bytes (valid until the next call). */
    loopInputBuffer(l: Ptr, size: number): Ptr;
    loopDestroy(l: Ptr): void;
    loopFrameAt(l: Ptr, nowNs: number): Code;
    loopStep(l: Ptr, n: number): Code;
    /** GameLoopStats (web/layouts.json) */
    loopStats(l: Ptr, out: Ptr): void;

    // State hash and diff
    worldStateHash(w: Ptr, tickLo: number, tickHi: number, out: Ptr): void;
    // Snapshots (web/bindings/snapshot.cpp; docs/snapshots.md)
    /** World::snapshotSize() */
    worldSnapshotSize(w: Ptr): number;
    /** World::snapshot into `size` bytes at `out` */
    worldSnapshot(w: Ptr, out: Ptr, size: number): Code;
    /** World::restore from `size` bytes at `bytes` */
    worldRestore(w: Ptr, bytes: Ptr, size: number): Code;
    /** World::structureEpoch() (a double: stays far below 2^53) */
    worldStructureEpoch(w: Ptr): number;
    worldComponentStateHash(w: Ptr, tickLo: number, tickHi: number, out: Ptr): void;
    worldStateDiff(a: Ptr, b: Ptr, maxItems: number): { total: number; items: RawDiffItem[] };

    // Replay
    replayWriterCreate(w: Ptr, tickRateHz: number, math: number, maxBytes: number, out: Ptr): Code;
    replayWriterDestroy(r: Ptr): void;
    replayWriterFrame(r: Ptr, tick: number, data: Ptr, size: number): Code;
    replayWriterFinish(r: Ptr): Code;
    /** The error code the next frame of `len` bytes would fail with (0 = it would be written); changes nothing. */
    replayWriterCanWrite(r: Ptr, len: number): number;
    replayWriterFrameCount(r: Ptr): number;
    replayWriterBytes(r: Ptr): Uint8Array;
    replayParse(data: Ptr, size: number): RawParseResult;
    replayRun(w: Ptr, data: Ptr, size: number, tickRateHz: number, math: number): { code: Code; hashes?: Uint32Array };
    replayDiff(a: Ptr, b: Ptr, dataA: Ptr, sizeA: number, dataB: Ptr, sizeB: number, tickRateHz: number, math: number, maxEntries: number): RawReplayDiff;

    // Scenarios
    scenarioList(): RawScenarioInfo[];
    scenarioRun(name: string, seedLo: number, seedHi: number, defaultSeed: boolean, ticks: number, defaultTicks: boolean): { code: Code; text?: string };
    /** Opens a ScenarioRun; writes its handle (a world pointer every world* call and worldDestroy accept) at `out`. */
    scenarioOpen(name: string, seedLo: number, seedHi: number, defaultSeed: boolean, out: Ptr): Code;
    /** True for a world opened by scenarioOpen. */
    /** given: the tick's payload is `size` bytes at `data` (0 = none); else the scenario's own generated input. */
    scenarioStep(w: Ptr, given: boolean, data: Ptr, size: number): Code;
    /** A copy of the scenario generator's payload for `tick` (empty when none). */
    scenarioGeneratedInput(w: Ptr, tick: number): Uint8Array;
    /** Completed ticks of the run. */
    scenarioTick(w: Ptr): number;
    /** The run's stateHash(tick()) as a u64 at `out`. */
    scenarioHash(w: Ptr, out: Ptr): void;
    /**
     * Player `player`'s input for tick (tickLo, tickHi) from the generator of
     * the scenario named by the `nameSize` bytes at `name` (web/bindings/player_input.cpp),
     * written at `out` (at least 64 bytes): its length, or minus the Code on
     * failure (scenario_unknown, scenario_no_player_input). A plain export (raw.ts HOT_EXPORTS).
     */
    scenarioPlayerInput(name: Ptr, nameSize: number, player: number, tickLo: number, tickHi: number, out: Ptr): number;

    // Rollback sessions (web/bindings/rollback.cpp; docs/rollback.md)
    /**
     * A RollbackSession over world w (a scenario world: over its run's
     * schedule); writes its handle at `out`. combineMode: 0 length-prefixed,
     * 1 concatenated, 2 Module.laigeRollbackCombine. jsAfterTick: call
     * Module.laigeRollbackAfterTick after every tick. checksum: 0 fast
     * (World::stateChecksum), 1 stateHash.
     */
    rollbackCreate(w: Ptr, players: number, localPlayer: number, depth: number, maxInputBytes: number, inputLead: number,
      maxPredictionTicks: number, hashHistory: number, maxCombinedBytes: number, combineMode: number, jsAfterTick: boolean,
      checksum: number, out: Ptr): Code;
    rollbackDestroy(s: Ptr): void;
    /** The session's input buffer (maxInputBytes bytes) setLocalInput/addRemoteInput read `size` bytes from. */
    rollbackInputBuffer(s: Ptr): Ptr;
    rollbackSetLocalInput(s: Ptr, tick: number, size: number): Code;
    rollbackAddRemoteInput(s: Ptr, player: number, tick: number, size: number): Code;
    rollbackAdvance(s: Ptr): Code;
    /** 14 f64 at `out`: current, confirmed, oldest, pending, then RollbackStats in declaration order. */
    rollbackState(s: Ptr, out: Ptr): void;
    /** The confirmed hash of `tick` as a u64 at `out`. */
    rollbackConfirmedHash(s: Ptr, tick: number, out: Ptr): Code;
  }

  export interface LaigeModuleOptions {
    wasmBinary?: ArrayBuffer | Uint8Array;
    locateFile?: (path: string, scriptDirectory: string) => string;
    /** Instantiates the module itself: call `receive` with the instance; return {}. */
    instantiateWasm?: (imports: WebAssembly.Imports,
      receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object;
    /** Called with the reason when the runtime aborts. */
    onAbort?: (what: unknown) => void;
    /** The wasm memory's size at start, in bytes (a multiple of 64 KiB; the module is built with IMPORTED_MEMORY). */
    INITIAL_MEMORY?: number;
    onLaigeLog?: (record: RawLogRecord) => void;
  }

  const createLaigeModule: (options?: LaigeModuleOptions) => Promise<LaigeRawModule>;
  export default createLaigeModule;
}

// The .wasm of the module, base64, generated by the build next to it
// (wasm/laige_wasm.base64.mjs): what the @laige/sim/embedded entry loads.
declare module '*/laige_wasm.base64.mjs' {
  const base64: string;
  export default base64;
}
