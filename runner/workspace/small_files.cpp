#include "workspace/small_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace agent_run {

Expected<void> write_small_file(const std::filesystem::path& path, std::string_view content) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return make_error("cannot write '" + path.string() + "': " + std::strerror(errno));
  ssize_t written = ::write(fd, content.data(), content.size());
  int saved = errno;
  ::close(fd);
  if (written != static_cast<ssize_t>(content.size())) {
    return make_error("cannot write '" + path.string() + "': " + std::strerror(written < 0 ? saved : ENOSPC));
  }
  return {};
}

}  // namespace agent_run
