#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

class Tool;

/// The seed's approval classes: how the policy treats a tool that no rule names.
enum class ApprovalClass {
  automatic,  // reads only (read_file, glob, grep): allowed unless a deny rule matches
  prompts,    // edit_file, write_file, bash, web_*, mcp__*: need an allow rule, else `unmatched`
  never,      // the runner's own state (todo_write, ...): not subject to rules
};

/// One built-in tool and the facts about it that the policy loader, the policy, rule matching and
/// the registry read: a new tool is one row of builtin_tools().
struct BuiltinTool {
  std::string_view name;  // as the model, task files and policy files write it
  ApprovalClass approval;
  bool on_by_default;             // enabled in a task without a `tools:` list
  std::string_view path_key;      // the input key naming the path that path rules check; "" for none
  std::string_view path_default;  // the path when that key is absent (glob, grep: the workspace)
  bool writes_files;              // writes its path, so protected paths are checked
  std::unique_ptr<Tool> (*make)();
};

/// Every built-in tool, in the order the model sees them.
std::span<const BuiltinTool> builtin_tools();

/// The built-in tool named `name`, or nullptr (an MCP tool, or none).
const BuiltinTool* find_builtin_tool(std::string_view name);

/// The names of the built-in tools, in the table's order.
std::vector<std::string> builtin_tool_names();

/// True for the built-in tools whose input names a path (the file tools, glob and grep).
bool takes_a_path(std::string_view tool_name);

}  // namespace agent_run
