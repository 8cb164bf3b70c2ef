#!/usr/bin/env bash
# The action's run step: builds agent-run's command line from the inputs (passed in the environment,
# never spliced into the script): the tasks, a prompt (-p) or the report folders to merge; gives
# agent-run the API key inputs as the variables it reads (ANTHROPIC_API_KEY, OPENAI_API_KEY) and
# nothing else of them; runs it, and adds exit-code, report-dir and artifact-name to $GITHUB_OUTPUT.
# agent-run itself writes outcome, pass-rate, attempts, passed, failed, errors, tokens, cost-usd,
# final-message and report-html there, the step summary and the annotations. Exits 0 whatever
# agent-run did, so that the report is uploaded before the action's last step fails.
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

# Ends the step as a run that could not start (exit code 2), saying why.
invalid() {
  echo "::error title=agent-run::$1"
  echo "exit-code=2" >> "$output"
  echo "outcome=invalid" >> "$output"
  exit 0
}

# The key inputs become the variables agent-run reads; an empty input leaves what the job's env: set.
if [ -n "${AGENT_RUN_ANTHROPIC_API_KEY:-}" ]; then
  export ANTHROPIC_API_KEY="$AGENT_RUN_ANTHROPIC_API_KEY"
fi
if [ -n "${AGENT_RUN_OPENAI_API_KEY:-}" ]; then
  export OPENAI_API_KEY="$AGENT_RUN_OPENAI_API_KEY"
fi
unset AGENT_RUN_ANTHROPIC_API_KEY AGENT_RUN_OPENAI_API_KEY

given=0
for input in "${AGENT_RUN_TASKS:-}" "${AGENT_RUN_PROMPT:-}" "${AGENT_RUN_MERGE:-}"; do
  [ -n "$input" ] && given=$((given + 1))
done
if [ "$given" -gt 1 ]; then
  invalid "the action takes one of tasks, prompt and merge, not several"
fi

args=()
if [ -n "${AGENT_RUN_MERGE:-}" ]; then
  mapfile -t folders < <(words_of "$AGENT_RUN_MERGE")
  args=(merge "${folders[@]}" --out "$out")
else
  if [ -n "${AGENT_RUN_PROMPT:-}" ]; then
    args=(run -p "$AGENT_RUN_PROMPT" --out "$out")
  elif [ -n "${AGENT_RUN_TASKS:-}" ]; then
    mapfile -t tasks < <(words_of "$AGENT_RUN_TASKS")
    args=(run "${tasks[@]}" --out "$out")
  else
    invalid "the action needs tasks (task files or globs), a prompt, or merge (report folders)"
  fi
  [ -n "${AGENT_RUN_POLICY:-}" ] && args+=(--policy "$AGENT_RUN_POLICY")
  set -f
  for model in ${AGENT_RUN_MODELS:-}; do
    args+=(--model "$model")
  done
  set +f
  if [ -z "${AGENT_RUN_PROMPT:-}" ]; then  # what only a run of task files has
    [ -n "${AGENT_RUN_SHARD:-}" ] && args+=(--shard "$AGENT_RUN_SHARD")
    [ -n "${AGENT_RUN_REPEAT:-}" ] && args+=(--repeat "$AGENT_RUN_REPEAT")
    [ -n "${AGENT_RUN_JOBS:-}" ] && args+=(-j "$AGENT_RUN_JOBS")
    [ "${AGENT_RUN_RESUME:-false}" = true ] && args+=(--resume)
  fi
fi
set -f
# shellcheck disable=SC2206  # word splitting of the extra arguments is the point; globbing is off
extra=(${AGENT_RUN_ARGS:-})
set +f
args+=("${extra[@]}")

if [ -n "${AGENT_RUN_PROMPT:-}" ]; then
  echo "agent-run run -p PROMPT ${args[*]:3}"  # the prompt is the step's input: not repeated in the log
else
  echo "agent-run ${args[*]}"
fi
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
