#pragma once

#include "base/yaml_document.h"
#include "exec/sandbox.h"

#include <optional>

namespace agent_run {

/// Reads a `sandbox:` value, the same key in a task file and a policy file: `on` (the default
/// sandbox), `off`, or a map `{network: off|on, write: workspace|none|anywhere}` (an empty map is the
/// default sandbox). The spec's set_by names the file and line. Problems go to `checker`
/// (file:line:col); nullopt when the value is wrong.
std::optional<SandboxSpec> read_sandbox_spec(const YamlNode& value, YamlChecker& checker);

}  // namespace agent_run
