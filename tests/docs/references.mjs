// references.mjs - the product stands alone: its pages and comments state a
// rule and link the page that explains it, and every file they name exists.
// Fails on:
//   - a requirement-id citation (`ABC-012`, `XY-12.1`, `Q-R7`: an upper-case
//     tag, a dash, a number) or a numbered seed, issue or design decision,
//     in any source, script or page of the repository;
//   - a repository path that names no file or folder (a file since renamed
//     or removed), or a page#anchor that names no heading of the page, in
//     README.md, docs/ and the comments and strings of the sources: a path
//     is a word that starts with one of the repository's top-level source
//     folders (cpp/, web/, docs/, tests/, ...) and a `/`. Generated trees (build/, dist/, wasm/, node_modules/)
//     are not checked, nor words holding a placeholder (`<name>`, `*`, `$`,
//     `{a,b}`).
// No dependencies: node tests/docs/references.mjs [root]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchorsOf } from './anchors.mjs';

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '../..'));

// Folders that are built or installed, never committed: nothing under them is checked
// and a path into them is not a repository path.
const generated = new Set(['.git', 'build', 'dist', 'node_modules', 'wasm', '.vite', 'test-results', '.exp', 'reference']);
const textExtensions = new Set(['.md', '.h', '.cpp', '.ts', '.mts', '.js', '.mjs', '.sh', '.txt', '.cmake', '.def', '.in', '.json', '.html', '.css', '.yml']);
const skipFiles = new Set(['package-lock.json']);

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    if (generated.has(name)) continue;
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) out.push(...sourceFiles(p));
    else if (!skipFiles.has(name) && (textExtensions.has(extname(name)) || name === 'CMakeLists.txt' || name === 'run')) out.push(p);
  }
  return out;
}

// The golden streams and fuzz inputs are data, not prose.
const isData = (rel) => rel.startsWith('tests/golden/') || rel.startsWith('tests/fuzz/corpus') || rel.startsWith('tests/fuzz/regressions/') && !rel.endsWith('.md');

// An upper-case tag (2+ letters, or one letter and `-R`), a dash, a number:
// ABC-012, XY-12.1, QA-03, Q-R7. Names of standards and formats
// that have that shape are not citations.
const requirementId = /\b(?:[A-Z][A-Z0-9]+-|[A-Z]-R)[0-9]{1,4}(?:\.[0-9]+)?\b/g;
const notCitations = new Set(['AVX-512', 'UTF-8', 'UTF-16', 'UTF-32', 'SHA-1', 'SHA-256', 'SHA-512', 'IEEE-754', 'ISO-8601']);
const looksLikeId = (s) => !notCitations.has(s);

// Other citations of material outside the product: a numbered seed, issue or
// decision, the team's notes.
const teamReference = /\bseeds? ?0\d\d\b|\bPRD\b|\bFACTS\b|\bDESIGN\.md\b|\bDecision \d+\b|\b[Ii]ssue[- #]?\d+\b|\bthe issue's\b/g;

const topFolders = readdirSync(root).filter((n) => !generated.has(n) && !n.startsWith('.') && statSync(join(root, n)).isDirectory());
const pathWord = new RegExp(`(?<![A-Za-z0-9_./@~-])((?:${topFolders.map((f) => f.replace(/[.]/g, '\\.')).join('|')})/[A-Za-z0-9_.@/{},*<>$#\\\\-]*)`, 'g');

const problems = [];
let pathsChecked = 0;
for (const file of [join(root, 'README.md'), ...topFolders.flatMap((f) => sourceFiles(join(root, f)))]) {
  const rel = relative(root, file);
  if (isData(rel) || rel === 'tests/docs/references.mjs') continue;
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    for (const m of line.matchAll(requirementId)) {
      if (looksLikeId(m[0])) problems.push(`${rel}:${i + 1}: cites a requirement id '${m[0]}': state the rule and link the page that explains it`);
    }
    for (const m of line.matchAll(teamReference)) {
      problems.push(`${rel}:${i + 1}: cites '${m[0]}', which no reader has: state the rule and link the page that explains it`);
    }
    for (const m of line.matchAll(pathWord)) {
      let p = m[1].replace(/[.,:;)]+$/, '');
      if (/[<>*${}\\]/.test(p)) continue;                  // a pattern, placeholder or regex, not one file
      const anchor = /#([A-Za-z0-9_-]+)$/.exec(p)?.[1];
      p = p.replace(/#.*$/, '').replace(/:\d+$/, '');
      if (p.split('/').some((seg) => generated.has(seg))) continue;
      pathsChecked++;
      if (!existsSync(join(root, p))) problems.push(`${rel}:${i + 1}: names '${p}', which does not exist`);
      else if (anchor !== undefined && p.endsWith('.md') && !anchorsOf(join(root, p)).has(anchor)) {
        problems.push(`${rel}:${i + 1}: names '${p}#${anchor}', but ${p} has no heading for #${anchor}`);
      }
    }
  });
}
for (const p of problems) console.error(`reference: ${p}`);
console.log(`references: ${pathsChecked} repository paths checked, ${problems.length} problem(s)`);
process.exit(problems.length === 0 ? 0 : 1);
