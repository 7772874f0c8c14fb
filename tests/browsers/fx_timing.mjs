// fx_timing.mjs - ns per call of the Q16.16 math functions (fx.sin ...) next
// to their pinned-fp32 twins (f32.sin ...) in the engine that runs it: the
// browser suite's page (determinism.mjs prints an INFO line per browser,
// asserting no time; docs/benchmarks.md#math-functions-in-typescript). Every
// round times every function of both kinds once, alternating; each figure is
// the best round. Inputs as bench/js/fx_math_bench.mjs.

const ROWS = [['sin', 'a'], ['cos', 'a'], ['tan', 'a'], ['atan2', 'a', 'b'], ['asin', 'u'], ['acos', 'u'],
  ['exp', 'u'], ['log', 'p'], ['pow', 'p', 'u'], ['hypot', 'a', 'b'], ['floor', 'a'], ['ceil', 'a'], ['round', 'a']];

/** [{ name, fx, f32 }] in ns per call, best of `rounds` alternating rounds of `n` calls. */
export function fxTiming(fx, f32, { rounds = 8, n = 1 << 15 } = {}) {
  let seed = 1;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  const mk = (f) => Float64Array.from({ length: n }, () => Math.fround(f()));
  const F = { a: mk(() => (rand() - 0.5) * 200), b: mk(() => (rand() - 0.5) * 200), u: mk(() => rand() * 2 - 1),
    p: mk(() => rand() * 10 + 0.001) };
  const X = Object.fromEntries(Object.entries(F).map(([k, v]) => [k, Int32Array.from(v, (x) => fx.fromFloat(x))]));
  // one loop function per cell, so that every call site sees one target
  const loop = (f, two) => new Function('f', 'a', 'b', 'n', two
    ? 'let acc = 0; for (let i = 0; i < n; i++) acc += f(a[i], b[i]); return acc;'
    : 'let acc = 0; for (let i = 0; i < n; i++) acc += f(a[i]); return acc;').bind(null, f);
  const cells = ROWS.map(([name, A, B]) => {
    const two = B !== undefined;
    const lx = loop(fx[name], two);
    const lf = loop(f32[name], two);
    return { name, fxRun: () => lx(X[A], X[B ?? A], n), f32Run: () => lf(F[A], F[B ?? A], n), fx: Infinity, f32: Infinity };
  });
  let sink = 0;
  for (let r = -1; r < rounds; r++) {
    for (const c of cells) {
      let t0 = performance.now();
      sink += c.fxRun();
      const tf = ((performance.now() - t0) * 1e6) / n;
      t0 = performance.now();
      sink += c.f32Run();
      const t3 = ((performance.now() - t0) * 1e6) / n;
      if (r >= 0) {
        c.fx = Math.min(c.fx, tf);
        c.f32 = Math.min(c.f32, t3);
      }
    }
  }
  return { rows: cells.map((c) => ({ name: c.name, fx: c.fx, f32: c.f32 })), sink: sink === 0.5 ? 1 : 0 };
}

/** One line: `sin 31/22, cos ...` (fx / f32 ns per call). */
export function formatFxTiming(t) {
  return `fx math, ns per call fx/f32 (best of alternating rounds; timer resolution limits small figures): ${t.rows
    .map((r) => `${r.name} ${r.fx.toFixed(1)}/${r.f32.toFixed(1)}`).join(', ')}`;
}
