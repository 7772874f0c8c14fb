#!/usr/bin/env bash
# mint-goldens.sh - re-mints the golden `<tick> <hash>` streams in
# tests/golden/ from the native release build of laige-detcheck: one file
# per scenario, ticks 0..600 (LAIGE_GOLDEN_TICKS overrides the 600), each
# scenario's default seed.
#
#   bash scripts/mint-goldens.sh            # all scenarios
#   bash scripts/mint-goldens.sh swarm      # only these
#
# Re-mint ONLY when the simulation changed on purpose (a scenario, a
# system, the state hash): commit the new files together with that change.
# A golden mismatch in one build only (wasm vs native, one compiler) is a
# determinism bug, never a reason to re-mint. docs/determinism.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
ticks="${LAIGE_GOLDEN_TICKS:-600}"
bash scripts/build.sh native-release
detcheck="build/native-release/laige-detcheck"
if [ "$#" -gt 0 ]; then
  names=("$@")
else
  mapfile -t names < <("$detcheck" --list | awk '{print $1}')
fi
mkdir -p tests/golden
for name in "${names[@]}"; do
  out="tests/golden/$name.txt"
  "$detcheck" --scenario="$name" --ticks="$ticks" >"$out.tmp" 2>/dev/null
  mv "$out.tmp" "$out"
  echo "minted $out: $(wc -l <"$out") lines, tick $ticks = $(tail -n 1 "$out" | cut -d' ' -f2)"
done
