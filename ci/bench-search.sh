#!/usr/bin/env bash
# Benchmark of the grep tool's built-in search against ripgrep, and of the glob tool against
# `rg --files`, on a big source tree (default /usr/include). Prints each time (best of N runs after a
# warm-up) and the ratio to ripgrep; targets: built-in grep <= 1.5x rg, glob <= 2x rg --files.
# Not part of ctest. Usage: ci/bench-search.sh [TREE] [RUNS]. Exit code 1 when a target is missed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/ci/setup.sh"
cmake --build "$build_dir" --target search_bench >/dev/null
exec "$build_dir/search_bench" "${1:-/usr/include}" "${2:-5}"
