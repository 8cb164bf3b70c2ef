#pragma once

#include "base/expected.h"
#include "tools/tool.h"

#include <string>
#include <vector>

namespace agent_run {

/// The grep backend the environment asks for: AGENT_RUN_GREP=builtin forces the built-in search,
/// =ripgrep requires rg, =auto (or unset) uses rg when it is on PATH. Anything else is an error.
Expected<GrepBackend> grep_backend_setting(const std::vector<std::string>& environment);

}  // namespace agent_run
