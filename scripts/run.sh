#!/usr/bin/env bash
# run.sh - README command 1: installs what is missing, builds what the main
# job needs (the native release tools and the wasm module, in parallel; the
# npm package; the demo), runs the self-check of both builds, then serves the
# browser demo on localhost (prints the URL; Ctrl-C stops it), with the live
# native peer (laige-peer, one per page session) at its /peer WebSocket.
#   --check   instead of serving: runs the demo's live comparison headless in
#             chromium, one verdict line per scenario; non-zero on divergence.
# The GoogleTest suites and the benchmarks are not built here: scripts/test.sh
# builds and runs everything.
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
start=$SECONDS
step() { echo "== [$((SECONDS - start)) s] $*"; }
source scripts/ensure-deps.sh
laige_ensure_apt
laige_ensure_npm "$root"

step "building native release tools and the wasm module (in parallel)"
# Only the targets the main job runs (ninja builds their dependencies); the
# boundary (web/boundary.json, web/layouts.json) is generated first.
node scripts/gen-boundary.mjs
bash scripts/build.sh --progress native-release:laige-selfcheck,laige-detcheck,laige-replay,laige-peer &
native=$!
bash scripts/build.sh --progress wasm:wasm-module,wasm-module-scenarios,laige-selfcheck &
wasm=$!
failed=0
wait "$native" || failed=1
wait "$wasm" || failed=1
if [ "$failed" -ne 0 ]; then echo "laige: a build failed (logs: build/native-release.log, build/wasm.log)" >&2; exit 1; fi
bash scripts/wasm-size.sh || true

step "building @laige/sim (tsc, embedded wasm)"
npm run --silent build:ts

step "self-check of both builds (native, then wasm under node)"
bash scripts/selfcheck.sh

step "building the browser demo (demo/, Vite)"
bash demo/build.sh
if [ "$check" -eq 1 ]; then
  step "demo check (headless chromium: wasm in the browser vs native goldens)"
  node tests/e2e/check.mjs demo/dist
  step "done"
  exit 0
fi
step "serving the demo"
exec node demo/serve.mjs demo/dist
