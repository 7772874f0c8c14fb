// peer_server.mjs - the demo server's live native peer endpoint
// (docs/demo.md#native-peer): a WebSocket at /peer (the `ws` package) per
// page session, each backed by its own `laige-peer` child process. The
// server only relays: every WebSocket text message is one request line
// written to the child's stdin, every line the child prints on stdout is
// one message back (the protocol: cpp/tools/peer_session.h). Two lines are
// the server's own: `unavailable <why>` when there is no laige-peer binary,
// and `exit <code|signal>` when the child ended (then the socket closes).
// Closing the socket ends the child (stdin EOF, then SIGTERM after 2 s).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The laige-peer binary: $LAIGE_PEER_BIN, else the release build, else the debug build (null when none exists). */
export function findPeerBinary() {
  const candidates = [process.env.LAIGE_PEER_BIN, join(root, 'build/native-release/laige-peer'), join(root, 'build/native-debug/laige-peer')];
  return candidates.find((f) => f !== undefined && f !== '' && existsSync(f)) ?? null;
}

/**
 * A WebSocketServer for the upgrades of `server` at `path` only. Not `ws`'s
 * own { server, path }: that one answers 400 to every other path's upgrade,
 * so two of them (/peer and /match) could not share one HTTP server.
 */
export function serveWebSocketAt(server, path, options = {}) {
  const wss = new WebSocketServer({ ...options, noServer: true });
  const onUpgrade = (req, socket, head) => {
    if (new URL(req.url, 'http://x').pathname !== path) return;
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };
  server.on('upgrade', onUpgrade);
  wss.on('close', () => server.off('upgrade', onUpgrade));
  return wss;
}

/**
 * Serves /peer on `server` (a node:http Server). Returns { peers(), close() }:
 * peers() lists the live sessions' child processes ({ pid, scenario }) for
 * tests (which may kill one to see the page's disconnected state).
 */
export function attachNativePeer(server, { bin = findPeerBinary(), log = () => {} } = {}) {
  // A plain GET of /peer answers 200 (`x-laige-peer: 1`), so the page can
  // probe for the endpoint before opening a WebSocket: on static hosting
  // the probe gets a 404 and no failed connection is reported.
  const handlers = server.listeners('request');
  server.removeAllListeners('request');
  server.on('request', (req, res) => {
    if (new URL(req.url, 'http://x').pathname === '/peer') {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store', 'x-laige-peer': bin === null ? '0' : '1' });
      res.end(bin === null ? 'laige-peer is not built\n' : 'laige-peer endpoint: open a WebSocket here (docs/demo.md#native-peer)\n');
      return;
    }
    for (const h of handlers) h.call(server, req, res);
  });
  const wss = serveWebSocketAt(server, '/peer', { maxPayload: 64 * 1024 });
  const live = new Set();
  wss.on('connection', (ws) => {
    if (bin === null) {
      ws.send('unavailable laige-peer is not built (bash scripts/run.sh builds build/native-release/laige-peer)');
      ws.close(1011, 'no laige-peer');
      return;
    }
    const child = spawn(bin, [], { stdio: ['pipe', 'pipe', 'ignore'] });
    const entry = { pid: child.pid, scenario: null, child };
    live.add(entry);
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
      if (line.startsWith('ready ')) entry.scenario = line.split(' ')[1];
      if (ws.readyState === ws.OPEN) ws.send(line);
    });
    child.stdin.on('error', () => {}); // EPIPE after the child died: the exit handler reports it
    child.on('error', (e) => { log(`laige-peer: ${e.message}`); });
    child.on('exit', (code, signal) => {
      live.delete(entry);
      if (ws.readyState === ws.OPEN) {
        ws.send(`exit ${signal ?? code}`);
        ws.close(1011, 'laige-peer exited');
      }
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary || child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.write(`${String(data).replace(/\n/g, ' ')}\n`);
    });
    ws.on('close', () => {
      child.stdin.end();
      const t = setTimeout(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM'); }, 2000);
      t.unref();
    });
  });
  return {
    bin,
    peers: () => [...live].map(({ pid, scenario }) => ({ pid, scenario })),
    close: () => {
      for (const e of live) e.child.kill('SIGTERM');
      for (const c of wss.clients) c.terminate();
      return new Promise((r) => wss.close(() => r()));
    },
  };
}
