#!/usr/bin/env bash
# run.sh - README command 1: installs what is missing, builds everything
# (native and wasm), and runs the main job: the self-check of both builds.
set -euo pipefail
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
