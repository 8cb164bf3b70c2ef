#!/usr/bin/env bash
# Set-up of only what the binary needs (ci/setup.sh binary: its packages, the agent-run target), then
# agent-run on the examples in tasks/examples/ with the built-in scripted model (no API key, no
# network). Reports go to out/examples/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/ci/setup.sh" binary
cd "$root"
exec "$build_dir/agent-run" tasks/examples/*.yaml --out out/examples "$@"
