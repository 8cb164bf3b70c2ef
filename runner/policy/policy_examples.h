#pragma once

#include "policy/policy.h"

#include <string>
#include <vector>

namespace agent_run {

/// One example of one rule, tried against the rule alone.
struct ExampleOutcome {
  std::string rule_id;
  int line = 0;
  int column = 0;
  bool passed = false;
  std::string message;  // "example 'npm run testx' of rule 'run-tests' should not match, but the rule allows it"
};

/// Tries every example of every rule of `policy`, in file order. A text example is tried as the
/// input of each tool of its rule (bash: the command; file tools: the path; web_fetch: the URL;
/// MCP patterns: the tool name) and matches when the rule decides one of those calls.
std::vector<ExampleOutcome> check_examples(const Policy& policy);

}  // namespace agent_run
