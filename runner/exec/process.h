#pragma once

#include "base/expected.h"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

class Cancellation;

/// A command to run to completion.
struct ProcessSpec {
  std::vector<std::string> argv;                                  // argv[0] is looked up in PATH
  std::filesystem::path cwd;                                      // empty: the runner's
  std::optional<std::vector<std::string>> environment;            // KEY=VALUE; nullopt: the runner's
  std::chrono::milliseconds timeout{0};                           // 0: none
  std::chrono::milliseconds kill_grace{std::chrono::seconds(2)};  // SIGTERM to SIGKILL
  std::size_t output_head_bytes = 32 * 1024;                      // kept from the start of the output
  std::size_t output_tail_bytes = 32 * 1024;                      // kept from the end of the output
  const Cancellation* cancellation = nullptr;                     // when it fires, the group is killed as on a timeout
};

/// How a command ended and what it printed (stdout and stderr interleaved as written).
struct ProcessResult {
  int exit_code = -1;            // valid when signal == 0
  int signal = 0;                // the signal that ended it, if any
  bool timed_out = false;        // the timeout killed its process group
  bool cancelled = false;        // the run's cancellation killed its process group (SIGINT/SIGTERM to agent-run)
  std::string output;            // head and tail, with the omitted byte count between them
  std::size_t output_bytes = 0;  // everything it printed, kept or not
  long long duration_ms = 0;
  int pid = 0;  // the command's pid, which was also its process group and session id
};

/// Runs a command in its own session and process group with stdin from /dev/null, reading its
/// output through one poll loop; on timeout the whole group gets SIGTERM, then SIGKILL. When the
/// command exits, whatever it left running in its group is killed (and reaped, the runner being a
/// child subreaper). Fails only if it cannot start.
Expected<ProcessResult> run_process(const ProcessSpec& spec);

/// `sh -c command` as a ProcessSpec.
ProcessSpec shell_command(const std::string& command, const std::filesystem::path& cwd,
                          std::chrono::milliseconds timeout);

}  // namespace agent_run
