// desync_exchange.ts - the desync report across peers for a rollback
// session (docs/desync.md#across-peers): the remote's confirmed checksums
// compared with the session's, and at the first that differs, the exchange
// of the C++ laige::DesyncExchange (laige/desync_exchange.h) over the
// user's transport. The messages, the answers from the pinned tick and the
// walk are the core's; this file validates, moves bytes in and out of wasm
// memory, and turns the core's report into a DesyncReport.
import { ErrorCodes, LaigeError, coreError, invalid, typeName } from '../base/errors.js';
import { messageFor } from '../base/error_messages.js';
import { describe } from '../base/describe.js';
import { logHandlers, refuseInsideLog, refuseTickInside } from '../base/reentrancy.js';
import type { WorldCore } from '../core/world_core.js';
import { handleOrNull } from '../component/entity.js';
import { type DesyncItem, type DesyncReport, fieldValue } from './desync.js';

/** What the exchange sent and received (docs/desync.md#across-peers). */
export interface DesyncExchangeStats {
  messagesSent: number;
  messagesReceived: number;
  bytesSent: number;
  bytesReceived: number;
  /** Remote hashes received in children answers, and remote leaf payload bytes. */
  hashesReceived: number;
  leafBytesReceived: number;
}

/**
 * What a session's onDesync receives: the DesyncReport of the first tick
 * whose confirmed checksums differ, side A this peer, side B the remote
 * (checksumA this peer's confirmed checksum, checksumB the remote's), plus
 * what the exchange cost.
 */
export interface PeerDesyncReport extends DesyncReport {
  exchange: DesyncExchangeStats;
  /** Milliseconds from the detection (the differing checksum) to the report. */
  ms: number;
}

/** The options of a rollback session that turn the exchange on. */
export interface DesyncExchangeOptions {
  /** Hands one message (its own copy) to the transport, to the remote peer's receiveDesync. */
  sendDesync?: (bytes: Uint8Array) => void;
  /** Called once with the report (on the peer that detected the difference). */
  onDesync?: (report: PeerDesyncReport) => void;
  /** Items kept in the report, 0..65536 (the count covers all). Default 16. */
  desyncMaxItems?: number;
}

/** The largest message receiveDesync accepts (the core's kDesyncMaxMessageBytes). */
export const DESYNC_MAX_MESSAGE_BYTES = 1 << 19;

const WHERE = 'RollbackSession';

/** @internal The exchange of one session (created when options.sendDesync is given). */
export class DesyncLink {
  readonly #core: WorldCore;
  readonly #send: (bytes: Uint8Array) => void;
  readonly #onDesync: ((report: PeerDesyncReport) => void) | null;
  #x: number;
  /** Remote checksums not compared yet, by tick. */
  readonly #remote = new Map<number, bigint>();
  #detected = 0;
  #remoteHash = 0n;
  #localHash = 0n;
  #t0 = 0;
  #delivered = false;

  /** @internal Validates the options; null when the exchange is off (no sendDesync). */
  static create(core: WorldCore, w: number, session: number, o: DesyncExchangeOptions, max: number): DesyncLink | null {
    const where = 'createRollbackSession';
    if (o.sendDesync === undefined) {
      if (o.onDesync !== undefined) throw invalid(`${where}: onDesync needs sendDesync (the transport of the exchange)`, 'wrong_type', { where, field: 'sendDesync', got: 'undefined' });
      return null;
    }
    const m = core.mem;
    const code = core.raw.desyncExchangeCreate(w, session, max, m.out);
    m.sync();
    if (code !== 0) throw coreError(code, where);
    return new DesyncLink(core, m.u32[m.out >>> 2]!, o.sendDesync, o.onDesync ?? null);
  }

  private constructor(core: WorldCore, x: number, send: (bytes: Uint8Array) => void, onDesync: ((report: PeerDesyncReport) => void) | null) {
    this.#core = core;
    this.#x = x;
    this.#send = send;
    this.#onDesync = onDesync;
  }

  /** The first tick found to differ (0 = none yet). */
  get detectedTick(): number {
    return this.#detected;
  }

  /** Keeps the remote's checksum of `tick` (checked by the caller). */
  remember(tick: number, hash: bigint): void {
    // A bounded backlog: the oldest kept tick goes first.
    if (this.#remote.size >= 4096 && !this.#remote.has(tick)) this.#remote.delete(this.#remote.keys().next().value!);
    this.#remote.set(tick, hash);
  }

  /**
   * Compares the kept remote checksums of confirmed ticks with the local
   * ones (`local(t)`: null when no longer kept) and starts the exchange at
   * the first that differs. Runs TypeScript systems (the pin re-runs ticks).
   */
  check(confirmedTick: number, local: (tick: number) => bigint | null): void {
    if (this.#detected !== 0) return;
    // The pin runs ticks: refused inside a system or another callback of the world.
    refuseTickInside(`${WHERE}.addRemoteHash`, this.#core.calls, this.#core.systems.running);
    let first = 0;
    for (const [tick, hash] of this.#remote) {
      if (tick > confirmedTick) continue;
      const mine = local(tick);
      if (mine !== null && mine !== hash && (first === 0 || tick < first)) first = tick;
      this.#remote.delete(tick);
      if (first === tick) {
        this.#remoteHash = hash;
        this.#localHash = mine!;
      }
    }
    if (first === 0) return;
    this.#detected = first;
    this.#t0 = performance.now();
    const where = `${WHERE}.addRemoteHash`;
    const core = this.#core;
    const code = core.systems.guard(() => core.raw.desyncExchangeStart(this.#live(where), first));
    if (code !== 0) throw coreError(code, where);
    this.#drain();
  }

  /** One incoming message of the remote's exchange. */
  receive(bytes: unknown): void {
    const where = `${WHERE}.receiveDesync`;
    if (logHandlers.depth !== 0) refuseInsideLog(where);
    const x = this.#live(where);
    const core = this.#core;
    refuseTickInside(where, core.calls, core.systems.running);
    if (!(bytes instanceof Uint8Array)) throw invalid(`${where}: the message must be a Uint8Array, got ${describe(bytes)}`, 'wrong_type', { where, field: 'bytes', got: typeName(bytes) });
    if (bytes.length > DESYNC_MAX_MESSAGE_BYTES) {
      // The core's reason and fields, without copying the bytes into wasm memory.
      const fields = { size: bytes.length, max: DESYNC_MAX_MESSAGE_BYTES };
      throw new LaigeError(ErrorCodes.malformed_input, `${where}: ${messageFor('desync_message_too_large', fields)}`, 'desync_message_too_large', fields);
    }
    const m = core.mem;
    const p = m.copyIn(bytes);
    let code: number;
    try {
      code = core.systems.guard(() => core.raw.desyncExchangeReceive(x, p, bytes.length));
    } finally {
      core.raw._free(p);
    }
    // Answers (an error answer included) go out before a refusal is thrown.
    this.#drain();
    if (code !== 0) throw coreError(code, where);
    this.#deliver();
  }

  // Hands every queued outgoing message to the transport.
  #drain(): void {
    const raw = this.#core.raw;
    for (;;) {
      const msg = raw.desyncExchangeNextMessage(this.#x);
      if (msg.length === 0) return;
      this.#send(msg.slice());
    }
  }

  #deliver(): void {
    if (this.#delivered || this.#onDesync === null) return;
    const r = this.#core.raw.desyncExchangeReport(this.#x);
    this.#core.mem.sync();
    if (!r.ready) return;
    this.#delivered = true;
    const components = this.#core.components;
    const items: DesyncItem[] = r.items!.map((it) => {
      const systems = it.part === r.systemsPart;
      const c = it.componentId === 0 ? undefined : components[it.componentId];
      const bytesA = it.bytesA === null ? null : Uint8Array.from(it.bytesA);
      const bytesB = it.bytesB === null ? null : Uint8Array.from(it.bytesB);
      return {
        slot: it.slot, componentId: it.componentId, size: it.size, presentInA: it.presentInA, presentInB: it.presentInB,
        component: systems ? '#systems' : c?.name ?? '', bytesA, bytesB,
        entityA: handleOrNull(it.entityA), entityB: handleOrNull(it.entityB), relation: false, targetA: null, targetB: null, text: '',
        field: it.field < 0 ? null : it.fieldName,
        valueA: it.field < 0 ? null : fieldValue(c, it.field, bytesA),
        valueB: it.field < 0 ? null : fieldValue(c, it.field, bytesB),
      };
    });
    const report: PeerDesyncReport = {
      tick: BigInt(`0x${r.tick!}`),
      checkpointsCompared: r.checkpointsCompared!,
      firstSystem: r.firstSystem === 0 ? null : r.firstSystemName!,
      firstSystemId: r.firstSystem!,
      firstSystemPosition: r.firstSystemPosition!,
      differences: r.differences!,
      checksumA: this.#localHash,
      checksumB: this.#remoteHash,
      items,
      exchange: {
        messagesSent: r.messagesSent, messagesReceived: r.messagesReceived, bytesSent: r.bytesSent, bytesReceived: r.bytesReceived,
        hashesReceived: r.hashesReceived, leafBytesReceived: r.leafBytesReceived,
      },
      ms: performance.now() - this.#t0,
    };
    this.#onDesync(report);
  }

  #live(where: string): number {
    if (this.#x === 0) throw invalid(`${where}: the rollback session is disposed (or its world is)`, 'disposed', { where, object: 'RollbackSession' });
    return this.#x;
  }

  /** @internal */
  dispose(): void {
    if (this.#x === 0) return;
    this.#core.raw.desyncExchangeDestroy(this.#x);
    this.#x = 0;
  }
}
