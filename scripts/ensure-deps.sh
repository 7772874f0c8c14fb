#!/usr/bin/env bash
# ensure-deps.sh - installs what a fresh Debian 12 machine lacks (as root),
# and nothing when everything is there already (idempotent, quiet).
# Sourced by scripts/run.sh and scripts/test.sh.
set -euo pipefail

laige_apt_packages=(
  cmake ninja-build g++ clang libclang-rt-14-dev
  libgtest-dev googletest libbenchmark-dev libxxhash-dev
  emscripten chromium firefox-esr valgrind doxygen
)
# node and npm are checked as commands: this machine class ships NodeSource's
# nodejs (which bundles npm), and Debian's npm package conflicts with it.
laige_node_packages=(nodejs npm)

laige_ensure_apt() {
  local missing=()
  local p
  for p in "${laige_apt_packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    missing+=("${laige_node_packages[@]}")
  fi
  if [ "${#missing[@]}" -eq 0 ]; then
    return 0
  fi
  echo "laige: installing missing Debian packages: ${missing[*]}" >&2
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

laige_ensure_npm() {
  # npm ci only when node_modules is missing or older than the lockfile.
  local root="$1"
  if [ ! -f "$root/package-lock.json" ]; then return 0; fi
  if [ -d "$root/node_modules" ] && [ "$root/node_modules/.package-lock.json" -nt "$root/package-lock.json" ]; then
    return 0
  fi
  echo "laige: npm ci" >&2
  (cd "$root" && npm ci --no-audit --no-fund --loglevel=error >&2)
}

# Debian's emscripten needs Debian's acorn (docs/build.md).
export NODE_PATH=/usr/share/nodejs
