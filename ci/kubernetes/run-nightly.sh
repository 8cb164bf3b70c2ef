#!/usr/bin/env bash
# Runs the nightly evaluation on Kubernetes: the shards' Indexed Job, then, when it has ended (done
# or failed), the merge Job. Run it from cron or a CronJob with kubectl's credentials.
#
#   ci/kubernetes/run-nightly.sh IMAGE REPOSITORY [REF] [SHARDS]
#     IMAGE       agent-run's image (ci/Dockerfile) in your registry, e.g. registry.example/agent-run:0.1.0
#     REPOSITORY  the git repository holding bench/*.yaml, cloned by each pod
#     REF         its branch or tag (default main); SHARDS: pods (default 4)
#   ci/kubernetes/run-nightly.sh --print IMAGE REPOSITORY [REF] [SHARDS]
#     prints the two Jobs as they would be applied, and applies nothing
#
# Once: kubectl apply -f ci/kubernetes/storage.yaml, and
#       kubectl create secret generic agent-run-keys --from-literal=ANTHROPIC_API_KEY=... --from-literal=OPENAI_API_KEY=...
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
print_only=false
if [ "${1:-}" = --print ]; then
  print_only=true
  shift
fi
image=${1:?IMAGE}
repository=${2:?REPOSITORY}
ref=${3:-main}
shards=${4:-4}
run_id=${RUN_ID:-$(date -u +%Y%m%d-%H%M)}

fill() {
  sed -e "s|__RUN_ID__|$run_id|g" -e "s|__SHARDS__|$shards|g" -e "s|__IMAGE__|$image|g" \
      -e "s|__REPOSITORY__|$repository|g" -e "s|__REF__|$ref|g" "$1"
}

if [ "$print_only" = true ]; then
  fill "$here/nightly-shards.yaml"
  echo "---"
  fill "$here/merge-job.yaml"
  exit 0
fi

fill "$here/nightly-shards.yaml" | kubectl apply -f -
# Wait for whichever comes first: every index done, or the Job failed.
kubectl wait --for=condition=complete --timeout=6h "job/agent-run-nightly-$run_id" &
complete=$!
kubectl wait --for=condition=failed --timeout=6h "job/agent-run-nightly-$run_id" &
failed=$!
wait -n "$complete" "$failed" || true
kill "$complete" "$failed" 2>/dev/null || true

fill "$here/merge-job.yaml" | kubectl apply -f -
kubectl wait --for=condition=complete --timeout=30m "job/agent-run-merge-$run_id"
kubectl logs "job/agent-run-merge-$run_id"
echo "merged report: /reports/$run_id/merged on the agent-run-reports volume"
