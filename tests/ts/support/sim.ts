// The module every test file loads once (vitest isolates files).
import { loadLaige, type Laige } from '../../../dist/index.js';

export const sim: Laige = await loadLaige();

/** Runs fn and returns the thrown error (fails when nothing is thrown). */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}
