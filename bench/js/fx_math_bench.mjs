// fx_math_bench.mjs - ns per call of the deterministic math functions of
// @laige/sim (fx.sin ... on Q16.16 raw values, f32.sin ... on binary32)
// next to Math.sin ... in the same Node process. Prints, asserts nothing.
//   npm run build:ts && node bench/js/fx_math_bench.mjs
import { performance } from 'node:perf_hooks';
import { fx } from '../../dist/math/fx.js';
import { f32 } from '../../dist/math/f32_math.js';

const N = 1 << 16;
let seed = 1;
const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const mk = (f) => Float64Array.from({ length: N }, () => Math.fround(f()));
const fa = mk(() => (rand() - 0.5) * 200), fb = mk(() => (rand() - 0.5) * 200);
const fu = mk(() => rand() * 2 - 1), fp = mk(() => rand() * 10 + 0.001);
// abs(x) in [2^23, 2^127), either sign: the exact argument reduction of f32.sin, cos, tan
const fl = mk(() => (rand() < 0.5 ? -1 : 1) * (1 + rand()) * 2 ** (23 + Math.floor(rand() * 104)));
const raw = (a) => Int32Array.from(a, (v) => fx.fromFloat(v));
const xa = raw(fa), xb = raw(fb), xu = raw(fu), xp = raw(fp);
let sink = 0;
function best(fn) {
  let b = Infinity;
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    let acc = 0;
    for (let i = 0; i < N; i++) acc += fn(i);
    b = Math.min(b, ((performance.now() - t0) * 1e6) / N);
    sink += acc;
  }
  return b.toFixed(2).padStart(10);
}
const rows = [
  ['sin', 'a'], ['cos', 'a'], ['tan', 'a'], ['atan2', 'a', 'b'], ['asin', 'u'], ['acos', 'u'], ['exp', 'u'],
  ['log', 'p'], ['pow', 'p', 'u'], ['hypot', 'a', 'b'], ['floor', 'a'], ['ceil', 'a'], ['round', 'a'],
];
const X = { a: xa, b: xb, u: xu, p: xp };
const Fv = { a: fa, b: fb, u: fu, p: fp };
console.log('fn             fx        f32      Math.*   (ns per call)');
for (const [name, A, B] of rows) {
  const xA = X[A], xB = X[B ?? A], fA = Fv[A], fB = Fv[B ?? A];
  const two = B !== undefined;
  const cols = [
    best(two ? (i) => fx[name](xA[i], xB[i]) : (i) => fx[name](xA[i])),
    best(two ? (i) => f32[name](fA[i], fB[i]) : (i) => f32[name](fA[i])),
    best(two ? (i) => Math[name](fA[i], fB[i]) : (i) => Math[name](fA[i])),
  ];
  console.log(name.padEnd(6), ...cols);
}
console.log('f32 sin, cos, tan of abs(x) in [2^23, 2^127) (the exact argument reduction):');
for (const name of ['sin', 'cos', 'tan']) {
  console.log(name.padEnd(6), '-'.padStart(10), best((i) => f32[name](fl[i])), best((i) => Math[name](fl[i])));
}
if (sink === 42) console.log('');
