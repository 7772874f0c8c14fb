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
#
# Third half (em++): the wasm build treats a warning in laige-sim's own code
# as an error (LAIGE_WERROR, docs/build.md#warnings). A u64 -> size_t
# narrowing (silent natively, -Wshorten-64-to-32 on wasm32) compiled with the
# exact compile command of one source of each library of the wasm module
# (build/wasm/compile_commands.json; LAIGE_WASM_BUILD names another build
# directory) must be rejected.
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

if printf '%s\n' "${compilers[@]}" | grep -qxF em++ && command -v em++ >/dev/null; then
  db="${LAIGE_WASM_BUILD:-$here/../../build/wasm}/compile_commands.json"
  printf '#include <cstddef>\n#include <cstdint>\nstd::size_t narrow(std::uint64_t n) { return n; }\n' >"$tmp/narrow.cpp"
  for src in cpp/src/snapshot/snapshot_restore.cpp cpp/scenarios/scenario.cpp web/bindings/module.cpp; do
    if [ ! -f "$db" ]; then echo "FAIL em++ werror $src: $db is missing (bash scripts/build.sh wasm)"; fail=1; continue; fi
    # The source's compile command (words, NUL-separated), compiling the probe instead, checking syntax only.
    mapfile -d '' cmd < <(node -e '
      const [db, src, probe] = process.argv.slice(1);
      const e = require(db).find((x) => x.file.endsWith("/" + src));
      if (!e) process.exit(1);
      const words = e.command.match(/(?:[^\s"]+|"[^"]*")+/g).map((w) => w.replace(/"/g, ""));
      const out = [];
      for (let i = 0; i < words.length; i++) {
        if (words[i] === "-o" || words[i] === "-c") { i++; continue; }
        out.push(words[i]);
      }
      out.push("-fsyntax-only", probe);
      process.stdout.write(out.join("\0") + "\0");' "$(realpath "$db")" "$src" "$tmp/narrow.cpp")
    if [ "${#cmd[@]}" -eq 0 ]; then echo "FAIL em++ werror $src: no compile command in $db"; fail=1; continue; fi
    if out=$(cd "$(dirname "$db")" && "${cmd[@]}" 2>&1); then
      echo "FAIL em++ werror $src: a narrowing compiles with its flags${out:+ (only a warning)}"; fail=1
    elif ! grep -qF -- "-Werror,-Wshorten-64-to-32" <<<"$out"; then
      echo "FAIL em++ werror $src: rejected without -Werror,-Wshorten-64-to-32: $(head -n 3 <<<"$out")"; fail=1
    else
      echo "ok   em++ werror $src: a narrowing is an error with its flags"
    fi
  done
fi
exit $fail
