#pragma once

#include "base/expected.h"
#include "report/run_report.h"

#include <filesystem>
#include <string>

namespace agent_run {

/// Whether an attempt's folder names its model: only when its task runs with several models.
enum class ModelInPath { omitted, shown };

/// The --out folder: report.json and junit.xml, rewritten atomically after every attempt, and one
/// folder per attempt (attempts/<task-id>/<n>/) for its transcript and patch.
class ReportFolder {
 public:
  explicit ReportFolder(std::filesystem::path root);

  const std::filesystem::path& root() const { return m_root; }
  /// Relative to the folder: attempts/<task-id>/<n> (n counts from 1), or attempts/<task-id>/<model>/<n> with the model
  /// made safe as one folder name (`anthropic/claude` becomes `anthropic-claude`).
  static std::string attempt_folder(const std::string& task_id, const std::string& model, int repeat_index,
                                    ModelInPath model_in_path);
  /// Writes report.json and junit.xml for `report` as it stands.
  Expected<void> write(const RunReport& report) const;

 private:
  std::filesystem::path m_root;
};

}  // namespace agent_run
