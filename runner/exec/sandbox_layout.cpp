#include "exec/sandbox_layout.h"

#include "base/files.h"
#include "base/paths.h"
#include "base/text.h"
#include "exec/child_environment.h"

#include <sys/stat.h>

#include <algorithm>
#include <system_error>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

/// The machine's folders every sandbox replaces with private ones.
const std::vector<fs::path>& private_folders() {
  static const std::vector<fs::path> k_folders = {"/tmp", "/var/tmp", "/run", "/proc", "/dev"};
  return k_folders;
}

}  // namespace

std::optional<fs::path> private_folder_holding(const fs::path& path) {
  std::error_code ec;
  const fs::path resolved = fs::weakly_canonical(path, ec);
  for (const fs::path& candidate : {path.lexically_normal(), ec ? path.lexically_normal() : resolved}) {
    for (const fs::path& folder : private_folders()) {
      if (is_at_or_under(candidate, folder)) return folder;
    }
  }
  return std::nullopt;
}

bool shown_inside(const fs::path& path, const SandboxLayout& layout) {
  if (is_at_or_under(path, layout.workspace)) return true;
  for (const fs::path& folder : layout.emptied) {
    if (is_at_or_under(path, folder)) return false;
  }
  for (const ShownFolder& folder : layout.shown) {
    if (is_at_or_under(path, folder.target)) return true;
  }
  for (const auto& [source, target] : layout.read_only_binds) {
    if (is_at_or_under(path, target)) return true;
  }
  for (const fs::path& folder : private_folders()) {
    if (is_at_or_under(path, folder)) return false;
  }
  return layout.spec.write == SandboxWrite::anywhere || in_system_folders(path);
}

namespace {

/// Whether a command inside may write at `path` (shown): in the workspace, a writable shown folder,
/// or anywhere with `write: anywhere`.
bool writable_inside(const fs::path& path, const SandboxLayout& layout) {
  if (layout.spec.write == SandboxWrite::anywhere) return true;
  if (is_at_or_under(path, layout.workspace)) return layout.spec.write != SandboxWrite::none;
  return std::any_of(layout.shown.begin(), layout.shown.end(), [&](const ShownFolder& folder) {
    return folder.writable && is_at_or_under(path, folder.target);
  });
}

bool exists_unfollowed(const fs::path& path) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(path, ec));
}

/// The request's shown folders that exist, outside the workspace (which is shown whole), outside the
/// system's tree unless writable (it is shown read-only already), without repeats. With `write:
/// anywhere` the machine's tree is there whole: only those in a private folder are bound back.
void add_shown(const SandboxRequest& request, SandboxLayout& layout) {
  const bool whole_machine = request.spec.write == SandboxWrite::anywhere;
  std::vector<ShownFolder> shown;
  for (const ShownFolder& folder : request.shown) {
    std::error_code ec;
    if (!fs::exists(folder.source, ec) || is_at_or_under(folder.target, request.workspace)) continue;
    if (whole_machine ? !private_folder_holding(folder.target) : !folder.writable && in_system_folders(folder.target))
      continue;
    shown.push_back(folder);
  }
  layout.shown = without_repeats(std::move(shown));
}

void add_unique(std::vector<fs::path>& paths, const fs::path& path) {
  if (std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(path);
}

/// The source checkout and the other hidden roots are emptied, unless they hold the workspace or lie
/// in a folder that is private anyway.
void add_emptied(const SandboxRequest& request, SandboxLayout& layout) {
  std::vector<fs::path> candidates = request.hidden_roots;
  if (request.source_checkout) candidates.push_back(*request.source_checkout);
  for (const fs::path& root : candidates) {
    std::error_code ec;
    if (!fs::is_directory(root, ec) || root == "/" || is_at_or_under(request.workspace, root)) continue;
    if (!shown_inside(root, layout)) continue;
    add_unique(layout.emptied, root);
  }
}

/// A worktree's main repository, read-only (it may lie inside an emptied source checkout); the
/// sanitized copy of the git config over the real one.
Expected<void> add_git_folders(const SandboxRequest& request, SandboxLayout& layout) {
  if (request.git_common_folder && fs::is_directory(*request.git_common_folder)) {
    layout.read_only_binds.emplace_back(*request.git_common_folder, *request.git_common_folder);
  }
  if (!request.git_config || !fs::is_regular_file(*request.git_config)) return {};
  auto config = read_file(*request.git_config);
  if (!config) return config.error();
  fs::path sanitized = request.attempt_folder / "git-config";
  AR_TRY(write_file_atomically(sanitized, sanitized_git_config(*config)));
  layout.read_only_binds.emplace_back(sanitized, *request.git_config);
  return {};
}

/// The caller's views, bound after the git folders (which may hold the files they cover).
void add_file_views(const SandboxRequest& request, SandboxLayout& layout) {
  if (!request.file_views) return;
  for (auto& [made, over] : request.file_views(request.attempt_folder)) {
    if (exists_unfollowed(over) && shown_inside(over, layout)) layout.read_only_binds.emplace_back(made, over);
  }
}

void add_read_only(const SandboxRequest& request, SandboxLayout& layout) {
  fs::path dot_git = request.workspace / ".git";
  if (exists_unfollowed(dot_git)) add_unique(layout.read_only, dot_git);
  for (const fs::path& path : request.protected_paths) {
    std::error_code ec;
    fs::path resolved = fs::weakly_canonical(path, ec);
    if (ec || !exists_unfollowed(resolved) || !shown_inside(resolved, layout)) continue;
    if (writable_inside(resolved, layout)) add_unique(layout.read_only, resolved);
  }
  if (!request.survey) return;
  for (const SurveyedPath& path : request.survey->read_only) {
    if (exists_unfollowed(path.absolute) && shown_inside(path.absolute, layout)) {
      add_unique(layout.read_only, path.absolute);
    }
  }
}

/// The credential paths of a home (home_credential_paths) that lie in `folder`, taking each folder at
/// or above it as the home: a shown tool folder under another user's home (/root/.cargo while
/// agent-run's HOME is elsewhere) holds that home's `.cargo/credentials.toml`.
std::vector<fs::path> credential_paths_in(const fs::path& folder) {
  std::vector<fs::path> paths;
  for (fs::path home = folder;; home = home.parent_path()) {
    for (const std::string& relative : home_credential_paths()) {
      fs::path candidate = home / relative;
      if (is_at_or_under(candidate, folder)) paths.push_back(std::move(candidate));
    }
    if (home == home.root_path() || !home.has_relative_path()) break;
  }
  return paths;
}

/// The other names of each mask inside: a shown folder bound at a link's name as well as at its own
/// shows at that name what a mask covers at the other, unless it is masked there too.
void add_other_names(std::vector<PlannedMask>& planned, const SandboxLayout& layout) {
  const std::size_t found = planned.size();
  for (std::size_t i = 0; i < found; ++i) {
    for (const ShownFolder& folder : layout.shown) {
      if (folder.source == folder.target || !is_at_or_under(planned[i].path, folder.source)) continue;
      const fs::path inside = planned[i].path.lexically_relative(folder.source);
      PlannedMask other = planned[i];
      other.path = inside == "." ? folder.target : folder.target / inside;
      auto is_other = [&](const fs::path& path) { return path == other.path; };
      const bool known =
          std::any_of(planned.begin(), planned.end(), [&](const PlannedMask& mask) { return is_other(mask.path); }) ||
          std::any_of(layout.masked_files.begin(), layout.masked_files.end(), is_other) ||
          std::any_of(layout.masked_folders.begin(), layout.masked_folders.end(), is_other);
      if (!known) planned.push_back(std::move(other));
    }
  }
}

bool covered_by(const fs::path& path, const std::vector<fs::path>& folders) {
  return std::any_of(folders.begin(), folders.end(),
                     [&](const fs::path& folder) { return is_at_or_under(path, folder); });
}

Expected<void> add_masks(const SandboxRequest& request, SandboxLayout& layout) {
  std::vector<MaskCandidate> candidates;
  if (request.survey) {
    for (const SurveyedPath& path : request.survey->hidden) candidates.push_back({path.absolute, path.rule});
  }
  if (request.runner_home && !is_at_or_under(request.workspace, *request.runner_home)) {
    for (const std::string& relative : home_credential_paths())
      candidates.push_back({*request.runner_home / relative, "agent-run's HOME"});
  }
  for (const ShownFolder& folder : layout.shown) {
    for (fs::path& path : credential_paths_in(folder.source))
      candidates.push_back({std::move(path), "a home's credentials in " + folder.target.string()});
  }
  for (PlannedMask& mask : plan_masks(candidates, layout))
    (mask.folder ? layout.masked_folders : layout.masked_files).push_back(std::move(mask.path));
  std::size_t masks = layout.masked_files.size() + layout.masked_folders.size();
  if (masks <= k_max_masks) return {};
  std::string example;
  std::string rule;
  if (request.survey && !request.survey->hidden.empty()) {
    example = request.survey->hidden.back().relative;
    rule = request.survey->hidden.back().rule;
  }
  return make_error("the policy hides " + std::to_string(masks) + " paths" +
                    (rule.empty() ? "" : " (rule '" + rule + "', e.g. " + example + ")") +
                    "; the sandbox masks at most " + std::to_string(k_max_masks) +
                    ": anchor the pattern (for example 'certs/*.pem' instead of '*.pem') or set 'sandbox: off'");
}

void append(std::vector<std::string>& argv, std::initializer_list<std::string> words) {
  argv.insert(argv.end(), words.begin(), words.end());
}

/// An empty root with the system's tree in it: each folder of system_folders() bound read-only, each
/// link among them (/bin -> usr/bin) made again as the same link.
void append_system_tree(std::vector<std::string>& argv) {
  append(argv, {"--tmpfs", "/"});
  for (const fs::path& folder : system_folders()) {
    std::error_code ec;
    fs::file_status status = fs::symlink_status(folder, ec);
    if (ec) continue;
    if (fs::is_symlink(status)) {
      fs::path target = fs::read_symlink(folder, ec);
      if (!ec) append(argv, {"--symlink", target.string(), folder.string()});
    } else if (fs::is_directory(status)) {
      append(argv, {"--ro-bind", folder.string(), folder.string()});
    }
  }
}

/// The step of the entry, in the command's own mount namespace (unshare's --mount-proc made it,
/// private) and before setpriv drops the capabilities, that masks `late`: `f:PATH` gets the token
/// (the empty mode-000 file) bound over it, `d:PATH` an empty read-only mode-000 tmpfs. The paths
/// were planned without links (plan_masks); one that became a link since stops the command (exit
/// 125) rather than have mount follow it. A path gone since is skipped; one that cannot be masked
/// stops the command.
void append_late_masks(std::vector<std::string>& entry, const SandboxLayout& layout, const SandboxEntryTools& tools,
                       const LateMasks& late) {
  append(entry, {tools.shell.string(), "-c",
                 "token=$1; mount=$2; shift 2; while [ \"$1\" != -- ]; do p=${1#?:}; "
                 "if [ -L \"$p\" ]; then echo \"agent-run: cannot mask $p: it became a link; nothing ran\" >&2; "
                 "exit 125; fi; "
                 "case $1 in f:*) \"$mount\" -n --bind \"$token\" \"$p\" ;; "
                 "*) \"$mount\" -n -t tmpfs -o ro,mode=000,size=4k agent-run-mask \"$p\" ;; esac 2>/dev/null || "
                 "{ [ ! -e \"$p\" ] && [ ! -L \"$p\" ]; } || "
                 "{ echo \"agent-run: cannot mask $p; nothing ran\" >&2; exit 125; }; shift; done; shift; exec \"$@\"",
                 "agent-run-mask", layout.token.string(), tools.mount.string()});
  for (const fs::path& file : late.files) entry.push_back("f:" + file.string());
  for (const fs::path& folder : late.folders) entry.push_back("d:" + folder.string());
  entry.push_back("--");
}

}  // namespace

std::vector<PlannedMask> plan_masks(const std::vector<MaskCandidate>& candidates, const SandboxLayout& layout) {
  std::vector<PlannedMask> spots;
  for (const MaskCandidate& candidate : candidates) {
    std::error_code ec;
    fs::path target = fs::canonical(candidate.path, ec);  // every link followed here, never by a mount
    struct stat status {};
    if (ec || ::lstat(target.c_str(), &status) != 0) continue;  // leads nowhere: nothing to read
    if (!shown_inside(target, layout) || is_at_or_under(layout.workspace, target)) continue;
    spots.push_back({target, S_ISDIR(status.st_mode), candidate.why});
  }
  // Folders before files, outer folders before inner ones, so that coverage is known when it is asked.
  std::stable_sort(spots.begin(), spots.end(), [](const PlannedMask& a, const PlannedMask& b) {
    if (a.folder != b.folder) return a.folder;
    return a.folder && a.path.native().size() < b.path.native().size();
  });
  std::vector<PlannedMask> planned;
  std::vector<fs::path> folders = layout.masked_folders;
  for (PlannedMask& spot : spots) {
    const bool known = std::find(layout.masked_files.begin(), layout.masked_files.end(), spot.path) !=
                           layout.masked_files.end() ||
                       std::any_of(planned.begin(), planned.end(), [&](const PlannedMask& mask) {
                         return !mask.folder && mask.path == spot.path;
                       });
    if (known || covered_by(spot.path, folders)) continue;
    if (spot.folder) folders.push_back(spot.path);
    planned.push_back(std::move(spot));
  }
  add_other_names(planned, layout);
  return planned;
}

const std::vector<std::string>& home_credential_paths() {
  static const std::vector<std::string> k_paths = {".ssh",
                                                   ".aws",
                                                   ".azure",
                                                   ".config/gcloud",
                                                   ".config/gh",
                                                   ".config/hub",
                                                   ".config/git/credentials",
                                                   ".docker",
                                                   ".kube",
                                                   ".gnupg",
                                                   ".netrc",
                                                   ".git-credentials",
                                                   ".npmrc",
                                                   ".pypirc",
                                                   ".cargo/credentials",
                                                   ".cargo/credentials.toml",
                                                   ".terraform.d",
                                                   ".vault-token",
                                                   ".m2/settings.xml",
                                                   ".gradle/gradle.properties",
                                                   ".config/containers/auth.json",
                                                   ".local/share/keyrings"};
  return k_paths;
}

Expected<SandboxLayout> make_sandbox_layout(const SandboxRequest& request) {
  SandboxLayout layout;
  layout.spec = request.spec;
  layout.workspace = request.workspace;
  layout.private_tmp = request.attempt_folder / "tmp";
  layout.home_cache = request.home_cache;
  layout.mask_file = request.attempt_folder / "masked";
  layout.token = fs::path("/run") / ("agent-run-" + request.attempt_folder.filename().string());
  add_shown(request, layout);
  add_emptied(request, layout);
  AR_TRY(add_git_folders(request, layout));
  add_file_views(request, layout);
  add_read_only(request, layout);
  AR_TRY(add_masks(request, layout));
  return layout;
}

std::vector<std::string> holder_argv(const SandboxLayout& layout, const fs::path& bubblewrap, const fs::path& sleep) {
  // One user namespace owns every mount (commands join it, so --uid 0 maps the runner's uid to 0 in
  // it; without it an unprivileged bubblewrap nests a second one that nsenter cannot join); every
  // capability dropped; no --disable-userns (commands' own /proc needs a nested mount), which leaves
  // nested user namespaces possible: they cannot unmount what is locked beneath them.
  std::vector<std::string> argv = {
      bubblewrap.string(), "--die-with-parent", "--new-session", "--unshare-user", "--uid", "0", "--gid", "0",
      "--unshare-ipc",     "--unshare-uts",     "--unshare-pid"};
  if (layout.spec.network == SandboxNetwork::off) argv.push_back("--unshare-net");
  append(argv, {"--cap-drop", "ALL"});
  const bool whole_machine = layout.spec.write == SandboxWrite::anywhere;
  if (whole_machine) append(argv, {"--bind", "/", "/"});
  else append_system_tree(argv);
  append(argv, {"--dev", "/dev", "--proc", "/proc", "--tmpfs", "/run"});
  std::error_code ec;
  if (whole_machine && !fs::is_symlink("/var/run", ec) && fs::is_directory("/var/run", ec))
    append(argv, {"--tmpfs", "/var/run"});
  append(argv, {"--ro-bind", layout.mask_file.string(), layout.token.string()});
  append(argv, {"--bind", layout.private_tmp.string(), "/tmp", "--tmpfs", "/var/tmp"});
  if (layout.home_cache) append(argv, {"--bind", layout.home_cache->string(), std::string(k_sandbox_home) + "/.cache"});
  // After the private folders: a folder shown from the machine's /tmp (a clone there) is bound back.
  for (const ShownFolder& folder : layout.shown)
    append(argv, {folder.writable ? "--bind" : "--ro-bind", folder.source.string(), folder.target.string()});
  for (const fs::path& folder : layout.emptied) append(argv, {"--tmpfs", folder.string()});
  const std::string workspace = layout.workspace.string();
  append(argv, {layout.spec.write == SandboxWrite::none ? "--ro-bind" : "--bind", workspace, workspace});
  for (const fs::path& path : layout.read_only) append(argv, {"--ro-bind", path.string(), path.string()});
  // After the workspace and its .git, which would cover them: a worktree's main repository and the
  // sanitized git config over the real one.
  for (const auto& [source, target] : layout.read_only_binds)
    append(argv, {"--ro-bind", source.string(), target.string()});
  for (const fs::path& folder : layout.masked_folders) {
    append(argv, {"--perms", "000", "--tmpfs", folder.string(), "--remount-ro", folder.string()});
  }
  for (const fs::path& file : layout.masked_files)
    append(argv, {"--ro-bind", layout.mask_file.string(), file.string()});
  // The root's empty folder read-only once every mount point in it is made: nothing is written there.
  if (!whole_machine) append(argv, {"--remount-ro", "/"});
  // bubblewrap writes its info (fd 1) before it mounts anything: only the holder's own line on
  // stderr, printed once everything is in place, says that the sandbox is ready to enter.
  append(argv, {"--chdir", workspace, "--info-fd", "1", "--", "/bin/sh", "-c",
                std::string("echo ") + k_sandbox_ready + " >&2 && exec \"$0\" infinity", sleep.string()});
  return argv;
}

std::vector<std::string> entry_argv(pid_t holder, const SandboxLayout& layout, const SandboxEntryTools& tools,
                                    const fs::path& cwd, const std::vector<std::string>& argv, const LateMasks& late) {
  // --root and --wd take the holder's; a --wd=DIR would be resolved outside, beneath every mask.
  std::vector<std::string> entry = {tools.nsenter.string(), "--target", std::to_string(holder), "--user", "--mount"};
  if (layout.spec.network == SandboxNetwork::off) entry.push_back("--net");  // the machine's own cannot be re-entered
  append(entry, {"--ipc", "--uts", "--preserve-credentials", "--root", "--wd", "--"});
  append(entry, {tools.unshare.string(), "--pid", "--fork", "--mount-proc", "--kill-child", "--"});
  if (!late.empty()) append_late_masks(entry, layout, tools, late);
  append(entry, {tools.setpriv.string(), "--no-new-privs", "--inh-caps=-all", "--ambient-caps=-all",
                 "--bounding-set=-all", "--"});
  // The shell stays as the PID namespace's init and runs the command as its child, not exec'd: an
  // init ignores the SIGTERM that ends an attempt (and unshare's parent ignores it too), so an
  // exec'd command would only ever die of SIGKILL; as a child it gets SIGTERM and may clean up.
  append(entry,
         {tools.shell.string(), "-c",
          "[ -e \"$1\" ] || { echo \"agent-run: not inside the attempt's sandbox; nothing ran\" >&2; exit 125; }; "
          "cd -- \"$0\" || exit 125; shift; \"$@\"",
          cwd.empty() ? layout.workspace.string() : cwd.string(), layout.token.string()});
  entry.insert(entry.end(), argv.begin(), argv.end());
  return entry;
}

namespace {

/// Sections git reads nothing but credentials from, or other files from (an include's file may be
/// the CI checkout's token under $RUNNER_TEMP, and git reads it wherever it is).
bool dropped_section(const std::string& section) {
  return section == "credential" || section == "include" || section == "includeif";
}

/// Keys that carry a credential or name a file of one, in any section.
bool dropped_key(const std::string& key) { return key == "extraheader" || key == "cookiefile"; }

/// `line` without the password of a URL it holds (`https://user:PASSWORD@host/` -> `https://host/`).
std::string without_url_credentials(std::string line) {
  if (std::size_t scheme = line.find("://"); scheme != std::string::npos) {
    std::size_t at = line.find('@', scheme);
    std::size_t slash = line.find('/', scheme + 3);
    if (at != std::string::npos && (slash == std::string::npos || at < slash)) line.erase(scheme + 3, at + 1 - scheme - 3);
  }
  return line;
}

}  // namespace

std::string sanitized_git_config(std::string_view config) {
  std::string out;
  std::string section;  // lower case, `http "https://github.com/"` -> `http`
  for (std::string_view rest = config; !rest.empty();) {
    std::size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    std::string_view text = trim(line);
    std::string_view header;  // `[section "sub"]` when the line starts one; a key may follow it on the line
    if (text.starts_with('[')) {
      std::size_t close = text.find_first_of(" .\"]", 1);
      section = to_lower(text.substr(1, close == std::string_view::npos ? text.size() - 1 : close - 1));
      header = text.substr(0, std::min(text.find(']'), text.size() - 1) + 1);
      text = trim(text.substr(header.size()));
    }
    std::string key = to_lower(trim(text.substr(0, text.find('='))));
    if (dropped_section(section)) continue;
    if (!text.empty() && dropped_key(key)) {
      if (!header.empty()) out += std::string(header) + '\n';
      continue;
    }
    out += without_url_credentials(std::string(line));
    out += '\n';
  }
  return out;
}

}  // namespace agent_run
