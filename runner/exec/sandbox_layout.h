#pragma once

#include "exec/mount_survey.h"
#include "exec/sandbox.h"
#include "exec/shown_folders.h"

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// Files made for one sandbox in its own folder (`folder`), each bound read-only over a real file
/// (made -> where): the git index view of batch/, which exec/ cannot make itself.
using SandboxFileViews = std::function<std::vector<std::pair<std::filesystem::path, std::filesystem::path>>(
    const std::filesystem::path& folder)>;

/// Where an attempt's sandbox is and what surrounds it, as batch/ (or `agent-run tool`) knows it.
struct SandboxRequest {
  SandboxSpec spec;
  std::filesystem::path workspace;       // absolute, resolved
  std::filesystem::path attempt_folder;  // the sandbox's own folder (private /tmp, masks); outside the workspace
  std::optional<std::filesystem::path> source_checkout;    // the task's repository folder, when it is not the workspace
  std::optional<std::filesystem::path> git_common_folder;  // a worktree's main repository (.git), outside the workspace
  std::optional<std::filesystem::path> git_config;         // the config whose sanitized copy the sandbox sees
  std::vector<std::filesystem::path> protected_paths;      // read-only: the policy, the task file, the report folder
  std::vector<std::filesystem::path> hidden_roots;         // emptied (tmpfs): other attempts' workspaces, ...
  std::optional<std::filesystem::path> runner_home;        // agent-run's HOME: its credential folders are masked
  const Survey* survey = nullptr;                          // hidden and read-only paths in and around the workspace
  std::optional<std::filesystem::path> home_cache;  // bound read-write at HOME/.cache: build caches one attempt's sandboxes share
  SandboxFileViews file_views;                      // made when the sandbox's folder exists; none when empty
  std::vector<ShownFolder> shown;  // beside the system's tree: the task's programs, `sandbox: {read, read_write}`
};

/// The sandbox as data, in mount order (later mounts win): what bubblewrap is told. Its root is an
/// empty read-only folder in which only the system's tree (exec/shown_folders), the shown folders,
/// the private folders and the workspace appear; with `write: anywhere`, the machine's whole tree.
struct SandboxLayout {
  SandboxSpec spec;
  std::filesystem::path workspace;
  std::vector<ShownFolder> shown;  // after the private folders, before the workspace
  std::filesystem::path private_tmp;           // bound at /tmp (HOME is its `home` folder)
  std::optional<std::filesystem::path> home_cache;  // bound at HOME/.cache (GOCACHE, pip's, ...)
  std::filesystem::path mask_file;             // an empty file with mode 000, bound over each masked file
  std::filesystem::path token;                 // exists only inside this sandbox (/run/agent-run-sandbox-XXXXXX)
  std::vector<std::filesystem::path> emptied;  // an empty tmpfs over each (source checkout, scratch)
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> read_only_binds;  // source -> where
  std::vector<std::filesystem::path> read_only;       // bound read-only over themselves, after the workspace
  std::vector<std::filesystem::path> masked_folders;  // an unreadable, read-only, empty tmpfs over each
  std::vector<std::filesystem::path> masked_files;    // the mask file bound over each
};

/// A path the sandbox must make unreadable, and what hides it (for the report).
struct MaskCandidate {
  std::filesystem::path path;  // as found: it may be, or lie beneath, a link
  std::string why;             // the rule id, "another name of .env (secrets)", "agent-run's HOME"
};

/// One mask as it is mounted: at a path with no link in it, so that no mount follows one.
struct PlannedMask {
  std::filesystem::path path;  // canonical: every link resolved when it was planned
  bool folder = false;         // an empty read-only tmpfs; else the empty mode-000 file
  std::string why;
};

/// The masks `candidates` need beside those `layout` has, each at its candidate's canonical path
/// (links, and links to links, resolved: a mask hides the view of what a link leads to, never
/// follows it when mounted). None for a candidate that leads nowhere (a dangling link), that is not
/// seen inside (under /tmp, /run, /proc, /dev or an emptied folder), that holds the workspace (its
/// own hidden paths are masked one by one), or that a mask already covers (a file in a masked
/// folder such as HOME's `.ssh`: mounting there would fail, and it is unreadable anyway). Folders
/// come first; a folder inside another planned one is covered by it. A mask in a folder shown at a
/// link's name too is planned at both names.
std::vector<PlannedMask> plan_masks(const std::vector<MaskCandidate>& candidates, const SandboxLayout& layout);

/// The folder of the machine that every sandbox replaces with an empty one of its own (/tmp, /var/tmp,
/// /run, /proc, /dev) and that holds `path` (absolute; its links are resolved first, as far as it
/// exists), or nullopt. What lies there on the machine is not there inside the sandbox unless it is
/// bound back: the workspace, or a shown folder.
std::optional<std::filesystem::path> private_folder_holding(const std::filesystem::path& path);

/// Whether `path` (absolute, links resolved) is there inside a sandbox laid out as `layout`: in the
/// workspace, a shown folder or a bound git folder, else in the system's tree (the whole machine with
/// `write: anywhere`), and neither in an emptied folder nor in a private one (/tmp, /var/tmp, /run,
/// /proc, /dev: empty inside).
bool shown_inside(const std::filesystem::path& path, const SandboxLayout& layout);

/// At most this many masks (each bubblewrap mount re-reads the mount table: 400 take 0.2 s a start).
inline constexpr std::size_t k_max_masks = 1000;

/// Folders and files of a HOME that hold credentials: masked in the sandbox wherever they exist.
const std::vector<std::string>& home_credential_paths();

/// The layout for `request`: only paths that exist are mounted over (bubblewrap would create a
/// missing one on the machine); a shown folder inside the workspace, or one missing, is left out. Fails when the policy hides more than k_max_masks paths. Writes the
/// sanitized git config into the attempt folder.
Expected<SandboxLayout> make_sandbox_layout(const SandboxRequest& request);

/// What the holder prints on stderr once its mounts are in place.
inline constexpr const char* k_sandbox_ready = "agent-run-sandbox-ready";

/// bubblewrap's command line for the holder: one process that keeps the attempt's namespaces and
/// mounts alive (`sleep infinity`), printing bubblewrap's info (the child's pid) on stdout and
/// k_sandbox_ready on stderr when it is ready.
std::vector<std::string> holder_argv(const SandboxLayout& layout, const std::filesystem::path& bubblewrap,
                                     const std::filesystem::path& sleep);

/// The util-linux programs a command enters the sandbox with, by absolute path.
struct SandboxEntryTools {
  std::filesystem::path nsenter = "/usr/bin/nsenter";
  std::filesystem::path unshare = "/usr/bin/unshare";
  std::filesystem::path setpriv = "/usr/bin/setpriv";
  std::filesystem::path shell = "/bin/sh";
  std::filesystem::path mount = "/usr/bin/mount";
};

/// Hidden paths that appeared after the holder's mounts were made (a `.env` the agent wrote): one
/// command masks them in a mount namespace of its own before it runs.
struct LateMasks {
  std::vector<std::filesystem::path> files;    // the token (the empty mode-000 file) bound over each
  std::vector<std::filesystem::path> folders;  // an empty read-only mode-000 tmpfs over each

  bool empty() const { return files.empty() && folders.empty(); }
};

/// The command line that runs `argv` in `cwd` inside the holder whose sandboxed child is `holder`:
/// its mount, user, IPC, UTS (and, network off, network) namespaces; a PID namespace and /proc of its
/// own; no capability, no privilege gain. The folder is changed to inside, never resolved outside.
/// Nothing runs (exit 125) unless the layout's token exists where the command landed: a pid reused
/// after the holder died never lets a command run outside. `late` is masked in the command's own
/// mount namespace while it still holds the capabilities to mount (nothing runs, exit 125, when a
/// mask that still exists cannot be mounted).
std::vector<std::string> entry_argv(pid_t holder, const SandboxLayout& layout, const SandboxEntryTools& tools,
                                    const std::filesystem::path& cwd, const std::vector<std::string>& argv,
                                    const LateMasks& late = {});

/// `config` (a git config file's text) without what authenticates or reads another file:
/// http.*.extraheader and cookieFile, credential sections, passwords in URLs (url.*.insteadOf and
/// remotes among them), and every include and includeIf section (their files are read wherever
/// they are: the CI checkout keeps its token in one under $RUNNER_TEMP).
std::string sanitized_git_config(std::string_view config);

}  // namespace agent_run
