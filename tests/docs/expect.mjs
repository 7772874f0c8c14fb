// expect.mjs - `node expect.mjs EXPECTED ACTUAL`: passes when every non-empty
// line of EXPECTED occurs in ACTUAL as a whole line (trailing spaces ignored),
// in the same order; otherwise prints the first missing line and both texts.
import { readFileSync } from 'node:fs';

const [expectedFile, actualFile] = process.argv.slice(2);
const norm = (t) => t.split('\n').map((l) => l.trimEnd());
const expected = norm(readFileSync(expectedFile, 'utf8')).filter((l) => l !== '');
const actual = norm(readFileSync(actualFile, 'utf8'));
let at = 0;
for (const line of expected) {
  const found = actual.indexOf(line, at);
  if (found < 0) {
    console.error(`missing output line: ${JSON.stringify(line)}`);
    console.error('--- expected\n' + expected.join('\n') + '\n--- actual\n' + actual.join('\n'));
    process.exit(1);
  }
  at = found + 1;
}
