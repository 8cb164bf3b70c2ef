#!/usr/bin/env bash
# Installs what the reliability commands need beyond ci/setup.sh (only what is missing): stress-ng,
# the load ci/stress-tests.sh runs the suite under. Safe to re-run: a second run installs nothing.
# Called by ci/stress-tests.sh; can also be run on its own. (ci/install-test-tools.sh installs the MCP servers.)
set -euo pipefail

packages=(stress-ng)
missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "agent-run stress tools: installing ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
