#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, client mode) against
# `agent-run mcp`, one scenario after another: the client scenarios without OAuth (initialize,
# tools_call, elicitation-sep1034-client-defaults, sse-retry). The suite's test servers listen on
# every interface, so each runs in a network namespace of its own with only a loopback device
# (unshare -n as root, unshare -rn otherwise). Prints each scenario's checks and the totals; exits
# 1 when a check failed or warned. Needs ci/install-test-tools.sh and a built agent-run.
#   ci/run-conformance.sh [BUILD_DIR] [SCENARIO...]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${1:-${AGENT_RUN_BUILD_DIR:-$root/build}}
shift || true
scenarios=("$@")
if ((${#scenarios[@]} == 0)); then
  scenarios=(initialize tools_call elicitation-sep1034-client-defaults sse-retry)
fi
conformance=$root/.tools/mcp/node_modules/.bin/conformance
agent_run=$build_dir/agent-run
[ -x "$conformance" ] || { echo "run-conformance: the suite is not installed: run ci/install-test-tools.sh" >&2; exit 2; }
[ -x "$agent_run" ] || { echo "run-conformance: $agent_run is not built" >&2; exit 2; }

isolate=(unshare -n)
[ "$(id -u)" -eq 0 ] || isolate=(unshare -rn)
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# Node 18 (Debian 12's nodejs) lacks two globals of node 20 that the suite's dependencies use at
# load (undici's File) and per request (the SDK's crypto.randomUUID()): a preload gives them.
cat >"$results/node18-globals.cjs" <<'JS'
if (!globalThis.crypto) globalThis.crypto = require('crypto').webcrypto;
if (!globalThis.File) globalThis.File = require('buffer').File;
JS

# The suite splits the command at spaces and hands the words to a shell, which reads quotes again:
# the binary's path quoted, so that a path with a space stays one word.
client_command="'${agent_run//\'/\'\\\'\'}' mcp"
for scenario in "${scenarios[@]}"; do
  # The suite appends the server's URL to the command and sets MCP_CONFORMANCE_SCENARIO.
  # shellcheck disable=SC2016  # the inner shell expands its own arguments
  "${isolate[@]}" sh -c 'ip link set lo up && exec node -r "$4" "$0" client --command "$1" --scenario "$2" -o "$3"' \
    "$conformance" "$client_command" "$scenario" "$results" "$results/node18-globals.cjs" \
    >"$results/$scenario.log" 2>&1 || true
done

python3 - "$results" "${scenarios[@]}" <<'PY'
import glob, json, os, sys
folder, scenarios = sys.argv[1], sys.argv[2:]
totals = {"SUCCESS": 0, "FAILURE": 0, "WARNING": 0}
bad = False
for scenario in scenarios:
    found = sorted(glob.glob(os.path.join(folder, scenario + "-*", "checks.json")))
    if not found:
        print(f"{scenario}: no result (see the suite's output below)")
        print(open(os.path.join(folder, scenario + ".log")).read())
        bad = True
        continue
    checks = json.load(open(found[-1]))
    counts = {status: sum(1 for c in checks if c["status"] == status) for status in totals}
    for status in totals:
        totals[status] += counts[status]
    print(f"{scenario}: {counts['SUCCESS']} passed, {counts['FAILURE']} failed, {counts['WARNING']} warnings")
    for check in checks:
        if check["status"] in ("FAILURE", "WARNING"):
            bad = True
            print(f"    {check['status']} {check['id']}: {check.get('errorMessage', check.get('description', ''))}")
        if check["id"] == "client-sse-retry-timing" and "details" in check:
            print(f"    reconnected {check['details'].get('actualDelayMs')} ms after the cut (retry: 500 ms)")
print(f"conformance: {totals['SUCCESS']} passed, {totals['FAILURE']} failed, {totals['WARNING']} warnings")
sys.exit(1 if bad or totals["FAILURE"] or totals["WARNING"] else 0)
PY
