#pragma once

#include "base/json.h"

#include <string>

namespace agent_run {

/// A tool call the model asked for.
struct ToolCall {
  std::string id;    // the model's id for the call, echoed in the result
  std::string name;  // tool name, e.g. `read_file` or `mcp__github__get_issue`
  Json input = Json::object();
};

/// A tool as the model sees it.
struct ToolSchema {
  std::string name;
  std::string description;
  Json input_schema = Json::object();
};

/// An image a tool returned (a screenshot, a picture file), base64-encoded.
struct ImageBlock {
  std::string media_type;
  std::string data_base64;
};

}  // namespace agent_run
