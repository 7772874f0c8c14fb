// observers.ts - reacting to change from TypeScript (docs/changes.md#typescript):
// observers, the removed logs of a running system, markChanged and change
// tracking. Everything is the core's (web/bindings/changes.cpp): the queue,
// its order and timing, the depth limit, the snapshot and hash of the change
// state. The TypeScript observers are one C++ trampoline; the module's one
// hook router (laige.ts) hands each event to the world's ChangeHooks here.
import type { Component } from '../component/component.js';
import { type Entity, formatEntity } from '../component/entity.js';
import { check, coreError, invalid, typeName } from '../base/errors.js';
import type { Schema, Value } from '../component/schema.js';
import { describe } from '../base/describe.js';
import { logHandlers, refuseInsideLog } from '../base/reentrancy.js';
import { Commands } from '../systems/commands.js';
import type { AnyComponent } from '../world_types.js';
import type { ObserverHooks, WorldCore } from '../core/world_core.js';

/** The observer events: a structural add, a value replaced by add or an add command, a removal (remove, destroy, clear). */
export type ObserverEvent = 'onAdd' | 'onSet' | 'onRemove';
const EVENTS: readonly ObserverEvent[] = ['onAdd', 'onSet', 'onRemove'];

/** What an observer receives; valid during its call only (its commands throw afterwards). */
export interface ObserverContext<S extends Schema = Schema> {
  /** The world (the public World). */
  readonly world: unknown;
  /** The event. */
  readonly event: ObserverEvent;
  /** The component the event is about. */
  readonly component: Component<S>;
  /** The entity (after a destroy, no longer live). */
  readonly entity: Entity;
  /** A copy of the value when the event happened: the new one for onAdd / onSet, the last one for onRemove. */
  readonly value: Readonly<Value<S>>;
  /** Structural changes go here: they apply right after this observer returns and may queue further events (depth + 1). */
  readonly commands: Commands;
  /** 0 for an event of a system or a top-level call, n + 1 for one caused by an observer of depth n (at most 8). */
  readonly depth: number;
  /** True while a rollback session re-simulates ticks it ran before: a renderer skips its side effects then. */
  readonly resimulating: boolean;
}

/** A registered observer (observers stay registered for the world's lifetime: the core has no removal). */
export interface ObserverHandle {
  /** Dense from 1 per world, in registration order (the order observers of one event run in). */
  readonly id: number;
  readonly event: ObserverEvent;
  readonly component: AnyComponent;
}

/** The observer counters (diagnostics, never simulation state). */
export interface ObserverStats {
  /** Observers registered (C++ and TypeScript). */
  observers: number;
  /** Events queued and not yet dispatched. */
  pending: number;
  /** Observer calls made. */
  calls: number;
  /** Calls that failed (a TypeScript observer that threw, a C++ one that returned a failure). */
  failures: number;
  /** Events dropped by the depth limit. */
  depthExceeded: number;
}

type Fn = (ctx: ObserverContext) => void;

/** @internal The TypeScript observers of one world and the error one of them threw. */
export class WorldObservers implements ObserverHooks {
  readonly #world: WorldCore;
  readonly #fns: Array<{ fn: Fn; component: Component } | undefined> = [];
  /** The first error an observer threw since the last rethrow, or null. */
  error: { value: unknown } | null = null;

  constructor(world: WorldCore) {
    this.#world = world;
  }

  add(id: number, fn: Fn, component: Component): void {
    this.#fns[id] = { fn, component };
  }

  /** Module.laigeObserver: runs observer `id`; 0, or 1 when it threw (kept: rethrown after the call that drained). */
  _dispatch(id: number, event: number, entity: number, value: number, depth: number, resimulating: boolean): number {
    const world = this.#world;
    const rec = this.#fns[id];
    if (rec === undefined) return 0;
    const m = world.mem;
    m.sync();
    const commands = new Commands(world, `observer of ${rec.component.name}`);
    const ctx: ObserverContext = {
      world: world.facade, event: EVENTS[event]!, component: rec.component, entity,
      value: Object.freeze(rec.component._decode(m, value)) as Readonly<Value<Schema>>, commands, depth, resimulating,
    };
    world.calls.enter('observer');
    try {
      rec.fn(ctx);
      return 0;
    } catch (e) {
      // Inside a tick the tick's guard rethrows it (as a system's error);
      // else the call that drained rethrows it when the core returns.
      if (world.systems.running) world.systems.recordError(e);
      else this.error ??= { value: e };
      return 1;
    } finally {
      commands._close();
      world.calls.leave();
      m.sync();
    }
  }
}

/** @internal The world's observers, made on first use. */
function observersOf(world: WorldCore): WorldObservers {
  world.observers ??= new WorldObservers(world);
  return world.observers as WorldObservers;
}

/** @internal Rethrows what an observer threw during the last call (world.ts calls it after every call that may drain). */
export function rethrowObserverError(world: WorldCore): void {
  const o = world.observers as WorldObservers | null;
  if (o === null || o.error === null) return;
  const e = o.error.value;
  o.error = null;
  throw e;
}

/** @internal world.observe(component, event, fn). */
export function observe(world: WorldCore, c: unknown, event: unknown, fn: unknown): ObserverHandle {
  const where = 'World.observe';
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const w = world.live(where);
  const comp = world.component(where, c);
  const ev = EVENTS.indexOf(event as ObserverEvent);
  if (ev < 0) {
    throw invalid(`${where}: the event must be one of ${EVENTS.join(', ')}, got ${describe(event)}`, 'unknown_event',
      { where, field: 'event', got: typeof event === 'string' ? event : typeName(event), component: comp.name });
  }
  if (typeof fn !== 'function') {
    throw invalid(`${where}: the observer must be a function (ctx) => void, got ${describe(fn)}`, 'observer_invalid',
      { where, field: 'fn', got: typeName(fn), component: comp.name });
  }
  const inside = world.calls.innermost ?? (world.systems.running ? 'system' : undefined);
  if (inside !== undefined) {
    throw invalid(`${where}: observers are registered at setup, between ticks, not inside a callback (${inside}) on the world (docs/changes.md#typescript)`,
      'observe_inside_callback', { where, callback: inside, component: comp.name, event: event as string });
  }
  const m = world.mem;
  const code = world.raw.changesObserve(w, ev, comp.id, m.out);
  m.sync();
  check(code, where);
  const id = m.u32[m.out >>> 2]!;
  observersOf(world).add(id, fn as Fn, comp);
  return Object.freeze({ id, event: event as ObserverEvent, component: comp });
}

/** @internal world.flushObservers(): runs queued events now (a no-op inside a phase), then rethrows what one threw. */
export function flushObservers(world: WorldCore): void {
  const where = 'World.flushObservers';
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const code = world.raw.changesFlushObservers(world.live(where));
  world.mem.sync();
  rethrowObserverError(world);
  // observer_depth_exceeded, or a C++ observer's failure (the queue ran).
  if (code !== 0) throw coreError(code, where);
}

/** @internal world.observerStats(). */
export function observerStats(world: WorldCore): ObserverStats {
  const w = world.live('World.observerStats');
  const m = world.mem;
  world.raw.changesObserverStats(w, m.out);
  const o = m.out >>> 3;
  const f = m.f64;
  return { observers: f[o]!, pending: f[o + 1]!, calls: f[o + 2]!, failures: f[o + 3]!, depthExceeded: f[o + 4]! };
}

/** @internal world.markChanged(e, c): for code that wrote the column memory itself. */
export function markChanged(world: WorldCore, e: unknown, c: unknown): void {
  const where = 'World.markChanged';
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const w = world.live(where);
  world.entity(where, e);
  const comp = world.component(where, c);
  const code = world.raw.changesMarkChanged(w, e as number, comp.id);
  if (code !== 0) throw coreError(code, `${where}(${formatEntity(e as number)}, ${comp.name})`);
}

/** @internal world.trackChanges(c): starts tracking now (every entity that has it counts as added now). */
export function trackChanges(world: WorldCore, c: unknown): void {
  const where = 'World.trackChanges';
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const w = world.live(where);
  const comp = world.component(where, c);
  const code = world.raw.changesTrack(w, comp.id);
  world.mem.sync();
  check(code, where);
}

/** @internal The change ticks of (e, c): { added, changed } (0 when untracked, absent or stale) and the world's current tick. */
export function changeTicks(world: WorldCore, e: unknown, c: unknown): { added: number; changed: number; now: number; tracked: boolean } {
  const where = 'World.changeTicks';
  const w = world.live(where);
  world.entity(where, e);
  const comp = world.component(where, c);
  const r = world.raw;
  return {
    added: r.changesAddedTick(w, e as number, comp.id), changed: r.changesChangedTick(w, e as number, comp.id),
    now: r.changesTick(w), tracked: r.changesTracks(w, comp.id) !== 0,
  };
}

/**
 * @internal ctx.removed(c, fn) in a system: fn(entity, lastValue) for every
 * entity that lost `c` since this system last ran (the core's eachRemoved;
 * `c` must be in the system's io). The entries are gathered first, so fn
 * may record commands (removals they make are seen next run).
 */
export function eachRemoved(world: WorldCore, c: unknown, fn: unknown): void {
  const where = 'SystemContext.removed';
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const w = world.live(where);
  const comp = world.component(where, c);
  if (typeof fn !== 'function') throw invalid(`${where}: expected a function (entity, last) => void, got ${describe(fn)}`, 'wrong_type', { where, field: 'fn', got: typeName(fn) });
  const m = world.mem;
  const code = world.raw.changesEachRemoved(w, comp.id, comp.size, m.out);
  m.sync();
  check(code, `${where}(${comp.name})`);
  const o = m.out >>> 2;
  const base = m.u32[o]!;
  const n = m.u32[o + 1]!;
  const stride = m.u32[o + 2]!;
  if (n === 0) return;
  // Decoded before any callback runs: a callback may grow memory or refill the gather buffer.
  const entities: number[] = new Array<number>(n);
  const values: unknown[] = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    const at = base + i * stride;
    entities[i] = m.u32[at >>> 2]!;
    values[i] = Object.freeze(comp._decode(m, at + 8));
  }
  const f = fn as (e: Entity, last: unknown) => void;
  for (let i = 0; i < n; i++) f(entities[i]!, values[i]);
}
