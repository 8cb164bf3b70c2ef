#pragma once

#include "base/json.h"

#include <string>
#include <vector>

namespace agent_run {

/// One tool call the scripted model makes.
struct ScriptedCall {
  std::string tool;
  Json input = Json::object();
};

/// One turn of the scripted model (a task's `script:`): optional text and any number of tool calls.
struct ScriptedTurn {
  std::string say;
  std::vector<ScriptedCall> calls;
};

}  // namespace agent_run
