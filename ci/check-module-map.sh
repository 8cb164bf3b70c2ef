#!/usr/bin/env bash
# The module map's check: runner/README.md names every file of runner/ and nothing that is not there,
# and its table's "may include" cells say what ci/check-layers.sh allows. Each file has one line,
# `- \`STEM\`: its job`, under the heading of its folder (`### runner/FOLDER/`; `### runner/` for
# main.cpp); a .h and a .cpp (or .cpp.in) share their stem's line, any other file is named whole
# (`prices.json`). The "may include" cells are compared with what the layer check itself says of an
# include of every folder from every folder, on a tree of empty files. Table rows and file lines stay
# within 150 characters, so the map can be scanned. Run by ctest (test `module_map`).
# Usage: ci/check-module-map.sh [RUNNER_DIR]   (default: the runner/ beside this script's folder)
set -euo pipefail
export LC_ALL=C.UTF-8
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
runner=${1:-$here/../runner}
runner=$(cd "$runner" && pwd)
map=$runner/README.md
max_width=150
status=0
fail() {
  echo "$*" >&2
  status=1
}

# Every file of runner/ as FOLDER/NAME (FOLDER empty for runner/ itself), NAME its stem for C++ sources.
mapfile -t files < <(cd "$runner" && find . -type f ! -path ./README.md |
  sed -E 's|^\./||; s/\.(h|cpp|cpp\.in)$//; /\//!s|^|/|' | sort -u)
# The map's file lines as LINE FOLDER/NAME, and its headings as LINE FOLDER.
# shellcheck disable=SC2016  # an awk program, whose $ are awk's
named=$(awk '
  /^### runner\/([a-z_]+\/)?$/ { folder = $2; sub(/^runner\/?/, "", folder); sub(/\/$/, "", folder); print FNR, "heading", folder; next }
  /^#/ { folder = "-" }
  /^- `[^`]+`: / && folder != "-" { name = $0; sub(/^- `/, "", name); sub(/`.*/, "", name); print FNR, "file", folder "/" name }
  ' folder=- "$map")

# The folder's name as the map's headings write it: runner/FOLDER/, or runner/ for runner/ itself.
shown() { echo "runner/$1${1:+/}"; }
declare -A has_file has_line has_heading
for file in "${files[@]}"; do has_file[$file]=1; done
while read -r line kind what; do
  [[ -n $line ]] || continue
  folder=${what%%/*} name=${what#*/}
  if [[ $kind == heading ]]; then
    has_heading[@$what]=$line
    [[ -d $runner/$what ]] || fail "$map:$line: \`### $(shown "$what")\` is not a folder of $runner"
  elif [[ -n ${has_line[$what]+set} ]]; then
    fail "$map:$line: \`$name\` is named twice under $(shown "$folder") (first on line ${has_line[$what]})"
  else
    has_line[$what]=$line
    [[ -n ${has_file[$what]+set} ]] ||
      fail "$map:$line: \`$name\` names no file of $(shown "$folder") (no $name.h, $name.cpp, $name.cpp.in or $name there)"
  fi
done <<<"$named"
for file in "${files[@]}"; do
  folder=${file%%/*} name=${file#*/}
  if [[ -z ${has_heading[@$folder]+set} ]]; then
    fail "$map: no heading \`### $(shown "$folder")\` for the files of $(shown "$folder")"
    has_heading[@$folder]=none
  elif [[ ${has_heading[@$folder]} == none ]]; then
    continue
  elif [[ -z ${has_line[$file]+set} ]]; then
    fail "$map:${has_heading[@$folder]}: $(shown "$folder")$name has no line under \`### $(shown "$folder")\`; add \`- \`$name\`: its job in one line\`"
  fi
done

# What the layer check allows: every folder includes every other on a tree of empty files, and the
# check's complaints say which includes point up.
# shellcheck disable=SC2016  # the backticks are the Markdown's, for sed to match
mapfile -t folders < <(sed -nE 's/^\| `([a-z_]+)\/` \|.*/\1/p' "$map")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$map" "$work/README.md"
for folder in "$runner"/*/; do
  folder=$(basename "$folder")
  mkdir "$work/$folder"
  for other in "${folders[@]}"; do echo "#include \"$other/probe.h\""; done > "$work/$folder/probe.cpp"
done
layers=$("$here/check-layers.sh" "$work" 2>&1) || true
declare -A refused
layers_refused_map=0
while IFS= read -r complaint; do
  if [[ $complaint =~ /([a-z_]+)/probe\.cpp:[0-9]+:\ [a-z_]+/\ includes\ ([a-z_]+)/,\ which\ is\ above\ it ]]; then
    refused[${BASH_REMATCH[1]}/${BASH_REMATCH[2]}]=1
  elif [[ -n $complaint && ! $complaint =~ ^layers: ]]; then
    fail "ci/check-layers.sh on the module map: ${complaint//$work/$runner}"
    layers_refused_map=1
  fi
done <<<"$layers"

# The "may include" cell (the third) of each row: the folders named, `—` for none. Not compared
# when the layer check refused the table itself (it then checks no include).
((layers_refused_map)) || while IFS=$'\t' read -r line folder cell; do
  allowed=()
  for other in "${folders[@]}"; do
    [[ $other == "$folder" || -n ${refused[$folder/$other]+set} ]] || allowed+=("$other")
  done
  expected=${allowed[*]:-—}
  said=$(sed -E 's/`//g; s/[[:space:]]+/ /g; s/^ //; s/ $//' <<<"$cell")
  [[ $said == "$expected" ]] ||
    fail "$map:$line: $folder/ may include '$said', says its row; ci/check-layers.sh allows '$expected'"
done < <(awk -F'|' '/^\| `[a-z_]+\/` \|/ { name = $2; gsub(/[ `\/]/, "", name); print FNR "\t" name "\t" $4 }' "$map")

# Rows and file lines short enough to scan (counted in characters, not bytes).
line=0
while IFS= read -r text; do
  line=$((line + 1))
  [[ ($text == '| `'* || $text == '- `'*) && ${#text} -gt $max_width ]] &&
    fail "$map:$line: ${#text} characters; a row or file line stays within $max_width (move detail to a file's line)"
done < "$map"

if ((status == 0)); then
  echo "module map: ${#files[@]} file stems of $runner named in $map; ${#folders[@]} rows' \"may include\" agree with ci/check-layers.sh"
fi
exit $status
