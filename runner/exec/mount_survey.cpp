#include "exec/mount_survey.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <system_error>
#include <utility>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

/// Links are followed out of the workspace at most this deep into their target folders.
constexpr std::size_t k_max_entries_per_link_target = 10000;

/// One folder still to walk: where it is, its name relative to the workspace ("" outside it).
struct PendingFolder {
  fs::path absolute;
  std::string relative;
  bool inside_workspace = true;
};

FileIdentity identity_of(const struct stat& status) { return FileIdentity{status.st_dev, status.st_ino}; }

bool is_at_or_under(std::string_view path, std::string_view folder) {
  if (folder.empty() || folder == ".") return true;
  return path == folder || (path.size() > folder.size() && path.starts_with(folder) && path[folder.size()] == '/');
}

/// The walk of one survey: what it found so far and how far it got.
class SurveyWalk {
 public:
  explicit SurveyWalk(const SurveyRequest& request) : m_request(request) {}

  Expected<void> walk_workspace();
  void walk_outside(const fs::path& root, std::size_t budget);
  void walk_link_targets();
  void name_every_link();
  Survey take() { return std::move(m_survey); }

 private:
  void walk(std::vector<PendingFolder> pending, std::size_t budget);
  void visit(const PendingFolder& folder, const fs::directory_entry& entry, std::vector<PendingFolder>& pending);
  bool classify_renamed(const SurveyedPath& path, const struct stat& status);
  void follow_link(const SurveyedPath& path, PathVerdict verdict);
  bool out_of_budget();

  const SurveyRequest& m_request;
  Survey m_survey;
  std::size_t m_budget_end = 0;
  std::vector<fs::path> m_link_targets;                       // folders outside reached through links
  std::map<FileIdentity, std::vector<SurveyedPath>> m_links;  // plain files with more than one name
};

Expected<void> SurveyWalk::walk_workspace() {
  std::error_code ec;
  if (!fs::is_directory(m_request.workspace, ec)) {
    return make_error("cannot survey '" + m_request.workspace.string() + "': not a folder");
  }
  walk({PendingFolder{m_request.workspace, "", true}}, m_request.max_entries);
  return {};
}

void SurveyWalk::walk_outside(const fs::path& root, std::size_t budget) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return;
  walk({PendingFolder{root, "", false}}, budget);
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
    std::error_code ec;
    for (fs::directory_iterator it(folder.absolute, ec), end; !ec && it != end; it.increment(ec)) {
      if (out_of_budget()) return;
      visit(folder, *it, pending);
    }
  }
}

bool SurveyWalk::out_of_budget() {
  if (m_survey.walked < m_budget_end) return false;
  m_survey.complete = false;
  m_survey.incomplete_reason = "the survey stopped after " + std::to_string(m_survey.walked) + " entries";
  return true;
}

void SurveyWalk::visit(const PendingFolder& folder, const fs::directory_entry& entry,
                       std::vector<PendingFolder>& pending) {
  ++m_survey.walked;
  struct stat status {};
  if (::lstat(entry.path().c_str(), &status) != 0) return;  // gone since the folder was read
  const std::string name = entry.path().filename().string();
  SurveyedPath path;
  path.absolute = entry.path();
  path.relative = folder.inside_workspace ? (folder.relative.empty() ? name : folder.relative + "/" + name) : "";
  path.folder = S_ISDIR(status.st_mode);
  if (S_ISREG(status.st_mode)) path.identity = identity_of(status);
  const std::string shown = folder.inside_workspace ? path.relative : path.absolute.string();
  PathVerdict verdict = m_request.classify(path.absolute, path.relative);
  if (S_ISLNK(status.st_mode)) return follow_link(path, std::move(verdict));
  if (verdict.kind == PathClass::plain && S_ISREG(status.st_mode) && classify_renamed(path, status)) return;
  path.relative = shown;
  path.rule = verdict.rule;
  if (verdict.kind == PathClass::hidden) {
    if (S_ISREG(status.st_mode)) m_survey.hidden_files.insert(identity_of(status));
    m_survey.hidden.push_back(std::move(path));
    return;  // a hidden folder is masked whole: nothing in it needs a class of its own
  }
  if (verdict.kind == PathClass::read_only) {
    if (S_ISREG(status.st_mode)) m_survey.read_only_files.insert(identity_of(status));
    m_survey.read_only.push_back(path);
  } else if (S_ISREG(status.st_mode) && status.st_nlink > 1) {
    m_links[identity_of(status)].push_back(path);
  }
  if (S_ISDIR(status.st_mode) && name != ".git") {
    pending.push_back(PendingFolder{entry.path(), path.relative, folder.inside_workspace});
  }
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
  SurveyWalk walk(request);
  AR_TRY(walk.walk_workspace());
  walk.walk_link_targets();
  for (const fs::path& root : request.extra_roots) walk.walk_outside(root, request.max_entries);
  walk.name_every_link();
  return walk.take();
}

}  // namespace agent_run
