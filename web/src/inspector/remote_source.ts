// remote_source.ts - an inspector source over a native process
// (docs/inspector.md#native): laige-peer answers `inspect <request>` with
// `inspect <answer>`, the core's inspector about its own run (the same
// code as worldSource's), over the demo server's WebSocket relay or any
// line channel. Answers come back in request order; the peer's history
// (keyframes and re-simulation, cpp/tools/peer_inspect.h) serves seek.
import { LaigeError, invalid, typeName } from '../base/errors.js';
import { describe } from '../base/describe.js';
import { messageFor } from '../base/error_messages.js';
import type { InspectorSource } from './world_source.js';
import { type InspectAnswer, parseAnswer } from './protocol.js';

/** The longest request sent to a peer: laige-peer's line limit (1,024 bytes) less `inspect `, well over the core's limit. */
const MAX_PEER_REQUEST = 1000;

/** A text-line channel to a laige-peer (one line per message, both ways). */
export interface LineChannel {
  /** Sends one line (without '\n'). */
  send(line: string): void;
  /** Calls `handler` with every line received; may return a function that stops it. */
  onLine(handler: (line: string) => void): void | (() => void);
  /** Calls `handler` once when the channel ends (optional). */
  onClose?(handler: () => void): void;
  /** Ends the channel (optional). */
  close?(): void;
}

/** remoteSource's options. */
export interface RemoteSourceOptions {
  /** Lines sent first on a new WebSocket (e.g. `open swarm`), before any request. */
  setup?: string[];
}

function wsChannel(url: string): LineChannel {
  const ws = new WebSocket(url);
  const queued: string[] = [];
  const lines = new Set<(line: string) => void>();
  const closed = new Set<() => void>();
  ws.addEventListener('open', () => { for (const l of queued.splice(0)) ws.send(l); });
  ws.addEventListener('message', (ev) => { for (const h of lines) h(String(ev.data)); });
  ws.addEventListener('close', () => { for (const h of closed) h(); });
  return {
    send: (line) => { if (ws.readyState === WebSocket.OPEN) ws.send(line); else queued.push(line); },
    onLine: (h) => { lines.add(h); return () => lines.delete(h); },
    onClose: (h) => { closed.add(h); },
    close: () => ws.close(),
  };
}

/**
 * An inspector source over a laige-peer: `target` is a WebSocket URL (the
 * demo server's /peer: a new peer process, set up with `options.setup`) or
 * a LineChannel already connected to one (e.g. the page's own peer
 * session). Read-only: the protocol has no write request. Errors, as
 * LaigeErrors: the core's error answers (inspect_* reasons);
 * inspector_peer_refused (the peer refused the line, e.g. no scenario is
 * open: field peer_reason); inspector_disconnected (the channel closed
 * before the answer).
 */
export function remoteSource(target: string | LineChannel, options: RemoteSourceOptions = {}): InspectorSource {
  const where = 'remoteSource';
  const dedicated = typeof target === 'string';
  if (!dedicated && (typeof target !== 'object' || target === null || typeof target.send !== 'function' || typeof target.onLine !== 'function')) {
    throw invalid(`${where}: target must be a WebSocket URL or { send, onLine }, got ${describe(target)}`, 'wrong_type', { where, field: 'target', got: typeName(target) });
  }
  const channel = dedicated ? wsChannel(target) : target;
  const pending: { where: string; resolve: (a: InspectAnswer) => void; reject: (e: unknown) => void }[] = [];
  const hashes = new Map<number, string>();
  let ended = false;
  const fail = (p: (typeof pending)[number], reason: string, fields: Record<string, string>) => {
    p.reject(new LaigeError(2, `${p.where}: ${messageFor(reason, fields)}`, reason, fields));
  };
  const stop = channel.onLine((line) => {
    if (line.startsWith('inspect ')) {
      const p = pending.shift();
      if (p === undefined) return;
      try {
        const a = parseAnswer(line.slice(8), p.where) as InspectAnswer;
        if (a.kind === 'summary') hashes.set(a.tick, a.hash);
        p.resolve(a);
      } catch (e) {
        p.reject(e);
      }
    } else if (line.startsWith('error ') && pending.length > 0) {
      const p = pending.shift()!;
      fail(p, 'inspector_peer_refused', { where: p.where, peer_reason: line.split(' ')[1] ?? '' });
    }
  });
  const end = () => {
    ended = true;
    for (const p of pending.splice(0)) fail(p, 'inspector_disconnected', { where: p.where });
  };
  channel.onClose?.(end);
  for (const l of options.setup ?? []) channel.send(l);
  return {
    ask(request: string): Promise<InspectAnswer> {
      const at = 'InspectorSource.ask';
      if (typeof request !== 'string') return Promise.reject(invalid(`${at}: request must be a string, got ${describe(request)}`, 'wrong_type', { where: at, field: 'request', got: typeName(request) }));
      return new Promise((resolve, reject) => {
        const p = { where: at, resolve, reject };
        if (ended) { fail(p, 'inspector_disconnected', { where: at }); return; }
        pending.push(p);
        // One line (a newline would split it); past the peer's 1,024-byte line the
        // text is cut, still over the core's 256 bytes: the core refuses it with its reason.
        const line = request.replace(/\n/g, ' ');
        channel.send(`inspect ${line.length > MAX_PEER_REQUEST ? line.slice(0, MAX_PEER_REQUEST) : line}`);
      });
    },
    hashAt: (tick) => hashes.get(tick) ?? null,
    close(): void {
      if (typeof stop === 'function') stop();
      end();
      if (dedicated) channel.close?.();
    },
  };
}
