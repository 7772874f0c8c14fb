// crossings.mjs - counts the JS<->wasm crossings of a TypeScript system's
// query per tick: every call from JS into the module's exported functions and
// every call from wasm into the module's JS hooks is counted while a world
// runs ticks of (a) a system that runs nothing and (b) the same system
// running one Query.each (and one eachChunk, one count()); the difference
// over the tick count is the crossings per system query per tick.
// Prints one JSON line, then checks the expectations (exit 1 when one
// fails): at most 2 crossings per system per tick for each and eachChunk
// (begin, end), 1 for count(), and none more when a new archetype appears
// every tick (the core's query cache tests it inside the begin call).
//   npm run build:ts && node bench/js/crossings.mjs
import { loadLaige } from '../../dist/index.js';

const sim = await loadLaige();
const raw = sim.raw;
let calls = 0;
const byName = new Map();
// JS -> wasm: the module's exported functions (raw); wasm -> JS: the hooks
// the core calls on the emscripten Module (laigeRunSystem, laigeClockNs, ...).
const hooks = sim.mem.module;
for (const k of Object.keys(hooks)) {
  const f = hooks[k];
  if (typeof f !== 'function' || !k.startsWith('laige')) continue;
  hooks[k] = function (...args) {
    calls++;
    byName.set(`hook:${k}`, (byName.get(`hook:${k}`) ?? 0) + 1);
    return f.apply(this, args);
  };
}
for (const k of Object.keys(raw)) {
  const f = raw[k];
  if (typeof f !== 'function' || k.startsWith('HEAP') || k === 'getValue' || k === 'setValue') continue;
  if (/^[A-Z]/.test(k)) continue; // classes
  raw[k] = function (...args) {
    calls++;
    byName.set(k, (byName.get(k) ?? 0) + 1);
    return f.apply(this, args);
  };
}

// kind: what the system's run does with its query; churn: each tick adds an
// entity in a new archetype the query matches (the query's archetype list grows).
function perTick(kind, churn = false) {
  const world = sim.createWorld({ capacity: 1000 });
  const P = world.registerComponent('P', { x: 'f32', y: 'f32' });
  const V = world.registerComponent('V', { x: 'f32', y: 'f32' });
  const T = Array.from({ length: 100 }, (_, i) => world.registerComponent(`T${i}`, { v: 'u8' }));
  let tags = 0;
  for (let i = 0; i < 100; i++) { const e = world.create(); world.add(e, P, { x: i, y: 0 }); world.add(e, V, { x: 1, y: 1 }); }
  for (let i = 0; i < 10; i++) { const e = world.create(); world.add(e, P, { x: i, y: 0 }); }
  world.registerSystem({
    name: 'S', budgetMs: 100,
    queries: { q: { p: P.write, v: V.read } },
    io: T.map((c) => [c, 'write']),
    run(ctx) {
      const q = ctx.queries.q;
      if (churn) { const e = ctx.world.create(); ctx.world.add(e, P, { x: 0, y: 0 }); ctx.world.add(e, V, { x: 0, y: 0 }); ctx.world.add(e, T[tags++ % T.length], { v: 1 }); }
      if (kind === 'each') q.each((e, { p, v }) => { p.x += v.x; });
      else if (kind === 'eachEntity') q.each((e, { p, v }) => { p.x += v.x + (e === 0 ? 1 : 0); }); // takes the entity: the handles too
      else if (kind === 'eachChunk') q.eachChunk((c) => { c.count; });
      else if (kind === 'count') q.count();
    },
  });
  world.scheduleSystems();
  for (let t = 0; t < 20; t++) world.runSystems(); // warm up
  const TICKS = 100;
  calls = 0;
  byName.clear();
  for (let t = 0; t < TICKS; t++) world.runSystems();
  const n = calls / TICKS;
  const names = Object.fromEntries([...byName].map(([k, v]) => [k, v / TICKS]));
  world.dispose();
  return { n, names };
}

const out = {};
for (const churn of [false, true]) {
  const none = perTick('none', churn);
  const tag = churn ? 'newArchetypeEveryTick' : 'steady';
  out[tag] = { systemTickWithoutQuery: none.n, calls: none.names };
  for (const kind of ['each', 'eachEntity', 'eachChunk', 'count']) {
    const r = perTick(kind, churn);
    out[tag][kind] = r.n - none.n;
    out[tag][`${kind}Calls`] = Object.fromEntries(Object.entries(r.names).map(([k, v]) => [k, v - (none.names[k] ?? 0)]).filter(([, v]) => v !== 0));
  }
}
console.log(JSON.stringify(out));

const EXPECTED = { each: 2, eachEntity: 2, eachChunk: 2, count: 1 };
let failed = 0;
for (const tag of ['steady', 'newArchetypeEveryTick']) {
  for (const [kind, max] of Object.entries(EXPECTED)) {
    if (out[tag][kind] > max) {
      console.error(`crossings: ${tag} ${kind}: ${out[tag][kind]} per system per tick, expected at most ${max}`);
      failed++;
    }
  }
}
if (failed > 0) process.exit(1);
