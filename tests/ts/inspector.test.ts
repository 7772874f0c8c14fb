// The live inspector from TypeScript ('@laige/sim/inspector',
// docs/inspector.md): worldSource answers with the core's inspector (the
// wasm export) - values equal World.get's with Q16.16 as exact decimals and
// f32 texts that read back; every answer carries exactly the keys
// protocol.ts lists; bad requests are LaigeErrors with their reason and
// fields and leave the state hash unchanged; KeyframeHistory's seek shows
// the state the native golden stream names for that tick; and laige-peer
// (native) answers the same text for the same tick, directly and through
// remoteSource.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LaigeError } from '../../dist/index.js';
import { ANSWER_KEYS, KeyframeHistory, type InspectEntity, type InspectSummary, type LineChannel, inspectRequest, remoteSource, worldSource } from '../../dist/inspector.js';
import { sim } from './support/sim.js';

const root = new URL('../../', import.meta.url);
const peerPath = [process.env.LAIGE_PEER_BIN, 'build/native-release/laige-peer', 'build/native-debug/laige-peer']
  .filter((p): p is string => p !== undefined && p !== '')
  .map((p) => (p.startsWith('/') ? p : fileURLToPath(new URL(p, root))))
  .find((p) => existsSync(p));
const inCI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
const golden = readFileSync(new URL('tests/golden/swarm.txt', root), 'utf8').trim().split('\n').map((l) => l.split(' ')[1]!);

/** The exact decimal of raw / 65536 (toFixed is exact: the value has at most 16 fraction digits). */
function fxText(raw: number): string {
  const s = (raw / 65536).toFixed(16).replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

function makeWorld() {
  const w = sim.createWorld({ capacity: 64, seed: 3n });
  const Body = w.registerComponent('Body', { x: 'fx', heading: 'f32', hp: 'i32', flags: ['u8', 4] });
  const Tag = w.registerComponent('Tag', {});
  for (let i = 0; i < 30; i++) {
    const e = w.create();
    if (i % 5 === 4) continue;
    w.add(e, Body, { x: i * 98765 - 1500000, heading: 0.3 * i - 2, hp: 100 - i, flags: [i, 1, 2, 255] });
    if (i % 3 === 0) w.add(e, Tag, {});
  }
  return { w, Body, Tag };
}

describe('worldSource', () => {
  it('shows World.get values: Q16.16 exact, f32 reading back, arrays, tags', async () => {
    const { w, Body, Tag } = makeWorld();
    const src = worldSource(w);
    const before = w.stateHash(0);
    const page = await src.ask(inspectRequest.entities(0, 200));
    expect(page.kind).toBe('entities');
    if (page.kind !== 'entities') return;
    expect(page.total).toBe(w.entityCount);
    for (const row of page.items) {
      const a = await src.ask(inspectRequest.entity(row.handle)) as InspectEntity;
      expect(a.handle).toBe(row.handle);
      const body = a.components.find((c) => c.name === 'Body');
      expect(body !== undefined).toBe(w.has(row.handle, Body));
      expect(a.components.some((c) => c.name === 'Tag' && c.fields.length === 0)).toBe(w.has(row.handle, Tag));
      if (body === undefined) continue;
      const v = w.get(row.handle, Body) as { x: number; heading: number; hp: number; flags: ArrayLike<number> };
      const f = Object.fromEntries(body.fields.map((x) => [x.name, x]));
      expect(f.x!.values).toEqual([fxText(v.x)]);
      expect(f.x!.kind).toBe('fx');
      expect(Math.fround(Number(f.heading!.values[0]))).toBe(v.heading);
      expect(f.hp!.values).toEqual([String(v.hp)]);
      expect(f.flags!.values).toEqual(Array.from(v.flags, String));
    }
    expect(w.stateHash(0)).toBe(before);
    w.dispose();
  });

  it('every answer carries exactly the keys protocol.ts lists', async () => {
    const { w } = makeWorld();
    const src = worldSource(w);
    const s = await src.ask(inspectRequest.summary());
    expect(Object.keys(s)).toEqual([...ANSWER_KEYS.summary]);
    expect(Object.keys(await src.ask(inspectRequest.entities(0, 5)))).toEqual([...ANSWER_KEYS.entities]);
    expect(Object.keys(await src.ask(inspectRequest.entity(w.handleAt(1)!)))).toEqual([...ANSWER_KEYS.entity]);
    expect(Object.keys(await src.ask(inspectRequest.history()))).toEqual([...ANSWER_KEYS.history]);
    const summary = s as InspectSummary;
    expect(summary.hash).toBe(w.stateHash(0).toString(16).padStart(16, '0'));
    expect(summary.archetypes.reduce((n, a) => n + a.rows, 0)).toBe(w.entityCount - 6); // 6 entities have no component
    w.dispose();
  });

  it('refuses bad requests with a reason and fields, the world unchanged', async () => {
    const { w } = makeWorld();
    const src = worldSource(w);
    const before = w.stateHash(0);
    const cases: [unknown, string, Record<string, unknown>][] = [
      ['', 'inspect_malformed', { part: 'version' }],
      ['2 summary', 'inspect_version', { got: 2, expected: 1 }],
      ['1 fly', 'inspect_unknown_request', { request: 'fly' }],
      ['1 entity 12x', 'inspect_malformed', { part: '12x' }],
      ['1 entity 0', 'inspect_unknown_entity', { entity: 0 }],
      [`1 entity ${w.handleAt(1)! + 1}`, 'inspect_unknown_entity', {}],
      ['1 entities 0 500', 'inspect_page_too_large', { limit: 500, max: 200 }],
      ['1 entities 0 5 archetype=77', 'inspect_unknown_archetype', { archetype: 77 }],
      ['1 seek 5', 'inspect_tick_outside_history', { tick: 5, first: 0, last: 0 }],
      ['1 summary ' + 'x'.repeat(300), 'inspect_request_too_large', { max: 256 }],
      [42, 'wrong_type', { where: 'InspectorSource.ask', field: 'request', got: 'number' }],
    ];
    for (const [request, reason, fields] of cases) {
      const e = await src.ask(request as string).then(() => 'answered', (x: unknown) => x);
      expect(e, String(request)).toBeInstanceOf(LaigeError);
      expect((e as LaigeError).reason).toBe(reason);
      expect((e as LaigeError).fields).toMatchObject(fields);
      expect((e as LaigeError).message).not.toMatch(/undefined/);
    }
    expect(w.stateHash(0)).toBe(before);
    expect(() => worldSource({} as never)).toThrow(LaigeError);
    w.dispose();
  });
});

/** A swarm run stepped to `ticks` with a KeyframeHistory (keyframes every 25 ticks). */
function swarmWithHistory(ticks: number) {
  const run = sim.openScenario('swarm');
  const scratch = sim.openScenario('swarm');
  const history = new KeyframeHistory({ live: run.world, scratch: scratch.world, step: () => scratch.step(), every: 25, keep: 8 });
  for (let t = 1; t <= ticks; t++) {
    run.step();
    history.record(t);
  }
  return { run, scratch, history };
}

describe('KeyframeHistory', () => {
  it('seeks to the state of the native golden stream at that tick, the live world untouched', async () => {
    const { run, scratch, history } = swarmWithHistory(160);
    expect([history.firstTick, history.lastTick]).toEqual([0, 160]);
    const src = worldSource(run.world, history);
    const live = run.world.stateHash(160);
    for (const t of [60, 59, 100, 137, 25, 160]) {
      const s = await src.ask(inspectRequest.seek(t)) as InspectSummary;
      expect([s.tick, s.hash], `tick ${t}`).toEqual([t, golden[t]]);
      expect(history.hashAt(t)).toBe(golden[t]);
    }
    expect(run.world.stateHash(160)).toBe(live);
    const e = await src.ask(inspectRequest.seek(161)).then(() => null, (x: LaigeError) => x);
    expect(e?.reason).toBe('inspect_tick_outside_history');
    expect(e?.fields).toEqual({ tick: 161, first: 0, last: 160 });
    // Keep 8 keyframes of 25 ticks: after 260 ticks the oldest is tick 75.
    const long = swarmWithHistory(260);
    expect(long.history.firstTick).toBe(75);
    run.dispose(); scratch.dispose(); long.run.dispose(); long.scratch.dispose();
  });
});

/** laige-peer over its stdin / stdout as a LineChannel. */
function peerChannel(): LineChannel & { lines: AsyncIterableIterator<string> } {
  const child = spawn(peerPath!, [], { stdio: ['pipe', 'pipe', 'ignore'] });
  const rl = createInterface({ input: child.stdout, crlfDelay: Infinity });
  const handlers = new Set<(l: string) => void>();
  rl.on('line', (l) => { for (const h of handlers) h(l); });
  return {
    send: (l) => { child.stdin.write(`${l}\n`); },
    onLine: (h) => { handlers.add(h); return () => handlers.delete(h); },
    onClose: (h) => { child.on('exit', h); },
    close: () => { child.stdin.end(); },
    lines: rl[Symbol.asyncIterator](),
  };
}

describe.skipIf(peerPath === undefined && !inCI)('laige-peer answers as the wasm module does', () => {
  it('the same summary and entity text at a sought tick, through remoteSource', async () => {
    const { run, scratch, history } = swarmWithHistory(150);
    const channel = peerChannel();
    const steps = ['open swarm', ...Array.from({ length: 150 }, (_, i) => `step ${i + 1} -`)];
    const remote = remoteSource(channel, {});
    for (const l of steps) channel.send(l);
    const local = worldSource(run.world, history);
    // The state's part (counters since construction and timings belong to the world showing the tick).
    const cut = (a: unknown) => {
      const s = a as InspectSummary;
      return JSON.stringify([s.tick, s.hash, s.entities, s.capacity, s.components, s.archetypes, s.systems.map((x) => [x.name, x.reads, x.writes, x.budgetMs])]);
    };
    for (const t of [50, 149]) {
      const [n, wv] = [await remote.ask(inspectRequest.seek(t)), await local.ask(inspectRequest.seek(t))];
      expect(cut(n), `tick ${t}`).toBe(cut(wv));
      const page = await local.ask(inspectRequest.entities(40, 3));
      if (page.kind !== 'entities') throw new Error('no page');
      for (const row of page.items) {
        expect(await remote.ask(inspectRequest.entity(row.handle))).toEqual(await local.ask(inspectRequest.entity(row.handle)));
      }
    }
    const bad = await remote.ask('1 entity 0').then(() => null, (x: LaigeError) => x);
    expect(bad?.reason).toBe('inspect_unknown_entity');
    // Oversized: cut to the peer's line, still refused by the core with its reason.
    const big = await remote.ask(`1 summary ${'x'.repeat(5000)}`).then(() => null, (x: LaigeError) => x);
    expect([big?.reason, big?.fields]).toEqual(['inspect_request_too_large', { size: 1000, max: 256 }]);
    const garbage = await remote.ask('\u0001\u00ff').then(() => null, (x: LaigeError) => x);
    expect(garbage?.reason).toBe('inspect_malformed');
    expect(run.world.stateHash(150)).toBe(BigInt(`0x${golden[150]}`));
    remote.close();
    const gone = await remote.ask('1 summary').then(() => null, (x: LaigeError) => x);
    expect(gone?.reason).toBe('inspector_disconnected');
    channel.close?.();
    run.dispose(); scratch.dispose();
  });

  it('a peer without a scenario refuses: inspector_peer_refused', async () => {
    const ws = await import('ws');
    const http = await import('node:http');
    // @ts-expect-error - a plain ES module of the demo, no types
    const { attachNativePeer } = await import('../../demo/peer_server.mjs');
    const server = http.createServer((_, res) => res.end());
    const peer = attachNativePeer(server, { bin: peerPath });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const url = `ws://127.0.0.1:${(server.address() as { port: number }).port}/peer`;
    (globalThis as { WebSocket?: unknown }).WebSocket ??= ws.WebSocket;
    const src = remoteSource(url);
    const e = await src.ask('1 summary').then(() => null, (x: LaigeError) => x);
    expect(e?.reason).toBe('inspector_peer_refused');
    expect(e?.fields).toEqual({ where: 'InspectorSource.ask', peer_reason: 'peer_no_scenario' });
    src.close();
    const opened = remoteSource(url, { setup: ['open hello'] });
    const s = await opened.ask('1 summary') as InspectSummary;
    expect(s.tick).toBe(0);
    opened.close();
    await peer.close();
    server.close();
  });
});
