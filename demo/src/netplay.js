// netplay.js - the demo's netplay view (docs/demo.md#netplay-view): two peers
// side by side in the page, each its own world of the same scenario under its
// own rollback session (sim.createRollbackSession, 2 players, one local
// each), each with its own local input (the pointer on its own canvas),
// exchanging inputs over a simulated network (netplay_net.js: latency,
// jitter, loss). Per peer: current and confirmed tick, rollbacks per second,
// the deepest rollback; between them: their confirmed hashes must agree;
// and the native peer (peer.js), fed the confirmed ticks' combined payloads,
// must answer the same hashes. The peers also send each other their
// confirmed checksums and, when those differ, the messages of their
// sessions' desync exchange (docs/desync.md#across-peers) over the
// network's reliable channel; each peer's report (tick, system, entities,
// fields) is shown by desync_view.js. `perturb` injects the divergence.
//
// Each network tick every peer (1) takes the packets and messages due, (2) sets its
// local input INPUT_DELAY ticks ahead, (3) sends the other peer every input
// the other has not acknowledged (so a lost packet is repaired by the next),
// with its own acknowledgement, and (4) advances one tick, or waits when it
// is MAX_PREDICTION ticks ahead of its confirmed tick (prediction_limit);
// then (5) sends the checksums it confirmed and its desync messages.
import { formatEntity } from '@laige/sim/scenarios';
import { attractorPayload } from './scenarios.js';
import { NativePeer, peerVerdict } from './peer.js';
import { armSystemFault, betweenTicksChange } from './perturb.js';
import { SimNetwork, prng } from './netplay_net.js';
import { drawWorld } from './canvas.js';
import { SpriteTable } from './sprites.js';

/** Ticks between sampling a local input and running it. */
const INPUT_DELAY = 2;
/** The most ticks a peer predicts ahead of its confirmed tick. */
const MAX_PREDICTION = 20;
/**
 * The rollback ring depth. Beyond the rollbacks (at most MAX_PREDICTION
 * ticks), the desync exchange re-runs the first differing tick from the
 * ring on both peers (docs/desync.md#pinning-a-tick): on the peer that
 * detects it when the other's checksum arrives, and on the other when the
 * first request arrives, two one-way delays later. With the sliders' worst
 * case (latency 20 + jitter 10 ticks each way) that is 20 + 2 x 30 ticks
 * behind the current tick, plus what lost input packets add.
 */
const DEPTH = 120;
/** A checksum message on the wire: u64 tick, u64 checksum. */
const HASH_MESSAGE_BYTES = 16;
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
  /** `hooks`: onConfirmed(peer, tick), onDesync(peer, report), desyncFailed(peer, error). */
  constructor(sim, spec, player, rules, hooks) {
    this.player = player;
    this.other = 1 - player;
    this.rules = rules;
    this.built = spec.build(sim, spec.seed);
    this.hash0 = hex(this.built.world.stateHash(0));
    this.confirmed = new Map([[0, this.hash0]]);
    // checksum 'stateHash': the confirmed hashes are compared with the
    // native twin's (peer.js: laige-peer's step mode answers each tick's
    // World::stateHash) and with tick 0's stateHash above.
    // The confirmed checksums and the desync messages wait in `outbox` for
    // the end of the step (onConfirmed and sendDesync run inside advance()
    // and receiveDesync).
    this.outbox = [];
    this.hooks = hooks;
    this.session = sim.createRollbackSession(this.built.run ?? this.built.world, {
      players: 2, localPlayer: player, depth: DEPTH, maxInputBytes: 16, maxPredictionTicks: MAX_PREDICTION, hashHistory: 256,
      checksum: 'stateHash', combine: rules.combine,
      onConfirmed: (t, h) => {
        this.confirmed.set(t, hex(h));
        this.outbox.push([{ kind: 'hash', tick: t, hash: h }, HASH_MESSAGE_BYTES]);
        hooks.onConfirmed(this, t);
      },
      sendDesync: (bytes) => { this.outbox.push([{ kind: 'desync', bytes }, bytes.length]); },
      onDesync: (report) => hooks.onDesync(this, report),
    });
    /** The network tick the session found the first differing checksum at (null: not yet). */
    this.detectedAt = null;
    /** A between-ticks change waiting for a tick with nothing predicted (perturb.js's betweenTicksChange). */
    this.pendingChange = null;
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

  /** A confirmed checksum or a desync message of the other peer (the reliable channel). */
  receiveMessage(m, now) {
    this.#desyncCall(now, () => {
      if (m.kind === 'hash') this.session.addRemoteHash(m.tick, m.hash);
      else this.session.receiveDesync(m.bytes);
    });
  }

  // A call that may start (addRemoteHash, advance) or move (receiveDesync)
  // the desync exchange: notes the network tick of the detection; a refusal
  // of the exchange (desync_*, state_tree_*) is shown, not fatal.
  #desyncCall(now, f) {
    try {
      f();
    } catch (e) {
      if (!/^(desync_|state_tree_)/.test(e?.reason ?? '')) throw e;
      this.hooks.desyncFailed(this, e);
    } finally {
      if (this.detectedAt === null && this.session.desyncTick !== 0) this.detectedAt = now;
    }
  }

  step(now, net) {
    for (const p of net.deliver(now, this.player)) this.receive(p);
    for (const m of net.deliverMessages(now, this.player)) this.receiveMessage(m, now);
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
    // While a between-ticks change waits, the peer advances only once it has
    // the other's input for the tick it would run (#applyPendingChange).
    if (this.pendingChange === null || this.remoteContiguous > this.session.currentTick) {
      this.#desyncCall(now, () => {
        try {
          const a = this.session.advance();
          // The re-simulated share of the advance (each re-run tick costs about what the new one does).
          if (a.resimulatedTicks > 0) this.resimMs += (a.ms * a.resimulatedTicks) / (a.resimulatedTicks + 1);
        } catch (e) {
          if (e?.reason !== 'prediction_limit') throw e;
          this.stalls++;
        }
      });
    }
    this.#applyPendingChange();
    for (const [m, bytes] of this.outbox.splice(0)) net.sendMessage(now, this.player, m, bytes);
  }

  // A pending between-ticks change is made after an advance() that
  // confirmed the tick it ran: every tick so far ran with every player's
  // input, so no rollback restores a state from before the change, and the
  // ring snapshot of this tick (taken by the next advance) holds it - the
  // desync exchange's re-run from that snapshot gives the same checksums.
  #applyPendingChange() {
    const c = this.pendingChange;
    if (c === null || this.session.currentTick !== this.session.confirmedTick) return;
    this.pendingChange = null;
    c(this.session.currentTick);
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

/**
 * A session's PeerDesyncReport as plain data (status(), the view, the e2e
 * checks): numbers and strings only; an item's entity formatted, side A's
 * (this peer's) handle, else side B's. `netTicks`: network ticks from the
 * detection to the report.
 */
export function reportOf(player, r, netTicks) {
  return {
    peer: player, tick: Number(r.tick), firstSystem: r.firstSystem, firstSystemPosition: r.firstSystemPosition,
    checkpointsCompared: r.checkpointsCompared, differences: r.differences, checksumA: hex(r.checksumA), checksumB: hex(r.checksumB),
    items: r.items.map((it) => ({
      slot: it.slot, component: it.component, field: it.field, valueA: it.valueA, valueB: it.valueB,
      entity: it.entityA ?? it.entityB, entityText: (it.entityA ?? it.entityB) === null ? `slot ${it.slot}` : formatEntity(it.entityA ?? it.entityB),
      presentInA: it.presentInA, presentInB: it.presentInB,
    })),
    exchange: { ...r.exchange }, ms: r.ms, netTicks,
  };
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
    this.perturbed = null;
    /** The perturb button's choices (tick, slot, bit): seeded, the same every run. */
    this.random = prng(0xfa017);
    /** Per peer: its desync report (reportOf) once onDesync gave it, and the exchange's refusals. */
    this.reports = [null, null];
    this.desyncErrors = [];
    const hooks = {
      onConfirmed: (peer, t) => {
        if (peer.player === 0 && this.native !== null) this.native.step(t, this.rules.combined(peer.inputsAt(t)));
      },
      onDesync: (peer, report) => {
        peer.detectedAt ??= this.now;
        this.reports[peer.player] = reportOf(peer.player, report, this.now - peer.detectedAt);
      },
      desyncFailed: (peer, e) => {
        if (this.desyncErrors.length < 8) this.desyncErrors.push({ peer: peer.player, reason: e.reason, message: e.message });
      },
    };
    this.peers = [0, 1].map((p) => new NetplayPeer(sim, spec, p, this.rules, hooks));
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
   * Makes peer `i`'s world diverge, once per view: its confirmed checksums
   * stop agreeing with the other peer's (and the native peer's), and both
   * peers' desync exchanges report where. A TypeScript scenario's system
   * flips one bit (system_fault.js): `at` = { tick, slot, bit } (each
   * optional: a tick 10..39 ahead of the peer's current one, a live
   * entity's slot, a bit 0..15, from a seeded PRNG); the tick must not have
   * run on that peer yet. The core's scenarios (C++ systems) get a change
   * between two ticks instead (perturb.js). Returns what is
   * armed (status().perturbed), or null when the scenario has nothing to
   * perturb.
   */
  perturb(i = 1, at = {}) {
    if (this.perturbed !== null) return this.perturbed;
    const peer = this.peers[i];
    const who = `peer ${i}`;
    const armed = armSystemFault(peer.built, { peer: i, who, current: peer.session.currentTick, random: this.random, at });
    if (armed !== undefined) return (this.perturbed = armed);
    // The core's scenarios: after the next tick peer i runs with every
    // player's input (it waits for the other's input of that tick;
    // NetplayPeer.#applyPendingChange).
    const c = betweenTicksChange(peer.built, { peer: i, who });
    if (c === null) return null;
    peer.pendingChange = c.change;
    return (this.perturbed = c.perturbed);
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
      inputs: this.rules.what, perturbed: this.perturbed === null ? null : { ...this.perturbed },
      desync: {
        detected: this.peers.map((p) => (p.session.desyncTick === 0 ? null : { tick: p.session.desyncTick, at: p.detectedAt })),
        reports: this.reports, errors: this.desyncErrors,
        messages: { sent: this.net.messagesSent, bytes: this.net.messageBytes },
      },
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
