#!/usr/bin/env bash
# build.sh PRESET... - configures (once) and builds the given CMake presets.
# The full build output goes to build/<preset>.log; on failure its tail is shown.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export NODE_PATH=/usr/share/nodejs
jobs="${LAIGE_JOBS:-$(nproc)}"
mkdir -p build
for preset in "$@"; do
  log="build/$preset.log"
  if [ ! -f "build/$preset/build.ninja" ]; then
    echo "laige: configuring $preset" >&2
    if ! cmake --preset "$preset" >"$log" 2>&1; then
      tail -n 40 "$log" >&2
      exit 1
    fi
  fi
  echo "laige: building $preset (log: $log)" >&2
  if ! cmake --build --preset "$preset" -j "$jobs" >>"$log" 2>&1; then
    grep -E "error|Error" "$log" | head -n 40 >&2 || true
    tail -n 20 "$log" >&2
    exit 1
  fi
  warnings=$(grep -c "warning:" "$log" || true)
  if [ "$warnings" != "0" ]; then echo "laige: $preset: $warnings compiler warnings (see $log)" >&2; fi
done
