#!/usr/bin/env bash
# Batch-run benchmark (not in ctest's default set): set-up and build, then 200 scripted attempts
# at -j 2 over a generated 2000-file repository. Prints the per-attempt overhead beyond workspace
# creation, worktree creation time as a ratio to `git worktree add`, and agent-run's peak memory,
# each with its target; exits 1 when one is missed. Options go to ci/benchmark_batch.py (--help).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/ci/setup.sh" all
exec /usr/bin/python3 "$root/ci/benchmark_batch.py" "$build_dir/agent-run" "$@"
