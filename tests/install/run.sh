#!/usr/bin/env bash
# Installs the native-release build into a temp prefix and builds + runs a
# consumer that only does find_package(laige_sim) and includes <laige/sim.h>.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cmake --install "$root/build/native-release" --prefix "$tmp/prefix" >/dev/null
test -f "$tmp/prefix/include/laige/sim.h"
cmake -S "$root/tests/install/consumer" -B "$tmp/build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/build" >/dev/null
"$tmp/build/consumer"
