#!/usr/bin/env bash
# Installs what the MCP client's tests and its conformance run talk to: the reference MCP servers
# (@modelcontextprotocol/server-everything and server-filesystem) and the official conformance
# suite (@modelcontextprotocol/conformance), pinned, from npm into the git-ignored folder
# .tools/mcp/ (never globally). Needs node and npm (ci/install-diagnostics-tools.sh brings them)
# and python3 (ci/setup.sh), which the tests' broken servers are written in. Safe to re-run: a
# second run installs nothing. Called by ci/setup.sh; can also be run on its own.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mcp_dir=$root/.tools/mcp

# conformance 0.1.13 is the last that runs on node 20 (0.1.14 needs node 22's fs.globSync).
wanted='{"private":true,"dependencies":{"@modelcontextprotocol/conformance":"0.1.13","@modelcontextprotocol/server-everything":"2026.8.31","@modelcontextprotocol/server-filesystem":"2026.8.31"}}'
mkdir -p "$mcp_dir"
if [ ! -f "$mcp_dir/package.json" ] || [ "$(cat "$mcp_dir/package.json")" != "$wanted" ] ||
   [ ! -x "$mcp_dir/node_modules/.bin/mcp-server-everything" ] ||
   [ ! -x "$mcp_dir/node_modules/.bin/mcp-server-filesystem" ] ||
   [ ! -x "$mcp_dir/node_modules/.bin/conformance" ]; then
  echo "agent-run test tools: npm install the MCP reference servers and conformance suite into .tools/mcp/"
  printf '%s' "$wanted" > "$mcp_dir/package.json"
  # An EBADENGINE warning (a dependency of the conformance suite wants node 22) is harmless here.
  (cd "$mcp_dir" && npm install --no-audit --no-fund --loglevel=error >/dev/null)
fi
