#include "report/report_folder.h"

#include "base/files.h"
#include "report/report_writers.h"

#include <cctype>

namespace agent_run {

ReportFolder::ReportFolder(std::filesystem::path root) : m_root(std::move(root)) {}

std::string ReportFolder::attempt_folder(const std::string& task_id, const std::string& model, int repeat_index,
                                         ModelInPath model_in_path) {
  const std::string repeat = std::to_string(repeat_index + 1);
  if (model_in_path == ModelInPath::omitted) return "attempts/" + task_id + "/" + repeat;
  std::string name;
  for (char c : model) {
    bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    name += keep ? c : '-';
  }
  if (name.empty() || name.front() == '.') name.insert(0, "m");
  return "attempts/" + task_id + "/" + name + "/" + repeat;
}

Expected<void> ReportFolder::write(const RunReport& report) const {
  AR_TRY(write_file_atomically(m_root / "report.json", report_to_json(report).dump_pretty()));
  AR_TRY(write_file_atomically(m_root / "junit.xml", report_to_junit(report)));
  return {};
}

}  // namespace agent_run
