#!/usr/bin/env bash
# The action's run step: builds agent-run's command line from the inputs (passed in the environment,
# never spliced into the script), runs it, and adds exit-code, report-dir and artifact-name to
# $GITHUB_OUTPUT. agent-run itself writes outcome, pass-rate, attempts, passed, failed, errors,
# tokens and cost-usd there, the step summary and the annotations. Exits 0 whatever agent-run did,
# so that the report is uploaded before the action's last step fails.
set -euo pipefail

output=${GITHUB_OUTPUT:-/dev/stdout}
out=${AGENT_RUN_OUT:-agent-run-out}
agent_run=${AGENT_RUN_BINARY:-agent-run}

# Words of an input, split on spaces and new lines; globs expanded (an unmatched one is kept as
# written, so that agent-run names it).
words_of() {
  local word
  for word in $1; do
    printf '%s\n' "$word"
  done
}

args=()
if [ -n "${AGENT_RUN_MERGE:-}" ]; then
  mapfile -t folders < <(words_of "$AGENT_RUN_MERGE")
  args=(merge "${folders[@]}" --out "$out")
else
  if [ -z "${AGENT_RUN_TASKS:-}" ]; then
    echo "::error title=agent-run::the action needs tasks (task files or globs) or merge (report folders)"
    echo "exit-code=2" >> "$output"
    echo "outcome=invalid" >> "$output"
    exit 0
  fi
  mapfile -t tasks < <(words_of "$AGENT_RUN_TASKS")
  args=(run "${tasks[@]}" --out "$out")
  [ -n "${AGENT_RUN_POLICY:-}" ] && args+=(--policy "$AGENT_RUN_POLICY")
  set -f
  for model in ${AGENT_RUN_MODELS:-}; do
    args+=(--model "$model")
  done
  set +f
  [ -n "${AGENT_RUN_SHARD:-}" ] && args+=(--shard "$AGENT_RUN_SHARD")
  [ -n "${AGENT_RUN_REPEAT:-}" ] && args+=(--repeat "$AGENT_RUN_REPEAT")
  [ -n "${AGENT_RUN_JOBS:-}" ] && args+=(-j "$AGENT_RUN_JOBS")
  [ "${AGENT_RUN_RESUME:-false}" = true ] && args+=(--resume)
fi
set -f
# shellcheck disable=SC2206  # word splitting of the extra arguments is the point; globbing is off
extra=(${AGENT_RUN_ARGS:-})
set +f
args+=("${extra[@]}")

echo "agent-run ${args[*]}"
code=0
"$agent_run" "${args[@]}" || code=$?

artifact=${AGENT_RUN_ARTIFACT:-}
if [ -z "$artifact" ]; then
  artifact=agent-run-report
  [ -n "${AGENT_RUN_SHARD:-}" ] && artifact="agent-run-shard-${AGENT_RUN_SHARD%%/*}"
fi
{
  echo "exit-code=$code"
  [ "$code" = 2 ] && echo "outcome=invalid"
  [ -d "$out" ] && echo "report-dir=$(cd "$out" && pwd)"
  echo "artifact-name=$artifact"
} >> "$output"
exit 0
