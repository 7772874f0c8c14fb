#!/usr/bin/env bash
# wasm_vs_native.sh - the same C++ passes (bench/pass_timing.cpp) natively and
# inside wasm under node, run alternately 3 times each so that load on this
# shared machine hits both sides alike; prints the best of each and the
# ratio wasm / native (target <= 1.5x). Benchmarks assert nothing.
#
#   bash scripts/build.sh native-release wasm && bash bench/wasm_vs_native.sh
#
# node runs with --no-liftoff: V8 first runs wasm through its baseline
# compiler and tiers up in the background, so the first passes would time
# the baseline code (measured: 1.7 vs 0.8 ns per entity for the same loop).
set -euo pipefail
cd "$(dirname "$0")/.."
native=build/native-release/laige_pass_timing
wasm=build/wasm/laige_pass_timing.js
for f in "$native" "$wasm"; do
  [[ -f $f ]] || { echo "wasm_vs_native: $f is missing (bash scripts/build.sh native-release wasm)" >&2; exit 2; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for round in 1 2 3; do
  "$native" > "$out/native.$round"
  node --no-liftoff --no-experimental-fetch "$wasm" > "$out/wasm.$round"
done
echo "C++ passes, wasm (node $(node --version), V8 TurboFan) vs native (g++ -O3), best of 3 alternating runs"
awk '
  FNR == 1 { side = (FILENAME ~ /native/) ? "native" : "wasm" }
  $1 == "pass" {
    key = $2; unit[key] = $4
    if (!(key in order)) { order[key] = ++n; names[n] = key }
    v = $3 + 0
    if (side == "native") { if (!(key in nat) || v < nat[key]) nat[key] = v }
    else { if (!(key in wa) || v < wa[key]) wa[key] = v }
  }
  END {
    printf "%-18s %14s %14s %8s  %s\n", "pass", "native", "wasm", "ratio", "unit"
    for (i = 1; i <= n; i++) {
      k = names[i]
      printf "%-18s %14.3f %14.3f %7.2fx  %s\n", k, nat[k], wa[k], wa[k] / nat[k], unit[k]
    }
  }' "$out"/native.* "$out"/wasm.*
