#!/usr/bin/env bash
# Installs the Debian packages agent-run needs (only those missing), then configures and builds it
# in build/. Safe to re-run: a second run installs nothing and rebuilds only what changed.
# Sourced by run-examples.sh and run-tests.sh; can also be run on its own.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${AGENT_RUN_BUILD_DIR:-$root/build}

packages=(
  g++ cmake ninja-build pkg-config git ccache
  libpoco-dev libyaml-cpp-dev libre2-dev libgit2-dev libboost-test-dev
  libxml2-utils ripgrep python3 python3-jsonschema openssl
  clang libclang-rt-14-dev bubblewrap
  hyperfine libbenchmark-dev   # ci/benchmark.sh: whole-process timing, in-process figures (Google Benchmark)
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "agent-run setup: installing ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Language servers and linters for the per-edit diagnostics tests (Debian packages and .tools/ from npm).
"$root/ci/install-diagnostics-tools.sh"
# The reference MCP servers and the MCP conformance suite (.tools/mcp/ from npm).
"$root/ci/install-test-tools.sh"

if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build_dir" --parallel "$(nproc)"
