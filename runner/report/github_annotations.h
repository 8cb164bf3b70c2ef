#pragma once

#include "report/run_report.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// Where an attempt's files are in the workflow's repository, relative to its root (`src/a.py`):
/// `in_workspace` for a path relative to the attempt's workspace, `task_file` for its task file;
/// nullopt when outside the repository (the annotation then names no file).
struct RepositoryPaths {
  std::function<std::optional<std::string>(const AttemptResult&, const std::string& in_workspace)> in_workspace;
  std::function<std::optional<std::string>(const AttemptResult&)> task_file;
};

/// GitHub shows at most 10 error and 10 warning annotations of one step (and 50 of a job).
struct AnnotationLimits {
  std::size_t errors = 10;
  std::size_t warnings = 10;
};

/// The annotations of a run, as workflow command lines: each failed setup or check (an error on the
/// task file, its output's last lines as the message), then each problem the attempts' edits
/// introduced and left behind (an error or a warning on its file, line and column), once per problem
/// with the attempts that left it; at most the limits, failures first, then one notice that counts
/// the rest.
std::vector<std::string> annotation_commands(const RunReport& report, const RepositoryPaths& paths,
                                             const AnnotationLimits& limits = {});

}  // namespace agent_run
