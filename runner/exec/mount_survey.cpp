#include "exec/mount_survey.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <unordered_set>
#include <system_error>
#include <utility>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

/// Links are followed out of the workspace at most this deep into their target folders.
constexpr std::size_t k_max_entries_per_link_target = 10000;

/// One folder still to walk: where it is, its name relative to the workspace ("" outside it), and
/// whether the path to it is resolved (no symbolic link in it), so that what it holds reads as written.
struct PendingFolder {
  std::string absolute;
  std::string relative;
  bool inside_workspace = true;
  bool resolved = true;
};

FileIdentity identity_of(const struct stat& status) { return FileIdentity{status.st_dev, status.st_ino}; }

bool is_at_or_under(std::string_view path, std::string_view folder) {
  if (folder.empty() || folder == ".") return true;
  return path == folder || (path.size() > folder.size() && path.starts_with(folder) && path[folder.size()] == '/');
}

/// True when `folder` is a resolved path: absolute, normal and without a symbolic link in it.
bool is_resolved(const fs::path& folder) {
  std::error_code ec;
  const fs::path canonical = fs::canonical(folder, ec);
  return !ec && canonical == folder.lexically_normal() && folder == folder.lexically_normal();
}

/// The file type a folder's listing gives (st_mode's type bits), or 0 when it does not say.
mode_t listed_type(unsigned char type) {
  switch (type) {
    case DT_DIR: return S_IFDIR;
    case DT_REG: return S_IFREG;
    case DT_LNK: return S_IFLNK;
    case DT_FIFO: return S_IFIFO;
    case DT_SOCK: return S_IFSOCK;
    case DT_CHR: return S_IFCHR;
    case DT_BLK: return S_IFBLK;
    default: return 0;
  }
}

/// How closely a walk looks at the entries it lists.
enum class Looking {
  at_classified,  // only at hidden and read-only entries, links and entries of unknown type
  at_every_file,  // at every entry: every regular file's identity and number of names is known
};

/// The walk of one survey: what it found so far and how far it got.
class SurveyWalk {
 public:
  SurveyWalk(const SurveyRequest& request, Looking looking);

  Expected<void> walk_workspace();
  void walk_outside(const fs::path& root, std::size_t budget);
  void walk_link_targets();
  void name_every_link();
  /// After a walk at_classified: whether a file it classified may have names it did not look at.
  bool missed_other_names() const;
  Survey take() { return std::move(m_survey); }

 private:
  void walk(std::vector<PendingFolder> pending, std::size_t budget);
  void visit(const PendingFolder& folder, const char* name, unsigned char type, std::vector<PendingFolder>& pending);
  void keep(SurveyedPath path, const PathVerdict& verdict, const struct stat& status);
  bool classify_renamed(const SurveyedPath& path, const struct stat& status);
  void follow_link(const SurveyedPath& path, PathVerdict verdict);
  void note_names(const struct stat& status);
  void note_files_under(const std::string& folder, const std::string& relative, const std::string& rule);
  bool out_of_budget();

  const SurveyRequest& m_request;
  const Looking m_looking;
  Survey m_survey;
  std::size_t m_budget_end = 0;
  bool m_many_names = false;                                  // a classified file has another name
  std::unordered_set<std::string> m_previously_hidden;        // the previous survey's names of hidden files
  std::vector<fs::path> m_link_targets;                       // folders outside reached through links
  std::map<FileIdentity, std::vector<SurveyedPath>> m_links;  // plain files with more than one name
  std::map<FileIdentity, std::string> m_under_hidden_folders;  // files with other names there: "name (rule)"
};

SurveyWalk::SurveyWalk(const SurveyRequest& request, Looking looking) : m_request(request), m_looking(looking) {
  if (m_request.previous == nullptr) return;
  for (const SurveyedPath& path : m_request.previous->hidden) {
    if (!path.folder) m_previously_hidden.insert(path.absolute.native());
  }
}

Expected<void> SurveyWalk::walk_workspace() {
  std::error_code ec;
  if (!fs::is_directory(m_request.workspace, ec)) {
    return make_error("cannot survey '" + m_request.workspace.string() + "': not a folder");
  }
  walk({PendingFolder{m_request.workspace.string(), "", true, is_resolved(m_request.workspace)}}, m_request.max_entries);
  return {};
}

void SurveyWalk::walk_outside(const fs::path& root, std::size_t budget) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return;
  walk({PendingFolder{root.string(), "", false, is_resolved(root)}}, budget);
}

/// Folders outside the workspace that links in it lead to, each walked up to a budget of its own.
void SurveyWalk::walk_link_targets() {
  std::vector<fs::path> targets = std::move(m_link_targets);
  for (const fs::path& target : targets) {
    if (!m_survey.complete) return;
    walk_outside(target, k_max_entries_per_link_target);
    if (!m_survey.complete) m_survey.incomplete_reason += " under " + target.string() + ", reached through a link";
  }
}

void SurveyWalk::walk(std::vector<PendingFolder> pending, std::size_t budget) {
  m_budget_end = m_survey.walked + budget;
  while (!pending.empty() && m_survey.complete) {
    PendingFolder folder = std::move(pending.back());
    pending.pop_back();
    DIR* listing = ::opendir(folder.absolute.c_str());
    if (listing == nullptr) continue;
    while (const struct dirent* entry = ::readdir(listing)) {
      if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) continue;
      if (out_of_budget()) break;
      visit(folder, entry->d_name, entry->d_type, pending);
    }
    ::closedir(listing);
  }
}

bool SurveyWalk::out_of_budget() {
  if (m_survey.walked < m_budget_end) return false;
  m_survey.complete = false;
  m_survey.incomplete_reason = "the survey stopped after " + std::to_string(m_survey.walked) + " entries";
  return true;
}

void SurveyWalk::visit(const PendingFolder& folder, const char* name, unsigned char type,
                       std::vector<PendingFolder>& pending) {
  ++m_survey.walked;
  struct stat status {};
  status.st_mode = m_looking == Looking::at_every_file ? 0 : listed_type(type);
  bool looked = false;
  const std::string absolute = folder.absolute + (folder.absolute.ends_with('/') ? "" : "/") + name;
  if (status.st_mode == 0) {
    if (::lstat(absolute.c_str(), &status) != 0) return;  // gone since the folder was read
    looked = true;
  }
  SurveyedPath path;
  path.relative = folder.inside_workspace ? (folder.relative.empty() ? name : folder.relative + "/" + name) : "";
  const PathForm form = S_ISLNK(status.st_mode) || !folder.resolved ? PathForm::may_resolve : PathForm::as_written;
  PathVerdict verdict = m_request.classify(absolute, path.relative, form);
  const bool recheck = S_ISREG(status.st_mode) && m_previously_hidden.count(absolute) > 0;
  const bool plain = verdict.kind == PathClass::plain && !S_ISLNK(status.st_mode) && !recheck;
  const bool named_twice_or_moved = S_ISREG(status.st_mode) && (status.st_nlink > 1 || m_request.previous);
  if (plain && !(looked && named_twice_or_moved)) {  // nothing to keep, nothing more to look at
    if (S_ISDIR(status.st_mode) && std::strcmp(name, ".git") != 0) {
      pending.push_back(PendingFolder{absolute, path.relative, folder.inside_workspace, folder.resolved});
    }
    return;
  }
  path.absolute = absolute;
  if (S_ISLNK(status.st_mode)) return follow_link(path, std::move(verdict));
  if (!looked) {
    if (::lstat(absolute.c_str(), &status) != 0) return;  // gone since the folder was read
    if (S_ISLNK(status.st_mode)) {
      return follow_link(path, m_request.classify(absolute, path.relative, PathForm::may_resolve));
    }
  }
  path.folder = S_ISDIR(status.st_mode);
  if (S_ISREG(status.st_mode)) path.identity = identity_of(status);
  if (verdict.kind == PathClass::plain && S_ISREG(status.st_mode) && classify_renamed(path, status)) return;
  if (!folder.inside_workspace) path.relative = absolute;
  if (S_ISDIR(status.st_mode) && verdict.kind != PathClass::hidden && std::strcmp(name, ".git") != 0) {
    pending.push_back(PendingFolder{absolute, path.relative, folder.inside_workspace, folder.resolved});
  }
  if (S_ISDIR(status.st_mode) && verdict.kind == PathClass::hidden) {
    note_files_under(absolute, path.relative, verdict.rule);
  }
  keep(std::move(path), verdict, status);
}

/// Records one classified entry (a hidden folder is masked whole: nothing in it needs a class of
/// its own) and, looking at every file, a plain one with other names.
void SurveyWalk::keep(SurveyedPath path, const PathVerdict& verdict, const struct stat& status) {
  path.rule = verdict.rule;
  if (verdict.kind == PathClass::hidden) {
    if (S_ISREG(status.st_mode)) m_survey.hidden_files.insert(identity_of(status));
    note_names(status);
    m_survey.hidden.push_back(std::move(path));
  } else if (verdict.kind == PathClass::read_only) {
    if (S_ISREG(status.st_mode)) m_survey.read_only_files.insert(identity_of(status));
    note_names(status);
    m_survey.read_only.push_back(std::move(path));
  } else if (S_ISREG(status.st_mode) && status.st_nlink > 1) {
    m_links[identity_of(status)].push_back(std::move(path));
  }
}

void SurveyWalk::note_names(const struct stat& status) {
  if (S_ISREG(status.st_mode) && status.st_nlink > 1) m_many_names = true;
}

/// A hidden folder is masked whole and needs no classes inside, but a regular file in it with other
/// names (a hard link made before the run, `notes/aws.txt` to `.aws/credentials`) is hidden where
/// those names are: its identity is noted, without following a link or classifying anything.
void SurveyWalk::note_files_under(const std::string& folder, const std::string& relative, const std::string& rule) {
  std::vector<std::pair<std::string, std::string>> pending = {{folder, relative}};
  while (!pending.empty() && !out_of_budget()) {
    auto [absolute, name] = std::move(pending.back());
    pending.pop_back();
    DIR* listing = ::opendir(absolute.c_str());
    if (listing == nullptr) continue;
    while (const struct dirent* entry = ::readdir(listing)) {
      if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) continue;
      if (out_of_budget()) break;
      ++m_survey.walked;
      const mode_t type = listed_type(entry->d_type);
      if (type != 0 && type != S_IFREG && type != S_IFDIR) continue;  // links, FIFOs, devices: no content of theirs
      std::string child = absolute + "/" + entry->d_name;
      std::string child_name = name + "/" + entry->d_name;
      struct stat status {};
      if (type != S_IFDIR && ::lstat(child.c_str(), &status) != 0) continue;
      if (type == S_IFDIR || S_ISDIR(status.st_mode)) {
        pending.emplace_back(std::move(child), std::move(child_name));
      } else if (S_ISREG(status.st_mode) && status.st_nlink > 1) {
        m_survey.hidden_files.insert(identity_of(status));
        m_under_hidden_folders.emplace(identity_of(status), child_name + " (" + rule + ")");
        m_many_names = true;
      }
    }
    ::closedir(listing);
  }
}

/// True when a hidden or read-only file has another name, or a file the previous survey hid is no
/// longer the one name it had there (moved, linked or gone): names only a look at every file finds.
bool SurveyWalk::missed_other_names() const {
  if (m_many_names) return true;
  if (m_request.previous == nullptr) return false;
  for (const FileIdentity& identity : m_request.previous->hidden_files) {
    bool sole_name = false;
    for (const SurveyedPath& path : m_request.previous->hidden) {
      if (path.folder || path.identity != identity) continue;
      struct stat status {};
      sole_name = ::lstat(path.absolute.c_str(), &status) == 0 && S_ISREG(status.st_mode) &&
                  identity_of(status) == identity && status.st_nlink == 1;
      if (sole_name) break;
    }
    if (!sole_name) return true;
  }
  return false;
}

/// A plain file whose identity the previous survey hid (the agent renamed or moved it): hidden again.
bool SurveyWalk::classify_renamed(const SurveyedPath& path, const struct stat& status) {
  if (m_request.previous == nullptr) return false;
  const SurveyedPath* before = m_request.previous->hidden_file(identity_of(status));
  if (before == nullptr) return false;
  SurveyedPath renamed = path;
  if (renamed.relative.empty()) renamed.relative = renamed.absolute.string();
  renamed.rule = "moved from " + before->relative + " (" + before->rule + ")";
  m_survey.hidden_files.insert(identity_of(status));
  m_survey.hidden.push_back(std::move(renamed));
  return true;
}

/// A symbolic link: when it is hidden, what it leads to is (content is what a mask protects; a
/// dangling link has none); when it leads to a folder outside the workspace, that folder is walked
/// too, since a command reads through the link.
void SurveyWalk::follow_link(const SurveyedPath& path, PathVerdict verdict) {
  std::error_code ec;
  fs::path target = fs::canonical(path.absolute, ec);
  if (ec) return;
  if (verdict.kind == PathClass::hidden) {
    struct stat status {};
    if (::stat(target.c_str(), &status) != 0) return;
    SurveyedPath masked = path;
    masked.absolute = target;
    masked.folder = S_ISDIR(status.st_mode);
    if (S_ISREG(status.st_mode)) masked.identity = identity_of(status);
    masked.rule = verdict.rule;
    if (masked.relative.empty()) masked.relative = path.absolute.string();
    if (S_ISREG(status.st_mode)) m_survey.hidden_files.insert(identity_of(status));
    note_names(status);
    m_survey.hidden.push_back(std::move(masked));
    return;
  }
  fs::path workspace = m_request.workspace;
  bool outside = !is_at_or_under(target.string(), workspace.string());
  if (outside && fs::is_directory(target, ec)) m_link_targets.push_back(target);
}

/// Every other name of a hidden (or read-only) file gets its class: hard links made before the survey.
void SurveyWalk::name_every_link() {
  for (auto& [identity, names] : m_links) {
    bool hidden = m_survey.hidden_files.count(identity) > 0;
    bool read_only = !hidden && m_survey.read_only_files.count(identity) > 0;
    if (!hidden && !read_only) continue;
    const std::vector<SurveyedPath>& classified = hidden ? m_survey.hidden : m_survey.read_only;
    std::string first;
    for (const SurveyedPath& path : classified) {
      if (!path.folder && path.identity == identity) {
        first = "another name of " + path.relative + " (" + path.rule + ")";
        break;
      }
    }
    if (auto inside = m_under_hidden_folders.find(identity); first.empty() && inside != m_under_hidden_folders.end()) {
      first = "another name of " + inside->second;
    }
    for (SurveyedPath& name : names) {
      name.rule = first.empty() ? "another name of a file the policy protects" : first;
      if (name.relative.empty()) name.relative = name.absolute.string();
      (hidden ? m_survey.hidden : m_survey.read_only).push_back(std::move(name));
    }
  }
  m_links.clear();
}

}  // namespace

const char* to_string(PathClass kind) {
  switch (kind) {
    case PathClass::plain: return "plain";
    case PathClass::hidden: return "hidden";
    case PathClass::read_only: return "read_only";
  }
  return "plain";
}

const SurveyedPath* Survey::hidden_at_or_above(std::string_view relative) const {
  for (const SurveyedPath& path : hidden) {
    if (path.relative == relative || (path.folder && is_at_or_under(relative, path.relative))) return &path;
  }
  return nullptr;
}

bool Survey::hides_under(std::string_view relative) const {
  for (const SurveyedPath& path : hidden) {
    if (is_at_or_under(path.relative, relative) || (path.folder && is_at_or_under(relative, path.relative))) {
      return true;
    }
  }
  return false;
}

const SurveyedPath* Survey::hidden_file(FileIdentity identity) const {
  if (hidden_files.count(identity) == 0) return nullptr;
  for (const SurveyedPath& path : hidden) {
    if (!path.folder && path.identity == identity) return &path;
  }
  return nullptr;
}

Expected<Survey> survey_paths(const SurveyRequest& request) {
  auto walk_all = [&request](SurveyWalk& walk) -> Expected<void> {
    AR_TRY(walk.walk_workspace());
    walk.walk_link_targets();
    for (const fs::path& root : request.extra_roots) walk.walk_outside(root, request.max_entries);
    return {};
  };
  SurveyWalk quick(request, Looking::at_classified);
  AR_TRY(walk_all(quick));
  if (!quick.missed_other_names()) return quick.take();
  SurveyWalk thorough(request, Looking::at_every_file);
  AR_TRY(walk_all(thorough));
  thorough.name_every_link();
  return thorough.take();
}

}  // namespace agent_run
