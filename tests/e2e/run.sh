#!/usr/bin/env bash
# tests/e2e/run.sh - builds the demo (Vite) and runs the chromium e2e test.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bash demo/build.sh
node tests/e2e/demo.e2e.mjs demo/dist
