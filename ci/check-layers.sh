#!/usr/bin/env bash
# The layer check: a file in runner/FOLDER/ may include only FOLDER's own headers and those of the
# folders below FOLDER in the module map, the table of runner/README.md read top to bottom (its one
# home; the one-line summary above it must agree). Prints each include that points up as FILE:LINE and exits 1; also fails when a folder of
# runner/ is missing from the table or the table names one that is not there. Files directly in
# runner/ (main.cpp) stand above every folder. Run by ctest (test `layers`).
# Usage: ci/check-layers.sh [RUNNER_DIR]   (default: the runner/ beside this script's folder)
set -euo pipefail
runner=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/runner}
map=$runner/README.md

# The module map's folders, top to bottom: the first cell of each table row, written `name/`.
# shellcheck disable=SC2016  # the backticks are the Markdown's, for sed to match
mapfile -t order < <(sed -nE 's/^\| `([a-z_]+)\/` \|.*/\1/p' "$map")
if ((${#order[@]} == 0)); then
  echo "$map: no module map table (rows like | \`base/\` | ... |)" >&2
  exit 1
fi
# The order written out as one line (`    app > batch > ... > base`) must be the table's.
summary=$(sed -nE 's/^    ([a-z_]+( > [a-z_]+)+)$/\1/p' "$map")
expected=$(printf '%s > ' "${order[@]}")
expected=${expected% > }
if [[ -n $summary && $summary != "$expected" ]]; then
  echo "$map: the order line says '$summary' but the table's rows say '$expected'" >&2
  exit 1
fi

declare -A rank
for i in "${!order[@]}"; do rank[${order[$i]}]=$i; done

status=0
for folder in "$runner"/*/; do
  name=$(basename "$folder")
  if [[ -z ${rank[$name]+set} ]]; then
    echo "$runner/$name/: not in the module map ($map); add a row for it where it belongs" >&2
    status=1
  fi
done
for name in "${order[@]}"; do
  if [[ ! -d $runner/$name ]]; then
    echo "$map: the module map names $name/, which is not a folder of $runner" >&2
    status=1
  fi
done

# Every quoted include of a folder, checked against the rank of the including file's folder.
# shellcheck disable=SC2016  # an awk program, whose $ are awk's
includes=$(find "$runner" -mindepth 2 \( -name '*.h' -o -name '*.cpp' -o -name '*.in' \) -print0 | sort -z |
  xargs -0 awk -v runner="$runner/" -v map="$map" -v order="${order[*]}" '
    BEGIN { n = split(order, names, " "); for (i = 1; i <= n; ++i) rank[names[i]] = i }
    match($0, /^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]+\//) {
      included = $0; sub(/^[^"]*"/, "", included); sub(/\/.*/, "", included)
      own = substr(FILENAME, length(runner) + 1); sub(/\/.*/, "", own)
      if (!(own in rank)) next
      if (!(included in rank)) {
        printf "%s:%d: includes \"%s/...\", a folder the module map does not name\n", FILENAME, FNR, included
      } else if (rank[included] < rank[own]) {
        printf "%s:%d: %s/ includes %s/, which is above it in the module map (%s)\n", FILENAME, FNR, own, included, map
      }
    }')
if [[ -n $includes ]]; then
  echo "$includes" >&2
  status=1
fi

if ((status == 0)); then
  echo "layers: ${order[*]} (top to bottom): every include of $runner points down"
fi
exit $status
