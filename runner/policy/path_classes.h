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

/// The id of the rule that hides a workspace-relative path known to hold no symlink (what a walk
/// that never follows links meets), matched as written without looking at the disk, or "" when no
/// rule hides it; `root` is the workspace, absolute and resolved.
std::string walked_path_hidden_by(const Policy& policy, std::string_view relative, const std::filesystem::path& root);

/// True for a rule that hides its paths from reads (what classify_path calls hidden).
bool hides_paths(const Rule& rule);

/// Which text of a surveyed path classify_path is given (and, when it cannot be checked, hides).
enum class SurveyedText {
  relative_inside,  // the workspace-relative path when the survey gives one, else the absolute one
  absolute,         // the absolute path always
};

/// classify_path as the survey's callback (exec/mount_survey), on `text` of each path. The
/// workspace and the protected paths are resolved once, and a path the survey reached through real
/// folders (PathForm::as_written) is matched as written without looking at the disk; the verdicts
/// are classify_path's. `policy` must outlive it.
PathClassifier path_classifier(const Policy& policy, const DecisionContext& context,
                               SurveyedText text = SurveyedText::relative_inside);

}  // namespace agent_run
