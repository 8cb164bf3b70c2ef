#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace agent_run {

/// A path resolved the way the kernel resolves it for a command, and whether that resolution
/// went through a name that means something else to the command than to agent-run.
struct KernelPath {
  std::filesystem::path
      resolved;       // absolute; symlinks followed before `..` is applied; what does not exist appended as written
  std::string magic;  // "/proc/self", "/proc/4242", "/dev/fd", ... the first such name reached; empty if none
};

/// Resolves `text` (absolute, or relative to `base`, which should be absolute and free of
/// symlinks) one component at a time as the kernel does: each existing component is looked at with
/// lstat; a symlink's text is spliced in before the components after it (so `link/..` is the
/// parent of the link's target, not the folder holding the link), up to 40 links; `..` then applies
/// to the real path reached so far. Once a component does not exist (or cannot be looked at), the
/// rest is applied lexically. Reaching /proc/self, /proc/thread-self, /proc/<digits>, /dev/fd,
/// /dev/stdin, /dev/stdout or /dev/stderr stops the walk and names it in `magic`: those name the
/// process that opens them, which for a command is not agent-run.
KernelPath kernel_resolve(const std::filesystem::path& base, std::string_view text);

/// The magic name (as kernel_resolve's) that `path` (absolute, normalised) is or lies under; empty if none.
std::string magic_prefix(const std::filesystem::path& path);

}  // namespace agent_run
