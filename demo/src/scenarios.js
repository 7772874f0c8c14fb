// scenarios.js - the scenario whose systems are all written in TypeScript
// against the public @laige/sim API (components by schema, systems, fx
// math, ctx.rng): ts-orbits. Its per-tick stateHash stream is checked live
// against the stream Node computed during the build (demo/ts-golden.mjs).
// The core's scenarios (swarm, stress, float, input, ...) are not ported
// here any more: the page steps the C++ ones themselves (native.js,
// sim.openScenario). Each entry: build(sim, seed) -> { world, positions(), ... },
// `fault` among them: the SystemFault (system_fault.js) one of its systems
// applies, which the netplay view arms on one peer.
import { fx } from '@laige/sim';
import { RenderFeed } from './sprites.js';
import { SystemFault } from './system_fault.js';

const M64 = (1n << 64n) - 1n;
const K = 0x9e3779b97f4a7c15n;
function mix(z) {
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}

/** laige::Prng(seed) (the master stream setup draws from), in BigInt. */
export class SetupPrng {
  constructor(seed) {
    const z = (seed + K) & M64;
    this.s0 = mix(z);
    this.s1 = mix((z + K) & M64);
  }
  nextU64() {
    const a = this.s0;
    const b = this.s1;
    this.s0 = b;
    const t = (a ^ (a << 23n)) & M64;
    this.s1 = t ^ b ^ (t >> 18n) ^ (b >> 5n);
    return (this.s1 + b) & M64;
  }
  /** next_range(min, max), max exclusive: modulo with rejection, as the C++. */
  nextRange(min, max) {
    const n = BigInt(max - min);
    const rem = ((M64 % n) + 1n) % n;
    let r = this.nextU64();
    if (rem !== 0n) {
      const limit = ((1n << 64n) - rem) & M64;
      while (r >= limit) r = this.nextU64();
    }
    return min + Number(r % n);
  }
}

/** An 8-byte swarm attractor payload (int32 x, y, Q16.16 raw, little-endian). */
export function attractorPayload(xRaw, yRaw) {
  const b = new Uint8Array(8);
  const v = new DataView(b.buffer);
  v.setInt32(0, xRaw | 0, true);
  v.setInt32(4, yRaw | 0, true);
  return b;
}

// ---------------------------------------------------- ts-orbits (TS only)
// A scenario that exists only in TypeScript: 512 bodies pulled toward the
// centre (Q16.16), a PRNG kick per tick, a respawn every 8 ticks. Its golden
// is the stream Node computes during the build (demo/ts-golden.mjs): wasm in
// the browser against wasm in Node.
function tsOrbits(sim, seed) {
  const world = sim.createWorld({ capacity: 1024, churnPerFrameBudget: 256, seed });
  const Pos = world.registerComponent('OrbPos', { x: 'fx', y: 'fx' });
  const Vel = world.registerComponent('OrbVel', { x: 'fx', y: 'fx' });
  const Age = world.registerComponent('OrbAge', { ticks: 'u32', mass: 'u16', kind: 'u16' });
  const R = fx.fromInt(60);
  const g = 655; // 0.01
  function place(rng, e) {
    const x = rng.nextRange(0, 80 << 16) - (40 << 16);
    const y = rng.nextRange(0, 80 << 16) - (40 << 16);
    // A tangential start velocity: (-y, x) scaled.
    const k = rng.nextRange(1300, 2600);
    world.add(e, Pos, { x, y });
    world.add(e, Vel, { x: fx.mul(-y, k), y: fx.mul(x, k) });
    world.add(e, Age, { ticks: 0, mass: rng.nextRange(1, 9), kind: rng.nextRange(0, 3) });
  }
  // The netplay view's one-bit divergence (system_fault.js): OrbVel.x after OrbGravity's own writes.
  const fault = new SystemFault('OrbGravity', Vel, 'x');
  world.registerSystem({
    name: 'OrbGravity', budgetMs: 2, io: [[Pos, 'read'], [Vel, 'write'], [Age, 'read']],
    run(ctx) {
      const kick = ctx.rng.nextRange(0, 512);
      const kx = ctx.rng.nextRange(0, 2001) - 1000;
      let i = 0;
      ctx.each([Pos, Vel, Age], ['read', 'write', 'read'], (_e, p, v, a) => {
        const [nx, ny] = fx.normalize(fx.mul(p.x, 16384), fx.mul(p.y, 16384));
        const s = fx.mul(g, fx.fromInt(a.mass));
        v.x = fx.sub(v.x, fx.mul(nx, s));
        v.y = fx.sub(v.y, fx.mul(ny, s));
        if (i === kick) v.x = fx.add(v.x, kx * 16);
        // Bounce off the walls Move clamped the body to last tick.
        if ((p.x >= R && v.x > 0) || (p.x <= -R && v.x < 0)) v.x = fx.negate(v.x);
        if ((p.y >= R && v.y > 0) || (p.y <= -R && v.y < 0)) v.y = fx.negate(v.y);
        i++;
      });
      fault.apply(ctx);
    },
  });
  world.registerSystem({
    name: 'OrbMove', budgetMs: 2, dependsOn: ['OrbGravity'], io: [[Pos, 'write'], [Vel, 'read'], [Age, 'write']],
    run(ctx) {
      ctx.each([Pos, Vel, Age], ['write', 'read', 'write'], (_e, p, v, a) => {
        p.x = fx.clamp(fx.add(p.x, v.x), -R, R);
        p.y = fx.clamp(fx.add(p.y, v.y), -R, R);
        a.ticks = a.ticks + 1;
      });
    },
  });
  world.registerSystem({
    // It destroys and spawns bodies: every component it adds or destroys is declared.
    name: 'OrbRespawn', budgetMs: 2, dependsOn: ['OrbMove'], io: [[Age, 'read'], [Pos, 'read'], [Vel, 'read']],
    run(ctx) {
      if (ctx.tick % 8 !== 0) return;
      let oldest = null;
      let best = -1;
      ctx.each([Age], ['read'], (e, a) => { if (a.ticks > best) { best = a.ticks; oldest = e; } });
      world.destroy(oldest);
      place(ctx.rng, world.create());
    },
  });
  // The render feed: the last system of a tick hands the renderer what the
  // tick changed (docs/changes.md#render-sync). It only reads, and it runs
  // in Node's golden run too (the feed is off there), so the change state it
  // keeps (its "since", the removed log) is the same in both hash streams.
  const feed = new RenderFeed();
  world.registerSystem({
    name: 'OrbRenderFeed', budgetMs: 1, dependsOn: ['OrbRespawn'], io: [[Pos, 'read'], [Age, 'read']],
    queries: { moved: { p: Pos.read, a: Age.read, changed: [Pos] } },
    run(ctx) {
      // Changed since this system last ran (added counts as changed), then what lost Pos (destroyed).
      ctx.queries.moved.each((e, { p, a }) => feed.moved(e, fx.toDouble(p.x), fx.toDouble(p.y), a.kind));
      ctx.removed(Pos, (e) => feed.removed(e));
    },
  });
  const rng = new SetupPrng(seed);
  for (let i = 0; i < 512; i++) place(rng, world.create());
  return {
    world, extent: { x0: -64, y0: -64, size: 128 },
    positions(out) {
      world.each([Pos, Age], ['read', 'read'], (e, p, a) => out(e, fx.toDouble(p.x), fx.toDouble(p.y), a.kind));
    },
    feed,
    perturbTarget: { component: Vel, change: (v) => ({ x: fx.add(v.x, fx.ONE), y: v.y }) },
    fault,
  };
}

// -------------------------------------------- ts-hierarchy (TS systems)
// The core's `hierarchy` scenario (cpp/scenarios/hierarchy_scenario.cpp,
// docs/scenarios.md#hierarchy) written again as TypeScript systems against
// the public API: the same components, the HChildOf relation registered by
// name, one system HOrbits drawing from ctx.rng in the same order, fx math,
// a parents-first walk (world.eachCascade). Its stream is the native golden
// of `hierarchy` itself (tests/golden/hierarchy.txt), tick for tick.
const TWO_PI = 411775; // round(2 pi 65536)
const H_RADIUS = [40, 12, 3];
const H_SPEED_RAW = [300, 1500, 5000];

function tsHierarchy(sim, seed) {
  const world = sim.createWorld({ capacity: 128, churnPerFrameBudget: 256, seed });
  const HLocal = world.registerComponent('HLocal', { angle: 'fx', radius: 'fx', speed: 'fx' });
  const HPos = world.registerComponent('HPos', { x: 'fx', y: 'fx' });
  const HLevel = world.registerComponent('HLevel', { level: 'u32' });
  const HChildOf = world.registerRelation('HChildOf', { onTargetDestroyed: 'destroy' });
  const jitterRaw = (rng, half) => rng.nextRange(0, 2 * half + 1) - half;
  // The three draws of the C++ randomOrbit, in its order: angle, radius jitter, speed.
  function spawn(rng, level, parent) {
    const e = world.create();
    const angle = rng.nextRange(0, TWO_PI);
    const radius = fx.add(fx.fromInt(H_RADIUS[level]), jitterRaw(rng, (2 << 16) >> level));
    const speed = H_SPEED_RAW[level] + rng.nextRange(0, 400);
    world.add(e, HLocal, { angle, radius, speed });
    world.add(e, HPos, { x: 0, y: 0 });
    world.add(e, HLevel, { level });
    if (level > 0) world.add(e, HChildOf(parent));
    return e;
  }
  const orbitX = (px, l) => fx.add(px, fx.mul(l.radius, fx.cos(l.angle)));
  const orbitY = (py, l) => fx.add(py, fx.mul(l.radius, fx.sin(l.angle)));
  function bodiesOf(ctx, level) {
    const out = [];
    ctx.each([HLevel], ['read'], (e, k) => { if (k.level === level) out.push(e); });
    return out;
  }
  function churn(ctx) {
    if (ctx.tick % 20 !== 0) return;
    const planets = bodiesOf(ctx, 1);
    if (ctx.tick % 40 === 0) {
      // A planet goes (its moons with it) and a new one comes, under a picked sun.
      const gone = ctx.rng.nextRange(0, planets.length);
      const sun = ctx.rng.nextRange(0, 3);
      const moons = ctx.rng.nextRange(1, 4);
      if (planets.length > 0) world.destroy(planets[gone]);
      const suns = bodiesOf(ctx, 0);
      if (suns.length === 0) return;
      const planet = spawn(ctx.rng, 1, suns[sun % suns.length]);
      for (let m = 0; m < moons; m++) spawn(ctx.rng, 2, planet);
      return;
    }
    // A moon moves to another planet.
    const moonList = bodiesOf(ctx, 2);
    const moon = ctx.rng.nextRange(0, moonList.length > 0 ? moonList.length : 1);
    const to = ctx.rng.nextRange(0, planets.length > 0 ? planets.length : 1);
    if (moonList.length > 0 && planets.length > 0) world.add(moonList[moon], HChildOf(planets[to]));
  }
  const [posX, posY] = [HPos.field.x, HPos.field.y];
  // The netplay view's one-bit divergence (system_fault.js): HLocal.angle after HOrbits' own writes.
  const fault = new SystemFault('HOrbits', HLocal, 'angle');
  world.registerSystem({
    name: 'HOrbits', budgetMs: 1,
    io: [[HLocal, 'write'], [HPos, 'write'], [HLevel, 'read'], [HChildOf, 'write']],
    run(ctx) {
      churn(ctx);
      ctx.each([HLocal], ['write'], (_e, l) => {
        const a = fx.add(l.angle, l.speed);
        l.angle = a >= TWO_PI ? fx.sub(a, TWO_PI) : a;
      });
      ctx.each([HLocal, HLevel, HPos], ['read', 'read', 'write'], (_e, l, k, p) => {
        if (k.level === 0) { p.x = orbitX(0, l); p.y = orbitY(0, l); }
      });
      // Parents first: a planet reads its sun's position of this tick, a moon its planet's.
      world.eachCascade(HChildOf, (s, parent) => {
        const l = world.get(s, HLocal);
        if (!world.has(parent, HPos) || l === undefined || !world.has(s, HPos)) return;
        posX.set(s, orbitX(posX.get(parent), l));
        posY.set(s, orbitY(posY.get(parent), l));
      });
      fault.apply(ctx);
    },
  });
  const rng = new SetupPrng(seed);
  for (let s = 0; s < 3; s++) {
    const sun = spawn(rng, 0, 0);
    for (let p = 0; p < 4; p++) {
      const planet = spawn(rng, 1, sun);
      for (let m = 0; m < 3; m++) spawn(rng, 2, planet);
    }
  }
  return {
    world, extent: { x0: -64, y0: -64, size: 128 },
    positions(out) {
      world.each([HPos, HLevel], ['read', 'read'], (e, p, k) => out(e, fx.toDouble(p.x), fx.toDouble(p.y), k.level));
    },
    perturbTarget: { component: HLocal, change: (l) => ({ angle: l.angle ^ 1, radius: l.radius, speed: l.speed }) },
    fault,
  };
}

/** The TypeScript scenarios the demo runs live (TS systems over the wasm core), keyed by name. */
export const liveScenarios = {
  'ts-orbits': { seed: 0x7510b175n, build: tsOrbits, tsOnly: true, tickRateHz: 60 },
  // Its golden is the core scenario's own (written natively): TS systems checked against native.
  'ts-hierarchy': { seed: 0x41e7a7c4n, build: tsHierarchy, tsOnly: true, tickRateHz: 60, golden: 'hierarchy' },
};
