#pragma once

#include "base/expected.h"
#include "report/run_report.h"

#include <filesystem>
#include <string>

namespace agent_run {

/// Whether an attempt's folder names its model: only when its task runs with several models.
enum class ModelInPath { omitted, shown };

/// Whether a write also rewrites the pages for people, summary.md and report.html, which take longer
/// than report.json and junit.xml with many attempts.
enum class ReportPages { kept, written };

/// The --out folder: report.json and junit.xml, rewritten atomically after every attempt; summary.md
/// and report.html; one folder per attempt (attempts/<task-id>/<n>/) for its transcript and patch.
class ReportFolder {
 public:
  explicit ReportFolder(std::filesystem::path root);

  const std::filesystem::path& root() const { return m_root; }
  /// Relative to the folder: attempts/<task-id>/<n> (n counts from 1), or attempts/<task-id>/<model>/<n> with the model
  /// made safe as one folder name (`anthropic/claude` becomes `anthropic-claude`).
  static std::string attempt_folder(const std::string& task_id, const std::string& model, int n,
                                    ModelInPath model_in_path);
  /// Writes report.json and junit.xml for `report` as it stands, and with ReportPages::written
  /// summary.md and report.html too; each atomically (a temporary file, then a rename).
  Expected<void> write(const RunReport& report, ReportPages pages = ReportPages::written) const;
  /// The console's line naming the folder's reports: `reports: out/report.json, out/junit.xml, ...`.
  static std::string files_line(const std::filesystem::path& root);
  /// At most `max_bytes` of the regular file `relative` in the folder (an attempt's patch), opened
  /// beneath it (no symlink, no `..`); empty when it is not there.
  std::string read_part(const std::string& relative, std::size_t max_bytes) const;

 private:
  std::filesystem::path m_root;
};

}  // namespace agent_run
