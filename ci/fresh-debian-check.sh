#!/usr/bin/env bash
# The README's two set-up commands on a Debian 12 machine that has none of the project's packages:
# a minimal Debian 12 tree (debootstrap --variant=minbase, plus git and ca-certificates), entered
# with bubblewrap (pivot_root, not chroot: the sandbox makes user namespaces inside, which a chroot
# forbids), a fresh clone of this checkout in it, then `ci/run-examples.sh` (or, with `tests`,
# `ci/run-tests.sh`). Needs root, debootstrap, bubblewrap and the network to Debian's archive (and
# npm's registry for `tests`); not part of ctest. The tree is kept (a second run reuses it).
#   ci/fresh-debian-check.sh [examples|tests] [TREE]     (TREE: /var/tmp/agent-run-debian12)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
what=${1:-examples}
tree=${2:-/var/tmp/agent-run-debian12}
case $what in
  examples) command=ci/run-examples.sh ;;
  tests) command=ci/run-tests.sh ;;
  *) echo "fresh-debian-check: unknown '$what' (examples or tests)" >&2; exit 2 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "fresh-debian-check: run it as root (debootstrap, apt-get in the tree)" >&2; exit 2; }
if [ ! -x "$tree/usr/bin/git" ]; then
  debootstrap --variant=minbase --include=git,ca-certificates bookworm "$tree" http://deb.debian.org/debian
fi
# Every installed Debian has an /etc/hosts naming localhost; debootstrap's minbase writes none, and
# without it `localhost` does not resolve (the MCP conformance suite's servers are at localhost).
if [ ! -e "$tree/etc/hosts" ]; then
  printf '%s\n' $'127.0.0.1\tlocalhost' $'::1\t\tlocalhost ip6-localhost ip6-loopback' $'ff02::1\t\tip6-allnodes' \
    $'ff02::2\t\tip6-allrouters' >"$tree/etc/hosts"
fi
# This checkout's HEAD, cloned from its repository (a worktree's own .git names a path outside the tree).
commit=$(git -C "$root" rev-parse HEAD)
repository=$(git -C "$root" rev-parse --path-format=absolute --git-common-dir)
shared=$(cd "$root/.." && pwd)/shared
binds=(--ro-bind "$repository" /src.git)
[ -d "$shared" ] && binds+=(--ro-bind "$shared" /srv/check/shared)
# A network behind a TLS proxy (this machine's own certificate authorities): npm in the tree trusts
# what the machine trusts, as the machine's own npm does.
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  binds+=(--ro-bind "$NODE_EXTRA_CA_CERTS" /etc/agent-run-machine-ca.crt --setenv NODE_EXTRA_CA_CERTS /etc/agent-run-machine-ca.crt)
fi
# shellcheck disable=SC2016  # expanded by the shell inside the tree
exec bwrap --bind "$tree" / --dev /dev --bind /proc /proc --ro-bind /sys /sys \
  --ro-bind /etc/resolv.conf /etc/resolv.conf --perms 1777 --tmpfs /tmp \
  --unshare-ipc --die-with-parent --clearenv --setenv HOME /root \
  --setenv PATH /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --setenv LANG C.UTF-8 "${binds[@]}" \
  --dir /srv/check --chdir /srv/check \
  bash -c 'for p in g++ cmake libpoco-dev bubblewrap python3 nodejs; do
             dpkg -s "$p" >/dev/null 2>&1 && echo "the tree has $p" || echo "the tree lacks $p"; done
           rm -rf /srv/check/agent-run && git clone -q /src.git /srv/check/agent-run && cd /srv/check/agent-run &&
             git checkout -q "$1" && git log --oneline -1 || exit 2
           start=$(date +%s); "$0"; rc=$?
           echo "fresh-debian-check: $0 exited $rc after $(( $(date +%s) - start )) s"; exit $rc' "$command" "$commit"
