#include "exec/own_children.h"

#include "exec/process_group.h"

#include <sys/wait.h>
#include <unistd.h>

#include <mutex>
#include <set>

namespace agent_run {

namespace {

/// The pids spawned and not yet reaped, and the lock that spawning, forgetting and reaping orphans
/// hold: a child is recorded before anything can reap it as an orphan.
struct OwnChildren {
  std::mutex mutex;
  std::set<pid_t> pids;
};

OwnChildren& own_children() {
  static OwnChildren children;
  return children;
}

/// Reaps `pid` when it is a zombie child that is not an own one; the caller holds the lock.
bool reap_orphan_locked(OwnChildren& children, pid_t pid) {
  if (children.pids.count(pid)) return false;
  int status = 0;
  return ::waitpid(pid, &status, WNOHANG) == pid;
}

}  // namespace

pid_t spawn_own_child(const std::function<pid_t()>& start) {
  OwnChildren& children = own_children();
  std::lock_guard lock(children.mutex);
  pid_t pid = start();
  if (pid > 0) children.pids.insert(pid);
  return pid;
}

void forget_own_child(pid_t pid) {
  OwnChildren& children = own_children();
  std::lock_guard lock(children.mutex);
  children.pids.erase(pid);
}

bool reap_if_orphan(pid_t pid) {
  OwnChildren& children = own_children();
  std::lock_guard lock(children.mutex);
  return reap_orphan_locked(children, pid);
}

int reap_orphans() {
  OwnChildren& children = own_children();
  std::lock_guard lock(children.mutex);
  int reaped = 0;
  for (const ProcessInfo& info : list_processes()) {
    if (info.state == 'Z' && info.parent == ::getpid() && reap_orphan_locked(children, info.pid)) ++reaped;
  }
  return reaped;
}

}  // namespace agent_run
