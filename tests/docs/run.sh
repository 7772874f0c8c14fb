#!/usr/bin/env bash
# tests/docs/run.sh - the manuals' test: every relative link and #anchor in
# README.md and docs/ resolves (links.mjs); no page or source cites a
# requirement id or names a repository file that does not exist
# (references.mjs); the README's self-check block is what
# scripts/selfcheck.sh prints (readme_selfcheck.mjs); and every runnable
# snippet of the manuals compiles and prints what the page says it prints.
#
# Snippets are fenced blocks marked `<!-- snippet: NAME -->` (extract.mjs):
#   ts     tsc --strict against the packed @laige/sim installed into a fresh
#          "type": "module" app, then run with node; `browser-*` ones instead
#          built with Vite (the `browser-page` html snippet is index.html) and
#          run in headless chromium.
#   cpp    built against the native-release build installed into a temp
#          prefix, with the `NAME-cmake` CMakeLists.txt snippet (or a plain
#          find_package one), then run.
# Each output must contain the lines of its `<!-- output: NAME -->` block.
# The quickstart is not run that way but literally (quickstart.mjs): its
# commands as written in an empty folder, with the packed tarball, the
# native-release build and the registry's typescript and vite.
# Needs: npm run build (dist/, wasm/) and scripts/build.sh native-release wasm.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
literal=docs/quickstart.md   # run as a newcomer would (quickstart.mjs); its snippets are type-checked here too
pages=("$literal" docs/concepts.md docs/guide-typescript-systems.md docs/guide-determinism.md docs/guide-replays.md docs/rollback.md docs/changes.md docs/relations.md docs/prefabs.md docs/inspector.md)

echo "docs: links"
node tests/docs/links.mjs
echo "docs: references (no requirement ids, no paths to missing files)"
node tests/docs/references.mjs

for f in dist/index.js wasm/laige_wasm.mjs wasm/laige_wasm.wasm build/native-release/cmake_install.cmake \
         build/native-release/laige-selfcheck build/wasm/laige-selfcheck.js; do
  [ -f "$f" ] || { echo "docs: $f is missing (npm run build; bash scripts/build.sh native-release wasm)" >&2; exit 1; }
done
echo "docs: the README's self-check block"
node tests/docs/readme_selfcheck.mjs README.md
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
node tests/docs/extract.mjs "$tmp/snippets" "${pages[@]}" > "$tmp/list"
echo "docs: $(wc -l < "$tmp/list") snippets in ${#pages[@]} pages"

failed=0
check() {  # check NAME OUTPUT-FILE
  if node tests/docs/expect.mjs "$tmp/snippets/$1.expected" "$2"; then
    echo "  ok   $1"
  else
    echo "  FAIL $1 ($(grep "^$1 " "$tmp/list" | cut -d' ' -f3))"
    failed=$((failed + 1))
  fi
}

# TypeScript: one app that installs the packed tarball, as a user would.
tgz="$(npm pack --silent --pack-destination "$tmp" | tail -n 1)"
app="$tmp/app"
mkdir -p "$app/src"
(cd "$app" && echo '{ "name": "docs-snippets", "private": true, "type": "module" }' > package.json &&
  npm install --no-audit --no-fund --loglevel=error "../$tgz")
ts_node=()
ts_browser=()
ts_checked=0
while read -r name lang src; do
  [ "$lang" = ts ] || continue
  cp "$tmp/snippets/$name.ts" "$app/src/$name.ts"
  ts_checked=$((ts_checked + 1))
  case "$src" in "$literal":*) continue ;; esac  # run below, as its page says
  case "$name" in browser-*) ts_browser+=("$name") ;; *) ts_node+=("$name") ;; esac
done < "$tmp/list"
if [ "$ts_checked" -gt 0 ]; then
  # @types/node from the repository (a Node app has it; the snippets use node:fs).
  cat > "$app/tsconfig.json" <<JSON
{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
    "strict": true, "noUncheckedIndexedAccess": true, "exactOptionalPropertyTypes": true,
    "lib": ["ES2022", "DOM", "esnext.disposable"], "types": ["node"], "typeRoots": ["$root/node_modules/@types"],
    "outDir": "out", "rootDir": "src"
  },
  "include": ["src/*.ts"]
}
JSON
  echo "docs: tsc --strict over $ts_checked snippets"
  (cd "$app" && "$root/node_modules/.bin/tsc" -p tsconfig.json)
fi
for name in "${ts_node[@]}"; do
  (cd "$app" && node "out/$name.js") > "$tmp/$name.out" 2>&1 || echo "(exit status $?)" >> "$tmp/$name.out"
  check "$name" "$tmp/$name.out"
done
if [ "${#ts_browser[@]}" -gt 0 ]; then
  [ -f "$tmp/snippets/browser-page.html" ] || { echo "docs: browser snippets need a 'browser-page' html snippet" >&2; exit 1; }
  for name in "${ts_browser[@]}"; do
    site="$tmp/site-$name"
    mkdir -p "$site/src"
    ln -s "$app/node_modules" "$site/node_modules"
    cp "$app/package.json" "$site/"
    cp "$tmp/snippets/browser-page.html" "$site/index.html"
    cp "$tmp/snippets/$name.ts" "$site/src/main.ts"
    # No config file: the package must load in Vite's defaults.
    if (cd "$site" && "$root/node_modules/.bin/vite" build --logLevel warn --outDir dist) > "$tmp/$name.build" 2>&1; then
      node tests/docs/browser.mjs "$site/dist" "$tmp/snippets/$name.expected" "$tmp/$name.out" || true
    else
      cp "$tmp/$name.build" "$tmp/$name.out"
    fi
    check "$name" "$tmp/$name.out"
  done
fi

# C++: against the installed package.
cpp=()
while read -r name lang src; do
  case "$src" in "$literal":*) continue ;; esac
  [ "$lang" = cpp ] && cpp+=("$name")
done < "$tmp/list"
if [ "${#cpp[@]}" -gt 0 ]; then
  cmake --install build/native-release --prefix "$tmp/prefix" >/dev/null
  for name in "${cpp[@]}"; do
    src="$tmp/cpp-$name"
    mkdir -p "$src"
    cp "$tmp/snippets/$name.cpp" "$src/main.cpp"
    if [ -f "$tmp/snippets/$name-cmake.cmake" ]; then
      cp "$tmp/snippets/$name-cmake.cmake" "$src/CMakeLists.txt"
    else
      printf '%s\n' 'cmake_minimum_required(VERSION 3.25)' 'project(app LANGUAGES CXX)' \
        'find_package(laige_sim CONFIG REQUIRED)' 'add_executable(app main.cpp)' \
        'target_link_libraries(app PRIVATE laige::sim)' > "$src/CMakeLists.txt"
    fi
    if cmake -S "$src" -B "$src/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$tmp/prefix" > "$tmp/$name.out" 2>&1 &&
       cmake --build "$src/build" >> "$tmp/$name.out" 2>&1; then
      "$src/build/app" > "$tmp/$name.out" 2>&1 || echo "(exit status $?)" >> "$tmp/$name.out"
    fi
    check "$name" "$tmp/$name.out"
  done
fi

# The quickstart, followed literally in an empty folder: its commands as
# written, its files where it says, its page served by Vite in chromium.
echo "docs: $literal, followed literally in an empty folder"
if node tests/docs/quickstart.mjs "$literal" "$tmp/$tgz" "$tmp/newcomer"; then
  echo "  ok   $literal"
else
  echo "  FAIL $literal"
  failed=$((failed + 1))
fi

if [ "$failed" -gt 0 ]; then
  echo "docs: $failed snippet(s) or page(s) failed" >&2
  exit 1
fi
echo "docs: all snippets OK"
