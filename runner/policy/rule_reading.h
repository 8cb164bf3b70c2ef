#pragma once

#include "base/yaml_document.h"
#include "policy/policy.h"

#include <string>
#include <vector>

namespace agent_run {

/// The matcher keys of a rule, after id, the decision and message.
std::vector<std::string> matcher_keys();

/// Reads a rule's matchers (paths, argv_prefix, argv_regex, options and their syntax and scan,
/// redirects, hosts, schemes, ports) and
/// examples into `rule`, which already holds its decision and tools; every problem goes to
/// `checker` with its position, including a matcher that does not fit the rule's tools.
void read_rule_matchers(const YamlNode& value, const std::string& name, YamlChecker& checker, Rule& rule);

}  // namespace agent_run
