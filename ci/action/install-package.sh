#!/usr/bin/env bash
# Installs agent-run from a .deb with apt-get, which brings the libraries it links against:
# $PACKAGE when the workflow gave one, else the one in $PACKAGE_DIR (built or restored from cache).
# ripgrep, which the package only recommends, is installed with it (the grep tool's fast backend);
# bubblewrap comes with the prepare-sandbox step.
set -euo pipefail
package=${PACKAGE:-}
if [ -z "$package" ]; then
  shopt -s nullglob
  found=("${PACKAGE_DIR:?}"/agent-run_*.deb)
  if [ "${#found[@]}" -ne 1 ]; then
    echo "::error title=agent-run::expected one agent-run .deb in $PACKAGE_DIR, found ${#found[@]}"
    exit 1
  fi
  package=${found[0]}
fi
case $package in
  /*) ;;
  *) package="$PWD/$package" ;;
esac
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  sudo=(sudo)
fi
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$package" ripgrep >/dev/null
agent-run --version
