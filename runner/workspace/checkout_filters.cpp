#include "workspace/checkout_filters.h"

#include <git2.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>

namespace agent_run {

namespace {

int stop_at_attributes(const char*, const git_tree_entry* entry, void* found) {
  if (std::string_view(git_tree_entry_name(entry)) != ".gitattributes") return 0;
  *static_cast<bool*>(found) = true;
  return -1;  // stops the walk
}

bool tree_has_attributes(git_repository* repository) {
  git_object* raw = nullptr;
  if (git_revparse_single(&raw, repository, "HEAD^{tree}") != 0) return true;
  GitHandle<git_object> tree(raw);
  bool found = false;
  int walked = git_tree_walk(reinterpret_cast<git_tree*>(tree.get()), GIT_TREEWALK_PRE, stop_at_attributes, &found);
  return found || (walked < 0 && walked != GIT_EUSER);
}

/// Whether the attributes file named `name` exists in one of libgit2's search paths at `level`.
bool search_path_has(git_config_level_t level, const char* name) {
  git_buf paths = GIT_BUF_INIT;
  if (git_libgit2_opts(GIT_OPT_GET_SEARCH_PATH, level, &paths) != 0) return true;
  std::string list(paths.ptr ? paths.ptr : "", paths.size);
  git_buf_dispose(&paths);
  std::error_code ec;
  for (std::size_t start = 0; start <= list.size();) {
    std::size_t end = std::min(list.find(GIT_PATH_LIST_SEPARATOR, start), list.size());
    if (end > start && std::filesystem::exists(std::filesystem::path(list.substr(start, end - start)) / name, ec)) {
      return true;
    }
    start = end + 1;
  }
  return false;
}

bool configured_away(git_repository* repository) {
  git_config* raw = nullptr;
  if (git_repository_config_snapshot(&raw, repository) != 0) return true;
  std::unique_ptr<git_config, void (*)(git_config*)> config(raw, git_config_free);
  const char* value = nullptr;
  if (git_config_get_string(&value, config.get(), "core.attributesFile") == 0) return true;
  int autocrlf = 0;
  if (git_config_get_bool(&autocrlf, config.get(), "core.autocrlf") == 0) return autocrlf != 0;
  // Not a boolean: `input`, which converts only when committing, never on checkout.
  return git_config_get_string(&value, config.get(), "core.autocrlf") == 0 && std::string_view(value) != "input";
}

}  // namespace

bool checkout_filters_are_no_ops(git_repository* repository) {
  std::error_code ec;
  std::filesystem::path common = git_repository_commondir(repository);
  return !configured_away(repository) && !std::filesystem::exists(common / "info" / "attributes", ec) &&
         !search_path_has(GIT_CONFIG_LEVEL_XDG, "attributes") &&
         !search_path_has(GIT_CONFIG_LEVEL_SYSTEM, "gitattributes") && !tree_has_attributes(repository);
}

}  // namespace agent_run
