// links.mjs PACKAGE_DIR - every relative link and image of the packed
// README.md, docs/*.md and docs/internals/*.md must resolve inside the tarball (extracted at
// PACKAGE_DIR), and a `#anchor` into a markdown page must name one of its
// headings (GitHub's slugs). Prints each broken link; exits 1 if any.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const pkg = resolve(process.argv[2]);
const mdIn = (dir) => (existsSync(join(pkg, dir)) ? readdirSync(join(pkg, dir)).filter((f) => f.endsWith('.md')).map((f) => `${dir}/${f}`) : []);
const pages = ['README.md', ...mdIn('docs'), ...mdIn('docs/internals')];

function slugs(file) {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map();
  const out = new Set();
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = m[1].replace(/`/g, '').trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) out.add(m[1]);
  return out;
}

let broken = 0;
let checked = 0;
for (const page of pages) {
  const file = join(pkg, page);
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const targets = [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g), ...text.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  for (const target of targets) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
    checked++;
    const [path, anchor] = target.split('#');
    const dest = path === '' ? file : resolve(dirname(file), path);
    let why = '';
    if (!dest.startsWith(pkg + '/') && dest !== pkg) why = 'points outside the package';
    else if (!existsSync(dest)) why = 'is not in the tarball';
    else if (anchor !== undefined && anchor !== '' && dest.endsWith('.md') && !slugs(dest).has(anchor)) why = `has no heading #${anchor}`;
    if (why !== '') {
      broken++;
      console.log(`pack links: ${page}: (${target}) ${why} (${relative(pkg, dest) || '.'})`);
    }
  }
}
console.log(`pack links: ${checked} relative links in ${pages.length} pages, ${broken} broken`);
process.exit(broken === 0 ? 0 : 1);
