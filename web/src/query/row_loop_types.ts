// row_loop_types.ts - the shapes the row loops share (row_loop.ts compiles
// them, row_loop_interpreted.ts interprets them, row_walk.ts drives them).
import type { Mem } from '../boundary/raw.js';

/**
 * @internal A generated row loop: fn over rows [start, rows) of one
 * archetype (`hb`: u32 index of its row handles); returns the next row to
 * run: `rows` when done, earlier when a row took the slow commit (a World.add
 * or memory growth during fn, or a value checked field by field); the
 * caller calls again from there.
 */
export type RowLoop = (fn: (...args: unknown[]) => void, m: Mem, hb: number, start: number, rows: number,
  cols: Uint32Array, at: number) => number;

/**
 * @internal How a loop hands its refs to the callback. `names` null:
 * positionally, `fn(e, ref0, ref1, ...)` (World.each); else one object
 * `fn(e, { [names[i]]: ref_i, [absent[j]]: undefined })` (Query.each).
 * `cols[i]`: the cursor column of component i (a query's optional terms that
 * an archetype lacks are left out of the loop and passed as undefined).
 */
export interface RefShape {
  readonly names: readonly string[] | null;
  readonly cols: readonly number[];
  readonly absent: readonly string[];
}
