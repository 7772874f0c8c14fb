// commands.ts - deferred structural changes from TypeScript (docs/commands.md).
// A Commands object records into the world's C++ command buffer through
// plain wasm exports (web/bindings/commands.cpp), so the phases, the apply
// order, the checks, the skips and the state hashes are exactly the core's:
// `ctx.commands` in a system applies right after its run, `world.commands`
// inside a top-level each applies when the each returns, and
// `world.defer(fn)` applies when fn returns. Values go through the
// component's own encoder, as World.add's do.
import type { Component, RelationHandle } from '../component/component.js';
import { type RelationTarget, isRelationTarget } from '../relations/relations.js';
import { type InstantiateOptions, instantiate } from '../relations/prefabs.js';
import { type Entity, formatEntity } from '../component/entity.js';
import { coreError, invalid, typeName } from '../base/errors.js';
import { type Schema, type ValueInput } from '../component/schema.js';
import { describe } from '../base/describe.js';
import { logHandlers, refuseInsideLog } from '../base/reentrancy.js';
import { usedAfterCall } from './system_io.js';
import { INSPECT } from '../base/inspect.js';
import type { AnyComponent } from '../world_types.js';
import type { WorldCore } from '../core/world_core.js';

/** The command counters of a world since its creation (diagnostics, never simulation state). */
export interface CommandStats {
  /** Commands recorded (create is immediate and not counted). */
  recorded: number;
  /** Commands applied. */
  applied: number;
  /** Commands skipped at apply time because their entity was no longer live. */
  skippedDead: number;
  /** Commands skipped at apply time because the add, remove or destroy was rejected then. */
  skippedFailed: number;
  /** Commands recorded and not applied yet (0 between phases). */
  pending: number;
  /** The buffer's size in bytes (it grows by doubling and never shrinks). */
  bufferBytes: number;
  /** How many times the buffer grew. */
  grows: number;
}

/**
 * A command buffer: `ctx.commands` in a system, `world.commands` inside an
 * each, the argument of `world.defer(fn)`. Every record call checks what it
 * can now (a live handle, a component of this world, a value that fits the
 * schema, the running system's io) and throws before recording anything;
 * the rest is a counted skip when the commands apply (docs/commands.md#apply).
 */
export class Commands {
  readonly #world: WorldCore;
  readonly #owner: string;
  #open = true;

  /** @internal Use ctx.commands, world.commands or world.defer. */
  constructor(world: WorldCore, owner: string) {
    this.#world = world;
    this.#owner = owner;
  }

  /** @internal Ends this buffer's call: every later use throws used_after_call. */
  _close(): void {
    this.#open = false;
  }

  #live(where: string): number {
    if (logHandlers.depth !== 0) refuseInsideLog(where);
    const w = this.#world.live(where);
    if (!this.#open) {
      throw usedAfterCall(where, 'Commands', `${where}: the ${this.#owner} these commands belong to has returned (record during that call only)`);
    }
    return w;
  }

  // The record calls below keep their common case small (V8 inlines them
  // into a caller's loop, as World.add) and take #live and the entity's
  // full check only to throw, in the same order.

  /** Creates an entity now and returns its live handle (create is legal inside an each); later commands may name it. */
  create(): Entity {
    this.#live('Commands.create');
    return this.#world.createEntity();
  }

  /** Records destroy(e): applied at the phase's end; an entity already dead by then is a counted skip. */
  destroy(e: Entity): void {
    const world = this.#world;
    const w = world.ptr;
    if (logHandlers.depth !== 0 || w === 0 || !this.#open) this.#live('Commands.destroy');
    if (typeof e !== 'number' || e >>> 0 !== e) world.entity('Commands.destroy', e);
    const code = world.raw.worldCommandDestroy(w, e);
    if (code !== 0) throw coreError(code, `Commands.destroy(${formatEntity(e)})`);
  }

  /** Records add(e, c, value) (create-or-update when applied). The value is encoded and checked now. */
  add<S extends Schema>(e: Entity, c: Component<S>, value: ValueInput<S>): void;
  /** Records add(e, ChildOf(parent)): the relation, checked when applied (docs/relations.md#typescript). */
  add(e: Entity, link: RelationTarget): void;
  add<S extends Schema>(e: Entity, c: Component<S> | RelationTarget, value?: ValueInput<S>): void {
    if (value === undefined && isRelationTarget(c)) return this.add(e, c.relation.component, { target: c.target });
    const world = this.#world;
    const w = world.ptr;
    if (logHandlers.depth !== 0 || w === 0 || !this.#open) this.#live('Commands.add');
    if (typeof e !== 'number' || e >>> 0 !== e) world.entity('Commands.add', e);
    const comp = world.component('Commands.add', c);
    const m = world.mem;
    comp._encode(m, value as ValueInput<S>, m.scratch, 'Commands.add');
    const code = world.raw.worldCommandAdd(w, e, comp.id, m.scratch, comp.size);
    m.sync();
    if (code !== 0) throw coreError(code, `Commands.add(${formatEntity(e)}, ${comp.name})`);
  }

  /** Records remove(e, c) (a no-op when applied if `e` lacks it then). */
  remove(e: Entity, c: AnyComponent | RelationHandle): void {
    const world = this.#world;
    const w = world.ptr;
    if (logHandlers.depth !== 0 || w === 0 || !this.#open) this.#live('Commands.remove');
    if (typeof e !== 'number' || e >>> 0 !== e) world.entity('Commands.remove', e);
    const comp = world.component('Commands.remove', c);
    const code = world.raw.worldCommandRemove(w, e, comp.id);
    world.mem.sync();
    if (code !== 0) throw coreError(code, `Commands.remove(${formatEntity(e)}, ${comp.name})`);
  }

  /**
   * The deferred instantiate (docs/prefabs.md#typescript): creates the
   * tree's entities now (empty, as create does; the same handles and order
   * as World.instantiate) and records one add per component per entity
   * (the prefab's values now, the overrides, the hierarchy links to the new
   * parents), applied at the phase's end. Returns the root instance. All or
   * nothing at record time: a refusal (the core's reasons: prefab,
   * hierarchy, overrides, relation_walk_mutation inside a relation walk,
   * entity_budget_exhausted, system_io_violation) creates and records nothing.
   */
  instantiate<const O extends readonly (readonly [Component<any>, unknown])[] = readonly []>(prefab: Entity, options?: InstantiateOptions<O>): Entity { // eslint-disable-line @typescript-eslint/no-explicit-any
    const where = 'Commands.instantiate';
    this.#live(where);
    return instantiate(this.#world, where, prefab, options, true);
  }

  /** "Commands(run of system 'Move', 2 pending)", or "(closed)" once its call returned. */
  toString(): string {
    if (!this.#open || this.#world.ptr === 0) return `Commands(${this.#owner}, closed)`;
    return `Commands(${this.#owner}, ${commandStats(this.#world).pending} pending)`;
  }

  /** @internal util.inspect / console.log (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }

  /** Commands recorded in this world and not applied yet. */
  get pending(): number {
    return commandStats(this.#world).pending;
  }
}

/** @internal The world's phase buffer (`world.commands`): valid while a system runs, an each is live or a defer is open. */
export function phaseCommands(world: WorldCore): Commands {
  const where = 'World.commands';
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const w = world.live(where);
  // A walk of this layer (its guard is live) or a system's run keeps a
  // phase open: only otherwise is the core asked (a call per access, and
  // world.commands is typically read once per row).
  if (world.iterating === 0 && world.sys === null && world.raw.worldCommandsRecording(w) === 0) {
    throw invalid(`${where}: no command phase is open (commands record inside a system's run, an each callback or world.defer(fn), and apply at its end); make the call directly here (docs/commands.md#phases)`,
      'command_outside_phase', { where, op: 'commands' });
  }
  // One object per world: its record calls reach the core, which rejects
  // them (command_outside_phase) once no phase is open.
  const phase = world.phase as { commands: Commands | null };
  phase.commands ??= new Commands(world, 'command phase');
  return phase.commands;
}

/** @internal world.defer(fn): fn(commands), then the commands apply (joined with an outer phase if one is open). */
export function runDefer(world: WorldCore, fn: (commands: Commands) => void): void {
  const where = 'World.defer';
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const w = world.live(where);
  if (typeof fn !== 'function') throw invalid(`${where}: expected a function (commands) => void, got ${describe(fn)}`, 'wrong_type', { where, field: 'fn', got: typeName(fn) });
  const code = world.raw.worldBeginDefer(w);
  if (code !== 0) throw coreError(code, where);
  const commands = new Commands(world, 'World.defer callback');
  world.calls.enter('defer');
  try {
    fn(commands);
  } finally {
    // However fn leaves: the phase closes and what it recorded applies
    // (the entities it created exist already).
    commands._close();
    world.calls.leave();
    if (world.ptr !== 0) world.raw.worldEndDefer(world.ptr);
    world.mem.sync();
  }
}

/** @internal The world's CommandStats. */
export function commandStats(world: WorldCore): CommandStats {
  const w = world.live('World.commandStats');
  const m = world.mem;
  world.raw.worldCommandStats(w, m.out);
  const o = m.out >>> 3;
  const f = m.f64;
  return { recorded: f[o]!, applied: f[o + 1]!, skippedDead: f[o + 2]!, skippedFailed: f[o + 3]!, pending: f[o + 4]!, bufferBytes: f[o + 5]!, grows: f[o + 6]! };
}
