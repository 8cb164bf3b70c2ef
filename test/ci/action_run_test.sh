#!/usr/bin/env bash
# The action's run step (ci/action/run.sh) as GitHub runs it: inputs in the environment, $GITHUB_OUTPUT
# and $GITHUB_STEP_SUMMARY files, GITHUB_ACTIONS=true; with the built binary on the examples, a
# sharded run and the merge of its shards, and a run that cannot start. The outputs the action
# declares come from the run step and from agent-run itself.
#
#   test/ci/action_run_test.sh AGENT_RUN_BINARY
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
binary=$(realpath "${1:?AGENT_RUN_BINARY}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
# The value of KEY in a $GITHUB_OUTPUT file (the last one written).
output_of() {
  sed -n "s/^$2=//p" "$1" | tail -1
}

# Runs ci/action/run.sh in $work/$1 (a fresh folder) with the environment given after it; the step's
# own log is $work/$1.log.
run_step() {
  local name=$1
  shift
  mkdir -p "$work/$name"
  cp -r "$root/tasks" "$root/policies" "$work/$name/"
  : >"$work/$name.output"
  : >"$work/$name.summary"
  (cd "$work/$name" && env GITHUB_ACTIONS=true GITHUB_OUTPUT="$work/$name.output" GITHUB_STEP_SUMMARY="$work/$name.summary" \
    AGENT_RUN_BINARY="$binary" "$@" "$root/ci/action/run.sh") >"$work/$name.log" 2>&1 ||
    fail "$name: the run step itself exited non-zero: $(cat "$work/$name.log")"
}

run_step examples AGENT_RUN_TASKS="tasks/examples/*.yaml" AGENT_RUN_MODELS="script" AGENT_RUN_OUT=out AGENT_RUN_JOBS=2
[ "$(output_of "$work/examples.output" exit-code)" = 0 ] || fail "examples: exit-code is not 0: $(cat "$work/examples.log")"
[ "$(output_of "$work/examples.output" report-dir)" = "$work/examples/out" ] || fail "examples: report-dir is not the absolute out folder"
[ "$(output_of "$work/examples.output" artifact-name)" = agent-run-report ] || fail "examples: artifact-name is not agent-run-report"
[ -f "$work/examples/out/report.json" ] || fail "examples: no report.json"
grep -q -- "--model script -j 2" "$work/examples.log" || fail "examples: the command line lacks --model script -j 2: $(head -1 "$work/examples.log")"
# What agent-run itself writes for the action's outputs and the step summary.
[ "$(output_of "$work/examples.output" outcome)" = passed ] || fail "examples: outcome is not passed: $(cat "$work/examples.output")"
[ "$(output_of "$work/examples.output" pass-rate)" = 1.0000 ] || fail "examples: pass-rate is not 1.0000"
[ "$(output_of "$work/examples.output" attempts)" = 3 ] || fail "examples: attempts is not 3"
[ "$(output_of "$work/examples.output" cost-usd)" = 0.0000 ] || fail "examples: cost-usd is not 0.0000"
tokens=$(output_of "$work/examples.output" tokens)
[ "${tokens:-0}" -gt 0 ] || fail "examples: tokens is not a positive count: '$tokens'"
grep -q '^## .* agent-run: 3 of 3 attempts passed$' "$work/examples.summary" || fail "examples: the step summary has no headline"

for shard in 1 2; do
  run_step "shard-$shard" AGENT_RUN_TASKS="tasks/examples/*.yaml" AGENT_RUN_SHARD="$shard/2" AGENT_RUN_OUT=out
  [ "$(output_of "$work/shard-$shard.output" artifact-name)" = "agent-run-shard-$shard" ] || fail "shard $shard: artifact-name is not agent-run-shard-$shard"
  mkdir -p "$work/merge/shards"
  cp -r "$work/shard-$shard/out" "$work/merge/shards/agent-run-shard-$shard"
done
run_step merge AGENT_RUN_MERGE="shards/agent-run-shard-*" AGENT_RUN_OUT=merged
[ "$(output_of "$work/merge.output" exit-code)" = 0 ] || fail "merge: exit-code is not 0: $(cat "$work/merge.log")"
grep -q '^merged 2 report folders' "$work/merge.log" || fail "merge: did not merge two folders: $(cat "$work/merge.log")"
[ -f "$work/merge/merged/report.json" ] || fail "merge: no merged report.json"
[ -f "$work/merge/merged/report.html" ] || fail "merge: no merged report.html"
[ "$(output_of "$work/merge.output" attempts)" = 3 ] || fail "merge: attempts is not 3: $(cat "$work/merge.output")"
grep -q 'agent-run: 3 of 3 attempts passed' "$work/merge.summary" || fail "merge: the step summary has no headline"

run_step invalid AGENT_RUN_TASKS="tasks/no-such-task.yaml"
[ "$(output_of "$work/invalid.output" exit-code)" = 2 ] || fail "invalid: exit-code is not 2"
[ "$(output_of "$work/invalid.output" outcome)" = invalid ] || fail "invalid: outcome is not invalid"

run_step nothing
[ "$(output_of "$work/nothing.output" exit-code)" = 2 ] || fail "no tasks: exit-code is not 2"
grep -q '^::error title=agent-run::the action needs tasks' "$work/nothing.log" || fail "no tasks: no ::error line"

if ((failures)); then
  echo "$failures failed"
  exit 1
fi
echo "the action's run step passes its inputs, runs, merges and reports its outputs"
