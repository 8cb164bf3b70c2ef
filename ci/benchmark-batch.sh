#!/usr/bin/env bash
# Batch-run benchmark (not in ctest's default set): set-up and build, then 200 scripted attempts
# at -j 2 over a generated 2000-file repository. Prints the per-attempt overhead beyond workspace
# creation, worktree creation time as a ratio to `git worktree add`, and agent-run's peak memory,
# each with its target; exits 1 when one is missed. Options go to ci/benchmark_batch.py (--help).
# With --scale N first: N attempts of one tiny task instead (ci/benchmark_report_scale.py: wall time
# against the attempts' own, the time after the last attempt, peak memory, report sizes).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/ci/setup.sh" all
if [ "${1:-}" = --scale ]; then
  exec /usr/bin/python3 "$root/ci/benchmark_report_scale.py" "$build_dir/agent-run" "$@"
fi
exec /usr/bin/python3 "$root/ci/benchmark_batch.py" "$build_dir/agent-run" "$@"
