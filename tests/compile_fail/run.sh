#!/usr/bin/env bash
# run.sh [CXX...] - the compile-time half of the component contract: every
# case in component_cases.txt must FAIL to compile, with its static_assert
# message (docs/component_registry.md#the-mark). GoogleTest cannot express
# "does not compile", so this script does. Default compilers: g++ and em++.
# Line format: name|code inside `namespace game {}`|expected message|flags
# (flags "native-only": the case depends on what std::int64_t aliases, so it
# is skipped for em++, where `long long` IS std::int64_t).
#
# Second half, math_flag_cases.txt: every unsafe float mode a compiler
# announces must be rejected by <laige/sim.h> (laige/determinism_guard.h,
# docs/sim_math.md#flags) with its message, on each compiler listed for it
# (g++, clang++, em++; the CLI arguments, if given, narrow the list). Line
# format: name|flags|compilers|expected message; "COMPILES" marks a control
# case that must compile (so a broken include cannot pass as a rejection).
# The modes clang does not announce are covered by tests/install/run.sh.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
include="$here/../../cpp/include"
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
compilers=("$@")
[ ${#compilers[@]} -eq 0 ] && compilers=(g++ em++)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
while IFS='|' read -r name code message flags; do
  [ -z "$name" ] && continue
  printf '#include "laige/world.h"\n#include <cstdint>\nnamespace game {\n%s\n}\nint main() {}\n' "$code" >"$tmp/$name.cpp"
  for cxx in "${compilers[@]}"; do
    command -v "$cxx" >/dev/null || continue
    if [ "$flags" = "native-only" ] && [ "$cxx" = "em++" ]; then continue; fi
    if out=$("$cxx" -std=c++20 -fsyntax-only -I"$include" "$tmp/$name.cpp" 2>&1); then
      echo "FAIL $cxx $name: compiled"; fail=1
    elif ! grep -qF "$message" <<<"$out"; then
      echo "FAIL $cxx $name: rejected without \"$message\""; fail=1
    else
      echo "ok   $cxx $name"
    fi
  done
done <"$here/component_cases.txt"

printf '#include <laige/sim.h>\nint main() {}\n' >"$tmp/math_flags.cpp"
while IFS='|' read -r name flags case_compilers message; do
  [ -z "$name" ] && continue
  for cxx in $case_compilers; do
    command -v "$cxx" >/dev/null || continue
    if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qxF "$cxx"; then continue; fi
    # shellcheck disable=SC2086  # flags is a list of words
    if out=$("$cxx" -std=c++20 -fsyntax-only $flags -I"$include" "$tmp/math_flags.cpp" 2>&1); then
      if [ "$message" = "COMPILES" ]; then echo "ok   $cxx math $name ($flags): compiles"
      else echo "FAIL $cxx math $name ($flags): compiled"; fail=1; fi
    elif [ "$message" = "COMPILES" ]; then
      echo "FAIL $cxx math $name ($flags): rejected: $(head -n 3 <<<"$out")"; fail=1
    elif ! grep -qF -- "$message" <<<"$out"; then
      echo "FAIL $cxx math $name ($flags): rejected without \"$message\""; fail=1
    else
      echo "ok   $cxx math $name ($flags): rejected"
    fi
  done
done <"$here/math_flag_cases.txt"
exit $fail
