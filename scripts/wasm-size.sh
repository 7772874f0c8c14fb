#!/usr/bin/env bash
# wasm-size.sh - prints the size of the @laige/sim wasm module (release) and
# its gzip size, and fails when they exceed the targets (300 KB, 100 KB gzip).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
wasm="$root/wasm/laige_wasm.wasm"
[ -f "$wasm" ] || { echo "wasm-size: $wasm is missing (bash scripts/build.sh wasm)" >&2; exit 1; }
raw=$(wc -c < "$wasm")
gz=$(gzip -9c "$wasm" | wc -c)
echo "laige: wasm module: $raw bytes ($((raw / 1024)) KB), $gz bytes gzip ($((gz / 1024)) KB); targets < 300 KB and < 100 KB gzip"
[ "$raw" -lt 307200 ] && [ "$gz" -lt 102400 ]
