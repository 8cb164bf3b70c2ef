#include "exec/process_table.h"

#include "exec/own_children.h"

#include "base/cancellation.h"
#include "exec/process_group.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <random>

extern char** environ;

namespace agent_run {

namespace {

constexpr const char* k_job_marker_name = "AGENT_RUN_JOB";
constexpr std::chrono::milliseconds k_background_grace{2000};
constexpr std::chrono::milliseconds k_escape_patience{2000};

/// `<runner pid>-<64 random bits>`: unique among the attempts of every runner on the machine.
std::string new_token() {
  std::random_device device;
  std::uint64_t bits = (static_cast<std::uint64_t>(device()) << 32) | device();
  char text[64];
  std::snprintf(text, sizeof text, "%d-%016llx", static_cast<int>(::getpid()), static_cast<unsigned long long>(bits));
  return text;
}

std::vector<std::string> runner_environment() {
  std::vector<std::string> entries;
  for (char** entry = environ; entry && *entry; ++entry) entries.emplace_back(*entry);
  return entries;
}

/// `entries` without any `name=...`, then `name=value`.
void set_entry(std::vector<std::string>& entries, const std::string& name, const std::string& value) {
  std::string prefix = name + "=";
  std::erase_if(entries, [&](const std::string& entry) { return entry.starts_with(prefix); });
  entries.push_back(prefix + value);
}

}  // namespace

ProcessTable::ProcessTable() : m_token(new_token()), m_marker(std::string(k_attempt_marker_name) + "=" + m_token) {}

ProcessTable::~ProcessTable() { stop_everything(); }

ProcessSpec ProcessTable::marked(ProcessSpec spec, const std::string& job) const {
  std::vector<std::string> environment = spec.environment ? std::move(*spec.environment) : runner_environment();
  set_entry(environment, k_attempt_marker_name, m_token);
  if (!job.empty()) set_entry(environment, k_job_marker_name, m_token + "." + job);
  spec.environment = std::move(environment);
  return spec;
}

Expected<ProcessResult> ProcessTable::run(ProcessSpec spec) {
  auto result = run_process(marked(std::move(spec), ""));
  if (result && result->pid > 0) {  // pid 0: not started, the run is stopping
    m_sessions.push_back(result->pid);
    note_escapes();
  }
  return result;
}

Expected<BackgroundProcess*> ProcessTable::start(ProcessSpec spec, const std::string& command) {
  if (running_count() >= k_max_running) {
    return make_error(std::to_string(k_max_running) +
                      " background processes are already running; stop one with process_kill first");
  }
  if (spec.cancellation && spec.cancellation->cancelled()) {
    return make_error("agent-run is stopping (SIGINT or SIGTERM): nothing new is started");
  }
  std::string handle = "bg" + std::to_string(m_background.size() + 1);
  spec.kill_grace = k_background_grace;
  auto process = BackgroundProcess::start(marked(std::move(spec), handle), handle, command);
  if (!process) return process.error();
  m_sessions.push_back((*process)->pid());
  m_background.push_back(std::move(*process));
  return m_background.back().get();
}

BackgroundProcess* ProcessTable::find(std::string_view handle) const {
  for (const auto& process : m_background) {
    if (process->handle() == handle) return process.get();
  }
  return nullptr;
}

std::vector<std::string> ProcessTable::handles() const {
  std::vector<std::string> handles;
  for (const auto& process : m_background) handles.push_back(process->handle());
  return handles;
}

BackgroundRead ProcessTable::kill(BackgroundProcess& process) {
  BackgroundRead read = process.stop(EndedBy::process_kill);
  std::string job = std::string(k_job_marker_name) + "=" + m_token + "." + process.handle();
  kill_marked_and_reap(job, {process.pid()}, k_escape_patience);
  return read;
}

/// Remembers the processes of this attempt that are alive outside any running background group:
/// they escaped a foreground command. Remembering them lets the runner reap them even if they die
/// on their own before the attempt ends.
void ProcessTable::note_escapes() {
  for (pid_t pid : processes_marked(m_marker)) {
    auto info = read_process_info(pid);
    bool in_background = info && std::any_of(m_background.begin(), m_background.end(), [&](const auto& process) {
                           return !process->ending() && process->pid() == info->group;
                         });
    if (!in_background) remember_escape(pid);
  }
  m_unreaped = reap_zombies_of(m_unreaped, m_sessions);
  reap_orphans();  // escapes that died before they could be noted: no marker can be read from a zombie
}

/// Notes an escaped process and the session it made: when the session's leader was the middle of a
/// double fork, it is now the runner's zombie, and nobody else will reap it. Both are remembered by
/// pid and start time, so a recycled pid (another attempt's command, say) is never reaped by mistake.
void ProcessTable::remember_escape(pid_t pid) {
  if (m_escapes.count(pid)) return;
  m_escapes[pid] = command_line_of(pid);
  auto info = read_process_info(pid);
  if (!info) return;
  m_unreaped.push_back(ProcessIdentity{info->pid, info->start_time});
  if (std::find(m_sessions.begin(), m_sessions.end(), info->session) != m_sessions.end()) return;
  if (auto leader = read_process_info(info->session)) {
    ProcessIdentity identity{leader->pid, leader->start_time};
    if (std::find(m_unreaped.begin(), m_unreaped.end(), identity) == m_unreaped.end()) m_unreaped.push_back(identity);
  }
}

std::size_t ProcessTable::running_count() const {
  return static_cast<std::size_t>(
      std::count_if(m_background.begin(), m_background.end(), [](const auto& process) { return !process->ending(); }));
}

ProcessTableSummary ProcessTable::stop_everything() {
  for (const auto& process : m_background) process->begin_stop(EndedBy::attempt_end);
  for (const auto& process : m_background) process->stop(EndedBy::attempt_end);
  for (pid_t pid : processes_marked(m_marker)) remember_escape(pid);
  for (pid_t pid : kill_marked_and_reap(m_marker, m_sessions, k_escape_patience)) {
    m_killed.push_back(EscapedProcess{pid, m_escapes.count(pid) ? m_escapes[pid] : ""});
  }
  m_unreaped = reap_zombies_of(m_unreaped, m_sessions);
  reap_orphans();
  ProcessTableSummary summary;
  for (const auto& process : m_background) {
    summary.background.push_back(BackgroundSummary{process->handle(), process->command(), process->pid(),
                                                   process->ending(), process->ended_by(), process->output_bytes()});
  }
  summary.escaped = m_killed;
  return summary;
}

}  // namespace agent_run
