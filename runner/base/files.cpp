#include "base/files.h"

#include "base/safe_open.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace agent_run {

Expected<std::string> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(path.string() + ": cannot read: " + std::strerror(errno));
  }
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

Expected<std::string> read_file_beneath(const std::filesystem::path& root, std::string_view relative,
                                        std::size_t cap) {
  const std::string name = "'" + std::string(relative) + "'";
  auto handle = open_following_beneath(root, relative, O_PATH);  // looked at before anything is opened
  if (!handle) return handle.error();
  struct stat seen {};
  if (::fstat(handle->get(), &seen) != 0) return make_error("cannot read " + name + ": " + std::strerror(errno));
  if (S_ISDIR(seen.st_mode)) return make_error(name + " is a directory");
  if (!S_ISREG(seen.st_mode)) return make_error(name + " is " + special_file_kind(seen.st_mode) + "; it is never opened");
  if (static_cast<std::size_t>(seen.st_size) > cap) {
    return make_error(name + " is larger than " + std::to_string(cap) + " bytes; it is not read");
  }
  auto file = open_following_beneath(root, relative, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  if (!file) return file.error();
  struct stat opened {};
  if (::fstat(file->get(), &opened) != 0 || opened.st_ino != seen.st_ino || opened.st_dev != seen.st_dev) {
    return make_error(name + " changed while it was being opened");
  }
  std::string content;
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(file->get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error("cannot read " + name + ": " + std::strerror(errno));
    if (n == 0) return content;
    if (content.size() + static_cast<std::size_t>(n) > cap) {
      return make_error(name + " is larger than " + std::to_string(cap) + " bytes; it is not read");
    }
    content.append(buffer, static_cast<std::size_t>(n));
  }
}

Expected<void> write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  return write_file_atomically(path, [&](const WritePiece& write) { write(content); });
}

namespace {

/// Writes all of `piece` to `fd`; the errno of a failure, 0 when it was all written.
int write_all(int fd, std::string_view piece) {
  std::size_t written = 0;
  while (written < piece.size()) {
    ssize_t n = ::write(fd, piece.data() + written, piece.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : ENOSPC;  // a write that writes nothing: the disk is full
    written += static_cast<std::size_t>(n);
  }
  return 0;
}

}  // namespace

Expected<void> write_file_atomically(const std::filesystem::path& path,
                                     const std::function<void(const WritePiece&)>& produce) {
  // One buffer of this size, reserved once: a piece that does not fit is written after it, a larger
  // one straight through. (A buffer left to grow doubled past it and, above glibc's mmap threshold,
  // was the largest block of memory a run held, reallocated on every report write.)
  constexpr std::size_t k_buffer_bytes = 64 * 1024;
  std::error_code ec;
  if (path.has_parent_path()) {
    std::filesystem::create_directories(path.parent_path(), ec);
  }
  std::string temporary = path.string() + ".tmp-XXXXXX";
  std::vector<char> name(temporary.begin(), temporary.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) {
    return make_error(path.string() + ": cannot create a temporary file: " + std::strerror(errno));
  }
  auto fail = [&](const char* what, int error) {
    ::unlink(name.data());
    return make_error(path.string() + ": " + what + ": " + std::strerror(error));
  };
  int error = 0;  // the first write's failure; what comes after it is dropped
  std::string buffer;
  buffer.reserve(k_buffer_bytes);
  try {
    produce([&](std::string_view piece) {
      if (error != 0) return;
      if (buffer.size() + piece.size() > k_buffer_bytes) {
        error = write_all(fd, buffer);
        buffer.clear();
      }
      if (error != 0) return;
      if (piece.size() >= k_buffer_bytes) {
        error = write_all(fd, piece);
      } else {
        buffer.append(piece);
      }
    });
  } catch (...) {  // a producer that throws (out of memory) leaves the last good file and no temporary
    ::close(fd);
    ::unlink(name.data());
    throw;
  }
  if (error == 0) error = write_all(fd, buffer);
  if (error != 0) {
    ::close(fd);
    return fail("cannot write", error);
  }
  ::fchmod(fd, 0644);
  // Some file systems report a full disk or an I/O error only here: the file must not replace
  // the last good one unless it is all on disk.
  if (::fsync(fd) != 0 && errno != EINVAL) {  // EINVAL: a file system that cannot sync, nothing lost
    error = errno;
    ::close(fd);
    return fail("cannot write", error);
  }
  if (::close(fd) != 0) return fail("cannot write", errno);
  if (::rename(name.data(), path.c_str()) != 0) {
    std::string reason = std::strerror(errno);
    ::unlink(name.data());
    return make_error(path.string() + ": cannot rename into place: " + reason);
  }
  return {};
}

Expected<std::filesystem::path> make_unique_folder(const std::filesystem::path& parent, std::string_view prefix) {
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  std::string pattern = (parent / (std::string(prefix) + "XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (::mkdtemp(name.data()) == nullptr) {
    return make_error(pattern + ": cannot create a folder: " + std::strerror(errno));
  }
  return std::filesystem::path(name.data());
}

}  // namespace agent_run
