// MatchClient (web/src/netplay/match_client.ts) against the real match
// server behind its relay: two TypeScript players, each a RollbackSession
// over the wasm `input` scenario, play through `laige-peer --serve`; their
// confirmed hashes get the server's `ok` verdicts; a spectator that joins
// late restores the server's snapshot, runs the confirmed tail and reaches
// the server's hash; bad arguments are refused before anything is sent.
// Messages only, no sleeps.
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaigeError, MatchClient, type RollbackSession } from '../../dist/index.js';
// @ts-expect-error - a plain ES module of the demo, no types
import { attachMatchServer } from '../../demo/match_relay.mjs';
import { Peer } from './support/match_peer.js';
import { sim, thrown } from './support/sim.js';

const peerPath = process.env.LAIGE_PEER_BIN || fileURLToPath(new URL('../../build/native-release/laige-peer', import.meta.url));
const havePeer = existsSync(peerPath);
const inCI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
const TICKS = 90;

describe.skipIf(!havePeer && !inCI)('MatchClient with the match server', () => {
  let server: Server;
  let relay: { ready: Promise<string>; close(): Promise<void> };
  let url = '';
  beforeAll(async () => {
    server = createServer((_q, r) => { r.writeHead(404).end(); });
    relay = attachMatchServer(server, { bin: peerPath, threads: 2, snapshotEvery: 32 });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const a = server.address();
    url = `ws://127.0.0.1:${typeof a === 'object' && a !== null ? a.port : 0}/match`;
    await relay.ready;
  });
  afterAll(async () => {
    await relay.close();
    await new Promise<void>((ok) => server.close(() => ok()));
  });

  it('two rollback sessions play through the server: ok verdicts; a late spectator reaches the server hash', async () => {
    const peers = [new Peer(url), new Peer(url)];
    await Promise.all(peers.map((p) => p.open()));
    peers[0]!.client.create('g1', 'input', 2);
    const created = await peers[0]!.next('created');
    expect(created).toMatchObject({ match: 'g1', scenario: 'input', players: 2 });
    const j0 = await peers[0]!.next('joined');
    expect(j0).toMatchObject({ role: 'player', player: 0, players: 2 });
    peers[1]!.client.join('g1', 'player');
    expect(await peers[1]!.next('joined')).toMatchObject({ role: 'player', player: 1 });
    await peers[0]!.next('start');

    const runs = [sim.openScenario('input', { seed: created.seed }), sim.openScenario('input', { seed: created.seed })];
    const sessions: RollbackSession[] = runs.map((run, p) => sim.createRollbackSession(run, {
      players: 2, localPlayer: p, maxInputBytes: 12, combine: 'concatenate', checksum: 'stateHash',
    }));
    for (let t = 1; t <= TICKS; t++) {
      for (let p = 0; p < 2; p++) {
        const mine = sim.scenarioPlayerInput('input', p, t);
        sessions[p]!.setLocalInput(t, mine);
        peers[p]!.client.input('g1', t, mine);
      }
      for (let p = 0; p < 2; p++) {
        const remote = await peers[p]!.next('input', (m) => m.tick === t);
        expect(remote.player).toBe(1 - p);
        sessions[p]!.addRemoteInput(remote.player, remote.tick, remote.bytes);
        sessions[p]!.advance();
      }
      if (t % 30 === 0) {
        for (let p = 0; p < 2; p++) {
          expect(sessions[p]!.confirmedTick).toBe(t);
          peers[p]!.client.hash('g1', t, sessions[p]!.confirmedHash(t));
          expect(await peers[p]!.next('verdict', (m) => m.tick === t)).toEqual({ type: 'verdict', match: 'g1', tick: t });
        }
      }
    }
    expect(sessions[0]!.confirmedHash(TICKS)).toBe(sessions[1]!.confirmedHash(TICKS));

    // The late spectator: the kept snapshot (tick 64, every 32), then the confirmed tail to 90.
    const spectator = new Peer(url);
    await spectator.open();
    spectator.client.join('g1', 'spectator');
    expect(await spectator.next('joined')).toMatchObject({ role: 'spectator', player: null, token: null });
    const snap = await spectator.next('snapshot');
    expect(snap.tick).toBe(64);
    const late = sim.openScenario('input', { seed: created.seed });
    late.world.restore(snap.bytes);
    expect(late.tick).toBe(64);
    for (let t = 65; t <= TICKS; t++) {
      const c = await spectator.next('confirmed', (m) => m.tick === t);
      const combined = new Uint8Array(c.inputs.reduce((n, b) => n + b.length, 0));
      let at = 0;
      for (const b of c.inputs) { combined.set(b, at); at += b.length; }
      late.step(combined);
      expect(late.stateHash(), `tick ${t}`).toBe(c.hash);
    }
    expect(late.stateHash()).toBe(sessions[0]!.confirmedHash(TICKS));
    // A wrong report gets the server's desync answer, parsed.
    spectator.client.hash('g1', TICKS, 1n);
    expect(await spectator.next('desync')).toMatchObject({ match: 'g1', tick: TICKS, player: 'spectator', got: 1n, expected: late.stateHash() });
    for (const s of sessions) s.dispose();
    for (const r of [...runs, late]) r.dispose();
    for (const p of [...peers, spectator]) p.ws.close();
  });

  it('bad arguments are refused before anything is sent', () => {
    const sent: string[] = [];
    const c = new MatchClient((l) => sent.push(l));
    const reason = (fn: () => unknown): string => (thrown(fn) as LaigeError).reason;
    expect(reason(() => c.create('bad id', 'input', 2))).toBe('match_bad_id');
    expect(reason(() => c.create('ok', 'input', 9))).toBe('out_of_range');
    expect(reason(() => c.create('ok', 'Input!', 2))).toBe('wrong_type');
    expect(reason(() => c.join('ok', 'referee' as never))).toBe('wrong_type');
    expect(reason(() => c.input('ok', 0, new Uint8Array(1)))).toBe('out_of_range');
    expect(reason(() => c.input('ok', 1, [1] as never))).toBe('wrong_type');
    expect(reason(() => c.hash('ok', 1, -1n))).toBe('out_of_range');
    expect(reason(() => c.rejoin('ok', 0, 'not a token'))).toBe('wrong_type');
    expect(reason(() => new MatchClient(42 as never))).toBe('wrong_type');
    expect(thrown(() => c.leave('x'.repeat(33)))).toBeInstanceOf(LaigeError);
    expect(sent).toEqual([]);
    c.create('ok', 'input', 2, 0x2an);
    c.input('ok', 1, new Uint8Array(0));
    expect(sent).toEqual(['create ok input 0x2a 2', 'input ok 1 .']);
  });

  it('parses every reply of the protocol', () => {
    const c = new MatchClient(() => {});
    expect(c.receive('hello laige-peer-serve 1 hello,input threads=2 max_matches=256 spectator_delay=30')).toEqual({ type: 'hello', version: 1, scenarios: ['hello', 'input'], spectatorDelay: 30 });
    // A server without the field (before the spectator delay existed) has none.
    expect(c.receive('hello laige-peer-serve 1 input threads=2 max_matches=256')).toMatchObject({ spectatorDelay: 0 });
    expect(c.receive('input g 1 5 0a0b')).toEqual({ type: 'input', match: 'g', player: 1, tick: 5, bytes: Uint8Array.of(10, 11) });
    expect(c.receive('player g 1 away 7')).toEqual({ type: 'player', match: 'g', player: 1, event: 'away', tick: 7 });
    expect(c.receive('error match_tick_order expected=3 got=5')).toEqual({ type: 'error', reason: 'match_tick_order', fields: { expected: '3', got: '5' } });
    expect(c.receive('left g')).toEqual({ type: 'left', match: 'g' });
    expect(c.receive('stats server matches=1')).toEqual({ type: 'other', line: 'stats server matches=1' });
    // Version 2: the desync investigation.
    expect(c.receive('desync-open g 12 00000000000000ff')).toEqual({ type: 'desync-open', match: 'g', tick: 12, expected: 255n });
    expect(c.receive('desync-closed g 12 reason=busy')).toEqual({ type: 'desync-closed', match: 'g', tick: 12, reason: 'busy' });
    expect(c.receive('desync-msg g 0401')).toEqual({ type: 'desync-msg', match: 'g', bytes: Uint8Array.of(4, 1) });
  });

  it('desyncMessage checks the message before sending it; feedDesync wires a session to one match', () => {
    const sent: string[] = [];
    const c = new MatchClient((l) => sent.push(l));
    const request = Uint8Array.of(1, 1, 0, 0, 16, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0);
    const err = (fn: () => unknown) => thrown(fn) as LaigeError;
    expect(err(() => c.desyncMessage('g', [1, 2] as never)).reason).toBe('wrong_type');
    expect(err(() => c.desyncMessage('g', new Uint8Array(97))).fields).toMatchObject({ field: 'bytes', got: 97, max: 96 });
    expect(err(() => c.desyncMessage('g', new Uint8Array(97))).reason).toBe('out_of_range');
    expect(err(() => c.desyncMessage('g', request.subarray(0, 8)))).toMatchObject({ reason: 'desync_message_malformed', fields: { size: 8, kind: 1, what: 'header' } });
    expect(err(() => c.desyncMessage('g', Uint8Array.of(...request.subarray(0, 15), 0, 0)))).toMatchObject({ reason: 'desync_message_malformed', fields: { size: 17, what: 'size' } });
    const v2 = request.slice();
    v2[1] = 2;
    expect(err(() => c.desyncMessage('g', v2))).toMatchObject({ reason: 'desync_message_malformed', fields: { what: 'version' } });
    expect(err(() => c.desyncMessage('g h', request)).reason).toBe('match_bad_id');
    expect(sent).toEqual([]);
    c.desyncMessage('g', request);
    expect(sent).toEqual(['desync-msg g 01010000100000000c00000000000000']);

    const calls: string[] = [];
    const session = {
      addRemoteHash: (tick: number, hash: bigint) => { calls.push(`hash ${tick} ${hash}`); },
      receiveDesync: (bytes: Uint8Array) => { calls.push(`msg ${bytes.length}`); if (bytes.length === 1) throw new Error('refused'); },
    };
    expect(err(() => c.feedDesync('g', {} as never)).reason).toBe('wrong_type');
    expect(err(() => c.feedDesync('g', session, 'log' as never)).reason).toBe('wrong_type');
    const errors: unknown[] = [];
    const unwire = c.feedDesync('g', session, (e) => errors.push(e));
    c.receive('desync g 12 player=0 expected=00000000000000ff got=0000000000000001');
    c.receive('desync-open g 12 00000000000000ff');
    c.receive('desync-open other 12 00000000000000ff');  // another match: not this session's
    c.receive('desync-msg g 0401');
    c.receive('desync-msg g 04');
    expect(calls).toEqual(['hash 12 255', 'msg 2', 'msg 1']);
    expect(errors).toHaveLength(1);
    unwire();
    c.receive('desync-msg g 0401');
    expect(calls).toHaveLength(3);
    // Without onError, the session's error is thrown from receive.
    const unwire2 = c.feedDesync('g', session);
    expect(() => c.receive('desync-msg g 04')).toThrow('refused');
    unwire2();

    // A session created at match tick 5 (base 5): the server's match tick 12 is its tick 7, both ways.
    expect(err(() => c.feedDesync('g', session, undefined, { base: -1 })).reason).toBe('out_of_range');
    expect(err(() => c.feedDesync('g', session, undefined, null as never)).reason).toBe('wrong_type');
    calls.length = 0;
    errors.length = 0;
    const unwire3 = c.feedDesync('g', session, (e) => errors.push(e), { base: 5 });
    c.receive('desync-open g 12 00000000000000ff');
    c.receive('desync-msg g 04010000100000000c00000000000000');
    expect(calls).toEqual(['hash 7 255', 'msg 16']);
    const seen: Uint8Array[] = [];
    const probe = { addRemoteHash: () => {}, receiveDesync: (b: Uint8Array) => { seen.push(b); } };
    const unwire4 = c.feedDesync('h', probe, undefined, { base: 5 });
    c.receive('desync-msg h 04010000100000000c00000000000000');
    expect(seen[0]![8]).toBe(7);
    unwire4();
    sent.length = 0;
    const mine = request.slice();
    mine[8] = 7;
    c.desyncMessage('g', mine);
    expect(mine[8]).toBe(7);  // the caller's bytes are not changed
    expect(sent).toEqual(['desync-msg g 01010000100000000c00000000000000']);
    c.receive('desync-open g 5 00000000000000ff');  // before the session's first tick
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ reason: 'out_of_range', fields: { field: 'tick', got: 5, min: 6 } });
    unwire3();
    sent.length = 0;
    c.desyncMessage('g', mine);  // unwired: sent as it is
    expect(sent).toEqual(['desync-msg g 01010000100000000700000000000000']);
  });
});
