#!/usr/bin/env bash
# build-package.sh - `npm run build`: builds the npm package @laige/sim from
# a fresh clone. Checks (and says) what it needs first:
#   - node_modules: `npm ci` when it is missing or older than the lockfile;
#   - em++, cmake and ninja: installed through apt (scripts/ensure-deps.sh)
#     when this is root on Debian, else it stops with the command to run;
# then builds the wasm modules only (wasm/: the module, its .wasm, the one
# with the scenarios (@laige/sim/scenarios) and the
# base64 copy for @laige/sim/embedded; not the wasm GoogleTest suite) and
# the TypeScript layer (dist/: every entry, '@laige/sim', '/embedded',
# '/scenarios' and '/inspector', from web/src by tsconfig.json).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
start=$SECONDS
source scripts/ensure-deps.sh
missing=()
for tool in em++ cmake ninja node; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
# XXH3's one header (libxxhash-dev), compiled into the module.
[ -f /usr/include/xxhash.h ] || missing+=("xxhash.h")
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "laige: ${missing[*]} missing: installing the Debian packages (scripts/ensure-deps.sh)" >&2
    laige_ensure_apt
  else
    echo "laige: npm run build needs ${missing[*]}: on Debian 12, 'sudo apt-get install emscripten cmake ninja-build libxxhash-dev'" >&2
    echo "       (or run npm run build as root, which installs them); see README.md, 'Developing laige-sim'." >&2
    exit 1
  fi
else
  echo "laige: found em++ $(em++ --version 2>/dev/null | head -n 1 | sed -E 's/.*\) ([0-9.]+).*/\1/'), cmake, ninja, node $(node --version)" >&2
fi
if [ ! -d node_modules ] || [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "laige: node_modules is missing or older than package-lock.json: npm ci" >&2
fi
laige_ensure_npm "$root"
# The boundary first (option limits, binding layouts): the wasm module and dist/ are built from them.
node scripts/gen-boundary.mjs
bash scripts/build.sh --progress wasm:wasm-module,wasm-module-scenarios
echo "laige: building dist/ (tsc)" >&2
npm run --silent build:ts
echo "laige: @laige/sim built in $((SECONDS - start)) s: dist/ and wasm/ (npm pack makes the tarball)" >&2
