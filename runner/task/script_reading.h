#pragma once

#include "base/yaml_document.h"
#include "model/scripted_turn.h"

#include <vector>

namespace agent_run {

/// Reads a task's `script:` (the scripted model's turns): each turn `say`, `call` and `calls`, at
/// least one of them, and optionally `repeats: [N...]` and `variants: [NAME...]` (only those
/// attempts, only those `script/NAME` models play it); each call `{tool: NAME, input: {...}}`.
/// Problems go to `checker`.
std::vector<ScriptedTurn> read_script(const YamlNode& value, YamlChecker& checker);

}  // namespace agent_run
