#include "search/file_walk.h"

#include "base/safe_open.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

/// One entry of a folder, as readdir gave it.
struct Entry {
  std::string name;
  unsigned char type = DT_UNKNOWN;
};

/// The .gitignore of one folder and whether the folder holds `.git`.
struct IgnoreFrame {
  IgnoreRules rules;
  bool has_git = false;
  std::string prepend;   // folders above the workspace: the workspace's path relative to this folder, plus '/'
  std::size_t skip = 0;  // folders in the workspace: how many bytes of a workspace-relative path name this folder
};

std::string read_small_file(int folder_fd, const char* name) {
  int fd = ::openat(folder_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return {};
  UniqueFd file(fd);
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size > 16 * 1024 * 1024) return {};
  std::string content(static_cast<std::size_t>(info.st_size), '\0');
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::read(fd, content.data() + done, content.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  content.resize(done);
  return content;
}

/// The entries of an open folder, sorted by name (bytes), without "." and "..". They are read with
/// getdents64 on the walk's own descriptor: opendir's way (a duplicate, fdopendir) cost an fstat, three
/// fcntl calls and a second close per folder, about half the walk's system calls.
std::vector<Entry> sorted_entries(int folder_fd) {
  std::vector<Entry> entries;
  alignas(dirent64) char buffer[32 * 1024];
  for (ssize_t got; (got = ::getdents64(folder_fd, buffer, sizeof buffer)) > 0;) {
    for (ssize_t at = 0; at < got;) {
      const auto* entry = reinterpret_cast<const dirent64*>(buffer + at);
      at += entry->d_reclen;
      std::string_view name = entry->d_name;
      if (name == "." || name == "..") continue;
      entries.push_back(Entry{std::string(name), entry->d_type});
    }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  return entries;
}

unsigned char entry_type(int folder_fd, const Entry& entry) {
  if (entry.type != DT_UNKNOWN) return entry.type;
  struct stat info {};
  if (::fstatat(folder_fd, entry.name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) return DT_UNKNOWN;
  if (S_ISDIR(info.st_mode)) return DT_DIR;
  if (S_ISREG(info.st_mode)) return DT_REG;
  return DT_LNK;  // anything else is skipped like a symlink
}

/// The depth-first walk, holding the chain of .gitignore frames from the folder being listed up to `/`.
class Walker {
 public:
  Walker(const IgnoreRules& overrides, const std::function<WalkStep(const WalkedFile&)>& visit,
         const HiddenPaths* hidden, Withheld* withheld)
      : m_overrides(overrides), m_visit(visit), m_hidden(hidden), m_withheld(withheld) {}

  /// Adds the frames of the folders above `start`: inside the workspace, then above it up to `/`.
  void add_parents(const fs::path& root, std::string_view start) {
    std::string folder(start == "." ? "" : start);
    while (!folder.empty()) {
      std::size_t slash = folder.rfind('/');
      folder = slash == std::string::npos ? "" : folder.substr(0, slash);
      add_parent(root / folder, "", folder.empty() ? 0 : folder.size() + 1);
    }
    std::string prepend = root.filename().string() + "/";
    for (fs::path above = root.parent_path();; above = above.parent_path()) {
      add_parent(above, prepend, 0);
      if (above == above.parent_path()) break;
      prepend = above.filename().string() + "/" + prepend;
    }
  }

  /// Lists the folder open as `folder_fd`, whose workspace-relative path is m_path.
  void walk_folder(int folder_fd) {
    std::vector<Entry> entries = sorted_entries(folder_fd);
    IgnoreFrame frame;
    frame.skip = m_path.empty() ? 0 : m_path.size() + 1;
    for (const Entry& entry : entries) {
      if (entry.name == ".git") frame.has_git = true;
      if (entry.name == ".gitignore")
        frame.rules = IgnoreRules::from_gitignore(read_small_file(folder_fd, ".gitignore"));
    }
    m_frames.push_back(std::move(frame));
    const std::size_t base = m_path.size();
    for (const Entry& entry : entries) {
      if (m_stopped) break;
      m_path.resize(base);
      if (base > 0) m_path += '/';
      m_path += entry.name;
      visit_entry(folder_fd, entry);
    }
    m_path.resize(base);
    m_frames.pop_back();
  }

  bool stopped() const { return m_stopped; }
  std::string& path() { return m_path; }

 private:
  void add_parent(const fs::path& folder, const std::string& prepend, std::size_t skip) {
    IgnoreFrame frame;
    frame.prepend = prepend;
    frame.skip = skip;
    std::error_code ec;
    frame.has_git = fs::exists(folder / ".git", ec);
    int fd = ::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
      UniqueFd held(fd);
      frame.rules = IgnoreRules::from_gitignore(read_small_file(fd, ".gitignore"));
    }
    m_parents.push_back(std::move(frame));
  }

  void visit_entry(int folder_fd, const Entry& entry) {
    unsigned char type = entry_type(folder_fd, entry);
    if (type == DT_DIR) {
      if (ignored(EntryKind::folder) || withhold(folder_fd, entry)) return;
      int fd = ::openat(folder_fd, entry.name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0) return;
      UniqueFd child(fd);
      walk_folder(fd);
    } else if (type == DT_REG) {
      if (ignored(EntryKind::file) || withhold(folder_fd, entry)) return;
      if (m_visit(WalkedFile{m_path, folder_fd, entry.name.c_str()}) == WalkStep::stop) m_stopped = true;
    }
  }

  /// True when the policy hides the entry at m_path: it is counted and left out.
  bool withhold(int folder_fd, const Entry& entry) {
    if (m_hidden == nullptr || !*m_hidden) return false;
    std::string rule = m_hidden->rule_of(m_path, folder_fd, entry.name.c_str());
    if (rule.empty()) return false;
    if (m_withheld) m_withheld->add(rule);
    return true;
  }

  /// ripgrep's order: overrides first; then, inside a git repository, the nearest matching .gitignore.
  bool ignored(EntryKind kind) const {
    IgnoreMatch by_override = m_overrides.match(m_path, kind);
    if (by_override != IgnoreMatch::none) return by_override == IgnoreMatch::ignore;
    const bool any_git =
        std::any_of(m_frames.begin(), m_frames.end(), [](const IgnoreFrame& f) { return f.has_git; }) ||
        std::any_of(m_parents.begin(), m_parents.end(), [](const IgnoreFrame& f) { return f.has_git; });
    if (!any_git) return false;
    for (auto frame = m_frames.rbegin(); frame != m_frames.rend(); ++frame) {
      IgnoreMatch found = frame->rules.match(std::string_view(m_path).substr(frame->skip), kind);
      if (found != IgnoreMatch::none) return found == IgnoreMatch::ignore;
      if (frame->has_git) return false;
    }
    for (const IgnoreFrame& frame : m_parents) {
      if (!frame.rules.empty()) {
        std::string relative = frame.prepend + m_path.substr(frame.skip);
        IgnoreMatch found = frame.rules.match(relative, kind);
        if (found != IgnoreMatch::none) return found == IgnoreMatch::ignore;
      }
      if (frame.has_git) return false;
    }
    return false;
  }

  const IgnoreRules& m_overrides;
  const std::function<WalkStep(const WalkedFile&)>& m_visit;
  const HiddenPaths* m_hidden;
  Withheld* m_withheld;
  std::vector<IgnoreFrame> m_parents;  // nearest first
  std::vector<IgnoreFrame> m_frames;   // the search root first, the folder being listed last
  std::string m_path;
  bool m_stopped = false;
};

}  // namespace

Expected<IgnoreRules> search_overrides(const std::vector<std::string>& globs) {
  std::vector<std::string> all = globs;
  all.push_back("!.git");
  return IgnoreRules::from_overrides(all);
}

Expected<void> walk_files(const fs::path& workspace, std::string_view start, const IgnoreRules& overrides,
                          const std::function<WalkStep(const WalkedFile&)>& visit, const HiddenPaths* hidden,
                          Withheld* withheld) {
  auto root = open_workspace(workspace);
  if (!root) return root.error();
  const std::string relative(start == "." ? "" : start);
  auto handle = open_beneath(root->get(), relative, O_PATH);
  if (!handle) return handle.error();
  struct stat info {};
  if (::fstat(handle->get(), &info) != 0) return make_error("cannot read '" + std::string(start) + "'");
  if (S_ISREG(info.st_mode)) {
    std::size_t slash = relative.rfind('/');
    auto folder =
        open_beneath(root->get(), slash == std::string::npos ? "" : relative.substr(0, slash), O_PATH | O_DIRECTORY);
    if (!folder) return folder.error();
    std::string name = slash == std::string::npos ? relative : relative.substr(slash + 1);
    if (hidden && *hidden) {
      if (std::string rule = hidden->rule_of(relative, folder->get(), name.c_str()); !rule.empty()) {
        if (withheld) withheld->add(rule);
        return {};
      }
    }
    visit(WalkedFile{relative, folder->get(), name.c_str()});
    return {};
  }
  if (!S_ISDIR(info.st_mode)) return make_error("'" + std::string(start) + "' is not a file or a folder");
  auto folder = open_beneath(root->get(), relative, O_RDONLY | O_DIRECTORY);
  if (!folder) return folder.error();
  Walker walker(overrides, visit, hidden, withheld);
  walker.add_parents(fs::weakly_canonical(workspace), start);
  walker.path() = relative;
  walker.walk_folder(folder->get());
  return {};
}

}  // namespace agent_run
