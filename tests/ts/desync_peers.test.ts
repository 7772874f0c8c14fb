// desync_peers.test.ts - the desync report across two peers from TypeScript
// (docs/desync.md#across-peers), wasm-wasm: two rollback sessions exchange
// inputs (late, so they predict and roll back), their confirmed checksums
// (addRemoteHash) and the desync messages (sendDesync -> receiveDesync)
// through queues. One peer flips one bit of one field of one entity in one
// system at a random tick; the detecting peer's report must name that tick,
// that system, that entity and that field with both values, and agree with
// World.desyncReport of the two states side by side (the plain reference).
// Bad messages are refused with a reason and the worlds unchanged.
import { describe, expect, it } from 'vitest';
import { LaigeError } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';
import type { PeerDesyncReport } from '../../dist/index.js';
import { FAULT_COMPONENT, type Fault, type Peer, buildWorld, fieldOf, makePeer, pump, runPeers } from './support/desync_peers.js';

const SYSTEMS = ['Move', 'Steer', 'Damage'] as const;

function reasonOf(fn: () => unknown): string {
  const e = thrown(fn);
  expect(e).toBeInstanceOf(LaigeError);
  return (e as LaigeError).reason;
}

// A small PRNG for the random faults (the seeds are printed on failure).
function rng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

describe('the desync exchange between two TypeScript peers', () => {
  for (const seed of [1, 2, 3, 4]) {
    const r = rng(seed * 7919);
    const fault: Fault = { tick: 3 + r(30), system: SYSTEMS[r(3)]!, entity: r(200), field: r(2), bit: r(31) };
    it(`names the tick, system, entity and field of a one-bit divergence (seed ${seed})`, () => {
      const a = makePeer(200, null, 0);
      const b = makePeer(200, fault, 1);
      runPeers(a, b, 60);
      // Each peer gets the other's checksums: both may detect, and each gets its own report.
      const detectors = [a, b].filter((p) => p.reports.length > 0);
      expect(detectors.length, JSON.stringify(fault)).toBeGreaterThan(0);
      for (const detector of detectors) {
        expect(detector.reports.length).toBe(1);
        check(detector, detector.reports[0]!);
      }
    });
    const check = (detector: Peer, report: PeerDesyncReport): void => {
      const a = detector;
      expect(report.tick).toBe(BigInt(fault.tick));
      expect(detector.session.desyncTick).toBe(fault.tick);
      expect(report.checkpointsCompared).toBe(true);
      expect(report.firstSystem).toBe(fault.system);
      expect(report.checksumA).not.toBe(report.checksumB);
      const component = FAULT_COMPONENT[fault.system];
      const item = report.items.find((i) => i.component === component && i.entityA === a.ids[fault.entity]);
      const faulty = detector.session.localPlayer === 1;
      expect(item, JSON.stringify({ fault, items: report.items.map((i) => [i.component, i.slot]) })).toBeDefined();
      expect(item!.field).toBe(fieldOf(fault));
      const bits = (v: number): number => {
        if (component !== 'Position') return v >>> 0;
        const d = new DataView(new ArrayBuffer(4));
        d.setFloat32(0, v, true);
        return d.getUint32(0, true);
      };
      expect((bits(item!.valueA as number) ^ bits(item!.valueB as number)) >>> 0).toBe((1 << fault.bit) >>> 0);
      expect(report.exchange.messagesSent).toBeGreaterThan(0);
      expect(report.exchange.bytesReceived).toBeGreaterThan(0);

      // The plain reference: both worlds' states of that tick side by side in one module.
      const ra = buildWorld(200, null);
      const rb = buildWorld(200, fault);
      ra.world.systemCheckpoints = true;
      rb.world.systemCheckpoints = true;
      for (let t = 1; t <= fault.tick; t++) {
        // The same payload the sessions combined (length-prefixed, both players).
        const input = Uint8Array.of(2, 0, (t * 3) % 5, 2, 1, (t * 4) % 5);
        ra.world.runSystems(input);
        rb.world.runSystems(input);
      }
      const ref = faulty ? rb.world.desyncReport(ra.world, 64) : ra.world.desyncReport(rb.world, 64);
      expect(ref.firstSystem).toBe(report.firstSystem);
      expect(ref.differences).toBe(report.differences);
      // The same rows (the walk lists them by component, stateDiff by entity).
      const rows = (items: typeof ref.items) => items.map((i) => JSON.stringify([i.component, i.slot, i.field, i.valueA, i.valueB])).sort();
      expect(rows(report.items)).toEqual(rows(ref.items));
    };
  }

  it('refuses bad messages with a reason, the worlds unchanged', () => {
    const fault: Fault = { tick: 5, system: 'Steer', entity: 17, field: 1, bit: 3 };
    const a = makePeer(100, null, 0);
    const b = makePeer(100, fault, 1);
    runPeers(a, b, 4);
    const hashA = a.world.stateHash(BigInt(a.session.currentTick));
    const hashB = b.world.stateHash(BigInt(b.session.currentTick));
    const header = (kind: number, tick: number, size: number): Uint8Array => {
      const m = new Uint8Array(size);
      const v = new DataView(m.buffer);
      m[0] = kind;
      m[1] = 1;
      v.setUint32(4, size, true);
      v.setBigUint64(8, BigInt(tick), true);
      return m;
    };
    const request = (kind: number, tick: number, level: number, part: number, index: number): Uint8Array => {
      const m = header(kind, tick, 28);
      const v = new DataView(m.buffer);
      v.setUint32(16, level, true);
      v.setUint32(20, part, true);
      v.setUint32(24, index, true);
      return m;
    };
    expect(reasonOf(() => b.session.receiveDesync(new Uint8Array(3)))).toBe('desync_message_malformed');
    expect(reasonOf(() => b.session.receiveDesync(header(2, 3, 20)))).toBe('desync_message_malformed');
    expect(reasonOf(() => b.session.receiveDesync(request(99, 3, 0, 0, 0)))).toBe('desync_message_unknown_kind');
    expect(reasonOf(() => b.session.receiveDesync(new Uint8Array((1 << 19) + 1)))).toBe('desync_message_too_large');
    expect(reasonOf(() => b.session.receiveDesync('hello' as unknown as Uint8Array))).toBe('wrong_type');
    expect(reasonOf(() => b.session.receiveDesync(header(5, 3, 32)))).toBe('desync_answer_unexpected');
    expect(b.outbox.length).toBe(0);
    // A tick not confirmed: refused here, and the asker is told (an Error message).
    expect(reasonOf(() => b.session.receiveDesync(request(2, 99, 0, 0, 0)))).toBe('desync_tick_unavailable');
    expect(b.outbox.length).toBe(1);
    expect(reasonOf(() => a.session.receiveDesync(b.outbox.pop()!))).toBe('desync_remote_refused');
    // Outside the tree (tick 2 is confirmed and pinned by the first of these).
    expect(reasonOf(() => b.session.receiveDesync(request(2, 2, 0, 9, 0)))).toBe('state_tree_node_invalid');
    expect(reasonOf(() => b.session.receiveDesync(request(2, 2, 3, 1, 0)))).toBe('state_tree_node_is_leaf');
    expect(b.outbox.map((m) => m[0])).toEqual([7, 7]);  // each refusal answered with an Error message
    b.outbox.length = 0;
    // A peer that is not walking itself follows a request to another tick.
    b.session.receiveDesync(request(2, 1, 0, 0, 0));
    expect(b.outbox.length).toBe(1);
    b.outbox.length = 0;
    expect(a.world.stateHash(BigInt(a.session.currentTick))).toBe(hashA);
    expect(b.world.stateHash(BigInt(b.session.currentTick))).toBe(hashB);
    // Arguments.
    expect(reasonOf(() => a.session.addRemoteHash(0, 1n))).toBe('out_of_range');
    expect(reasonOf(() => a.session.addRemoteHash(3, 1 as unknown as bigint))).toBe('wrong_type');
    const plain = sim.createRollbackSession(buildWorld(4, null).world, { players: 2, maxInputBytes: 2 });
    expect(reasonOf(() => plain.addRemoteHash(1, 1n))).toBe('desync_not_enabled');
    expect(reasonOf(() => plain.receiveDesync(new Uint8Array(16)))).toBe('desync_not_enabled');
    expect(reasonOf(() => sim.createRollbackSession(buildWorld(4, null).world, { onDesync: () => {} }))).toBe('wrong_type');
    expect(reasonOf(() => sim.createRollbackSession(buildWorld(4, null).world, { sendDesync: 3 as unknown as () => void }))).toBe('wrong_type');
    // The run goes on: the divergence is then found and reported all the same.
    runPeers(a, b, 40);
    pump(a, b);
    const reports = [...a.reports, ...b.reports];
    expect(reports.length).toBeGreaterThan(0);
    for (const r of reports) expect([r.tick, r.firstSystem]).toEqual([5n, 'Steer']);
  });
});

describe('the desync exchange on a 10,000-entity world', () => {
  it('reports the tick, system, entity and field; prints the time from detection to report and the bytes', () => {
    const fault: Fault = { tick: 9, system: 'Damage', entity: 7777, field: 0, bit: 4 };
    const a = makePeer(10000, null, 0);
    const b = makePeer(10000, fault, 1);
    runPeers(a, b, 30);
    const report = a.reports[0]!;
    expect(report.tick).toBe(9n);
    expect(report.firstSystem).toBe('Damage');
    const item = report.items.find((i) => i.component === 'Health' && i.entityA === a.ids[7777]);
    expect(item?.field).toBe('hp');
    expect(((item!.valueA as number) ^ (item!.valueB as number)) >>> 0).toBe(16);
    const x = report.exchange;
    // Figures for docs/desync.md#cost-across-peers (no timing assertion).
    console.log(`[desync_peers] 10,000 entities: ${report.ms.toFixed(1)} ms from detection to report; ` +
      `${x.messagesSent} messages / ${x.bytesSent} bytes sent, ${x.messagesReceived} / ${x.bytesReceived} received, ` +
      `${x.hashesReceived} hashes, ${x.leafBytesReceived} leaf bytes; ${report.differences} differing rows`);
  });
});

describe('the desync exchange over a loopback TCP connection', () => {
  it('10,000 entities: the report arrives through real sockets; prints the time and the bytes', async () => {
    const { createServer, connect } = await import('node:net');
    const fault: Fault = { tick: 7, system: 'Move', entity: 4321, field: 1, bit: 20 };
    const a = makePeer(10000, null, 0);
    const b = makePeer(10000, fault, 1);
    // Length-prefixed frames: u32 size, then the message.
    const framer = (deliver: (m: Uint8Array) => void) => {
      let buf = Buffer.alloc(0);
      return (chunk: Buffer) => {
        buf = Buffer.concat([buf, chunk]);
        while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32LE(0)) {
          const n = buf.readUInt32LE(0);
          deliver(new Uint8Array(buf.subarray(4, 4 + n)));
          buf = buf.subarray(4 + n);
        }
      };
    };
    const frame = (m: Uint8Array) => { const h = Buffer.alloc(4); h.writeUInt32LE(m.length); return Buffer.concat([h, m]); };
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const accepted = new Promise<import('node:net').Socket>((resolve) => server.once('connection', resolve));
    const sa = connect(port, '127.0.0.1');
    const sb = await accepted;
    // Each side's answers and next requests go out as soon as a message was handled.
    const flush = () => {
      for (const m of a.outbox.splice(0)) sa.write(frame(m));
      for (const m of b.outbox.splice(0)) sb.write(frame(m));
    };
    let done: () => void = () => {};
    const bothReports = new Promise<void>((resolve) => { done = resolve; });
    const handled = (peer: typeof a) => framer((m) => {
      peer.session.receiveDesync(m);
      flush();
      if (a.reports.length > 0 && b.reports.length > 0) done();
    });
    sa.on('data', handled(a));
    sb.on('data', handled(b));
    // Run the ticks with the in-memory queues for inputs and checksums, the desync messages over the sockets.
    const peers = [a, b];
    for (let t = 1; t <= 20 && a.session.desyncTick === 0; t++) {
      for (let i = 0; i < 2; i++) {
        peers[i]!.session.setLocalInput(t, Uint8Array.of(i, (t * (3 + i)) % 5));
        if (t > 2) peers[i]!.session.addRemoteInput(1 - i, t - 2, Uint8Array.of(1 - i, ((t - 2) * (4 - i)) % 5));
      }
      for (let i = 0; i < 2; i++) for (const [tick, hash] of peers[i]!.hashes.splice(0)) peers[1 - i]!.session.addRemoteHash(tick, hash);
      a.session.advance();
      b.session.advance();
    }
    expect(a.session.desyncTick).toBe(7);
    // The exchange runs on the sockets' events: flush what each side queued until both reports are in.
    const started = performance.now();
    flush();
    await bothReports;
    sa.destroy();
    sb.destroy();
    server.close();
    const report = a.reports[0]!;
    expect(report.tick).toBe(7n);
    expect(report.firstSystem).toBe('Move');
    expect(report.items.some((i) => i.component === 'Position' && i.field === 'y' && i.entityA === a.ids[4321])).toBe(true);
    const x = report.exchange;
    console.log(`[desync_peers] loopback TCP, 10,000 entities: ${report.ms.toFixed(1)} ms from detection to report ` +
      `(${(performance.now() - started).toFixed(1)} ms of it on the sockets); ${x.messagesSent} messages / ${x.bytesSent} bytes sent, ` +
      `${x.messagesReceived} / ${x.bytesReceived} received`);
  }, 60_000);
});
