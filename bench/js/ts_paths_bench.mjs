// ts_paths_bench.mjs - the two TypeScript paths that must beat (or match)
// their plain forms: Query.eachChunk against Query.each over the same rows,
// and a deferred command (world.commands inside an each, world.defer)
// against collecting the entities and making the direct call after the walk.
// Side by side in one Node process, round-robin (the order rotating every
// round), CPU time; prints ns per row (or per command, per call), the
// median of the per-round ratios and every round's ratio, and `uptime`.
// Asserts nothing.
//   npm run build && node bench/js/ts_paths_bench.mjs [--quick] [--rounds K] [--dist path/to/dist/index.js]
// --dist: another build of the package (e.g. main's, for a before/after on one machine).
import { loadavg } from 'node:os';
import { execSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const distArg = process.argv.indexOf('--dist');
const { loadLaige } = await import(distArg >= 0 ? pathToFileURL(process.argv[distArg + 1]).href : '../../dist/index.js');

const quick = process.argv.includes('--quick');
const roundsArg = process.argv.indexOf('--rounds');
const REPS = roundsArg >= 0 ? Number(process.argv[roundsArg + 1]) : quick ? 5 : 11;
const uptime = () => { try { return execSync('uptime', { encoding: 'utf8' }).trim(); } catch { return `load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`; } };
const sim = await loadLaige();
const clockMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const median = (xs) => { const v = [...xs].sort((a, b) => a - b); return v[v.length >> 1]; };

/** Round-robin: each round runs every variant once (rotating order); two warm-up rounds are not counted. */
function measureGroup(variants) {
  const names = Object.keys(variants);
  const runs = Object.fromEntries(names.map((k) => [k, []]));
  for (let r = -2; r < REPS; r++) {
    for (let j = 0; j < names.length; j++) {
      const k = names[(j + Math.max(r, 0)) % names.length];
      const { setup, fn, teardown } = variants[k];
      const ctx = setup?.();
      const t0 = clockMs();
      const n = fn(ctx);
      const dt = clockMs() - t0;
      teardown?.(ctx);
      if (r >= 0) runs[k].push((dt * 1e6) / n);
    }
  }
  return runs;
}

const rows = [];
/** A row: variant a against variant b of one group (ratio a / b per round). */
function row(name, runs, a, b, target) {
  const ratios = runs[a].map((x, i) => x / runs[b][i]);
  rows.push({ name, a: median(runs[a]), b: median(runs[b]), ratio: median(ratios), ratios, target });
}

// --- eachChunk against each ------------------------------------------------------
{
  // "frag": 26 archetypes x 100 rows (Data plus one of 26 components), double one field.
  const w = sim.createWorld({ capacity: 65536, churnPerFrameBudget: 0 });
  const D = w.registerComponent('Data', { v: 'f32' });
  const tags = Array.from({ length: 26 }, (_, i) => w.registerComponent(`L${i}`, { t: 'f32' }));
  for (let k = 0; k < 26; k++) for (let i = 0; i < 100; i++) { const e = w.create(); w.add(e, D, { v: 1 }); w.add(e, tags[k], { t: 0 }); }
  const q = w.query({ d: D.write });
  const FP = quick ? 300 : 1500;
  const dbl = (_e, { d }) => { d.v *= 2; if (d.v > 1e30) d.v = 1; };
  const dblChunk = (c) => { const f = c.field(D, 'v'); const a = f.array; for (let i = f.index, end = i + c.rows; i < end; i++) { a[i] *= 2; if (a[i] > 1e30) a[i] = 1; } };
  const wdbl = (_e, d) => { d.v *= 2; if (d.v > 1e30) d.v = 1; };
  // World.eachChunk's callback: the same text, a function of its own (the
  // second callback the walk's call of fn meets in this process).
  const dblChunkW = (c) => { const f = c.field(D, 'v'); const a = f.array; for (let i = f.index, end = i + c.rows; i < end; i++) { a[i] *= 2; if (a[i] > 1e30) a[i] = 1; } };
  // The floor of any chunk walk: the same callback text called once per
  // archetype with column objects made beforehand (no ECS, no guard, no Chunk).
  const fragFakes = [];
  q.eachChunk((c) => { const f = c.field(D, 'v'); const col = { array: f.array, index: f.index, stride: f.stride, count: f.count }; fragFakes.push({ rows: c.rows, field: () => col }); });
  const dblFake = (c) => { const f = c.field(D, 'v'); const a = f.array; for (let i = f.index, end = i + c.rows; i < end; i++) { a[i] *= 2; if (a[i] > 1e30) a[i] = 1; } };
  const g = measureGroup({
    each: { fn: () => { for (let k = 0; k < FP; k++) q.each(dbl); return 2600 * FP; } },
    chunk: { fn: () => { for (let k = 0; k < FP; k++) q.eachChunk(dblChunk); return 2600 * FP; } },
    floor: { fn: () => { for (let k = 0; k < FP; k++) for (let j = 0; j < fragFakes.length; j++) dblFake(fragFakes[j]); return 2600 * FP; } },
    wEach: { fn: () => { for (let k = 0; k < FP; k++) w.each([D], ['write'], wdbl); return 2600 * FP; } },
    wChunk: { fn: () => { for (let k = 0; k < FP; k++) w.eachChunk([D], ['write'], dblChunkW); return 2600 * FP; } },
  });
  row('frag 26 x 100, double one field: Query eachChunk / each', g, 'chunk', 'each', '<= 1.0');
  row('frag 26 x 100, double one field: World eachChunk / each', g, 'wChunk', 'wEach', '<= 1.0');
  row('frag 26 x 100: eachChunk / its callback over ready columns, no ECS', g, 'chunk', 'floor', '');
  row('frag 26 x 100: that callback over ready columns, no ECS / each', g, 'floor', 'each', '(floor)');

  // The fixed cost of one call: 1 archetype x 1 row, 26 archetypes x 1 row (ns per call).
  const w1 = sim.createWorld({ capacity: 1024, churnPerFrameBudget: 0 });
  const D1 = w1.registerComponent('Data', { v: 'f32' });
  const t1 = Array.from({ length: 26 }, (_, i) => w1.registerComponent(`L${i}`, { t: 'u8', p0: 'u8', p1: 'u8', p2: 'u8' }));
  const one = w1.create(); w1.add(one, D1, { v: 1 });
  const q1 = w1.query({ d: D1.write }, { without: t1 });
  const inc = (_e, { d }) => { d.v += 0; };
  const incChunk = (c) => { const f = c.field(D1, 'v'); const a = f.array; for (let i = f.index, end = i + c.rows; i < end; i++) a[i] += 0; };
  const CALLS = quick ? 50_000 : 200_000;
  const g1 = measureGroup({
    each: { fn: () => { for (let i = 0; i < CALLS; i++) q1.each(inc); return CALLS; } },
    chunk: { fn: () => { for (let i = 0; i < CALLS; i++) q1.eachChunk(incChunk); return CALLS; } },
  });
  row('one call, 1 archetype x 1 row: eachChunk / each (ns/call)', g1, 'chunk', 'each', '<= 1.0');
  const q26 = w1.query({ d: D1.write });
  w1.destroy(one);
  for (const t of t1) { const e = w1.create(); w1.add(e, D1, { v: 1 }); w1.add(e, t, { t: 0, p0: 0, p1: 0, p2: 0 }); }
  const g26 = measureGroup({
    each: { fn: () => { for (let i = 0; i < CALLS / 10; i++) q26.each(inc); return CALLS / 10; } },
    chunk: { fn: () => { for (let i = 0; i < CALLS / 10; i++) q26.eachChunk(incChunk); return CALLS / 10; } },
  });
  row('one call, 26 archetypes x 1 row: eachChunk / each (ns/call)', g26, 'chunk', 'each', '<= 1.0');

  // pos += vel over one archetype of 10,000.
  const wm = sim.createWorld({ capacity: 65536, churnPerFrameBudget: 0 });
  const P = wm.registerComponent('Position', { x: 'f32', y: 'f32' });
  const V = wm.registerComponent('Velocity', { x: 'f32', y: 'f32' });
  for (let i = 0; i < 10_000; i++) { const e = wm.create(); wm.add(e, P, { x: i, y: i }); wm.add(e, V, { x: 1, y: 0.5 }); }
  const movers = wm.query({ pos: P.write, vel: V.read });
  const move = (_e, { pos, vel }) => { pos.x += vel.x; pos.y += vel.y; };
  const moveChunk = (c) => {
    const px = c.field(P, 'x'), vx = c.field(V, 'x');
    const a = px.array, b = vx.array;
    let i = px.index, j = vx.index;
    const end = i + c.rows * px.stride;
    for (; i < end; i += 2, j += 2) { a[i] += b[j]; a[i + 1] += b[j + 1]; }
  };
  const MP = quick ? 30 : 150;
  let moveCols = null;
  movers.eachChunk((c) => { const p = c.field(P, 'x'), v = c.field(V, 'x'); moveCols = [p.array, p.index, v.index, c.rows * p.stride]; });
  const moveLoop = (a, b, i, j, n) => { const end = i + n; for (; i < end; i += 2, j += 2) { a[i] += b[j]; a[i + 1] += b[j + 1]; } };
  const gm = measureGroup({
    each: { fn: () => { for (let k = 0; k < MP; k++) movers.each(move); return 10_000 * MP; } },
    chunk: { fn: () => { for (let k = 0; k < MP; k++) movers.eachChunk(moveChunk); return 10_000 * MP; } },
    floor: { fn: () => { const [h, i, j, n] = moveCols; for (let k = 0; k < MP; k++) moveLoop(h, h, i, j, n); return 10_000 * MP; } },
  });
  row('pos += vel, 1 archetype x 10,000: eachChunk / each', gm, 'chunk', 'each', '<= 1.0');
  row('pos += vel: eachChunk / its loop on the columns, arrays as args', gm, 'chunk', 'floor', '');
  row('pos += vel: that loop, no ECS / each', gm, 'floor', 'each', '(floor)');

  // "simple iter": 4 archetypes x 1,000 ((A,B), (A,B,C), (A,B,C,D), (A,B,C,E)), four queries.
  const ws = sim.createWorld({ capacity: 65536, churnPerFrameBudget: 0 });
  const cs = ['A', 'B', 'C', 'D', 'E'].map((nm) => ws.registerComponent(nm, { v: 'f32' }));
  const [A, B, C, Dd, E] = cs;
  for (const set of [[0, 1], [0, 1, 2], [0, 1, 2, 3], [0, 1, 2, 4]]) {
    for (let i = 0; i < 1000; i++) { const e = ws.create(); for (const c of set) ws.add(e, cs[c], { v: i }); }
  }
  const qs = [ws.query({ a: A.write, b: B.write }), ws.query({ c: C.write, d: Dd.write }), ws.query({ c: C.write, e: E.write }), ws.query({ a: A.write })];
  const eachFns = [
    (_e, { a, b }) => { const t = a.v; a.v = b.v; b.v = t; },
    (_e, { c, d }) => { const t = c.v; c.v = d.v; d.v = t; },
    (_e, { c, e }) => { const t = c.v; c.v = e.v; e.v = t; },
    (_e, { a }) => { a.v += 1; if (a.v > 1e6) a.v = 0; },
  ];
  const swapCols = (x, y) => (c) => {
    const fx = c.field(x, 'v'), fy = c.field(y, 'v');
    const a = fx.array, b = fy.array;
    for (let i = fx.index, j = fy.index, end = i + c.rows; i < end; i++, j++) { const t = a[i]; a[i] = b[j]; b[j] = t; }
  };
  const chunkFns = [swapCols(A, B), swapCols(C, Dd), swapCols(C, E), (c) => {
    const f = c.field(A, 'v'); const a = f.array;
    for (let i = f.index, end = i + c.rows; i < end; i++) { a[i] += 1; if (a[i] > 1e6) a[i] = 0; }
  }];
  const SP = quick ? 100 : 500;
  const gs = measureGroup({
    each: { fn: () => { for (let k = 0; k < SP; k++) for (let j = 0; j < 4; j++) qs[j].each(eachFns[j]); return 4000 * SP; } },
    chunk: { fn: () => { for (let k = 0; k < SP; k++) for (let j = 0; j < 4; j++) qs[j].eachChunk(chunkFns[j]); return 4000 * SP; } },
  });
  row('simple iter, 4 queries x 4 archetypes x 1,000: eachChunk / each', gs, 'chunk', 'each', '<= 1.0');
  for (const x of [w, w1, wm, ws]) x.dispose();
}

// --- a deferred command against the direct call ------------------------------------
// Each variant keeps one world for all its rounds (the passes leave it as
// they found it): a fresh world per round would time the compilation of its
// queries' loops again in every round, on both sides.
{
  const N = 2000;
  const CY = quick ? 40 : 200;
  // "entity_cycle": 2,000 entities with A; per cycle every A entity spawns one
  // with B (create is legal inside an each), then every B entity is
  // destroyed: through world.commands inside the each, or collected in the
  // each and destroyed after it.
  const cycleWorld = () => {
    const w = sim.createWorld({ capacity: 8192, churnPerFrameBudget: 0 });
    const A = w.registerComponent('A', { v: 'f32' });
    const B = w.registerComponent('B', { v: 'f32' });
    for (let i = 0; i < N; i++) { const e = w.create(); w.add(e, A, { v: i }); }
    return { w, A, B, qa: w.query({ a: A.read }), qb: w.query({ b: B.read }) };
  };
  const bv = { v: 1 };
  const spawnIn = (ctx) => { const { w, B } = ctx; const spawn = () => { const e = w.create(); w.add(e, B, bv); }; return () => ctx.qa.each(spawn); };
  const cd = cycleWorld(), cc = cycleWorld();
  const spawnD = spawnIn(cd), spawnC = spawnIn(cc);
  const kill = (e) => { cd.w.commands.destroy(e); };
  const cEs = [];
  const collectC = (e) => { cEs.push(e); };
  const gc = measureGroup({
    deferred: { fn: () => { for (let k = 0; k < CY; k++) { spawnD(); cd.qb.each(kill); } return N * CY; } },
    direct: {
      fn: () => {
        for (let k = 0; k < CY; k++) {
          spawnC();
          cEs.length = 0;
          cc.qb.each(collectC);
          for (let i = 0; i < cEs.length; i++) cc.w.destroy(cEs[i]);
        }
        return N * CY;
      },
    },
  });
  row('entity_cycle 2,000: destroy via world.commands / collect + destroy (ns/entity)', gc, 'deferred', 'direct', '<= 1.5');
  cd.w.dispose();
  cc.w.dispose();

  // add / remove one component per entity: in an each through world.commands,
  // through world.defer over a kept list, against collect + direct calls and
  // direct calls over the list.
  const addWorld = () => {
    const w = sim.createWorld({ capacity: 8192, churnPerFrameBudget: 0 });
    const A = w.registerComponent('A', { v: 'f32' });
    const T = w.registerComponent('T', { v: 'f32' });
    const es = [];
    for (let i = 0; i < N; i++) { const e = w.create(); w.add(e, A, { v: i }); es.push(e); }
    return { w, A, T, es, qa: w.query({ a: A.read }) };
  };
  const tv = { v: 2 };
  const [wi, wd, wc, wl] = [addWorld(), addWorld(), addWorld(), addWorld()];
  const addI = (e) => { wi.w.commands.add(e, wi.T, tv); };
  const rmI = (e) => { wi.w.commands.remove(e, wi.T); };
  const addD = (c) => { for (let i = 0; i < wd.es.length; i++) c.add(wd.es[i], wd.T, tv); };
  const rmD = (c) => { for (let i = 0; i < wd.es.length; i++) c.remove(wd.es[i], wd.T); };
  const es = [];
  const collect = (e) => { es.push(e); };
  const ga = measureGroup({
    inEach: { fn: () => { for (let k = 0; k < CY; k++) { wi.qa.each(addI); wi.qa.each(rmI); } return 2 * N * CY; } },
    defer: { fn: () => { for (let k = 0; k < CY; k++) { wd.w.defer(addD); wd.w.defer(rmD); } return 2 * N * CY; } },
    direct: {
      fn: () => {
        for (let k = 0; k < CY; k++) {
          es.length = 0; wc.qa.each(collect);
          for (let i = 0; i < es.length; i++) wc.w.add(es[i], wc.T, tv);
          es.length = 0; wc.qa.each(collect);
          for (let i = 0; i < es.length; i++) wc.w.remove(es[i], wc.T);
        }
        return 2 * N * CY;
      },
    },
    directList: {
      fn: () => {
        for (let k = 0; k < CY; k++) {
          for (let i = 0; i < wl.es.length; i++) wl.w.add(wl.es[i], wl.T, tv);
          for (let i = 0; i < wl.es.length; i++) wl.w.remove(wl.es[i], wl.T);
        }
        return 2 * N * CY;
      },
    },
  });
  row('add+remove 2,000: world.commands in each / collect + direct (ns/cmd)', ga, 'inEach', 'direct', '<= 1.5');
  row('add+remove 2,000: world.commands in each / direct over a list', ga, 'inEach', 'directList', '');
  row('add+remove 2,000: world.defer over a list / direct over the list', ga, 'defer', 'directList', '<= 1.5');
  for (const x of [wi, wd, wc, wl]) x.w.dispose();
}

const pad = (s, k) => String(s).padEnd(k);
console.log(`@laige/sim ${sim.version}, node ${process.version}; median of ${REPS} rounds of CPU time, round-robin; ratio = median of per-round ratios`);
console.log(uptime());
console.log(pad('row', 80) + pad('a (ns)', 9) + pad('b (ns)', 9) + pad('a/b', 7) + pad('target', 8) + 'per-round a/b');
for (const r of rows) {
  console.log(pad(r.name, 80) + pad(r.a.toFixed(1), 9) + pad(r.b.toFixed(1), 9) + pad(r.ratio.toFixed(2), 7) + pad(r.target, 8) + r.ratios.map((x) => x.toFixed(2)).join(' '));
}
