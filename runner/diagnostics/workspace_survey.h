#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <vector>

namespace agent_run {

/// Whether the policy hides a path (absolute, as walked; `file` is what lstat says of it): never
/// surveyed, never read, never sent to a server. Empty: nothing is hidden.
using HiddenPath = std::function<bool(const std::filesystem::path& absolute, const struct stat& file)>;

/// What a survey notes of one regular file, without reading it.
struct FileStamp {
  std::uintmax_t size = 0;
  std::int64_t modified_ns = 0;
  std::uint64_t inode = 0;
  std::uint64_t device = 0;

  friend bool operator==(const FileStamp&, const FileStamp&) = default;
};

/// A cheap picture of the regular files under a folder (size, modification time and inode of each),
/// so that two pictures tell which files were created, changed and deleted in between.
struct FolderSurvey {
  std::map<std::filesystem::path, FileStamp> files;  // absolute path -> its stamp
  bool complete = true;                              // false: the walk stopped at the cap
};

/// How a file changed between two surveys; the values are LSP's FileChangeType.
enum class FileChange { created = 1, changed = 2, deleted = 3 };

/// One file that changed.
struct ChangedFile {
  std::filesystem::path path;
  FileChange change = FileChange::changed;
};

/// The most files a survey notes: past it the walk stops (a generated tree nobody edits).
inline constexpr std::size_t k_survey_cap = 20000;

/// Walks `root` without following links, never entering .git, the trees tools fill and nobody
/// edits (node_modules, __pycache__, .venv, target, ...) nor a hidden path, and notes each regular file.
FolderSurvey survey_folder(const std::filesystem::path& root, const HiddenPath& hidden = {},
                           std::size_t cap = k_survey_cap);

/// The files created, changed and deleted from `before` to `after`, in path order. With an
/// incomplete `after`, a file it lacks counts as deleted only when it is really gone.
std::vector<ChangedFile> changes_between(const FolderSurvey& before, const FolderSurvey& after);

}  // namespace agent_run
