// kinds_world.ts - the world the each-loop tests share: a component of every
// scalar kind plus fixed arrays, a two-field Position on two rows in three,
// a tag on one in five, each on the row loop path the test pins.
import type { World } from '../../../dist/index.js';
import { sim } from './sim.js';

/** Which row loops a world's each uses: generated (per callback), shared, or interpreted. */
export type LoopPath = 'auto' | 'shared' | 'interpreted';
export const LOOP_PATHS: readonly LoopPath[] = ['auto', 'shared', 'interpreted'];

/** Pins the row loops `w`'s each takes. */
export function useLoopPath(w: World, path: LoopPath): void {
  (w as unknown as { _eachLoops: LoopPath })._eachLoops = path;
}

/** Every kind, in C struct order without implicit padding (40 bytes, 8-aligned). */
export const KINDS = { h: 'f64', e: 'i32', f: 'u32', g: 'f32', q: 'fx', c: 'i16', d: 'u16', arr: ['i16', 3], a: 'i8', b: 'u8', pad: ['u8', 4] } as const;

/** `n` entities with Kinds, Position on two in three, Tag on one in five. */
export function kindsWorld(path: LoopPath, n = 300) {
  const w = sim.createWorld({ capacity: 512, seed: 4n });
  useLoopPath(w, path);
  const K = w.registerComponent('Kinds', KINDS);
  const P = w.registerComponent('Position', { x: 'f32', y: 'f32' });
  const T = w.registerComponent('Tag', {});
  for (let i = 0; i < n; i++) {
    const e = w.create();
    w.add(e, K, { a: (i % 200) - 100, b: i % 256, c: i * 7 - 1000, d: i * 11, e: -i * 1000, f: i * 100_000, g: i / 3, h: i / 7, q: i << 16, arr: [i, -i, 2 * i], pad: [0, 0, 0, 0] });
    if (i % 3 !== 0) w.add(e, P, { x: i * 0.5, y: -i });
    if (i % 5 === 0) w.add(e, T, {});
  }
  return { w, K, P, T };
}
