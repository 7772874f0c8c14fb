#!/usr/bin/env bash
# lsan_selfcheck.sh - proves LeakSanitizer is really active for the native-asan
# suite on this machine: a scratch program with a deliberate leak, built with
# the same compiler and sanitizer flags as the native-asan preset and run with
# the same ASAN_OPTIONS, must be reported (LSan silently does nothing under
# ptrace or on unsupported kernels; then the "clean" ASan run proves nothing).
# The fuzz targets (clang++, libFuzzer) are checked the same way.
set -uo pipefail
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/leak.cpp" <<'CPP'
#include <cstdio>
#include <cstdlib>
int main() {
  void* volatile p = std::malloc(4242);
  std::printf("allocated %p\n", p);
  p = nullptr;
  return 0;
}
CPP
status=0
for cxx in "${CXX:-c++}" clang++; do
  command -v "$cxx" >/dev/null || continue
  "$cxx" -g -O0 -fsanitize=address,undefined -fno-sanitize=vptr -fno-omit-frame-pointer \
    "$tmp/leak.cpp" -o "$tmp/leak" || { echo "lsan-selfcheck: $cxx cannot build with ASan"; status=1; continue; }
  out="$(ASAN_OPTIONS=detect_leaks=1 "$tmp/leak" 2>&1)"
  rc=$?
  if [ $rc -ne 0 ] && grep -q 'ERROR: LeakSanitizer: detected memory leaks' <<<"$out" &&
     grep -q '4242 byte(s) leaked' <<<"$out"; then
    echo "lsan-selfcheck: $cxx: LeakSanitizer active (deliberate 4242-byte leak reported, exit $rc)"
  else
    echo "lsan-selfcheck: $cxx: LeakSanitizer did NOT report the deliberate leak (exit $rc):"
    echo "$out" | tail -5
    status=1
  fi
done
exit $status
