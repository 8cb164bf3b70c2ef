#!/usr/bin/env bash
# The action's prepare-sandbox step: makes bubblewrap work here, so that tasks and policies with
# `sandbox:` run their commands inside it: installs it, and on Ubuntu 23.10 and later (GitHub's
# ubuntu-24.04 runners among them) turns off AppArmor's restriction of unprivileged user namespaces
# (the kernel.apparmor_restrict_unprivileged_userns sysctl, which is 1 there). Says so with a warning,
# and changes nothing else, when it still cannot. With $PREPARE_SANDBOX false it leaves the runner as
# it is (agent-run's sandbox stays what the tasks and policies say). $SANDBOX_INPUT is the input's old
# name, `sandbox`: when given, it is used, with a warning.
set -euo pipefail
prepare=${PREPARE_SANDBOX:-true}
if [ -n "${SANDBOX_INPUT:-}" ]; then
  echo "::warning title=agent-run::the input 'sandbox' is renamed 'prepare-sandbox' (it prepares the runner for bubblewrap; it never turns agent-run's sandbox on or off): write 'prepare-sandbox: ${SANDBOX_INPUT//[^a-z]/}'"
  prepare=$SANDBOX_INPUT
fi
case $prepare in
  true) ;;
  false)
    echo "agent-run sandbox: prepare-sandbox is false: the runner is left as it is"
    exit 0
    ;;
  *)
    echo "::error title=agent-run::prepare-sandbox must be true or false"
    exit 1
    ;;
esac
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  sudo=(sudo)
fi
if ! command -v bwrap >/dev/null 2>&1; then
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends bubblewrap >/dev/null
fi
restriction=/proc/sys/kernel/apparmor_restrict_unprivileged_userns
if [ -r "$restriction" ] && [ "$(cat "$restriction")" = 1 ]; then
  "${sudo[@]}" sysctl -q -w kernel.apparmor_restrict_unprivileged_userns=0 ||
    echo "::warning title=agent-run sandbox::could not set kernel.apparmor_restrict_unprivileged_userns=0"
fi
# The probe agent-run makes too, with the namespaces and mounts its sandbox uses.
if said=$(bwrap --unshare-user --die-with-parent --unshare-pid --unshare-net --ro-bind / / --dev /dev --proc /proc true 2>&1); then
  echo "agent-run sandbox: bubblewrap works here"
else
  echo "::warning title=agent-run sandbox::bubblewrap cannot make its namespaces here ($said): tasks with sandbox: will end as sandbox.unavailable. In a container job, start the container with --security-opt seccomp=unconfined --security-opt apparmor=unconfined --security-opt systempaths=unconfined (see agent-run's docs/github-actions-and-kubernetes.md)"
fi
