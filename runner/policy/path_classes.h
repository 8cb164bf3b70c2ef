#pragma once

#include "exec/mount_survey.h"
#include "policy/policy.h"

#include <string>
#include <string_view>

namespace agent_run {

// PathClass and PathVerdict live in exec/mount_survey.h, below the policy, so the sandbox's survey
// can take them from a callback built on classify_path.

/// Classifies `path` (absolute, or relative to `context.workspace`) as the policy sees it: hidden
/// when a deny (or ask) rule whose only matcher is `paths` names a reading tool (read_file, glob,
/// grep or bash) and matches a view of the path (as written or with symlinks resolved); else
/// read-only when such a rule names only writing tools (edit_file, write_file) or the path is
/// protected (tools/protected_paths: .git at any depth, the policy file, the context's protected
/// paths); else plain. Hidden wins over read-only. A path that cannot be checked (empty, a NUL,
/// longer than a path may be) is hidden, so a caller never exposes what it could not classify.
PathVerdict classify_path(const Policy& policy, std::string_view path, const DecisionContext& context);

}  // namespace agent_run
