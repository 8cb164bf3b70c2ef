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

/// One turn of the scripted model (a task's `script:`): optional text and any number of tool calls,
/// played in every attempt unless `repeats` or `variants` narrow it down.
struct ScriptedTurn {
  std::string say;
  std::vector<ScriptedCall> calls;
  std::vector<int> repeats;           // only in these attempts (`#n`, from 1); empty: in every one
  std::vector<std::string> variants;  // only for these scripted models (`script/NAME`'s NAME; plain
                                      // `script` plays none of them); empty: for every one
};

/// The turns of `script` that attempt `n` of the scripted model `variant` plays, in order.
std::vector<ScriptedTurn> script_for(const std::vector<ScriptedTurn>& script, const std::string& variant, int n);

}  // namespace agent_run
