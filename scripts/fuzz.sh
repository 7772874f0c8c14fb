#!/usr/bin/env bash
# fuzz.sh [seconds-per-target] [target...] - builds the libFuzzer targets
# (tests/fuzz, clang++ with ASan + UBSan, -DNDEBUG) into build/fuzz, replays
# every committed regression input (tests/fuzz/regressions/<target>/) and the
# committed seed corpus, then fuzzes each target for the given time (default
# 60 s) starting from the seed corpus. A crash, sanitizer report, leak or
# invariant violation fails the run; the reproducer is left in
# build/fuzz/artifacts/<target>/ (turn it into a regression file: copy it to
# tests/fuzz/regressions/<target>/). See docs/reliability.md.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seconds="${1:-60}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(replay_parse replay_text world_ops snapshot_restore relation_ops)
build="$root/build/fuzz"
jobs="${LAIGE_JOBS:-2}"

CXX="${LAIGE_FUZZ_CXX:-clang++}" cmake -S tests/fuzz -B "$build" -G Ninja >/dev/null || exit 1
cmake --build "$build" -j"$jobs" || exit 1

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
status=0
for t in "${targets[@]}"; do
  bin="$build/fuzz_$t"
  seeds="tests/fuzz/corpus/$t"
  regress="tests/fuzz/regressions/$t"
  art="$build/artifacts/$t"
  work="$build/corpus/$t"
  mkdir -p "$art" "$work"
  # 1. Regressions and seeds: each input once (no fuzzing).
  inputs=()
  for f in "$regress"/* "$seeds"/*; do
    [ -f "$f" ] && [ "$(basename "$f")" != README.md ] && inputs+=("$f")
  done
  if [ "${#inputs[@]}" -gt 0 ]; then
    if ! "$bin" "${inputs[@]}" >"$build/replay-$t.log" 2>&1; then
      echo "fuzz: $t: a regression / seed input fails:"; tail -40 "$build/replay-$t.log"
      status=1
      continue
    fi
    echo "fuzz: $t: ${#inputs[@]} regression + seed inputs replayed clean"
  fi
  [ "$seconds" -gt 0 ] || continue
  # 2. Fuzz for $seconds from the seeds (plus what earlier runs kept in $work).
  log="$build/fuzz-$t.log"
  if "$bin" "$work" "$seeds" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
       -max_len=4096 -print_final_stats=1 -artifact_prefix="$art/" >"$log" 2>&1; then
    stats=$(grep -aE '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)' "$log" |
            sed 's/^stat:://' | tr -s ' ' | tr '\n' ' ')
    cov=$(grep -aoE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
    echo "fuzz: $t: ${seconds} s clean: $stats$cov"
  else
    echo "fuzz: $t: FAILED after fuzzing (log $log, reproducer in $art):"
    grep -aE 'ERROR|SUMMARY|invariant|runtime error|Test unit written' "$log" | head -20
    status=1
  fi
done
exit $status
