#pragma once

#include <string>
#include <vector>

namespace agent_run {

/// What changed in one source's tools when it was listed again (an MCP server that announced
/// notifications/tools/list_changed).
struct ToolsChange {
  std::string source;                // "MCP server 'NAME'"
  std::vector<std::string> added;    // names offered now that were not before
  std::vector<std::string> removed;  // names no longer offered
  std::string error;                 // the new list could not be read ("" when it was): the old tools stay
};

/// Brings the tools of an attempt's registry up to date between the agent loop's turns; the loop
/// asks before each model request and, when something changed, offers the registry's tools anew.
class ToolUpdates {
 public:
  virtual ~ToolUpdates() = default;
  /// Applies to the registry what changed since the last call and says what it was; empty when
  /// nothing did.
  virtual std::vector<ToolsChange> update() = 0;
};

}  // namespace agent_run
