#!/usr/bin/env bash
# test.sh - README command 2: installs what is missing, builds every preset,
# and runs every test suite: GoogleTest natively (debug, release, ASan+UBSan)
# and compiled to wasm under node, plus the install/find_package consumer,
# the demo e2e and the browser determinism suite (firefox-esr + chromium).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/ensure-deps.sh
laige_ensure_apt
laige_ensure_npm "$root"

passed=0
failed=0
failures=()
suite() {
  local name="$1"; shift
  echo
  echo "=================== $name"
  local start=$SECONDS
  if "$@"; then
    passed=$((passed + 1))
    echo "=================== $name: PASS ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1))
    failures+=("$name")
    echo "=================== $name: FAIL ($((SECONDS - start)) s)"
  fi
}

gtest_flags=(--gtest_brief=1 --gtest_color=no)

suite "build native-debug" bash scripts/build.sh native-debug
suite "gtest native-debug" build/native-debug/laige_tests "${gtest_flags[@]}"
suite "laige-replay CLI (native-debug)" bash tests/cli/replay_cli_test.sh build/native-debug
suite "build native-release" bash scripts/build.sh native-release
suite "gtest native-release" build/native-release/laige_tests "${gtest_flags[@]}"
suite "build native-asan" bash scripts/build.sh native-asan
suite "gtest native-asan (ASan+UBSan)" env ASAN_OPTIONS=detect_leaks=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 build/native-asan/laige_tests "${gtest_flags[@]}"
suite "LeakSanitizer active (deliberate-leak self-check)" bash tests/fuzz/lsan_selfcheck.sh
suite "fuzz smoke (60 s per target)" bash scripts/fuzz.sh 60
suite "build wasm" bash scripts/build.sh wasm
suite "gtest wasm (node)" node --no-experimental-fetch build/wasm/laige_tests.js "${gtest_flags[@]}"
suite "wasm module size" bash scripts/wasm-size.sh
suite "build @laige/sim (tsc)" npm run --silent build:ts
suite "web/src architecture (no import circles, no reach-ins into World)" node scripts/check-architecture.mjs
suite "generated boundary up to date (web/boundary.json, web/layouts.json)" node scripts/gen-boundary.mjs --check
suite "vitest" npm run --silent test:ts
suite "match server load, short form (4 matches, 3 s, clients in 2 processes, faults: rejoins, delay, drop, garbage)" \
  node bench/js/match_load.mjs --matches 4 --seconds 3 --procs 2 --faults --check
suite "npm pack smoke" bash tests/pack/run.sh
suite "docs snippets" bash tests/docs/run.sh
suite "API reference (typedoc + doxygen, no warnings)" bash scripts/api-docs.sh
suite "bundlers (esbuild, webpack, rollup, vite) in chromium" bash tests/bundlers/run.sh
suite "cross-build determinism (goldens x g++/clang++ -O0..-O2 -march=native)" bash tests/determinism/cross_build.sh
suite "compile-time rejections: components (g++, em++), unsafe float modes (g++, clang++, em++)" bash tests/compile_fail/run.sh
suite "install: find_package + pkg-config consumers, fp32 self-pinning (-O3 -march=native, no -ffp-contract), unannounced clang modes" bash tests/install/run.sh
suite "e2e (chromium + firefox-esr)" bash tests/e2e/run.sh
suite "browsers: scenario streams, ts-systems stream and replays in firefox-esr + chromium" bash tests/browsers/run.sh

echo
echo "laige test summary:"
if [ "${#failures[@]}" -gt 0 ]; then
  printf '  failed: %s\n' "${failures[@]}"
fi
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
