#pragma once

#include "base/expected.h"
#include "exec/background_process.h"
#include "exec/process.h"
#include "exec/process_group.h"

#include <sys/types.h>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// One background process, as the report shows it.
struct BackgroundSummary {
  std::string handle;
  std::string command;
  int pid = 0;
  std::optional<ProcessEnding> ending;
  EndedBy ended_by = EndedBy::itself;
  std::size_t output_bytes = 0;
};

/// A process that left its command's process group (setsid, a double fork) and was still alive
/// when the attempt ended, so the runner killed it.
struct EscapedProcess {
  int pid = 0;
  std::string command;
};

/// What an attempt's processes came to.
struct ProcessTableSummary {
  std::vector<BackgroundSummary> background;
  std::vector<EscapedProcess> escaped;
};

/// The processes of one attempt. Every process it starts carries the attempt's marker in its
/// environment (`AGENT_RUN_ATTEMPT=<runner pid>-<random>`), which its descendants inherit, so those
/// that escape their process group are still found in /proc and killed when the attempt ends; the
/// marker is per attempt, so attempts running side by side never kill each other's processes.
/// Destroying the table ends everything it started, whatever happened.
class ProcessTable {
 public:
  static constexpr std::size_t k_max_running = 8;

  ProcessTable();
  ~ProcessTable();
  ProcessTable(const ProcessTable&) = delete;
  ProcessTable& operator=(const ProcessTable&) = delete;

  /// The `NAME=value` environment entry every process of this attempt carries.
  const std::string& marker() const { return m_marker; }

  /// Runs a foreground command (exec/process.h run_process) with the marker, then notes the
  /// processes that escaped it.
  Expected<ProcessResult> run(ProcessSpec spec);

  /// Starts a background process with the marker; its handle is `bg1`, `bg2`, ... Fails when
  /// k_max_running are still running, or when spec.cancellation has fired (the run is stopping).
  Expected<BackgroundProcess*> start(ProcessSpec spec, const std::string& command);

  /// The background process with this handle, or nullptr.
  BackgroundProcess* find(std::string_view handle) const;
  /// Every handle handed out, in order.
  std::vector<std::string> handles() const;

  /// process_kill: stops one background process, its group, and whatever escaped from it.
  BackgroundRead kill(BackgroundProcess& process);

  /// Stops every background process, kills every process of the attempt that escaped its group,
  /// and reaps them. Safe to call more than once (a second call finds nothing more to do).
  ProcessTableSummary stop_everything();

 private:
  ProcessSpec marked(ProcessSpec spec, const std::string& job) const;
  void note_escapes();
  void remember_escape(pid_t pid);
  std::size_t running_count() const;

  std::string m_token;
  std::string m_marker;
  std::vector<std::unique_ptr<BackgroundProcess>> m_background;
  std::vector<pid_t> m_sessions;            // every session (== leader pid) this attempt started
  std::map<pid_t, std::string> m_escapes;   // noted escapes: pid -> command line
  std::vector<ProcessIdentity> m_unreaped;  // escapes and the leaders of their sessions, until reaped or gone
  std::vector<EscapedProcess> m_killed;     // escapes killed at the end
};

/// The environment name of the marker every process of an attempt carries.
inline constexpr const char* k_attempt_marker_name = "AGENT_RUN_ATTEMPT";

}  // namespace agent_run
