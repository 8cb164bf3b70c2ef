#pragma once

#include "base/expected.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// A path the model named, resolved inside the workspace.
struct ConfinedPath {
  std::filesystem::path absolute;  // inside the workspace
  std::string relative;            // workspace-relative, '/'-separated: what reports and rules see
};

enum class Access { read, write };

/// Resolves `requested` (relative to the workspace, or absolute inside it) and refuses what would
/// leave the workspace: `..` escapes, absolute paths elsewhere, symlinks of the file or of any
/// parent that lead outside, NUL bytes, overlong paths. Writes are also refused where
/// write_protection says (tools/protected_paths: `.git/` and `protected_paths`), the policy's rule. The file itself
/// need not exist.
Expected<ConfinedPath> confine_path(const std::filesystem::path& workspace, std::string_view requested, Access access,
                                    const std::vector<std::filesystem::path>& protected_paths);

}  // namespace agent_run
