#include "report/report_journal.h"

#include "base/json.h"
#include "report/report_schema.h"
#include "report/report_writers.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace agent_run {

std::filesystem::path journal_path(const std::filesystem::path& report_file) {
  return report_file.parent_path() / (report_file.stem().string() + ".journal.jsonl");
}

std::string journal_header(const std::string& report_sha256) {
  return Json::object().set("schema", std::string(k_journal_schema)).set("report_sha256", report_sha256).dump() + "\n";
}

std::string journal_line(const AttemptResult& attempt, long long run_duration_ms) {
  return Json::object().set("run_duration_ms", run_duration_ms).set("attempt", attempt_to_json(attempt)).dump() + "\n";
}

Expected<void> append_line(const std::filesystem::path& path, std::string_view line) {
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return make_error(path.string() + ": cannot open: " + std::strerror(errno));
  struct stat before {};
  if (::fstat(fd, &before) != 0) {
    int error = errno;
    ::close(fd);
    return make_error(path.string() + ": cannot write: " + std::strerror(error));
  }
  int error = 0;
  for (std::size_t written = 0; error == 0 && written < line.size();) {
    ssize_t n = ::write(fd, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) error = n < 0 ? errno : ENOSPC;  // a write that writes nothing: the disk is full
    else written += static_cast<std::size_t>(n);
  }
  if (error == 0 && ::fdatasync(fd) != 0 && errno != EINVAL) error = errno;  // EINVAL: cannot sync, nothing lost
  if (error != 0) (void)::ftruncate(fd, before.st_size);
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) return make_error(path.string() + ": cannot write: " + std::strerror(error));
  return {};
}

}  // namespace agent_run
