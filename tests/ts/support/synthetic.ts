// The `synthetic` and `hello` scenarios written in
// TypeScript: components by schema, systems in TS, fx math and ctx.rng. Their
// hash streams must equal the C++ scenarios' (tests/golden), which proves
// that a JS schema lays out and hashes like the C++ struct, and that TS
// systems share the registry, the PRNG substreams and the state hash.
import { fx, type Laige, type World } from '../../../dist/index.js';

const M64 = (1n << 64n) - 1n;
const K = 0x9e3779b97f4a7c15n;
function mix(z: bigint): bigint {
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}

/** laige::Prng (xorshift128+ seeded by splitmix64) in BigInt, for setup draws. */
export class RefPrng {
  #s0: bigint;
  #s1: bigint;
  constructor(seed: bigint) {
    const z = (seed + K) & M64;
    this.#s0 = mix(z);
    this.#s1 = mix((z + K) & M64);
  }
  nextU64(): bigint {
    const a = this.#s0;
    const b = this.#s1;
    this.#s0 = b;
    const t = (a ^ (a << 23n)) & M64;
    this.#s1 = t ^ b ^ (t >> 18n) ^ (b >> 5n);
    return (this.#s1 + b) & M64;
  }
  /** next_range(min, max): modulo with rejection, as the C++. */
  nextRange(min: number, max: number): number {
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

function wrapInto(v: number, lo: number, size: number): number {
  const hi = fx.add(lo, size);
  if (v >= hi) return fx.sub(v, size);
  if (v < lo) return fx.add(v, size);
  return v;
}

/**
 * A one-bit fault for the TS `synthetic`: SynthStep flips `bit` of body
 * `body`'s `field` (its raw Q16.16 integer) at `tick`, on every run of that
 * tick (a re-simulation or a desync pin included), as a nondeterministic
 * system would.
 */
export interface SynthFault { tick: number; body: number; field: 'x' | 'y' | 'vx' | 'vy'; bit: number }

/** The TS `synthetic` scenario (with `fault`, one bit flipped once); returns its world. */
export function syntheticWorld(sim: Laige, seed = 0x1de7c0den, fault: SynthFault | null = null): World {
  const world = sim.createWorld({ capacity: 32, seed });
  const Body = world.registerComponent('SynthBody', { x: 'fx', y: 'fx', vx: 'fx', vy: 'fx' });
  const box = fx.fromInt(64);
  world.registerSystem({
    name: 'SynthStep', budgetMs: 1, io: [[Body, 'write']],
    run(ctx) {
      const pick = ctx.rng!.nextRange(0, 32);
      const nudge = ctx.rng!.nextRange(0, 8) - 4;
      let index = 0;
      ctx.each([Body], ['write'], (_e, b) => {
        b.x = wrapInto(fx.add(b.x, b.vx), 0, box);
        b.y = wrapInto(fx.add(b.y, b.vy), 0, box);
        if (index === pick) b.x = fx.add(b.x, fx.fromInt(nudge));
        if (fault !== null && Number(ctx.tick) === fault.tick && index === fault.body) b[fault.field] ^= 1 << fault.bit;
        index++;
      });
    },
  });
  const rng = new RefPrng(seed);
  for (let i = 0; i < 32; i++) {
    const e = world.create();
    const x = rng.nextRange(0, 64 << 16);
    const y = rng.nextRange(0, 64 << 16);
    const vx = rng.nextRange(0, 2 << 16) - (1 << 16);
    const vy = rng.nextRange(0, 2 << 16) - (1 << 16);
    world.add(e, Body, { x, y, vx, vy });
  }
  return world;
}

/** The TS `hello` scenario. */
export function helloWorld(sim: Laige, seed = 0x1f055eedn): World {
  const world = sim.createWorld({ capacity: 16, seed });
  const PlayerPos = world.registerComponent('PlayerPos', { p: ['fx', 2] });
  const box = fx.fromInt(32);
  world.registerSystem({
    name: 'MovePlayer', budgetMs: 1, io: [[PlayerPos, 'write']],
    run(ctx) {
      ctx.each([PlayerPos], ['write'], (_e, pp) => {
        pp.p[0] = wrapInto(fx.add(pp.p[0]!, fx.one()), 0, box);
        pp.p[1] = wrapInto(fx.add(pp.p[1]!, fx.one()), 0, box);
      });
    },
  });
  world.add(world.create(), PlayerPos, { p: [0, 0] });
  return world;
}

/** Runs `world` for `ticks` ticks (beginFrame + runSystems, as ScenarioRun::step) and returns the stream. */
export function stream(world: World, ticks: number, input?: (tick: number) => Uint8Array | undefined): string {
  let text = `0 ${world.stateHash(0).toString(16).padStart(16, '0')}\n`;
  for (let t = 1; t <= ticks; t++) {
    world.beginFrame();
    world.runSystems(input?.(t));
    text += `${t} ${world.stateHash(t).toString(16).padStart(16, '0')}\n`;
  }
  return text;
}
