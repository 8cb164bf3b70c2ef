#!/usr/bin/env bash
# The truth benchmark (issue 26): scripted agent-run sessions on five real projects nobody here wrote
# (gorilla/mux, spf13/cobra, pyflakes, redux, ring's C), each edit's diagnostics compared with the
# project's own compiler or type checker run on the same tree at that moment. Prints a table per
# project and in total (false problems, missed problems, timeouts, per-edit latency, whether
# `no_new_diagnostics: true` agrees with the ground truth on the final tree); see bench/TRUTH.md.
# Not part of the test suite; it prints figures and asserts none.
#
#   ci/bench-truth.sh [--stress] [--binary PATH] [-- bench/truth/run.py options: --only NAME, --keep, --log FILE, --model-time SECONDS]
#
# --stress runs it while `stress-ng --cpu 2` keeps both cores busy. --binary uses that agent-run
# instead of building build/agent-run (the agent-run target only). Installs what it needs first
# (ci/install-truth-bench.sh).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

stress=no
binary=
while [[ $# -gt 0 ]]; do
  case $1 in
    --stress) stress=yes ;;
    --binary) binary=$2; shift ;;
    --) shift; break ;;
    *) echo "ci/bench-truth.sh: unknown argument '$1' (--stress, --binary PATH, -- run.py options)" >&2; exit 2 ;;
  esac
  shift
done

"$root/ci/install-truth-bench.sh" >&2
if [[ -z $binary ]]; then
  AGENT_RUN_TARGETS=agent-run source "$root/ci/setup.sh" binary >&2
  binary=$build_dir/agent-run
fi

label="no load added"
stress_pid=
stop_stress() {
  if [[ -n $stress_pid ]]; then
    kill -TERM "$stress_pid" 2>/dev/null || true
    wait "$stress_pid" 2>/dev/null || true
  fi
}
trap stop_stress EXIT
if [[ $stress == yes ]]; then
  stress-ng --cpu 2 --quiet &
  stress_pid=$!
  label="under stress-ng --cpu 2"
  echo "stress-ng --cpu 2 (pid $stress_pid)" >&2
fi

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 "$root/bench/truth/run.py" --binary "$binary" --tools "$root/.tools" --label "$label" "$@"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
