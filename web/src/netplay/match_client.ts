// match_client.ts - the client side of the match server's protocol
// (docs/netplay-protocol.md): requests written as the server's lines, the
// server's replies parsed into typed messages. Transport-agnostic: give it
// a `send` function (a WebSocket's, the relay's) and feed it every message
// that arrives (`receive`). It holds no simulation; a player feeds the
// `input` messages to its RollbackSession, a spectator or late joiner the
// `snapshot` and `confirmed` messages to its world (docs/netplay-protocol.md#late-join-and-spectators),
// and a desynced player its session the server's desync investigation
// (feedDesync: docs/netplay-protocol.md#desync-reports).
import { ErrorCodes, LaigeError, invalid, typeName } from '../base/errors.js';
import { messageFor } from '../base/error_messages.js';
import { describe } from '../base/describe.js';

/** A message of the match server, parsed (docs/netplay-protocol.md#requests-and-replies). */
export type MatchMessage =
  | { type: 'hello'; version: number; scenarios: string[]; spectatorDelay: number }
  | { type: 'created'; match: string; scenario: string; seed: bigint; players: number }
  | { type: 'joined'; match: string; role: 'player' | 'spectator'; player: number | null; token: string | null; players: number; scenario: string; seed: bigint }
  | { type: 'snapshot'; match: string; tick: number; bytes: Uint8Array }
  | { type: 'confirmed'; match: string; tick: number; hash: bigint; inputs: Uint8Array[] }
  | { type: 'input'; match: string; player: number; tick: number; bytes: Uint8Array }
  | { type: 'start'; match: string; tick: number }
  | { type: 'player'; match: string; player: number; event: 'joined' | 'away' | 'back' | 'dropped'; tick: number }
  | { type: 'verdict'; match: string; tick: number }
  | { type: 'desync'; match: string; tick: number; player: number | 'spectator'; expected: bigint; got: bigint }
  | { type: 'desync-open'; match: string; tick: number; expected: bigint }
  | { type: 'desync-closed'; match: string; tick: number; reason: string }
  | { type: 'desync-msg'; match: string; bytes: Uint8Array }
  | { type: 'left'; match: string }
  | { type: 'error'; reason: string; fields: Record<string, string> }
  | { type: 'other'; line: string };

const MATCH_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** The desync exchange's header (docs/desync.md#messages), and the largest message the server takes from a player. */
const DESYNC_HEADER_BYTES = 16;
const MATCH_DESYNC_MAX_BYTES = 96;

/**
 * What MatchClient.feedDesync feeds: a RollbackSession's desync members
 * (created with `checksum: 'stateHash'` and `sendDesync`).
 */
export interface MatchDesyncSession {
  addRemoteHash(tick: number, hash: bigint): void;
  receiveDesync(bytes: Uint8Array): void;
}
const hex = (b: Uint8Array): string => {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s.length === 0 ? '.' : s;
};
const bytesOf = (s: string): Uint8Array => {
  if (s === '.') return new Uint8Array(0);
  const out = new Uint8Array(s.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
};
const fieldsOf = (words: string[]): Record<string, string> =>
  Object.fromEntries(words.map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));

/** Parses one line the server sent to this connection (without the relay's prefix). */
export function parseMatchMessage(line: string): MatchMessage {
  const w = line.split(' ');
  const [verb, m] = w;
  const n = (i: number): number => Number(w[i]);
  switch (verb) {
    case 'hello': return { type: 'hello', version: n(2), scenarios: (w[3] ?? '').split(',').filter((s) => s !== ''), spectatorDelay: Number(fieldsOf(w.slice(4)).spectator_delay ?? 0) };
    case 'created': return { type: 'created', match: m!, scenario: w[2]!, seed: BigInt(w[3]!), players: n(4) };
    case 'joined': return w[2] === 'player'
      ? { type: 'joined', match: m!, role: 'player', player: n(3), token: w[4]!, players: n(5), scenario: w[6]!, seed: BigInt(w[7]!) }
      : { type: 'joined', match: m!, role: 'spectator', player: null, token: null, players: n(5), scenario: w[6]!, seed: BigInt(w[7]!) };
    case 'snapshot': return { type: 'snapshot', match: m!, tick: n(2), bytes: bytesOf(w[3]!) };
    case 'confirmed': return { type: 'confirmed', match: m!, tick: n(2), hash: BigInt(`0x${w[3]}`), inputs: w.slice(4).map(bytesOf) };
    case 'input': return { type: 'input', match: m!, player: n(2), tick: n(3), bytes: bytesOf(w[4]!) };
    case 'start': return { type: 'start', match: m!, tick: n(2) };
    case 'player': return { type: 'player', match: m!, player: n(2), event: w[3] as 'joined' | 'away' | 'back' | 'dropped', tick: n(4) };
    case 'verdict': return { type: 'verdict', match: m!, tick: n(2) };
    case 'desync': {
      const f = fieldsOf(w.slice(3));
      return { type: 'desync', match: m!, tick: n(2), player: f.player === 'spectator' ? 'spectator' : Number(f.player), expected: BigInt(`0x${f.expected}`), got: BigInt(`0x${f.got}`) };
    }
    case 'desync-open': return { type: 'desync-open', match: m!, tick: n(2), expected: BigInt(`0x${w[3]}`) };
    case 'desync-closed': return { type: 'desync-closed', match: m!, tick: n(2), reason: fieldsOf(w.slice(3)).reason ?? '' };
    case 'desync-msg': return { type: 'desync-msg', match: m!, bytes: bytesOf(w[2]!) };
    case 'left': return { type: 'left', match: m! };
    case 'error': return { type: 'error', reason: m ?? '', fields: fieldsOf(w.slice(2)) };
    default: return { type: 'other', line };
  }
}

/**
 * One connection's side of the protocol. Every request checks its
 * arguments first (LaigeError invalid_argument: `wrong_type`,
 * `out_of_range`, `match_bad_id`) and sends nothing when they are bad.
 */
export class MatchClient {
  readonly #send: (line: string) => void;
  readonly #listeners = new Set<(message: MatchMessage) => void>();
  /** Per match wired by feedDesync with a base: the match tick its session's tick 0 is. */
  readonly #bases = new Map<string, { base: number }>();

  /** `send` writes one text message to the server (a WebSocket's send). */
  constructor(send: (line: string) => void) {
    if (typeof send !== 'function') throw invalid(`MatchClient: send must be a function, got ${describe(send)}`, 'wrong_type', { where: 'MatchClient', field: 'send', got: typeName(send) });
    this.#send = send;
  }

  /** Calls `fn` with every message `receive` parses; returns the function that removes it. */
  onMessage(fn: (message: MatchMessage) => void): () => void {
    this.#listeners.add(fn);
    return () => { this.#listeners.delete(fn); };
  }

  /** Feeds one message the transport received; returns it parsed. */
  receive(line: string): MatchMessage {
    const m = parseMatchMessage(String(line));
    for (const fn of [...this.#listeners]) fn(m);
    return m;
  }

  /** `create`: a match of `players` players over a reference scenario (the creator joins as player 0). */
  create(match: string, scenario: string, players: number, seed?: bigint): void {
    const where = 'MatchClient.create';
    if (typeof scenario !== 'string' || !/^[a-z0-9-]{1,32}$/.test(scenario)) throw invalid(`${where}: scenario must be a scenario name, got ${describe(scenario)}`, 'wrong_type', { where, field: 'scenario', got: typeName(scenario) });
    if (seed !== undefined && (typeof seed !== 'bigint' || seed < 0n || seed >= 1n << 64n)) throw invalid(`${where}: seed must be a bigint in 0n..2n**64n-1n, got ${describe(seed)}`, 'out_of_range', { where, field: 'seed' });
    this.#send(`create ${id(where, match)} ${scenario}${seed === undefined ? '' : ` 0x${seed.toString(16)}`} ${int(where, 'players', players, 1, 8)}`);
  }

  /** `join`: as a player (the lowest free slot) or a spectator. */
  join(match: string, role: 'player' | 'spectator'): void {
    const where = 'MatchClient.join';
    if (role !== 'player' && role !== 'spectator') throw invalid(`${where}: role must be 'player' or 'spectator', got ${describe(role)}`, 'wrong_type', { where, field: 'role' });
    this.#send(`join ${id(where, match)} ${role}`);
  }

  /** `rejoin`: takes player slot `player` back inside the reconnect window, with the token its `joined` message gave. */
  rejoin(match: string, player: number, token: string): void {
    const where = 'MatchClient.rejoin';
    if (typeof token !== 'string' || !/^[0-9a-z]{1,32}$/.test(token)) throw invalid(`${where}: token must be the joined message's token, got ${describe(token)}`, 'wrong_type', { where, field: 'token' });
    this.#send(`rejoin ${id(where, match)} ${int(where, 'player', player, 0, 7)} ${token}`);
  }

  /** `input`: this player's input for `tick` (ticks in order, each once). */
  input(match: string, tick: number, bytes: Uint8Array): void {
    const where = 'MatchClient.input';
    if (!(bytes instanceof Uint8Array)) throw invalid(`${where}: bytes must be a Uint8Array, got ${describe(bytes)}`, 'wrong_type', { where, field: 'bytes', got: typeName(bytes) });
    this.#send(`input ${id(where, match)} ${int(where, 'tick', tick, 1, Number.MAX_SAFE_INTEGER)} ${hex(bytes)}`);
  }

  /** `hash`: this peer's confirmed hash of `tick` (World.stateHash: a session with checksum 'stateHash'); the server answers a verdict. */
  hash(match: string, tick: number, hash: bigint): void {
    const where = 'MatchClient.hash';
    if (typeof hash !== 'bigint' || hash < 0n || hash >= 1n << 64n) throw invalid(`${where}: hash must be a bigint in 0n..2n**64n-1n, got ${describe(hash)}`, 'out_of_range', { where, field: 'hash' });
    this.#send(`hash ${id(where, match)} ${int(where, 'tick', tick, 0, Number.MAX_SAFE_INTEGER)} ${hash.toString(16).padStart(16, '0')}`);
  }

  /**
   * `desync-msg`: one message of this player's desync exchange (what its
   * rollback session's `sendDesync` handed over) for the server's open
   * investigation of `match` (docs/netplay-protocol.md#desync-reports).
   * Checked first, nothing sent when bad: `wrong_type` (not a Uint8Array),
   * `out_of_range` (over 96 bytes: a player only sends requests and error
   * messages), `desync_message_malformed` (shorter than its 16-byte header,
   * another version, or a size field that is not its length). While
   * feedDesync wires `match` with a `base`, the message goes out with
   * `base` added to its tick (a copy; `bytes` is not changed).
   */
  desyncMessage(match: string, bytes: Uint8Array): void {
    const where = 'MatchClient.desyncMessage';
    const m = id(where, match);
    if (!(bytes instanceof Uint8Array)) throw invalid(`${where}: bytes must be a Uint8Array, got ${describe(bytes)}`, 'wrong_type', { where, field: 'bytes', got: typeName(bytes) });
    if (bytes.length > MATCH_DESYNC_MAX_BYTES) throw invalid(`${where}: a player's desync message is at most ${MATCH_DESYNC_MAX_BYTES} bytes, got ${bytes.length}`, 'out_of_range', { where, field: 'bytes', got: bytes.length, min: DESYNC_HEADER_BYTES, max: MATCH_DESYNC_MAX_BYTES });
    const what = bytes.length < DESYNC_HEADER_BYTES ? 'header'
      : bytes[1] !== 1 || bytes[2] !== 0 || bytes[3] !== 0 ? 'version'
        : (bytes[4]! | bytes[5]! << 8 | bytes[6]! << 16 | bytes[7]! << 24) !== bytes.length ? 'size' : null;
    if (what !== null) {
      const fields = { size: bytes.length, kind: bytes[0] ?? 0, what };
      throw new LaigeError(ErrorCodes.malformed_input, `${where}: ${messageFor('desync_message_malformed', fields)}`, 'desync_message_malformed', fields);
    }
    const wired = this.#bases.get(m);
    this.#send(`desync-msg ${m} ${hex(wired === undefined ? bytes : shiftTick(bytes, wired.base))}`);
  }

  /**
   * Wires this connection's desync investigations of `match` to `session`
   * (a RollbackSession created with `checksum: 'stateHash'` and
   * `sendDesync: (b) => client.desyncMessage(match, b)`): a `desync-open`
   * message gives the session the server's hash of that tick
   * (`addRemoteHash`, which pins the tick and starts the walk), every
   * `desync-msg` goes to `receiveDesync`, and the report arrives at the
   * session's `onDesync` (docs/netplay-protocol.md#desync-reports). An
   * error the session throws goes to `onError` (by default it is thrown
   * from `receive`).
   *
   * `options.base` (default 0): the match tick the session was created at.
   * A session counts its ticks from its creation (docs/rollback.md, "Session
   * ticks"), so one created mid-match - a player that took over a dropped
   * slot, restored at match tick `base` - runs match tick `base + t` as its
   * tick t, while the server speaks match ticks. With a base, `desync-open`
   * of match tick T gives the session its tick T - base, every `desync-msg`
   * reaches the session with `base` taken off its tick, and desyncMessage
   * of this match adds it back (docs/netplay-protocol.md#a-session-created-mid-match).
   * The report's `tick` is then the session's tick (match tick
   * `base + report.tick`). A `desync-open` of a tick at or before `base`
   * (before the session's first tick: it cannot pin it) goes to `onError`
   * as `out_of_range`. Returns the function that unwires it.
   */
  feedDesync(match: string, session: MatchDesyncSession, onError?: (error: unknown) => void, options: { base?: number } = {}): () => void {
    const where = 'MatchClient.feedDesync';
    const m = id(where, match);
    if (typeof session !== 'object' || session === null || typeof session.addRemoteHash !== 'function' || typeof session.receiveDesync !== 'function') {
      throw invalid(`${where}: session must be a RollbackSession (addRemoteHash, receiveDesync), got ${describe(session)}`, 'wrong_type', { where, field: 'session', got: typeName(session) });
    }
    if (onError !== undefined && typeof onError !== 'function') throw invalid(`${where}: onError must be a function, got ${describe(onError)}`, 'wrong_type', { where, field: 'onError', got: typeName(onError) });
    if (typeof options !== 'object' || options === null) throw invalid(`${where}: options must be an object, got ${describe(options)}`, 'wrong_type', { where, field: 'options', got: typeName(options) });
    const base = options.base === undefined ? 0 : int(where, 'base', options.base, 0, Number.MAX_SAFE_INTEGER);
    const wired = { base };
    if (base === 0) this.#bases.delete(m);
    else this.#bases.set(m, wired);
    const unwire = this.onMessage((msg) => {
      if ((msg.type !== 'desync-open' && msg.type !== 'desync-msg') || msg.match !== m) return;
      try {
        if (msg.type === 'desync-open') {
          if (msg.tick <= base) {
            throw invalid(`${where}: the server investigates match tick ${msg.tick}, at or before the session's first tick (match tick ${base + 1})`, 'out_of_range',
              { where, field: 'tick', got: msg.tick, min: base + 1 });
          }
          session.addRemoteHash(msg.tick - base, msg.expected);
        } else {
          session.receiveDesync(base === 0 ? msg.bytes : shiftTick(msg.bytes, -base));
        }
      } catch (e) {
        if (onError === undefined) throw e;
        onError(e);
      }
    });
    return () => {
      unwire();
      if (this.#bases.get(m) === wired) this.#bases.delete(m);
    };
  }

  /** `leave`: gives up the player slot (dropped at once) or the spectator seat. */
  leave(match: string): void {
    this.#send(`leave ${id('MatchClient.leave', match)}`);
  }
}

/**
 * A copy of desync message `bytes` with `delta` added to its header's u64
 * tick (bytes 8..15, little-endian); a message shorter than the header, or
 * whose tick would go below 0, is returned as it is (the session refuses it).
 */
function shiftTick(bytes: Uint8Array, delta: number): Uint8Array {
  if (bytes.length < DESYNC_HEADER_BYTES) return bytes;
  const out = bytes.slice();
  const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const tick = v.getBigUint64(8, true) + BigInt(delta);
  if (tick < 0n) return bytes;
  v.setBigUint64(8, tick, true);
  return out;
}

function id(where: string, match: unknown): string {
  if (typeof match !== 'string' || !MATCH_ID.test(match)) {
    throw invalid(`${where}: a match id is 1..32 of A-Z a-z 0-9 _ -, got ${describe(match)}`, 'match_bad_id', { where, field: 'match', got: typeof match === 'string' ? match : typeName(match) });
  }
  return match;
}

function int(where: string, field: string, v: unknown, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw invalid(`${where}: ${field} must be an integer in ${min}..${max}, got ${describe(v)}`, typeof v === 'number' ? 'out_of_range' : 'wrong_type', { where, field, got: typeof v === 'number' ? v : typeName(v), min, max });
  }
  return v;
}
