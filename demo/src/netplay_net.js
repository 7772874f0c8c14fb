// netplay_net.js - the netplay view's simulated network: packets between two
// in-page peers, each delayed by `latency` ticks plus a uniform 0..`jitter`
// ticks (so packets overtake each other), dropped with probability `loss`.
// The choices come from a seeded PRNG (mulberry32): the same settings and
// the same sends give the same deliveries. Time is the page's network tick.

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class SimNetwork {
  /** `counterBase`: where the packet counters start (the page's ?counterBase=N). */
  constructor(seed = 0x5eed, counterBase = 0) {
    this.random = prng(seed);
    this.latency = 6;
    this.jitter = 3;
    this.loss = 0;
    this.inFlight = [];
    this.sent = counterBase;
    this.lost = counterBase;
    this.delivered = 0;
  }

  /** Sends `packet` from peer `from` to peer `to` at network tick `now` (or loses it). */
  send(now, from, to, packet) {
    this.sent++;
    if (this.loss > 0 && this.random() < this.loss) {
      this.lost++;
      return;
    }
    const delay = this.latency + Math.floor(this.random() * (this.jitter + 1));
    this.inFlight.push({ at: now + delay, seq: this.sent, from, to, packet });
  }

  /** The packets to `to` due by `now`, in arrival order (by due tick, then by send order). */
  deliver(now, to) {
    const due = [];
    const rest = [];
    for (const m of this.inFlight) (m.to === to && m.at <= now ? due : rest).push(m);
    this.inFlight = rest;
    due.sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.delivered += due.length;
    return due.map((m) => m.packet);
  }
}
