// system_def.ts - what registerSystem takes (SystemDefOf) and what a
// system's run receives (SystemContextOf), generic over the world type so
// that they need not import World (world.ts instantiates them as SystemDef
// and SystemContext).
import type { Access, Component, RelationHandle } from '../component/component.js';
import type { Entity } from '../component/entity.js';
import type { Schema, Value } from '../component/schema.js';
import type { Chunk } from '../query/chunk.js';
import type { AccessList, AnyComponent, Refs } from '../world_types.js';
import type { Commands } from './commands.js';
import type { SystemQueries, SystemQueryDecl, SystemRng } from './system_types.js';

/** What a TypeScript system's run receives; valid during the run only (a kept ctx throws afterwards). */
export interface SystemContextOf<W, Q = Record<never, never>> {
  /** The queries the system declared, by name (they run only inside this system's run). */
  readonly queries: Q;
  /** The world running the system. */
  readonly world: W;
  /** The system's id (dense from 1 in registration order). */
  readonly id: number;
  /** The system's name. */
  readonly name: string;
  /** The tick being run: completed runSystems calls + 1. */
  readonly tick: number;
  /** The tick's input payload (a copy; empty without input). */
  readonly input: Uint8Array;
  /** The system's PRNG substream; null when the world is not deterministic. */
  readonly rng: SystemRng | null;
  /** The system's command buffer: what it records applies right after its run, in recording order, under its io (docs/commands.md). */
  readonly commands: Commands;
  /** world.each on the running system's world. */
  each<const C extends readonly AnyComponent[], const A extends AccessList<C>>(
    components: C, access: A, fn: (e: Entity, ...refs: Refs<C, A>) => void): void;
  /** world.eachChunk on the running system's world. */
  eachChunk<const C extends readonly AnyComponent[]>(components: C, access: AccessList<C>, fn: (chunk: Chunk) => void): void;
  /**
   * fn(entity, last) for every entity that lost `c` (remove, destroy, clear;
   * direct or by a command) since this system last ran, in removal order,
   * with the value it had (a frozen copy). `c` must be in the system's io
   * (read is enough); the first call starts the log (docs/changes.md#removed).
   */
  removed<S extends Schema>(c: Component<S>, fn: (e: Entity, last: Readonly<Value<S>>) => void): void;
}

/** A system definition for World.registerSystem. */
export interface SystemDefOf<W, Q extends { readonly [name: string]: SystemQueryDecl } = Record<never, never>> {
  /** Unique, non-empty; what other systems' dependsOn name. */
  name: string;
  /** The declared per-run budget in milliseconds (> 0): a run above it warns, 3x errors (docs/system_timing.md). */
  budgetMs: number;
  /**
   * Queries the system owns, by name (ctx.queries.<name>); their terms are
   * part of its io (write terms write; read, optional, tags and without
   * read).
   */
  queries?: Q;
  /** Component access beyond the queries' (for get/add/remove/destroy and field handles): [component, 'read' | 'write'] pairs. */
  io?: ReadonlyArray<readonly [AnyComponent | RelationHandle, Access]>;
  /** Names of systems this one runs after (may be registered later). */
  dependsOn?: readonly string[];
  /** The body. Every access inside it is held to the system's io (system_io_violation). */
  run(ctx: SystemContextOf<W, SystemQueries<Q>>): void;
}
