// The demo netplay view's simulated network (demo/src/netplay_net.js): the
// packets channel (inputs: latency + jitter, lossy, may reorder) and the
// messages channel (confirmed checksums and desync messages: the same
// delays, never lost, in send order), both seeded.
import { describe, expect, it } from 'vitest';

interface Net {
  latency: number; jitter: number; loss: number; sent: number; lost: number; messagesSent: number; messageBytes: number;
  send(now: number, from: number, to: number, packet: unknown): void;
  deliver(now: number, to: number): unknown[];
  sendMessage(now: number, from: number, message: unknown, bytes?: number): void;
  deliverMessages(now: number, to: number): unknown[];
}
// A plain JS module of the demo (no types): imported by path.
const netPath = '../../demo/src/netplay_net.js';
const { SimNetwork } = (await import(netPath)) as { SimNetwork: new (seed?: number, counterBase?: number) => Net };

/** Runs `ticks` network ticks: peer 0 sends one packet and one message per tick; per tick what peer 1 received. */
function traffic(net: Net, ticks: number, messages = true) {
  const packets: [number, unknown][] = [];
  const got: [number, unknown][] = [];
  for (let now = 1; now <= ticks + 40; now++) {
    if (now <= ticks) {
      net.send(now, 0, 1, now);
      if (messages) net.sendMessage(now, 0, now, 16);
    }
    for (const p of net.deliver(now, 1)) packets.push([now, p]);
    for (const m of net.deliverMessages(now, 1)) got.push([now, m]);
  }
  return { packets, got };
}

describe('the netplay view\'s simulated network', () => {
  it('delivers every message once, in send order, no earlier than the latency, with jitter and loss set', () => {
    const net = new SimNetwork(0x5eed);
    Object.assign(net, { latency: 6, jitter: 5, loss: 0.5 });
    const { packets, got } = traffic(net, 300);
    expect(got.map(([, m]) => m)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    for (const [at, m] of got) expect(at - (m as number)).toBeGreaterThanOrEqual(6);
    // Messages wait for the one sent before them, so none overtakes; packets do, and half are lost.
    expect(packets.some(([, p], i) => i > 0 && (p as number) < (packets[i - 1]![1] as number))).toBe(true);
    expect(net.lost).toBeGreaterThan(100);
    expect(packets.length).toBe(300 - net.lost);
    expect([net.messagesSent, net.messageBytes]).toEqual([300, 300 * 16]);
  });

  it('delays each message by latency..latency + jitter ticks unless the one before it is later', () => {
    const net = new SimNetwork(7);
    Object.assign(net, { latency: 4, jitter: 3 });
    const due: number[] = [];
    for (let now = 1; now <= 200; now++) {
      net.sendMessage(now, 1, now);
      for (const m of net.deliverMessages(now, 0)) due.push(now - (m as number));
    }
    expect(due.length).toBeGreaterThan(150);
    expect(Math.min(...due)).toBe(4);
    expect(Math.max(...due)).toBeLessThanOrEqual(4 + 3);
    // Each direction is its own stream: peer 0's messages do not wait for peer 1's.
    const two = new SimNetwork(7);
    two.sendMessage(1, 1, 'late');
    two.latency = 0;
    two.jitter = 0;
    two.sendMessage(1, 0, 'now');
    expect(two.deliverMessages(1, 1)).toEqual(['now']);
    expect(two.deliverMessages(1, 0)).toEqual([]);
  });

  it('is deterministic, and the messages leave the packets\' draws unchanged', () => {
    const run = (messages: boolean) => {
      const net = new SimNetwork(0x5eed);
      Object.assign(net, { latency: 3, jitter: 4, loss: 0.2 });
      return traffic(net, 200, messages);
    };
    const a = run(true);
    expect(run(true)).toEqual(a);
    expect(run(false).packets).toEqual(a.packets);
  });
});
