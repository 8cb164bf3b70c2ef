#!/usr/bin/env bash
# agent-run's own cost against its peers, as one table (not part of ctest's default set; about
# 20 minutes on two cores, the build from scratch included). Set-up and build, then
# bench/benchmark.py: the agent loop per turn (100, 1,000 and 5,000 turns), request building and
# stream parsing, grep (both backends) against rg and glob against rg --files and against
# rg --files --sortr modified (which stats every file, as the glob tool must) with peak memory on
# generated trees and a real one, read_file paging of a 1 GB file, edit_file on a 10 MB file,
# worktree creation against git worktree add and the patch against git diff on a 50,000-file
# repository, start-up, validate of 1,000 task files, sandbox start-up through `agent-run tool` at
# 1,000, 10,000 and 100,000 files against --sandbox off and its grep and glob against rg and
# rg --files -g on /usr/include (--tool-tree), peak memory at -j 16, and the full build.
# Exits 1 when a target is missed. Options go to bench/benchmark.py (--help): --only, --skip,
# --runs, --real-tree, --smoke.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/ci/setup.sh" all
exec /usr/bin/python3 "$root/bench/benchmark.py" "$build_dir" "$@"
