#!/usr/bin/env bash
# Builds agent-run's .deb from this source: what the binary needs (ci/setup.sh binary) in its own
# build folder, then CPack; copies the .deb to OUT_DIR (default: build-package/). Used by the GitHub
# Action (ci/action.yml) and the image (ci/Dockerfile).
#
#   ci/build-package.sh [OUT_DIR]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out_dir=${1:-$root/build-package}
export AGENT_RUN_BUILD_DIR=${AGENT_RUN_BUILD_DIR:-$root/build-package}

"$root/ci/install-packages.sh" dpkg-dev file
"$root/ci/setup.sh" binary
(cd "$AGENT_RUN_BUILD_DIR" && cpack -G DEB >/dev/null)
mkdir -p "$out_dir"
if [ "$(cd "$out_dir" && pwd)" != "$(cd "$AGENT_RUN_BUILD_DIR" && pwd)" ]; then
  cp "$AGENT_RUN_BUILD_DIR"/agent-run_*.deb "$out_dir"/
fi
ls "$out_dir"/agent-run_*.deb
