// fx_math_bench.mjs - ns per call of the deterministic math functions of
// @laige/sim in one node process, side by side: fx.sin ... (TypeScript, Q16.16
// raws), the same C++ functions compiled to wasm (the loop inside wasm,
// bench/fx_math_wasm.cpp), f32.sin ... (TypeScript, pinned fp32) and their
// wasm twins. Every round runs every row and column once, alternating, so
// load hits all alike; each cell is the best round, and the ratios are of
// those bests (the median per-round ratio is printed too). The "empty" row
// is the loop alone (a load and an add): the floor below which no function
// can go; the "call" row is the loop calling a function that returns its
// argument (`(x) => x` in TypeScript, the empty loop in wasm): the floor of
// any fx.* call. Prints, asserts nothing.
//   npm run build:ts && bash scripts/build.sh wasm:laige_fx_math_wasm
//   node bench/js/fx_math_bench.mjs [rounds]
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fx } from '../../dist/math/fx.js';
import { f32 } from '../../dist/math/f32_math.js';

const wasmPath = new URL('../../build/wasm/laige_fx_math_wasm.mjs', import.meta.url);
if (!existsSync(wasmPath)) {
  console.error('fx_math_bench: build the wasm module first: bash scripts/build.sh wasm:laige_fx_math_wasm');
  process.exit(2);
}
const { default: createModule } = await import(wasmPath.href);
// built for the web (old emscripten's node ES module output cannot load itself): hand it the bytes
const wasm = await createModule({ wasmBinary: readFileSync(new URL('../../build/wasm/laige_fx_math_wasm.wasm', import.meta.url)) });

const N = 1 << 16;
const ROUNDS = Number(process.argv[2] ?? 15);
let seed = 1;
const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const mk = (f) => Float64Array.from({ length: N }, () => Math.fround(f()));
// inputs: trig/exp/round and atan2/hypot in [-100, 100), asin/acos [-1, 1), log/pow (0, 10]
const F = { a: mk(() => (rand() - 0.5) * 200), b: mk(() => (rand() - 0.5) * 200), u: mk(() => rand() * 2 - 1),
  p: mk(() => rand() * 10 + 0.001) };
const X = Object.fromEntries(Object.entries(F).map(([k, v]) => [k, Int32Array.from(v, (x) => fx.fromFloat(x))]));
// the same values in wasm memory: raws and floats
const ptr = {};
for (const k of Object.keys(F)) {
  const px = wasm._malloc(N * 4);
  wasm.HEAP32.set(X[k], px >> 2);
  const pf = wasm._malloc(N * 4);
  wasm.HEAPF32.set(F[k], pf >> 2);
  ptr[k] = { x: px, f: pf };
}

const ROWS = [['sin', 'a'], ['cos', 'a'], ['tan', 'a'], ['atan2', 'a', 'b'], ['asin', 'u'], ['acos', 'u'],
  ['exp', 'u'], ['log', 'p'], ['pow', 'p', 'u'], ['hypot', 'a', 'b'], ['floor', 'a'], ['ceil', 'a'], ['round', 'a'],
  ['empty', 'a'], ['call', 'a']];
// One loop function per cell (new Function), so every call site sees one target.
const fxLoop = (f, two) => new Function('f', 'a', 'b', 'n', two
  ? 'let acc = 0; for (let i = 0; i < n; i++) acc = (acc + f(a[i], b[i])) | 0; return acc;'
  : 'let acc = 0; for (let i = 0; i < n; i++) acc = (acc + f(a[i])) | 0; return acc;').bind(null, f);
const f32Loop = (f, two) => new Function('f', 'a', 'b', 'n', two
  ? 'let acc = 0; for (let i = 0; i < n; i++) acc += f(a[i], b[i]); return acc;'
  : 'let acc = 0; for (let i = 0; i < n; i++) acc += f(a[i]); return acc;').bind(null, f);
const emptyLoop = new Function('a', 'b', 'n', 'let acc = 0; for (let i = 0; i < n; i++) acc = (acc + a[i]) | 0; return acc;');
// one identity function per column (its own feedback), as each fx.* function is only called from its cell
const identity = () => new Function('x', 'return x;');
const FLOORS = { empty: true, call: true };

const cells = ROWS.map(([name, A, B], id) => {
  const two = B !== undefined;
  const bKey = B ?? A;
  const ts = name === 'empty' ? () => emptyLoop(X[A], X[bKey], N) : (() => {
    const l = fxLoop(name === 'call' ? identity() : fx[name], two);
    return () => l(X[A], X[bKey], N);
  })();
  const tsF = name === 'empty' ? () => emptyLoop(X[A], X[bKey], N) : (() => {
    const l = f32Loop(name === 'call' ? identity() : f32[name], two);
    return () => l(F[A], F[bKey], N);
  })();
  const wid = FLOORS[name] ? 99 : id;
  return {
    name,
    run: {
      fxTs: ts,
      fxWasm: () => wasm._fxBenchRun(wid, 1, N, ptr[A].x, ptr[bKey].x),
      f32Ts: tsF,
      f32Wasm: () => wasm._fxBenchRun(wid, 0, N, ptr[A].f, ptr[bKey].f),
      mathJs: name === 'empty' ? () => emptyLoop(X[A], X[bKey], N) : (() => {
        const l = f32Loop(name === 'call' ? identity() : Math[name], two);
        return () => l(F[A], F[bKey], N);
      })(),
    },
    best: { fxTs: Infinity, fxWasm: Infinity, f32Ts: Infinity, f32Wasm: Infinity, mathJs: Infinity },
    ratios: [],
  };
});

let sink = 0;
const load0 = execSync('uptime').toString().trim();
for (let r = -2; r < ROUNDS; r++) { // two rounds of warm-up (JIT tiers), not counted
  for (const c of cells) {
    const t = {};
    for (const k of Object.keys(c.run)) {
      const t0 = performance.now();
      sink += c.run[k]();
      t[k] = ((performance.now() - t0) * 1e6) / N;
      if (r >= 0) c.best[k] = Math.min(c.best[k], t[k]);
    }
    if (r >= 0) c.ratios.push([t.fxTs / t.fxWasm, t.fxTs / t.f32Ts]);
  }
}
const load1 = execSync('uptime').toString().trim();
const median = (v) => v.slice().sort((x, y) => x - y)[Math.floor(v.length / 2)];
const f = (v) => v.toFixed(2).padStart(8);
console.log(`fx math, ns per call (best of ${ROUNDS} alternating rounds of ${N} calls); node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, ${new Date().toISOString().slice(0, 10)}`);
console.log(`load before: ${load0}`);
console.log(`load after:  ${load1}`);
console.log('fn        fx TS  fx wasm  f32 TS f32 wasm  Math.*  fx TS/wasm  fx TS/f32 TS  (median per-round ratios)');
for (const c of cells) {
  const b = c.best;
  const mr = [median(c.ratios.map((x) => x[0])), median(c.ratios.map((x) => x[1]))];
  console.log(`${c.name.padEnd(6)} ${f(b.fxTs)} ${f(b.fxWasm)} ${f(b.f32Ts)} ${f(b.f32Wasm)} ${f(b.mathJs)}  ${(b.fxTs / b.fxWasm).toFixed(2).padStart(9)}x  ${(b.fxTs / b.f32Ts).toFixed(2).padStart(11)}x  (${mr[0].toFixed(2)}x, ${mr[1].toFixed(2)}x)`);
}
// f32 sin, cos, tan of abs(x) in [2^23, 2^127), either sign: the exact argument reduction
const big = mk(() => (rand() < 0.5 ? -1 : 1) * (1 + rand()) * 2 ** (23 + Math.floor(rand() * 104)));
console.log('f32 of abs(x) in [2^23, 2^127) (the exact reduction), TS and Math.*:');
for (const name of ['sin', 'cos', 'tan']) {
  const l = f32Loop(f32[name], false);
  const m = f32Loop(Math[name], false);
  let bt = Infinity;
  let bm = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    let t0 = performance.now();
    sink += l(big, big, N);
    bt = Math.min(bt, ((performance.now() - t0) * 1e6) / N);
    t0 = performance.now();
    sink += m(big, big, N);
    bm = Math.min(bm, ((performance.now() - t0) * 1e6) / N);
  }
  console.log(`${name.padEnd(6)} ${f(bt)} ${f(bm)}`);
}
if (sink === 0.5) console.log('');
