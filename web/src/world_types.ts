// world_types.ts - the World's option, statistics and state-diff shapes,
// and the type helpers that give each/eachChunk callbacks their ref types.
import type { Component, Access } from './component/component.js';
import type { ReadRef, Ref } from './component/schema.js';
import type { Entity } from './component/entity.js';

/** World::Options: every field of the C++ options. */
export interface WorldOptions {
  /** The scene budget: the most entities live at once (1..65536). */
  capacity: number;
  /** The per-frame component churn budget; 0 disables it. Default 256. */
  churnPerFrameBudget?: number;
  /** The master PRNG seed (a bigint, 0..2^64-1). Default 0n. */
  seed?: bigint;
  /** Per-system PRNG substreams (replayable runs). Default true. */
  deterministic?: boolean;
}

/** The entity storage's accounting snapshot (EntityStats). */
export interface EntityStats {
  capacity: number;
  inUse: number;
  peakInUse: number;
  totalCreated: number;
  totalDestroyed: number;
  bytesCapacity: number;
  bytesInUse: number;
}

/** The guardrail snapshot (GuardrailStats: entity budget levels, churn). */
export interface GuardrailStats {
  capacity: number;
  entityCount: number;
  /** 0, 25, 50 or 100. */
  entityBudgetLevel: number;
  /** Warn counts of the 25%, 50% and 100% levels. */
  entityBudgetWarns: [number, number, number];
  frameChurn: number;
  churnPerFrameBudget: number;
  churnWarns: number;
}

/** The archetype storage's accounting snapshot (ArchetypeStats). */
export interface ArchetypeStats {
  archetypeCount: number;
  rowsLive: number;
  rowsReserved: number;
  bytesReserved: number;
  totalAdds: number;
  totalRemoves: number;
  totalArchetypeGrowth: number;
  totalReservations: number;
  totalRowShifts: number;
  totalDestroyDetaches: number;
  bytesScratch: number;
}

/** The handles and the relation fields of a state-diff item and a replay-diff entry. */
export interface DiffRelationFields {
  /** The slot's handle in A, or null where the slot is not live in A. */
  entityA: Entity | null;
  /** The slot's handle in B, or null where the slot is not live in B. */
  entityB: Entity | null;
  /** The component is a relation in every world that has it here (docs/relations.md#relations-in-a-state-diff). */
  relation: boolean;
  /** A relation item's target in A, or null where A lacks the relation (or the item is no relation item). */
  targetA: Entity | null;
  /** A relation item's target in B, as targetA. */
  targetB: Entity | null;
  /**
   * A relation item in words, e.g. "Entity(4, 1) ChildOf Entity(2, 1) -> Entity(3, 1)"
   * (source, relation, target in A -> target in B; "(none)" for a side without it;
   * " (payload differs)" when bytes after the target differ); '' for other items.
   */
  text: string;
}

/** One difference between two worlds' live state (World.stateDiff). */
export interface StateDiffItem extends DiffRelationFields {
  /** The entity slot (not the handle). */
  slot: number;
  /** The component id; 0 = the entity is live on one side only (or with different generations). */
  componentId: number;
  /** The component's name ('' for a presence item). */
  component: string;
  size: number;
  presentInA: boolean;
  presentInB: boolean;
  /** A copy of A's bytes, or null. */
  bytesA: Uint8Array | null;
  /** A copy of B's bytes, or null. */
  bytesB: Uint8Array | null;
}


/** What World.stateDiff returns: the exact total and the first maxItems items. */
export interface StateDiff {
  total: number;
  items: StateDiffItem[];
}

/** Any registered component. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyComponent = Component<any>;
/** One access per listed component. */
export type AccessList<C extends readonly AnyComponent[]> = { readonly [I in keyof C]: Access };
/** The schema of a component. */
export type SchemaOf<C> = C extends Component<infer S> ? S : never;
/** The callback arguments of `each`: a Ref for 'write', a ReadRef for 'read'. */
export type Refs<C extends readonly AnyComponent[], A extends readonly Access[]> = {
  -readonly [I in keyof C]: I extends keyof A ? (A[I] extends 'write' ? Ref<SchemaOf<C[I]>> : ReadRef<SchemaOf<C[I]>>) : never;
};
