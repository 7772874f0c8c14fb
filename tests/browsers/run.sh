#!/usr/bin/env bash
# tests/browsers/run.sh - the browser determinism suite: every C++ scenario's
# stream against its golden, the TypeScript-systems scenarios against Node,
# and replays recorded in the page against native laige-replay, in Debian's
# firefox-esr and chromium (determinism.mjs). Then a self-check that the
# suite can fail: a temporary copy of the goldens with one wrong line, and
# wrong reference hashes for the TS stream and the replay, must each give
# a FAIL line and a non-zero exit.
# Needs: dist/ + wasm/ (npm run build) and build/native-release/laige-replay
# (both are built when missing).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
export NODE_PATH=/usr/share/nodejs
set -e
if [ ! -f wasm/laige_wasm.wasm ] || [ ! -f wasm/laige_wasm.mjs ]; then bash scripts/build.sh wasm; fi
if [ ! -f dist/index.js ]; then npm run --silent build:ts; fi
if [ -z "${LAIGE_REPLAY:-}" ] && [ ! -x build/native-release/laige-replay ] && [ ! -x build/native-debug/laige-replay ]; then
  bash scripts/build.sh native-release
fi
set +e

rc=0
node tests/browsers/determinism.mjs "$@" || rc=1

# Self-check (firefox, one scenario, one replay): each check must FAIL at tick 100.
tmp="$(mktemp -d /tmp/laige-browsers-selfcheck-XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
cp tests/golden/*.txt "$tmp/"
awk '$1 == 100 { $2 = (substr($2, 1, 1) == "0" ? "f" : "0") substr($2, 2) } { print }' tests/golden/swarm.txt >"$tmp/swarm.txt"
if cmp -s "$tmp/swarm.txt" tests/golden/swarm.txt; then echo "self-check: the golden copy was not changed" >&2; exit 1; fi
# ... and one math known answer with its result flipped in the last bit.
awk '$2 == "sin" && !done { $NF = substr($NF, 1, 7) (substr($NF, 8, 1) == "0" ? "1" : "0"); done = 1 } { print }' \
  tests/kat/math_kat.txt >"$tmp/math_kat.txt"
if cmp -s "$tmp/math_kat.txt" tests/kat/math_kat.txt; then echo "self-check: the math table copy was not changed" >&2; exit 1; fi
node tests/browsers/determinism.mjs --browsers firefox --golden-dir "$tmp" --scenarios swarm --replays swarm \
  --corrupt-reference-tick 100 --math-kat "$tmp/math_kat.txt" >"$tmp/out.txt" 2>&1
self_rc=$?
sc_ok=1
[ "$self_rc" -ne 0 ] || { echo "self-check: exit 0 with wrong references" >&2; sc_ok=0; }
for want in 'FAIL firefox  scenario swarm: DIVERGED at tick 100 ' 'FAIL firefox  ts ts-orbits: DIVERGED at tick 100 ' \
  'FAIL firefox  replay swarm .*laige-replay exit 1: hash mismatch at tick 100' \
  'FAIL firefox  math known answers: 1 of [0-9]* rows differ'; do
  grep -q -e "$want" "$tmp/out.txt" || { echo "self-check: no line matching '$want'" >&2; sc_ok=0; }
done
if [ "$sc_ok" -eq 1 ]; then
  grep '^FAIL' "$tmp/out.txt" | sed 's/^/  self-check (expected): /'
  echo "self-check: PASS (a wrong golden line, a wrong Node TS hash and a wrong replay hash at tick 100, and one wrong math known answer, each FAIL; exit $self_rc)"
else
  echo "self-check: FAIL; its output:" >&2
  sed 's/^/  /' "$tmp/out.txt" >&2
  rc=1
fi
exit "$rc"
