#!/usr/bin/env node
// same-glue.mjs - checks that two emscripten glue files (the .mjs of the lean
// wasm module and of the module with the scenarios) are the same code apart
// from the .wasm file name they mention. The package ships one glue
// (wasm/laige_wasm.mjs) for both modules (docs/build.md#the-two-wasm-modules);
// emscripten names the modules' imports and exports by short generated
// names, and this fails the build the day the two links name them apart.
//   node scripts/same-glue.mjs build/wasm/laige_wasm.mjs build/wasm/laige_wasm_scenarios.mjs
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const [a, b] = process.argv.slice(2);
if (a === undefined || b === undefined) {
  console.error('usage: node scripts/same-glue.mjs <glue.mjs> <other glue.mjs>');
  process.exit(2);
}
const normalised = (file) => readFileSync(file, 'utf8').replaceAll(basename(file, '.mjs') + '.wasm', 'MODULE.wasm');
const [ta, tb] = [normalised(a), normalised(b)];
if (ta !== tb) {
  let i = 0;
  while (i < ta.length && ta[i] === tb[i]) i++;
  console.error(`same-glue: ${basename(a)} and ${basename(b)} differ from character ${i}:\n  ${JSON.stringify(ta.slice(Math.max(0, i - 40), i + 80))}\n  ${JSON.stringify(tb.slice(Math.max(0, i - 40), i + 80))}`);
  console.error('The package ships one glue for both modules (docs/build.md#the-two-wasm-modules): the two links must name their imports and exports alike.');
  process.exit(1);
}
console.log(`laige: ${basename(a)} and ${basename(b)} are the same glue`);
