#pragma once

#include "base/expected.h"
#include "report/run_report.h"

#include <filesystem>
#include <string>
#include <vector>

namespace agent_run {

/// One report folder given to merge: where it is and what its report.json holds.
struct MergeInput {
  std::filesystem::path folder;
  RunReport report;
};

/// A file of an input folder that belongs in the merged folder.
struct FileCopy {
  std::filesystem::path from;  // absolute or relative to the current folder
  std::string to;              // relative to the merged folder
};

/// The merge of several report folders: the report, the transcripts and patches to copy, and what
/// a person should know (missing shards).
struct MergedReport {
  RunReport report;
  std::vector<FileCopy> copies;
  std::vector<std::string> warnings;
};

/// Joins the reports of shards (or of several runs) into one, as an unsharded run would have
/// written it: attempts in task id order (each input's order kept within a task), attempt folders
/// named as that run would name them, totals left to the writers to recompute. Refuses, naming
/// the folders: an attempt (task, model, repeat) in two inputs, the same shard twice, shards of
/// different totals, a task whose file differs between inputs, different runner versions or
/// policies. `command_line` becomes the merged run's.
Expected<MergedReport> merge_reports(const std::vector<MergeInput>& inputs,
                                     const std::vector<std::string>& command_line);

/// Copies every file of `merged.copies` into `out`, atomically each; a missing source is skipped
/// (an attempt that never wrote its patch) and reported in the returned list.
Expected<std::vector<std::string>> copy_merged_files(const MergedReport& merged, const std::filesystem::path& out);

}  // namespace agent_run
