// component.ts - a registered component: its schema, its C layout, and the
// encoder/decoder generated for it. Created by World.registerComponent only.
import type { Mem } from '../boundary/raw.js';
import {
  type FieldLayout, type Schema, type ScalarKind, type ReadWriteHandler,
  type Encoder, makeEncoder, makeDecoder, kindSize,
} from './schema.js';
import type { Entity } from './entity.js';
import { ColumnPlaces } from '../core/slot_tables.js';
import { INSPECT, schemaText } from '../base/inspect.js';

/** @internal The key under which a relation handle (World.registerRelation) holds its component. */
export const RELATION_COMPONENT: unique symbol = Symbol('laige.relationComponent');

/** The component of a relation: one u32 field, the target's handle bits. */
export type RelationSchema = { readonly target: 'u32' };

/**
 * What a relation handle is to the calls that take a component (has,
 * remove, get, query `tags` / `without`, system io): its component.
 */
export interface RelationHandle {
  /** @internal */
  readonly [RELATION_COMPONENT]: Component<RelationSchema>;
}

/** One field of a registered component, as laid out in its C struct. */
export interface FieldInfo {
  /** The field name. */
  readonly name: string;
  /** The scalar kind. */
  readonly kind: ScalarKind;
  /** Elements: 1 for a scalar, the length of a fixed array. */
  readonly count: number;
  /** Byte offset inside the component. */
  readonly offset: number;
}

/** Access of a listed component in a query or a system's declared I/O. */
export type Access = 'read' | 'write';

/** One term of a query: a component and how the query accesses it (`Position.read`, `Position.write`). */
export interface QueryTerm<S extends Schema = Schema, A extends Access = Access> {
  readonly component: Component<S>;
  readonly access: A;
}

/** A scalar field of a component, for one entity at a time. */
export interface ScalarFieldHandle {
  /** The field's value on live `e`. Throws for a stale handle and for an entity without the component. */
  get(e: Entity): number;
  /** Writes the field of live `e` (validated like World.add; the other fields are untouched). */
  set(e: Entity, value: number): void;
}

/** A fixed-array field of a component, element by element (the index is required: without it the call throws). */
export interface ArrayFieldHandle {
  /** Element `i` of the field on live `e`. */
  get(e: Entity, i: number): number;
  /** Writes element `i` of the field of live `e` (validated like World.add). */
  set(e: Entity, i: number, value: number): void;
}

/** The field handles of a component: `Position.field.x`. */
export type FieldHandles<S extends Schema> = {
  readonly [K in keyof S]: S[K] extends ScalarKind ? ScalarFieldHandle : ArrayFieldHandle;
};

/**
 * A component type registered in one World. Its `id` is the world's dense
 * component id (1, 2, 3, ... in registration order); a Component is only
 * valid with the world that registered it.
 */
export class Component<S extends Schema = Schema> {
  /** The registered name (unique per world). */
  readonly name: string;
  /** The component id in its world. */
  readonly id: number;
  /** The schema it was registered with. */
  readonly schema: S;
  /** Bytes per value (0 for a tag without fields). */
  readonly size: number;
  /** The largest field kind size (1 for a tag). */
  readonly alignment: number;
  /** The fields in C struct order. */
  readonly fields: readonly FieldInfo[];
  /** The read term of a query: `world.query({ vel: Velocity.read })`. */
  readonly read: QueryTerm<S, 'read'>;
  /** The write term of a query: `world.query({ pos: Position.write })`. */
  readonly write: QueryTerm<S, 'write'>;
  /** One field for one entity, no object built: `Position.field.x.get(e)`, `.set(e, v)` (component/field_handle.ts). */
  readonly field: FieldHandles<S>;
  /** @internal The world that registered it (identity only). */
  readonly _owner: object;
  /** @internal */
  readonly _layout: readonly FieldLayout[];
  /** @internal field name -> layout */
  readonly _byName: ReadonlyMap<string, FieldLayout>;
  /** @internal Validates and writes a value. */
  readonly _encode: Encoder;
  /** @internal Throws the "declared 'read'" error of a field (each). */
  readonly _readOnly: ReadWriteHandler;
  /** @internal Reads a value into a fresh object. */
  readonly _decode: (m: Mem, base: number) => Record<string, number | number[]>;
  /** @internal Its column places by archetype (slot_tables.ts: reads without a wasm call). */
  readonly _columns = new ColumnPlaces();

  /** @internal Use World.registerComponent. */
  constructor(owner: object, name: string, id: number, schema: S, size: number, alignment: number,
    layout: readonly FieldLayout[], onReadWrite: ReadWriteHandler, fieldHandles: (c: Component<S>) => FieldHandles<S>) {
    this._owner = owner;
    this.name = name;
    this.id = id;
    this.schema = schema;
    this.size = size;
    this.alignment = alignment;
    this._layout = layout;
    this.fields = Object.freeze(layout.map((f) => Object.freeze({ name: f.name, kind: f.kind, count: f.count, offset: f.offset })));
    this._byName = new Map(layout.map((f) => [f.name, f]));
    this._encode = makeEncoder(layout);
    this._decode = makeDecoder(layout);
    this._readOnly = onReadWrite;
    this.read = Object.freeze({ component: this, access: 'read' as const });
    this.write = Object.freeze({ component: this, access: 'write' as const });
    this.field = fieldHandles(this);
    Object.freeze(this);
  }

  /** "Component(Position#1 { x: f32, y: f32 })": name, id and schema (console.log and util.inspect show it too). */
  toString(): string {
    return `Component(${this.name}#${this.id} ${schemaText(this._layout)})`;
  }

  /** @internal util.inspect / console.log: toString(), not the internals (inspect.ts). */
  [INSPECT](): string {
    return this.toString();
  }
}

/** @internal Bytes of one element of `f`. */
export function fieldElementSize(f: FieldLayout): number {
  return kindSize(f.kind);
}
