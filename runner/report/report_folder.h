#pragma once

#include "base/expected.h"
#include "report/run_report.h"

#include <filesystem>
#include <string>

namespace agent_run {

/// Whether an attempt's folder names its model: only when its task runs with several models.
enum class ModelInPath { omitted, shown };

/// What a whole write does with the journal beside report.json: a run's writes start it afresh
/// (what finishes next is appended to it), the last one and merge's remove it.
enum class Journal { removed, restarted };

/// The --out folder: report.json, junit.xml, summary.md and report.html, each rewritten whole and
/// atomically now and then; the journal (report_journal.h), to which each attempt is appended as it
/// finishes; one folder per attempt (attempts/<task-id>/<n>/) for its transcript and patch.
/// Virtual so that tests can count the writes a run makes.
class ReportFolder {
 public:
  explicit ReportFolder(std::filesystem::path root);
  virtual ~ReportFolder() = default;

  const std::filesystem::path& root() const { return m_root; }
  /// Relative to the folder: attempts/<task-id>/<n> (n counts from 1), or attempts/<task-id>/<model>/<n> with the model
  /// made safe as one folder name (`anthropic/claude` becomes `anthropic-claude`).
  static std::string attempt_folder(const std::string& task_id, const std::string& model, int n,
                                    ModelInPath model_in_path);
  /// Writes report.json, junit.xml, summary.md and report.html for `report` as it stands, each
  /// atomically (a temporary file, then a rename); right after report.json, starts the journal
  /// afresh (naming the new report.json) or removes it.
  virtual Expected<void> write(const RunReport& report, Journal journal = Journal::removed) const;
  /// Appends a finished attempt to the journal, with the run's duration so far: O(1), flushed to
  /// disk before it returns. The attempt must be in the next write's report too.
  virtual Expected<void> append(const AttemptResult& attempt, long long run_duration_ms) const;
  /// The journal's path: report.journal.jsonl in the folder.
  std::filesystem::path journal() const;
  /// The console's line naming the folder's reports: `reports: out/report.json, out/junit.xml, ...`.
  static std::string files_line(const std::filesystem::path& root);
  /// At most `max_bytes` of the regular file `relative` in the folder (an attempt's patch), opened
  /// beneath it (no symlink, no `..`); empty when it is not there.
  std::string read_part(const std::string& relative, std::size_t max_bytes) const;

 private:
  std::filesystem::path m_root;
};

}  // namespace agent_run
