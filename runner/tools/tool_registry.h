#pragma once

#include "tools/tool.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// The tools one attempt may call, by name; publishes their schemas to the model.
class ToolRegistry {
 public:
  void add(std::unique_ptr<Tool> tool);
  /// Takes the tool named `name` out; false when there was none.
  bool remove(std::string_view name);
  /// The tools whose names start with `prefix` (`mcp__SERVER__`) are missing because of `why`: a
  /// call of one is answered with it rather than with "no such tool".
  void mark_unavailable(std::string prefix, std::string why);
  /// Why the missing tool `name` is missing, when mark_unavailable said so.
  std::optional<std::string> unavailable_because(std::string_view name) const;
  /// The tool named `name`, or nullptr.
  Tool* find(std::string_view name) const;
  /// The schemas of every registered tool, in registration order.
  std::vector<ToolSchema> schemas() const;
  std::vector<std::string> names() const;

 private:
  std::vector<std::pair<std::string, std::unique_ptr<Tool>>> m_tools;
  std::vector<std::pair<std::string, std::string>> m_unavailable;  // prefix, why
};

/// The built-in tools a task enables: its `tools:` list, or by default those the tool table marks
/// on by default (all but web_fetch and web_search, which run only when the task lists them).
ToolRegistry make_tool_registry(const std::optional<std::vector<std::string>>& enabled);

}  // namespace agent_run
