#include "tools/background_status.h"
#include "tools/builtin_tools.h"
#include "tools/tool_input.h"

namespace agent_run {

namespace {

/// Stops a background process, its process group and whatever escaped from it.
class ProcessKillTool final : public Tool {
 public:
  ToolSchema schema() const override {
    return ToolSchema{
        "process_kill",
        "Stop a background process and its children (SIGTERM, then SIGKILL after 2 seconds), and return its last "
        "output. Everything still running is killed when the task ends anyway.",
        object_schema(Json::object().set("handle", property("string", "The handle bash returned, e.g. bg1")),
                      {"handle"})};
  }

  ToolOutput run(const Json& input, const ToolScope&, SessionState& session, std::chrono::milliseconds) override {
    auto handle = required_string(input, "handle");
    if (!handle) return failure(handle.error().message);
    auto process = find_background(session, *handle);
    if (!process) return failure(process.error().message);
    bool had_ended = (*process)->ending().has_value();
    BackgroundRead read = session.processes.kill(**process);
    std::string text = background_report(*handle, read);
    if (had_ended) text += "(it had already ended before process_kill)\n";
    return ToolOutput{text, false, std::nullopt};
  }

 private:
  static ToolOutput failure(const std::string& message) {
    return ToolOutput{tool_error_text("process_kill", message), true, {}};
  }
};

}  // namespace

std::unique_ptr<Tool> make_process_kill_tool() { return std::make_unique<ProcessKillTool>(); }

}  // namespace agent_run
