// extract.mjs - pulls the runnable snippets out of the manuals.
//
// A runnable block is a fenced code block preceded by `<!-- snippet: NAME -->`
// (ts, html, cpp or cmake); its expected output is a later fenced block preceded by
// `<!-- output: NAME -->`. Every snippet needs an output block: the runner
// checks that the snippet's output contains those lines, in that order, so a
// snippet that runs but computes something else fails too.
//
//   node tests/docs/extract.mjs OUTDIR file.md...
// writes OUTDIR/<NAME>.<lang> and OUTDIR/<NAME>.expected, and prints one line
// per snippet: `NAME LANG SOURCE.md:LINE`.
//
// `<!-- snippet: NAME continues: PREV -->` makes NAME the program PREV plus
// this block (a page that builds one program step by step, each step run
// and checked on its own); PREV must come earlier. `file: PATH` after the
// name says which file of the reader's app the block is (quickstart.mjs
// writes it there); it is ignored here.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [outDir, ...files] = process.argv.slice(2);
if (!outDir || files.length === 0) {
  console.error('usage: node tests/docs/extract.mjs OUTDIR file.md...');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

const marker = /^<!--\s*(snippet|output):\s*([a-z0-9][a-z0-9-]*)(?:\s+continues:\s*([a-z0-9][a-z0-9-]*))?(?:\s+file:\s*\S+)?\s*-->\s*$/;
const fence = /^(```+|~~~+)\s*([A-Za-z0-9+-]*)\s*$/;
const snippets = new Map();
const outputs = new Map();
let problems = 0;

for (const file of files) {
  const lines = readFileSync(file, 'utf8').split('\n');
  let pending = null;  // { kind, name, line }
  for (let i = 0; i < lines.length; i++) {
    const m = marker.exec(lines[i]);
    if (m) { pending = { kind: m[1], name: m[2], prev: m[3], line: i + 1 }; continue; }
    const f = fence.exec(lines[i]);
    if (!f) { if (pending && lines[i].trim() !== '') { console.error(`${file}:${pending.line}: ${pending.kind} marker '${pending.name}' is not followed by a fenced block`); problems++; pending = null; } continue; }
    // A fence opens here: find where it closes.
    let j = i + 1;
    while (j < lines.length && !lines[j].startsWith(f[1])) j++;
    if (j >= lines.length) { console.error(`${file}:${i + 1}: unclosed code fence`); problems++; break; }
    if (pending) {
      let body = lines.slice(i + 1, j).join('\n') + '\n';
      if (pending.prev !== undefined) {
        const prev = snippets.get(pending.prev);
        if (pending.kind !== 'snippet' || !prev) { console.error(`${file}:${pending.line}: '${pending.name}' continues '${pending.prev}', which is not an earlier snippet`); problems++; }
        else body = prev.body + body;
      }
      const table = pending.kind === 'snippet' ? snippets : outputs;
      if (table.has(pending.name)) { console.error(`${file}:${pending.line}: ${pending.kind} '${pending.name}' defined twice`); problems++; }
      table.set(pending.name, { lang: f[2], body, where: `${file}:${pending.line}` });
      pending = null;
    }
    i = j;
  }
}

const langs = { ts: 'ts', typescript: 'ts', html: 'html', cpp: 'cpp', 'c++': 'cpp', cmake: 'cmake' };
for (const [name, s] of snippets) {
  const ext = langs[s.lang];
  if (!ext) { console.error(`${s.where}: snippet '${name}' has language '${s.lang}' (want ts, html, cpp or cmake)`); problems++; continue; }
  writeFileSync(join(outDir, `${name}.${ext}`), s.body);
  // html pages and CMakeLists are checked through the program they build.
  const out = outputs.get(name);
  if (out) writeFileSync(join(outDir, `${name}.expected`), out.body);
  else if (ext === 'ts' || ext === 'cpp') { console.error(`${s.where}: snippet '${name}' has no <!-- output: ${name} --> block`); problems++; }
  console.log(`${name} ${ext} ${s.where}`);
}
for (const [name, o] of outputs) {
  if (!snippets.has(name)) { console.error(`${o.where}: output '${name}' has no snippet`); problems++; }
}
process.exit(problems === 0 ? 0 : 1);
