#!/usr/bin/env bash
# tests/e2e/run.sh - builds the demo (Vite) and runs the e2e test in chromium
# and firefox-esr (LAIGE_E2E_BROWSERS=chromium runs one), with the native
# peer laige-peer (built here when missing).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bash demo/build.sh
# The live native peer the page checks against (demo/peer_server.mjs runs it).
[ -x build/native-release/laige-peer ] || bash scripts/build.sh native-release:laige-peer
node tests/e2e/demo.e2e.mjs demo/dist
