#!/usr/bin/env bash
# cross_build.sh - cross-build determinism (docs/determinism.md#cross-build-check).
#
# Builds laige-detcheck (the library with every scenario) four ways:
#   gcc-O0            g++      -O0
#   gcc-O2            g++      -O2
#   clang-O2          clang++  -O2
#   clang-O2-native   clang++  -O2 -march=native
# each in its own tree build/xbuild-<name> (CMAKE_BUILD_TYPE empty, so the
# flags above are the only optimisation flags; the project's determinism
# flags -ffp-contract=off -fno-fast-math are added by CMakeLists.txt as for
# every build; tests and benches off), and checks every scenario stream of
# every build against its golden file in tests/golden/ with
# `laige-detcheck --scenario=<name> --ticks=<golden ticks> --expect=<file>`.
# Then it exercises the two-phase CLI: --run-a/--run-b across two of the
# builds (g++ -O0 vs clang++ -O2 -march=native, the far ends) and
# --compare-combined, including the synthetic/synthetic-perturbed
# divergence at tick 7.
#
#   bash tests/determinism/cross_build.sh     (LAIGE_JOBS=N to limit jobs)
#
# Exit 0 when every stream matches and the CLI behaves; 1 otherwise. A
# mismatch here is a determinism bug (never re-mint to make it pass).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
jobs="${LAIGE_JOBS:-$(nproc)}"

configs=(
  "gcc-O0|g++|-O0"
  "gcc-O2|g++|-O2"
  "clang-O2|clang++|-O2"
  "clang-O2-native|clang++|-O2 -march=native"
)

failures=()
fail() {
  failures+=("$1")
  echo "FAIL: $1"
}

goldens=(tests/golden/*.txt)
if [ ! -e "${goldens[0]}" ]; then
  echo "no golden streams in tests/golden (bash scripts/mint-goldens.sh)" >&2
  exit 1
fi

for entry in "${configs[@]}"; do
  IFS='|' read -r name cxx flags <<<"$entry"
  dir="build/xbuild-$name"
  log="build/xbuild-$name.log"
  echo "== $name: $cxx $flags"
  if [ ! -f "$dir/build.ninja" ]; then
    if ! cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_CXX_FLAGS="$flags" -DLAIGE_BUILD_TESTS=OFF -DLAIGE_BUILD_BENCH=OFF >"$log" 2>&1; then
      tail -n 20 "$log"
      fail "$name: configure"
      continue
    fi
  fi
  if ! cmake --build "$dir" --target laige-detcheck -j "$jobs" >>"$log" 2>&1; then
    grep -E "error" "$log" | head -n 20
    fail "$name: build"
    continue
  fi
  for golden in "${goldens[@]}"; do
    scenario="$(basename "$golden" .txt)"
    ticks=$(($(wc -l <"$golden") - 1))
    report="$("$dir/laige-detcheck" --scenario="$scenario" --ticks="$ticks" --expect="$golden" 2>/dev/null)"
    rc=$?
    echo "  $report" | head -n 1
    if [ "$rc" -ne 0 ]; then
      echo "$report" | tail -n +2 | sed 's/^/    /'
      fail "$name: $scenario (exit $rc)"
    fi
  done
done

# --- The two-phase CLI across builds -----------------------------------------
a="build/xbuild-gcc-O0/laige-detcheck"
b="build/xbuild-clang-O2-native/laige-detcheck"
if [ -x "$a" ] && [ -x "$b" ]; then
  echo "== laige-detcheck --run-a/--run-b and --compare-combined"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  expect_exit() {  # expect_exit <code> <what> <command...>
    local want="$1" what="$2"
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -ne "$want" ]; then
      fail "$what: exit $got, expected $want"
      sed 's/^/    /' "$tmp/out" "$tmp/err" | head -n 10
      return 1
    fi
    return 0
  }
  for scenario in swarm float input; do
    if expect_exit 0 "run $scenario" "$a" --run-a="$a" --run-b="$b" -- --scenario="$scenario" --ticks=120; then
      cp "$tmp/out" "$tmp/combined-$scenario.txt"
      if expect_exit 0 "compare $scenario" "$a" --compare-combined="$tmp/combined-$scenario.txt"; then
        echo "  $scenario: $(cat "$tmp/out")"
        grep -qx "detcheck scenario=combined result=OK ticks=121" "$tmp/out" || fail "compare $scenario: report"
      fi
    fi
  done
  # synthetic vs synthetic-perturbed: DIVERGED at tick 7, exit 1.
  printf '#!/bin/sh\nexec "%s" --scenario=synthetic --ticks=64\n' "$root/$a" >"$tmp/plain.sh"
  printf '#!/bin/sh\nexec "%s" --scenario=synthetic-perturbed --ticks=64\n' "$root/$b" >"$tmp/perturbed.sh"
  chmod +x "$tmp/plain.sh" "$tmp/perturbed.sh"
  if expect_exit 0 "run perturbed" "$a" --run-a="$tmp/plain.sh" --run-b="$tmp/perturbed.sh"; then
    cp "$tmp/out" "$tmp/combined-perturbed.txt"
    if expect_exit 1 "compare perturbed" "$a" --compare-combined="$tmp/combined-perturbed.txt"; then
      echo "  perturbed: $(head -n 1 "$tmp/out")"
      grep -qx "detcheck scenario=combined result=DIVERGED first_diff_tick=7" "$tmp/out" ||
        fail "compare perturbed: report"
      grep -q "^run-a: 7 [0-9a-f]\{16\}$" "$tmp/out" || fail "compare perturbed: run-a line"
      grep -q "^run-b: 7 [0-9a-f]\{16\}$" "$tmp/out" || fail "compare perturbed: run-b line"
    fi
  fi
  # A run that cannot start: phase 1 exits 2; its combined output is a
  # contract error for phase 2 (exit 2).
  if expect_exit 2 "run missing binary" "$a" --run-a="$a" --run-b="$tmp/no-such-program" -- --scenario=hello; then
    cp "$tmp/out" "$tmp/combined-missing.txt"
    expect_exit 2 "compare missing binary" "$a" --compare-combined="$tmp/combined-missing.txt" || true
  fi
  # Usage errors exit 2.
  expect_exit 2 "unknown scenario" "$a" --scenario=nope || true
  expect_exit 2 "ticks out of range" "$a" --scenario=hello --ticks=65537 || true
  expect_exit 2 "two modes" "$a" --scenario=hello --compare-combined=x || true
  expect_exit 0 "seed as hex" "$a" --scenario=hello --ticks=3 --seed=0x1F055EED || true
  cmp -s "$tmp/out" <(head -n 4 tests/golden/hello.txt) || fail "hello --seed=0x1F055EED is not the golden prefix"
  expect_exit 0 "seed as decimal" "$a" --scenario=hello --ticks=3 --seed=520445677 || true
  cmp -s "$tmp/out" <(head -n 4 tests/golden/hello.txt) || fail "hello --seed=520445677 is not the golden prefix"
fi

echo
if [ "${#failures[@]}" -gt 0 ]; then
  echo "cross-build determinism: ${#failures[@]} failure(s)"
  printf '  %s\n' "${failures[@]}"
  exit 1
fi
echo "cross-build determinism: every scenario stream of every build matches tests/golden"
