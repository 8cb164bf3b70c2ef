#pragma once

#include "base/expected.h"
#include "policy/policy.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// Whether loading runs every rule's examples (a failing example is a load error) or leaves them
/// to the caller (`agent-run policy test`, which reports each one).
enum class ExampleCheck { at_load, by_caller };

/// Reads, parses and validates one policy file; errors are `FILE:LINE:COL: what is wrong`, one per line.
Expected<Policy> load_policy_file(const std::filesystem::path& path, ExampleCheck examples = ExampleCheck::at_load);

/// The same from text already read; `source` names the file in messages.
Expected<Policy> load_policy(std::string_view yaml_text, const std::filesystem::path& source,
                             ExampleCheck examples = ExampleCheck::at_load);

/// What is wrong with a tool name written in a task or policy file (a built-in tool or
/// `mcp__SERVER__TOOL`), with a "did you mean"; nullopt when it is fine.
std::optional<std::string> tool_name_problem(std::string_view name);

/// The same for a rule's tool entry, which may also be an MCP pattern: `*` globs in the server or
/// tool part (`mcp__github__get_*`, `mcp__*`), or `mcp__SERVER` for all of a server's tools.
std::optional<std::string> tool_pattern_problem(std::string_view pattern);

}  // namespace agent_run
