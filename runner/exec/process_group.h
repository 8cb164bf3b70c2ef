#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

// What /proc says about processes, and killing and reaping by process group or by a marker in
// the environment. The runner is a child subreaper (exec/subreaper.h), so processes orphaned by a
// command are re-parented to it: whatever it kills it must also reap, or they stay zombies.

/// The fields of /proc/<pid>/stat the runner needs.
struct ProcessInfo {
  pid_t pid = 0;
  pid_t parent = 0;
  pid_t group = 0;
  pid_t session = 0;
  char state = '?';                   // R, S, D, Z, T, ...
  unsigned long long start_time = 0;  // clock ticks after boot: with the pid, names one process for good
};

/// One process, named so that a recycled pid cannot be mistaken for it.
struct ProcessIdentity {
  pid_t pid = 0;
  unsigned long long start_time = 0;
  friend bool operator==(const ProcessIdentity&, const ProcessIdentity&) = default;
};

/// The stat line of `pid`, or nullopt when there is no such process (any more).
std::optional<ProcessInfo> read_process_info(pid_t pid);

/// Every process in /proc, as far as it can be read.
std::vector<ProcessInfo> list_processes();

/// True when `pid`'s environment holds exactly the entry `entry` (`NAME=value`). False for zombies
/// (their environment is gone) and for processes the runner may not inspect.
bool environment_contains(pid_t pid, std::string_view entry);

/// The command line of `pid`, arguments joined by spaces, cut to a few hundred bytes.
std::string command_line_of(pid_t pid);

/// SIGKILLs process group `group` and reaps its members that become the runner's zombies, until no
/// member is alive or `patience` has passed. The group's leader (pid == group) must still be held by
/// the caller (alive or an unreaped zombie), so the group id cannot be reused meanwhile; it is not
/// reaped here.
void kill_group_and_reap(pid_t group, std::chrono::milliseconds patience);

/// The living processes whose environment holds `entry`.
std::vector<pid_t> processes_marked(std::string_view entry);

/// SIGKILLs every process whose environment holds `entry` (repeatedly, to catch what they fork
/// while dying), and reaps those that become the runner's zombies, along with the runner's zombie
/// children that are members, not leaders, of one of `sessions` (escapes that already died).
/// Returns the pids it killed.
std::vector<pid_t> kill_marked_and_reap(std::string_view entry, const std::vector<pid_t>& sessions,
                                        std::chrono::milliseconds patience);

/// Reaps the runner's zombie children that are one of `processes` or members (not leaders) of one
/// of `sessions`. Returns those of `processes` that still exist (not reaped, not gone).
std::vector<ProcessIdentity> reap_zombies_of(const std::vector<ProcessIdentity>& processes,
                                             const std::vector<pid_t>& sessions);

}  // namespace agent_run
