#include "tools/confined_path.h"

#include "base/paths.h"
#include "tools/protected_paths.h"

#include <climits>

namespace agent_run {

namespace fs = std::filesystem;

Expected<ConfinedPath> confine_path(const fs::path& workspace, std::string_view requested, Access access,
                                    const std::vector<fs::path>& protected_paths) {
  const std::string shown(requested);
  if (requested.empty()) {
    return make_error("path is empty");
  }
  if (requested.find('\0') != std::string_view::npos) {
    return make_error("path contains a NUL byte");
  }
  if (requested.size() >= PATH_MAX) {
    return make_error("path is too long (" + std::to_string(requested.size()) + " bytes)");
  }
  for (const fs::path& part : fs::path(shown)) {
    if (part.native().size() > NAME_MAX) {
      return make_error("a part of the path is too long (" + std::to_string(part.native().size()) + " bytes; at most " +
                        std::to_string(NAME_MAX) + ")");
    }
  }
  const fs::path root = resolved_path(workspace);
  fs::path wanted = fs::path(shown).is_absolute() ? fs::path(shown) : root / shown;
  wanted = wanted.lexically_normal();
  if (!is_at_or_under(wanted, root)) {
    return make_error("'" + shown + "' is outside the workspace");
  }
  const fs::path real = resolved_path(wanted);
  if (!is_at_or_under(real, root)) {
    return make_error("'" + shown + "' leads outside the workspace through a symlink");
  }
  fs::path relative = real.lexically_relative(root);
  std::string relative_text = relative.empty() || relative == "." ? "." : relative.generic_string();
  if (access == Access::write) {
    if (std::optional<Protection> protection = write_protection(real, root, protected_paths)) {
      return make_error(*protection == Protection::git_folder
                            ? "'" + shown + "' is inside .git/, which is never written"
                            : "'" + shown + "' is protected and never written");
    }
  }
  return ConfinedPath{real, relative_text};
}

}  // namespace agent_run
