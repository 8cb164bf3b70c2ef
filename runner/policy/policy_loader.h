#pragma once

#include "base/expected.h"
#include "policy/policy.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// Reads, parses and validates one policy file; errors are `FILE:LINE:COL: what is wrong`, one per line.
Expected<Policy> load_policy_file(const std::filesystem::path& path);

/// The same from text already read; `source` names the file in messages.
Expected<Policy> load_policy(std::string_view yaml_text, const std::filesystem::path& source);

/// The names of the built-in tools, as task and policy files write them.
std::vector<std::string> builtin_tool_names();

/// What is wrong with a tool name written in a task or policy file (a built-in tool or
/// `mcp__SERVER__TOOL`), with a "did you mean"; nullopt when it is fine.
std::optional<std::string> tool_name_problem(std::string_view name);

}  // namespace agent_run
