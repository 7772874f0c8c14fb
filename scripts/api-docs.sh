#!/usr/bin/env bash
# api-docs.sh - builds the API reference from the doc comments:
#   build/api-docs/ts   typedoc over web/src/index.ts (what @laige/sim exports)
#   build/api-docs/cpp  Doxygen over cpp/include/laige (the public headers)
# and fails on any warning of either (a broken link, an unknown tag, a
# malformed command), so the reference stays complete. Configuration:
# docs/reference/typedoc.json and docs/reference/Doxyfile; see docs/reference.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="$root/build/api-docs"
command -v doxygen >/dev/null || { echo "api-docs: doxygen is missing (apt-get install doxygen)" >&2; exit 1; }
[ -x node_modules/.bin/typedoc ] || { echo "api-docs: typedoc is missing (npm ci)" >&2; exit 1; }
rm -rf "$out/ts" "$out/cpp"
mkdir -p "$out/cpp"

echo "api-docs: typedoc -> build/api-docs/ts"
node_modules/.bin/typedoc --options docs/reference/typedoc.json --out "$out/ts" --logLevel Warn

echo "api-docs: doxygen $(doxygen --version) -> build/api-docs/cpp"
warnings="$out/cpp-warnings.log"
# Doxygen resolves INPUT relative to the working directory (the repo root).
# WARN_AS_ERROR = FAIL_ON_WARNINGS makes doxygen exit non-zero; the log says why.
doxygen_ok=1
{ cat docs/reference/Doxyfile; echo "OUTPUT_DIRECTORY = $out/cpp"; echo "WARN_LOGFILE = $warnings"; } | doxygen - || doxygen_ok=0
if [ -s "$warnings" ] || [ "$doxygen_ok" -eq 0 ]; then
  echo "api-docs: doxygen warnings:" >&2
  cat "$warnings" >&2
  exit 1
fi
for f in "$out/ts/index.html" "$out/cpp/index.html"; do
  [ -f "$f" ] || { echo "api-docs: $f was not generated" >&2; exit 1; }
done
echo "api-docs: OK (open build/api-docs/ts/index.html and build/api-docs/cpp/index.html)"
