// peer.js - the page's side of the live native peer (docs/demo.md#native-peer).
//
// demo/serve.mjs runs one native `laige-peer` process per WebSocket at
// /peer and relays text lines both ways (the protocol is in
// cpp/tools/peer_session.h): the page opens the scenario with its seed,
// sends every tick's input payload as the tick runs (`step <tick> -` for
// the scenario's own generator, else the payload bytes in hex), and the
// peer answers `hash <tick> <hash>`, the native stateHash of that tick. The
// link compares it with the page's own hash of the same tick: MATCH through
// the last answered tick, or DIVERGED at the first differing tick. Each step
// also carries the page's hash, so the peer keeps its own state of the first
// tick that differs; the page keeps its recent states (snapshot_ring.js). On
// a divergence it asks the peer for that snapshot (`snapshot`) and takes its
// own of the same tick; diffOf() restores both into scratch worlds of the
// scenario and diffs them: the stateDiff of exactly the diverged tick.
//
// States: connecting, open (checking), static (no /peer endpoint: static
// hosting), unavailable (the server has no laige-peer binary), disconnected
// (the peer or the server went away mid-run), error (the peer refused a
// request), closed (the page ended the session).

const hexOf = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function bytesOf(hex) {
  const out = new Uint8Array(hex.length >>> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

/** The WebSocket URL of the peer endpoint next to the page. */
export function peerUrl(loc = location) {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}${loc.pathname.replace(/[^/]*$/, '')}peer`;
}

/**
 * A live native peer session for one scenario run.
 * `pageHash(tick)` returns the page's hex hash of `tick` (or undefined);
 * `onChange()` is called whenever the state or the verdict changes;
 * `onAnswer(tick, hash)`, if given, with every native hash.
 */
export class NativePeer {
  constructor({ scenario, seed, pageHash, onChange = () => {}, onAnswer = null, url = peerUrl() }) {
    this.scenario = scenario;
    this.seed = seed;
    this.pageHash = pageHash;
    this.onChange = onChange;
    this.onAnswer = onAnswer;
    this.state = 'connecting';
    this.detail = '';
    this.matchedThrough = -1;
    this.lastAnswered = -1;
    this.sent = 0;
    this.divergedAt = null;
    this.mismatch = null;
    this.peerSnapshot = null;
    this.pageSnapshot = null;
    this.pending = [];
    this.ws = null;
    this.opened = false;
    /** Handlers of the peer's `inspect` answers (channel()). */
    this.inspectLines = new Set();
    this.#connect(url);
  }

  async #connect(url) {
    // Probe first (a plain GET of the endpoint): static hosting answers 404
    // and the page never opens a WebSocket that would fail.
    const probe = url.replace(/^ws/, 'http');
    try {
      const r = await fetch(probe, { cache: 'no-store' });
      if (!r.ok || r.headers.get('x-laige-peer') === null) {
        this.#set('static', `no native peer endpoint at ${probe} (HTTP ${r.status})`);
        return;
      }
    } catch (e) {
      this.#set('static', `no native peer endpoint at ${probe} (${e?.message ?? e})`);
      return;
    }
    if (this.state !== 'connecting') return; // closed meanwhile
    try {
      this.ws = new WebSocket(url);
    } catch (e) {
      this.#set('static', String(e?.message ?? e));
      return;
    }
    this.ws.onopen = () => { this.opened = true; };
    this.ws.onmessage = (ev) => this.#line(String(ev.data));
    this.ws.onerror = () => {};
    this.ws.onclose = () => {
      if (this.state === 'closed' || this.state === 'unavailable') return;
      if (!this.opened) this.#set('static', 'no native peer endpoint at /peer');
      else if (this.state !== 'error') this.#set('disconnected', this.detail || 'the connection closed');
    };
  }

  /** True once the peer answered the open. */
  get live() { return this.state === 'open'; }

  /**
   * Ticks sent and not answered yet; while connecting, every tick sent (the
   * page's fast mode waits for the peer); 0 once there is no peer to wait for.
   */
  backlog() {
    if (this.state === 'open') return this.sent - this.lastAnswered;
    return this.state === 'connecting' ? Math.max(1, this.sent) : 0;
  }

  #set(state, detail = '') {
    if (state !== 'connecting') this.pending.length = 0; // nothing will send them now
    this.state = state;
    this.detail = detail;
    this.onChange();
  }

  #send(line) {
    // Until the peer answered the open, requests wait (in order) for it.
    if (this.state === 'connecting') this.pending.push(line);
    else if (this.state === 'open' && this.ws?.readyState === 1) this.ws.send(line);
  }

  #line(line) {
    const [verb, a, b, c, d] = line.split(' ');
    if (verb === 'inspect') {
      for (const h of this.inspectLines) h(line);
    } else if (verb === 'hello') {
      this.version = `${a} ${b}`;
      this.ws.send(`open ${this.scenario} 0x${this.seed.toString(16)}`);
    } else if (verb === 'ready') {
      // The peer's tick 0 is checked like every other tick.
      this.state = 'open';
      for (const l of this.pending) this.ws.send(l);
      this.pending.length = 0;
      this.#answer(Number(c), d);
      this.onChange();
    } else if (verb === 'hash') {
      this.#answer(Number(a), b);
    } else if (verb === 'snapshot') {
      this.peerSnapshot = { tick: Number(a), bytes: bytesOf(b ?? '') };
      this.onChange();
    } else if (verb === 'unavailable') {
      this.#set('unavailable', line.slice(12));
    } else if (verb === 'exit') {
      // The server's note that the peer process ended (before it closes the socket).
      this.detail = `the laige-peer process ended (${line.slice(5)})`;
    } else if (verb === 'error') {
      this.#set('error', line.slice(6));
    }
  }

  #answer(tick, hash) {
    this.lastAnswered = tick;
    this.onAnswer?.(tick, hash);
    if (this.divergedAt !== null) return;
    const mine = this.pageHash(tick);
    if (mine === hash) {
      this.matchedThrough = tick;
    } else {
      this.divergedAt = tick;
      this.mismatch = { tick, wasm: mine, native: hash };
      this.onDivergence?.(tick);
      this.onChange();
    }
  }

  /**
   * Sends tick `tick`'s input: `payload` (Uint8Array) or undefined for the
   * scenario's own generator, with the page's hash of the tick (16 hex
   * digits) when given.
   */
  step(tick, payload, pageHash) {
    this.sent = tick;
    this.#send(`step ${tick} ${payload === undefined ? '-' : payload.length === 0 ? '.' : hexOf(payload)}${pageHash === undefined ? '' : ` ${pageHash}`}`);
  }

  /** True while the peer is, or may soon be, checking the ticks sent. */
  get checking() {
    return this.state === 'connecting' || this.state === 'open';
  }

  /**
   * Asks for the peer's state (its snapshot of the first tick whose hash
   * differed from the page's) and keeps `pageBytes`, the page's own
   * snapshot of tick `tick`.
   */
  requestSnapshot(tick, pageBytes) {
    this.pageSnapshot = { tick, bytes: pageBytes };
    this.#send('snapshot');
  }

  /**
   * The stateDiff of the page's and the peer's snapshots (page = A, native
   * = B) once both are here: restored into two scratch worlds of the
   * scenario from `open()` ({ world } objects, disposed here). Null until then.
   */
  diffOf(open, maxItems = 24) {
    if (this.peerSnapshot === null || this.pageSnapshot === null) return null;
    const a = open();
    const b = open();
    try {
      a.world.restore(this.pageSnapshot.bytes);
      b.world.restore(this.peerSnapshot.bytes);
      return { tick: this.peerSnapshot.tick, pageTick: this.pageSnapshot.tick, ...a.world.stateDiff(b.world, maxItems) };
    } finally {
      a.world.dispose();
      b.world.dispose();
    }
  }

  /**
   * A line channel for the live inspector's remoteSource on this session's
   * connection: `inspect <request>` lines out, `inspect <answer>` lines in.
   */
  channel() {
    return {
      send: (line) => this.#send(line),
      onLine: (h) => { this.inspectLines.add(h); return () => this.inspectLines.delete(h); },
    };
  }

  /** Ends the session (the server ends the peer process). */
  close() {
    if (this.state === 'closed') return;
    this.state = 'closed';
    const ws = this.ws;
    // A socket closed while still connecting makes Firefox report a page
    // error ("can't establish a connection"): that one is closed once open.
    if (ws?.readyState === 0) {
      ws.onopen = () => ws.close();
      return;
    }
    try { ws?.close(); } catch { /* already closed */ }
  }
}

/** The peer's `error <reason> k=v ...` line in plain words (docs/errors.md#native-peer-reasons). */
function refusal(detail) {
  const [reason, ...kv] = detail.split(' ');
  const f = Object.fromEntries(kv.map((x) => x.split('=')));
  const why = {
    peer_no_scenario: 'a step came before the scenario was opened',
    peer_tick_order: `it expected tick ${f.expected} and got tick ${f.got}`,
    peer_bad_payload: 'a tick\'s payload was not 2 hex digits per byte (at most 256 bytes)',
    peer_bad_request: 'a request it does not understand',
    peer_line_too_long: `a request line of ${f.bytes ?? 'over 1024'} bytes (1024 at most)`,
    scenario_unknown: `it has no scenario '${f.scenario}'`,
  }[reason] ?? 'a tick failed natively';
  return `refused a request: ${why} (${detail})`;
}

/** The one-line verdict of a peer session (the page's "native peer: ..." line). */
export function peerVerdict(p, { fallback = 'checking against goldens' } = {}) {
  if (p === null) return { kind: 'pending', text: 'native peer: n/a (no native twin of this scenario)' };
  switch (p.state) {
    case 'connecting': return { kind: 'pending', text: 'native peer: connecting…' };
    case 'static': return { kind: 'pending', text: `native peer: not running (static hosting) — ${fallback}` };
    case 'unavailable': return { kind: 'pending', text: `native peer: not available (${p.detail}) — ${fallback}` };
    case 'error': return { kind: 'error', text: `native peer: ${refusal(p.detail)}` };
    default: break;
  }
  if (p.divergedAt !== null) return { kind: 'diverged', text: `native peer: DIVERGED at tick ${p.divergedAt}` };
  if (p.state === 'disconnected') {
    const at = Math.max(0, p.lastAnswered);
    return { kind: 'error', text: `native peer: disconnected at tick ${at} (MATCH through tick ${at}; ${p.detail})` };
  }
  if (p.state === 'closed') return { kind: 'pending', text: 'native peer: closed' };
  return { kind: 'match', text: `native peer: MATCH through tick ${Math.max(0, p.matchedThrough)}` };
}
