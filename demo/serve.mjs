// serve.mjs - serves the built demo (demo/dist) on localhost and prints its
// URL; runs in the foreground until Ctrl-C. Port: $LAIGE_DEMO_PORT, else 5173,
// else a free one. Host: $LAIGE_DEMO_HOST (default 127.0.0.1).
import { createServer } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), 'dist'));
const host = process.env.LAIGE_DEMO_HOST ?? '127.0.0.1';
const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8', '.png': 'image/png', '.json': 'application/json',
};
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  let file = normalize(join(root, path));
  if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
  try {
    if (statSync(file).isDirectory()) file = join(file, 'index.html');
    res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    res.end(readFileSync(file));
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }
});
const wanted = Number(process.env.LAIGE_DEMO_PORT ?? 5173);
function listen(port) {
  server.once('error', (e) => {
    if (e.code === 'EADDRINUSE' && port !== 0) listen(0);
    else { console.error(`demo server: ${e.message}`); process.exit(1); }
  });
  server.listen(port, host, () => {
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${server.address().port}/`;
    console.log(`laige-sim demo: ${url}   (serving ${root}; Ctrl-C stops it)`);
  });
}
listen(wanted);
process.on('SIGINT', () => { server.close(); process.exit(0); });
process.on('SIGTERM', () => { server.close(); process.exit(0); });
