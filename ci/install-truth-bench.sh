#!/usr/bin/env bash
# Installs what the truth benchmark (ci/bench-truth.sh, issue 26) runs on: five real projects that
# nobody here wrote, at pinned versions, and their compilers and checkers. From Debian (only those
# missing): gorilla/mux 1.8.0 and spf13/cobra 1.6.1 with cobra's dependencies (Go sources under
# /usr/share/gocode/src), pyflakes 2.5.0 (a pure-Python package with its own tests, in
# /usr/lib/python3/dist-packages), ring 0.16.20's C sources (BoringSSL's, from the Rust crate under
# /usr/share/cargo/registry), go, gopls, gcc, clangd and stress-ng. From npm: pyright, TypeScript and
# typescript-language-server into .tools/ (ci/install-diagnostics-tools.sh), and redux 5.0.1 (its
# TypeScript sources) with @types/node 20.19.9 (and its undici-types) unpacked into .tools/truth/ (never globally). Safe to re-run:
# a second run installs nothing. Run as root, or as a user who may sudo.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
truth_dir=$root/.tools/truth

packages=(golang-go gopls gcc clangd git stress-ng python3
  golang-github-gorilla-mux-dev golang-github-spf13-cobra-dev golang-github-spf13-pflag-dev
  golang-github-cpuguy83-go-md2man-v2-dev golang-github-russross-blackfriday-v2-dev golang-gopkg-yaml.v3-dev
  python3-pyflakes librust-ring-dev)
# The machine may bring node and npm some other way: only ask Debian for them when none is on PATH.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi
"$root/ci/install-packages.sh" "${packages[@]}"
"$root/ci/install-diagnostics-tools.sh"

# The versions the benchmark's scripted sessions are written against: a different version would
# make their edits miss. Debian 12's packages are fixed; say so when they are not what we expect.
check_version() {  # package, wanted version prefix
  local have
  have=$(dpkg-query -W -f='${Version}' "$1")
  if [[ $have != "$2"* ]]; then
    echo "install-truth-bench: $1 is $have, the benchmark's sessions are written for $2" >&2
    exit 1
  fi
}
check_version golang-github-gorilla-mux-dev 1.8.0
check_version golang-github-spf13-cobra-dev 1.6.1
check_version python3-pyflakes 2.5.0
check_version librust-ring-dev 0.16.20

# npm packages, pinned: the package's own tarball (npm pack), unpacked, so that its sources are
# exactly what the registry holds; @types/node because redux's sources read process.env.
mkdir -p "$truth_dir"
unpack() {  # name@version, folder under .tools/truth
  local spec=$1 folder=$truth_dir/$2
  if [ -f "$folder/.unpacked" ] && [ "$(cat "$folder/.unpacked")" = "$spec" ]; then
    return
  fi
  echo "install-truth-bench: npm pack $spec into .tools/truth/$2"
  rm -rf "$folder"
  mkdir -p "$folder"
  local tarball
  tarball=$(cd "$truth_dir" && npm pack --silent --loglevel=error "$spec" | tail -n 1)
  tar -xzf "$truth_dir/$tarball" -C "$folder" --strip-components=1
  rm -f "$truth_dir/$tarball"
  printf '%s' "$spec" > "$folder/.unpacked"
}
unpack redux@5.0.1 redux
unpack @types/node@20.19.9 types-node
unpack undici-types@6.21.0 undici-types  # what @types/node 20.19.9 depends on
echo "install-truth-bench: ready"
