#!/usr/bin/env bash
# The soak (not part of ctest; about ten minutes on two cores): hundreds of attempts of agent-run at
# -j 2 against a loopback model server that injects faults into a share of the model calls (429 with
# retry-after, 529, 500, a stream cut mid-way, a stall past the idle timeout, a malformed chunk, 200s
# whose body is not the stream: all retried), with tools that time out, flood their output and leave escaping children.
# Checks that every attempt is reported exactly once with the right outcome, that every fault is a
# failed try in the report, that no process, worktree, branch or scratch folder is left, and prints
# agent-run's descriptors and memory over the run. Exits 1 when a check fails.
#
#   ci/soak.sh [--attempts N] [--jobs J] [--fault-rate F] [--seed S] [--keep]   # defaults: 500, 2, 0.2, 18
#
# Builds with ci/setup.sh first; the server and the checks are ci/soak.py.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/ci/setup.sh" all
exec python3 "$root/ci/soak.py" --binary "$build_dir/agent-run" "$@"
