// A native rollback session paired LIVE with a wasm one (docs/rollback.md#native-peer):
// laige-peer's rollback mode (a C++ laige::RollbackSession in a native
// process, driven over stdio) and sim.createRollbackSession over the wasm
// `input` scenario exchange their inputs through the seeded simulated
// network of support/rollback_net.ts (latency 0..8 ticks, jitter,
// reordering, duplicates) for 2,000 ticks. Every tick confirmed on both
// sides has the same hash on both, and it is the hash of a run that had
// every input in time. The test drives both sides tick by tick (request /
// reply), so the order of events is exact and the run is deterministic.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RollbackSession, ScenarioRun } from '../../dist/index.js';
import { SimNetwork, inputScenarioPlayerInput } from './support/rollback_net.js';
import { sim } from './support/sim.js';

const TICKS = 2000;
const FLUSH = 16;
const DELAY = 1;
const DEPTH = 12;
const peerPath = fileURLToPath(new URL('../../build/native-release/laige-peer', import.meta.url));
const havePeer = existsSync(peerPath);
const inCI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
if (!havePeer && !inCI) {
  console.warn(`[rollback_native_pairing] SKIPPED: ${peerPath} is missing; build it with \`bash scripts/build.sh native-release\` (in CI a missing binary fails)`);
}

const hex = (h: bigint) => h.toString(16).padStart(16, '0');
const toHex = (b: Uint8Array) => (b.length === 0 ? '.' : Buffer.from(b).toString('hex'));
const fromHex = (s: string) => (s === '.' ? new Uint8Array(0) : new Uint8Array(Buffer.from(s, 'hex')));

/** laige-peer over stdio: every request's reply lines, in order. */
class NativePeer {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines: string[] = [];
  #buffered = '';
  #wake: (() => void) | null = null;
  #exited: string | null = null;
  stderr = '';

  constructor(path: string) {
    this.#child = spawn(path, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child.stdout.setEncoding('utf8');
    this.#child.stdout.on('data', (chunk: string) => {
      this.#buffered += chunk;
      const parts = this.#buffered.split('\n');
      this.#buffered = parts.pop()!;
      this.#lines.push(...parts);
      this.#wake?.();
    });
    this.#child.stderr.on('data', (chunk: Buffer) => { this.stderr += chunk.toString(); });
    this.#child.on('exit', (code, signal) => { this.#exited = `laige-peer exited (${code ?? signal}): ${this.stderr}`; this.#wake?.(); });
  }

  async #line(): Promise<string> {
    while (this.#lines.length === 0) {
      if (this.#exited !== null) throw new Error(this.#exited);
      await new Promise<void>((resolve) => { this.#wake = resolve; });
      this.#wake = null;
    }
    return this.#lines.shift()!;
  }

  /** The greeting laige-peer prints on start. */
  hello(): Promise<string> {
    return this.#line();
  }

  /** Writes `requests` at once; reads one line per request, and for `advance` up to its `advanced` (or `error`) line. */
  async ask(requests: string[]): Promise<string[][]> {
    this.#child.stdin.write(requests.map((r) => `${r}\n`).join(''));
    const replies: string[][] = [];
    for (const r of requests) {
      const reply: string[] = [];
      for (;;) {
        const l = await this.#line();
        reply.push(l);
        if (r !== 'advance' || l.startsWith('advanced ') || l.startsWith('error ')) break;
      }
      replies.push(reply);
    }
    return replies;
  }

  /** One request with a one-line reply. */
  async askOne(request: string): Promise<string> {
    const [reply] = await this.ask([request]);
    return reply![0]!;
  }

  async close(): Promise<void> {
    if (this.#exited !== null) return;
    const done = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.stdin.end('quit\n');
    await done;
  }
}

/**
 * The `input` scenario with every player's input in time (concatenated in
 * player order): the checksum both sides confirm by default (the fast one)
 * after tick t, from a one-player session whose combiner hands every tick
 * both players' inputs (each tick confirmed as it runs).
 */
function referenceHashes(ticks: number): string[] {
  const run = sim.openScenario('input');
  const hashes = [''];
  const s = sim.createRollbackSession(run, {
    players: 1, localPlayer: 0, depth: DEPTH, maxInputBytes: 0, maxCombinedBytes: 24,
    combine: (tick) => {
      const a = inputScenarioPlayerInput(0, tick);
      const b = inputScenarioPlayerInput(1, tick);
      const both = new Uint8Array(a.length + b.length);
      both.set(a);
      both.set(b, a.length);
      return both;
    },
    onConfirmed: (tick, hash) => { hashes[tick] = hex(hash); },
  });
  for (let t = 1; t <= ticks; t++) {
    s.setLocalInput(t, new Uint8Array(0));
    s.advance();
  }
  run.dispose();
  return hashes;
}

interface Pairing {
  native: Map<number, string>;
  wasm: Map<number, string>;
  nativeStats: Record<string, number>;
  wasmSession: RollbackSession;
  run: ScenarioRun;
  inputReplies: Set<string>;
}

/**
 * Runs the native peer as player `nativePlayer` and a wasm session as the
 * other for `ticks` ticks over a network seeded with `seed`. `tamper` may
 * rewrite what the network carries from the native side to the wasm side
 * (the failure check).
 */
async function pair(peer: NativePeer, nativePlayer: number, ticks: number, seed: number,
  tamper: (tick: number, bytes: Uint8Array) => Uint8Array = (_t, b) => b): Promise<Pairing> {
  const wasmPlayer = 1 - nativePlayer;
  const opened = await peer.askOne(`session input - 2 ${nativePlayer} ${DEPTH} ${DELAY}`);
  const run = sim.openScenario('input');
  expect(opened).toBe(`session input 0x1a9e7 ${hex(run.world.stateHash(0))}`);
  const wasm = new Map<number, string>();
  const native = new Map<number, string>();
  const wasmSession = sim.createRollbackSession(run, {
    players: 2, localPlayer: wasmPlayer, depth: DEPTH, maxInputBytes: 12, combine: 'concatenate',
    onConfirmed: (tick, hash) => { wasm.set(tick, hex(hash)); },
  });
  const net = new SimNetwork(seed, 8, 6);
  const inputReplies = new Set<string>();
  for (let now = 1; now <= ticks; now++) {
    // The native side: the inputs due to it, then one advance.
    const due = net.deliver(now, nativePlayer).map((m) => `input ${m.from} ${m.tick} ${toHex(m.bytes)}`);
    const replies = await peer.ask([...due, 'advance']);
    for (const r of replies.slice(0, -1)) inputReplies.add(r.join('|'));
    const advance = replies[replies.length - 1]!;
    expect(advance[advance.length - 1]!.startsWith(`advanced ${now} `), advance.join('|')).toBe(true);
    for (const l of advance.slice(0, -1)) {
      const [verb, tickText, value] = l.split(' ') as [string, string, string];
      const tick = Number(tickText);
      if (verb === 'local') {
        const bytes = fromHex(value);
        if (toHex(bytes) !== toHex(inputScenarioPlayerInput(nativePlayer, tick))) expect(`native local ${tick} ${value}`).toBe(`native local ${tick} ${toHex(inputScenarioPlayerInput(nativePlayer, tick))}`);
        net.send(now, nativePlayer, wasmPlayer, tick, tamper(tick, bytes));
      } else if (verb === 'confirmed') {
        expect(native.has(tick), `native confirmed ${tick} twice`).toBe(false);
        native.set(tick, value);
      } else {
        expect(l).toBe('a local or confirmed line');
      }
    }
    // The wasm side: its local inputs up to now + delay, the inputs due to it, one advance.
    for (let t = now === 1 ? 1 : now + DELAY; t <= now + DELAY; t++) {
      const bytes = inputScenarioPlayerInput(wasmPlayer, t);
      wasmSession.setLocalInput(t, bytes);
      net.send(now, wasmPlayer, nativePlayer, t, bytes);
    }
    for (const m of net.deliver(now, wasmPlayer)) wasmSession.addRemoteInput(m.from, m.tick, m.bytes);
    expect(wasmSession.advance().tick).toBe(now);
  }
  const stats = await peer.askOne('stats');
  const nativeStats: Record<string, number> = {};
  for (const kv of stats.split(' ').slice(1)) {
    const [k, v] = kv.split('=') as [string, string];
    nativeStats[k] = Number(v);
  }
  return { native, wasm, nativeStats, wasmSession, run, inputReplies };
}

/** The ticks where the two sides' confirmed hashes, or either and the reference, differ. */
function differences(p: Pairing, reference: readonly string[]): string[] {
  const out: string[] = [];
  const last = Math.min(p.wasmSession.confirmedTick, p.nativeStats.confirmed!);
  for (let t = 1; t <= last; t++) {
    const n = p.native.get(t);
    const w = p.wasm.get(t);
    if (n !== w || n !== reference[t]) out.push(`tick ${t}: native ${n ?? 'missing'} wasm ${w ?? 'missing'} reference ${reference[t]}`);
  }
  return out;
}

describe.skipIf(!havePeer && !inCI)('a native rollback session paired live with a wasm one', () => {
  let peer: NativePeer;
  let reference: string[];
  beforeAll(async () => {
    expect(existsSync(peerPath), `${peerPath} is missing: build the native-release preset first (laige-peer)`).toBe(true);
    peer = new NativePeer(peerPath);
    expect(await peer.hello()).toMatch(/^hello laige-peer 1 .*\binput\b/);
    reference = referenceHashes(TICKS + FLUSH);
  });
  afterAll(async () => { await peer?.close(); });

  it('every tick confirmed on both sides has the same hash on both, the no-latency run\'s, for 2,000 ticks', async () => {
    const p = await pair(peer, 0, TICKS + FLUSH, 0x1a7e0002);
    expect([...p.inputReplies]).toEqual(['ok']);
    expect(p.wasmSession.confirmedTick).toBeGreaterThanOrEqual(TICKS);
    expect(p.nativeStats.confirmed).toBeGreaterThanOrEqual(TICKS);
    expect(p.native.size).toBe(p.nativeStats.confirmed);
    expect(p.wasm.size).toBe(p.wasmSession.confirmedTick);
    expect(differences(p, reference).slice(0, 5)).toEqual([]);
    // Both sides predicted wrong and rolled back, often and up to the network's latency.
    const w = p.wasmSession.stats;
    console.log(`[rollback_native_pairing] native: ${JSON.stringify(p.nativeStats)}; wasm: rollbacks=${w.rollbacks} resimulated=${w.resimulatedTicks} misses=${w.predictionMisses} duplicates=${w.duplicateInputs} deepest=${w.deepestRollback}`);
    for (const s of [p.nativeStats.rollbacks!, w.rollbacks]) expect(s).toBeGreaterThan(100);
    for (const s of [p.nativeStats.duplicates!, w.duplicateInputs]) expect(s).toBeGreaterThan(50);
    for (const s of [p.nativeStats.deepest!, w.deepestRollback]) {
      expect(s).toBeGreaterThanOrEqual(6);
      expect(s).toBeLessThanOrEqual(8 - DELAY);
    }
    // The native side's confirmed hash lookup agrees with its stream.
    const last = p.nativeStats.confirmed!;
    expect(await peer.askOne(`hash ${last}`)).toBe(`confirmed ${last} ${reference[last]}`);
    p.run.dispose();
  });

  it('fails when one side runs a tick with other inputs: the hashes part from that tick on', async () => {
    // The native side is player 1 here. The network hands the wasm side a
    // different input for tick 150 (every copy, so it is no conflict): the
    // wasm session's tick 150 runs another input than the native one's.
    const wrongAt = 150;
    const p = await pair(peer, 1, 300, 0x1a7e0003, (tick, bytes) => (tick === wrongAt ? Uint8Array.of(1, 9, 0, 1, 0, 1) : bytes));
    expect(toHex(inputScenarioPlayerInput(1, wrongAt))).not.toBe('010900010001');
    const diff = differences(p, reference);
    expect(diff.length).toBeGreaterThan(100);
    expect(diff[0]!.startsWith(`tick ${wrongAt}: `), diff[0]).toBe(true);
    // The native side, which had the right inputs, still matches the reference.
    for (let t = 1; t <= p.nativeStats.confirmed!; t++) if (p.native.get(t) !== reference[t]) expect(`native tick ${t} ${p.native.get(t)}`).toBe(reference[t]);
    expect(p.wasm.get(wrongAt)).not.toBe(reference[wrongAt]);
    p.run.dispose();
  });
});
