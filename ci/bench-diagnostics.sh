#!/usr/bin/env bash
# Prints the cold and warm latency of the per-edit diagnostics check per checker (language servers
# and linters) on small projects. Installs what is missing first (ci/setup.sh), then builds and
# runs build/diagnostics-benchmark. Arguments: [cold runs (default 3)] [warm edits (default 10)].
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/ci/setup.sh" all
cmake --build "$build_dir" --target diagnostics-benchmark >/dev/null
exec "$build_dir/diagnostics-benchmark" "$@"
