#!/usr/bin/env bash
# run.sh - the npm pack smoke test: `npm pack`; the tarball holds exactly
# README.md, LICENSE, package.json, dist/, wasm/ (module, .wasm, base64 copy)
# and the user docs (docs/*.md, docs/internals/*.md), and every relative link of its README and
# docs resolves inside it (links.mjs); then install it into an empty folder,
# type-check a strict TypeScript consumer with tsc --noEmit and run it under
# node; run the README's example as an ES module and, through its CommonJS
# block, with `require` (or check that `require` fails as the README says on
# a Node that cannot load ES modules from it). Needs dist/ and wasm/ built
# (npm run build).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$root"
for f in dist/index.js dist/index.d.ts dist/scenarios.js dist/inspector.js wasm/laige_wasm.mjs wasm/laige_wasm.wasm wasm/laige_wasm_scenarios.wasm; do
  [ -f "$f" ] || { echo "pack smoke: $f is missing (npm run build)" >&2; exit 1; }
done
tgz="$(npm pack --silent --pack-destination "$tmp" | tail -n 1)"
echo "pack smoke: $tgz ($(wc -c < "$tmp/$tgz") bytes)"
tar -tzf "$tmp/$tgz" | sort > "$tmp/contents"
sed 's/^/  /' "$tmp/contents"
for f in package/README.md package/LICENSE package/package.json package/dist/index.js package/dist/index.d.ts \
  package/dist/embedded.js package/dist/embedded.d.ts package/wasm/laige_wasm.mjs package/wasm/laige_wasm.wasm \
  package/wasm/laige_wasm.base64.mjs package/dist/scenarios.js package/dist/scenarios.d.ts package/wasm/laige_wasm_scenarios.wasm \
  package/dist/inspector.js package/dist/inspector.d.ts package/docs/inspector.md package/docs/inspector-page.jpg package/docs/inspector-native.jpg package/docs/demo-desync.jpg \
  package/docs/typescript.md; do
  grep -qx "$f" "$tmp/contents" || { echo "pack smoke: $f is not in the tarball" >&2; exit 1; }
done
# Nothing else: no sources, tests, build trees or images but the screenshots
# the README and the shipped pages show (the measurement journals of docs/internals/ ship because the
# user pages link them).
unexpected="$(grep -vxE 'package/(README\.md|LICENSE|package\.json|dist/([a-z_]+/)?[a-z0-9_]+(\.gen)?\.(js|d\.ts)|wasm/laige_wasm\.(mjs|wasm|base64\.mjs)|wasm/laige_wasm_scenarios\.wasm|docs/(internals/)?[A-Za-z_-]+\.md|docs/(demo-netplay|demo-desync|inspector-page|inspector-native)\.jpg)' "$tmp/contents" || true)"
if [ -n "$unexpected" ]; then echo "pack smoke: unexpected files in the tarball:" >&2; echo "$unexpected" >&2; exit 1; fi
mkdir "$tmp/extracted"
tar -xzf "$tmp/$tgz" -C "$tmp/extracted"
node tests/pack/links.mjs "$tmp/extracted/package"
mkdir "$tmp/consumer"
cp tests/pack/consumer/main.ts tests/pack/consumer/tsconfig.json "$tmp/consumer/"
cd "$tmp/consumer"
echo '{ "name": "consumer", "private": true, "type": "module" }' > package.json
npm install --no-audit --no-fund --loglevel=error "../$tgz"
tsc="$root/node_modules/.bin/tsc"
"$tsc" -p tsconfig.json --noEmit
"$tsc" -p tsconfig.json --outDir out
node out/main.js
# The entry @laige/sim/inspector loads from the tarball and answers about a
# world of the entry @laige/sim/scenarios, the module with the dev tools (the
# same dist/ modules: one World class); a world of @laige/sim is refused.
cat > inspector.mjs <<'JS'
import { loadLaige as loadLean } from '@laige/sim';
import { loadLaige } from '@laige/sim/scenarios';
import { worldSource, inspectRequest, mountInspector } from '@laige/sim/inspector';
const lean = (await loadLean()).createWorld({ capacity: 8 });
const refused = await worldSource(lean).ask(inspectRequest.summary()).then(() => 'answered', (e) => e.reason);
if (refused !== 'devtools_not_linked') { console.error(`a world of @laige/sim: ${refused}`); process.exit(1); }
const sim = await loadLaige();
const w = sim.createWorld({ capacity: 8 });
const P = w.registerComponent('P', { x: 'fx' });
w.add(w.create(), P, { x: 98304 });
const a = await worldSource(w).ask(inspectRequest.entity(w.handleAt(0)));
if (typeof mountInspector !== 'function' || a.components[0].fields[0].values[0] !== '1.5') { console.error(JSON.stringify(a)); process.exit(1); }
console.log(`pack smoke: @laige/sim/inspector answers ${a.components[0].name}.x = ${a.components[0].fields[0].values[0]}`);
JS
node inspector.mjs
# The README's example, as packed: it runs and prints the hash its comment states.
awk '/<!-- pack-test: the README example/ { on = 1; next } on && /^```js$/ { inside = 1; next } inside && /^```$/ { exit } inside { print }' \
  "$tmp/extracted/package/README.md" > example.mjs
[ -s example.mjs ] || { echo "pack smoke: no README example after the pack-test marker" >&2; exit 1; }
expected="$(sed -nE 's|.*// ([0-9]+ [0-9a-f]{16}), on every machine.*|\1|p' example.mjs)"
got="$(node example.mjs)"
echo "pack smoke: README example prints '$got' (README says '$expected')"
if [ -z "$expected" ] || [ "$got" != "$expected" ]; then echo "pack smoke: the README example printed something else" >&2; exit 1; fi

# CommonJS, as the README says: on a Node that loads ES modules from
# `require` (20.19+, 22.12+, 23+) the README's example, wrapped in its
# CommonJS block, runs as example.cjs and prints the same line, with nothing
# on stderr; on an older Node, `require` fails with ERR_REQUIRE_ESM and
# `import()` from CommonJS works.
awk '/<!-- pack-test: require/ { on = 1; next } on && /^```js$/ { inside = 1; next } inside && /^```$/ { exit } inside { print }' \
  "$tmp/extracted/package/README.md" > require-block.js
grep -q "require('@laige/sim')" require-block.js || { echo "pack smoke: no require block after the pack-test: require marker" >&2; exit 1; }
grep -q '^ *// the example below' require-block.js || { echo "pack smoke: the require block has no '// the example below' line" >&2; exit 1; }
grep -v "^import .* from '@laige/sim';\$" example.mjs > example-body.js
awk 'FNR == NR { body = body $0 "\n"; next } /^ *\/\/ the example below/ { printf "%s", body; next } { print }' \
  example-body.js require-block.js > example.cjs
if node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit((a === 20 && b >= 19) || (a === 22 && b >= 12) || a === 23 || a >= 24 ? 0 : 1)'; then
  got_cjs="$(node example.cjs 2> cjs.err)"
  echo "pack smoke: README example as CommonJS (require, node $(node --version)) prints '$got_cjs'"
  if [ -s cjs.err ]; then echo "pack smoke: require printed on stderr:" >&2; cat cjs.err >&2; exit 1; fi
  if [ "$got_cjs" != "$expected" ]; then echo "pack smoke: the CommonJS example printed something else" >&2; exit 1; fi
else
  if node example.cjs 2> cjs.err; then echo "pack smoke: require worked on node $(node --version), which the README says it does not" >&2; exit 1; fi
  grep -q ERR_REQUIRE_ESM cjs.err || { echo "pack smoke: require on node $(node --version) did not fail with ERR_REQUIRE_ESM:" >&2; cat cjs.err >&2; exit 1; }
  node -e "import('@laige/sim').then((m) => { if (typeof m.loadLaige !== 'function') process.exit(1); })"
  echo "pack smoke: node $(node --version): require fails with ERR_REQUIRE_ESM and import() works, as the README says"
fi
