#!/usr/bin/env bash
# HTML report benchmark (not part of ctest): a report folder of N attempts (default 5000: 500 tasks,
# two models, five repeats, a quarter failed, patches) made from the examples' real report, merged by
# agent-run (which writes report.html and summary.md), then report.html opened in headless Chromium.
# Prints the page's size and its load time: a screenshot of it against one of an empty page, the
# median of RUNS each (default 3). Options go to ci/bench_html_report.py (--help).
#
#   ci/bench-html-report.sh [--attempts N] [--runs RUNS]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/ci/setup.sh" all
exec /usr/bin/python3 "$root/ci/bench_html_report.py" "$build_dir/agent-run" "$@"
