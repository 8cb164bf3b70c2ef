#!/usr/bin/env bash
# Runs the test suite under sanitizers, each kind in a build folder of its own, and prints how long
# the build and the tests took. .ci/run runs the address kind after the suite (see docs/developing.md).
#
#   ci/sanitize-tests.sh [address|thread|all] [MODULE...] [-- CTEST_ARGUMENTS...]   # default: address
#
# address: AddressSanitizer + UndefinedBehaviorSanitizer (-DAGENT_RUN_SANITIZE=address,undefined,
#   any finding stops the program) in build-asan/, the whole suite, LeakSanitizer included. The fuzz
#   smoke runs are left out: their clang sub-build already runs under ASan and UBSan in the default
#   suite.
# thread: ThreadSanitizer in build-tsan/, the modules whose code shares data between threads and
#   that TSan can check with Debian's uninstrumented Poco and libgit2: batch (the worker pool and
#   the run loop that alone writes reports), exec (the process table, the poll loop, the child
#   readers) and report (the writers).
# MODULE...: only these test modules (test/<module>/, e.g. `exec batch`): only agent-run and their
#   test executables are built, and only their CTest entries run.
# Suppressions, each with why, are in test/sanitizers/. Exits 1 when a suite failed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kinds=address
if [[ $# -gt 0 && $1 != -- ]]; then
  kinds=$1
  shift
fi
modules=()
while [[ $# -gt 0 && $1 != -- ]]; do
  compgen -G "$root/test/$1/*_test.cpp" >/dev/null ||
    { echo "ci/sanitize-tests.sh: no test module '$1' (a folder of test/ with *_test.cpp files)" >&2; exit 2; }
  modules+=("$1")
  shift
done
[[ ${1:-} == -- ]] && shift
case $kinds in
  address | thread) ;;
  all) kinds="address thread" ;;
  *)
    echo "ci/sanitize-tests.sh: unknown sanitizer '$kinds' (address, thread or all)" >&2
    exit 2
    ;;
esac
suppressions=$root/test/sanitizers
# Children inherit these; what a sanitizer finds in any of them stops it with a report on stderr.
export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:check_initialization_order=1
export LSAN_OPTIONS=suppressions=$suppressions/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$suppressions/ubsan.supp
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$suppressions/tsan.supp

failed=0
for kind in $kinds; do
  started=$SECONDS
  selected=("${modules[@]}")
  if [[ $kind == address ]]; then
    folder=$root/build-asan
    cmake_args="-DAGENT_RUN_SANITIZE=address,undefined -DAGENT_RUN_FUZZ=OFF"
  else
    folder=$root/build-tsan
    cmake_args="-DAGENT_RUN_SANITIZE=thread -DAGENT_RUN_FUZZ=OFF"
    ((${#selected[@]} > 0)) || selected=(batch exec report)
  fi
  targets=
  ctest_args=()
  if ((${#selected[@]} > 0)); then
    targets="agent-run ${selected[*]/%/_tests}"
    ctest_args=(-R "^($(IFS='|'; echo "${selected[*]}"))\$")
  fi
  AGENT_RUN_BUILD_DIR=$folder AGENT_RUN_CMAKE_ARGS=$cmake_args AGENT_RUN_TARGETS=$targets "$root/ci/setup.sh" all
  built=$SECONDS
  if (cd "$folder" && ctest --output-on-failure --no-tests=error --parallel "$(nproc)" "${ctest_args[@]}" "$@"); then
    result=passed
  else
    result=FAILED
    failed=1
  fi
  echo "sanitizers $kind${targets:+ (${selected[*]})}: $result; build $((built - started)) s, tests $((SECONDS - built)) s ($folder)"
done
exit "$failed"
