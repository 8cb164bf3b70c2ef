#pragma once

#include "base/expected.h"

#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

namespace agent_run {

/// A file descriptor closed when it goes out of scope.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : m_fd(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd();

  int get() const { return m_fd; }
  bool is_open() const { return m_fd >= 0; }

 private:
  int m_fd = -1;
};

/// An open regular file and what fstat said about it.
struct OpenFile {
  UniqueFd fd;
  struct stat info {};
};

/// The workspace folder, opened once (O_PATH) so that paths are resolved beneath it.
Expected<UniqueFd> open_workspace(const std::filesystem::path& workspace);

/// Opens `relative` (workspace-relative, '/'-separated, without `..`: what confine_path returns) beneath
/// `root_fd` so that no symlink and no `..` can take it elsewhere, even one swapped in after the path
/// was checked: openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, or, where the kernel lacks it,
/// open_by_walking. Fails with errno's message; `errno_out` receives the errno.
Expected<UniqueFd> open_beneath(int root_fd, std::string_view relative, int flags, int* errno_out = nullptr);

/// Opens `relative` beneath `root` following a symlink only where it stays beneath `root`: openat2
/// with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS (no /proc/self/fd/N, no `..` above the root), and an
/// absolute link followed only when the path it leads to is beneath `root`, opened again the same
/// way. Where the kernel lacks openat2, no symlink is followed at all (open_by_walking).
Expected<UniqueFd> open_following_beneath(const std::filesystem::path& root, std::string_view relative, int flags);

/// The fallback of open_beneath: one component at a time, each with O_NOFOLLOW.
Expected<UniqueFd> open_by_walking(int root_fd, std::string_view relative, int flags, int* errno_out = nullptr);

/// What `relative` is (fstat of an O_PATH descriptor opened beneath the workspace: nothing is opened
/// for reading); an error when it does not exist or leads outside.
Expected<struct stat> stat_beneath(const std::filesystem::path& workspace, std::string_view relative);

/// "a FIFO", "a socket", "a character device", "a block device" (or "not a regular file").
const char* special_file_kind(mode_t mode);

/// Opens a regular file for reading beneath the workspace. A FIFO, socket or device is refused before
/// it is opened (it is looked at through an O_PATH descriptor first, and opened O_NONBLOCK). Messages
/// name `relative`: "'x' does not exist", "'x' is a directory", "'x' is a FIFO; it is never opened".
Expected<OpenFile> open_regular_file(const std::filesystem::path& workspace, std::string_view relative);

/// Replaces (or creates) the regular file `relative` with `content`: parent folders are created one at a
/// time without following symlinks; the content goes to a temporary file in the same folder, is flushed,
/// and is renamed over the target (which breaks hard links and never writes through a symlink). An
/// existing file keeps its permissions.
Expected<void> write_beneath(const std::filesystem::path& workspace, std::string_view relative,
                             std::string_view content);

}  // namespace agent_run
