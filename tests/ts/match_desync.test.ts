// The match server's desync investigation from TypeScript
// (docs/netplay-protocol.md#desync-reports): two players, each a
// RollbackSession over the TypeScript `synthetic` world (equal to the C++
// scenario the server runs: tests/ts/support/synthetic.ts), play through
// the relay and `laige-peer --serve`; player 0's SynthStep flips one bit
// of one body at tick T. Its hash report of T gets `desync` and
// `desync-open`; MatchClient.feedDesync hands the server's hash to the
// session, whose exchange walks the server's pinned state over
// `desync-msg` lines; onDesync gets the report naming tick T, SynthStep,
// that body, SynthBody and that field against the server's state. The
// honest player's reports get `ok`. Messages only, no sleeps.
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatEntity, type PeerDesyncReport, type RollbackSession } from '../../dist/index.js';
// @ts-expect-error - a plain ES module of the demo, no types
import { attachMatchServer } from '../../demo/match_relay.mjs';
import { startedPair } from './support/match_peer.js';
import { sim } from './support/sim.js';
import { type SynthFault, syntheticWorld } from './support/synthetic.js';

const peerPath = process.env.LAIGE_PEER_BIN || fileURLToPath(new URL('../../build/native-release/laige-peer', import.meta.url));
const havePeer = existsSync(peerPath);
const inCI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
if (!havePeer && !inCI) console.warn(`[match_desync] SKIPPED: ${peerPath} is missing (bash scripts/build.sh native-release:laige-peer)`);

describe.skipIf(!havePeer && !inCI)('the desync report of a match, from TypeScript', () => {
  let server: Server;
  let relay: { ready: Promise<string>; close(): Promise<void> };
  let url = '';
  beforeAll(async () => {
    server = createServer((_q, r) => { r.writeHead(404).end(); });
    relay = attachMatchServer(server, { bin: peerPath, threads: 2, snapshotEvery: 16 });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const a = server.address();
    url = `ws://127.0.0.1:${typeof a === 'object' && a !== null ? a.port : 0}/match`;
    expect(await relay.ready).toMatch(/^hello laige-peer-serve 2 /);
  });
  afterAll(async () => {
    await relay.close();
    await new Promise<void>((ok) => server.close(() => ok()));
  });

  const faults: SynthFault[] = [
    { tick: 20, body: 7, field: 'x', bit: 3 },
    { tick: 9, body: 30, field: 'vy', bit: 31 },
  ];
  for (const [n, fault] of faults.entries()) {
    it(`a session whose system flips one bit gets the report against the server's state (${fault.field} of body ${fault.body} at tick ${fault.tick})`, async () => {
      const match = `d${n}`;
      const { peers, created } = await startedPair(url, match, 'synthetic');

      let delivered: (r: PeerDesyncReport) => void = () => {};
      const report = new Promise<PeerDesyncReport>((ok) => { delivered = ok; });
      const errors: unknown[] = [];
      const worlds = [syntheticWorld(sim, created.seed, fault), syntheticWorld(sim, created.seed)];
      const sessions: RollbackSession[] = worlds.map((world, p) => sim.createRollbackSession(world, {
        players: 2, localPlayer: p, maxInputBytes: 1, checksum: 'stateHash',
        sendDesync: (bytes) => peers[p]!.client.desyncMessage(match, bytes),
        onDesync: (r) => delivered(r),
      }));
      const unwire = peers.map((peer, p) => peer.client.feedDesync(match, sessions[p]!, (e) => errors.push(e)));
      const empty = new Uint8Array(0);
      const reportAt = fault.tick + 2;
      for (let t = 1; t <= reportAt; t++) {
        for (let p = 0; p < 2; p++) {
          sessions[p]!.setLocalInput(t, empty);
          peers[p]!.client.input(match, t, empty);
        }
        for (let p = 0; p < 2; p++) {
          const remote = await peers[p]!.next('input', (m) => m.tick === t);
          sessions[p]!.addRemoteInput(remote.player, remote.tick, remote.bytes);
          sessions[p]!.advance();
        }
      }
      // The honest player agrees with the server before and after the flip; player 0 until it.
      peers[1]!.client.hash(match, fault.tick, sessions[1]!.confirmedHash(fault.tick));
      expect(await peers[1]!.next('verdict')).toEqual({ type: 'verdict', match, tick: fault.tick });
      peers[0]!.client.hash(match, fault.tick - 1, sessions[0]!.confirmedHash(fault.tick - 1));
      expect(await peers[0]!.next('verdict')).toEqual({ type: 'verdict', match, tick: fault.tick - 1 });

      const mine = sessions[0]!.confirmedHash(fault.tick);
      peers[0]!.client.hash(match, fault.tick, mine);
      const verdict = await peers[0]!.next('desync');
      expect(verdict).toMatchObject({ match, tick: fault.tick, player: 0, got: mine });
      expect(verdict.expected).toBe(sessions[1]!.confirmedHash(fault.tick));
      expect(await peers[0]!.next('desync-open')).toEqual({ type: 'desync-open', match, tick: fault.tick, expected: verdict.expected });
      // feedDesync gave the session the server's hash: it pinned tick T and walks.
      const r = await report;
      expect(errors).toEqual([]);
      expect(sessions[0]!.desyncTick).toBe(fault.tick);
      expect(r.tick).toBe(BigInt(fault.tick));
      expect(r.firstSystem).toBe('SynthStep');
      expect(r.checksumA).toBe(mine);
      expect(r.checksumB).toBe(verdict.expected);
      expect(r.differences).toBe(1);
      expect(r.items).toHaveLength(1);
      const item = r.items[0]!;
      expect(item.component).toBe('SynthBody');
      expect(item.field).toBe(fault.field);
      expect(formatEntity(item.entityA!)).toBe(`Entity(${fault.body}, 1)`);
      expect(item.entityB).toBe(item.entityA);
      expect(((item.valueA as number) ^ (item.valueB as number)) >>> 0).toBe((1 << fault.bit) >>> 0);
      // Every request the session sent was answered once (checkpoints, then one level of the tree per round trip).
      expect(r.exchange.messagesSent).toBeGreaterThanOrEqual(5);
      expect(r.exchange.messagesReceived).toBe(r.exchange.messagesSent);
      // A figure for docs/netplay-protocol.md#desync-reports (no timing assertion).
      console.log(`[match_desync] ${fault.field} of body ${fault.body} at tick ${fault.tick}: detection to report ${r.ms.toFixed(1)} ms, ` +
                  `${r.exchange.messagesSent} requests (${r.exchange.bytesSent} B), ${r.exchange.bytesReceived} B of answers`);

      for (const u of unwire) u();
      for (const s of sessions) s.dispose();
      for (const w of worlds) w.dispose();
      for (const p of peers) p.ws.close();
    });
  }

  // A session created mid-match (a player taking over a dropped slot, or one
  // that ran some ticks before its session) counts its ticks from its
  // creation: its tick t is match tick base + t. feedDesync's `base` maps
  // the server's match ticks to the session's and the exchange's messages
  // back (docs/netplay-protocol.md#a-session-created-mid-match).
  it('a session created at match tick 10 gets the report of the match tick the server pinned', async () => {
    const match = 'd-base';
    const base = 10;
    const fault: SynthFault = { tick: 17, body: 12, field: 'y', bit: 5 };
    const { peers, created } = await startedPair(url, match, 'synthetic');
    const worlds = [syntheticWorld(sim, created.seed, fault), syntheticWorld(sim, created.seed)];
    const empty = new Uint8Array(0);
    // Match ticks 1..base without a session (the synthetic systems read no input).
    for (let t = 1; t <= base; t++) {
      for (let p = 0; p < 2; p++) peers[p]!.client.input(match, t, empty);
      for (const w of worlds) { w.beginFrame(); w.runSystems(); }
    }
    // The other's input of tick base arrived, and this peer's went before its hash: the server confirmed tick base.
    await peers[0]!.next('input', (m) => m.tick === base);
    peers[0]!.client.hash(match, base, worlds[0]!.stateHash(base));
    expect(await peers[0]!.next('verdict')).toEqual({ type: 'verdict', match, tick: base });

    // The report, or the first error of the exchange (a refused request: no report comes then).
    let delivered: (r: PeerDesyncReport | null) => void = () => {};
    const report = new Promise<PeerDesyncReport | null>((ok) => { delivered = ok; });
    const errors: unknown[] = [];
    const sessions: RollbackSession[] = worlds.map((world, p) => sim.createRollbackSession(world, {
      players: 2, localPlayer: p, maxInputBytes: 1, checksum: 'stateHash',
      sendDesync: (bytes) => peers[p]!.client.desyncMessage(match, bytes),
      onDesync: (r) => delivered(r),
    }));
    const unwire = peers.map((peer, p) => peer.client.feedDesync(match, sessions[p]!, (e) => { errors.push(e); delivered(null); }, { base }));
    // Session ticks 1..(fault.tick - base + 2): match ticks base + 1 .. fault.tick + 2.
    const last = fault.tick - base + 2;
    for (let st = 1; st <= last; st++) {
      for (let p = 0; p < 2; p++) {
        sessions[p]!.setLocalInput(st, empty);
        peers[p]!.client.input(match, base + st, empty);
      }
      for (let p = 0; p < 2; p++) {
        const remote = await peers[p]!.next('input', (m) => m.tick === base + st);
        sessions[p]!.addRemoteInput(remote.player, remote.tick - base, remote.bytes);
        sessions[p]!.advance();
      }
    }
    const st = fault.tick - base;
    const mine = sessions[0]!.confirmedHash(st);
    peers[0]!.client.hash(match, fault.tick, mine);
    const verdict = await peers[0]!.next('desync');
    expect(verdict).toMatchObject({ match, tick: fault.tick, player: 0, got: mine });
    expect(verdict.expected).toBe(sessions[1]!.confirmedHash(st));
    expect(await peers[0]!.next('desync-open')).toMatchObject({ match, tick: fault.tick });
    // desync-open gave the session the server's hash of its tick st: it pinned st and walks.
    expect(errors).toEqual([]);
    expect(sessions[0]!.desyncTick).toBe(st);
    const r = (await report)!;
    expect(errors).toEqual([]);
    // The report is of the session's tick st (match tick base + st), against the server's state of that match tick.
    expect(r.tick).toBe(BigInt(st));
    expect(r.checksumA).toBe(mine);
    expect(r.checksumB).toBe(verdict.expected);
    expect(r.firstSystem).toBe('SynthStep');
    expect(r.differences).toBe(1);
    const item = r.items[0]!;
    expect(item.component).toBe('SynthBody');
    expect(item.field).toBe(fault.field);
    expect(formatEntity(item.entityA!)).toBe(`Entity(${fault.body}, 1)`);
    expect(((item.valueA as number) ^ (item.valueB as number)) >>> 0).toBe((1 << fault.bit) >>> 0);
    expect(r.exchange.messagesReceived).toBe(r.exchange.messagesSent);

    for (const u of unwire) u();
    for (const s of sessions) s.dispose();
    for (const w of worlds) w.dispose();
    for (const p of peers) p.ws.close();
  });
});
