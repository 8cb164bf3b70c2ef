#include "tools/background_status.h"
#include "tools/builtin_tools.h"
#include "tools/diagnostics_hook.h"
#include "tools/tool_input.h"

#include <algorithm>

namespace agent_run {

namespace {

constexpr std::int64_t k_max_wait_seconds = 60;

/// New output from a background process since the last ask, and whether it is still running.
class ProcessOutputTool final : public Tool {
 public:
  ToolSchema schema() const override {
    return ToolSchema{
        "process_output",
        "New output from a background process (started with bash background: true) since you last asked, and "
        "whether it is still running or how it ended. With wait, waits up to that many seconds for new output "
        "or the end, whichever comes first.",
        object_schema(
            Json::object()
                .set("handle", property("string", "The handle bash returned, e.g. bg1"))
                .set("wait", property("integer", "Seconds to wait for new output or the end (default 0, at most 60)")),
            {"handle"})};
  }

  ToolOutput run(const Json& input, const ToolScope& scope, SessionState& session,
                 std::chrono::milliseconds timeout) override {
    auto handle = required_string(input, "handle");
    auto wait = optional_integer(input, "wait", 0);
    if (!handle) return failure(handle.error().message);
    if (!wait || *wait < 0) return failure(wait ? "wait must be a number of seconds, 0 or more" : wait.error().message);
    auto process = find_background(session, *handle);
    if (!process) return failure(process.error().message);
    auto patience = std::min(std::chrono::milliseconds(std::min(*wait, k_max_wait_seconds) * 1000), timeout);
    BackgroundRead read = (*process)->read_new(patience);
    tell_diagnostics_of_changes(scope);  // what it wrote meanwhile reaches the language servers
    return ToolOutput{background_report(*handle, read), false, std::nullopt};
  }

 private:
  static ToolOutput failure(const std::string& message) {
    return ToolOutput{tool_error_text("process_output", message), true, {}};
  }
};

}  // namespace

std::unique_ptr<Tool> make_process_output_tool() { return std::make_unique<ProcessOutputTool>(); }

}  // namespace agent_run
