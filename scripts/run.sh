#!/usr/bin/env bash
# run.sh - README command 1: installs what is missing, builds everything
# (native and wasm), runs the self-check of both builds, then builds the
# browser demo and serves it on localhost (prints the URL; Ctrl-C stops it).
#   --check   instead of serving: runs the demo's live comparison headless in
#             chromium, one verdict line per scenario; non-zero on divergence.
set -euo pipefail
check=0
for arg in "$@"; do
  case "$arg" in
    --check) check=1 ;;
    *) echo "usage: scripts/run.sh [--check]" >&2; exit 2 ;;
  esac
done
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/ensure-deps.sh
laige_ensure_apt
laige_ensure_npm "$root"
bash scripts/build.sh native-release wasm
bash scripts/wasm-size.sh || true
npm run --silent build:ts
echo "== native self-check"
build/native-release/laige-selfcheck
echo "== wasm self-check (node)"
node --no-experimental-fetch build/wasm/laige-selfcheck.js
echo "== browser demo (demo/, Vite)"
bash demo/build.sh
if [ "$check" -eq 1 ]; then
  echo "== demo check (headless chromium: wasm in the browser vs native goldens)"
  exec node tests/e2e/check.mjs demo/dist
fi
exec node demo/serve.mjs demo/dist
