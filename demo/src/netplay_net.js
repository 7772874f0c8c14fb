// netplay_net.js - the netplay view's simulated network between two in-page
// peers, two channels with the same latency:
// - packets (the inputs): each delayed by `latency` ticks plus a uniform
//   0..`jitter` ticks (so packets overtake each other), dropped with
//   probability `loss`;
// - messages (confirmed checksums, desync exchange messages): delayed the
//   same way but never lost and delivered in the order they were sent (a
//   message waits for the one sent before it), as over a TCP-like stream.
// The choices come from seeded PRNGs (mulberry32), one per channel, so the
// same settings and the same sends give the same deliveries, and messages
// do not change the packets' draws. Time is the page's network tick.

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

/** The messages channel's PRNG seed: the network's, changed (not the packets' stream). */
const MESSAGE_SEED_XOR = 0x9e3779b9;

export class SimNetwork {
  /** `counterBase`: where the packet counters start (the page's ?counterBase=N). */
  constructor(seed = 0x5eed, counterBase = 0) {
    this.random = prng(seed);
    this.messageRandom = prng(seed ^ MESSAGE_SEED_XOR);
    this.latency = 6;
    this.jitter = 3;
    this.loss = 0;
    this.inFlight = [];
    this.sent = counterBase;
    this.lost = counterBase;
    this.delivered = 0;
    /** Messages in flight, per direction (`from`): each due no earlier than the one before it. */
    this.messages = [[], []];
    this.messagesSent = 0;
    this.messageBytes = 0;
  }

  /** The delay of one send: latency plus a uniform 0..jitter ticks from `random`. */
  #delay(random) {
    return this.latency + Math.floor(random() * (this.jitter + 1));
  }

  /** Sends `packet` from peer `from` to peer `to` at network tick `now` (or loses it). */
  send(now, from, to, packet) {
    this.sent++;
    if (this.loss > 0 && this.random() < this.loss) {
      this.lost++;
      return;
    }
    this.inFlight.push({ at: now + this.#delay(this.random), seq: this.sent, from, to, packet });
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

  /**
   * Sends `message` from peer `from` (0 or 1) to the other one at network
   * tick `now` on the reliable, ordered channel; `bytes` is its size on the
   * wire (counted only).
   */
  sendMessage(now, from, message, bytes = 0) {
    const queue = this.messages[from];
    const last = queue.length > 0 ? queue[queue.length - 1].at : now;
    queue.push({ at: Math.max(now + this.#delay(this.messageRandom), last), message });
    this.messagesSent++;
    this.messageBytes += bytes;
  }

  /** The messages to peer `to` due by `now`, in the order they were sent. */
  deliverMessages(now, to) {
    const queue = this.messages[1 - to];
    let n = 0;
    while (n < queue.length && queue[n].at <= now) n++;
    return queue.splice(0, n).map((m) => m.message);
  }
}
