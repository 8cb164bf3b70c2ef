#include "base/duration.h"
#include "exec/process.h"
#include "tools/builtin_tools.h"
#include "tools/tool_input.h"

#include <csignal>
#include <cstring>

namespace agent_run {

namespace {

constexpr std::size_t k_output_head_bytes = 16 * 1024;
constexpr std::size_t k_output_tail_bytes = 16 * 1024;

/// How a command ended, as the last line of the result.
std::string ending_of(const ProcessResult& result, std::chrono::milliseconds timeout) {
  if (result.timed_out) {
    return "[timed out after " + format_duration(timeout) + "; its process group was killed]";
  }
  if (result.signal != 0) {
    return "[killed by signal " + std::to_string(result.signal) + " (" + strsignal(result.signal) + ")]";
  }
  return "[exit code " + std::to_string(result.exit_code) + "]";
}

/// Runs a shell command in the workspace, in its own process group, with a timeout.
class BashTool final : public Tool {
 public:
  ToolSchema schema() const override {
    return ToolSchema{
        "bash",
        "Run a shell command in the workspace with /bin/sh. Standard output and error come back together, "
        "capped head and tail, followed by the exit code.",
        object_schema(Json::object()
                          .set("command", property("string", "The command line to run"))
                          .set("timeout", property("integer", "Seconds before the command is killed (capped by the task)")),
                      {"command"})};
  }

  ToolOutput run(const Json& input, ToolContext& context) override {
    auto command = required_string(input, "command");
    auto timeout_seconds = optional_integer(input, "timeout", 0);
    if (!command) return failure(command.error().message);
    if (!timeout_seconds || *timeout_seconds < 0) {
      return failure(timeout_seconds ? "timeout must be a positive number of seconds" : timeout_seconds.error().message);
    }
    auto timeout = context.timeout;
    if (*timeout_seconds > 0) {
      timeout = std::min(timeout, std::chrono::milliseconds(*timeout_seconds * 1000));
    }
    ProcessSpec spec = shell_command(*command, context.workspace, timeout);
    spec.environment = context.environment;
    spec.cancellation = context.cancellation;
    spec.output_head_bytes = k_output_head_bytes;
    spec.output_tail_bytes = k_output_tail_bytes;
    auto result = run_process(spec);
    if (!result) return failure(result.error().message);
    std::string text = result->output;
    if (!text.empty() && text.back() != '\n') text += '\n';
    text += ending_of(*result, timeout) + "\n";
    bool failed = result->timed_out || result->signal != 0 || result->exit_code != 0;
    return ToolOutput{text, failed, std::nullopt};
  }

 private:
  static ToolOutput failure(const std::string& message) { return ToolOutput{tool_error_text("bash", message), true, {}}; }
};

}  // namespace

std::unique_ptr<Tool> make_bash_tool() { return std::make_unique<BashTool>(); }

}  // namespace agent_run
