// ecs_bench.mjs - @laige/sim from TypeScript/JS versus bitecs 0.4.0, side by
// side in one Node process; prints ns per entity and ratios (ours / bitecs;
// < 1 is faster). Benchmarks assert nothing.
//   npm run build && node bench/js/ecs_bench.mjs [--quick] [--wall] [--processes K]
// --processes K (default 5): runs the whole bench in K node processes one
// after the other and prints, per row, the medians over the processes (V8's
// compilation choices, and so the figures of both sides, vary between
// processes more than between rounds of one process).
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as bitecs from 'bitecs';
import { loadLaige } from '../../dist/index.js';

const quick = process.argv.includes('--quick');
const child = process.argv.includes('--child');
const procArg = process.argv.indexOf('--processes');
const PROCESSES = procArg >= 0 ? Number(process.argv[procArg + 1]) : 5;
if (!child && PROCESSES > 1) {
  const loadStart = loadavg();
  const args = process.argv.slice(2).filter((a, i, all) => a !== '--processes' && all[i - 1] !== '--processes');
  const per = [];
  for (let p = 0; p < PROCESSES; p++) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...args, '--child'], { encoding: 'utf8', maxBuffer: 1 << 24 });
    if (r.status !== 0) { process.stderr.write(r.stderr); process.exit(r.status ?? 1); }
    per.push(JSON.parse(r.stdout.trim().split('\n').pop()));
  }
  const med = (xs) => { const v = [...xs].sort((a, b) => a - b); return v[v.length >> 1]; };
  const pad = (x, k) => String(x).padEnd(k);
  console.log(`@laige/sim vs bitecs 0.4.0 (node ${process.version}): medians over ${PROCESSES} processes, each the median of ${quick ? 5 : 9} rounds of CPU time;`);
  console.log('ns per entity unless said; grouped rows run round-robin in one process and their ratio is the median of the per-round ratios');
  console.log(`load average before ${loadStart.map((x) => x.toFixed(2)).join(' ')}, after ${loadavg().map((x) => x.toFixed(2)).join(' ')} (2 cores)`);
  console.log(pad('benchmark', 58) + pad('laige', 8) + pad('bitecs', 8) + pad('ratio', 8) + pad('ratio range', 14) + 'target');
  per[0].forEach((row, i) => {
    const rs = per.map((p) => p[i].ratio);
    console.log(pad(row.name, 58) + pad(med(per.map((p) => p[i].ours)).toFixed(1), 8) + pad(med(per.map((p) => p[i].theirs)).toFixed(1), 8)
      + pad(med(rs).toFixed(2) + 'x', 8) + pad(`${Math.min(...rs).toFixed(2)}-${Math.max(...rs).toFixed(2)}`, 14) + row.target);
  });
  console.log('C++ systems in wasm vs native: bash bench/wasm_vs_native.sh');
  process.exit(0);
}
const REPS = quick ? 5 : 9;
const sim = await loadLaige();

// The clock: this process's CPU time (process.cpuUsage, user + system) by
// default, so that time the scheduler gave to other processes on a busy
// machine is not counted (cache and core sharing still are); --wall: elapsed time.
const wall = process.argv.includes('--wall');
const clockMs = wall ? () => performance.now() : () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

/** The median over REPS runs of ns per unit of fn(ctx) (fn returns the units: entities, calls, reads). */
function measure(setup, fn, teardown) {
  return measureGroup({ only: { setup, fn, teardown } }).only;
}

/**
 * Round-robin side by side: every round runs each variant once (the order
 * rotating from round to round), so that a slow minute of this shared
 * machine falls on all variants alike. Returns, per variant, the median ns
 * per unit and the per-round times (for ratios taken round by round).
 * A variant: { setup?, fn(ctx) -> units, teardown? }.
 */
function measureGroup(variants) {
  const names = Object.keys(variants);
  const runs = Object.fromEntries(names.map((k) => [k, []]));
  for (let r = -2; r < REPS; r++) { // two warm-up rounds (JIT tier-up) are not counted
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
  const median = (xs) => { const v = [...xs].sort((a, b) => a - b); return v[v.length >> 1]; };
  const out = {};
  for (const k of names) out[k] = median(runs[k]);
  out.$runs = runs;
  out.$ratio = (a, b) => median(runs[a].map((x, i) => x / runs[b][i]));
  return out;
}
const loadBefore = loadavg();

const rows = [];
/** A row: ours and theirs (medians), the ratio (the median of the per-round ratios when `ratio` is given, else ours / theirs). */
function report(name, ours, theirs, target, ratio) {
  rows.push({ name, ours, theirs, ratio: ratio ?? ours / theirs, target });
}
/** A row of a measureGroup: variant `a` against variant `b`. */
function reportGroup(name, g, a, b, target) {
  report(name, g[a], g[b], target, g.$ratio(a, b));
}

// --- pos += vel ----------------------------------------------------------------
function laigeMoveWorld(n) {
  const w = sim.createWorld({ capacity: 65536, churnPerFrameBudget: 0 });
  const P = w.registerComponent('Position', { x: 'f32', y: 'f32' });
  const V = w.registerComponent('Velocity', { x: 'f32', y: 'f32' });
  for (let i = 0; i < n; i++) {
    const e = w.create();
    w.add(e, P, { x: i, y: i });
    w.add(e, V, { x: 1, y: 0.5 });
  }
  return { w, P, V };
}
function bitecsMoveWorld(n) {
  const world = bitecs.createWorld();
  const Position = { x: new Float32Array(65536), y: new Float32Array(65536) };
  const Velocity = { x: new Float32Array(65536), y: new Float32Array(65536) };
  for (let i = 0; i < n; i++) {
    const e = bitecs.addEntity(world);
    bitecs.addComponent(world, e, Position);
    bitecs.addComponent(world, e, Velocity);
    Position.x[e] = i; Position.y[e] = i;
    Velocity.x[e] = 1; Velocity.y[e] = 0.5;
  }
  return { world, Position, Velocity };
}
const PASSES = quick ? 20 : 100;

for (const n of [10_000, 65_000]) {
  const L = laigeMoveWorld(n);
  const B = bitecsMoveWorld(n);
  const moveB = () => {
    for (let k = 0; k < PASSES; k++) {
      const ents = bitecs.query(B.world, [B.Position, B.Velocity]);
      const px = B.Position.x, py = B.Position.y, vx = B.Velocity.x, vy = B.Velocity.y;
      for (let i = 0; i < ents.length; i++) {
        const e = ents[i];
        px[e] += vx[e];
        py[e] += vy[e];
      }
    }
    return n * PASSES;
  };
  const eachL = () => {
    for (let k = 0; k < PASSES; k++) {
      L.w.each([L.P, L.V], ['write', 'read'], (_e, p, v) => { p.x += v.x; p.y += v.y; });
    }
    return n * PASSES;
  };
  const chunkL = () => {
    for (let k = 0; k < PASSES; k++) {
      L.w.eachChunk([L.P, L.V], ['write', 'read'], (c) => {
        const px = c.field(L.P, 'x'), vx = c.field(L.V, 'x');
        const a = px.array, b = vx.array;
        let i = px.index, j = vx.index;
        const end = i + c.rows * px.stride;
        for (; i < end; i += 2, j += 2) {
          a[i] += b[j];
          a[i + 1] += b[j + 1];
        }
      });
    }
    return n * PASSES;
  };
  // Reference rows: the long-callback path of each (a callback over ~800
  // characters of source is not inlined by V8), and the floor: the same
  // interleaved loop as the eachChunk callbacks (its text, two arrays `a`
  // and `b`, element indices i and j) over two plain Float32Arrays outside
  // any ECS, which bounds what a column view can reach. (Until 2026-12-01
  // the floor was a loop over ONE array, `a[i] += a[j]`: V8 compiles that
  // with one typed-array check per element instead of two, so it was not
  // the same loop.)
  const longFn = new Function('return (_e, p, v) => { ' + '/* a long callback body */ '.repeat(40) + 'p.x += v.x; p.y += v.y; }')();
  const eachLongL = () => {
    for (let k = 0; k < PASSES; k++) L.w.each([L.P, L.V], ['write', 'read'], longFn);
    return n * PASSES;
  };
  const plainPos = new Float32Array(2 * n), plainVel = new Float32Array(2 * n).fill(1);
  const floorJs = () => {
    for (let k = 0; k < PASSES; k++) {
      const a = plainPos, b = plainVel;
      let i = 0, j = 0;
      const end = i + n * 2;
      for (; i < end; i += 2, j += 2) {
        a[i] += b[j];
        a[i + 1] += b[j + 1];
      }
    }
    return n * PASSES;
  };
  // The same loop again, over the module's heap at the columns' own
  // addresses, from a plain function (no ECS, no call per chunk): the walk
  // and the Chunk cost nothing next to it.
  const movers = L.w.query({ pos: L.P.write, vel: L.V.read });
  let heapArr = null, heapPos = 0, heapVel = 0;
  movers.eachChunk((c) => { const px = c.field(L.P, 'x'), vx = c.field(L.V, 'x'); heapArr = px.array; heapPos = px.index; heapVel = vx.index; });
  const heapLoop = (a, b, i, j, end) => { for (; i < end; i += 2, j += 2) { a[i] += b[j]; a[i + 1] += b[j + 1]; } };
  const heapFloor = () => {
    for (let k = 0; k < PASSES; k++) heapLoop(heapArr, heapArr, heapPos, heapVel, heapPos + 2 * n);
    return n * PASSES;
  };
  // And the floor's own two fresh arrays through that function: the loop
  // with its arrays and indices as values known at run time only (as any
  // column view is), where the floor's are constants of its code.
  const argArrays = [plainPos, plainVel, 0, 2 * n];
  const argFloor = () => {
    for (let k = 0; k < PASSES; k++) heapLoop(argArrays[0], argArrays[1], argArrays[2], argArrays[2], argArrays[3]);
    return n * PASSES;
  };
  const none = () => null;
  const moveFn = (_e, { pos, vel }) => { pos.x += vel.x; pos.y += vel.y; };
  const queryL = () => {
    for (let k = 0; k < PASSES; k++) movers.each(moveFn);
    return n * PASSES;
  };
  const queryChunkL = () => {
    for (let k = 0; k < PASSES; k++) {
      movers.eachChunk((c) => {
        const px = c.field(L.P, 'x'), vx = c.field(L.V, 'x');
        const a = px.array, b = vx.array;
        let i = px.index, j = vx.index;
        const end = i + c.rows * px.stride;
        for (; i < end; i += 2, j += 2) {
          a[i] += b[j];
          a[i + 1] += b[j + 1];
        }
      });
    }
    return n * PASSES;
  };
  const g = measureGroup({
    bitecs: { fn: moveB }, query: { fn: queryL }, queryChunk: { fn: queryChunkL }, each: { fn: eachL },
    eachLong: { fn: eachLongL }, chunk: { fn: chunkL }, floor: { fn: floorJs }, heapFloor: { fn: heapFloor }, argFloor: { fn: argFloor },
  });
  reportGroup(`pos += vel, N=${n}: query.each`, g, 'query', 'bitecs', '<= 0.7');
  reportGroup(`pos += vel, N=${n}: query.eachChunk`, g, 'queryChunk', 'bitecs', '');
  reportGroup(`pos += vel, N=${n}: query.eachChunk / the floor below`, g, 'queryChunk', 'floor', '<= 1.1 (vs floor)');
  reportGroup(`pos += vel, N=${n}: eachChunk / that loop on its columns`, g, 'queryChunk', 'heapFloor', '');
  reportGroup(`pos += vel, N=${n}: eachChunk / floor loop, arrays as args`, g, 'queryChunk', 'argFloor', '');
  reportGroup(`pos += vel, N=${n}: floor loop, arrays as args / floor`, g, 'argFloor', 'floor', '');
  reportGroup(`pos += vel, N=${n}: World.each (per-entity callback)`, g, 'each', 'bitecs', '');
  reportGroup(`pos += vel, N=${n}: each, long callback (not inlined)`, g, 'eachLong', 'bitecs', '');
  reportGroup(`pos += vel, N=${n}: World.eachChunk (column views)`, g, 'chunk', 'bitecs', '');
  reportGroup(`pos += vel, N=${n}: plain Float32Array loop, no ECS`, g, 'floor', 'bitecs', '(floor)');
  L.w.dispose();
  bitecs.deleteWorld(B.world);
}

// --- per-call fixed cost, fragmented and simple iteration, field reads -----------
{
  // One query.each call over 1 matched archetype of 1 entity, and over 26
  // matched archetypes of 1 entity each: the fixed cost and its per-archetype part.
  const CALLS = quick ? 100_000 : 400_000;
  const w = sim.createWorld({ capacity: 65536, churnPerFrameBudget: 0 });
  const D = w.registerComponent('Data', { v: 'f32' });
  const tags = Array.from({ length: 26 }, (_, i) => w.registerComponent(`L${i}`, { t: 'u8', p0: 'u8', p1: 'u8', p2: 'u8' }));
  const one = w.create();
  w.add(one, D, { v: 1 });
  const q1 = w.query({ d: D.write }, { without: tags });
  const fn = (_e, { d }) => { d.v += 0; };
  const ewFn = (_e, d) => { d.v += 0; };
  const perCall = (f) => measure(() => null, () => { for (let i = 0; i < CALLS; i++) f(); return CALLS; });
  const B = bitecs.createWorld();
  const BD = { v: new Float32Array(65536) };
  const be = bitecs.addEntity(B);
  bitecs.addComponent(B, be, BD);
  const bOne = () => { const es = bitecs.query(B, [BD]); for (let i = 0; i < es.length; i++) BD.v[es[i]] += 0; };
  const tb1 = perCall(bOne);
  report('one each call, 1 archetype x 1 entity: query.each (ns/call)', perCall(() => q1.each(fn)), tb1, '<= 100 ns');
  report('one each call, 1 archetype x 1 entity: World.each (ns/call)', perCall(() => w.each([D], ['write'], ewFn)), tb1, '');
  const q26 = w.query({ d: D.write });
  w.destroy(one);
  for (const t of tags) { const e = w.create(); w.add(e, D, { v: 1 }); w.add(e, t, { t: 0, p0: 0, p1: 0, p2: 0 }); }
  report('one each call, 26 archetypes x 1 entity: query.each (ns/call)', perCall(() => q26.each(fn)), tb1, '<= 620 ns');

  // "frag": 26 archetypes x 100 entities, double one field.
  const wf = sim.createWorld({ capacity: 65536, churnPerFrameBudget: 0 });
  const FD = wf.registerComponent('Data', { v: 'f32' });
  const ftags = Array.from({ length: 26 }, (_, i) => wf.registerComponent(`L${i}`, { t: 'f32' }));
  const Bf = bitecs.createWorld();
  const BfD = { v: new Float32Array(65536) };
  const bftags = Array.from({ length: 26 }, () => ({ t: new Float32Array(65536) }));
  for (let k = 0; k < 26; k++) {
    for (let i = 0; i < 100; i++) {
      const e = wf.create(); wf.add(e, FD, { v: 1 }); wf.add(e, ftags[k], { t: 0 });
      const b = bitecs.addEntity(Bf); bitecs.addComponent(Bf, b, BfD); bitecs.addComponent(Bf, b, bftags[k]); BfD.v[b] = 1;
    }
  }
  const fq = wf.query({ d: FD.write });
  const dbl = (_e, { d }) => { d.v *= 2; if (d.v > 1e30) d.v = 1; };
  const FP = quick ? 200 : 1000;
  const fragL = () => { for (let k = 0; k < FP; k++) fq.each(dbl); return 2600 * FP; };
  const fragB = () => {
    for (let k = 0; k < FP; k++) {
      const es = bitecs.query(Bf, [BfD]); const v = BfD.v;
      for (let i = 0; i < es.length; i++) { const e = es[i]; v[e] *= 2; if (v[e] > 1e30) v[e] = 1; }
    }
    return 2600 * FP;
  };
  // The floor: the same doubling over 26 dense Float32Array columns of 100
  // (one per archetype), no ECS, no checks.
  const fragCols = Array.from({ length: 26 }, () => new Float32Array(100).fill(1));
  const fragFloor = () => {
    for (let k = 0; k < FP; k++) {
      for (let c = 0; c < 26; c++) { const v = fragCols[c]; for (let i = 0; i < 100; i++) { v[i] *= 2; if (v[i] > 1e30) v[i] = 1; } }
    }
    return 2600 * FP;
  };
  const fragDbl = (c) => { const f = c.field(FD, 'v'); const a = f.array; for (let i = f.index, end = i + c.rows; i < end; i++) { a[i] *= 2; if (a[i] > 1e30) a[i] = 1; } };
  const fragChunk = () => { for (let k = 0; k < FP; k++) fq.eachChunk(fragDbl); return 2600 * FP; };
  const gf = measureGroup({ bitecs: { fn: fragB }, each: { fn: fragL }, chunk: { fn: fragChunk }, floor: { fn: fragFloor } });
  reportGroup('frag: 26 archetypes x 100, double one field', gf, 'each', 'bitecs', '<= 0.8');
  reportGroup('frag: the same with query.eachChunk', gf, 'chunk', 'bitecs', '<= 0.8');
  reportGroup('frag: the same over 26 plain Float32Arrays, no ECS', gf, 'floor', 'bitecs', '(floor)');

  // "simple iter": 4 archetypes of 1,000 ((A,B), (A,B,C), (A,B,C,D), (A,B,C,E)), four queries, one pass each.
  const ws = sim.createWorld({ capacity: 65536, churnPerFrameBudget: 0 });
  const [A, Bc, C, Dc, E] = ['A', 'B', 'C', 'D', 'E'].map((nm) => ws.registerComponent(nm, { v: 'f32' }));
  const Bs = bitecs.createWorld();
  const [bA, bB, bC, bD, bE] = [0, 1, 2, 3, 4].map(() => ({ v: new Float32Array(65536) }));
  const sets = [[0, 1], [0, 1, 2], [0, 1, 2, 3], [0, 1, 2, 4]];
  for (const set of sets) {
    for (let i = 0; i < 1000; i++) {
      const e = ws.create(); for (const c of set) ws.add(e, [A, Bc, C, Dc, E][c], { v: i });
      const b = bitecs.addEntity(Bs); for (const c of set) { const bc = [bA, bB, bC, bD, bE][c]; bitecs.addComponent(Bs, b, bc); bc.v[b] = i; }
    }
  }
  const qs = [ws.query({ a: A.write, b: Bc.write }), ws.query({ c: C.write, d: Dc.write }), ws.query({ c: C.write, e: E.write }), ws.query({ a: A.write })];
  const swapAB = (_e, { a, b }) => { const t = a.v; a.v = b.v; b.v = t; };
  const swapCD = (_e, { c, d }) => { const t = c.v; c.v = d.v; d.v = t; };
  const swapCE = (_e, { c, e }) => { const t = c.v; c.v = e.v; e.v = t; };
  const incA = (_e, { a }) => { a.v += 1; if (a.v > 1e6) a.v = 0; };
  const SP = quick ? 100 : 500;
  const iterL = () => {
    for (let k = 0; k < SP; k++) { qs[0].each(swapAB); qs[1].each(swapCD); qs[2].each(swapCE); qs[3].each(incA); }
    return 4000 * SP;
  };
  const swapB = (es, x, y) => { const a = x.v, b = y.v; for (let i = 0; i < es.length; i++) { const e = es[i]; const t = a[e]; a[e] = b[e]; b[e] = t; } };
  const iterB = () => {
    for (let k = 0; k < SP; k++) {
      swapB(bitecs.query(Bs, [bA, bB]), bA, bB); swapB(bitecs.query(Bs, [bC, bD]), bC, bD); swapB(bitecs.query(Bs, [bC, bE]), bC, bE);
      const es = bitecs.query(Bs, [bA]); const a = bA.v; for (let i = 0; i < es.length; i++) { const e = es[i]; a[e] += 1; if (a[e] > 1e6) a[e] = 0; }
    }
    return 4000 * SP;
  };
  // The floor: the same passes over dense Float32Array columns per archetype, no ECS, no checks.
  const iterCols = sets.map((set) => Object.fromEntries(set.map((c) => [c, new Float32Array(1000).map((_, i) => i)])));
  const swapF = (x, y) => { for (let i = 0; i < 1000; i++) { const t = x[i]; x[i] = y[i]; y[i] = t; } };
  const iterFloor = () => {
    for (let k = 0; k < SP; k++) {
      for (const t of iterCols) if (t[0] && t[1]) swapF(t[0], t[1]);
      for (const t of iterCols) if (t[2] && t[3]) swapF(t[2], t[3]);
      for (const t of iterCols) if (t[2] && t[4]) swapF(t[2], t[4]);
      for (const t of iterCols) { const a = t[0]; for (let i = 0; i < 1000; i++) { a[i] += 1; if (a[i] > 1e6) a[i] = 0; } }
    }
    return 4000 * SP;
  };
  // The same passes through eachChunk: one column loop per archetype.
  const swapCols = (x, y) => (c) => {
    const fx = c.field(x, 'v'), fy = c.field(y, 'v');
    const a = fx.array, b = fy.array;
    for (let i = fx.index, j = fy.index, end = i + c.rows; i < end; i++, j++) { const t = a[i]; a[i] = b[j]; b[j] = t; }
  };
  const chunkFns = [swapCols(A, Bc), swapCols(C, Dc), swapCols(C, E), (c) => {
    const f = c.field(A, 'v'); const a = f.array;
    for (let i = f.index, end = i + c.rows; i < end; i++) { a[i] += 1; if (a[i] > 1e6) a[i] = 0; }
  }];
  const iterChunk = () => {
    for (let k = 0; k < SP; k++) for (let q = 0; q < 4; q++) qs[q].eachChunk(chunkFns[q]);
    return 4000 * SP;
  };
  const gi = measureGroup({ bitecs: { fn: iterB }, each: { fn: iterL }, chunk: { fn: iterChunk }, floor: { fn: iterFloor } });
  reportGroup('simple iter: 4 queries over 4 archetypes x 1,000', gi, 'each', 'bitecs', '<= 1.0');
  reportGroup('simple iter: the same with query.eachChunk', gi, 'chunk', 'bitecs', '<= 1.0');
  reportGroup('simple iter: the same over plain Float32Arrays, no ECS', gi, 'floor', 'bitecs', '(floor)');

  // One field read per entity: a handle (no object built) and World.get (an object).
  const N = 10_000;
  const L = laigeMoveWorld(N);
  const es = [];
  L.w.each([L.P], ['read'], (e) => es.push(e));
  const Bm = bitecsMoveWorld(N);
  const bes = Array.from(bitecs.query(Bm.world, [Bm.Position]));
  const RP = quick ? 50 : 200;
  const px = L.P.field.x;
  let sink = 0;
  const readHandle = (() => { let s = 0; for (let k = 0; k < RP; k++) for (let i = 0; i < N; i++) s += px.get(es[i]); sink += s; return N * RP; });
  const readGet = (() => { let s = 0; for (let k = 0; k < RP; k++) for (let i = 0; i < N; i++) s += L.w.get(es[i], L.P).x; sink += s; return N * RP; });
  const readB = (() => { let s = 0; const x = Bm.Position.x; for (let k = 0; k < RP; k++) for (let i = 0; i < N; i++) s += x[bes[i]]; sink += s; return N * RP; });
  // The floor of a generation-checked read: the same lookups a handle makes
  // (generation, archetype, row, the column's base, the value), over plain
  // typed arrays outside any ECS; bitecs' read is one typed-array load.
  const fGen = new Uint16Array(65536), fArch = new Uint16Array(65536), fRow = new Uint32Array(65536);
  const fPlace = new Uint32Array(257), fBase = new Uint32Array(4), fData = new Float32Array(2 * N + 8);
  for (let i = 0; i < N; i++) { const e = es[i], s = e >>> 16; fGen[s] = e & 0xffff; fArch[s] = 1; fRow[s] = i; fData[2 * i] = i; }
  fPlace[1] = 1; fBase[1] = 0;
  const readFloor = (() => {
    let s = 0;
    for (let k = 0; k < RP; k++) {
      for (let i = 0; i < N; i++) {
        const e = es[i], slot = e >>> 16;
        if (fGen[slot] === (e & 0xffff)) s += fData[(fBase[fPlace[fArch[slot]]] + fRow[slot] * 8) >> 2];
      }
    }
    sink += s; return N * RP;
  });
  // The same lookups with the tables as values read at run time (fields of
  // one object, as a handle's tables are: they are replaced when memory
  // grows), where the floor's are constants of its code.
  const ft = { gen: fGen, arch: fArch, row: fRow, place: fPlace, base: fBase, data: fData };
  const readFloorObj = (() => {
    let s = 0;
    for (let k = 0; k < RP; k++) {
      for (let i = 0; i < N; i++) {
        const e = es[i], slot = e >>> 16;
        if (ft.gen[slot] === (e & 0xffff)) s += ft.data[(ft.base[ft.place[ft.arch[slot]]] + ft.row[slot] * 8) >> 2];
      }
    }
    sink += s; return N * RP;
  });
  const gr = measureGroup({ bitecs: { fn: readB }, handle: { fn: readHandle }, get: { fn: readGet }, floor: { fn: readFloor }, floorObj: { fn: readFloorObj } });
  reportGroup('read one field: Position.field.x.get(e)', gr, 'handle', 'bitecs', '<= 2.0');
  reportGroup('read one field: generation-checked lookup, plain arrays', gr, 'floor', 'bitecs', '(floor)');
  reportGroup('read one field: that lookup, tables read at run time', gr, 'floorObj', 'bitecs', '');
  reportGroup('read one field: World.get(e, Position).x', gr, 'get', 'bitecs', '<= 6.0');
  if (sink === 42) console.log('');
  for (const x of [w, wf, ws, L.w]) x.dispose();
}

// --- create + add 2 / destroy / add-remove ---------------------------------------
for (const n of [10_000, 65_000]) {
  const createL = () => {
    const w = sim.createWorld({ capacity: 65536, churnPerFrameBudget: 0 });
    const P = w.registerComponent('Position', { x: 'f32', y: 'f32' });
    const V = w.registerComponent('Velocity', { x: 'f32', y: 'f32' });
    return { w, P, V };
  };
  const createB = () => ({ world: bitecs.createWorld(), Position: { x: new Float32Array(65536), y: new Float32Array(65536) }, Velocity: { x: new Float32Array(65536), y: new Float32Array(65536) } });
  const pv = { x: 1, y: 2 };
  const tCreateL = measure(createL, ({ w, P, V }) => {
    for (let i = 0; i < n; i++) {
      const e = w.create();
      w.add(e, P, pv);
      w.add(e, V, pv);
    }
    return n;
  }, ({ w }) => w.dispose());
  const tCreateB = measure(createB, ({ world, Position, Velocity }) => {
    for (let i = 0; i < n; i++) {
      const e = bitecs.addEntity(world);
      bitecs.addComponent(world, e, Position);
      Position.x[e] = 1; Position.y[e] = 2;
      bitecs.addComponent(world, e, Velocity);
      Velocity.x[e] = 1; Velocity.y[e] = 2;
    }
    return n;
  }, ({ world }) => bitecs.deleteWorld(world));
  report(`create + add 2, N=${n}`, tCreateL, tCreateB, '<= 0.5');

  const filledL = () => { const L = laigeMoveWorld(n); const es = []; L.w.each([L.P], ['read'], (e) => es.push(e)); return { ...L, es }; };
  const filledB = () => { const B = bitecsMoveWorld(n); return { ...B, es: Array.from(bitecs.query(B.world, [B.Position])) }; };
  report(`destroy, N=${n}`,
    measure(filledL, ({ w, es }) => { for (let i = 0; i < es.length; i++) w.destroy(es[i]); return es.length; }, ({ w }) => w.dispose()),
    measure(filledB, ({ world, es }) => { for (let i = 0; i < es.length; i++) bitecs.removeEntity(world, es[i]); return es.length; }, ({ world }) => bitecs.deleteWorld(world)),
    '<= 0.5');
  report(`remove + add 1 component, N=${n}`,
    measure(filledL, ({ w, V, es }) => { for (let i = 0; i < es.length; i++) { w.remove(es[i], V); w.add(es[i], V, pv); } return es.length; }, ({ w }) => w.dispose()),
    measure(filledB, ({ world, Velocity, es }) => {
      for (let i = 0; i < es.length; i++) {
        bitecs.removeComponent(world, es[i], Velocity);
        bitecs.addComponent(world, es[i], Velocity);
        Velocity.x[es[i]] = 1; Velocity.y[es[i]] = 2;
      }
      return es.length;
    }, ({ world }) => bitecs.deleteWorld(world)),
    '<= 0.5');
}

// The same C++ passes natively and in wasm: bench/wasm_vs_native.sh (it runs
// build/native-release/laige_pass_timing and build/wasm/laige_pass_timing.js).

if (child) {
  console.log(JSON.stringify(rows));
  process.exit(0);
}
const pad = (s, k) => String(s).padEnd(k);
console.log(`@laige/sim ${sim.version} vs bitecs 0.4.0 (node ${process.version}; median of ${REPS} rounds of ${wall ? 'elapsed' : 'CPU'} time; ns per entity unless said;\n ratios: grouped rows run round-robin in one process, ratio = median of the per-round ratios)`);
console.log(`load average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${loadavg().map((x) => x.toFixed(2)).join(' ')} (2 cores)`);
console.log(pad('benchmark', 56) + pad('laige', 10) + pad('bitecs', 10) + pad('ratio', 8) + 'target');
for (const r of rows) {
  console.log(pad(r.name, 56) + pad(r.ours.toFixed(1), 10) + pad(r.theirs.toFixed(1), 10) + pad(r.ratio.toFixed(2) + 'x', 8) + r.target);
}
console.log('C++ systems in wasm vs native: bash bench/wasm_vs_native.sh');
