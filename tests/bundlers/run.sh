#!/usr/bin/env bash
# tests/bundlers/run.sh - packs @laige/sim, installs the tarball into a fresh
# app folder (tests/bundlers/app), builds it with esbuild, webpack 5, Rollup
# and Vite and loads each in headless chromium, plus plain Node 20
# (bundlers.test.mjs says what each must compute). Needs dist/ and wasm/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
if [ -z "${LAIGE_KEEP_TMP:-}" ]; then trap 'rm -rf "$tmp"' EXIT; else echo "bundlers: keeping $tmp"; fi
cd "$root"
for f in dist/index.js dist/embedded.js wasm/laige_wasm.mjs wasm/laige_wasm.wasm wasm/laige_wasm.base64.mjs; do
  [ -f "$f" ] || { echo "bundlers: $f is missing (npm run build)" >&2; exit 1; }
done
tgz="$(npm pack --silent --pack-destination "$tmp" | tail -n 1)"
mkdir "$tmp/app"
cp tests/bundlers/app/* "$tmp/app/"
echo '{ "name": "bundler-app", "private": true, "type": "module" }' > "$tmp/app/package.json"
(cd "$tmp/app" && npm install --no-audit --no-fund --loglevel=error "../$tgz")
node tests/bundlers/bundlers.test.mjs "$tmp/app" "$tmp/out"
