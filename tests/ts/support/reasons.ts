// The documented reasons: every `reason` a LaigeError may carry is a row of
// the reason tables in docs/errors.md (`| <a id="reason-name"></a>\`name\` | ...`). Tests
// check each thrown reason against this set, so an undocumented reason fails.
import { readFileSync } from 'node:fs';

const doc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');

/** Every reason documented in docs/errors.md. */
export const DOCUMENTED_REASONS: ReadonlySet<string> = new Set(
  [...doc.matchAll(/^\| <a id="reason-([a-z0-9_]+)"><\/a>`\1` \|/gm)].map((m) => m[1]!),
);
