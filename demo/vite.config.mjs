// Vite config of the @laige/sim demo. The page imports '@laige/sim/scenarios'
// (the API with the module that holds the C++ scenarios) as a user would;
// the aliases point at the built package (dist/ + wasm/, `npm run
// build`). The native golden streams (tests/golden, written by laige-detcheck
// of this commit) are copied into public/golden/ whenever Vite starts.
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { ISOLATION_HEADERS } from './serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const goldenSrc = resolve(root, 'tests/golden');
const goldenDst = resolve(here, 'public/golden');
mkdirSync(goldenDst, { recursive: true });
if (existsSync(goldenSrc)) {
  for (const f of readdirSync(goldenSrc)) if (f.endsWith('.txt')) copyFileSync(resolve(goldenSrc, f), resolve(goldenDst, f));
}

export default defineConfig({
  root: here,
  base: './',
  logLevel: 'warn',
  resolve: {
    alias: [
      { find: /^@laige\/sim$/, replacement: resolve(root, 'dist/index.js') },
      { find: /^@laige\/sim\/scenarios$/, replacement: resolve(root, 'dist/scenarios.js') },
      { find: /^@laige\/sim\/inspector$/, replacement: resolve(root, 'dist/inspector.js') },
    ],
  },
  build: { outDir: resolve(here, 'dist'), emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2000 },
  // The same cross-origin isolation as demo/serve.mjs (finer performance.now()).
  server: { host: '127.0.0.1', fs: { allow: [root] }, headers: ISOLATION_HEADERS },
  preview: { host: '127.0.0.1', headers: ISOLATION_HEADERS },
});
