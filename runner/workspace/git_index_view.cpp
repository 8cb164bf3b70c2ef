#include "workspace/git_index_view.h"

#include "base/files.h"
#include "workspace/git_handles.h"

#include <git2.h>

#include <string_view>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

/// Whether the tracked `entry` (a '/'-separated path) is one of `hidden` or lies in one of them.
bool is_hidden(std::string_view entry, const std::vector<std::string>& hidden) {
  for (const std::string& path : hidden) {
    if (entry == path) return true;
    if (entry.size() > path.size() && entry.starts_with(path) && entry[path.size()] == '/') return true;
  }
  return false;
}

}  // namespace

Expected<std::optional<GitIndexView>> git_index_view(const fs::path& workspace, const std::vector<std::string>& hidden,
                                                     const fs::path& copy) {
  if (hidden.empty()) return std::optional<GitIndexView>();
  ensure_libgit2();
  git_repository* opened = nullptr;
  if (git_repository_open_ext(&opened, workspace.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    return std::optional<GitIndexView>();  // not a repository: nothing to show git
  }
  GitHandle<git_repository> repository(opened);
  const fs::path index_file = fs::path(git_repository_path(repository.get())) / "index";
  std::error_code ec;
  if (!fs::is_regular_file(index_file, ec)) return std::optional<GitIndexView>();
  // The entries to mark are found in the real index, read only; the copy is made only when there
  // are some (most sandboxes hide untracked files only: no copy, no second read).
  std::vector<std::string> tracked;
  {
    git_index* real = nullptr;
    if (git_index_open(&real, index_file.c_str()) != 0) return git_failure("cannot read the git index " + index_file.string());
    GitHandle<git_index> index(real);
    for (std::size_t i = 0, count = git_index_entrycount(index.get()); i < count; ++i) {
      const git_index_entry* entry = git_index_get_byindex(index.get(), i);
      if (entry == nullptr || !is_hidden(entry->path, hidden)) continue;
      if (!(entry->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE)) tracked.emplace_back(entry->path);
    }
  }
  if (tracked.empty()) return std::optional<GitIndexView>();
  fs::copy_file(index_file, copy, fs::copy_options::overwrite_existing, ec);
  if (ec) return make_error("cannot copy the git index " + index_file.string() + ": " + ec.message());
  git_index* loaded = nullptr;
  if (git_index_open(&loaded, copy.c_str()) != 0) return git_failure("cannot read the copy of the git index");
  GitHandle<git_index> index(loaded);
  // Each entry is copied, marked and added back before the next is looked up: an add may move the
  // index's entries, so no pointer into it is kept across one.
  for (const std::string& path : tracked) {
    const git_index_entry* found = git_index_get_bypath(index.get(), path.c_str(), 0);
    if (found == nullptr) continue;
    git_index_entry entry = *found;
    entry.flags_extended |= GIT_INDEX_ENTRY_SKIP_WORKTREE;
    if (git_index_add(index.get(), &entry) != 0) return git_failure("cannot mark " + path + " in the git index's copy");
  }
  if (git_index_write(index.get()) != 0) return git_failure("cannot write the sandbox's view of the git index");
  return std::optional<GitIndexView>(GitIndexView{index_file, copy});
}

}  // namespace agent_run
