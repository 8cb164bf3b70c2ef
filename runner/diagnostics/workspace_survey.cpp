#include "diagnostics/workspace_survey.h"

#include <sys/stat.h>

#include <array>
#include <string_view>

namespace agent_run {

namespace {

/// Folders a survey never enters: git's own, and trees that package managers, caches and builds fill.
bool skipped_folder(const std::filesystem::path& name) {
  static constexpr std::array<std::string_view, 12> k_skipped = {
      ".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv",
      ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox", "target", ".gradle"};
  const std::string text = name.string();
  for (std::string_view skipped : k_skipped) {
    if (text == skipped) return true;
  }
  return false;
}

FileStamp stamp_of(const struct stat& file) {
  FileStamp stamp;
  stamp.size = static_cast<std::uintmax_t>(file.st_size);
  stamp.modified_ns = static_cast<std::int64_t>(file.st_mtim.tv_sec) * 1000000000 + file.st_mtim.tv_nsec;
  stamp.inode = static_cast<std::uint64_t>(file.st_ino);
  stamp.device = static_cast<std::uint64_t>(file.st_dev);
  return stamp;
}

}  // namespace

FolderSurvey survey_folder(const std::filesystem::path& root, const HiddenPath& hidden, std::size_t cap) {
  FolderSurvey survey;
  std::error_code ec;
  std::filesystem::recursive_directory_iterator walk(root, std::filesystem::directory_options::skip_permission_denied,
                                                     ec);
  for (; !ec && walk != std::filesystem::recursive_directory_iterator(); walk.increment(ec)) {
    const std::filesystem::path& path = walk->path();
    struct stat file {};
    if (::lstat(path.c_str(), &file) != 0) continue;
    if (S_ISDIR(file.st_mode)) {
      if (skipped_folder(path.filename()) || (hidden && hidden(path, file))) walk.disable_recursion_pending();
      continue;
    }
    if (!S_ISREG(file.st_mode) || (hidden && hidden(path, file))) continue;
    if (survey.files.size() >= cap) {
      survey.complete = false;
      break;
    }
    survey.files.emplace(path, stamp_of(file));
  }
  return survey;
}

std::vector<ChangedFile> changes_between(const FolderSurvey& before, const FolderSurvey& after) {
  std::vector<ChangedFile> changes;
  auto old_file = before.files.begin();
  auto new_file = after.files.begin();
  auto gone = [&](const std::filesystem::path& path) {
    if (after.complete) return true;
    struct stat file {};
    return ::lstat(path.c_str(), &file) != 0 || !S_ISREG(file.st_mode);
  };
  while (old_file != before.files.end() || new_file != after.files.end()) {
    if (new_file == after.files.end() || (old_file != before.files.end() && old_file->first < new_file->first)) {
      if (gone(old_file->first)) changes.push_back({old_file->first, FileChange::deleted});
      ++old_file;
    } else if (old_file == before.files.end() || new_file->first < old_file->first) {
      changes.push_back({new_file->first, FileChange::created});
      ++new_file;
    } else {
      if (!(old_file->second == new_file->second)) changes.push_back({new_file->first, FileChange::changed});
      ++old_file;
      ++new_file;
    }
  }
  return changes;
}

}  // namespace agent_run
