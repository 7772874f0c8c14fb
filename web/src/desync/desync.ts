// desync.ts - finding where two runs disagree from TypeScript
// (docs/desync.md): per-system checkpoints, the state hash tree and the
// desync report, thin calls into the core (laige/desync.h) with the
// argument checks and the log-handler rule (reentrancy.ts) in front.
import { requireDevtools } from '../core/devtools.js';
import { check, invalid, typeName } from '../base/errors.js';
import { describe } from '../base/describe.js';
import { logHandlers, refuseInsideLog } from '../base/reentrancy.js';
import { hi, lo, tickOf, u32 } from '../base/args.js';
import type { WorldCore } from '../core/world_core.js';
import type { StateDiffItem } from '../world_types.js';
import type { Component } from '../component/component.js';
import { handleOrNull } from '../component/entity.js';

/** One system's checkpoint: the column checksum of the whole state after it ran. */
export interface SystemCheckpoint {
  /** The system's id and name. */
  system: number;
  name: string;
  /** Its position in the tick's run order (0 = ran first). */
  position: number;
  checksum: bigint;
}

/** The checkpoints of the last tick run with checkpoints on (World.checkpoints). */
export interface SystemCheckpoints {
  /** The tick they belong to (0n when none was recorded). */
  tick: bigint;
  items: SystemCheckpoint[];
}

/**
 * A node of the state hash tree (docs/desync.md#the-state-hash-tree): level 0
 * the root; level 1 a part (0 the entity table, 1..C a component id, C + 1
 * the systems' PRNG streams); level 2 a group of 2,048 slots; level 3 a chunk
 * of 64 slots (a leaf).
 */
export interface StateTreeNode {
  level: number;
  part: number;
  index: number;
}

/** One difference of a desync report: the stateDiff item and its first differing field with both values. */
export interface DesyncItem extends StateDiffItem {
  /** The first field whose bytes differ, or null (a presence difference, a tag). */
  field: string | null;
  /** That field's value on each side as World.get gives it (Q16.16 raw, arrays as arrays), null where absent. */
  valueA: number | number[] | null;
  valueB: number | number[] | null;
}

/** What World.desyncReport returns. */
export interface DesyncReport {
  /** The tick both worlds ran to. */
  tick: bigint;
  /** True when both worlds hold checkpoints of that tick. */
  checkpointsCompared: boolean;
  /** The first system after which the checkpoints differ (null when they agree or were not compared). */
  firstSystem: string | null;
  firstSystemId: number;
  firstSystemPosition: number;
  /** How many (entity, component) rows differ; `items` holds the first maxItems. */
  differences: number;
  checksumA: bigint;
  checksumB: bigint;
  items: DesyncItem[];
}

const where0 = (name: string): string => `World.${name}`;

function enter(world: WorldCore, name: string): number {
  const where = where0(name);
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  return world.live(where);
}

/** @internal World.systemCheckpoints = on. */
export function setSystemCheckpoints(world: WorldCore, on: unknown): void {
  const where = where0('systemCheckpoints');
  const w = enter(world, 'systemCheckpoints');
  if (typeof on !== 'boolean') throw invalid(`${where}: must be set to a boolean, got ${describe(on)}`, 'wrong_type', { where, field: 'systemCheckpoints', got: typeName(on) });
  check(world.raw.worldSetSystemCheckpoints(w, on), where);
}

/** @internal World.systemCheckpoints (read: allowed anywhere, a log handler included). */
export function systemCheckpointsOn(world: WorldCore): boolean {
  return world.raw.worldSystemCheckpointsOn(world.live(where0('systemCheckpoints')));
}

/** @internal World.checkpoints() (a read of the last tick's table: allowed anywhere). */
export function systemCheckpoints(world: WorldCore): SystemCheckpoints {
  const w = world.live(where0('checkpoints'));
  const r = world.raw.worldSystemCheckpoints(w);
  world.mem.sync();
  const names = new Map<number, string>();
  for (let id = 1, n = world.raw.worldSystemCount(w); id <= n; id++) names.set(id, world.raw.worldSystemInfo(w, id)?.name ?? '');
  world.mem.sync();
  return {
    tick: BigInt(`0x${r.tick}`),
    items: r.items.map((c) => ({ system: c.system, name: names.get(c.system) ?? '', position: c.position, checksum: BigInt(`0x${c.checksum}`) })),
  };
}

/** @internal World.stateTreeRoot(tick). */
export function stateTreeRoot(world: WorldCore, tick: number | bigint): bigint {
  const w = enter(world, 'stateTreeRoot');
  const t = tickOf(`${where0('stateTreeRoot')}: tick`, tick);
  const m = world.mem;
  world.raw.worldStateTreeRoot(w, lo(t), hi(t), m.out);
  m.sync();
  return m.u64At(m.out);
}

function nodeOf(where: string, node: unknown): StateTreeNode {
  if (typeof node !== 'object' || node === null) throw invalid(`${where}: node must be { level, part, index }, got ${describe(node)}`, 'wrong_type', { where, field: 'node', got: typeName(node) });
  const n = node as Record<string, unknown>;
  return {
    level: u32(`${where}: node.level`, n.level, 0, 3),
    part: u32(`${where}: node.part`, n.part),
    index: u32(`${where}: node.index`, n.index),
  };
}

/** @internal World.stateTreeChildren(node). */
export function stateTreeChildren(world: WorldCore, node: unknown): bigint[] {
  const where = where0('stateTreeChildren');
  const w = enter(world, 'stateTreeChildren');
  const n = nodeOf(where, node);
  const r = world.raw.worldStateTreeChildren(w, n.level, n.part, n.index);
  world.mem.sync();
  check(r.code, where);
  return r.hashes!.map((h) => BigInt(`0x${h}`));
}

/** @internal World.stateTreeLeaf(node). */
export function stateTreeLeaf(world: WorldCore, node: unknown): Uint8Array {
  const where = where0('stateTreeLeaf');
  const w = enter(world, 'stateTreeLeaf');
  const n = nodeOf(where, node);
  const r = world.raw.worldStateTreeLeaf(w, n.level, n.part, n.index);
  world.mem.sync();
  check(r.code, where);
  return Uint8Array.from(r.bytes!);
}

const SCALAR: Record<string, [number, (v: DataView, at: number) => number]> = {
  i8: [1, (v, at) => v.getInt8(at)], u8: [1, (v, at) => v.getUint8(at)],
  i16: [2, (v, at) => v.getInt16(at, true)], u16: [2, (v, at) => v.getUint16(at, true)],
  i32: [4, (v, at) => v.getInt32(at, true)], u32: [4, (v, at) => v.getUint32(at, true)],
  f32: [4, (v, at) => v.getFloat32(at, true)], f64: [8, (v, at) => v.getFloat64(at, true)],
  fx: [4, (v, at) => v.getInt32(at, true)],
};

/** A field's value from a row's bytes: a number, or an array for an array field. */
/** @internal */
export function fieldValue(c: Component | undefined, field: number, bytes: Uint8Array | null): number | number[] | null {
  const f = c?.fields[field];
  if (f === undefined || bytes === null) return null;
  const [size, read] = SCALAR[f.kind]!;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (f.count <= 1) return read(view, f.offset);
  return Array.from({ length: f.count }, (_, i) => read(view, f.offset + i * size));
}

/** @internal World.desyncReport(other, maxItems). */
export function desyncReport(world: WorldCore, other: WorldCore | undefined, given: unknown, maxItems: number): DesyncReport {
  const where = where0('desyncReport');
  const w = enter(world, 'desyncReport');
  requireDevtools(world.raw, where, 'the desync report of two worlds');
  if (other === undefined) throw invalid(`${where}: other must be a World, got ${describe(given)}`, 'wrong_type', { where, field: 'other', got: typeName(given) });
  if (other.host !== world.host) throw invalid(`${where}: other belongs to another module instance`, 'foreign_world', { where, field: 'other' });
  const o = other.live(`${where}: other`);
  const max = u32(`${where}: maxItems`, maxItems, 0, 1 << 20);
  const r = world.raw.worldDesyncReport(w, o, max);
  world.mem.sync();
  check(r.code, where);
  const firstSystemId = r.firstSystem!;
  const firstName = firstSystemId === 0 ? null : world.raw.worldSystemInfo(w, firstSystemId)?.name ?? '';
  world.mem.sync();
  const components = world.components;
  return {
    tick: BigInt(`0x${r.tick!}`),
    checkpointsCompared: r.checkpointsCompared!,
    firstSystem: firstName,
    firstSystemId,
    firstSystemPosition: r.firstSystemPosition!,
    differences: r.differences!,
    checksumA: BigInt(`0x${r.checksumA!}`),
    checksumB: BigInt(`0x${r.checksumB!}`),
    items: r.items!.map((it) => {
      const c = components[it.componentId];
      const bytesA = it.bytesA === null ? null : Uint8Array.from(it.bytesA);
      const bytesB = it.bytesB === null ? null : Uint8Array.from(it.bytesB);
      return {
        slot: it.slot, componentId: it.componentId, size: it.size, presentInA: it.presentInA, presentInB: it.presentInB,
        relation: it.relation, text: it.text, bytesA, bytesB,
        component: it.componentId === 0 ? '' : c?.name ?? '',
        entityA: handleOrNull(it.entityA), entityB: handleOrNull(it.entityB),
        targetA: handleOrNull(it.targetA), targetB: handleOrNull(it.targetB),
        field: it.field < 0 ? null : it.fieldName,
        valueA: it.field < 0 ? null : fieldValue(c, it.field, bytesA),
        valueB: it.field < 0 ? null : fieldValue(c, it.field, bytesB),
      };
    }),
  };
}
