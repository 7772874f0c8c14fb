// check-architecture.mjs - the shape rules of web/src (docs/internals/architecture.md),
// checked over the TypeScript compiler's own parse and type information:
//   1. no import circles: every `import`, `import type`, `export ... from` and
//      `import('...')` type between web/src modules counts;
//   2. no reach-ins: outside the facade module (world.ts) no code reads an
//      underscore member of a `World` value (the internals live in the world
//      core, core/world_core.ts, which modules take instead);
//   3. only the facade layer imports `World` as a value (others may
//      `import type` it).
// Prints the import levels (the longest import chain), the file and line
// counts, the circles and the reach-ins per file; exits 1 when a circle or a
// reach-in is not on the allow-list below (which is meant to stay empty), or
// when an allow-list entry no longer applies (so that it shrinks); both
// lists are empty.
//   node scripts/check-architecture.mjs [--json]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = join(root, 'web/src');

// Circles allowed for now, each as its sorted member list joined by ' '
// (paths relative to web/src), with the reason.
const ALLOWED_CIRCLES = new Map([
]);
// Reach-ins allowed for now: file (relative to web/src) -> count.
const ALLOWED_REACH_INS = new Map([
]);
// The modules that make up the public facade: they may import World as a value.
const FACADE = new Set(['world.ts', 'laige.ts', 'index.ts', 'embedded.ts', 'load.ts']);

function listTs(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listTs(p));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const files = listTs(srcDir);
const rel = (p) => relative(srcDir, p).split('\\').join('/');
const program = ts.createProgram(files, {
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true, noEmit: true, skipLibCheck: true, allowJs: false,
});
const checker = program.getTypeChecker();

/** The web/src file a relative module specifier names, or null. */
function target(from, spec) {
  if (!spec.startsWith('.')) return null;
  const p = resolve(dirname(from), spec.replace(/\.js$/, '.ts'));
  return files.includes(p) ? p : null;
}

const graph = new Map(files.map((f) => [f, new Set()]));
const worldValueImports = [];
const reachIns = new Map();
let lines = 0;
let worldClass = null;

for (const f of files) {
  const sf = program.getSourceFile(f);
  lines += sf.text.split('\n').length - (sf.text.endsWith('\n') ? 1 : 0);
  const edge = (spec, node) => {
    const t = target(f, spec);
    if (t !== null) graph.get(f).add(t);
    return t;
  };
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const t = edge(node.moduleSpecifier.text, node);
      if (t !== null && ts.isImportDeclaration(node) && node.importClause && !node.importClause.isTypeOnly) {
        const nb = node.importClause.namedBindings;
        if (nb && ts.isNamedImports(nb)) {
          for (const el of nb.elements) {
            if (!el.isTypeOnly && (el.propertyName ?? el.name).text === 'World') worldValueImports.push(rel(f));
          }
        }
      }
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      edge(node.argument.literal.text, node);
    } else if (ts.isClassDeclaration(node) && node.name?.text === 'World' && rel(f) === 'world.ts') {
      worldClass = checker.getSymbolAtLocation(node.name);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

function isWorldType(type) {
  if (worldClass === null) return false;
  if (type.isUnion()) return type.types.some(isWorldType);
  const s = type.getSymbol();
  return s !== undefined && (s === worldClass || s.getName() === 'World' && s.declarations?.some((d) => rel(d.getSourceFile().fileName) === 'world.ts'));
}

for (const f of files) {
  if (rel(f) === 'world.ts') continue;
  const sf = program.getSourceFile(f);
  const visit = (node) => {
    if (ts.isPropertyAccessExpression(node) && node.name.text.startsWith('_')) {
      const t = checker.getTypeAtLocation(node.expression);
      if (isWorldType(t)) {
        const k = rel(f);
        const list = reachIns.get(k) ?? [];
        list.push(`${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().slice(0, 60)}`);
        reachIns.set(k, list);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

// Tarjan's strongly connected components: a component of more than one file
// (or a file importing itself) is a circle.
const index = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
const sccs = [];
let next = 0;
function strong(v) {
  index.set(v, next); low.set(v, next); next++;
  stack.push(v); onStack.add(v);
  for (const w of graph.get(v)) {
    if (!index.has(w)) { strong(w); low.set(v, Math.min(low.get(v), low.get(w))); }
    else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) === index.get(v)) {
    const c = [];
    let w;
    do { w = stack.pop(); onStack.delete(w); c.push(w); } while (w !== v);
    sccs.push(c);
  }
}
for (const f of files) if (!index.has(f)) strong(f);
const circles = sccs.filter((c) => c.length > 1 || graph.get(c[0]).has(c[0])).map((c) => c.map(rel).sort());
const sccOf = new Map();
sccs.forEach((c, i) => c.forEach((f) => sccOf.set(f, i)));

// Levels over the graph with each circle collapsed: a module that imports
// nothing of web/src is level 1; otherwise one more than its deepest import.
const levelMemo = new Map();
function level(i) {
  if (levelMemo.has(i)) return levelMemo.get(i);
  let l = 1;
  for (const f of sccs[i]) for (const t of graph.get(f)) if (sccOf.get(t) !== i) l = Math.max(l, level(sccOf.get(t)) + 1);
  levelMemo.set(i, l);
  return l;
}
const levels = Math.max(...sccs.map((_, i) => level(i)));
// --chain: print one longest import chain (what to cut to flatten the layers).
if (process.argv.includes('--chain')) {
  let i = sccs.findIndex((_, k) => level(k) === levels);
  while (i >= 0) {
    console.log(`${String(level(i)).padStart(3)}  ${sccs[i].map(rel).join(' + ')}`);
    let next = -1;
    for (const f of sccs[i]) for (const t of graph.get(f)) if (sccOf.get(t) !== i && level(sccOf.get(t)) === level(i) - 1) next = sccOf.get(t);
    i = next;
  }
}
const folders = new Set(files.map((f) => dirname(rel(f))));

const problems = [];
const circleKeys = new Set(circles.map((c) => c.join(' ')));
for (const c of circles) if (!ALLOWED_CIRCLES.has(c.join(' '))) problems.push(`import circle over ${c.length} files: ${c.join(', ')}`);
for (const k of ALLOWED_CIRCLES.keys()) if (!circleKeys.has(k)) problems.push(`allow-listed circle is gone (remove it from ALLOWED_CIRCLES): ${k}`);
let reachInCount = 0;
for (const [f, list] of reachIns) {
  reachInCount += list.length;
  const allowed = ALLOWED_REACH_INS.get(f) ?? 0;
  if (list.length > allowed) problems.push(`${f}: ${list.length} reach-ins to World's underscore members (allowed ${allowed}), e.g. line ${list[0]}`);
}
for (const [f, n] of ALLOWED_REACH_INS) if ((reachIns.get(f)?.length ?? 0) < n) problems.push(`${f}: fewer reach-ins than allowed (${reachIns.get(f)?.length ?? 0} < ${n}): lower ALLOWED_REACH_INS`);
const badWorldImports = [...new Set(worldValueImports)].filter((f) => !FACADE.has(f));
for (const f of badWorldImports) problems.push(`${f} imports World as a value (only the facade may; use import type, or take the world core)`);

const summary = {
  files: files.length, lines, folders: folders.size, levels,
  circles: circles.length, filesInCircles: circles.reduce((n, c) => n + c.length, 0),
  reachIns: reachInCount, reachInFiles: reachIns.size, worldValueImporters: [...new Set(worldValueImports)].sort(),
};
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ ...summary, circleList: circles, reachInsByFile: Object.fromEntries([...reachIns].map(([k, v]) => [k, v.length])) }, null, 2));
} else {
  console.log(`web/src: ${summary.files} files, ${summary.lines} lines, ${summary.folders} folder(s), ${summary.levels} import levels`);
  console.log(`import circles: ${summary.circles} (${summary.filesInCircles} files)`);
  for (const c of circles) console.log(`  ${c.length} files: ${c.join(' ')}${ALLOWED_CIRCLES.has(c.join(' ')) ? `  [allowed: ${ALLOWED_CIRCLES.get(c.join(' '))}]` : ''}`);
  console.log(`reach-ins to World's underscore members outside world.ts: ${summary.reachIns} in ${summary.reachInFiles} files`);
  for (const [f, list] of [...reachIns].sort((a, b) => b[1].length - a[1].length)) console.log(`  ${f}: ${list.length}`);
  console.log(`modules importing World as a value: ${summary.worldValueImporters.join(', ') || 'none'}`);
}
if (problems.length > 0) {
  for (const p of problems) console.error(`check-architecture: ${p}`);
  process.exit(1);
}
console.log('check-architecture: ok');
