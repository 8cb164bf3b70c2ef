#include "tools/tool_registry.h"

#include "tools/builtin_tools.h"

#include <algorithm>

namespace agent_run {

void ToolRegistry::add(std::unique_ptr<Tool> tool) {
  std::string name = tool->schema().name;
  m_tools.emplace_back(std::move(name), std::move(tool));
}

Tool* ToolRegistry::find(std::string_view name) const {
  for (const auto& [tool_name, tool] : m_tools) {
    if (tool_name == name) return tool.get();
  }
  return nullptr;
}

std::vector<ToolSchema> ToolRegistry::schemas() const {
  std::vector<ToolSchema> schemas;
  for (const auto& entry : m_tools) schemas.push_back(entry.second->schema());
  return schemas;
}

std::vector<std::string> ToolRegistry::names() const {
  std::vector<std::string> names;
  for (const auto& entry : m_tools) names.push_back(entry.first);
  return names;
}

ToolRegistry make_tool_registry(const std::optional<std::vector<std::string>>& enabled) {
  std::vector<std::unique_ptr<Tool>> builtin;
  builtin.push_back(make_read_file_tool());
  builtin.push_back(make_glob_tool());
  builtin.push_back(make_grep_tool());
  builtin.push_back(make_edit_file_tool());
  builtin.push_back(make_write_file_tool());
  builtin.push_back(make_bash_tool());
  builtin.push_back(make_process_output_tool());
  builtin.push_back(make_process_kill_tool());
  builtin.push_back(make_todo_write_tool());
  builtin.push_back(make_context_status_tool());
  builtin.push_back(make_ask_user_tool());
  builtin.push_back(make_web_fetch_tool());
  builtin.push_back(make_web_search_tool());
  ToolRegistry registry;
  for (auto& tool : builtin) {
    std::string name = tool->schema().name;
    bool by_default = !name.starts_with("web_");  // web tools only when the task lists them
    if (enabled ? std::find(enabled->begin(), enabled->end(), name) != enabled->end() : by_default) {
      registry.add(std::move(tool));
    }
  }
  return registry;
}

}  // namespace agent_run
