// match_online.js - one peer of the netplay view playing through the match
// server (`laige-peer --serve` behind demo/serve.mjs's /match WebSocket,
// docs/netplay-protocol.md) instead of the simulated network: each browser
// tab (or browser) is one member of the match. A player runs its world under
// a rollback session (sim.createRollbackSession, checksum 'stateHash', the
// hash the server checks), sends its input per tick, feeds the other
// player's relayed inputs to its session and reports every confirmed hash;
// the server answers each report with its verdict (`verdict ... ok` or
// `desync`). A spectator (the "join late" view) restores the server's kept
// snapshot, runs the confirmed inputs the server streams, checks each tick's
// hash against the server's line and reports it too.
//
// Inputs: each player's input is the scenario's own per-player generator
// (sim.scenarioPlayerInput, the C++ function the server's scenario knows),
// empty for a scenario without one; the server combines them as the
// session does (concatenated for `input`, length-prefixed otherwise).
import { MatchClient } from '@laige/sim/scenarios';
import { reportOf } from './netplay.js';
import { prng } from './netplay_net.js';
import { armSystemFault, betweenTicksChange } from './perturb.js';

/** Ticks between generating a local input and running it. */
const INPUT_DELAY = 2;
/** The most ticks a player predicts ahead of its confirmed tick. */
const MAX_PREDICTION = 20;
/**
 * The rollback ring depth. Beyond the rollbacks (at most MAX_PREDICTION
 * ticks), a desync investigation pins the tick the server found wrong from
 * the ring (docs/desync.md#pinning-a-tick) when `desync-open` arrives, one
 * round trip after this page confirmed it - while the page ran on, up to
 * MAX_PREDICTION ticks past its confirmed tick.
 */
const DEPTH = 120;
const hex = (h) => h.toString(16).padStart(16, '0');
const EMPTY = new Uint8Array(0);

/** The WebSocket URL of the match server next to the page. */
export function matchUrl(loc = location) {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}${loc.pathname.replace(/[^/]*$/, '')}match`;
}

/** The players' inputs of one tick as the server combines them (RollbackSession's combiners). */
export function combineInputs(inputs, concatenate) {
  const out = new Uint8Array(inputs.reduce((n, b) => n + b.length + (concatenate ? 0 : 1), 0));
  let at = 0;
  for (const b of inputs) {
    if (!concatenate) out[at++] = b.length;
    out.set(b, at);
    at += b.length;
  }
  return out;
}

export class OnlineMatch {
  /**
   * `role`: 'create' (creates a 2-player match over `scenario` and plays
   * player 0), 'player' or 'spectator'; `build(name, seed)` builds the
   * scenario's world as the page draws it (main.js's specOf(...).build).
   */
  constructor(sim, { match, role, scenario, build, url = matchUrl() }) {
    this.sim = sim;
    this.match = match;
    this.role = role === 'spectator' ? 'spectator' : 'player';
    this.scenario = scenario;
    this.build = build;
    this.state = 'connecting';
    this.error = null;
    this.player = null;
    this.built = null;
    this.session = null;
    // A rollback session counts ticks from its creation: a player that joins
    // a running match (a dropped slot taken over) creates its session on the
    // world restored at match tick `base`, so its session tick t is match
    // tick base + t (the world's own tick count, which the hashes use, is the
    // match's).
    this.base = 0;
    // The last line of a player's catch-up is its own `player` event
    // (docs/netplay-protocol.md#the-catch-up-ends): the session starts after it.
    this.caughtUp = false;
    this.started = false;
    this.snapshotTick = null;
    this.snapshotBytes = 0;
    this.bytesReceived = 0;
    this.tailTicks = 0;
    this.serverTick = 0; // the last tick whose server hash this page knows (spectators: every confirmed line)
    this.confirmed = new Map(); // tick -> this page's confirmed hash (hex)
    this.lastConfirmed = 0;
    this.okThrough = 0; // the highest tick the server answered `ok` for
    this.verdicts = 0;
    this.desyncs = 0;
    this.desyncAt = null;
    this.lineMismatchAt = null; // a spectator's own hash differs from the confirmed line's
    this.lastLocal = 0;
    this.stalls = 0;
    this.remoteQueue = [];
    this.events = [];
    this.joinStartedAt = performance.now();
    // The server-led desync report (docs/netplay-protocol.md#desync-reports):
    // the first `desync` verdict, the investigation's state, the report.
    this.verdictAt = null;
    this.desyncOpened = false;
    this.desyncClosed = null;
    this.report = null;
    this.desyncErrors = [];
    this.unfeed = null;
    this.perturbed = null;
    /** A between-ticks change waiting for a tick run with every player's input (perturb). */
    this.pendingChange = null;
    /** The highest match tick of the other player's input fed to the session. */
    this.remoteThrough = 0;
    /** The perturb control's choices (tick, slot, bit): seeded, the same every run. */
    this.random = prng(0xfa017);
    this.syncedMs = null; // from opening the socket to the first `ok` verdict
    this.ws = new WebSocket(url);
    this.client = new MatchClient((line) => { if (this.ws.readyState === WebSocket.OPEN) this.ws.send(line); });
    this.ws.onopen = () => {
      this.state = 'joining';
      if (role === 'create') this.client.create(match, scenario, 2);
      else this.client.join(match, this.role);
    };
    this.ws.onmessage = (e) => {
      this.bytesReceived += e.data.length;
      try {
        this.#on(this.client.receive(String(e.data)));
      } catch (err) {
        this.state = 'error';
        this.error = err.message;
      }
    };
    this.ws.onclose = () => { if (this.state !== 'error') this.state = 'closed'; };
    this.ws.onerror = () => { this.state = 'error'; this.error ??= 'the match server is not reachable (is laige-peer built?)'; };
  }

  #event(text) {
    this.events.push(text);
    if (this.events.length > 50) this.events.shift();
  }

  #on(m) {
    switch (m.type) {
      case 'created': this.#event(`created ${m.match} (${m.scenario}, seed 0x${m.seed.toString(16)})`); break;
      case 'joined':
        this.player = m.player;
        this.scenario = m.scenario;
        this.concatenate = m.scenario === 'input';
        this.built = this.build(m.scenario, m.seed);
        this.state = this.role === 'spectator' ? 'watching' : 'waiting';
        this.#event(`joined as ${m.role === 'player' ? `player ${m.player}` : 'spectator'}`);
        break;
      case 'snapshot':
        this.snapshotTick = m.tick;
        this.snapshotBytes = m.bytes.length;
        if (m.tick > 0) this.built.run.world.restore(m.bytes);
        this.lastConfirmed = m.tick;
        break;
      case 'confirmed': this.#confirmedLine(m); break;
      case 'input':
        this.remoteQueue.push(m);
        this.#feedRemote();
        break;
      case 'start':
        this.started = true;
        if (this.role === 'player') this.state = 'playing';
        this.#event('both players are in: the match runs');
        break;
      case 'player':
        if (m.player === this.player && (m.event === 'joined' || m.event === 'back')) {
          this.caughtUp = true;
          this.#feedRemote();
        }
        this.#event(`player ${m.player} ${m.event} at tick ${m.tick}`);
        break;
      case 'verdict':
        this.verdicts++;
        this.okThrough = Math.max(this.okThrough, m.tick);
        if (this.syncedMs === null) this.syncedMs = performance.now() - this.joinStartedAt;
        break;
      case 'desync':
        this.desyncs++;
        if (this.desyncAt === null) {
          this.desyncAt = m.tick;
          this.verdictAt = performance.now();
          this.#event(`tick ${m.tick}: DESYNC, the server has ${hex(m.expected)}, this page ${hex(m.got)}`);
        }
        break;
      case 'desync-open':
        this.desyncOpened = true;
        this.#event(`the server opened its investigation of tick ${m.tick}`);
        break;
      case 'desync-closed':
        // After the first, each later tick's verdict is answered `busy` (one investigation at a time) or `done`.
        if (this.desyncClosed === null && !(this.desyncOpened && /^(busy|done)$/.test(m.reason))) {
          this.desyncClosed = m.reason;
          this.#event(`desync investigation of tick ${m.tick}: ${m.reason}`);
        }
        break;
      case 'error':
        if (m.reason === 'match_exists' && this.state === 'joining') { this.client.join(this.match, 'player'); break; }
        this.#event(`error ${m.reason} ${Object.entries(m.fields).map(([k, v]) => `${k}=${v}`).join(' ')}`);
        if ((this.player === null && this.role !== 'spectator') || /^match_(unknown|full|bad_id)$/.test(m.reason)) {
          this.state = 'error';
          this.error = m.reason;
        }
        break;
      default: break;
    }
  }

  /** A `confirmed` line (a spectator's stream, or a joining player's catch-up): run it and check the hash. */
  #confirmedLine(m) {
    const run = this.built.run;
    if (m.tick !== run.tick + 1) throw new Error(`confirmed tick ${m.tick} after tick ${run.tick}`);
    run.step(combineInputs(m.inputs, this.concatenate));
    const h = run.stateHash();
    this.confirmed.set(m.tick, hex(h));
    this.lastConfirmed = m.tick;
    this.serverTick = m.tick;
    this.tailTicks++;
    if (h !== m.hash) this.lineMismatchAt ??= m.tick;
    this.client.hash(this.match, m.tick, h);
    this.#prune();
  }

  #ensureSession() {
    if (this.session !== null || this.built === null || this.role !== 'player' || !this.caughtUp) return;
    this.lastLocal = this.built.run.tick;
    this.base = this.built.run.tick;
    this.session = this.sim.createRollbackSession(this.built.run, {
      players: 2, localPlayer: this.player, depth: DEPTH, maxPredictionTicks: MAX_PREDICTION, maxInputBytes: 16, inputLead: 128,
      hashHistory: 256, checksum: 'stateHash', combine: this.concatenate ? 'concatenate' : 'lengthPrefixed',
      onConfirmed: (st, h) => {
        const t = this.base + st;
        this.confirmed.set(t, hex(h));
        this.lastConfirmed = t;
        this.client.hash(this.match, t, h);
      },
      // The server's investigation: this session walks the server's pinned
      // state of the tick over desync-msg lines; side B of the report is the server's.
      sendDesync: (b) => this.client.desyncMessage(this.match, b),
      onDesync: (r) => {
        const report = reportOf(this.player, r, null);
        // The session's ticks are the match's minus base (MatchClient.feedDesync's base).
        this.report = {
          ...report, sessionTick: report.tick, tick: this.base + report.tick, here: `player ${this.player} (this page)`, there: 'the match server',
          verdictMs: this.verdictAt === null ? 0 : performance.now() - this.verdictAt,
        };
        this.#event(`desync report: tick ${this.report.tick}, first system ${r.firstSystem}, ${r.differences} difference(s)`);
      },
    });
    this.unfeed = this.client.feedDesync(this.match, this.session, (e) => {
      if (this.desyncErrors.length < 8) this.desyncErrors.push({ reason: e?.reason ?? 'error', message: e?.message ?? String(e) });
    }, { base: this.base });
  }

  /**
   * Makes this player's world diverge (once): a TypeScript scenario's
   * system flips one bit at a tick ahead (`at` = { tick, slot, bit }, match
   * ticks, each optional), the core's scenarios get one component of one
   * entity changed between two ticks (perturb.js). The server's verdicts
   * then say DESYNC and its investigation reports where. Returns what is
   * armed (status().perturbed), or null (not a playing player, or nothing
   * to perturb in this scenario).
   */
  perturb(at = {}) {
    if (this.perturbed !== null) return this.perturbed;
    if (this.role !== 'player' || this.session === null) return null;
    const who = `player ${this.player}`;
    const current = this.base + this.session.currentTick;
    const armed = armSystemFault(this.built, { peer: this.player, who, current, random: this.random, at });
    if (armed !== undefined) return (this.perturbed = armed);
    const c = betweenTicksChange(this.built, { peer: this.player, who });
    if (c === null) return null;
    this.pendingChange = c.change;
    return (this.perturbed = c.perturbed);
  }

  // A pending between-ticks change is made after an advance that confirmed
  // the tick it ran (perturb.js's betweenTicksChange says why).
  #applyPendingChange() {
    const c = this.pendingChange;
    if (c === null || this.session.currentTick !== this.session.confirmedTick) return;
    this.pendingChange = null;
    c(this.base + this.session.currentTick);
  }

  #feedRemote() {
    this.#ensureSession();
    if (this.session === null) return;
    while (this.remoteQueue.length > 0) {
      const m = this.remoteQueue[0];
      try {
        if (m.tick > this.base) this.session.addRemoteInput(m.player, m.tick - this.base, m.bytes);
        this.remoteThrough = Math.max(this.remoteThrough, m.tick);
      } catch (e) {
        if (e?.reason === 'input_too_early') return; // fed after this page's next advance
        throw e;
      }
      this.remoteQueue.shift();
    }
  }

  #localInput(t) {
    try {
      return this.sim.scenarioPlayerInput(this.scenario, this.player, t);
    } catch {
      return EMPTY;
    }
  }

  /** One tick of a player: its inputs up to INPUT_DELAY ahead go out, the session advances (or waits at its prediction limit). */
  tick() {
    if (this.role !== 'player' || this.player === null) return;
    this.#ensureSession();
    if (this.session === null) return;
    const cur = this.base + this.session.currentTick;
    while (this.lastLocal < cur + 1 + INPUT_DELAY) {
      const t = ++this.lastLocal;
      const b = this.#localInput(t);
      this.session.setLocalInput(t - this.base, b);
      this.client.input(this.match, t, b);
    }
    // While a between-ticks change waits, advance only onto a tick whose other input is here (#applyPendingChange).
    if (this.pendingChange === null || this.remoteThrough > cur) {
      try {
        this.session.advance();
      } catch (e) {
        if (e?.reason !== 'prediction_limit') throw e;
        this.stalls++;
      }
      this.#applyPendingChange();
    }
    this.#feedRemote();
    this.#prune();
  }

  #prune() {
    if (this.confirmed.size > 600) for (const k of [...this.confirmed.keys()].slice(0, 300)) this.confirmed.delete(k);
  }

  /** The page's URL of a late spectator of this match. */
  lateJoinUrl(loc = location) {
    const u = new URL(loc.href);
    u.searchParams.set('view', 'match');
    u.searchParams.set('match', this.match);
    u.searchParams.set('role', 'spectator');
    return u.href;
  }

  /** The page's URL the second player opens. */
  secondPlayerUrl(loc = location) {
    const u = new URL(this.lateJoinUrl(loc));
    u.searchParams.set('role', 'player');
    return u.href;
  }

  status() {
    const st = this.session?.stats;
    return {
      match: this.match, role: this.role, player: this.player, scenario: this.scenario, state: this.state, error: this.error,
      started: this.started, current: this.session !== null ? this.base + this.session.currentTick : this.built?.run.tick ?? 0, confirmed: this.lastConfirmed,
      okThrough: this.okThrough, verdicts: this.verdicts, desyncs: this.desyncs, desyncAt: this.desyncAt,
      lineMismatchAt: this.lineMismatchAt, snapshotTick: this.snapshotTick, snapshotBytes: this.snapshotBytes,
      bytesReceived: this.bytesReceived, tailTicks: this.tailTicks, syncedMs: this.syncedMs, stalls: this.stalls,
      rollbacks: st?.rollbacks ?? 0, deepestRollback: st?.deepestRollback ?? 0,
      hashes: Object.fromEntries([...this.confirmed.entries()].slice(-300)), events: this.events.slice(-8), base: this.base,
      perturbed: this.perturbed === null ? null : { ...this.perturbed },
      desync: { verdictTick: this.desyncAt, opened: this.desyncOpened, closed: this.desyncClosed, report: this.report, errors: this.desyncErrors },
    };
  }

  dispose() {
    try { this.ws.close(); } catch { /* gone */ }
    this.unfeed?.();
    try { this.session?.dispose(); } catch { /* gone */ }
    try { this.built?.world.dispose(); } catch { /* gone */ }
  }
}
