#!/usr/bin/env bash
# The action's cache keys, written to $GITHUB_OUTPUT: a built package is known by the distribution,
# the architecture and a hash of every source file that goes into it (the action's own copy of the
# repository has no .git to ask, and hashFiles() sees only the workflow's workspace).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=/dev/null
. /etc/os-release
distribution="${ID}-${VERSION_ID:-unknown}"
architecture=$(dpkg --print-architecture 2>/dev/null || uname -m)
source_hash=$(cd "$root" &&
  find CMakeLists.txt cmake runner policies reports tasks/examples ci/build-package.sh ci/setup.sh \
    -type f -print0 2>/dev/null | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-20)
cache_root="${RUNNER_TEMP:-/tmp}/agent-run-cache"
prefix="agent-run-${distribution}-${architecture}"
{
  echo "package-dir=$cache_root/package"
  echo "package-key=$prefix-package-$source_hash"
  echo "ccache-dir=$cache_root/ccache"
  echo "ccache-key=$prefix-ccache-$source_hash"
  echo "ccache-prefix=$prefix-ccache-"
} >> "${GITHUB_OUTPUT:-/dev/stdout}"
