#include "workspace/leftover_processes.h"

#include "base/files.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace agent_run {

namespace {

constexpr std::chrono::milliseconds k_wait_for_exit{2000};
constexpr std::chrono::milliseconds k_wait_step{20};

std::filesystem::path proc_entry(pid_t pid, const char* name) {
  return std::filesystem::path("/proc") / std::to_string(pid) / name;
}

/// Whether the process is gone or a zombie (dead, waiting for its parent to reap it).
bool has_ended(pid_t pid) {
  auto stat = read_file(proc_entry(pid, "stat"));
  if (!stat) return true;
  std::size_t after_name = stat->rfind(')');
  return after_name == std::string::npos || after_name + 2 >= stat->size() || (*stat)[after_name + 2] == 'Z' ||
         (*stat)[after_name + 2] == 'X';
}

bool works_inside(pid_t pid, const std::string& folder) {
  std::error_code ec;
  std::string cwd = std::filesystem::read_symlink(proc_entry(pid, "cwd"), ec).string();
  if (ec) return false;
  constexpr std::string_view k_deleted = " (deleted)";
  if (cwd.ends_with(k_deleted)) cwd.resize(cwd.size() - k_deleted.size());
  return cwd == folder || cwd.starts_with(folder + "/");
}

bool carries_marker(pid_t pid, std::string_view marker) {
  auto environment = read_file(proc_entry(pid, "environ"));
  if (!environment) return false;
  std::string needle = std::string(1, '\0') + std::string(marker) + '\0';
  return (std::string(1, '\0') + *environment).find(needle) != std::string::npos;
}

std::vector<pid_t> process_ids() {
  std::vector<pid_t> pids;
  std::error_code ec;
  for (std::filesystem::directory_iterator entry("/proc", ec), end; !ec && entry != end; entry.increment(ec)) {
    std::string name = entry->path().filename().string();
    if (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos) {
      pids.push_back(static_cast<pid_t>(std::stol(name)));
    }
  }
  return pids;
}

}  // namespace

int kill_leftover_processes(const std::filesystem::path& folder, std::string_view marker, LeftoverMatch match) {
  std::error_code ec;
  std::string inside = std::filesystem::weakly_canonical(folder, ec).string();
  if (ec) inside = folder.lexically_normal().string();
  if (inside.empty() || inside == "/" || marker.find('=') == std::string_view::npos) return 0;
  const pid_t self = ::getpid();
  std::vector<pid_t> killed;
  for (pid_t pid : process_ids()) {
    if (pid == self || has_ended(pid)) continue;
    bool left = carries_marker(pid, marker) || (match == LeftoverMatch::marker_or_folder && works_inside(pid, inside));
    if (left && ::kill(pid, SIGKILL) == 0) {
      killed.push_back(pid);
    }
  }
  auto deadline = std::chrono::steady_clock::now() + k_wait_for_exit;
  for (pid_t pid : killed) {
    while (!has_ended(pid) && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(k_wait_step);
  }
  return static_cast<int>(killed.size());
}

}  // namespace agent_run
