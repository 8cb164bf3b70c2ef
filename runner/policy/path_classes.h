#pragma once

#include "policy/policy.h"

#include <string>
#include <string_view>

namespace agent_run {

/// How the policy treats one path for the sandbox's mounts, the file tools and the patch.
enum class PathClass {
  plain,      // nothing special: readable and, as far as paths go, writable
  hidden,     // a deny rule hides it from reads: masked in the sandbox, withheld by grep, glob and the patch
  read_only,  // a deny rule forbids edits only, or it is protected (.git, the policy, the task, the report)
};

/// The class of one path and what gave it: the rule id, or the protection ("protected path").
struct PathVerdict {
  PathClass kind = PathClass::plain;
  std::string rule;  // the deciding rule's id; for a protected path, "protected path"

  friend bool operator==(const PathVerdict&, const PathVerdict&) = default;
};

/// Classifies `path` (absolute, or relative to `context.workspace`) as the policy sees it: hidden
/// when a deny (or ask) rule whose only matcher is `paths` names a reading tool (read_file, glob,
/// grep or bash) and matches a view of the path (as written or with symlinks resolved); else
/// read-only when such a rule names only writing tools (edit_file, write_file) or the path is
/// protected (tools/protected_paths: .git at any depth, the policy file, the context's protected
/// paths); else plain. Hidden wins over read-only. A path that cannot be checked (empty, a NUL,
/// longer than a path may be) is hidden, so a caller never exposes what it could not classify.
PathVerdict classify_path(const Policy& policy, std::string_view path, const DecisionContext& context);

const char* to_string(PathClass kind);

}  // namespace agent_run
