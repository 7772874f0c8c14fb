// system_types.ts - the public shapes around TypeScript systems: a query
// declaration, the rng, handles and the timing and PRNG records. The
// definition and the context are in system_def.ts (generic over the world;
// world.ts names them SystemDef and SystemContext).
import type { Access, QueryTerm } from '../component/component.js';
import type { Query, QueryTerms } from '../query/query.js';
import type { AnyComponent } from '../world_types.js';

/**
 * A query a system declares: its terms, plus `without`, `optional`, `tags`
 * as in World.query (`{ pos: Position.write, vel: Velocity.read, without: [Frozen] }`).
 */
export type SystemQueryDecl = {
  readonly [name: string]: QueryTerm | readonly AnyComponent[] | QueryTerms | undefined;
};
/** The terms of a declared query. */
export type DeclTerms<D> = { [K in keyof D as K extends 'without' | 'optional' | 'tags' ? never : K]: Extract<D[K], QueryTerm> };
/** The optional terms of a declared query. */
export type DeclOptional<D> = D extends { readonly optional: infer O extends QueryTerms } ? O : Record<never, never>;
/** The Query objects a system's ctx.queries holds. */
export type SystemQueries<Q> = { readonly [K in keyof Q]: Query<DeclTerms<Q[K]>, DeclOptional<Q[K]>> };

/** A system's PRNG substream (xorshift128+ of the core), valid during its run only. */
export interface SystemRng {
  /** The next 32 bits (the upper half of the next u64). */
  nextU32(): number;
  /** The next 64 bits. */
  nextU64(): bigint;
  /** Uniform integer in [min, max) (max exclusive; min < max, both u32). */
  nextRange(min: number, max: number): number;
  /** Uniform float in [0, 1) (24 bits, exact). */
  nextFloat01(): number;
}

/** A registered system. */
export interface SystemHandle {
  readonly id: number;
  readonly name: string;
}

/** A registered system as the registry holds it. */
export interface SystemInfo extends SystemHandle {
  /** The declared budget (ms, as the Q16.16 value the core holds). */
  budgetMs: number;
  dependsOn: string[];
  io: Array<{ componentId: number; component: string; access: Access }>;
  /** True for a C++ system, false for a TypeScript one. */
  native: boolean;
}

/** A system's timing counters (SystemTimingStats). */
export interface SystemTimingStats {
  runs: number;
  lastMs: number;
  warns: number;
  errors: number;
}

/** A system's rolling timing window (64 samples). */
export interface SystemTimingWindow {
  count: number;
  totalRecorded: number;
  min: number;
  max: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  /** The samples in ms, oldest first. */
  samples: number[];
}

/** A system's PRNG substream state. */
export interface SystemRngState {
  id: number;
  hasSubstream: boolean;
  seed: bigint;
  state1: bigint;
  state2: bigint;
}
