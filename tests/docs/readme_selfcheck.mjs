// readme_selfcheck.mjs - README.md shows what `bash scripts/selfcheck.sh`
// (the self-check `scripts/run.sh` prints) really prints: the fenced block
// after the `<!-- output of: scripts/selfcheck.sh -->` marker, line for line,
// where a line `  ...` stands for one or more printed lines. So the README's
// block keeps the shape of the output (one check after the other, the digest
// line, the verdicts) and its digest.
//   node tests/docs/readme_selfcheck.mjs [README.md]
// Needs: scripts/build.sh native-release:laige-selfcheck wasm:laige-selfcheck.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const readme = process.argv[2] ?? 'README.md';
const MARKER = '<!-- output of: scripts/selfcheck.sh -->';
const ELIDED = '...';

/** The lines of the fenced block right after the marker, or null. */
function readmeBlock(text) {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.trim() === MARKER);
  if (at < 0 || !/^```/.test(lines[at + 1] ?? '')) return null;
  const end = lines.findIndex((l, i) => i > at + 1 && /^```/.test(l));
  return end < 0 ? null : lines.slice(at + 2, end).map((l) => l.trimEnd());
}

/**
 * Matches `printed` against `shown` (an `...` line: one or more printed
 * lines); returns null when they match, else what differs.
 */
function compareShape(shown, printed) {
  const match = (i, j) => {
    if (i === shown.length) return j === printed.length ? null : `printed line ${j + 1} "${printed[j]}" is not shown`;
    if (shown[i].trim() === ELIDED) {
      for (let k = j + 1; k <= printed.length; k++) if (match(i + 1, k) === null) return null;
      return `no printed line after "${printed[j - 1] ?? '(start)'}" lets the README go on with "${shown[i + 1] ?? '(end of block)'}"`;
    }
    if (j === printed.length) return `the README's line "${shown[i]}" is not printed`;
    if (shown[i] !== printed[j]) return `the README shows "${shown[i]}" where "${printed[j]}" is printed`;
    return match(i + 1, j + 1);
  };
  return match(0, 0);
}

const shown = readmeBlock(readFileSync(readme, 'utf8'));
if (shown === null) {
  console.error(`readme-selfcheck: ${readme} has no fenced block after "${MARKER}"`);
  process.exit(1);
}
let out;
try {
  out = execFileSync('bash', ['scripts/selfcheck.sh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
} catch (e) {
  console.error(`readme-selfcheck: scripts/selfcheck.sh failed (exit ${e.status}):\n${e.stdout ?? ''}`);
  process.exit(1);
}
const printed = out.trimEnd().split('\n').map((l) => l.trimEnd());
const problem = compareShape(shown, printed);
if (problem !== null) {
  console.error(`readme-selfcheck: ${readme}'s self-check block is not what scripts/selfcheck.sh prints: ${problem}`);
  console.error(`--- README\n${shown.join('\n')}\n--- printed\n${printed.join('\n')}`);
  process.exit(1);
}
console.log(`readme-selfcheck: ${readme}'s self-check block matches what scripts/selfcheck.sh prints (${printed.length} lines)`);
