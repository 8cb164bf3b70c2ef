#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// The names of the stock policies shipped in policies/ and compiled in: default, permissive, read-only.
std::vector<std::string> stock_policy_names();

/// The text of the stock policy `name` (policies/NAME.yaml as built), or nullptr when there is none.
const char* stock_policy_text(std::string_view name);

}  // namespace agent_run
