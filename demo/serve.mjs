// serve.mjs - serves the built demo (demo/dist) on localhost and prints its
// URL; runs in the foreground until Ctrl-C. Port: $LAIGE_DEMO_PORT, else 5173,
// else a free one. Host: $LAIGE_DEMO_HOST (default 127.0.0.1). The e2e
// harness (tests/e2e/harness.mjs) serves the page through staticHandler too.
// Beside the files it serves the live native peer at /peer (peer_server.mjs:
// one laige-peer child per page session); LAIGE_DEMO_PEER=off serves the
// files only, as static hosting would. With laige-peer built it also serves
// the match server at /match (match_relay.mjs: one `laige-peer --serve` for
// every match; docs/netplay-protocol.md), its health at /match/health.
import { createServer } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { attachNativePeer } from './peer_server.mjs';
import { attachMatchServer } from './match_relay.mjs';

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.txt': 'text/plain; charset=utf-8', '.png': 'image/png', '.json': 'application/json',
};

/**
 * Cross-origin isolation: with these two headers the page is
 * crossOriginIsolated and Chromium's performance.now() resolves 5 us
 * instead of 100 us, so the frame graph can show the C++ systems' timings
 * (most run well under 0.1 ms). Everything the page loads is same-origin.
 */
export const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

/** A request handler serving the files under `dir` (index.html for directories). */
export function staticHandler(dir) {
  const root = resolve(dir);
  return (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store', ...ISOLATION_HEADERS });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), 'dist'));
  const host = process.env.LAIGE_DEMO_HOST ?? '127.0.0.1';
  const server = createServer(staticHandler(root));
  const peer = process.env.LAIGE_DEMO_PEER === 'off' ? null : attachNativePeer(server, { log: (m) => console.error(m) });
  const matches = peer === null || peer.bin === null ? null : attachMatchServer(server, { bin: peer.bin, log: (m) => console.error(m) });
  const wanted = Number(process.env.LAIGE_DEMO_PORT ?? 5173);
  const listen = (port) => {
    server.once('error', (e) => {
      if (e.code === 'EADDRINUSE' && port !== 0) listen(0);
      else { console.error(`demo server: ${e.message}`); process.exit(1); }
    });
    server.listen(port, host, () => {
      const url = `http://${host.includes(':') ? `[${host}]` : host}:${server.address().port}/`;
      console.log(`laige-sim demo: ${url}   (serving ${root}; Ctrl-C stops it)`);
      console.log(peer === null ? 'native peer: off (LAIGE_DEMO_PEER=off)'
        : peer.bin === null ? 'native peer: laige-peer is not built; the page checks against the goldens only'
          : `native peer: ${peer.bin} per page session at ${url.replace(/^http/, 'ws')}peer`);
      if (matches !== null) console.log(`match server: ${url.replace(/^http/, 'ws')}match (health: ${url}match/health)`);
    });
  };
  listen(wanted);
  const stop = () => { peer?.close(); matches?.close(); server.close(); process.exit(0); };
  process.on('SIGINT', stop);
  // SIGTERM drains first (docs/scaling.md#draining): no new match, the
  // running ones play to their end, then the process exits; at most
  // $LAIGE_DRAIN_SECONDS (default 600) after which it stops anyway.
  process.on('SIGTERM', async () => {
    if (matches === null) stop();
    const deadline = Date.now() + 1000 * Number(process.env.LAIGE_DRAIN_SECONDS ?? 600);
    console.log(`match server: ${await matches.drain()}`);
    const poll = async () => {
      const line = await matches.health();
      if (line === null || / matches=0 /.test(line) || Date.now() >= deadline) stop();
      else setTimeout(poll, 1000);
    };
    poll();
  });
}
