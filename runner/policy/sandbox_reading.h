#pragma once

#include "base/yaml_document.h"
#include "exec/sandbox.h"

#include <optional>

namespace agent_run {

/// Reads a `sandbox: {network: off|on, write: workspace|anywhere}` value, the same key in a task
/// file and a policy file; an empty value is the default sandbox. Problems go to `checker`
/// (file:line:col); nullopt when the value is not a map.
std::optional<SandboxSpec> read_sandbox_spec(const YamlNode& value, YamlChecker& checker);

}  // namespace agent_run
