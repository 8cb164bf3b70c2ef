#pragma once

#include <sys/types.h>

#include <functional>

namespace agent_run {

// The runner's own children: the processes it spawned and has not reaped yet. The runner is a
// child subreaper, so its other zombie children are orphans of what it ran (an escaped daemon that
// died, the middle of a double fork): nobody waits for those, and reap_orphans() reaps them. The
// record is process-wide, as the subreaper is, and thread-safe: attempts spawn and reap in parallel.

/// Spawns with `start` (which returns the new pid, or -1 when it failed) and records the pid
/// before any orphan reaping can see the child, so an own child's exit status is never taken.
pid_t spawn_own_child(const std::function<pid_t()>& start);

/// Forgets `pid` once its owner has reaped it (or knows it is gone).
void forget_own_child(pid_t pid);

/// Reaps `pid` if it is a zombie child of the runner and not one of its own children (which their
/// owner reaps); true when it was reaped.
bool reap_if_orphan(pid_t pid);

/// Reaps every zombie child of the runner that is not one of its own; how many it reaped.
int reap_orphans();

}  // namespace agent_run
