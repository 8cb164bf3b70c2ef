#!/usr/bin/env bash
# The GitHub Action, the example workflows, the Kubernetes manifests and the scripts in ci/ pass the
# validators (ci/check-ci-files.mjs), and the validators find the mistakes planted in test/ci/fixtures/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

if ! output=$(node ci/check-ci-files.mjs 2>&1); then
  fail "the project's CI files have problems:"
  echo "$output"
else
  echo "$output" | tail -1
fi

code=0
found=$(node ci/check-ci-files.mjs test/ci/fixtures/broken-workflow.yml test/ci/fixtures/broken-action/action.yml \
  test/ci/fixtures/broken-kubernetes 2>&1) || code=$?
[ "$code" = 1 ] || fail "the checker exited $code on the broken fixtures, not 1"
expected=(
  "broken-workflow.yml:1: /jobs/check/timeout-minutes: The value must be number [action-validator]"
  "broken-workflow.yml:13: property \"shard\" is not defined"
  "broken-workflow.yml:12: input 'taks' is not one of ci/action.yml's"
  "broken-workflow.yml:14: output 'pass_rate' is not one of ci/action.yml's"
  "broken-workflow.yml:15: job check step 4: note: Double quote to prevent globbing and word splitting. [SC2086]"
  "broken-action/action.yml:1: /inputs/tasks: Additional property 'bogus' is not allowed [action-validator]"
  "broken-action/action.yml:1: /runs/steps/0/shell: This property is required [action-validator]"
  "broken-action/action.yml:9: inputs.taks is not declared [action-contract]"
  "broken-action/action.yml:11: runs step 2: warning: Use 'cd ... || exit'"
  "Job broken: data/spec/completionMode must be equal to one of the allowed values [kubernetes-models]"
  "Job broken: error TS2353: Object literal may only specify known properties, and '\"comand\"' does not exist in type 'IContainer'"
)
for line in "${expected[@]}"; do
  grep -qF -- "$line" <<<"$found" || fail "the checker did not report: $line"
done

# The docs' tables of the action's inputs and outputs against ci/action.yml.
code=0
docs=$(node ci/check-ci-files.mjs --docs ci/action.yml test/ci/fixtures/broken-action-docs.md ci/action.yml 2>&1) || code=$?
[ "$code" = 1 ] || fail "the checker exited $code on the broken docs tables, not 1"
# shellcheck disable=SC2016  # the backquotes are Markdown's
expected_docs=(
  'broken-action-docs.md:14: input jobs: the default is "1" in action.yml, `2` here [action-docs]'
  "broken-action-docs.md:1: input prompt of action.yml is not in the Inputs table [action-docs]"
  "broken-action-docs.md:42: output \`final_message\` is not one of action.yml's [action-docs]"
  "broken-action-docs.md:1: output final-message of action.yml is not in the Outputs table [action-docs]"
)
for line in "${expected_docs[@]}"; do
  grep -qF -- "$line" <<<"$docs" || fail "the checker did not report: $line"
done
expected+=("${expected_docs[@]}")
found+=$'\n'"$docs"

if ((failures)); then
  echo "what the checker said about the fixtures:"
  echo "$found"
  echo "$failures failed"
  exit 1
fi
echo "${#expected[@]} planted mistakes found"
