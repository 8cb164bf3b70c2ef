#pragma once

#include "exec/background_process.h"
#include "tools/tool.h"

#include <string>

namespace agent_run {

// What process_output and process_kill share: finding a handle and saying how a process stands.

/// The background process `handle` names, or an error for the model naming the handles there are.
Expected<BackgroundProcess*> find_background(SessionState& session, const std::string& handle);

/// New output, then one line saying whether `handle` still runs or how it ended.
std::string background_report(const std::string& handle, const BackgroundRead& read);

}  // namespace agent_run
