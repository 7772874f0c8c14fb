#!/usr/bin/env bash
# tests/e2e/run.sh - builds the demo (Vite) and runs the e2e test in chromium
# and firefox-esr (LAIGE_E2E_BROWSERS=chromium runs one).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bash demo/build.sh
node tests/e2e/demo.e2e.mjs demo/dist
