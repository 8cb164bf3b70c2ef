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

/// Reads a tools/list result. A tool without a name, or with an inputSchema that is not an
/// object, is an error naming it: a server that sends one is broken.
Expected<ToolPage> read_tool_page(const Json& result);

}  // namespace agent_run
