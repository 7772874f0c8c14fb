#!/usr/bin/env bash
# build.sh [--progress] PRESET[:TARGET,TARGET...]... - configures (once) and
# builds the given CMake presets: every target of the preset, or only the
# listed ones (`wasm:wasm-module` builds the npm package's module and nothing
# else). The full build output goes to build/<preset>.log; on failure its
# tail is shown.
#   --progress   prints one line per build step as ninja reports it
#                (`laige: wasm [12/40] 9s compiling world.cpp`), so a person
#                sees what is being built, how far it is and how long it took.
# LAIGE_JOBS sets the parallel jobs of each build (default: the core count).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export NODE_PATH=/usr/share/nodejs
jobs="${LAIGE_JOBS:-$(nproc)}"
progress=0
if [ "${1:-}" = "--progress" ]; then progress=1; shift; fi
mkdir -p build

# Reads ninja's output: every line goes to the log, each `[k/n] ...` step is
# shown shortened with the seconds since this build started.
show_progress() {
  local preset="$1" log="$2" start=$SECONDS line step what
  while IFS= read -r line; do
    printf '%s\n' "$line" >>"$log"
    if [[ $line =~ ^(\[[0-9]+/[0-9]+\])\ (.*)$ ]]; then
      step="${BASH_REMATCH[1]}"
      what="${BASH_REMATCH[2]}"
      if [[ $what =~ ^Building\ CXX\ object\ .*/([^/]+)\.o$ ]]; then what="compiling ${BASH_REMATCH[1]}"; fi
      if [[ $what =~ ^Linking\ CXX\ (static\ library|executable)\ (.*)$ ]]; then what="linking ${BASH_REMATCH[2]}"; fi
      printf 'laige: %s %s %ds %s\n' "$preset" "$step" $((SECONDS - start)) "$what" >&2
    fi
  done
}

for spec in "$@"; do
  preset="${spec%%:*}"
  targets=()
  if [ "$spec" != "$preset" ]; then IFS=',' read -r -a targets <<<"${spec#*:}"; fi
  log="build/$preset.log"
  if [ ! -f "build/$preset/build.ninja" ]; then
    echo "laige: configuring $preset" >&2
    if ! cmake --preset "$preset" >"$log" 2>&1; then
      tail -n 40 "$log" >&2
      exit 1
    fi
  fi
  target_args=()
  what="every target"
  if [ "${#targets[@]}" -gt 0 ]; then target_args=(--target "${targets[@]}"); what="${targets[*]}"; fi
  echo "laige: building $preset: $what (log: $log)" >&2
  start=$SECONDS
  status=0
  # The log grows over builds: only this build's lines count below.
  logged=$(wc -l <"$log")
  if [ "$progress" -eq 1 ]; then
    set +e
    cmake --build --preset "$preset" -j "$jobs" "${target_args[@]}" 2>&1 | show_progress "$preset" "$log"
    status=${PIPESTATUS[0]}
    set -e
  else
    cmake --build --preset "$preset" -j "$jobs" "${target_args[@]}" >>"$log" 2>&1 || status=$?
  fi
  if [ "$status" -ne 0 ]; then
    grep -E "error|Error" "$log" | head -n 40 >&2 || true
    tail -n 20 "$log" >&2
    exit 1
  fi
  echo "laige: built $preset: $what in $((SECONDS - start)) s" >&2
  warnings=$(tail -n +"$((logged + 1))" "$log" | grep -c "warning:" || true)
  if [ "$warnings" != "0" ]; then echo "laige: $preset: $warnings compiler warnings in this build (see $log)" >&2; fi
done
