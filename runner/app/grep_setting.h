#pragma once

#include "base/expected.h"
#include "tools/tool.h"

#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// The grep backend asked for: AGENT_RUN_GREP in the environment, else `configured` (agent-run.yaml's
/// `grep:`), else auto. builtin forces the built-in search, ripgrep requires rg, auto uses rg when
/// it is on PATH. Anything else is an error.
Expected<GrepBackend> grep_backend_setting(const std::vector<std::string>& environment,
                                           const std::optional<std::string>& configured = std::nullopt);

}  // namespace agent_run
