#!/usr/bin/env bash
# Installs the Debian packages agent-run needs (only those missing), then configures and builds it
# in build/ (or $AGENT_RUN_BUILD_DIR). Safe to re-run: a second run installs nothing and rebuilds only
# what changed.
#
#   ci/setup.sh binary   what the agent-run binary needs to build, and what the examples' checks run;
#                        builds only the agent-run target (ci/run-examples.sh)
#   ci/setup.sh [all]    that, plus everything the test suite runs against (ci/install-test-tools.sh);
#                        builds every target (ci/run-tests.sh)
#
# Sourced by run-examples.sh and run-tests.sh (which set $build_dir from it); can also be run on its own.
# AGENT_RUN_CMAKE_ARGS adds options to the configure of a new build folder and AGENT_RUN_TARGETS
# names the targets to build instead (ci/sanitize-tests.sh sets both for its own folders).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${AGENT_RUN_BUILD_DIR:-$root/build}
setup_mode=${1:-all}

case $setup_mode in
  binary | all) ;;
  *)
    echo "ci/setup.sh: unknown mode '$setup_mode' (binary or all)" >&2
    exit 2
    ;;
esac

# The compiler and build tools, the libraries agent-run links against, git, bubblewrap (the sandbox
# the examples' policy turns on: without it each attempt is an error, sandbox.unavailable), and
# python3 for the examples' checks.
"$root/ci/install-packages.sh" g++ cmake ninja-build pkg-config ccache git \
  libpoco-dev libyaml-cpp-dev libre2-dev libgit2-dev libvalijson-dev bubblewrap python3

if [ "$setup_mode" = all ]; then
  "$root/ci/install-test-tools.sh"
fi
# AGENT_RUN_SETUP_PRINT=1 prints the packages this mode installs (ci/install-packages.sh), and stops.
if [ -n "${AGENT_RUN_SETUP_PRINT:-}" ]; then
  exit 0
fi

testing=OFF
targets=(--target agent-run)
if [ "$setup_mode" = all ]; then
  testing=ON
  targets=()
fi
if [ -n "${AGENT_RUN_TARGETS:-}" ]; then
  # shellcheck disable=SC2206  # a list of target names
  targets=(--target ${AGENT_RUN_TARGETS})
fi
# shellcheck disable=SC2206  # a list of CMake options
extra_cmake_args=(${AGENT_RUN_CMAKE_ARGS:-})
# A build folder configured without the tests gets them when the test suite needs them; one with
# them keeps them when only the binary is asked for.
if [ ! -f "$build_dir/build.ninja" ] ||
   { [ "$testing" = ON ] && grep -q '^BUILD_TESTING:BOOL=OFF' "$build_dir/CMakeCache.txt"; }; then
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING="$testing" \
    "${extra_cmake_args[@]}" >/dev/null
fi
cmake --build "$build_dir" --parallel "$(nproc)" "${targets[@]}"
