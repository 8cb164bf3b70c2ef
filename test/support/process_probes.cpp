#include "support/process_probes.h"

#include "exec/process_group.h"
#include "exec/subreaper.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace agent_run::test {

SubreaperFixture::SubreaperFixture() {
  if (!become_child_subreaper()) throw std::runtime_error("cannot become a child subreaper");
}

bool is_alive(pid_t pid) {
  auto info = read_process_info(pid);
  return info && info->state != 'Z';
}

bool is_gone_soon(pid_t pid, std::chrono::milliseconds patience) {
  auto give_up = std::chrono::steady_clock::now() + patience;
  while (is_alive(pid) && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return !is_alive(pid);
}

std::vector<pid_t> zombie_children() {
  std::vector<pid_t> zombies;
  for (const ProcessInfo& info : list_processes()) {
    if (info.parent == ::getpid() && info.state == 'Z') zombies.push_back(info.pid);
  }
  return zombies;
}

std::vector<pid_t> members_of_group(pid_t group) {
  std::vector<pid_t> members;
  for (const ProcessInfo& info : list_processes()) {
    if (info.group == group) members.push_back(info.pid);
  }
  return members;
}

std::vector<pid_t> processes_naming(const std::string& text) {
  std::vector<pid_t> found;
  for (const ProcessInfo& info : list_processes()) {
    if (info.pid == ::getpid() || info.state == 'Z') continue;
    std::string proc = "/proc/" + std::to_string(info.pid);
    std::ifstream environ(proc + "/environ", std::ios::binary);
    std::string environment((std::istreambuf_iterator<char>(environ)), std::istreambuf_iterator<char>());
    std::error_code ec;
    std::string cwd = std::filesystem::read_symlink(proc + "/cwd", ec).string();
    if (environment.find(text) != std::string::npos || (!ec && cwd.starts_with(text))) found.push_back(info.pid);
  }
  return found;
}

std::size_t open_descriptor_count() {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) ++count;
  return count;
}

std::vector<pid_t> pids_in(const std::string& output) {
  std::vector<pid_t> pids;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.find_first_not_of("0123456789") == std::string::npos) {
      pids.push_back(static_cast<pid_t>(std::stol(line)));
    }
  }
  return pids;
}

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds patience) {
  const auto deadline = std::chrono::steady_clock::now() + patience;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

}  // namespace agent_run::test
