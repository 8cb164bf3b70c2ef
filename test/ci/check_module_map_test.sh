#!/usr/bin/env bash
# Tests ci/check-module-map.sh on copies of runner/: the real tree passes; a file without its line, a
# line naming no file, a heading of no folder, a line named twice, a wrong "may include" cell, a
# table the layer check refuses and an over-long line each make it fail, saying where.
# Usage: test/ci/check_module_map_test.sh SOURCE_ROOT (run by ctest).
# shellcheck disable=SC2016  # the backticks in sed and grep patterns are the Markdown's
set -euo pipefail
root=$1
check=$root/ci/check-module-map.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
map=$work/runner/README.md
failures=0

fresh_copy() {
  rm -rf "$work/runner"
  cp -r "$root/runner" "$work/runner"
}

# expect_failure NAME TEXT: the check on $work/runner exits 1 and says TEXT.
expect_failure() {
  local output status=0
  output=$("$check" "$work/runner" 2>&1) || status=$?
  if ((status != 1)) || ! grep -qF -- "$2" <<<"$output"; then
    echo "FAIL $1: expected exit 1 and '$2', got exit $status:"
    echo "$output"
    failures=$((failures + 1))
  else
    echo "ok   $1"
  fi
}

fresh_copy
if output=$("$check" "$work/runner" 2>&1); then
  echo "ok   the tree as committed passes"
else
  echo "FAIL the tree as committed: $output"
  failures=$((failures + 1))
fi

fresh_copy  # a stem's line removed: its .h and .cpp are named nowhere
sed -i '/^- `glob_pattern`: /d' "$map"
expect_failure "a file without its line" "runner/search/glob_pattern has no line under \`### runner/search/\`"

fresh_copy  # a new file nobody wrote a line for, beside main.cpp
echo '#pragma once' > "$work/runner/extra.h"
expect_failure "a new file without a line" "runner/extra has no line under \`### runner/\`"

fresh_copy  # a line whose files were moved or renamed
sed -i 's/^- `glob_pattern`: /- `glob_patterns`: /' "$map"
expect_failure "a line naming no file" "\`glob_patterns\` names no file of runner/search/"

fresh_copy  # a folder's heading left behind when the folder went
printf '\n### runner/gone/\n' >> "$map"
expect_failure "a heading of no folder" "\`### runner/gone/\` is not a folder of"

fresh_copy
line=$(grep -m1 '^- `figures`: ' "$map")
sed -i "/^- \`utc_time\`: /a $line" "$map"
expect_failure "a line named twice" "\`figures\` is named twice under runner/report/"

fresh_copy  # net/ may not include report/, which is above it
sed -i 's/^\(| `net\/` | [^|]*| \)exec base |$/\1report exec base |/' "$map"
expect_failure "a 'may include' the layer check does not allow" "net/ may include 'report exec base', says its row; ci/check-layers.sh allows 'exec base'"

fresh_copy  # the order line no longer the table's: the layer check's own complaint comes through
sed -i 's/^    app > batch > /    app > task > batch > /' "$map"
expect_failure "a table the layer check refuses" "ci/check-layers.sh on the module map: "

fresh_copy
sed -i "s/^- \`figures\`: .*/- \`figures\`: $(printf 'long %.0s' {1..40})/" "$map"
expect_failure "an over-long line" "characters; a row or file line stays within 150"

if ((failures > 0)); then
  echo "$failures of the module map check's cases failed"
  exit 1
fi
echo "every case of the module map check passed"
