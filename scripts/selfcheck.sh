#!/usr/bin/env bash
# selfcheck.sh - the self-check of both builds, one after the other, as
# scripts/run.sh prints it (and README.md shows it): the native release
# laige-selfcheck, then the same program compiled to wasm, under node. Each
# checks known answers of the core modules and prints the digest of one
# deterministic entity workload; the last line compares the two digests.
# Non-zero when either self-check fails or the digests differ.
# Needs: scripts/build.sh native-release:laige-selfcheck wasm:laige-selfcheck.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
native="$(build/native-release/laige-selfcheck)" || { printf '%s\n' "$native"; exit 1; }
printf '%s\n' "$native"
wasm="$(node --no-experimental-fetch build/wasm/laige-selfcheck.js)" || { printf '%s\n' "$wasm"; exit 1; }
printf '%s\n' "$wasm"
digest() { sed -n 's/^  workload digest: \([0-9a-f]\{16\}\).*/\1/p' <<<"$1"; }
a="$(digest "$native")"
b="$(digest "$wasm")"
if [ -z "$a" ] || [ "$a" != "$b" ]; then
  echo "self-check: the workload digests DIFFER (native ${a:-none}, wasm ${b:-none})"
  exit 1
fi
echo "self-check: native and wasm workload digests agree ($a)"
