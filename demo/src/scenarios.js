// scenarios.js - the reference scenarios written against the public
// @laige/sim API (components by schema, systems in TypeScript/JS, fx math,
// ctx.rng), bit-for-bit ports of cpp/scenarios. Their per-tick stateHash
// streams must equal the native goldens (tests/golden), which is what the
// demo checks live. Each entry: setup(sim, seed) -> { world, render(), ... }.
import { fx } from '@laige/sim';

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

function wrapInto(v, lo, size) {
  const hi = fx.add(lo, size);
  if (v >= hi) return fx.sub(v, size);
  if (v < lo) return fx.add(v, size);
  return v;
}

function readLe32(b, o) {
  return (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) | 0;
}

/** An 8-byte swarm attractor payload (int32 x, y, Q16.16 raw, little-endian). */
export function attractorPayload(xRaw, yRaw) {
  const b = new Uint8Array(8);
  const v = new DataView(b.buffer);
  v.setInt32(0, xRaw | 0, true);
  v.setInt32(4, yRaw | 0, true);
  return b;
}

// ---------------------------------------------------------------- hello
function hello(sim, seed) {
  const world = sim.createWorld({ capacity: 16, churnPerFrameBudget: 256, seed });
  const PlayerPos = world.registerComponent('PlayerPos', { p: ['fx', 2] });
  const box = fx.fromInt(32);
  world.registerSystem({
    name: 'MovePlayer', budgetMs: 1, io: [[PlayerPos, 'write']],
    run(ctx) {
      ctx.each([PlayerPos], ['write'], (_e, pp) => {
        pp.p[0] = wrapInto(fx.add(pp.p[0], fx.ONE), 0, box);
        pp.p[1] = wrapInto(fx.add(pp.p[1], fx.ONE), 0, box);
      });
    },
  });
  world.add(world.create(), PlayerPos, { p: [0, 0] });
  return {
    world, extent: { x0: 0, y0: 0, size: 32 },
    positions(out) {
      world.each([PlayerPos], ['read'], (e, pp) => out(e, fx.toDouble(pp.p[0]), fx.toDouble(pp.p[1]), 0));
    },
    perturbTarget: { component: PlayerPos, change: (v) => ({ p: [fx.add(v.p[0], fx.ONE), v.p[1]] }) },
  };
}

// ------------------------------------------------ synthetic (+ perturbed)
function synthetic(perturbed) {
  return (sim, seed) => {
    const world = sim.createWorld({ capacity: 32, churnPerFrameBudget: 256, seed });
    const Body = world.registerComponent('SynthBody', { x: 'fx', y: 'fx', vx: 'fx', vy: 'fx' });
    const box = fx.fromInt(64);
    world.registerSystem({
      name: 'SynthStep', budgetMs: 1, io: [[Body, 'write']],
      run(ctx) {
        const pick = ctx.rng.nextRange(0, 32);
        const nudge = ctx.rng.nextRange(0, 8) - 4;
        const perturb = perturbed && ctx.tick === 7;
        let index = 0;
        ctx.each([Body], ['write'], (_e, b) => {
          b.x = wrapInto(fx.add(b.x, b.vx), 0, box);
          b.y = wrapInto(fx.add(b.y, b.vy), 0, box);
          if (index === pick) b.x = fx.add(b.x, fx.fromInt(nudge));
          if (perturb && index === 3) b.x = fx.add(b.x, fx.ONE);
          index++;
        });
      },
    });
    const rng = new SetupPrng(seed);
    for (let i = 0; i < 32; i++) {
      const e = world.create();
      const x = rng.nextRange(0, 64 << 16);
      const y = rng.nextRange(0, 64 << 16);
      const vx = rng.nextRange(0, 2 << 16) - (1 << 16);
      const vy = rng.nextRange(0, 2 << 16) - (1 << 16);
      world.add(e, Body, { x, y, vx, vy });
    }
    return {
      world, extent: { x0: 0, y0: 0, size: 64 },
      positions(out) {
        world.each([Body], ['read'], (e, b) => out(e, fx.toDouble(b.x), fx.toDouble(b.y), 0));
      },
      perturbTarget: { component: Body, change: (v) => ({ ...v, x: fx.add(v.x, fx.ONE) }) },
    };
  };
}

// ---------------------------------------------------------------- swarm
const HALF = 64;
const SEEKER = 0, DRIFTER = 1, ANCHOR = 2;

/** The scenario's own input generator (cpp/scenarios/swarm.cpp `input`). */
export function swarmGeneratedInput(tick) {
  if (Math.floor(tick / 120) % 2 === 0) return undefined;
  const sweep = ((tick * 3) % 96) - 48;
  const lane = (Math.floor(tick / 240) % 3) * 32 - 32;
  return attractorPayload(sweep << 16, lane << 16);
}

function swarm(sim, seed) {
  const world = sim.createWorld({ capacity: 4096, churnPerFrameBudget: 256, seed });
  const Pos = world.registerComponent('SwarmPos', { x: 'fx', y: 'fx' });
  const Vel = world.registerComponent('SwarmVel', { x: 'fx', y: 'fx' });
  const Next = world.registerComponent('SwarmNext', { x: 'fx', y: 'fx' });
  const Steer = world.registerComponent('SwarmSteer', { maxSpeed: 'fx', gain: 'fx' });
  const Life = world.registerComponent('SwarmLife', { age: 'u32', lifetime: 'u32' });
  const Ctl = world.registerComponent('SwarmCtl', { spawned: 'u32', despawned: 'u32', population: 'u32', reserved: 'u32' });

  const jitterRaw = (rng, half) => rng.nextRange(0, 2 * half + 1) - half;
  const randomCoord = (rng) => rng.nextRange(0, (2 * HALF) << 16) - (HALF << 16);
  function spawn(rng, kind, fresh) {
    const e = world.create();
    const px = randomCoord(rng);
    const py = randomCoord(rng);
    const speed = kind === ANCHOR ? 6554 : rng.nextRange(16384, 65537);
    const vx = fx.mul(jitterRaw(rng, 65536), speed);
    const vy = fx.mul(jitterRaw(rng, 65536), speed);
    world.add(e, Pos, { x: px, y: py });
    world.add(e, Vel, { x: vx, y: vy });
    world.add(e, Next, { x: px, y: py });
    if (kind !== DRIFTER) {
      const gain = kind === ANCHOR ? 1311 : rng.nextRange(3277, 13108);
      world.add(e, Steer, { maxSpeed: speed, gain });
    }
    if (kind !== ANCHOR) {
      const lifetime = rng.nextRange(120, 601);
      const age = fresh ? 0 : rng.nextRange(0, lifetime);
      world.add(e, Life, { age, lifetime });
    }
  }

  const state = { input: swarmGeneratedInput, lastAttractor: null, lastPayload: undefined };
  const budgetMs = 2;
  world.registerSystem({
    name: 'SwarmChurn', budgetMs, io: [[Life, 'write'], [Ctl, 'write']],
    run(ctx) {
      const rng = ctx.rng;
      const expired = [];
      ctx.each([Life], ['write'], (e, life) => {
        life.age = life.age + 1;
        if (life.age >= life.lifetime && expired.length < 128) expired.push(e);
      });
      for (const e of expired) world.destroy(e);
      let spawned = 0;
      for (let i = 0; i < expired.length; i++) {
        const kind = rng.nextRange(0, 5) === 0 ? DRIFTER : SEEKER;
        spawn(rng, kind, true);
        spawned++;
      }
      const n = expired.length;
      ctx.each([Ctl], ['write'], (_e, c) => {
        c.spawned = c.spawned + spawned;
        c.despawned = c.despawned + n;
        c.population = c.population - n + spawned;
      });
    },
  });
  const quarter = 16384;
  const four = fx.fromInt(4);
  world.registerSystem({
    name: 'SwarmSteer', budgetMs, dependsOn: ['SwarmChurn'], io: [[Pos, 'read'], [Vel, 'write'], [Steer, 'read']],
    run(ctx) {
      const rng = ctx.rng;
      // The payload of this tick: the recorded one when the loop carries one,
      // else the demo's input source (the scenario's generator or the pointer).
      let input = ctx.input && ctx.input.length > 0 ? ctx.input : state.input(ctx.tick);
      state.lastPayload = input !== undefined && input.length > 0 ? input : undefined;
      const attract = input !== undefined && input.length === 8;
      const tx = attract ? readLe32(input, 0) : 0;
      const ty = attract ? readLe32(input, 4) : 0;
      state.lastAttractor = attract ? [fx.toDouble(tx), fx.toDouble(ty)] : null;
      ctx.each([Pos, Vel, Steer], ['read', 'write', 'read'], (_e, p, v, s) => {
        let vx = v.x;
        let vy = v.y;
        if (attract) {
          const dx = fx.mul(fx.sub(tx, p.x), quarter);
          const dy = fx.mul(fx.sub(ty, p.y), quarter);
          const [nx, ny] = fx.normalize(dx, dy);
          const desx = fx.mul(nx, s.maxSpeed);
          const desy = fx.mul(ny, s.maxSpeed);
          vx = fx.add(vx, fx.mul(fx.sub(desx, vx), s.gain));
          vy = fx.add(vy, fx.mul(fx.sub(desy, vy), s.gain));
        }
        vx = fx.add(vx, jitterRaw(rng, 1311));
        vy = fx.add(vy, jitterRaw(rng, 1311));
        const speed = fx.length(fx.mul(vx, four), fx.mul(vy, four));
        const limit = fx.mul(s.maxSpeed, four);
        if (speed > limit) {
          const f = fx.div(limit, speed);
          vx = fx.mul(vx, f);
          vy = fx.mul(vy, f);
        }
        v.x = vx;
        v.y = vy;
      });
    },
  });
  world.registerSystem({
    name: 'SwarmIntegrate', budgetMs, dependsOn: ['SwarmSteer'], io: [[Pos, 'read'], [Vel, 'read'], [Next, 'write']],
    run(ctx) {
      ctx.each([Pos, Vel, Next], ['read', 'read', 'write'], (_e, p, v, n) => {
        n.x = fx.add(p.x, v.x);
        n.y = fx.add(p.y, v.y);
      });
    },
  });
  const lo = fx.fromInt(-HALF);
  const size = fx.fromInt(2 * HALF);
  world.registerSystem({
    name: 'SwarmWrap', budgetMs, dependsOn: ['SwarmIntegrate'], io: [[Next, 'read'], [Pos, 'write']],
    run(ctx) {
      ctx.each([Next, Pos], ['read', 'write'], (_e, n, p) => {
        p.x = wrapInto(n.x, lo, size);
        p.y = wrapInto(n.y, lo, size);
      });
    },
  });

  const rng = new SetupPrng(seed);
  world.add(world.create(), Ctl, { spawned: 0, despawned: 0, population: 2400, reserved: 0 });
  for (let i = 0; i < 1800; i++) spawn(rng, SEEKER, false);
  for (let i = 0; i < 400; i++) spawn(rng, DRIFTER, false);
  for (let i = 0; i < 200; i++) spawn(rng, ANCHOR, false);

  return {
    world, state, extent: { x0: -HALF, y0: -HALF, size: 2 * HALF },
    /** Calls out(entity, x, y, kind) for every agent (kind 0 seeker, 1 drifter, 2 anchor). */
    positions(out) {
      // An archetype's kind from whether its first row is also in the Life /
      // Steer queries (one handle per chunk, no per-entity call).
      const withLife = new Set();
      const withSteer = new Set();
      world.eachChunk([Pos, Life], ['read', 'read'], (c) => { if (c.rows > 0) withLife.add(c.entity(0)); });
      world.eachChunk([Pos, Steer], ['read', 'read'], (c) => { if (c.rows > 0) withSteer.add(c.entity(0)); });
      world.eachChunk([Pos], ['read'], (chunk) => {
        const first = chunk.rows > 0 ? chunk.entity(0) : -1;
        const kind = !withLife.has(first) ? ANCHOR : !withSteer.has(first) ? DRIFTER : SEEKER;
        const cx = chunk.field(Pos, 'x');
        const cy = chunk.field(Pos, 'y');
        for (let r = 0; r < chunk.rows; r++) {
          out(chunk.entity(r), cx.array[cx.index + r * cx.stride] / 65536, cy.array[cy.index + r * cy.stride] / 65536, kind);
        }
      });
    },
    perturbTarget: { component: Vel, change: (v) => ({ x: fx.add(v.x, fx.ONE), y: v.y }) },
  };
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
    name: 'OrbRespawn', budgetMs: 2, dependsOn: ['OrbMove'], io: [[Age, 'read']],
    run(ctx) {
      if (ctx.tick % 8 !== 0) return;
      let oldest = null;
      let best = -1;
      ctx.each([Age], ['read'], (e, a) => { if (a.ticks > best) { best = a.ticks; oldest = e; } });
      world.destroy(oldest);
      place(ctx.rng, world.create());
    },
  });
  const rng = new SetupPrng(seed);
  for (let i = 0; i < 512; i++) place(rng, world.create());
  return {
    world, extent: { x0: -64, y0: -64, size: 128 },
    positions(out) {
      world.each([Pos, Age], ['read', 'read'], (e, p, a) => out(e, fx.toDouble(p.x), fx.toDouble(p.y), a.kind));
    },
    perturbTarget: { component: Vel, change: (v) => ({ x: fx.add(v.x, fx.ONE), y: v.y }) },
  };
}

/** Scenarios the demo runs live (TS systems over the wasm core), keyed by name. */
export const liveScenarios = {
  hello: { seed: 0x1f055eedn, build: hello },
  synthetic: { seed: 0x1de7c0den, build: synthetic(false) },
  'synthetic-perturbed': { seed: 0x1de7c0den, build: synthetic(true) },
  swarm: { seed: 0x5a4b3c2d1e0fn, build: swarm },
  'ts-orbits': { seed: 0x7510b175n, build: tsOrbits, tsOnly: true, tickRateHz: 60 },
};
