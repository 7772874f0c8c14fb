// What the rollback tests share (the TypeScript twin of
// tests/cpp/support/rollback_net.h): the `input` scenario's player input
// generator (the C++ one itself, cpp/scenarios/player_input.h, called
// through the wasm module: so the native golden stream applies and
// laige-peer's rollback mode gives the same local inputs), and a simulated
// network on a seeded PRNG: per-message latency 0..maxLatency ticks
// (jitter, hence reordering), duplicates, and the messages due in one tick
// delivered shuffled.
import { expect } from 'vitest';
import type { RollbackSession, World } from '../../../dist/index.js';
import { sim } from './sim.js';
// @ts-expect-error - a plain ES module of the demo, no types
import { prng as demoPrng } from '../../../demo/src/netplay_net.js';

/** The "lowbias32" integer mix, as the C++ test helper computes it (rollback.test.ts builds its own test inputs with it). */
export function mix32(v: number): number {
  let x = v >>> 0;
  x = (x ^ (x >>> 16)) >>> 0;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x = (x ^ (x >>> 15)) >>> 0;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x = (x ^ (x >>> 16)) >>> 0;
  return x;
}

/** Player `player`'s input for `tick` in the `input` scenario (0..2 six-byte commands, held 4 ticks): sim.scenarioPlayerInput. */
export function inputScenarioPlayerInput(player: number, tick: number): Uint8Array {
  return sim.scenarioPlayerInput('input', player, tick);
}

/** mulberry32, the demo network's seeded PRNG (one definition for the demo, the load bench and these tests): uniform in [0, 1). */
export const prng: (seed: number) => () => number = demoPrng;

export interface NetMessage {
  deliverAt: number;
  from: number;
  to: number;
  tick: number;
  bytes: Uint8Array;
}

/** The simulated network between a test's peers. */
export class SimNetwork {
  readonly #next: () => number;
  readonly #inFlight: NetMessage[] = [];
  sent = 0;

  constructor(seed: number, readonly maxLatency: number, readonly duplicateOneIn: number) {
    this.#next = prng(seed);
  }

  #int(n: number): number {
    return Math.floor(this.#next() * n);
  }

  send(now: number, from: number, to: number, tick: number, bytes: Uint8Array): void {
    const copies = this.duplicateOneIn !== 0 && this.#int(this.duplicateOneIn) === 0 ? 2 : 1;
    for (let i = 0; i < copies; i++) {
      this.#inFlight.push({ deliverAt: now + this.#int(this.maxLatency + 1), from, to, tick, bytes: bytes.slice() });
      this.sent++;
    }
  }

  /** The messages to `to` due at `now`, in a random order. */
  deliver(now: number, to: number): NetMessage[] {
    const due: NetMessage[] = [];
    for (let i = 0; i < this.#inFlight.length;) {
      const m = this.#inFlight[i]!;
      if (m.to === to && m.deliverAt <= now) {
        due.push(m);
        this.#inFlight[i] = this.#inFlight[this.#inFlight.length - 1]!;
        this.#inFlight.pop();
      } else {
        i++;
      }
    }
    due.sort((a, b) => a.deliverAt - b.deliverAt || a.tick - b.tick || a.from - b.from);
    for (let i = due.length; i > 1; i--) {
      const j = this.#int(i);
      [due[i - 1], due[j]] = [due[j]!, due[i - 1]!];
    }
    return due;
  }
}

/** A one-byte input per player and tick (the relations and prefabs rollback tests). */
export function byteInput(player: number, tick: number): Uint8Array {
  return Uint8Array.of((Math.imul(tick + 1, 0x9e3779b1) >>> (8 + player * 5)) & 0xff);
}

/** The no-latency run: `w` stepped with both players' inputs every tick, combined length-prefixed as a session does; its hashes by tick (index 0: 0n). `afterTick` runs after every tick. */
export function noLatencyHashes(w: World, ticks: number, input: (player: number, tick: number) => Uint8Array, afterTick?: () => void): bigint[] {
  const hashes: bigint[] = [0n];
  for (let t = 1; t <= ticks; t++) {
    w.runSystems(Uint8Array.from([input(0, t), input(1, t)].flatMap((b) => [b.length, ...b])));
    hashes.push(w.stateHash(t));
    afterTick?.();
  }
  return hashes;
}

/**
 * A two-player session over `w` (local player 0, StateHash checksums) whose
 * remote input arrives `late` ticks late for `ticks` ticks; then the rest
 * arrives and it advances once more, so every tick up to `ticks` is
 * confirmed. `afterTick` runs after every advance. The caller disposes it.
 */
export function lateRemoteSession(w: World, ticks: number, late: number, input: (player: number, tick: number) => Uint8Array,
  afterTick?: () => void): RollbackSession {
  const s = sim.createRollbackSession(w, { players: 2, localPlayer: 0, depth: 12, maxInputBytes: 1, checksum: 'stateHash', hashHistory: 256 });
  for (let t = 1; t <= ticks; t++) {
    s.setLocalInput(t, input(0, t));
    if (t > late) s.addRemoteInput(1, t - late, input(1, t - late));
    s.advance();
    afterTick?.();
  }
  for (let t = ticks - late + 1; t <= ticks; t++) s.addRemoteInput(1, t, input(1, t));
  s.setLocalInput(ticks + 1, input(0, ticks + 1));
  s.advance();
  return s;
}

/** Every confirmed hash 1..ticks equals the reference (a failure names the tick). */
export function expectConfirmedHashes(s: RollbackSession, reference: readonly bigint[], ticks: number): void {
  for (let t = 1; t <= ticks; t++) {
    if (s.confirmedHash(t) !== reference[t]) expect(`tick ${t}: ${s.confirmedHash(t).toString(16)}`).toBe(`tick ${t}: ${reference[t]!.toString(16)}`);
  }
}
