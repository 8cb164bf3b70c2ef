#!/usr/bin/env bash
# Kills agent-run with SIGKILL at random moments of a batch run ROUNDS times (default 50), each time
# followed by --resume, then lets it finish: after every kill the reports must be valid and hold no
# attempt twice, and at the end every attempt must be there once, passed, with no process, worktree,
# branch or scratch folder of the killed runs left. The same test runs in ctest with 6 kills.
#
#   ci/crash-resume.sh [ROUNDS] [SEED]      # SEED repeats a sequence of kill moments
#
# Builds with ci/setup.sh first; the test is e2e_tests' crash_safety suite.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/ci/setup.sh"
export AGENT_RUN_CRASH_ROUNDS=${1:-50}
if [[ -n ${2:-} ]]; then
  export AGENT_RUN_CRASH_SEED=$2
fi
exec "$build_dir/test/e2e_tests" --run_test=crash_safety/sigkill_at_random_moments_then_resume_ends_with_every_attempt_once \
  --color_output=no --log_level=message
