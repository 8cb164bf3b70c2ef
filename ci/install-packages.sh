#!/usr/bin/env bash
# Installs the Debian packages named on the command line that are not installed yet (apt-get, as
# root or with sudo); a second run installs nothing. Used by every set-up script in ci/.
set -euo pipefail

# AGENT_RUN_SETUP_PRINT=1: print the packages, one a line, and install nothing (the set-up scripts
# stop after their package lists: test/ci/setup_packages_test.sh reads what each mode installs).
if [ -n "${AGENT_RUN_SETUP_PRINT:-}" ]; then
  printf '%s\n' "$@"
  exit 0
fi

missing=()
for package in "$@"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "agent-run setup: installing ${missing[*]}"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  sudo=(sudo)
fi
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
