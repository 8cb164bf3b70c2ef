#!/usr/bin/env bash
# Runs the libFuzzer targets (test/fuzz/targets.cmake) longer than the CTest smoke runs: each for
# MINUTES (default 10), one at a time, at low priority (nice -n 10: the machine may be shared).
#
#   ci/fuzz.sh [MINUTES] [TARGET...]      # default: every target
#
# What a target learns stays in build/test/fuzz/corpus/<target>/ (the seeds in test/fuzz/corpus/ are
# only read); an input that crashes it, or breaks one of its invariants, is written to
# build/test/fuzz/crashes/<target>/. Prints a line per target: minutes, executions, new inputs
# (corpus files added), crashes. Exits 1 when a target crashed. Builds with ci/setup.sh first.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
minutes=10
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
  minutes=$1
  shift
fi
source "$root/ci/setup.sh"
fuzzers=$build_dir/fuzz/test/fuzz
if ! compgen -G "$fuzzers/*_fuzzer" >/dev/null; then
  echo "agent-run: no fuzz targets in $fuzzers (no clang++ with -fsanitize=fuzzer, or -DAGENT_RUN_FUZZ=OFF?)" >&2
  exit 2
fi
targets=("$@")
if ((${#targets[@]} == 0)); then
  for binary in "$fuzzers"/*_fuzzer; do
    name=$(basename "$binary")
    targets+=("${name%_fuzzer}")
  done
fi

crashed=0
printf '%-18s %8s %12s %11s %8s\n' target minutes executions new-inputs crashes
for target in "${targets[@]}"; do
  binary=$fuzzers/${target}_fuzzer
  [[ -x $binary ]] || { echo "agent-run: no fuzz target '$target' in $fuzzers" >&2; exit 2; }
  corpus=$build_dir/test/fuzz/corpus/$target
  crashes=$build_dir/test/fuzz/crashes/$target
  mkdir -p "$corpus" "$crashes"
  dictionary=()
  [[ -f $root/test/fuzz/$target.dict ]] && dictionary=(-dict="$root/test/fuzz/$target.dict")
  before=$(find "$corpus" -type f | wc -l)
  log=$build_dir/test/fuzz/$target.log
  status=0
  nice -n 10 "$binary" -max_total_time=$((minutes * 60)) -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$crashes/" "${dictionary[@]}" "$corpus" "$root/test/fuzz/corpus/$target" \
    >"$log" 2>&1 || status=$?
  after=$(find "$corpus" -type f | wc -l)
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  found=$(find "$crashes" -type f | wc -l)
  if ((status != 0 || found > 0)); then
    crashed=1
  fi
  printf '%-18s %8s %12s %11s %8s\n' "$target" "$minutes" "${executions:-?}" $((after - before)) "$found"
done
((crashed == 0)) || { echo "crashing inputs are in $build_dir/test/fuzz/crashes/ (logs beside them)"; exit 1; }
