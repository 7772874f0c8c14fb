// relations.ts - relations between entities from TypeScript
// (docs/relations.md#typescript): registerRelation, the relation handle
// (`ChildOf(parent)` for add, the handle itself where a component is taken),
// targetOf, sourcesOf, sourceCount, eachCascade and checkRelations. The rules
// are the core's (web/bindings/relations.cpp): an add or remove of a relation
// is a component add or remove (worldAdd, the command records), which the
// core checks (stale target, self, cycle, walk mutation) and indexes, and a
// destroy applies the cleanup rule.
import { Component, RELATION_COMPONENT, type QueryTerm, type RelationSchema } from '../component/component.js';
import { type Entity, formatEntity } from '../component/entity.js';
import { check, coreError, invalid } from '../base/errors.js';
import { describe } from '../base/describe.js';
import { checkName, componentNameProblem, MAX_COMPONENT_NAME_BYTES } from '../component/names.js';
import { logHandlers, refuseInsideLog } from '../base/reentrancy.js';
import { makeComponent } from '../component/registration.js';
import { checkAccess } from '../systems/system_io.js';
import { checkArg, checkOptions } from '../base/args.js';
import { RELATION_ENUMS } from '../boundary/limits.gen.js';
import { INSPECT } from '../base/inspect.js';
import type { WorldCore } from '../core/world_core.js';

/** What destroying a target does to its sources: `'remove'` (they lose the relation) or `'destroy'` (they go too, recursively). */
export type OnTargetDestroyed = 'remove' | 'destroy';
// The values web/boundary.json gives the core are exactly these (a compile
// error otherwise, either way round), while the public type stays a plain
// union (the generated table is internal).
type ManifestRules = (typeof RELATION_ENUMS.onTargetDestroyed.values)[number];
const sameRules: [ManifestRules, OnTargetDestroyed] extends [OnTargetDestroyed, ManifestRules] ? true : never = true;
void sameRules;

/** Options of World.registerRelation. */
export interface RelationOptions {
  /** Applied to every source when its target is destroyed (default `'remove'`). */
  onTargetDestroyed?: OnTargetDestroyed;
  /** One target per source (the only kind: `false` is refused with relation_options_invalid). */
  exclusive?: boolean;
}

/** `ChildOf(parent)`: a relation and a target, for `world.add(e, ChildOf(parent))` and `commands.add`. */
export interface RelationTarget {
  readonly relation: Relation;
  readonly target: Entity;
}

/**
 * A registered relation (World.registerRelation). Call it with a target to
 * add it (`world.add(turret, ChildOf(tank))`); pass it where a component is
 * taken (`world.has(e, ChildOf)`, `world.remove(e, ChildOf)`, `world.get`,
 * query `tags` / `without`, a system's io): it stands for its component, whose
 * one field `target` holds the target's handle.
 */
export interface Relation {
  (target: Entity): RelationTarget;
  /** The registered name (the component's). */
  readonly name: string;
  /** The component id. */
  readonly id: number;
  /** The component: `{ target: 'u32' }`. Write the target only through add (a direct write bypasses the rules; checkRelations reports it). */
  readonly component: Component<RelationSchema>;
  /** The cleanup rule. */
  readonly onTargetDestroyed: OnTargetDestroyed;
  /** The read term of a query: `world.query({ parent: ChildOf.read })`, then `parent.target`. */
  readonly read: QueryTerm<RelationSchema, 'read'>;
  /** @internal */
  readonly [RELATION_COMPONENT]: Component<RelationSchema>;
}

// The components that are relations (a Component passed where a relation is expected is checked against it).
const relationComponents = new WeakSet<Component>();
// Which World.add / Commands.add argument is a RelationTarget.
const targets = new WeakSet<object>();

const RELATION_OPTIONS = {
  onTargetDestroyed: { type: 'oneOf', values: RELATION_ENUMS.onTargetDestroyed.values, default: RELATION_ENUMS.onTargetDestroyed.default },
  exclusive: { type: 'boolean', default: true },
} as const;

const nameEncoder = new TextEncoder();

/** @internal world.registerRelation(name, options). */
export function registerRelation(world: WorldCore, name: unknown, options: unknown = {}): Relation {
  if (logHandlers.depth !== 0) refuseInsideLog('World.registerRelation');
  const where = `World.registerRelation(${describe(name)})`;
  const w = world.live(where);
  world.notScenario(where);
  checkName(where, 'relation name', name, componentNameProblem(name), 'component_name_invalid', MAX_COMPONENT_NAME_BYTES);
  const o = checkOptions(where, options, RELATION_OPTIONS);
  const rule = o.onTargetDestroyed as OnTargetDestroyed;
  const m = world.mem;
  m.sync();
  const { written } = nameEncoder.encodeInto(name as string, m.u8.subarray(m.scratch, m.scratch + MAX_COMPONENT_NAME_BYTES + 1));
  const code = world.raw.relationRegister(w, m.scratch, written, RELATION_ENUMS.onTargetDestroyed.values.indexOf(rule), o.exclusive as boolean, m.out);
  m.sync();
  check(code, where);
  const id = m.u32[m.out >>> 2]!;
  const info = world.raw.worldComponentInfo(w, id);
  m.sync();
  if (info === null) throw coreError(1, where);
  const component = makeComponent(world, name as string, id, Object.freeze({ target: 'u32' }) as RelationSchema, info);
  relationComponents.add(component);
  const relation = ((target: unknown): RelationTarget => {
    if (typeof target !== 'number' || !Number.isInteger(target) || target < 0 || target > 0xffffffff) {
      world.entity(`${component.name}(target)`, target);
    }
    const t: RelationTarget = Object.freeze({ relation, target: target as number });
    targets.add(t);
    return t;
  }) as Relation;
  Object.defineProperties(relation, {
    name: { value: component.name },
    id: { value: id },
    component: { value: component },
    onTargetDestroyed: { value: rule },
    read: { value: component.read },
    [RELATION_COMPONENT]: { value: component },
    toString: { value: () => `Relation(${component.name}#${id}, onTargetDestroyed ${rule})` },
    [INSPECT]: { value: () => relation.toString() },
  });
  return Object.freeze(relation);
}

/** @internal True when `v` is a RelationTarget (`ChildOf(parent)`). */
export function isRelationTarget(v: unknown): v is RelationTarget {
  return typeof v === 'object' && v !== null && targets.has(v);
}

/** @internal The relation component `rel` names in this world (a Relation, or its component), else throws. */
export function relationOf(world: WorldCore, where: string, rel: unknown): Component {
  const c = world.component(where, rel);
  if (!relationComponents.has(c)) {
    throw invalid(`${where}: ${c.name} is not a relation (register it with registerRelation)`, 'relation_not_registered', { where, component_id: c.id, component: c.name });
  }
  return c;
}

/** @internal The io check of a running system: reading a relation needs it declared (read is enough). */
function readCheck(world: WorldCore, where: string, c: Component, e: number): void {
  if (world.sys !== null) checkAccess(world, where, c, 'read', e);
}

/** @internal world.targetOf(e, rel). */
export function targetOf(world: WorldCore, e: unknown, rel: unknown): Entity | undefined {
  const where = 'World.targetOf';
  const w = world.live(where);
  const c = relationOf(world, where, rel);
  world.entity(where, e);
  readCheck(world, where, c, e as number);
  const t = world.raw.relationTargetOf(w, e as number, c.id);
  if (t !== 0) return t;
  if (world.raw.worldIsValid(w, e as number) === 0) check(world.raw.worldCheck(w, e as number), `${where}(${formatEntity(e as number)}, ${c.name})`);
  return undefined;
}

/** @internal world.sourceCount(target, rel). */
export function sourceCount(world: WorldCore, target: unknown, rel: unknown): number {
  const where = 'World.sourceCount';
  const w = world.live(where);
  const c = relationOf(world, where, rel);
  world.entity(where, target);
  readCheck(world, where, c, target as number);
  check(world.raw.worldCheck(w, target as number), `${where}(${formatEntity(target as number)}, ${c.name})`);
  return world.raw.relationSourceCount(w, target as number, c.id);
}

/** @internal world.sourcesOf(target, rel): the sources in ascending slot order. */
export function sourcesOf(world: WorldCore, target: unknown, rel: unknown): Entity[] {
  const where = 'World.sourcesOf';
  const w = world.live(where);
  const c = relationOf(world, where, rel);
  world.entity(where, target);
  readCheck(world, where, c, target as number);
  // The scratch area, not the handle buffer (a live each reads its handles
  // from that one); a longer list than the scratch holds gets its own.
  const m = world.mem;
  const max = world.raw.relationSourceCount(w, target as number, c.id);
  const own = (max + 1) * 4 > m.scratchSize;
  const buf = own ? world.raw._malloc((max + 1) * 4) : m.scratch;
  try {
    const code = world.raw.relationSourcesOf(w, target as number, c.id, buf, max);
    m.sync();
    if (code !== 0) throw coreError(code, `${where}(${formatEntity(target as number)}, ${c.name})`);
    const n = m.u32[buf >>> 2]!;
    return Array.from(m.u32.subarray((buf >>> 2) + 1, (buf >>> 2) + 1 + n));
  } finally {
    if (own) world.raw._free(buf);
  }
}

// The visitor of the walk on the stack (one per world at a time; walks of two worlds nest).
let visitor: ((source: number, target: number) => number) | null = null;

/** @internal Module.laigeRelationVisit (installed by laige.ts): one visit of the walk on the stack; 0, or 1 to stop. */
export function visitRelation(source: number, target: number): number {
  return visitor === null ? 1 : visitor(source, target);
}

/** @internal world.eachCascade(rel, fn): fn(source, target), parents before children. */
export function eachCascade(world: WorldCore, rel: unknown, fn: unknown): void {
  const where = 'World.eachCascade';
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const w = world.live(where);
  const c = relationOf(world, where, rel);
  checkArg(where, 'fn', fn, { type: 'function', expected: 'a function (source, target) => void' });
  if (world.sys !== null) checkAccess(world, where, c, 'read', 0);
  let error: { value: unknown } | null = null;
  const outer = visitor;
  visitor = (s, t) => {
    try {
      (fn as (s: number, t: number) => void)(s, t);
      return 0;
    } catch (e) {
      error = { value: e };
      return 1;
    }
  };
  world.calls.enter('eachCascade');
  let code: number;
  try {
    code = world.raw.relationEachCascade(w, c.id);
  } finally {
    world.calls.leave();
    visitor = outer;
    world.mem.sync();
  }
  if (error !== null) throw (error as { value: unknown }).value;
  if (code !== 0) throw coreError(code, `${where}(${c.name})`);
}

/** @internal world.checkRelations(). */
export function checkRelations(world: WorldCore): void {
  check(world.raw.relationCheck(world.live('World.checkRelations')), 'World.checkRelations');
}
