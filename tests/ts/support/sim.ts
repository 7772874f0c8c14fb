// The module every test file loads once (vitest isolates files): the one
// with the built-in scenarios ('@laige/sim/scenarios'), which the tests of
// scenario runs, goldens and rollback pairings need. It differs from the
// module of '@laige/sim' by the scenario table alone; load.test.ts checks
// the two agree and that the latter refuses every scenario call.
import { loadLaige, type Laige } from '../../../dist/scenarios.js';

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
