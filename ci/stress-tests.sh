#!/usr/bin/env bash
# Runs the whole test suite RUNS times in a row (default 10) while stress-ng keeps the machine busy
# with CPU, I/O and disk load (load average about 4 on two cores, as a loaded CI runner has), and
# reports each failure: the run, the CTest entry and the Boost.Test case that failed, with the log.
#
#   ci/stress-tests.sh [RUNS] [-- CTEST_ARGUMENTS...]
#
# AGENT_RUN_STRESS sets stress-ng's load (default: --cpu 2 --io 1 --hdd 1 --hdd-bytes 64M);
# AGENT_RUN_STRESS=none runs without load. Logs go to build/stress/run-N.log. Exits 0 when every run
# passed, 1 otherwise. Builds with ci/setup.sh first and installs stress-ng (ci/install-stress-tools.sh).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=10
if [[ $# -gt 0 && $1 != -- ]]; then
  runs=$1
  shift
fi
[[ ${1:-} == -- ]] && shift
source "$root/ci/setup.sh"
"$root/ci/install-stress-tools.sh"

logs=$build_dir/stress
rm -rf "$logs"
mkdir -p "$logs"
load=${AGENT_RUN_STRESS:---cpu 2 --io 1 --hdd 1 --hdd-bytes 64M}
stress_pid=
stop_stress() {
  if [[ -n $stress_pid ]]; then
    kill -TERM "$stress_pid" 2>/dev/null || true
    wait "$stress_pid" 2>/dev/null || true
  fi
}
trap stop_stress EXIT
if [[ $load != none ]]; then
  # shellcheck disable=SC2086  # the load is a list of stress-ng options
  (cd "$logs" && exec stress-ng $load --temp-path "$logs" --quiet) &
  stress_pid=$!
  echo "stress-ng $load (pid $stress_pid)"
fi

failed_runs=0
summary=()
for ((run = 1; run <= runs; run++)); do
  log=$logs/run-$run.log
  started=$SECONDS
  if (cd "$build_dir" && ctest --output-on-failure --no-tests=error --parallel "$(nproc)" "$@") >"$log" 2>&1; then
    result=passed
  else
    result=FAILED
    failed_runs=$((failed_runs + 1))
  fi
  load_now=$(cut -d' ' -f1 /proc/loadavg)
  line=$(printf 'run %2d: %-6s %4ds  load %s' "$run" "$result" $((SECONDS - started)) "$load_now")
  echo "$line"
  summary+=("$line")
  if [[ $result == FAILED ]]; then
    # The CTest entries that failed, then each failed Boost.Test check with its file and line.
    sed -n '/The following tests FAILED:/,/Errors while running CTest/p' "$log" | grep -E '^\s+[0-9]+ - ' |
      sed 's/^/    ctest: /' || true
    grep -E 'error: in "' "$log" | sed -E 's/\x1b\[[0-9;]*m//g; s/^/    /' | head -20 || true
    echo "    log: $log"
  fi
done

echo
echo "$runs runs under load (${load}): $((runs - failed_runs)) passed, $failed_runs failed"
((failed_runs == 0))
