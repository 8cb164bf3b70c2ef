#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// The names of the stock policies shipped in policies/ and compiled in: default, permissive, read-only.
std::vector<std::string> stock_policy_names();

/// The text of the stock policy `name` (policies/NAME.yaml as built), or nullptr when there is none.
const char* stock_policy_text(std::string_view name);

/// Where each rule of the policy file `yaml_text` is written when the file extends a stock policy
/// (`extends: NAME`): rule id -> "stock policy 'NAME'" for each rule taken over from it; the file's
/// own rules (added, or replacing a stock rule by id) are absent. Empty for a file that extends
/// nothing. For `agent-run policy explain`; the loader merges the same way.
std::map<std::string, std::string> stock_rule_origins(std::string_view yaml_text);

}  // namespace agent_run
