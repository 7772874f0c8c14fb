// entity.ts - entity handles and the seed-003 allocator in TypeScript.
//
// A handle is a plain 32-bit number: [ id: 16 bits | generation: 16 bits ]
// (docs/entity.md), exactly the C++ Entity's bits(). The null handle is 0.

import { invalid } from '../base/errors.js';
import { describe } from '../base/describe.js';
import { INSPECT } from '../base/inspect.js';

/** A 32-bit generational entity handle (id << 16 | generation), as a number. */
export type Entity = number;

/** The null handle (id 0, generation 0): never valid in a World. */
export const NULL_ENTITY: Entity = 0;
/** The largest slot id. */
export const MAX_ENTITY_ID = 0xffff;
/** The most slots a world can have (65,536). */
export const MAX_ENTITIES = 0x10000;

function isHandle(e: unknown): e is number {
  return typeof e === 'number' && Number.isInteger(e) && e >= 0 && e <= 0xffffffff;
}

// A handle argument that is not one: LaigeError invalid_argument, reason
// entity_handle_invalid (never a silent wrap such as entityId(-1) = 65535).
function handle(where: string, e: unknown): number {
  if (isHandle(e)) return e;
  throw invalid(`${where}: expected an entity handle (an integer in 0..2^32-1), got ${describe(e)}`,
    'entity_handle_invalid', { type: typeof e });
}

/** The slot index of `e` (its high 16 bits). Throws for anything that is not a 32-bit handle. */
export function entityId(e: Entity): number {
  return handle('entityId', e) >>> 16;
}

/** The generation of `e` (its low 16 bits). Throws for anything that is not a 32-bit handle. */
export function entityGeneration(e: Entity): number {
  return handle('entityGeneration', e) & 0xffff;
}

/** The handle of slot `id` at `generation` (both integers in 0..65535; else LaigeError entity_handle_invalid). */
export function makeEntity(id: number, generation = 0): Entity {
  if (!Number.isInteger(id) || id < 0 || id > 0xffff || !Number.isInteger(generation) || generation < 0 || generation > 0xffff) {
    throw invalid(`makeEntity: id and generation must be integers in 0..65535 (got ${describe(id)}, ${describe(generation)})`,
      'entity_handle_invalid', { type: `${typeof id}, ${typeof generation}` });
  }
  return ((id << 16) | generation) >>> 0;
}

/** "Entity(<id>, <generation>)", the printable form formatEntity writes in C++. Throws for anything that is not a 32-bit handle. */
export function formatEntity(e: Entity): string {
  const h = handle('formatEntity', e);
  return `Entity(${h >>> 16}, ${h & 0xffff})`;
}

/** @internal A handle from the core (0 = none) as a handle or null. */
export function handleOrNull(bits: number): Entity | null {
  return bits === 0 ? null : bits;
}

/** True for a number that is a well-formed 32-bit handle (not a liveness check). */
export function isEntityHandle(e: unknown): e is Entity {
  return isHandle(e);
}

/**
 * The allocator (docs/entity.md; the C++ laige::Entities): fresh indices
 * ascending (0, 1, 2, ...), freed indices LIFO with the generation raised,
 * so the same operation sequence gives the same handles everywhere. A fresh
 * index's first handle has `firstGeneration` (the allocator: 0; a World uses 1);
 * a generation that passes 65535 re-enters at `firstGeneration`.
 */
export class Entities {
  readonly #capacity: number;
  readonly #firstGeneration: number;
  #generations: Uint16Array;
  #living: Uint8Array;
  #freed: Uint16Array;
  #freeCount = 0;
  #fresh = 0;
  #live = 0;

  constructor(capacity: number = MAX_ENTITIES, firstGeneration = 0) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw invalid(`Entities: capacity must be a non-negative integer, got ${describe(capacity)}`, 'out_of_range', { field: 'capacity' });
    }
    if (!Number.isInteger(firstGeneration) || firstGeneration < 0 || firstGeneration > 0xffff) {
      throw invalid(`Entities: firstGeneration must be an integer in 0..65535, got ${describe(firstGeneration)}`, 'out_of_range', { field: 'firstGeneration' });
    }
    this.#capacity = Math.min(capacity, MAX_ENTITIES);
    this.#firstGeneration = firstGeneration;
    this.#generations = new Uint16Array(this.#capacity);
    this.#living = new Uint8Array(this.#capacity);
    this.#freed = new Uint16Array(this.#capacity);
  }

  /** Hands out an entity (the index freed last, else the next new one), or undefined when `capacity` are alive. */
  spawn(): Entity | undefined {
    let id: number;
    if (this.#freeCount > 0) {
      id = this.#freed[--this.#freeCount]!;
    } else if (this.#fresh < this.#capacity) {
      id = this.#fresh++;
      this.#generations[id] = this.#firstGeneration;
    } else {
      return undefined;
    }
    this.#living[id] = 1;
    this.#live++;
    return ((id << 16) | this.#generations[id]!) >>> 0;
  }

  /** Retires `entity` and answers true; a stale, never handed out or already despawned handle changes nothing and answers false. */
  despawn(entity: Entity): boolean {
    if (!this.isAlive(entity)) return false;
    const id = entity >>> 16;
    this.#living[id] = 0;
    const g = this.#generations[id]!;
    this.#generations[id] = g === 0xffff ? this.#firstGeneration : g + 1;
    this.#freed[this.#freeCount++] = id;
    this.#live--;
    return true;
  }

  /** Whether `entity` is the handle currently handed out for its index. */
  isAlive(entity: Entity): boolean {
    if (!isHandle(entity)) return false;
    const id = entity >>> 16;
    return id < this.#fresh && this.#living[id] === 1 && this.#generations[id] === (entity & 0xffff);
  }

  /** How many entities are alive. */
  get length(): number {
    return this.#live;
  }

  /** "Entities(3 alive of 8)". */
  toString(): string {
    return `Entities(${this.#live} alive of ${this.#capacity})`;
  }

  /** @internal util.inspect / console.log: toString(), not the internals (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }

  /** The declared capacity. */
  get capacity(): number {
    return this.#capacity;
  }

  /** How many indices have ever been handed out. */
  get highWater(): number {
    return this.#fresh;
  }

  /** Despawns every live entity and resets the free order so that the next spawns hand out 0, 1, 2, ... again. */
  despawnAll(): void {
    for (let id = 0; id < this.#fresh; id++) {
      if (this.#living[id] === 1) {
        this.#living[id] = 0;
        const g = this.#generations[id]!;
        this.#generations[id] = g === 0xffff ? this.#firstGeneration : g + 1;
      }
    }
    this.#live = 0;
    // Free order: the next spawn must hand out 0, then 1, ...: push descending.
    this.#freeCount = 0;
    for (let id = this.#fresh - 1; id >= 0; id--) this.#freed[this.#freeCount++] = id;
  }
}
