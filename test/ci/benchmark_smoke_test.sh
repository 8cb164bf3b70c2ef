#!/usr/bin/env bash
# Smoke test of ci/benchmark.sh's harness (bench/benchmark.py --smoke: tiny generated trees, two runs,
# targets not judged): it prints its table with a figure for every section it ran, and the built-in
# grep's output equals `rg --sort path`'s byte for byte on every tree. No timing is asserted.
# Usage: test/ci/benchmark_smoke_test.sh SOURCE_ROOT BUILD_DIR (run by ctest).
set -euo pipefail
root=$1
build=$2
for program in hyperfine rg /usr/bin/time; do
  command -v "$program" >/dev/null || { echo "benchmark smoke: $program is missing (ci/install-test-tools.sh installs it)"; exit 1; }
done
[ -x "$build/bench/inprocess-bench" ] || { echo "benchmark smoke: $build/bench/inprocess-bench was not built (libbenchmark-dev)"; exit 1; }
output=$(/usr/bin/python3 "$root/bench/benchmark.py" "$build" --smoke --only loop,model,grep,files,startup 2>&1) || {
  echo "$output"; echo "benchmark smoke: the harness failed"; exit 1; }
echo "$output"
failures=0
expect() {  # expect DESCRIPTION PATTERN: some line of the output matches PATTERN (grep -E)
  if ! grep -Eq -- "$2" <<<"$output"; then
    echo "FAILED: $1 (no line matches: $2)"
    failures=$((failures + 1))
  fi
}
expect "the table's header" '^\| section \| figure \| agent-run \| peer \|'
expect "the load average" 'load average before [0-9.]+ [0-9.]+ [0-9.]+, after'
for section in loop model grep glob files startup; do
  expect "a figure for $section" "^\| $section \| .* \| [0-9.]+ (ms|MiB|s) \|"
done
for peer in 'rg --files' 'rg --files --sortr modified'; do
  expect "the glob tool against $peer" "^\| glob \| glob tool: .* \| $peer \| [0-9.]+ ms \| [0-9.]+x \|"
done
for tree in binaries '[0-9]+ files' python3.11; do
  expect "built-in output = rg on $tree" "^\| grep \| built-in output = rg --sort path: .* on $tree \| identical \|"
  expect "ripgrep backend output = rg on $tree" "^\| grep \| ripgrep backend output = rg --sort path: .* on $tree \| identical \|"
done
if grep -q 'DIFFERENT' <<<"$output"; then
  echo "FAILED: an output differs from rg's"
  failures=$((failures + 1))
fi
[ "$failures" -eq 0 ] && echo "benchmark smoke: ok"
exit "$failures"
