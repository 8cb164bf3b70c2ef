#!/usr/bin/env bash
# Set-up of everything the tests need (ci/setup.sh all: packages, test tools, every target), then the
# whole test suite through ctest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/ci/setup.sh" all
cd "$build_dir"
exec ctest --output-on-failure --no-tests=error --parallel "$(nproc)" "$@"
