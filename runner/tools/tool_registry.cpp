#include "tools/tool_registry.h"

#include "tools/tool_table.h"

#include <algorithm>

namespace agent_run {

void ToolRegistry::add(std::unique_ptr<Tool> tool) {
  std::string name = tool->schema().name;
  m_tools.emplace_back(std::move(name), std::move(tool));
}

bool ToolRegistry::remove(std::string_view name) {
  return std::erase_if(m_tools, [&](const auto& entry) { return entry.first == name; }) > 0;
}

void ToolRegistry::mark_unavailable(std::string prefix, std::string why) {
  m_unavailable.emplace_back(std::move(prefix), std::move(why));
}

std::optional<std::string> ToolRegistry::unavailable_because(std::string_view name) const {
  for (const auto& [prefix, why] : m_unavailable) {
    if (name.starts_with(prefix)) return why;
  }
  return std::nullopt;
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
  ToolRegistry registry;
  for (const BuiltinTool& tool : builtin_tools()) {
    bool listed = enabled && std::find(enabled->begin(), enabled->end(), tool.name) != enabled->end();
    if (enabled ? listed : tool.on_by_default) registry.add(tool.make());
  }
  return registry;
}

}  // namespace agent_run
