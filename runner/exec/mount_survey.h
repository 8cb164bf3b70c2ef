#pragma once

#include "base/expected.h"

#include <sys/types.h>

#include <compare>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// How the policy treats one path for the sandbox's mounts, the file tools and the patch. Defined
/// here, below the policy, so that the survey can take it from a callback; policy/path_classes
/// decides it.
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

const char* to_string(PathClass kind);

/// One file (device and inode): a name of it may change (a rename, a hard link), the file does not.
struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;

  friend auto operator<=>(const FileIdentity&, const FileIdentity&) = default;
};

/// A path the survey classified as hidden or read-only.
struct SurveyedPath {
  std::string relative;            // to the workspace ("certs/server.pem"); absolute for a path outside it
  std::filesystem::path absolute;  // where it is on the machine
  bool folder = false;
  FileIdentity identity;  // of a regular file, as surveyed (it stays the file's when the name changes)
  std::string rule;       // what made it so: the rule id, "protected path", or "another name of .env (secrets)"
};

/// What the policy hides and keeps read-only in and around one workspace, found by walking it once
/// (before the agent's sandbox starts, again before the checks'). The sandbox masks the hidden paths
/// and mounts the read-only ones read-only; the file tools and the patch leave both out.
struct Survey {
  std::vector<SurveyedPath> hidden;        // every name of every hidden file or folder
  std::vector<SurveyedPath> read_only;     // read-only paths that are not hidden
  std::set<FileIdentity> hidden_files;     // the regular files of `hidden` (every name of each), and
                                           // those with other names under a hidden folder
  std::set<FileIdentity> read_only_files;  // the regular files of `read_only`
  std::size_t walked = 0;                  // entries looked at
  bool complete = true;                    // false: the walk stopped early (see incomplete_reason)
  std::string incomplete_reason;           // for the report: where it stopped, and why

  /// The hidden path named `relative` (workspace-relative), or a hidden folder holding it; nullptr.
  const SurveyedPath* hidden_at_or_above(std::string_view relative) const;
  /// Whether a hidden path lies at or under the workspace-relative folder `relative` ("" or "." is
  /// the whole workspace): what a recursive reader of that folder would reach.
  bool hides_under(std::string_view relative) const;
  /// The hidden entry for the file `identity`, or nullptr: another name of a hidden file is hidden.
  const SurveyedPath* hidden_file(FileIdentity identity) const;
};

/// What the survey knows of a path it hands its classifier. `as_written`: every folder above it is a
/// real folder under a resolved root and the path is no symbolic link, so it reads the same with links
/// resolved and a classifier may match it as written without looking at the disk. `may_resolve`: a
/// symbolic link, or a path under a root that is not resolved; it may lead elsewhere.
enum class PathForm { as_written, may_resolve };

/// Decides one path for the survey: `absolute`, and `relative` to the workspace (empty for a path
/// outside it). batch/ and app/ build it from the policy (policy/path_classes).
using PathClassifier =
    std::function<PathVerdict(const std::string& absolute, std::string_view relative, PathForm form)>;

/// What to survey.
struct SurveyRequest {
  std::filesystem::path workspace;                 // absolute, resolved
  std::vector<std::filesystem::path> extra_roots;  // also walked: folders outside the workspace (absolute)
  PathClassifier classify;
  const Survey* previous = nullptr;  // a file whose identity was hidden there is hidden again (renamed since)
  std::size_t max_entries = 200000;  // the walk stops here (complete = false)
};

/// Walks the workspace and the extra roots without following symbolic links and without reading a
/// .gitignore (secrets are usually ignored files), never entering a .git folder (read-only whole) nor
/// a hidden folder (masked whole), and classifies each entry. Every name of a hidden regular file is
/// hidden (hard links made before the survey), a file under a hidden folder included (the folder's
/// listing is read for files with other names), every other name of a read-only one read-only. Fails
/// only when the workspace cannot be read at all.
///
/// The walk reads folders and looks at no entry it need not: a plain entry costs its name in the
/// folder's listing (its type comes with it), and only a classified entry, a link or an entry of
/// unknown type is looked at. When a hidden or read-only file has more than one name, or a file
/// the previous survey hid is no longer its only name where it was, the workspace is walked once
/// more looking at every file, so that every other name is found as before.
Expected<Survey> survey_paths(const SurveyRequest& request);

}  // namespace agent_run
