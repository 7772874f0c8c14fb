#!/usr/bin/env bash
# run.sh - the npm pack smoke test: `npm pack`, install the tarball into an
# empty folder, type-check a strict TypeScript consumer with tsc --noEmit and
# run it under node. Needs dist/ and wasm/ built (npm run build).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$root"
for f in dist/index.js dist/index.d.ts wasm/laige_wasm.mjs wasm/laige_wasm.wasm; do
  [ -f "$f" ] || { echo "pack smoke: $f is missing (npm run build)" >&2; exit 1; }
done
tgz="$(npm pack --silent --pack-destination "$tmp" | tail -n 1)"
echo "pack smoke: $tgz ($(wc -c < "$tmp/$tgz") bytes)"
tar -tzf "$tmp/$tgz" | sed 's/^/  /'
mkdir "$tmp/consumer"
cp tests/pack/consumer/main.ts tests/pack/consumer/tsconfig.json "$tmp/consumer/"
cd "$tmp/consumer"
echo '{ "name": "consumer", "private": true, "type": "module" }' > package.json
npm install --no-audit --no-fund --loglevel=error "../$tgz"
tsc="$root/node_modules/.bin/tsc"
"$tsc" -p tsconfig.json --noEmit
"$tsc" -p tsconfig.json --outDir out
node out/main.js
