#include "exec/process_group.h"

#include "exec/own_children.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <thread>

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds k_retry_pause{5};
constexpr std::size_t k_max_command_line = 300;

/// The whole content of a small /proc file, or nullopt when it cannot be read.
std::optional<std::string> read_proc_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string content;
  char buffer[4096];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      content.append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;
  }
  ::close(fd);
  return content;
}

/// Every numeric entry of /proc.
std::vector<pid_t> list_pids() {
  std::vector<pid_t> pids;
  DIR* folder = ::opendir("/proc");
  if (!folder) return pids;
  while (dirent* entry = ::readdir(folder)) {
    char* end = nullptr;
    long pid = std::strtol(entry->d_name, &end, 10);
    if (pid > 0 && end && *end == '\0') pids.push_back(static_cast<pid_t>(pid));
  }
  ::closedir(folder);
  return pids;
}

/// Reaps `pid` if it is a zombie child of the runner that its spawner does not wait for (an
/// orphan re-parented to the runner); true when it was reaped.
bool reap_if_own_zombie(const ProcessInfo& info) {
  if (info.state != 'Z' || info.parent != ::getpid()) return false;
  return reap_if_orphan(info.pid);
}

bool contains(const std::vector<pid_t>& pids, pid_t pid) {
  return std::find(pids.begin(), pids.end(), pid) != pids.end();
}

/// A member of one of `sessions` that is not its leader: the leaders are the commands themselves,
/// reaped by whoever started them; the other members outlived their command.
bool is_escaped_member(const ProcessInfo& info, const std::vector<pid_t>& sessions) {
  return info.pid != info.session && contains(sessions, info.session);
}

}  // namespace

std::optional<ProcessInfo> read_process_info(pid_t pid) {
  std::optional<std::string> stat = read_proc_file("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return std::nullopt;
  std::size_t after_name = stat->rfind(')');  // the name may hold spaces and parentheses
  if (after_name == std::string::npos || after_name + 2 >= stat->size()) return std::nullopt;
  ProcessInfo info;
  info.pid = pid;
  info.state = (*stat)[after_name + 2];
  const char* fields = stat->c_str() + after_name + 3;
  char* end = nullptr;
  info.parent = static_cast<pid_t>(std::strtol(fields, &end, 10));
  info.group = static_cast<pid_t>(std::strtol(end, &end, 10));
  info.session = static_cast<pid_t>(std::strtol(end, &end, 10));
  for (int field = 7; field < 22; ++field) std::strtoll(end, &end, 10);  // tty .. priority, nice .. itrealvalue
  info.start_time = std::strtoull(end, &end, 10);
  return info;
}

std::vector<ProcessInfo> list_processes() {
  std::vector<ProcessInfo> processes;
  for (pid_t pid : list_pids()) {
    if (auto info = read_process_info(pid)) processes.push_back(*info);
  }
  return processes;
}

bool environment_contains(pid_t pid, std::string_view entry) {
  std::optional<std::string> environment = read_proc_file("/proc/" + std::to_string(pid) + "/environ");
  if (!environment) return false;
  std::string_view rest(*environment);
  while (!rest.empty()) {
    std::size_t end = rest.find('\0');
    if (rest.substr(0, end) == entry) return true;
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return false;
}

std::string command_line_of(pid_t pid) {
  std::string line = read_proc_file("/proc/" + std::to_string(pid) + "/cmdline").value_or("");
  while (!line.empty() && line.back() == '\0') line.pop_back();
  std::replace(line.begin(), line.end(), '\0', ' ');
  if (line.size() > k_max_command_line) line = line.substr(0, k_max_command_line) + "...";
  return line;
}

void kill_group_and_reap(pid_t group, std::chrono::milliseconds patience) {
  const auto give_up = SteadyClock::now() + patience;
  for (;;) {
    ::kill(-group, SIGKILL);
    bool waiting = false;
    for (const ProcessInfo& info : list_processes()) {
      if (info.group != group || info.pid == group) continue;
      if (reap_if_own_zombie(info)) continue;
      if (info.state != 'Z') waiting = true;  // still dying; a zombie of another member is its parent's
    }
    if (!waiting || SteadyClock::now() >= give_up) return;
    std::this_thread::sleep_for(k_retry_pause);
  }
}

std::vector<pid_t> processes_marked(std::string_view entry) {
  std::vector<pid_t> marked;
  for (const ProcessInfo& info : list_processes()) {
    if (info.state != 'Z' && info.pid != ::getpid() && environment_contains(info.pid, entry)) {
      marked.push_back(info.pid);
    }
  }
  return marked;
}

std::vector<pid_t> kill_marked_and_reap(std::string_view entry, const std::vector<pid_t>& sessions,
                                        std::chrono::milliseconds patience) {
  const auto give_up = SteadyClock::now() + patience;
  std::vector<pid_t> killed;
  for (;;) {
    std::vector<pid_t> alive = processes_marked(entry);
    for (pid_t pid : alive) {
      ::kill(pid, SIGKILL);
      if (!contains(killed, pid)) killed.push_back(pid);
    }
    bool waiting = !alive.empty();
    for (const ProcessInfo& info : list_processes()) {
      if (!contains(killed, info.pid) && !is_escaped_member(info, sessions)) continue;
      if (reap_if_own_zombie(info)) continue;
      // Still dying, or a zombie whose parent is dying too: it comes to the runner soon.
      if (contains(killed, info.pid) && (info.state != 'Z' || contains(killed, info.parent))) waiting = true;
    }
    if (!waiting || SteadyClock::now() >= give_up) break;
    std::this_thread::sleep_for(k_retry_pause);
  }
  return killed;
}

std::vector<ProcessIdentity> reap_zombies_of(const std::vector<ProcessIdentity>& processes,
                                             const std::vector<pid_t>& sessions) {
  std::vector<ProcessIdentity> remaining;
  for (const ProcessInfo& info : list_processes()) {
    ProcessIdentity identity{info.pid, info.start_time};
    bool listed = std::find(processes.begin(), processes.end(), identity) != processes.end();
    if ((listed || is_escaped_member(info, sessions)) && reap_if_own_zombie(info)) continue;
    if (listed) remaining.push_back(identity);
  }
  return remaining;
}

}  // namespace agent_run
