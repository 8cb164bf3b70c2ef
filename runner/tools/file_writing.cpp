#include "tools/file_writing.h"

#include "base/files.h"

#include <sys/stat.h>

namespace agent_run {

Expected<ExistingFile> read_existing_file(const ConfinedPath& file) {
  struct stat info {};
  if (::lstat(file.absolute.c_str(), &info) != 0) {
    return ExistingFile{};
  }
  if (!S_ISREG(info.st_mode)) {
    return make_error("'" + file.relative + "' is not a regular file; it is never written");
  }
  auto content = read_file(file.absolute);
  if (!content) return content.error();
  return ExistingFile{true, std::move(*content)};
}

Expected<void> replace_file_content(const ConfinedPath& file, std::string_view content) {
  std::error_code ec;
  std::filesystem::create_directories(file.absolute.parent_path(), ec);
  if (ec) {
    return make_error("cannot create the folder for '" + file.relative + "': " + ec.message());
  }
  auto written = write_file_atomically(file.absolute, content);
  if (!written) {
    return make_error("cannot write '" + file.relative + "'");
  }
  return {};
}

}  // namespace agent_run
