// world_components.ts - how a World gets its Component objects: registered
// from TypeScript by schema (World.registerComponent), or adopted from the
// components a C++ scenario's setup registered (sim.openScenario). Both
// build the Component the same way, from the layout the core reports.
import { Component } from './component.js';
import { makeFieldHandles } from './field_handle.js';
import { check, coreError, invalid } from '../base/errors.js';
import { type Schema, KIND_BY_CODE, layoutFrom, parseSchema } from './schema.js';
import { describe } from '../base/describe.js';
import { checkName, componentNameProblem, MAX_COMPONENT_NAME_BYTES } from './names.js';
import { logHandlers, refuseInsideLog } from '../base/reentrancy.js';
import type { WorldCore } from '../core/world_core.js';

type CoreInfo = NonNullable<ReturnType<WorldCore['raw']['worldComponentInfo']>>;

/** @internal The Component for core component `id`, laid out as the core reports it. */
export function makeComponent<S extends Schema>(world: WorldCore, name: string, id: number, schema: S, info: CoreInfo): Component<S> {
  const c = new Component<S>(world, name, id, schema, info.size, info.alignment, layoutFrom(info.fields, schema),
    (field: string): never => {
      throw invalid(`each: ${name}.${field} was declared 'read' in this query: declare it 'write' to assign it`, 'read_only_field', { where: 'each', component: name, field });
    }, makeFieldHandles);
  world.components[id] = c as unknown as Component;
  return c;
}

/** World.registerComponent: checks the name and schema, registers it in the core, wraps it. */
export function registerComponentOn<const S extends Schema>(world: WorldCore, name: string, schema: S): Component<S> {
  if (logHandlers.depth !== 0) refuseInsideLog('World.registerComponent');
  const where = `World.registerComponent(${describe(name)})`;
  const w = world.live(where);
  world.notScenario(where);
  checkName(where, 'component name', name, componentNameProblem(name), 'component_name_invalid', MAX_COMPONENT_NAME_BYTES);
  const fields = parseSchema(where, schema);
  // "name kind count" per field (parseSchema checked every name is an identifier).
  const r = world.raw.worldRegisterComponent(w, name, fields.map(([field, kind, count]) => `${field} ${kind} ${count}`).join(','));
  world.mem.sync();
  check(r.code, where);
  const info = world.raw.worldComponentInfo(w, r.id);
  world.mem.sync();
  if (info === null) throw coreError(1, where);
  return makeComponent(world, name, r.id, Object.freeze({ ...schema }) as S, info);
}

/** Wraps every component the core registered (C++ LAIGE_COMPONENT fields) in a Component. */
export function adoptComponents(world: WorldCore): void {
  const n = world.raw.worldComponentCount(world.ptr);
  for (let id = 1; id <= n; id++) {
    const info = world.raw.worldComponentInfo(world.ptr, id);
    world.mem.sync();
    if (info === null) continue;
    const schema: Record<string, unknown> = {};
    for (const [fname, code, count] of info.fields) {
      const kind = KIND_BY_CODE[code]!;
      schema[fname] = count > 1 ? [kind, count] : kind;
    }
    makeComponent(world, info.name, id, Object.freeze(schema) as Schema, info);
  }
}
