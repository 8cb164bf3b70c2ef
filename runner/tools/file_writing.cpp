#include "tools/file_writing.h"

#include "base/safe_open.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace agent_run {

Expected<ExistingFile> read_existing_file(const std::filesystem::path& workspace, const ConfinedPath& file) {
  auto root = open_workspace(workspace);
  if (!root) return root.error();
  int error = 0;
  if (!open_beneath(root->get(), file.relative, O_PATH, &error) && error == ENOENT) return ExistingFile{};
  auto info = stat_beneath(workspace, file.relative);
  if (!info) return info.error();
  if (!S_ISREG(info->st_mode)) return make_error("'" + file.relative + "' is not a regular file; it is never written");
  auto opened = open_regular_file(workspace, file.relative);
  if (!opened) return opened.error();
  ExistingFile existing{true, {}};
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(opened->fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error("cannot read '" + file.relative + "': " + std::strerror(errno));
    if (n == 0) break;
    existing.content.append(buffer, static_cast<std::size_t>(n));
  }
  return existing;
}

Expected<void> replace_file_content(const std::filesystem::path& workspace, const ConfinedPath& file,
                                    std::string_view content) {
  return write_beneath(workspace, file.relative, content);
}

}  // namespace agent_run
