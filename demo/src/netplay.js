// netplay.js - the demo's netplay view (docs/demo.md#netplay-view): two peers
// side by side in the page, each its own world of the same scenario under its
// own rollback session (sim.createRollbackSession, 2 players, one local
// each), each with its own local input (the pointer on its own canvas),
// exchanging inputs over a simulated network (netplay_net.js: latency,
// jitter, loss). Per peer: current and confirmed tick, rollbacks per second,
// the deepest rollback; between them: their confirmed hashes must agree;
// and the native peer (peer.js), fed the confirmed ticks' combined payloads,
// must answer the same hashes.
//
// Each network tick every peer (1) takes the packets due, (2) sets its
// local input INPUT_DELAY ticks ahead, (3) sends the other peer every input
// the other has not acknowledged (so a lost packet is repaired by the next),
// with its own acknowledgement, and (4) advances one tick, or waits when it
// is DEPTH ticks ahead of its confirmed tick (prediction_limit).
import { attractorPayload } from './scenarios.js';
import { NativePeer, peerVerdict } from './peer.js';
import { SimNetwork } from './netplay_net.js';
import { drawWorld } from './canvas.js';
import { SpriteTable } from './sprites.js';

/** Ticks between sampling a local input and running it. */
const INPUT_DELAY = 2;
/** The rollback ring depth, also the most ticks a peer predicts ahead. */
const DEPTH = 20;
/** The most inputs one packet carries. */
const MAX_PACKET_INPUTS = 64;
const hex = (h) => h.toString(16).padStart(16, '0');
const EMPTY = new Uint8Array(0);

/**
 * How a scenario's two players make one payload. `input`: both players'
 * commands, concatenated (its systems read 6-byte records), each player's
 * from the scenario's own per-player generator (sim.scenarioPlayerInput:
 * the C++ function laige-peer uses, docs/rollback.md#player-inputs). The
 * others: player 0's input if it has one (its pointer is down), else
 * player 1's - for swarm the one attractor its systems read.
 */
function rulesOf(sim, name) {
  if (name === 'input') {
    return {
      combine: 'concatenate',
      combined: (inputs) => { const o = new Uint8Array(inputs[0].length + inputs[1].length); o.set(inputs[0]); o.set(inputs[1], inputs[0].length); return o; },
      local: (peer, tick) => sim.scenarioPlayerInput('input', peer.player, tick),
      what: 'both players\' generated commands, concatenated',
    };
  }
  const first = (inputs) => (inputs[0].length > 0 ? inputs[0] : inputs[1]);
  return {
    combine: (_tick, inputs) => first(inputs),
    combined: first,
    local: (peer) => (peer.pointer === null ? EMPTY : attractorPayload(peer.pointer[0], peer.pointer[1])),
    what: 'each player\'s pointer (8 bytes while down); player 0\'s wins',
  };
}

class NetplayPeer {
  constructor(sim, spec, player, rules, onConfirmed) {
    this.player = player;
    this.other = 1 - player;
    this.rules = rules;
    this.built = spec.build(sim, spec.seed);
    this.hash0 = hex(this.built.world.stateHash(0));
    this.confirmed = new Map([[0, this.hash0]]);
    // checksum 'stateHash': the confirmed hashes are compared with the
    // native twin's (peer.js: laige-peer's step mode answers each tick's
    // World::stateHash) and with tick 0's stateHash above.
    this.session = sim.createRollbackSession(this.built.run ?? this.built.world, {
      players: 2, localPlayer: player, depth: DEPTH, maxInputBytes: 16, maxPredictionTicks: DEPTH, hashHistory: 256,
      checksum: 'stateHash', combine: rules.combine,
      onConfirmed: (t, h) => { this.confirmed.set(t, hex(h)); onConfirmed(this, t); },
    });
    this.local = new Map();
    this.remote = new Map();
    this.remoteContiguous = 0;
    this.ackedByOther = 0;
    this.lastLocal = 0;
    this.pointer = null;
    this.stalls = 0;
    this.samples = [];
    this.resimMs = 0;
  }

  /** The inputs of confirmed tick `t` in player order. */
  inputsAt(t) {
    const mine = this.local.get(t) ?? EMPTY;
    const theirs = this.remote.get(t) ?? EMPTY;
    return this.player === 0 ? [mine, theirs] : [theirs, mine];
  }

  receive(packet) {
    this.ackedByOther = Math.max(this.ackedByOther, packet.ack);
    for (const [t, bytes] of packet.inputs) {
      if (t <= this.remoteContiguous || this.remote.has(t)) continue;
      try {
        this.session.addRemoteInput(this.other, t, bytes);
        this.remote.set(t, bytes);
      } catch (e) {
        // Too far ahead of this peer (input_too_early): the next packet repeats it.
        if (e?.reason !== 'input_too_early') throw e;
      }
    }
    while (this.remote.has(this.remoteContiguous + 1)) this.remoteContiguous++;
  }

  step(now, net) {
    for (const p of net.deliver(now, this.player)) this.receive(p);
    const cur = this.session.currentTick;
    while (this.lastLocal < cur + 1 + INPUT_DELAY) {
      const t = ++this.lastLocal;
      const b = this.rules.local(this, t);
      this.local.set(t, b);
      this.session.setLocalInput(t, b);
    }
    const inputs = [];
    for (let t = this.ackedByOther + 1; t <= this.lastLocal && inputs.length < MAX_PACKET_INPUTS; t++) inputs.push([t, this.local.get(t)]);
    net.send(now, this.player, this.other, { ack: this.remoteContiguous, inputs });
    try {
      const a = this.session.advance();
      // The re-simulated share of the advance (each re-run tick costs about what the new one does).
      if (a.resimulatedTicks > 0) this.resimMs += (a.ms * a.resimulatedTicks) / (a.resimulatedTicks + 1);
    } catch (e) {
      if (e?.reason !== 'prediction_limit') throw e;
      this.stalls++;
    }
  }

  /** Drops inputs and hashes no one reads any more (below `tick`). */
  prune(tick) {
    for (const m of [this.local, this.remote, this.confirmed]) {
      for (const k of [...m.keys()]) if (k < tick) m.delete(k);
    }
  }

  stats(nowMs) {
    const st = this.session.stats;
    this.samples.push([nowMs, st.rollbacks]);
    while (this.samples.length > 2 && nowMs - this.samples[0][0] > 1000) this.samples.shift();
    const [t0, r0] = this.samples[0];
    const perSec = nowMs > t0 ? ((st.rollbacks - r0) * 1000) / (nowMs - t0) : 0;
    return {
      current: this.session.currentTick, confirmed: this.session.confirmedTick, rollbacks: st.rollbacks,
      rollbacksPerSec: perSec, deepestRollback: st.deepestRollback, resimulatedTicks: st.resimulatedTicks,
      predictionMisses: st.predictionMisses, stalls: this.stalls,
    };
  }

  dispose() {
    try { this.session.dispose(); } catch { /* gone */ }
    try { this.built.world.dispose(); } catch { /* gone */ }
  }
}

/** The netplay view of one scenario: two peers, the network, the checks. */
export class Netplay {
  /**
   * `spec`: { seed, build(sim, seed), native } as main.js's specOf gives;
   * `counterBase`: where the network tick and the packet counters start
   * (what is shown; the peers' ticks and the network's delays do not change).
   */
  constructor(sim, name, spec, { counterBase = 0 } = {}) {
    this.name = name;
    this.rules = rulesOf(sim, name);
    this.net = new SimNetwork(0x5eed, counterBase);
    this.now = counterBase;
    this.agreedThrough = 0;
    this.disagreeAt = null;
    this.peers = [];
    this.native = null;
    const onConfirmed = (peer, t) => {
      if (peer.player === 0 && this.native !== null) this.native.step(t, this.rules.combined(peer.inputsAt(t)));
    };
    this.peers = [0, 1].map((p) => new NetplayPeer(sim, spec, p, this.rules, onConfirmed));
    // The native hashes, checked against each peer's confirmed hash of the
    // same tick once that peer confirmed it (the peers may confirm a tick at
    // different network ticks).
    this.nativeHashes = new Map();
    this.nativeAgree = [0, 1].map(() => ({ through: -1, divergedAt: null }));
    if (spec.native) {
      const a = this.peers[0];
      this.native = new NativePeer({
        scenario: name, seed: spec.seed, pageHash: (t) => a.confirmed.get(t),
        onAnswer: (t, h) => { this.nativeHashes.set(t, h); this.#checkNative(); },
      });
    }
  }

  #checkNative() {
    this.peers.forEach((p, i) => {
      const g = this.nativeAgree[i];
      while (g.divergedAt === null && this.nativeHashes.has(g.through + 1) && p.confirmed.has(g.through + 1)) {
        const t = g.through + 1;
        if (this.nativeHashes.get(t) === p.confirmed.get(t)) g.through = t;
        else g.divergedAt = t;
      }
    });
    const done = Math.min(...this.nativeAgree.map((g) => g.through));
    if (this.now % 64 === 0) for (const k of [...this.nativeHashes.keys()]) if (k < done) this.nativeHashes.delete(k);
  }

  /** The native peer's line: per peer MATCH through tick N or DIVERGED at tick N. */
  #nativeVerdict() {
    const n = this.native;
    if (n === null) return { kind: 'pending', text: 'native peer: n/a (TypeScript systems: no native twin)' };
    if (n.state !== 'open' || (n.divergedAt !== null && this.nativeAgree[0].divergedAt === null)) return peerVerdict(n, { fallback: 'the two peers check each other' });
    const part = (g, i) => (g.divergedAt !== null ? `peer ${i} DIVERGED at tick ${g.divergedAt}` : `peer ${i} MATCH through tick ${Math.max(0, g.through)}`);
    const bad = this.nativeAgree.some((g) => g.divergedAt !== null);
    return { kind: bad ? 'diverged' : 'match', text: `native peer: ${this.nativeAgree.map(part).join(', ')}` };
  }

  /** One network tick: both peers step; the confirmed hashes are compared. */
  tick() {
    this.now++;
    for (const p of this.peers) p.step(this.now, this.net);
    const [a, b] = this.peers;
    while (this.disagreeAt === null && a.confirmed.has(this.agreedThrough + 1) && b.confirmed.has(this.agreedThrough + 1)) {
      const t = this.agreedThrough + 1;
      if (a.confirmed.get(t) === b.confirmed.get(t)) this.agreedThrough = t;
      else this.disagreeAt = t;
    }
    // Keep what the agreement check and the native peer's answers still need.
    const n = this.native;
    const nativeNeeds = n !== null && (n.state === 'connecting' || n.state === 'open') ? Math.min(...this.nativeAgree.map((g) => g.through)) : Infinity;
    const keep = Math.min(this.agreedThrough, nativeNeeds) - 1;
    this.#checkNative();
    if (this.now % 64 === 0) for (const p of this.peers) p.prune(Math.min(keep, p.session.confirmedTick - 1));
  }

  /** Ticks the native peer has not answered yet (fast mode waits on it). */
  backlog() {
    return this.native?.backlog() ?? 0;
  }

  /** The re-simulation time (ms) both peers spent since the last call. */
  takeResimMs() {
    let ms = 0;
    for (const p of this.peers) { ms += p.resimMs; p.resimMs = 0; }
    return ms;
  }

  /**
   * Changes one component of one entity in peer `i`'s world between two
   * ticks (as perturb does in the single view): its next confirmed hashes
   * no longer agree with the other peer's nor with the native peer's.
   */
  perturb(i = 1) {
    const { world, perturbTarget } = this.peers[i].built;
    if (perturbTarget === undefined) return null;
    let target = null;
    world.each([perturbTarget.component], ['read'], (e) => { if (target === null) target = e; });
    if (target === null) return null;
    world.add(target, perturbTarget.component, perturbTarget.change(world.get(target, perturbTarget.component)));
    this.perturbed = { peer: i, tick: this.peers[i].session.currentTick };
    return this.perturbed;
  }

  setPointer(player, p) {
    this.peers[player].pointer = p === null ? null : [Math.round(p[0] * 65536), Math.round(p[1] * 65536)];
  }

  setNetwork({ latency, jitter, loss }) {
    if (latency !== undefined) this.net.latency = latency;
    if (jitter !== undefined) this.net.jitter = jitter;
    if (loss !== undefined) this.net.loss = loss;
  }

  status(nowMs = performance.now()) {
    const v = this.#nativeVerdict();
    return {
      scenario: this.name, now: this.now, peers: this.peers.map((p) => p.stats(nowMs)),
      agreedThrough: this.agreedThrough, disagreeAt: this.disagreeAt,
      net: { latency: this.net.latency, jitter: this.net.jitter, loss: this.net.loss, sent: this.net.sent, lost: this.net.lost },
      native: this.native === null ? { state: 'none', text: v.text, kind: v.kind }
        : {
          state: this.native.state, text: v.text, kind: v.kind,
          matchedThrough: Math.min(...this.nativeAgree.map((g) => g.through)),
          divergedAt: this.nativeAgree.find((g) => g.divergedAt !== null)?.divergedAt ?? null,
          perPeer: this.nativeAgree.map((g) => ({ ...g })),
        },
      inputs: this.rules.what, perturbed: this.perturbed ?? null,
    };
  }

  render(canvases) {
    // One sprite table per peer, synced at every frame (a rollback rewrites
    // past ticks, so the frame, not the tick, is what the table follows);
    // drawn where the sprites are (alpha 1).
    this.renderFrame = (this.renderFrame ?? 0) + 1;
    this.peers.forEach((p, i) => {
      p.sprites ??= new SpriteTable();
      p.sprites.sync(p.built, this.renderFrame);
      drawWorld(canvases[i], {
        extent: p.built.extent, sprites: p.sprites, alpha: 1, perturbed: null,
        attractor: p.pointer === null ? null : [p.pointer[0] / 65536, p.pointer[1] / 65536],
      });
    });
  }

  /** The world position of a pointer event on peer `i`'s canvas, or null (button up). */
  pointerOf(i, ev, canvas) {
    if ((ev.buttons & 1) === 0) return null;
    const r = canvas.getBoundingClientRect();
    const { x0, y0, size } = this.peers[i].built.extent;
    return [x0 + ((ev.clientX - r.left) / r.width) * size, y0 + (1 - (ev.clientY - r.top) / r.height) * size];
  }

  dispose() {
    this.native?.close();
    for (const p of this.peers) p.dispose();
  }
}
