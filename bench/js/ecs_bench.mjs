// ecs_bench.mjs - @laige/sim from TypeScript/JS versus bitecs 0.4.0, side by
// side in one Node process; prints ns per entity and ratios (ours / bitecs;
// < 1 is faster). Benchmarks assert nothing.
//   npm run build && node bench/js/ecs_bench.mjs [--quick]
import { performance } from 'node:perf_hooks';
import * as bitecs from 'bitecs';
import { loadLaige } from '../../dist/index.js';

const quick = process.argv.includes('--quick');
const REPS = quick ? 3 : 9;
const sim = await loadLaige();

/** Best-of-REPS ns per entity of fn(n) (fn returns the entities processed). */
function measure(setup, fn, teardown) {
  let best = Infinity;
  for (let r = -2; r < REPS; r++) { // two warm-up rounds (JIT tier-up) are not counted
    const ctx = setup();
    const t0 = performance.now();
    const n = fn(ctx);
    const dt = performance.now() - t0;
    teardown?.(ctx);
    if (r >= 0) best = Math.min(best, (dt * 1e6) / n);
  }
  return best;
}

const rows = [];
function report(name, ours, theirs, target) {
  rows.push({ name, ours, theirs, ratio: ours / theirs, target });
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
  // characters of source is not inlined by V8), and the same interleaved
  // loop as chunkL over a plain Float32Array outside any ECS: the floor of
  // any JS loop on this machine, which bounds what a column view can reach.
  const longFn = new Function('return (_e, p, v) => { ' + '/* a long callback body */ '.repeat(40) + 'p.x += v.x; p.y += v.y; }')();
  const eachLongL = () => {
    for (let k = 0; k < PASSES; k++) L.w.each([L.P, L.V], ['write', 'read'], longFn);
    return n * PASSES;
  };
  const plain = new Float32Array(4 * n);
  const floorJs = () => {
    for (let k = 0; k < PASSES; k++) {
      const a = plain;
      for (let i = 0, j = 2 * n, end = 2 * n; i < end; i += 2, j += 2) {
        a[i] += a[j];
        a[i + 1] += a[j + 1];
      }
    }
    return n * PASSES;
  };
  const none = () => null;
  const tB = measure(none, moveB);
  report(`pos += vel, N=${n}: each (per-entity callback)`, measure(none, eachL), tB, '<= 1.0');
  report(`pos += vel, N=${n}: each, long callback (not inlined)`, measure(none, eachLongL), tB, '');
  report(`pos += vel, N=${n}: eachChunk (column views)`, measure(none, chunkL), tB, '<= 0.5');
  report(`pos += vel, N=${n}: plain Float32Array loop, no ECS`, measure(none, floorJs), tB, '(floor)');
  L.w.dispose();
  bitecs.deleteWorld(B.world);
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

const pad = (s, k) => String(s).padEnd(k);
console.log(`@laige/sim ${sim.version} vs bitecs 0.4.0 (node ${process.version}; best of ${REPS}; ns per entity)`);
console.log(pad('benchmark', 56) + pad('laige', 10) + pad('bitecs', 10) + pad('ratio', 8) + 'target');
for (const r of rows) {
  console.log(pad(r.name, 56) + pad(r.ours.toFixed(1), 10) + pad(r.theirs.toFixed(1), 10) + pad(r.ratio.toFixed(2) + 'x', 8) + r.target);
}
console.log('C++ systems in wasm vs native: bash bench/wasm_vs_native.sh');
