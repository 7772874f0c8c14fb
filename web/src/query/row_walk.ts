// row_walk.ts - one Query.each or Query.eachChunk call's walk over its
// cursor table (the core wrote it: one cursor per run of rows to visit, a
// whole matched archetype or, with change filters, a run of rows they
// pass; and the entity handles when the callback takes them): for each, the
// rows of every cursor (a query without optional terms: one call of its
// generated walk loop for all of them, re-entered only after a row's slow
// commit; with optional terms: the row loop of each cursor's presence mask,
// one call per cursor); for eachChunk, one Chunk per cursor.
//
// Why a function of its own, kept out of line: the caller (Query) holds the
// try/finally that ends the core's guard when a callback throws. When V8
// inlines a row loop into a function inside a try block, the loop is
// compiled with exception edges and runs at a fraction of its speed
// (measured, one f32 field doubled over 2,600 rows: 2.27 ns per row inlined
// inside the try, 1.68 called out of line; 1.42 for the bare loop). V8
// inlines no function whose bytecode exceeds its limit (460 bytes by
// default); this one, with both walks in it, does, so the loops are
// inlined here (when this call site has seen one loop), where no try is open
// around them (an eachChunk callback too: its Chunk is closed by the
// caller's finally when it throws, chunk.ts ChunkScope). A change that
// shrinks it below the limit costs that speed, not correctness.
import type { Component } from '../component/component.js';
import { ChunkImpl, type Chunk, type ChunkScope } from './chunk.js';
import type { RowLoopPlan, RowLoops } from './row_loop.js';
import type { WorldCore } from '../core/world_core.js';

type RowFn = (...args: unknown[]) => void;

/** @internal What a query's walks read (made once per query). */
export interface WalkTables {
  readonly loops: RowLoops;
  /** The first optional term's column (the optional terms present in a cursor: its non-zero columns from there). */
  readonly optionalFrom: number;
  /** The cursor columns' components and the query's read ids. */
  readonly comps: readonly Component[];
  readonly readIds: Uint8Array;
  /** What the query's chunks share (chunk.ts). */
  readonly chunks: ChunkScope;
  /** Where a walk loop goes on after a row's slow commit (cursor, row, handle index). */
  readonly resume: Uint32Array;
}

/**
 * @internal Walks the `count` cursors in `cur` (`stride` words each,
 * `header` words before the columns; every cursor has rows): with a plan,
 * runs its row loops with `fn` (the handles are in `hbuf`, the world's
 * handle buffer, when the plan takes the entity); with plan null, calls
 * `fn(chunk)` once per cursor (a Chunk dies when its call returns). The
 * caller holds the guard and ends it.
 */
export function walkQuery(t: WalkTables, world: WorldCore, cur: Uint32Array, count: number, stride: number, header: number,
  plan: RowLoopPlan | null, fn: RowFn, hbuf: number): void {
  const m = world.mem;
  if (plan === null) {
    // No try block here (ChunkScope says why): the chunk whose call threw
    // is the scope's `open` one, and the caller closes it.
    const chunkFn = fn as unknown as (c: Chunk) => void;
    const s = t.chunks;
    s.begin(world, cur);
    for (let k = 0, at = 0; k < count; k++, at += stride) {
      const chunk = new ChunkImpl(s, at, cur[at + 1]!);
      s.open = chunk;
      chunkFn(chunk);
      s.close();
    }
    return;
  }
  let hb = hbuf >>> 2;
  // (the loops hold the views of one heap: after growth, they are made again over the new one)
  m.sync();
  t.loops.current(plan, m);
  let walk = plan.walk !== undefined ? plan.walk : t.loops.walk(plan, m);
  if (walk !== null) {
    const st = t.resume;
    let k = 0;
    let r = 0;
    while (!walk(fn, m, hb, cur, k, count, stride, header, r, st)) {
      k = st[0]!;
      r = st[1]!;
      hb = st[2]!;
      // A row took the slow commit: the callback may have grown memory.
      m.sync();
      if (!t.loops.current(plan, m)) walk = t.loops.walk(plan, m)!;
    }
    return;
  }
  const byMask = plan.loops;
  const optionalAt = header + t.optionalFrom;
  const optionals = stride - optionalAt;
  for (let k = 0, at = 0; k < count; k++, at += stride) {
    const rows = cur[at + 1]!;
    let mask = 0;
    for (let j = 0; j < optionals; j++) if (cur[at + optionalAt + j] !== 0) mask |= 1 << j;
    for (let r = 0; r < rows;) {
      // (after a row's slow commit too: the callback may have grown memory)
      m.sync();
      t.loops.current(plan, m);
      const loop = byMask[mask] ?? t.loops.loop(plan, mask, m);
      r = loop(fn, m, hb, r, rows, cur, at + header);
    }
    hb += rows;
  }
}
