#!/usr/bin/env bash
# run.sh [CXX...] - the compile-time half of the component contract: every
# case in component_cases.txt must FAIL to compile, with its static_assert
# message (docs/component_registry.md#the-mark). GoogleTest cannot express
# "does not compile", so this script does. Default compilers: g++ and em++.
# Line format: name|code inside `namespace game {}`|expected message|flags
# (flags "native-only": the case depends on what std::int64_t aliases, so it
# is skipped for em++, where `long long` IS std::int64_t).
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
exit $fail
