#include "tools/tool_table.h"

#include "tools/builtin_tools.h"

#include <algorithm>
#include <array>

namespace agent_run {

namespace {

using enum ApprovalClass;
constexpr bool k_on = true;
constexpr bool k_off = false;  // web tools run only when a task lists them
constexpr bool k_writes = true;
constexpr bool k_reads = false;

// clang-format off
constexpr std::array k_builtin_tools = {
    //          name              approval   default  path key  default path  writes    factory
    BuiltinTool{"read_file",      automatic, k_on,    "path",   "",           k_reads,  make_read_file_tool},
    BuiltinTool{"glob",           automatic, k_on,    "path",   ".",          k_reads,  make_glob_tool},
    BuiltinTool{"grep",           automatic, k_on,    "path",   ".",          k_reads,  make_grep_tool},
    BuiltinTool{"edit_file",      prompts,   k_on,    "path",   "",           k_writes, make_edit_file_tool},
    BuiltinTool{"write_file",     prompts,   k_on,    "path",   "",           k_writes, make_write_file_tool},
    BuiltinTool{"bash",           prompts,   k_on,    "",       "",           k_reads,  make_bash_tool},
    BuiltinTool{"process_output", never,     k_on,    "",       "",           k_reads,  make_process_output_tool},
    BuiltinTool{"process_kill",   never,     k_on,    "",       "",           k_reads,  make_process_kill_tool},
    BuiltinTool{"todo_write",     never,     k_on,    "",       "",           k_reads,  make_todo_write_tool},
    BuiltinTool{"context_status", never,     k_on,    "",       "",           k_reads,  make_context_status_tool},
    BuiltinTool{"ask_user",       never,     k_on,    "",       "",           k_reads,  make_ask_user_tool},
    BuiltinTool{"web_fetch",      prompts,   k_off,   "",       "",           k_reads,  make_web_fetch_tool},
    BuiltinTool{"web_search",     prompts,   k_off,   "",       "",           k_reads,  make_web_search_tool},
};
// clang-format on

}  // namespace

std::span<const BuiltinTool> builtin_tools() { return k_builtin_tools; }

const BuiltinTool* find_builtin_tool(std::string_view name) {
  auto found = std::find_if(k_builtin_tools.begin(), k_builtin_tools.end(),
                            [&](const BuiltinTool& tool) { return tool.name == name; });
  return found == k_builtin_tools.end() ? nullptr : &*found;
}

std::vector<std::string> builtin_tool_names() {
  std::vector<std::string> names;
  for (const BuiltinTool& tool : k_builtin_tools) names.emplace_back(tool.name);
  return names;
}

bool takes_a_path(std::string_view tool_name) {
  const BuiltinTool* tool = find_builtin_tool(tool_name);
  return tool != nullptr && !tool->path_key.empty();
}

}  // namespace agent_run
