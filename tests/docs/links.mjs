// links.mjs - checks that every relative link in README.md and docs/**/*.md
// resolves: the file (or folder) exists, and a #anchor names a heading of the
// target page (GitHub's anchor rules) or an explicit <a id="..."> / <a name="...">.
// Links inside code fences and inline code are not links. External links
// (http:, https:, mailto:) are not checked. No dependencies:
//   node tests/docs/links.mjs [root]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchorsOf, prose } from './anchors.mjs';

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '../..'));

function markdownFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...markdownFiles(p));
    else if (name.endsWith('.md')) out.push(p);
  }
  return out;
}

const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))].filter((f) => existsSync(f));
let checked = 0;
const broken = [];
for (const file of files) {
  // Whole text, so that a link whose text wraps over lines is still one link.
  const text = prose(readFileSync(file, 'utf8')).join('\n');
  const found = [];
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push([m.index, m[1]]);
  for (const m of text.matchAll(/^[ \t]*\[[^\]\n]+\]:[ \t]+(\S+)/gm)) found.push([m.index, m[1]]);  // [x]: target
  for (const [offset, target] of found) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;  // http:, https:, mailto:
    checked++;
    const [pathPart, anchor] = target.split('#', 2);
    const dest = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
    const where = `${relative(root, file)}:${text.slice(0, offset).split('\n').length}`;
    if (!existsSync(dest)) { broken.push(`${where}: ${target}: ${relative(root, dest)} does not exist`); continue; }
    if (anchor === undefined || anchor === '') continue;
    if (!dest.endsWith('.md')) { broken.push(`${where}: ${target}: an anchor into a file that is not markdown`); continue; }
    if (!anchorsOf(dest).has(anchor)) {
      broken.push(`${where}: ${target}: ${relative(root, dest)} has no heading for #${anchor}`);
    }
  }
}
for (const b of broken) console.error(`broken link: ${b}`);
console.log(`links: ${checked} relative links in ${files.length} pages, ${broken.length} broken`);
process.exit(broken.length === 0 ? 0 : 1);
