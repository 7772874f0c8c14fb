/// <reference lib="esnext.disposable" preserve="true" />
// @laige/sim - a deterministic ECS simulation core (C++20 compiled to
// WebAssembly) with a typed TypeScript API (README.md, docs/typescript.md).
// The entry '@laige/sim': loadLaige() finds the .wasm next to the package's
// loader (load.ts); '@laige/sim/embedded' is the same API with it inlined.
export { loadLaige } from './load.js';
export { Laige, ScenarioRun } from './laige.js';
export type { LogRecord, LogLevel, ScenarioInfo, ScenarioOptions, ScenarioStream, OpenScenarioOptions } from './laige.js';
export type { LoadOptions } from './boundary/wasm_source.js';
export { World } from './world.js';
export { MatchClient, parseMatchMessage } from './netplay/match_client.js';
export type { MatchDesyncSession, MatchMessage } from './netplay/match_client.js';
export type { DesyncReport, DesyncItem, StateTreeNode, SystemCheckpoint, SystemCheckpoints } from './desync/desync.js';
export type { DesyncExchangeOptions, DesyncExchangeStats, PeerDesyncReport } from './desync/desync_exchange.js';
export type {
  WorldOptions, EntityStats, GuardrailStats, ArchetypeStats, StateDiff, StateDiffItem, DiffRelationFields, AnyComponent, AccessList,
  Refs, SchemaOf, Chunk, FieldColumn,
} from './world.js';
export { Component } from './component/component.js';
export { Query } from './query/query.js';
export { Commands } from './systems/commands.js';
export type { CommandStats } from './systems/commands.js';
export type { AnyQuery, QueryTerm, QueryTerms, QueryRefs, QueryOptions, TermRef } from './query/query.js';
export type { FieldHandles, ScalarFieldHandle, ArrayFieldHandle } from './component/field_handle.js';
export type { Access, FieldInfo } from './component/component.js';
export type {
  ScalarKind, FieldSpec, Schema, Value, ValueInput, Ref, ReadRef, TypedArrayOf, KindOf,
} from './component/schema.js';
export type { SystemDef, SystemContext, ObserverContext, ObserverEvent, ObserverHandle, ObserverStats } from './world.js';
export type { SystemDefOf, SystemContextOf } from './systems/system_def.js';
export type { Relation, RelationOptions, RelationTarget, OnTargetDestroyed } from './relations/relations.js';
export type { InstantiateOptions, PrefabOverride, PrefabSchema, CheckedOverrides } from './relations/prefabs.js';
export type { RelationHandle, RelationSchema } from './component/component.js';
export type {
  SystemQueryDecl, SystemQueries, DeclTerms, DeclOptional, SystemHandle, SystemInfo, SystemRng, SystemRngState, SystemTimingStats, SystemTimingWindow,
} from './systems/system_types.js';
export { GameLoop } from './loop/game_loop.js';
export type { GameLoopOptions, GameLoopStats } from './loop/game_loop.js';
export { RollbackSession } from './rollback/rollback_session.js';
export type { RollbackSessionOptions, RollbackCombine, RollbackAdvance, RollbackStats, ConfirmedHash } from './rollback/rollback_session.js';
export { ReplayRecorder } from './replay/replay_recorder.js';
export { ReplayPlayer } from './replay/replay_player.js';
export type { ReplayOpenOptions, ReplayPlayerStats } from './replay/replay_player.js';
export type { RecordOptions, ReplayIdentity, ReplayInfo, ReplayRunOptions, ReplayDiff, MathBackend } from './replay/replay_recorder.js';
export { LaigeError, ErrorCodes, errorText, errorName, MAX_ERROR_CODE } from './base/errors.js';
export type { LaigeErrorCode, LaigeErrorFields } from './base/errors.js';
export { fx } from './math/fx.js';
export { f32 } from './math/f32_math.js';
export type { Fx } from './math/fx_raw.js';
export {
  Entities, NULL_ENTITY, MAX_ENTITY_ID, MAX_ENTITIES, entityId, entityGeneration, makeEntity, formatEntity, isEntityHandle,
} from './component/entity.js';
export type { Entity } from './component/entity.js';
