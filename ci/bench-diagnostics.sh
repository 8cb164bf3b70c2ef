#!/usr/bin/env bash
# Prints the cold and warm latency of the per-edit diagnostics check per checker (language servers
# and linters) on small projects. Installs what is missing first (ci/setup.sh), then builds and
# runs build/diagnostics-benchmark. Arguments: [cold runs (default 3)] [warm edits (default 10)].
#
#   ci/bench-diagnostics.sh --session [RUNS]   instead, how many edits of a scripted 5-edit agent-run
#       session got the language server (issue 19): bench/diagnostics_session.py makes a Python project
#       (a 690-line module and a second module importing from it, in a git repository), runs the
#       session with pyright-langserver from .tools on PATH RUNS times (default 3) back to back and
#       RUNS times with 3 s between the edits, and prints "N of 5 edits got the server" per run from
#       its report.json. It prints figures and asserts none.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/ci/setup.sh" all
if [ "${1:-}" = --session ]; then
  exec python3 "$root/bench/diagnostics_session.py" --binary "$build_dir/agent-run" \
    --tools "$root/.tools/node_modules/.bin" --runs "${2:-3}"
fi
cmake --build "$build_dir" --target diagnostics-benchmark >/dev/null
exec "$build_dir/diagnostics-benchmark" "$@"
