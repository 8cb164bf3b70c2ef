#!/usr/bin/env bash
# Installs what the per-edit diagnostics tests and benchmark run against: language servers and
# linters from Debian (only those missing), and pyright, TypeScript 5.x and
# typescript-language-server from npm into the git-ignored project folder .tools/ (never globally).
# The tests put .tools/node_modules/.bin on PATH themselves. Safe to re-run: a second run installs
# nothing. Called by ci/install-test-tools.sh; can also be run on its own (as root, or as a user who may sudo).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools_dir=$root/.tools

# gopls and go (Go), clangd (C/C++), shellcheck (shell), pyflakes3 (Python fallback). cargo is the
# Rust fallback: taken from Debian only when no cargo is on PATH (a rustup one counts).
packages=(gopls golang-go clangd shellcheck pyflakes3 g++ nodejs npm)
if ! command -v cargo >/dev/null 2>&1; then
  packages+=(cargo)
fi

# The machine may bring node and npm some other way: only ask Debian for them when none is on PATH
# (the printed list, AGENT_RUN_SETUP_PRINT, is what a machine without them gets).
if [ -z "${AGENT_RUN_SETUP_PRINT:-}" ] && command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  kept=()
  for package in "${packages[@]}"; do
    [[ $package == nodejs || $package == npm ]] || kept+=("$package")
  done
  packages=("${kept[@]}")
fi
"$root/ci/install-packages.sh" "${packages[@]}"
[ -z "${AGENT_RUN_SETUP_PRINT:-}" ] || exit 0  # only the package list (ci/install-packages.sh)

# npm packages, pinned. typescript-language-server needs a tsserver.js, which only TypeScript 5 and 6
# ship (7 is the native compiler); 5.3.0 is the last typescript-language-server that runs on node 20.
# eslint is the JavaScript fallback for projects with an eslint.config.*.
wanted='{"private":true,"dependencies":{"eslint":"10.15.0","pyright":"1.1.414","typescript":"5.9.3","typescript-language-server":"5.3.0"}}'
mkdir -p "$tools_dir"
if [ ! -f "$tools_dir/package.json" ] || [ "$(cat "$tools_dir/package.json")" != "$wanted" ] ||
   [ ! -x "$tools_dir/node_modules/.bin/typescript-language-server" ] ||
   [ ! -x "$tools_dir/node_modules/.bin/pyright-langserver" ] || [ ! -x "$tools_dir/node_modules/.bin/tsc" ] ||
   [ ! -x "$tools_dir/node_modules/.bin/eslint" ]; then
  echo "agent-run diagnostics tools: npm install into .tools/"
  printf '%s' "$wanted" > "$tools_dir/package.json"
  (cd "$tools_dir" && npm install --no-audit --no-fund --loglevel=error >/dev/null)
fi

# TypeScript 7 (the native compiler, whose `tsc --lsp --stdio` is its own language server) in a
# folder of its own, since typescript-language-server needs the TypeScript 5 beside it.
wanted7='{"private":true,"dependencies":{"typescript":"7.0.2"}}'
mkdir -p "$tools_dir/ts7"
if [ ! -f "$tools_dir/ts7/package.json" ] || [ "$(cat "$tools_dir/ts7/package.json")" != "$wanted7" ] ||
   [ ! -x "$tools_dir/ts7/node_modules/.bin/tsc" ]; then
  echo "agent-run diagnostics tools: npm install TypeScript 7 into .tools/ts7/"
  printf '%s' "$wanted7" > "$tools_dir/ts7/package.json"
  (cd "$tools_dir/ts7" && npm install --no-audit --no-fund --loglevel=error >/dev/null)
fi
