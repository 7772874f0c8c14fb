// handle_reads_bench.mjs - the calls that take an entity handle, at 10,000
// and at 65,000 entities, beside bitecs 0.4.0 in one Node process, rounds
// alternating (docs/benchmarks.md#handle-reads-past-32768-ids). At 65,000
// half the handles are >= 2^31 (id >= 32,768): not a small integer for V8.
// Benchmarks assert nothing.
//   npm run build && node bench/js/handle_reads_bench.mjs [--quick] [--processes K] [--dist DIR]
// Every size runs in processes of its own (K of them, default 5; the table
// gives the median over them and the best): closures made at one place of the source
// share V8's feedback, so a size measured after another one in the same
// process reads through code no longer specialised to one world. The
// section "65,000 after 10,000" measures exactly that on purpose, and
// "ids < 32,768 / >= 32,768" compares the two halves of the 65,000 handles
// through the same compiled code.
// --dist DIR: the built package to measure (default dist/ of this checkout;
// a copy of another build's dist/ with its wasm/ next to it works too).
import { loadavg } from 'node:os';
import { execSync, spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import * as bitecs from 'bitecs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : dflt; };
const quick = argv.includes('--quick');
const PROCESSES = Number(opt('--processes', quick ? 1 : 5));
const distDir = resolve(opt('--dist', fileURLToPath(new URL('../../dist', import.meta.url))));
const uptime = () => { try { return execSync('uptime', { encoding: 'utf8' }).trim(); } catch { return `load average ${loadavg().map((x) => x.toFixed(2)).join(', ')}`; } };

// --- parent: one child per (configuration, process) ---------------------------
if (!argv.includes('--child')) {
  const configs = [['10,000', ['--n', '10000']], ['65,000', ['--n', '65000']], ['65,000 after 10,000 (one process)', ['--n', '65000', '--after', '10000']]];
  const up0 = uptime();
  const pad = (x, k) => String(x).padEnd(k);
  const med = (xs) => { const v = [...xs].sort((a, b) => a - b); return v[v.length >> 1]; };
  console.log(`handle-taking calls, @laige/sim (${distDir}) vs bitecs 0.4.0, node ${process.version}; ${PROCESSES} process(es) per size,`);
  console.log(`each ${quick ? 5 : 9} rounds (variants alternating) of CPU time. ns per call: the median over processes of each process's`);
  console.log('median round (in brackets: the best round of all processes); ratio laige / bitecs: the median over processes of the');
  console.log('median per-round ratio (in brackets: best laige round / best bitecs round)');
  console.log(`before: ${up0}`);
  for (const [title, args] of configs) {
    const per = [];
    for (let p = 0; p < PROCESSES; p++) {
      const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...argv.filter((a, i) => a !== '--processes' && argv[i - 1] !== '--processes'), ...args, '--child'],
        { encoding: 'utf8', maxBuffer: 1 << 24 });
      if (r.status !== 0) { process.stderr.write(r.stderr); process.exit(r.status ?? 1); }
      per.push(JSON.parse(r.stdout.trim().split('\n').pop()));
    }
    console.log(`\n${title} entities`);
    console.log(pad('call', 44) + pad('laige ns', 16) + pad('bitecs ns', 16) + 'ratio');
    per[0].forEach((row, i) => {
      const m = (k) => med(per.map((p) => p[i][k]));
      const best = (k) => Math.min(...per.map((p) => p[i][k]));
      console.log(pad(row.name, 44) + pad(`${m('ours').toFixed(2)} (${best('oursBest').toFixed(2)})`, 16) + pad(`${m('theirs').toFixed(2)} (${best('theirsBest').toFixed(2)})`, 16)
        + `${m('ratio').toFixed(2)}x (${(best('oursBest') / best('theirsBest')).toFixed(2)}x) vs ${row.vs}`);
    });
  }
  console.log(`\nafter: ${uptime()}`);
  process.exit(0);
}

// --- child: one world size ------------------------------------------------------
const { loadLaige } = await import(pathToFileURL(`${distDir}/index.js`).href);
const sim = await loadLaige();
const REPS = quick ? 5 : 9;
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const median = (xs) => { const v = [...xs].sort((a, b) => a - b); return v[v.length >> 1]; };
let sink = 0;

/** Round-robin: every round runs each variant once (order rotating); returns per-variant per-round ns per unit. */
function measureGroup(variants) {
  const names = Object.keys(variants);
  const runs = Object.fromEntries(names.map((k) => [k, []]));
  for (let r = -2; r < REPS; r++) { // two warm-up rounds are not counted
    for (let j = 0; j < names.length; j++) {
      const k = names[(j + Math.max(r, 0)) % names.length];
      const t0 = cpuMs();
      const n = variants[k]();
      const dt = cpuMs() - t0;
      if (r >= 0) runs[k].push((dt * 1e6) / n);
    }
  }
  return runs;
}

function measureSize(n) {
  const w = sim.createWorld({ capacity: 65536, churnPerFrameBudget: 0 });
  const P = w.registerComponent('Position', { x: 'f32', y: 'f32' });
  const V = w.registerComponent('Velocity', { x: 'f32', y: 'f32' });
  const T = w.registerComponent('Tag', { v: 'u8' });
  for (let i = 0; i < n; i++) {
    const e = w.create();
    w.add(e, P, { x: i, y: i });
    w.add(e, V, { x: 1, y: 0.5 });
  }
  const es = [];
  w.each([P], ['read'], (e) => es.push(e)); // as a user holds them: a plain array
  const bw = bitecs.createWorld();
  const Pos = { x: new Float32Array(65536), y: new Float32Array(65536) };
  const Vel = { x: new Float32Array(65536), y: new Float32Array(65536) };
  const Tag = {};
  for (let i = 0; i < n; i++) {
    const e = bitecs.addEntity(bw);
    bitecs.addComponent(bw, e, Pos);
    bitecs.addComponent(bw, e, Vel);
    Pos.x[e] = i; Pos.y[e] = i; Vel.x[e] = 1; Vel.y[e] = 0.5;
  }
  const bes = Array.from(bitecs.query(bw, [Pos]));
  const px = P.field.x;
  const RP = Math.max(1, Math.round((quick ? 5e5 : 2e6) / n)); // ~2 million reads a round
  const RW = Math.max(1, Math.round((quick ? 1e5 : 4e5) / n)); // ~400,000 calls a round for the calls into wasm
  const rows = [];
  const row = (name, runs, a, b, vs) => {
    const ratios = runs[a].map((x, i) => x / runs[b][i]);
    rows.push({ name, ours: median(runs[a]), oursBest: Math.min(...runs[a]), theirs: median(runs[b]), theirsBest: Math.min(...runs[b]),
      ratio: median(ratios), vs });
  };

  // The floor of a generation-checked read: the lookups a field handle makes
  // (generation, archetype, row, the column's base, the value) over plain
  // typed arrays outside any ECS, as constants of the loop's code.
  const fGen = new Uint16Array(65536), fArch = new Uint16Array(65536), fRow = new Uint32Array(65536);
  const fPlace = new Uint32Array(257), fBase = new Uint32Array(4), fData = new Float32Array(2 * n + 8);
  for (let i = 0; i < n; i++) { const e = es[i], slot = e >>> 16; fGen[slot] = e & 0xffff; fArch[slot] = 1; fRow[slot] = i; fData[2 * i] = i; }
  fPlace[1] = 1;
  // Reads that make no wasm call: beside bitecs' Position.x[eid].
  const g = measureGroup({
    floor: () => {
      let s = 0;
      for (let k = 0; k < RP; k++) {
        for (let i = 0; i < n; i++) {
          const e = es[i], slot = e >>> 16;
          if (fGen[slot] === (e & 0xffff)) s += fData[(fBase[fPlace[fArch[slot]]] + fRow[slot] * 8) >> 2];
        }
      }
      sink += s; return n * RP;
    },
    bitecs: () => { let s = 0; const x = Pos.x; for (let k = 0; k < RP; k++) for (let i = 0; i < n; i++) s += x[bes[i]]; sink += s; return n * RP; },
    handle: () => { let s = 0; for (let k = 0; k < RP; k++) for (let i = 0; i < n; i++) s += px.get(es[i]); sink += s; return n * RP; },
    get: () => { let s = 0; for (let k = 0; k < RP; k++) for (let i = 0; i < n; i++) s += w.get(es[i], P).x; sink += s; return n * RP; },
  });
  row('Position.field.x.get(e)', g, 'handle', 'bitecs', 'Position.x[eid]');
  row('world.get(e, Position).x', g, 'get', 'bitecs', 'Position.x[eid]');
  row('floor: that lookup over plain arrays', g, 'floor', 'bitecs', 'Position.x[eid]');

  // Calls into wasm (one each): beside bitecs' own calls of the same meaning.
  const c = measureGroup({
    has: () => { let s = 0; for (let k = 0; k < RW; k++) for (let i = 0; i < n; i++) s += w.has(es[i], P) ? 1 : 0; sink += s; return n * RW; },
    bHas: () => { let s = 0; for (let k = 0; k < RW; k++) for (let i = 0; i < n; i++) s += bitecs.hasComponent(bw, bes[i], Pos) ? 1 : 0; sink += s; return n * RW; },
    valid: () => { let s = 0; for (let k = 0; k < RW; k++) for (let i = 0; i < n; i++) s += w.isValid(es[i]) ? 1 : 0; sink += s; return n * RW; },
    bExists: () => { let s = 0; for (let k = 0; k < RW; k++) for (let i = 0; i < n; i++) s += bitecs.entityExists(bw, bes[i]) ? 1 : 0; sink += s; return n * RW; },
    set: () => { for (let k = 0; k < RW; k++) for (let i = 0; i < n; i++) px.set(es[i], k); return n * RW; },
    bSet: () => { const x = Pos.x; for (let k = 0; k < RW; k++) for (let i = 0; i < n; i++) x[bes[i]] = k; return n * RW; },
    addRemove: () => { for (let i = 0; i < n; i++) { w.add(es[i], T, { v: 1 }); w.remove(es[i], T); } return n; },
    bAddRemove: () => { for (let i = 0; i < n; i++) { bitecs.addComponent(bw, bes[i], Tag); bitecs.removeComponent(bw, bes[i], Tag); } return n; },
  });
  row('world.has(e, Position)', c, 'has', 'bHas', 'hasComponent');
  row('world.isValid(e)', c, 'valid', 'bExists', 'entityExists');
  row('Position.field.x.set(e, v)', c, 'set', 'bSet', 'Position.x[eid] = v');
  row('world.add(e, Tag) + world.remove(e, Tag)', c, 'addRemove', 'bAddRemove', 'addComponent + removeComponent');

  // The same compiled code over the first 10,000 handles (ids < 32,768,
  // small integers) and the last 10,000 (ids >= 32,768, handles >= 2^31).
  if (n >= 65000) {
    const lo = es.slice(0, 10000), hi = es.slice(n - 10000);
    const readAll = (list) => { let s = 0; for (let k = 0; k < RP; k++) for (let i = 0; i < list.length; i++) s += px.get(list[i]); sink += s; return list.length * RP; };
    const getAll = (list) => { let s = 0; for (let k = 0; k < RP; k++) for (let i = 0; i < list.length; i++) s += w.get(list[i], P).x; sink += s; return list.length * RP; };
    const hasAll = (list) => { let s = 0; for (let k = 0; k < RW; k++) for (let i = 0; i < list.length; i++) s += w.has(list[i], P) ? 1 : 0; sink += s; return list.length * RW; };
    const setAll = (list) => { for (let k = 0; k < RW; k++) for (let i = 0; i < list.length; i++) px.set(list[i], k); return list.length * RW; };
    const h = measureGroup({
      readHi: () => readAll(hi), readLo: () => readAll(lo), getHi: () => getAll(hi), getLo: () => getAll(lo),
      hasHi: () => hasAll(hi), hasLo: () => hasAll(lo), setHi: () => setAll(hi), setLo: () => setAll(lo),
    });
    const half = (name, a, b) => row(name, h, a, b, 'the same call, ids < 32,768');
    half('field get, ids >= 32,768', 'readHi', 'readLo');
    half('world.get, ids >= 32,768', 'getHi', 'getLo');
    half('world.has, ids >= 32,768', 'hasHi', 'hasLo');
    half('field set, ids >= 32,768', 'setHi', 'setLo');

    // The rest of the calls that take a handle, the same two halves:
    // targetOf (each entity related to the one next to it), commands (add
    // and remove of a tag recorded and applied), destroy + create (the slot
    // comes back one generation up; last, since it strips the components).
    const ChildOf = w.registerRelation('ChildOf', { onTargetDestroyed: 'remove' });
    for (const list of [lo, hi]) for (let i = 1; i < list.length; i++) w.add(list[i], ChildOf(list[i - 1]));
    const targetAll = (list) => { let s = 0; for (let k = 0; k < RW; k++) for (let i = 0; i < list.length; i++) s += w.targetOf(list[i], ChildOf) ?? 0; sink += s; return list.length * RW; };
    const commandAll = (list) => { w.defer((c) => { for (let i = 0; i < list.length; i++) { c.add(list[i], T, { v: 2 }); c.remove(list[i], T); } }); return list.length; };
    const h2 = measureGroup({ targetHi: () => targetAll(hi), targetLo: () => targetAll(lo), cmdHi: () => commandAll(hi), cmdLo: () => commandAll(lo) });
    row('world.targetOf, ids >= 32,768', h2, 'targetHi', 'targetLo', 'the same call, ids < 32,768');
    row('commands add + remove, ids >= 32,768', h2, 'cmdHi', 'cmdLo', 'the same call, ids < 32,768');
    const churn = (list) => { for (let i = 0; i < list.length; i++) { w.destroy(list[i]); list[i] = w.create(); } return list.length; };
    const h3 = measureGroup({ churnHi: () => churn(hi), churnLo: () => churn(lo) });
    row('destroy + create, ids >= 32,768', h3, 'churnHi', 'churnLo', 'the same call, ids < 32,768');
  }
  w.dispose();
  bitecs.deleteWorld(bw);
  return rows;
}

const after = opt('--after', null);
if (after !== null) measureSize(Number(after)); // the earlier size, in this process: its figures are dropped
const rows = measureSize(Number(opt('--n', '10000')));
if (sink === 42) console.log('');
console.log(JSON.stringify(rows));
