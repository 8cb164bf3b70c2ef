#!/usr/bin/env bash
# Fuzzes the policy's shell parser for longer than the CTest smoke run: ci/fuzz-shell-parser.sh
# [SECONDS] (default 600). Builds with ci/setup.sh first; keeps what it learns in
# build/test/fuzz/corpus and writes any crashing input to build/test/fuzz/crash-*.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/ci/setup.sh" all
seconds=${1:-600}
fuzzer="$build_dir/shell_parser_fuzzer"
if [ ! -x "$fuzzer" ]; then
  echo "agent-run: $fuzzer was not built (no clang++ with -fsanitize=fuzzer?)" >&2
  exit 2
fi
mkdir -p "$build_dir/test/fuzz/corpus"
cd "$build_dir/test/fuzz"
exec "$fuzzer" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -dict="$root/test/fuzz/shell_parser.dict" corpus "$root/test/fuzz/corpus/shell_parser"
