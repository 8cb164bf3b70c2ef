#!/usr/bin/env bash
# Tests ci/check-layers.sh on copies of runner/: the real tree passes; one include pointing up, an
# include of a folder the map does not name, and a folder missing from the map each make it fail,
# naming the file and line. Usage: test/ci/check_layers_test.sh SOURCE_ROOT (run by ctest).
set -euo pipefail
root=$1
check=$root/ci/check-layers.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
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

fresh_copy  # base/ is the lowest layer: an include of app/ points up
line=$(($(grep -n '^#include' "$work/runner/base/text.h" | tail -1 | cut -d: -f1) + 1))
sed -i "${line}i #include \"app/commands.h\"" "$work/runner/base/text.h"
expect_failure "an include pointing up" "runner/base/text.h:$line: base/ includes app/, which is above it"

fresh_copy  # one layer up is as wrong as many: report/ is just below workspace/
echo '#include "workspace/workspace.h"' >> "$work/runner/report/usage.cpp"
expect_failure "an include one layer up" "report/usage.cpp:$(wc -l < "$work/runner/report/usage.cpp"): report/ includes workspace/"

fresh_copy
echo '#include "nowhere/thing.h"' >> "$work/runner/exec/process.cpp"
expect_failure "an include of a folder the map does not name" "includes \"nowhere/...\", a folder the module map does not name"

fresh_copy
mkdir "$work/runner/extras" && echo '#pragma once' > "$work/runner/extras/extra.h"
expect_failure "a folder missing from the map" "runner/extras/: not in the module map"

fresh_copy  # the order lives in the table: moving base/ to the top makes every include of it point up
awk '/^\| `app\/`/ { print base } /^\| `base\/`/ { next } { print }' base="$(grep '^| `base/`' "$root/runner/README.md")" \
  "$root/runner/README.md" | sed -E 's/^    app > (.*) > base$/    base > app > \1/' > "$work/runner/README.md"
expect_failure "the order read from the README's table" "exec/ includes base/, which is above it"

fresh_copy
sed -i 's/^    app > batch > /    app > task > batch > /' "$work/runner/README.md"
expect_failure "an order line that disagrees with the table" "the order line says 'app > task > batch"

if ((failures > 0)); then
  echo "$failures of the layer check's cases failed"
  exit 1
fi
echo "every case of the layer check passed"
