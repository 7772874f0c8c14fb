// The desync exchange between a wasm rollback session and laige-peer
// (docs/desync.md#across-peers), wasm-native: the `input` scenario on both
// sides, laige-peer's session (a C++ laige::RollbackSession) with a test
// fault that flips one bit of one PawnPos word in InputMove at a random
// tick. The wasm session gets the native confirmed checksums
// (addRemoteHash) and walks the native tree through `desync <hex>` lines;
// then laige-peer walks the wasm tree (`desync-start`). Both reports must
// name that tick, that system, that entity and that field.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PeerDesyncReport } from '../../dist/index.js';
import { inputScenarioPlayerInput } from './support/rollback_net.js';
import { sim } from './support/sim.js';

const peerPath = process.env.LAIGE_PEER_BIN || fileURLToPath(new URL('../../build/native-release/laige-peer', import.meta.url));
const havePeer = existsSync(peerPath);
const inCI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
if (!havePeer && !inCI) console.warn(`[desync_native_peer] SKIPPED: ${peerPath} is missing (bash scripts/build.sh native-release, or set LAIGE_PEER_BIN)`);

const toHex = (b: Uint8Array) => (b.length === 0 ? '.' : Buffer.from(b).toString('hex'));
const fromHex = (s: string) => (s === '.' ? new Uint8Array(0) : new Uint8Array(Buffer.from(s, 'hex')));

/** laige-peer over stdio: a request's reply lines up to (and with) its last line. */
class NativePeer {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines: string[] = [];
  #buffered = '';
  #wake: (() => void) | null = null;
  #exited: string | null = null;

  constructor(path: string) {
    this.#child = spawn(path, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child.stdout.setEncoding('utf8');
    this.#child.stdout.on('data', (chunk: string) => {
      const parts = (this.#buffered + chunk).split('\n');
      this.#buffered = parts.pop()!;
      this.#lines.push(...parts);
      this.#wake?.();
    });
    this.#child.stderr.on('data', () => {});
    this.#child.on('exit', (code) => { this.#exited = `laige-peer exited (${code})`; this.#wake?.(); });
  }

  async line(): Promise<string> {
    while (this.#lines.length === 0) {
      if (this.#exited !== null) throw new Error(this.#exited);
      await new Promise<void>((resolve) => { this.#wake = resolve; });
      this.#wake = null;
    }
    return this.#lines.shift()!;
  }

  /** Sends one request; reads lines until `last(line)` (or an error line). */
  async ask(request: string, last: (l: string) => boolean): Promise<string[]> {
    this.#child.stdin.write(`${request}\n`);
    const out: string[] = [];
    for (;;) {
      const l = await this.line();
      out.push(l);
      if (last(l) || l.startsWith('error ')) return out;
    }
  }

  async close(): Promise<void> {
    if (this.#exited !== null) return;
    const done = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.stdin.end('quit\n');
    await done;
  }
}

const isOk = (l: string) => l === 'ok';

describe.skipIf(!havePeer && !inCI)('the desync exchange between wasm and laige-peer', () => {
  for (const seed of [1, 2]) {
    it(`names the tick, system, entity and field both ways (seed ${seed})`, async () => {
      let s = seed * 2654435761 >>> 0;
      const next = (n: number) => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s % n; };
      const fault = { tick: 4 + next(20), word: next(2), bit: next(32), pick: next(8) };
      const peer = new NativePeer(peerPath);
      try {
        expect((await peer.line()).length).toBeGreaterThan(0);  // the hello line
        expect((await peer.ask('session input - 2 1 10 0', () => true))[0]!.startsWith('session input ')).toBe(true);
        expect(await peer.ask(`fault ${fault.tick} InputMove PawnPos ${fault.word} ${fault.bit} ${fault.pick}`, () => true)).toEqual(['ok']);
        const run = sim.openScenario('input');
        const outbox: Uint8Array[] = [];
        const reports: PeerDesyncReport[] = [];
        const wasm = sim.createRollbackSession(run, {
          players: 2, localPlayer: 0, depth: 10, maxInputBytes: 12, combine: 'concatenate',
          sendDesync: (b) => { outbox.push(b); }, onDesync: (r) => { reports.push(r); }, desyncMaxItems: 64,
        });
        // Delivers the wasm side's messages to laige-peer and its answers back, until none is left.
        const nativeReport: string[] = [];
        const pump = async () => {
          while (outbox.length > 0) {
            const reply = await peer.ask(`desync ${toHex(outbox.shift()!)}`, isOk);
            expect(reply[reply.length - 1]).toBe('ok');
            for (const l of reply.slice(0, -1)) {
              if (l.startsWith('desync ')) wasm.receiveDesync(fromHex(l.slice(7)));
              else nativeReport.push(l);
            }
          }
        };
        for (let t = 1; t <= 40 && reports.length === 0; t++) {
          const mine = inputScenarioPlayerInput(0, t);
          wasm.setLocalInput(t, mine);
          expect(await peer.ask(`input 0 ${t} ${toHex(mine)}`, () => true)).toEqual(['ok']);
          const advance = await peer.ask('advance', (l) => l.startsWith('advanced '));
          for (const l of advance) {
            const [verb, tick, value] = l.split(' ') as [string, string, string];
            if (verb === 'local') wasm.addRemoteInput(1, Number(tick), fromHex(value));
          }
          wasm.advance();
          for (const l of advance) {
            const [verb, tick, value] = l.split(' ') as [string, string, string];
            if (verb === 'confirmed') wasm.addRemoteHash(Number(tick), BigInt(`0x${value}`));
          }
          await pump();
        }
        expect(reports.length).toBe(1);
        const report = reports[0]!;
        expect(report.tick).toBe(BigInt(fault.tick));
        expect(report.firstSystem).toBe('InputMove');
        const field = ['x', 'y'][fault.word];
        const item = report.items.find((i) => i.component === 'PawnPos' && i.field === field && i.slot >= fault.pick);
        expect(item, JSON.stringify(report.items.map((i) => [i.slot, i.component, i.field]))).toBeDefined();
        expect((((item!.valueA as number) ^ (item!.valueB as number)) >>> 0)).toBe((1 << fault.bit) >>> 0);

        // The other way: laige-peer walks the wasm tree of the same tick.
        const started = await peer.ask(`desync-start ${fault.tick}`, isOk);
        for (const l of started.slice(0, -1)) wasm.receiveDesync(fromHex(l.slice(7)));
        await pump();
        expect(nativeReport[0]).toMatch(new RegExp(`^report ${fault.tick} InputMove \\d+ [0-9a-f]{16}$`));
        expect(nativeReport[nativeReport.length - 1]).toBe('end');
        const row = nativeReport.find((l) => l.startsWith(`item ${item!.slot} PawnPos ${field} `));
        expect(row, nativeReport.join('\n')).toBeDefined();
        const [, , , , , hexA, hexB] = row!.split(' ') as string[];
        // Side A is the native peer there: its bytes are the wasm report's B side.
        expect(hexA).toBe(toHex(item!.bytesB!));
        expect(hexB).toBe(toHex(item!.bytesA!));
        wasm.dispose();
        run.dispose();
      } finally {
        await peer.close();
      }
    }, 60_000);
  }
});
