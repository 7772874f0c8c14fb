#!/usr/bin/env bash
# demo/build.sh - builds the browser demo into demo/dist: the @laige/sim
# package first when dist/ or wasm/ is missing, then Vite (which copies the
# native golden streams tests/golden/*.txt into the demo's assets).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export NODE_PATH=/usr/share/nodejs
if [ ! -f wasm/laige_wasm.wasm ] || [ ! -f wasm/laige_wasm.mjs ]; then bash scripts/build.sh wasm; fi
if [ ! -f dist/index.js ]; then npm run --silent build:ts; fi
node demo/ts-golden.mjs
npx --no-install vite build --config demo/vite.config.mjs
