#include "base/safe_open.h"

#include "base/text.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <vector>

namespace agent_run {

namespace {

std::string quoted(std::string_view relative) { return "'" + std::string(relative) + "'"; }

/// The components of a workspace-relative path, without empty and "." parts.
std::vector<std::string> components(std::string_view relative) {
  std::vector<std::string> parts;
  for (std::string& part : split(relative, '/')) {
    if (!part.empty() && part != ".") parts.push_back(std::move(part));
  }
  return parts;
}

Error errno_error(std::string_view relative, int error) {
  if (error == ENOENT) return make_error(quoted(relative) + " does not exist");
  if (error == ELOOP || error == EXDEV) {
    return make_error(quoted(relative) + " leads outside the workspace through a symlink");
  }
  if (error == ENAMETOOLONG) return make_error(quoted(relative) + ": a path component is too long");
  return make_error("cannot open " + quoted(relative) + ": " + std::strerror(error));
}

}  // namespace

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = std::exchange(other.m_fd, -1);
  }
  return *this;
}

UniqueFd::~UniqueFd() {
  if (m_fd >= 0) ::close(m_fd);
}

Expected<UniqueFd> open_workspace(const std::filesystem::path& workspace) {
  int fd = ::open(workspace.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return make_error("cannot open the workspace " + workspace.string() + ": " + std::strerror(errno));
  return UniqueFd(fd);
}

Expected<UniqueFd> open_by_walking(int root_fd, std::string_view relative, int flags, int* errno_out) {
  std::vector<std::string> parts = components(relative);
  UniqueFd current(::fcntl(root_fd, F_DUPFD_CLOEXEC, 0));
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const bool last = i + 1 == parts.size();
    if (parts[i] == "..") {
      if (errno_out) *errno_out = EXDEV;
      return errno_error(relative, EXDEV);
    }
    int step_flags = last ? (flags | O_NOFOLLOW | O_CLOEXEC) : (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int fd = ::openat(current.get(), parts[i].c_str(), step_flags, 0);
    if (fd < 0) {
      int error = errno == ENOTDIR && !last ? ELOOP : errno;
      if (errno_out) *errno_out = error;
      return errno_error(relative, error);
    }
    current = UniqueFd(fd);
  }
  if (parts.empty()) current = UniqueFd(::openat(root_fd, ".", flags | O_CLOEXEC));
  return current;
}

Expected<UniqueFd> open_beneath(int root_fd, std::string_view relative, int flags, int* errno_out) {
  open_how how{};
  how.flags = static_cast<std::uint64_t>(flags | O_CLOEXEC);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  std::string path = relative.empty() ? "." : std::string(relative);
  long fd = ::syscall(SYS_openat2, root_fd, path.c_str(), &how, sizeof how);
  if (fd >= 0) return UniqueFd(static_cast<int>(fd));
  if (errno != ENOSYS && errno != EPERM) {
    if (errno_out) *errno_out = errno;
    return errno_error(relative, errno);
  }
  return open_by_walking(root_fd, relative, flags, errno_out);  // no openat2 here: an old kernel or seccomp
}

namespace {

/// openat2 beneath `root_fd`, links followed while they stay beneath it; -1 with errno on failure.
long open_resolving_beneath(int root_fd, const std::string& path, int flags) {
  open_how how{};
  how.flags = static_cast<std::uint64_t>(flags | O_CLOEXEC);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  return ::syscall(SYS_openat2, root_fd, path.c_str(), &how, sizeof how);
}

}  // namespace

Expected<UniqueFd> open_following_beneath(const std::filesystem::path& root, std::string_view relative, int flags) {
  auto root_fd = open_workspace(root);
  if (!root_fd) return root_fd.error();
  const std::string path = relative.empty() ? "." : std::string(relative);
  long fd = open_resolving_beneath(root_fd->get(), path, flags);
  if (fd >= 0) return UniqueFd(static_cast<int>(fd));
  if (errno == ENOSYS || errno == EPERM) return open_by_walking(root_fd->get(), relative, flags);
  if (errno != EXDEV) return errno_error(relative, errno);
  // An absolute link (`ln -s $PWD/build/compile_commands.json`), or one that leaves: where does it lead?
  std::error_code ec;
  const std::filesystem::path top = std::filesystem::canonical(root, ec);
  const std::filesystem::path target = ec ? top : std::filesystem::canonical(root / path, ec);
  const std::filesystem::path inside = target.lexically_relative(top);
  if (ec || inside.empty() || *inside.begin() == "..") return errno_error(relative, EXDEV);
  fd = open_resolving_beneath(root_fd->get(), inside.string(), flags);  // still beneath, whatever changed since
  if (fd >= 0) return UniqueFd(static_cast<int>(fd));
  return errno_error(relative, errno);
}

const char* special_file_kind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

Expected<struct stat> stat_beneath(const std::filesystem::path& workspace, std::string_view relative) {
  auto root = open_workspace(workspace);
  if (!root) return root.error();
  auto handle = open_beneath(root->get(), relative, O_PATH);
  if (!handle) return handle.error();
  struct stat info {};
  if (::fstat(handle->get(), &info) != 0) return errno_error(relative, errno);
  return info;
}

Expected<OpenFile> open_regular_file(const std::filesystem::path& workspace, std::string_view relative) {
  auto seen = stat_beneath(workspace, relative);
  if (!seen) return seen.error();
  if (S_ISDIR(seen->st_mode)) return make_error(quoted(relative) + " is a directory");
  if (!S_ISREG(seen->st_mode)) {
    return make_error(quoted(relative) + " is " + special_file_kind(seen->st_mode) + "; it is never opened");
  }
  auto root = open_workspace(workspace);
  if (!root) return root.error();
  auto file = open_beneath(root->get(), relative, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  if (!file) return file.error();
  OpenFile opened{std::move(*file), {}};
  if (::fstat(opened.fd.get(), &opened.info) != 0) return errno_error(relative, errno);
  if (opened.info.st_ino != seen->st_ino || opened.info.st_dev != seen->st_dev || !S_ISREG(opened.info.st_mode)) {
    return make_error(quoted(relative) + " changed while it was being opened; try again");
  }
  return opened;
}

namespace {

/// Opens (creating as needed) every folder of `parts` but the last, beneath `root_fd`, never following a symlink.
Expected<UniqueFd> make_parent_folders(int root_fd, std::string_view relative, const std::vector<std::string>& parts) {
  UniqueFd current(::fcntl(root_fd, F_DUPFD_CLOEXEC, 0));
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    if (::mkdirat(current.get(), parts[i].c_str(), 0777) != 0 && errno != EEXIST) {
      return make_error("cannot create the folder for " + quoted(relative) + ": " + std::strerror(errno));
    }
    int fd = ::openat(current.get(), parts[i].c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOTDIR || errno == ELOOP) {
        return make_error(quoted(relative) + ": '" + parts[i] +
                          "' is not a folder (or is a symlink); nothing was written");
      }
      return errno_error(relative, errno);
    }
    current = UniqueFd(fd);
  }
  return current;
}

Expected<void> write_all(int fd, std::string_view content) {
  std::size_t written = 0;
  while (written < content.size()) {
    ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return make_error(std::strerror(errno));
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) return make_error(std::strerror(errno));
  return {};
}

std::string temporary_name(const std::string& name) {
  static thread_local std::mt19937_64 random{std::random_device{}()};
  return "." + name.substr(0, 200) + ".agent-run-" + std::to_string(random() % 1000000000);
}

}  // namespace

Expected<void> write_beneath(const std::filesystem::path& workspace, std::string_view relative,
                             std::string_view content) {
  std::vector<std::string> parts = components(relative);
  if (parts.empty()) return make_error("the workspace itself cannot be written as a file");
  auto root = open_workspace(workspace);
  if (!root) return root.error();
  auto folder = make_parent_folders(root->get(), relative, parts);
  if (!folder) return folder.error();
  const std::string& name = parts.back();
  mode_t mode = 0644;
  struct stat existing {};
  if (::fstatat(folder->get(), name.c_str(), &existing, AT_SYMLINK_NOFOLLOW) == 0) {
    if (!S_ISREG(existing.st_mode)) return make_error(quoted(relative) + " is not a regular file; it is never written");
    mode = existing.st_mode & 07777;
  }
  const std::string temporary = temporary_name(name);
  int fd = ::openat(folder->get(), temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return make_error("cannot write " + quoted(relative) + ": " + std::strerror(errno));
  UniqueFd file(fd);
  auto written = write_all(fd, content);
  if (written && ::fchmod(fd, mode) != 0) written = make_error(std::strerror(errno));
  if (written && ::renameat(folder->get(), temporary.c_str(), folder->get(), name.c_str()) != 0) {
    written = make_error(std::strerror(errno));
  }
  if (!written) {
    ::unlinkat(folder->get(), temporary.c_str(), 0);
    return make_error("cannot write " + quoted(relative) + ": " + written.error().message);
  }
  return {};
}

}  // namespace agent_run
