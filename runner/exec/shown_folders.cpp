#include "exec/shown_folders.h"

#include "base/paths.h"
#include "exec/child_environment.h"
#include "exec/spawn.h"

#include <algorithm>
#include <set>
#include <system_error>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

/// At most this many entries of one PATH folder are looked at for links that lead out of it.
constexpr std::size_t k_max_entries_per_folder = 20000;

/// Too wide to show whole: /, a top-level folder (/home, /root, /work, ...), HOME or a folder above it.
bool too_wide(const fs::path& folder, const std::optional<fs::path>& home) {
  if (!folder.has_relative_path() || folder.parent_path() == folder.root_path()) return true;
  return home && is_at_or_under(*home, folder);
}

/// The folder holding the outermost node_modules of `folder`, or nullopt.
std::optional<fs::path> node_project_of(const fs::path& folder) {
  fs::path prefix;
  for (const fs::path& part : folder) {
    if (part == "node_modules") return prefix;
    prefix /= part;
  }
  return std::nullopt;
}

fs::path resolved_or_empty(const fs::path& path) {
  std::error_code ec;
  fs::path resolved = fs::canonical(path, ec);
  return ec ? fs::path() : resolved;
}

void add_program(std::vector<ShownFolder>& folders, const fs::path& path, const std::optional<fs::path>& home,
                 const std::string& why) {
  for (ShownFolder& folder : folders_for_program(path, home, why)) folders.push_back(std::move(folder));
}

/// The folders that the links in the PATH folder `folder` (links resolved) lead to, when those lie
/// outside it and outside the system's tree (/usr/local/bin/gopls -> ~/go/bin/gopls).
void add_link_targets(std::vector<ShownFolder>& folders, const fs::path& folder, const std::optional<fs::path>& home) {
  std::error_code ec;
  std::size_t seen = 0;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end && seen < k_max_entries_per_folder;
       it.increment(ec), ++seen) {
    std::error_code type_ec;
    if (!it->is_symlink(type_ec)) continue;
    fs::path target = resolved_or_empty(it->path());
    if (target.empty() || is_at_or_under(target, folder) || in_system_folders(target)) continue;
    add_program(folders, target, home, "PATH (" + it->path().string() + ")");
  }
}

}  // namespace

const std::vector<fs::path>& system_folders() {
  static const std::vector<fs::path> k_folders = {"/usr",   "/etc",  "/opt",   "/sys",   "/bin",
                                                  "/sbin",  "/lib",  "/lib32", "/lib64", "/libx32"};
  return k_folders;
}

bool in_system_folders(const fs::path& path) {
  return std::any_of(system_folders().begin(), system_folders().end(),
                     [&](const fs::path& folder) { return is_at_or_under(path, folder); });
}

std::vector<fs::path> install_folders(const fs::path& path, const std::optional<fs::path>& home) {
  if (!path.is_absolute() || in_system_folders(path)) return {};
  std::error_code ec;
  const bool file = fs::exists(path, ec) && !fs::is_directory(path, ec);
  const fs::path folder = file ? path.parent_path() : path;
  std::vector<fs::path> candidates;  // widest first
  if (std::optional<fs::path> project = node_project_of(folder)) {
    candidates = {*project, *project / "node_modules"};
  } else if (folder.filename() == "bin" || folder.filename() == "sbin") {
    fs::path prefix = folder.parent_path();
    if (home && prefix == *home / ".local") return {prefix / "bin", prefix / "lib"};
    candidates = {prefix};
  }
  candidates.push_back(folder);
  for (const fs::path& candidate : candidates) {
    if (!too_wide(candidate, home)) return {candidate};
  }
  if (file) return {path};  // a program straight in HOME or in a top-level folder: itself alone
  return {};
}

std::vector<ShownFolder> folders_for_program(const fs::path& path, const std::optional<fs::path>& home,
                                             const std::string& why) {
  std::vector<ShownFolder> folders;
  const fs::path written = path.lexically_normal();
  const fs::path resolved = resolved_or_empty(written);
  if (resolved.empty()) return folders;
  for (const fs::path& folder : install_folders(resolved, home)) folders.push_back({folder, folder, false, why});
  if (resolved == written || in_system_folders(written)) return folders;
  // Reached through a link (a linked .tools): the same files at the name the program is called by.
  for (const fs::path& folder : install_folders(written, home)) {
    fs::path source = resolved_or_empty(folder);
    if (!source.empty() && source != folder && !in_system_folders(folder)) folders.push_back({source, folder, false, why});
  }
  return folders;
}

std::vector<ShownFolder> program_folders(const std::vector<std::string>& environment,
                                         const std::optional<fs::path>& home) {
  std::vector<ShownFolder> folders;
  std::set<fs::path> scanned;
  const std::string path = environment_value(environment, "PATH").value_or("");
  for (std::size_t start = 0; start <= path.size();) {
    std::size_t end = std::min(path.find(':', start), path.size());
    fs::path folder = fs::path(path.substr(start, end - start)).lexically_normal();
    start = end + 1;
    std::error_code ec;
    if (!folder.is_absolute() || !fs::is_directory(folder, ec)) continue;
    add_program(folders, folder, home, "PATH");
    // The distribution's own folders (/usr/bin, /usr/sbin: their links are dpkg's and lead into
    // /usr or /etc) are not read, nor a folder twice (/bin is /usr/bin): every sandbox start pays this.
    fs::path resolved = resolved_or_empty(folder);
    if (resolved.empty() || resolved.parent_path() == "/usr" || !scanned.insert(resolved).second) continue;
    add_link_targets(folders, resolved, home);
  }
  for (const auto& [name, folder] : tool_root_folders(environment)) {
    std::error_code ec;
    if (fs::is_directory(folder, ec)) add_program(folders, folder, home, name);
  }
  return without_repeats(std::move(folders));
}

std::vector<ShownFolder> without_repeats(std::vector<ShownFolder> folders) {
  // Outer folders first, so that one shown inside another (the same way, at the same place) is known.
  std::stable_sort(folders.begin(), folders.end(), [](const ShownFolder& a, const ShownFolder& b) {
    return a.target.native().size() < b.target.native().size();
  });
  std::vector<ShownFolder> kept;
  for (ShownFolder& folder : folders) {
    bool held = std::any_of(kept.begin(), kept.end(), [&](const ShownFolder& outer) {
      if (!is_at_or_under(folder.target, outer.target) || outer.writable != folder.writable) return false;
      if (folder.target == outer.target) return folder.source == outer.source;
      return folder.source == outer.source / folder.target.lexically_relative(outer.target);
    });
    if (!held) kept.push_back(std::move(folder));
  }
  return kept;
}

}  // namespace agent_run
