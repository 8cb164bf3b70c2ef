#pragma once

#include "base/expected.h"
#include "search/hidden_paths.h"
#include "search/ignore_rules.h"

#include <filesystem>
#include <functional>
#include <string_view>

namespace agent_run {

/// One file found by walk_files.
struct WalkedFile {
  std::string_view path;  // workspace-relative, '/'-separated
  int folder_fd = -1;     // the open folder holding it (valid during the callback only)
  const char* name = "";  // its name in that folder
};

enum class WalkStep { go_on, stop };

/// Lists the files that `rg --sort path --hidden --no-ignore-dot --no-ignore-exclude --no-ignore-global
/// -g '!.git' [-g GLOB...]` run in the workspace would search under `start` (workspace-relative, "." for
/// the whole workspace), in the same order: each folder's entries sorted by name, depth first.
///   - Hidden files are included; nothing named `.git` is entered or listed.
///   - `.gitignore` files apply inside a git repository: for each path, the nearest .gitignore with a
///     matching glob decides, looking up to the nearest folder holding `.git` (folders above the
///     workspace included, as ripgrep does).
///   - `overrides` (the -g globs, .git exclusion included) decide before any .gitignore.
///   - Symlinks are never followed; FIFOs, sockets and devices are skipped.
///   - A `start` that is a file is visited on its own, whatever the rules say.
///   - What `hidden` names (the policy's hidden paths and files) is neither visited nor entered, a
///     `start` file included; each is counted in `withheld` (when given) unless an ignore rule left it out first.
/// Folders that cannot be read are skipped. Stops early when `visit` says so.
Expected<void> walk_files(const std::filesystem::path& workspace, std::string_view start, const IgnoreRules& overrides,
                          const std::function<WalkStep(const WalkedFile&)>& visit, const HiddenPaths* hidden = nullptr,
                          Withheld* withheld = nullptr);

/// The override rules every search uses: the caller's globs, then `!.git`.
Expected<IgnoreRules> search_overrides(const std::vector<std::string>& globs);

}  // namespace agent_run
