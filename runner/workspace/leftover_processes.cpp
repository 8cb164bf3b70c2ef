#include "workspace/leftover_processes.h"

#include "exec/process_group.h"

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

/// Whether the process is gone or a zombie (dead, waiting for its parent to reap it).
bool has_ended(pid_t pid) {
  auto info = read_process_info(pid);
  return !info || info->state == 'Z' || info->state == 'X';
}

bool works_inside(pid_t pid, const std::string& folder) {
  std::error_code ec;
  std::string cwd = std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/cwd", ec).string();
  if (ec) return false;
  constexpr std::string_view k_deleted = " (deleted)";
  if (cwd.ends_with(k_deleted)) cwd.resize(cwd.size() - k_deleted.size());
  return cwd == folder || cwd.starts_with(folder + "/");
}

}  // namespace

int kill_leftover_processes(const std::filesystem::path& folder, std::string_view marker) {
  std::error_code ec;
  std::string inside = std::filesystem::weakly_canonical(folder, ec).string();
  if (ec) inside = folder.lexically_normal().string();
  if (inside.empty() || inside == "/" || marker.find('=') == std::string_view::npos) return 0;
  std::vector<pid_t> marked = kill_marked_and_reap(marker, {}, k_wait_for_exit);
  const pid_t self = ::getpid();
  std::vector<pid_t> in_folder;
  for (const ProcessInfo& info : list_processes()) {
    if (info.pid == self || has_ended(info.pid) || !works_inside(info.pid, inside)) continue;
    if (::kill(info.pid, SIGKILL) == 0) in_folder.push_back(info.pid);
  }
  auto deadline = std::chrono::steady_clock::now() + k_wait_for_exit;
  for (pid_t pid : in_folder) {
    while (!has_ended(pid) && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(k_wait_step);
  }
  return static_cast<int>(marked.size() + in_folder.size());
}

}  // namespace agent_run
