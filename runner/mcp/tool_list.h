#pragma once

#include "base/expected.h"
#include "base/json.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// One tool a server offers, as its tools/list gave it. The schemas go to the model unchanged.
struct McpToolInfo {
  std::string name;
  std::string title;        // "" when none
  std::string description;  // "" when none
  Json input_schema;        // a JSON Schema object (2020-12 unless it names another)
  Json output_schema;       // null when none
  Json annotations;         // null when none (readOnlyHint, destructiveHint, ...)
  std::string problem;      // why the model cannot be offered it ("" when it can): the tool is left
                            // out and its server's other tools are offered
};

/// How much of a tools/list the client accepts: more than this makes the server's tools
/// unavailable with an error, rather than flooding the model's context.
struct ToolListLimits {
  std::size_t max_tools = 512;
  std::size_t max_bytes = 1u << 20;  // the tool entries as JSON, all pages together
  int max_pages = 64;
};

/// One page of a tools/list answer: its tools (read in order, each checked) and its nextCursor.
struct ToolPage {
  std::vector<McpToolInfo> tools;
  std::size_t bytes = 0;  // the page's tool entries as JSON
  std::optional<std::string> next_cursor;
};

/// Reads a tools/list result. A tool that cannot be offered to a model (no name, no inputSchema
/// object, a schema whose type is not "object", or `execution.taskSupport: required`, which needs
/// MCP tasks) is kept with its `problem`, so that one bad tool never hides the server's others.
Expected<ToolPage> read_tool_page(const Json& result);

}  // namespace agent_run
