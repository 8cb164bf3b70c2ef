#include "report/report_folder.h"

#include "base/digest.h"
#include "base/files.h"
#include "base/safe_open.h"
#include "report/html_report.h"
#include "report/markdown_summary.h"
#include "report/report_journal.h"
#include "report/report_writers.h"

#include <unistd.h>

#include <cctype>

namespace agent_run {

ReportFolder::ReportFolder(std::filesystem::path root) : m_root(std::move(root)) {}

std::string ReportFolder::attempt_folder(const std::string& task_id, const std::string& model, int n,
                                         ModelInPath model_in_path) {
  const std::string repeat = std::to_string(n);
  if (model_in_path == ModelInPath::omitted) return "attempts/" + task_id + "/" + repeat;
  std::string name;
  for (char c : model) {
    bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    name += keep ? c : '-';
  }
  if (name.empty() || name.front() == '.') name.insert(0, "m");
  return "attempts/" + task_id + "/" + name + "/" + repeat;
}

Expected<void> ReportFolder::write(const RunReport& report, Journal journal) const {
  Sha256 digest;
  AR_TRY(write_file_atomically(m_root / "report.json", [&](const WritePiece& write) {
    write_report_json(report, [&](std::string_view piece) {
      digest.update(piece);
      write(piece);
    });
  }));
  if (journal == Journal::restarted) {
    AR_TRY(write_file_atomically(this->journal(), journal_header(digest.hex())));
  } else {
    std::error_code ec;
    std::filesystem::remove(this->journal(), ec);  // one left behind names another report.json: not read
  }
  AR_TRY(write_file_atomically(m_root / "junit.xml",
                               [&](const WritePiece& write) { write_report_junit(report, write); }));
  AR_TRY(write_file_atomically(m_root / "summary.md", summary_markdown(report)));
  PatchReader read_patch = [this](const std::string& path, std::size_t max_bytes) {
    return read_part(path, max_bytes);
  };
  AR_TRY(write_file_atomically(m_root / "report.html",
                               [&](const WritePiece& write) { write_report_html(report, read_patch, write); }));
  return {};
}

Expected<void> ReportFolder::append(const AttemptResult& attempt, long long run_duration_ms) const {
  return append_line(journal(), journal_line(attempt, run_duration_ms));
}

std::filesystem::path ReportFolder::journal() const { return journal_path(m_root / "report.json"); }

std::string ReportFolder::files_line(const std::filesystem::path& root) {
  return "reports: " + (root / "report.json").string() + ", " + (root / "junit.xml").string() + ", " +
         (root / "summary.md").string() + ", " + (root / "report.html").string() + "\n";
}

std::string ReportFolder::read_part(const std::string& relative, std::size_t max_bytes) const {
  auto file = open_regular_file(m_root, relative);
  if (!file) return {};
  std::string content(std::min<std::size_t>(max_bytes, static_cast<std::size_t>(file->info.st_size)), '\0');
  std::size_t got = 0;
  while (got < content.size()) {
    ssize_t n = ::read(file->fd.get(), content.data() + got, content.size() - got);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  content.resize(got);
  return content;
}

}  // namespace agent_run
