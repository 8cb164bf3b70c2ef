#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

// What the sandbox shows of the machine, beside the workspace: the system's read-only tree and
// the folders the task's programs live in. Everything else (HOME, /root, /home, /srv, /mnt, /work,
// the CI runner's folders) is not there.

/// One folder (or a lone program file) of the machine shown inside the sandbox, and why.
struct ShownFolder {
  std::filesystem::path source;  // on the machine, links resolved
  std::filesystem::path target;  // where it appears inside: `source`, or the name a link gave it
  bool writable = false;
  std::string why;  // "PATH", "GOROOT", "checks[0]", "sandbox.read (tasks/t.yaml:7)"

  friend bool operator==(const ShownFolder&, const ShownFolder&) = default;
};

/// The system's tree every sandbox shows read-only: /usr, /etc, /opt, /sys, and /bin, /sbin and
/// /lib* (links into /usr on a merged-/usr system, folders elsewhere).
const std::vector<std::filesystem::path>& system_folders();

/// Whether `path` (absolute, normalised) lies in system_folders(), as written (a link there is
/// resolved inside the sandbox too).
bool in_system_folders(const std::filesystem::path& path);

/// The folders to show so that the program or folder `path` works inside (absolute; a file stands
/// for its folder): the folder holding its outermost node_modules, else the prefix above a bin/ or
/// sbin/ folder (~/.local gives ~/.local/bin and ~/.local/lib only), else the folder itself. Never
/// /, a top-level folder, `home` or a folder above it: narrowed to the folder itself, then to the
/// file alone, else none. None for a path in system_folders().
std::vector<std::filesystem::path> install_folders(const std::filesystem::path& path,
                                                   const std::optional<std::filesystem::path>& home);

/// The folders that `path` (a program, or a folder of programs) needs shown, each at the name it has
/// and, where links lead elsewhere, at the name they lead to: install_folders of `path` as written
/// and of `path` with its links resolved. `why` labels each.
std::vector<ShownFolder> folders_for_program(const std::filesystem::path& path,
                                             const std::optional<std::filesystem::path>& home, const std::string& why);

/// The folders the programs of `environment` (KEY=VALUE, as the sandbox's commands get it) need:
/// each folder on PATH, the folders its entries' links lead to (but for /usr/bin and /usr/sbin, the
/// distribution's), and each tool root a variable names
/// (GOROOT, VIRTUAL_ENV, RUSTUP_HOME, ...: exec/child_environment's list). Read-only; duplicates
/// dropped; `home` is the machine's HOME (never shown whole).
std::vector<ShownFolder> program_folders(const std::vector<std::string>& environment,
                                         const std::optional<std::filesystem::path>& home);

/// `folders` without repeats and without a folder another one (shown the same way at the same
/// place) already holds.
std::vector<ShownFolder> without_repeats(std::vector<ShownFolder> folders);

}  // namespace agent_run
