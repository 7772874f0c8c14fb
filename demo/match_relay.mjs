// match_relay.mjs - the WebSocket side of the match server
// (docs/netplay-protocol.md#transport-one-stream-many-connections): one
// `laige-peer --serve` child process hosts every match; this relay owns the
// sockets (the `ws` package) and multiplexes them over the child's stdin and
// stdout. Each socket gets a connection id; each text message it sends is
// one request line `<conn> <message>`; each line the child prints,
// `<conn> <reply>`, goes to that socket without its prefix; a closed socket
// is `<conn> closed`.
//
// What the relay refuses itself, so that no client can reach another's
// connection or stall the others (the reply is `error <reason> ...`, the
// protocol's form, and the message is not forwarded):
//   - relay_bad_message: a binary message, or one with a line break (which
//     would let a client write a line for another connection's id);
//   - relay_message_too_long: over MAX_MESSAGE bytes (the server's line limit
//     minus the longest prefix);
//   - a socket whose unsent replies pass MAX_BUFFERED bytes is closed (1013):
//     a client that does not read cannot make the relay hold the server's
//     output for it without bound.
// HTTP: GET <path>/health answers the server's `health` line (200 when
// `health ok`, 503 when draining or the child is gone): the readiness and
// capacity figure an orchestrator polls. drain() stops
// new matches (running ones go on).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { findPeerBinary, serveWebSocketAt } from './peer_server.mjs';

/** The longest message a client may send (the server's 1,024-byte line less a 20-digit prefix and its space). */
export const MAX_MESSAGE = 1024 - 21;
/** Unsent reply bytes a socket may have before it is closed as too slow (a late join's snapshot line fits many times). */
export const MAX_BUFFERED = 16 * 1024 * 1024;
/**
 * Replies of this many bytes or more are sent compressed (permessage-deflate,
 * zlib level 1) to a client that offers it (browsers and `ws` do): a late
 * join's snapshot line is hex and shrinks 5-9x in well under a millisecond
 * (docs/netplay-protocol.md#what-a-late-join-costs); the per-tick lines are
 * far shorter and go as they are.
 */
export const COMPRESS_ABOVE = 4096;
/** The connection id the relay itself uses for health and drain (sockets get 2, 3, ...). */
const RELAY_CONN = 1;

/**
 * Serves the match server on `server` (a node:http Server) at `path`.
 * Options: bin (the laige-peer binary; default as the native peer's),
 * threads, maxMatches, reconnectTicks, snapshotEvery, spectatorDelay (the
 * --serve flags), compressAbove (the permessage-deflate threshold in bytes,
 * null: never compress), log (a function for diagnostics).
 * Returns { ready (a promise of the hello line), pid, health(), drain(), connections(), close() }.
 */
export function attachMatchServer(server, { path = '/match', bin = findPeerBinary(), threads, maxMatches, reconnectTicks, snapshotEvery, spectatorDelay, compressAbove = COMPRESS_ABOVE, log = () => {} } = {}) {
  if (bin === null) throw new Error('attachMatchServer: laige-peer is not built (bash scripts/build.sh native-release)');
  const args = ['--serve'];
  if (threads !== undefined) args.push('--threads', String(threads));
  if (maxMatches !== undefined) args.push('--max-matches', String(maxMatches));
  if (reconnectTicks !== undefined) args.push('--reconnect-ticks', String(reconnectTicks));
  if (snapshotEvery !== undefined) args.push('--snapshot-every', String(snapshotEvery));
  if (spectatorDelay !== undefined) args.push('--spectator-delay', String(spectatorDelay));
  const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.on('data', (d) => log(`laige-peer --serve: ${String(d).trimEnd()}`));
  child.stdin.on('error', () => {}); // EPIPE after the child died: its exit handler reports it
  let exited = null;
  const sockets = new Map(); // conn id -> ws
  let nextConn = RELAY_CONN + 1;
  const relayWaiters = []; // resolvers of the relay's own requests, in order
  let hello;
  const ready = new Promise((resolve, reject) => {
    hello = resolve;
    child.on('error', reject);
  });

  createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
    const space = line.indexOf(' ');
    const conn = Number(line.slice(0, space));
    const reply = line.slice(space + 1);
    if (conn === 0) {
      if (reply.startsWith('hello ')) hello(reply);
      else log(`laige-peer --serve: ${reply}`);
      return;
    }
    if (conn === RELAY_CONN) {
      relayWaiters.shift()?.(reply);
      return;
    }
    const ws = sockets.get(conn);
    if (ws === undefined || ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED) {
      log(`closing connection ${conn}: ${ws.bufferedAmount} unsent reply bytes, over ${MAX_BUFFERED}`);
      ws.close(1013, 'too slow: unsent replies over the relay limit');
      return;
    }
    ws.send(reply);
  });
  child.on('exit', (code, signal) => {
    exited = signal ?? code;
    for (const resolve of relayWaiters.splice(0)) resolve(null);
    for (const ws of sockets.values()) {
      if (ws.readyState === ws.OPEN) {
        ws.send(`exit ${exited}`);
        ws.close(1011, 'laige-peer --serve exited');
      }
    }
  });

  const ask = (request) => new Promise((resolve) => {
    if (exited !== null) { resolve(null); return; }
    relayWaiters.push(resolve);
    child.stdin.write(`${RELAY_CONN} ${request}\n`);
  });

  // GET <path>/health before any other handler (the WebSocket upgrade keeps <path> itself).
  const handlers = server.listeners('request');
  server.removeAllListeners('request');
  server.on('request', async (req, res) => {
    if (new URL(req.url, 'http://x').pathname === `${path}/health`) {
      const line = await ask('health');
      res.writeHead(line !== null && line.startsWith('health ok') ? 200 : 503, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      res.end(`${line ?? `laige-peer --serve exited (${exited})`}\n`);
      return;
    }
    for (const h of handlers) h.call(server, req, res);
  });

  // No context takeover: each compressed message stands alone, so a socket
  // keeps no zlib window between its (rare) large replies.
  const perMessageDeflate = compressAbove === null ? false : {
    threshold: compressAbove, zlibDeflateOptions: { level: 1 }, serverNoContextTakeover: true, clientNoContextTakeover: true,
  };
  const wss = serveWebSocketAt(server, path, { maxPayload: 64 * 1024, perMessageDeflate });
  wss.on('connection', (ws) => {
    if (exited !== null) {
      ws.close(1011, 'laige-peer --serve exited');
      return;
    }
    const conn = nextConn++;
    sockets.set(conn, ws);
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? null : String(data);
      if (text === null || /[\r\n]/.test(text)) {
        ws.send(`error relay_bad_message why=${isBinary ? 'binary' : 'line_break'}`);
        return;
      }
      if (Buffer.byteLength(text) > MAX_MESSAGE) {
        ws.send(`error relay_message_too_long bytes=${Buffer.byteLength(text)} max=${MAX_MESSAGE}`);
        return;
      }
      if (exited === null) child.stdin.write(`${conn} ${text}\n`);
    });
    ws.on('close', () => {
      sockets.delete(conn);
      if (exited === null) child.stdin.write(`${conn} closed\n`);
    });
  });

  return {
    ready,
    /** The server process's pid (for a load test's CPU and memory figures). */
    pid: child.pid,
    /** The server's `health` line (null once the child is gone). */
    health: () => ask('health'),
    /** Stops new matches (`draining matches=<n>`); running matches go on. */
    drain: () => ask('drain'),
    /** Open sockets. */
    connections: () => sockets.size,
    close: () => {
      for (const c of wss.clients) c.terminate();
      child.stdin.end();
      const t = setTimeout(() => { if (exited === null) child.kill('SIGTERM'); }, 2000);
      t.unref();
      return new Promise((r) => wss.close(() => r()));
    },
  };
}
