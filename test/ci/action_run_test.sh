#!/usr/bin/env bash
# The action's run step (ci/action/run.sh) as GitHub runs it: inputs in the environment, $GITHUB_OUTPUT
# and $GITHUB_STEP_SUMMARY files, GITHUB_ACTIONS=true; with the built binary on the examples, a
# sharded run and the merge of its shards, a prompt answered by a loopback model with the key input
# it was given, and runs that cannot start. The outputs the action declares come from the run step
# and from agent-run itself; $GITHUB_OUTPUT is read as the runner reads it (heredocs included).
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
# The value of output $2 in the $GITHUB_OUTPUT file $1 as GitHub's runner reads it: `name=value`
# lines and `name<<DELIMITER` heredocs; the last one written wins.
output_of() {
  awk -v name="$2" '
    delimiter != "" { if ($0 == delimiter) { delimiter = ""; if (mine) { value = text; found = 1 } }
                      else if (mine) text = text (first ? "" : "\n") $0; first = 0; next }
    index($0, "<<") && (index($0, "=") == 0 || index($0, "<<") < index($0, "=")) {
      at = index($0, "<<"); mine = substr($0, 1, at - 1) == name; delimiter = substr($0, at + 2); text = ""; first = 1; next }
    index($0, "=") { at = index($0, "="); if (substr($0, 1, at - 1) == name) { value = substr($0, at + 1); found = 1 } }
    END { if (found) printf "%s", value }' "$1"
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

# A prompt (-p) answered by a loopback model, with the key given as the anthropic-api-key input: the
# answer, several lines that try to end the heredoc and set outputs, is final-message whole.
printf 'The fix is in.\nEOF\noutcome=passed\nexit-code=0\n::warning::not a command\n' >"$work/answer"
: >"$work/model-keys"
exec 3< <(exec python3 "$root/test/ci/answer_model_server.py" "$work/answer" "$work/model-keys")
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
read -r port <&3
key="sk-ant-action-test-$$"
mkdir -p "$work/prompt"  # -p works in place, in the top folder of a repository (the checkout)
git -C "$work/prompt" init -q
git -C "$work/prompt" -c user.name=test -c user.email=test@example.com commit -q --allow-empty -m start
run_step prompt AGENT_RUN_PROMPT="Say where the fix is" AGENT_RUN_MODELS=anthropic/claude-sonnet-4-5 AGENT_RUN_OUT=out \
  AGENT_RUN_ANTHROPIC_API_KEY="$key" ANTHROPIC_API_KEY= ANTHROPIC_BASE_URL="http://127.0.0.1:$port"
[ "$(output_of "$work/prompt.output" exit-code)" = 0 ] || fail "prompt: exit-code is not 0: $(cat "$work/prompt.log")"
[ "$(output_of "$work/prompt.output" final-message)" = "$(cat "$work/answer")" ] ||
  fail "prompt: final-message is not the answer: '$(output_of "$work/prompt.output" final-message)' from: $(cat "$work/prompt.output")"
[ "$(output_of "$work/prompt.output" outcome)" = passed ] || fail "prompt: outcome is not passed"
[ "$(output_of "$work/prompt.output" report-html)" = "$work/prompt/out/report.html" ] ||
  fail "prompt: report-html is not out/report.html: $(cat "$work/prompt.output")"
grep -qx "$key" "$work/model-keys" || fail "prompt: the model was not sent the anthropic-api-key input: $(cat "$work/model-keys")"
grep -q -- "$key" "$work/prompt.log" && fail "prompt: the key is in the step's log"
grep -qx 'agent-run run -p PROMPT --out out --model anthropic/claude-sonnet-4-5' "$work/prompt.log" ||
  fail "prompt: the command line is not -p with --model: $(head -1 "$work/prompt.log")"
grep -q "^The fix is in.$" "$work/prompt.log" || fail "prompt: the answer is not in the step's log"

# The key inputs reach agent-run as the variables it reads, and only so; an empty input keeps the job's.
# shellcheck disable=SC2016  # $ENV_DUMP is the stub's to expand
printf '#!/bin/sh\nenv > "$ENV_DUMP"\n' >"$work/env-dump"
chmod +x "$work/env-dump"
run_step keys AGENT_RUN_BINARY="$work/env-dump" ENV_DUMP="$work/keys.env" AGENT_RUN_PROMPT=hello \
  AGENT_RUN_ANTHROPIC_API_KEY=anthropic-input AGENT_RUN_OPENAI_API_KEY=openai-input OPENAI_API_KEY=from-the-job
grep -qx ANTHROPIC_API_KEY=anthropic-input "$work/keys.env" || fail "keys: ANTHROPIC_API_KEY is not the input"
grep -qx OPENAI_API_KEY=openai-input "$work/keys.env" || fail "keys: OPENAI_API_KEY is not the input"
grep -q '^AGENT_RUN_.*API_KEY=' "$work/keys.env" && fail "keys: agent-run was given the inputs' own variables: $(grep API_KEY "$work/keys.env")"
grep -q -- '-input' "$work/keys.log" && fail "keys: a key is in the step's log"
run_step job-keys AGENT_RUN_BINARY="$work/env-dump" ENV_DUMP="$work/job-keys.env" AGENT_RUN_PROMPT=hello \
  AGENT_RUN_ANTHROPIC_API_KEY= ANTHROPIC_API_KEY=from-the-job
grep -qx ANTHROPIC_API_KEY=from-the-job "$work/job-keys.env" || fail "job keys: an empty input replaced the job's ANTHROPIC_API_KEY"

run_step two AGENT_RUN_PROMPT=hello AGENT_RUN_TASKS="tasks/examples/*.yaml"
[ "$(output_of "$work/two.output" exit-code)" = 2 ] || fail "tasks and prompt: exit-code is not 2"
grep -q '^::error title=agent-run::the action takes one of tasks, prompt and merge' "$work/two.log" ||
  fail "tasks and prompt: no ::error line: $(cat "$work/two.log")"

run_step invalid AGENT_RUN_TASKS="tasks/no-such-task.yaml"
[ "$(output_of "$work/invalid.output" exit-code)" = 2 ] || fail "invalid: exit-code is not 2"
[ "$(output_of "$work/invalid.output" outcome)" = invalid ] || fail "invalid: outcome is not invalid"

run_step nothing
[ "$(output_of "$work/nothing.output" exit-code)" = 2 ] || fail "no tasks: exit-code is not 2"
grep -q '^::error title=agent-run::the action needs tasks (task files or globs), a prompt, or merge' "$work/nothing.log" ||
  fail "no tasks: no ::error line: $(cat "$work/nothing.log")"

if ((failures)); then
  echo "$failures failed"
  exit 1
fi
echo "the action's run step passes its inputs and keys, runs tasks and a prompt, merges and reports its outputs"
