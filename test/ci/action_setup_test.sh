#!/usr/bin/env bash
# The action's steps before the run, as GitHub runs them (inputs in the environment): the first one
# masks the key inputs and prints nothing else; prepare-sandbox (and its old name, sandbox, with a
# warning) prepares the runner or leaves it; the install step installs ripgrep with the package.
# apt-get, sudo, bwrap and agent-run are stubs on PATH that note their arguments: a test must not
# install anything system-wide.
#
#   test/ci/action_setup_test.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

mkdir "$work/bin"
for program in apt-get sudo bwrap agent-run sysctl; do
  # shellcheck disable=SC2016  # expanded by the stub
  printf '#!/bin/sh\necho "%s $*" >> "$STUB_CALLS"\n[ "%s" = sudo ] && exec "$@"\nexit 0\n' "$program" "$program" >"$work/bin/$program"
  chmod +x "$work/bin/$program"
done
# Runs ci/action/$1 with the environment given after it; its log is $work/$1.log, the stubs' calls
# $work/$1.calls.
run_script() {
  local script=$1
  shift
  : >"$work/$script.calls"
  (cd "$work" && env PATH="$work/bin:$PATH" STUB_CALLS="$work/$script.calls" "$@" "$root/ci/action/$script") \
    >"$work/$script.log" 2>&1 || fail "$script exited non-zero: $(cat "$work/$script.log")"
}

# The keys are masked, each line of one on its own, before anything else; the key is never printed.
anthropic_key="sk-ant-$$-first"
run_script mask-keys.sh AGENT_RUN_ANTHROPIC_API_KEY="$anthropic_key" AGENT_RUN_OPENAI_API_KEY=$'sk-openai-50%\nsecond-line'
expected=$(printf '::add-mask::%s\n::add-mask::sk-openai-50%%25\n::add-mask::second-line' "$anthropic_key")
[ "$(cat "$work/mask-keys.sh.log")" = "$expected" ] || fail "mask-keys: printed '$(cat "$work/mask-keys.sh.log")', not the three ::add-mask:: lines"
run_script mask-keys.sh AGENT_RUN_ANTHROPIC_API_KEY= AGENT_RUN_OPENAI_API_KEY=
[ -s "$work/mask-keys.sh.log" ] && fail "mask-keys: printed something without keys: $(cat "$work/mask-keys.sh.log")"
# The action masks them in its first step, and the run step is the only other one that has them.
first_step=$(awk '/^  steps:/ { steps = 1 } steps && /run:/ { print; exit }' "$root/ci/action.yml")
[[ $first_step == *mask-keys.sh* ]] || fail "the action's first step does not run mask-keys.sh: $first_step"
[ "$(grep -c 'inputs.anthropic-api-key' "$root/ci/action.yml")" = 2 ] || fail "anthropic-api-key is read by more steps than the mask and the run"

# prepare-sandbox: true prepares the runner (bubblewrap is found, so only the probe runs it).
run_script prepare-sandbox.sh PREPARE_SANDBOX=true SANDBOX_INPUT=
grep -q '^bwrap --unshare-user' "$work/prepare-sandbox.sh.calls" || fail "prepare-sandbox true: bubblewrap was not probed: $(cat "$work/prepare-sandbox.sh.log")"
grep -q 'bubblewrap works here' "$work/prepare-sandbox.sh.log" || fail "prepare-sandbox true: no word that bubblewrap works"
grep -q '::warning' "$work/prepare-sandbox.sh.log" && fail "prepare-sandbox true: a warning: $(cat "$work/prepare-sandbox.sh.log")"
# false leaves the runner as it is.
run_script prepare-sandbox.sh PREPARE_SANDBOX=false SANDBOX_INPUT=
[ -s "$work/prepare-sandbox.sh.calls" ] && fail "prepare-sandbox false: the runner was changed: $(cat "$work/prepare-sandbox.sh.calls")"
grep -q 'prepare-sandbox is false: the runner is left as it is' "$work/prepare-sandbox.sh.log" || fail "prepare-sandbox false: not said"
# The old name still works and wins when given, with a warning.
run_script prepare-sandbox.sh PREPARE_SANDBOX=true SANDBOX_INPUT=false
[ -s "$work/prepare-sandbox.sh.calls" ] && fail "sandbox false: the runner was changed: $(cat "$work/prepare-sandbox.sh.calls")"
grep -q "^::warning title=agent-run::the input 'sandbox' is renamed 'prepare-sandbox'.*write 'prepare-sandbox: false'" \
  "$work/prepare-sandbox.sh.log" || fail "sandbox false: no deprecation warning: $(cat "$work/prepare-sandbox.sh.log")"
code=0
(cd "$work" && env PATH="$work/bin:$PATH" STUB_CALLS=/dev/null PREPARE_SANDBOX=yes "$root/ci/action/prepare-sandbox.sh") \
  >"$work/yes.log" 2>&1 || code=$?
if [ "$code" != 1 ] || ! grep -q '^::error title=agent-run::prepare-sandbox must be true or false' "$work/yes.log"; then
  fail "prepare-sandbox yes: not refused (exit $code): $(cat "$work/yes.log")"
fi

# The package comes with ripgrep, which it only recommends.
touch "$work/agent-run_0.1.0_amd64.deb"
run_script install-package.sh PACKAGE=agent-run_0.1.0_amd64.deb PACKAGE_DIR=
grep -qE "apt-get install .*--no-install-recommends $work/agent-run_0.1.0_amd64.deb ripgrep$" "$work/install-package.sh.calls" ||
  fail "install: ripgrep is not installed with the package: $(cat "$work/install-package.sh.calls")"

if ((failures)); then
  echo "$failures failed"
  exit 1
fi
echo "the action masks its keys first, prepares the sandbox as asked (the old input name too) and installs ripgrep"
