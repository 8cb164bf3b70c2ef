#include "tools/background_status.h"

#include "base/text.h"

#include <cstring>

namespace agent_run {

Expected<BackgroundProcess*> find_background(SessionState& session, const std::string& handle) {
  if (BackgroundProcess* process = session.processes.find(handle)) return process;
  std::vector<std::string> handles = session.processes.handles();
  if (handles.empty())
    return make_error("no background process '" + handle + "': none has been started (bash with background: true)");
  return make_error("no background process '" + handle + "'; the handles are " + join(handles, ", "));
}

std::string background_report(const std::string& handle, const BackgroundRead& read) {
  std::string text = read.output;
  if (!text.empty() && text.back() != '\n') text += '\n';
  if (read.running) {
    return text + "[" + handle + " is still running; " + std::to_string(read.new_bytes) + " new bytes]\n";
  }
  const ProcessEnding& ending = *read.ending;
  std::string how = ending.signal != 0 ? "was killed by signal " + std::to_string(ending.signal) + " (" +
                                             strsignal(ending.signal) + ")"
                                       : "exited with exit code " + std::to_string(ending.exit_code);
  return text + "[" + handle + " " + how + " after " + std::to_string(ending.duration_ms) + " ms; " +
         std::to_string(read.new_bytes) + " new bytes]\n";
}

}  // namespace agent_run
