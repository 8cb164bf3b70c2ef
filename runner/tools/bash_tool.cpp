#include "base/duration.h"
#include "exec/attempt_sandbox.h"
#include "exec/process.h"
#include "tools/builtin_tools.h"
#include "tools/diagnostics_hook.h"
#include "tools/tool_input.h"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>

namespace agent_run {

namespace {

constexpr std::size_t k_output_head_bytes = 16 * 1024;
constexpr std::size_t k_output_tail_bytes = 16 * 1024;

/// How a command ended, as the last line of the result.
std::string ending_of(const ProcessResult& result, std::chrono::milliseconds timeout) {
  if (result.cancelled) {
    return "[interrupted: agent-run was stopped by SIGINT or SIGTERM; its process group was killed]";
  }
  if (result.timed_out) {
    return "[timed out after " + format_duration(timeout) + "; its process group was killed]";
  }
  if (result.signal != 0) {
    return "[killed by signal " + std::to_string(result.signal) + " (" + strsignal(result.signal) + ")]";
  }
  return "[exit code " + std::to_string(result.exit_code) + "]";
}

/// `command` for bash (sh where there is no bash) in the workspace, sandboxed when the task says so.
ProcessSpec command_spec(const std::string& command, const ToolScope& scope, std::chrono::milliseconds timeout) {
  ProcessSpec spec = shell_command(command, scope.workspace, timeout);
  std::error_code ec;
  if (std::filesystem::exists("/bin/bash", ec)) spec.argv.front() = "/bin/bash";
  spec.environment = scope.environment;  // built by exec/child_environment: no secret, no task secret
  spec.cancellation = scope.cancellation;
  spec.output_head_bytes = k_output_head_bytes;
  spec.output_tail_bytes = k_output_tail_bytes;
  if (scope.sandbox) spec = scope.sandbox->wrap(spec);
  return spec;
}

/// Runs a shell command in the workspace, in its own process group, with a timeout; or in the background.
class BashTool final : public Tool {
 public:
  ToolSchema schema() const override {
    return ToolSchema{
        "bash",
        "Run a shell command with bash in the workspace, in its own process group. Standard output and error "
        "come back together, capped head and tail, followed by the exit code; on timeout the whole group is "
        "killed. With background: true it returns a handle at once instead of waiting: read the new output "
        "with process_output, stop it with process_kill. Everything still running is killed when the task ends.",
        object_schema(
            Json::object()
                .set("command", property("string", "The command line to run"))
                .set("timeout", property("integer", "Seconds before the command is killed (capped by the task)"))
                .set("background", property("boolean", "Start it and return a handle at once (a server, a watcher)")),
            {"command"})};
  }

  ToolOutput run(const Json& input, const ToolScope& scope, SessionState& session,
                 std::chrono::milliseconds timeout) override {
    auto command = required_string(input, "command");
    auto timeout_seconds = optional_integer(input, "timeout", 0);
    auto background = optional_boolean(input, "background", false);
    if (!command) return failure(command.error().message);
    if (!background) return failure(background.error().message);
    if (!timeout_seconds || *timeout_seconds < 0) {
      return failure(timeout_seconds ? "timeout must be a positive number of seconds"
                                     : timeout_seconds.error().message);
    }
    if (*background) return start_background(*command, scope, session);
    if (*timeout_seconds > 0) {
      timeout = std::min(timeout, std::chrono::milliseconds(*timeout_seconds * 1000));
    }
    auto result = session.processes.run(command_spec(*command, scope, timeout));
    tell_diagnostics_of_changes(scope);  // sed -i, git mv, a generator: the language servers learn of it now
    if (!result) return failure(result.error().message);
    std::string text = result->output;
    if (!text.empty() && text.back() != '\n') text += '\n';
    text += ending_of(*result, timeout) + "\n";
    bool failed = result->timed_out || result->cancelled || result->signal != 0 || result->exit_code != 0;
    return ToolOutput{text, failed, std::nullopt};
  }

 private:
  static ToolOutput start_background(const std::string& command, const ToolScope& scope, SessionState& session) {
    auto process = session.processes.start(command_spec(command, scope, std::chrono::milliseconds(0)), command);
    if (!process) return failure(process.error().message);
    const std::string& handle = (*process)->handle();
    return ToolOutput{"Started in the background as " + handle + " (pid " + std::to_string((*process)->pid()) +
                          "). Read its new output with process_output {\"handle\": \"" + handle +
                          "\"}; stop it with process_kill. It is killed when the task ends.\n",
                      false, std::nullopt};
  }

  static ToolOutput failure(const std::string& message) {
    return ToolOutput{tool_error_text("bash", message), true, {}};
  }
};

}  // namespace

std::unique_ptr<Tool> make_bash_tool() { return std::make_unique<BashTool>(); }

}  // namespace agent_run
