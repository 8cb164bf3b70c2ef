#!/usr/bin/env bash
# What the two set-up modes install covers what runs: `ci/setup.sh binary` (ci/run-examples.sh, the
# README's first command) every program the examples' checks and their sandbox run, bubblewrap
# included; `ci/setup.sh all` (ci/run-tests.sh) every program the suite runs. Each mode's list is
# read from the scripts themselves (AGENT_RUN_SETUP_PRINT=1 prints it and installs nothing), each
# program's package from dpkg (`dpkg -S`), and a program counts as covered when its package is on
# the list, is a dependency of one that is, or is installed on every Debian system (Essential or
# Priority required). Every listed package must be installed here (`dpkg -s`), as set-up left it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

binary_list=$(AGENT_RUN_SETUP_PRINT=1 ci/setup.sh binary | sort -u)
all_list=$(AGENT_RUN_SETUP_PRINT=1 ci/setup.sh all | sort -u)
[ -n "$binary_list" ] || fail "ci/setup.sh binary printed no packages"
echo "ci/setup.sh binary installs:" "${binary_list//$'\n'/ }"
echo "ci/setup.sh all installs:" "${all_list//$'\n'/ }"

# The package that owns `program` (found on PATH), trying the merged-/usr twin of its path.
owner_of() {
  local path
  path=$(command -v "$1") || return 1
  for candidate in "$path" "$(readlink -f "$path")" "/bin/$(basename "$path")" "/usr/bin/$(basename "$path")" \
    "/sbin/$(basename "$path")" "/usr/sbin/$(basename "$path")"; do
    if owner=$(dpkg -S "$candidate" 2>/dev/null | grep -v '^diversion' | head -1); then
      [ -n "$owner" ] && { echo "${owner%%:*}" | cut -d, -f1; return 0; }
    fi
  done
  return 1
}

# Whether `package` is on `list` (one a line), a direct dependency of a package on it, or on every system.
covered() {
  local package=$1 list=$2
  grep -qxF "$package" <<<"$list" && return 0
  local flags
  flags=$(dpkg-query -W -f='${Essential} ${Priority}' "$package" 2>/dev/null || true)
  [[ $flags == yes* || $flags == *required ]] && return 0
  local packages
  mapfile -t packages <<<"$list"
  dpkg-query -W -f='${Depends},${Pre-Depends}\n' "${packages[@]}" 2>/dev/null | tr ',|' '\n' |
    sed 's/^ *//; s/[ :(].*//' | grep -qxF "$package"
}

check_programs() {
  local mode=$1 list=$2
  shift 2
  for program in "$@"; do
    if ! package=$(owner_of "$program"); then
      fail "$mode: '$program' is not installed (or no package owns it): setup must install it"
      continue
    fi
    covered "$package" "$list" || fail "$mode: '$program' comes from package '$package', which ci/setup.sh $mode does not install"
  done
}

# The examples: the first word of each check (`run:`), and what the sandbox their policy turns on
# runs (exec/sandbox_layout.h: bubblewrap, util-linux's nsenter, unshare and setpriv, mount, sh, sleep).
mapfile -t example_programs < <(sed -n 's/^ *- run: *"\{0,1\}\(! *\)\{0,1\}\([A-Za-z0-9_.+-]*\).*/\2/p' tasks/examples/*.yaml | sort -u)
((${#example_programs[@]} > 0)) || fail "no checks read from tasks/examples/*.yaml"
grep -q '^sandbox: on' policies/default.yaml || fail "policies/default.yaml no longer turns the sandbox on: update this test"
echo "the examples run: ${example_programs[*]} (and the sandbox's bwrap nsenter unshare setpriv mount sh sleep)"
check_programs binary "$binary_list" "${example_programs[@]}" bwrap nsenter unshare setpriv mount sh sleep git

# The suite: the programs its tests run by name (reports: xmllint, python3's jsonschema; the sandbox;
# grep parity: rg; TLS certificates: openssl; the .deb test: dpkg-deb and CPack's file; the HTML
# report: chromium; benchmarks: hyperfine and GNU time; fuzzers: clang++; the conformance suite's
# network namespaces: ip; diagnostics: the language servers and node).
check_programs all "$all_list" bwrap rg xmllint python3 openssl dpkg-deb file chromium hyperfine /usr/bin/time \
  clang++ ip node npm gopls go clangd shellcheck pyflakes3 git g++ cmake ninja
python3 -c 'import jsonschema' 2>/dev/null || fail "all: python3 cannot import jsonschema"
grep -qxF python3-jsonschema <<<"$all_list" || fail "all: python3-jsonschema is not on the list"

# binary's list is part of all's; each listed package is installed (set-up ran before the suite).
while read -r package; do
  grep -qxF "$package" <<<"$all_list" || fail "'$package' is installed by ci/setup.sh binary but not by all"
done <<<"$binary_list"
while read -r package; do
  # ci/install-diagnostics-tools.sh asks Debian for node and npm only when none is on PATH.
  [[ $package == nodejs || $package == npm ]] && command -v node >/dev/null && command -v npm >/dev/null && continue
  dpkg -s "$package" 2>/dev/null | grep -q '^Status: install ok installed' ||
    fail "'$package' is on a set-up list but not installed (dpkg -s): is the name right?"
done <<<"$all_list"

if ((failures > 0)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "setup package lists: every program of the examples and of the suite is covered"
