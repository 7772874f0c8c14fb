#!/usr/bin/env bash
# Installs the native-release build into a temp prefix, then:
#  1. builds + runs a consumer that only does find_package(laige_sim) and
#     includes <laige/sim.h>;
#  2. the self-pinning check (docs/sim_math.md#flags): the float scenario's
#     source compiled by hand against the installed headers and library with
#     -O3 -march=native and NO -ffp-contract flag (g++, whose default fuses
#     across inlined calls, and clang++ -ffp-contract=fast) must print the
#     golden stream tests/golden/float.txt;
#  3. the same consumer built through laige_sim.pc (pkg-config);
#  4. the math known-answer table (tests/kat/math_kat.txt) checked by a
#     consumer compiled by hand, g++ and clang++, -O0 and -O3 -march=native
#     without -ffp-contract: the functions of laige/sim_math_fn.h pin
#     themselves too;
#  5. the unsafe float modes clang does not announce (so the headers cannot
#     reject them), each in CMAKE_CXX_FLAGS of a find_package consumer of
#     the float scenario: the package's interface options must neutralise
#     them, i.e. the stream stays golden.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
golden="$root/tests/golden/float.txt"
cmake --install "$root/build/native-release" --prefix "$tmp/prefix" >/dev/null
test -f "$tmp/prefix/include/laige/sim.h"
cmake -S "$root/tests/install/consumer" -B "$tmp/build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/build" >/dev/null
"$tmp/build/consumer"

fail=0
# check NAME BINARY: runs the float consumer and compares with the golden.
check() {
  if "$2" 2>/dev/null | cmp -s - "$golden"; then
    echo "ok   float stream golden: $1"
  else
    echo "FAIL float stream differs from $golden: $1 (first line: $("$2" 2>/dev/null | diff - "$golden" | sed -n 2p))"
    fail=1
  fi
}
float_src=("$root/tests/install/float_consumer/main.cpp" "$root/cpp/scenarios/float_scenario.cpp")
libdir=$(dirname "$(find "$tmp/prefix" -name liblaige_sim.a | head -n 1)")

for cxx_flags in "g++|-O3 -march=native" "clang++|-O3 -march=native -ffp-contract=fast"; do
  cxx=${cxx_flags%%|*}; flags=${cxx_flags#*|}
  command -v "$cxx" >/dev/null || continue
  # shellcheck disable=SC2086
  "$cxx" -std=c++20 $flags -I"$tmp/prefix/include" -I"$root/cpp/scenarios" "${float_src[@]}" \
    "$libdir/liblaige_sim.a" -o "$tmp/float_by_hand"
  check "by hand, $cxx $flags, no laige flags" "$tmp/float_by_hand"
done

for cxx_flags in "g++|-O0" "g++|-O3 -march=native" "clang++|-O0" "clang++|-O3 -march=native -ffp-contract=fast"; do
  cxx=${cxx_flags%%|*}; flags=${cxx_flags#*|}
  command -v "$cxx" >/dev/null || continue
  # shellcheck disable=SC2086
  "$cxx" -std=c++20 $flags -I"$tmp/prefix/include" -I"$root/tests/cpp" "$root/tests/install/math_kat_check.cpp" \
    -o "$tmp/math_kat_check"
  if out=$("$tmp/math_kat_check" "$root/tests/kat/math_kat.txt"); then
    echo "ok   math known answers: $cxx $flags, no laige flags ($out)"
  else
    echo "FAIL math known answers: $cxx $flags: $out"; fail=1
  fi
done

export PKG_CONFIG_PATH="$libdir/pkgconfig"
pc_flags=$(pkg-config --cflags laige_sim)
grep -q -- "-ffp-contract=off" <<<"$pc_flags" || { echo "FAIL laige_sim.pc Cflags lack -ffp-contract=off: $pc_flags"; fail=1; }
# shellcheck disable=SC2046
g++ -std=c++20 -O2 -march=native "$root/tests/install/consumer/main.cpp" $(pkg-config --cflags --libs laige_sim) -o "$tmp/pc_consumer"
"$tmp/pc_consumer" >/dev/null && echo "ok   pkg-config consumer runs"
# shellcheck disable=SC2046
g++ -std=c++20 -O3 -march=native -I"$root/cpp/scenarios" "${float_src[@]}" $(pkg-config --cflags --libs laige_sim) -o "$tmp/pc_float"
check "pkg-config, g++ -O3 -march=native" "$tmp/pc_float"

# The CMake route also with contraction forced on: the interface's
# -ffp-contract=off comes last and wins (and lets the backend skip its barrier).
for case in "clang++|-freciprocal-math" "clang++|-funsafe-math-optimizations" \
            "clang++|-fassociative-math -fno-signed-zeros -fno-trapping-math" "clang++|-fno-signed-zeros" \
            "clang++|-fno-honor-nans -fno-honor-infinities" "clang++|-fapprox-func" \
            "clang++|-ffp-contract=fast" "g++|-ffp-contract=fast"; do
  cxx=${case%%|*}; unsafe=${case#*|}
  command -v "$cxx" >/dev/null || continue
  b="$tmp/fc-$cxx-$(echo "$unsafe" | tr -c 'a-z0-9' '_')"
  cmake -S "$root/tests/install/float_consumer" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER="$cxx" "-DCMAKE_CXX_FLAGS=$unsafe -march=native" \
    -DCMAKE_PREFIX_PATH="$tmp/prefix" -DLAIGE_SOURCE_DIR="$root" >/dev/null
  cmake --build "$b" >/dev/null
  check "find_package, $cxx CXXFLAGS=\"$unsafe -march=native\"" "$b/float_consumer"
done
exit $fail
