#pragma once

#include "search/hidden_paths.h"
#include "tools/tool.h"

namespace agent_run {

/// What grep, glob and read_file leave out in `scope`: the paths its policy hides (ToolScope::
/// hidden_rule) and, when there is a survey, the hidden files under any name (hard links, renames).
/// Empty when the scope hides nothing. Valid while `scope` and its survey are.
HiddenPaths hidden_paths(const ToolScope& scope);

/// What the policy hides under `folder` (workspace-relative, "." for all of it), counted the same
/// whichever search backend runs: from the survey when there is one, else by a walk with `globs`
/// that meets what a search would.
Withheld withheld_under(const ToolScope& scope, const std::string& folder, const std::vector<std::string>& globs);

}  // namespace agent_run
