#pragma once

#include "base/expected.h"
#include "report/run_report.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// One file the agent edited, checked again on the final tree at the end of the attempt by the
/// per-edit checker: its own problems (not its neighbours'), and those of the content it had before
/// the agent (none for a file the agent created) with the rest of the tree as it is now.
struct FinalFileCheck {
  std::vector<Problem> problems;
  std::optional<std::vector<Problem>> before_agent;  // nullopt: the checker could not check that content
};

/// The re-check of the file at a workspace-relative path; fails when it gave no answer (a
/// timeout, no checker any more), saying why.
using RecheckFile = std::function<Expected<FinalFileCheck>(const std::string& path)>;

/// What a `no_new_diagnostics: project` gate of the same attempt found, when it could be judged:
/// the files its checkers read, and the problems the final tree has and the baseline has not.
struct ProjectFindings {
  std::function<bool(const std::string& path)> reads;
  std::vector<Problem> introduced;
};

/// `problems` one a line, `path:line:col: severity: message [code]` (the message's first line), at
/// most as many as the per-edit text shows, then a count of the rest.
std::string problem_lines(const std::vector<Problem>& problems);

/// The `no_new_diagnostics: true` check: passes when the attempt's edits leave no problem they
/// introduced in a file the agent edited (one in a file it never edited is never counted). The
/// edits' records say which files an edit left a problem in (introduced and not resolved by a later
/// one, report/left_behind); each of them, and each file whose check timed out, is checked again on
/// the final tree with `recheck`, and counts the problems it has there and had not before the agent
/// (known from the records, else from the re-check). A file a project gate of the attempt reads is
/// judged by that gate's findings instead, so that the two never disagree. `diagnostics_on` false
/// (--no-diagnostics), or a re-check that gives no answer: it cannot be judged (exit_code -1).
/// Without `recheck` (the records alone), the records' problems count and a timeout is ignored.
CheckRecord judge_no_new_diagnostics(const std::vector<EditRecord>& edits, bool diagnostics_on,
                                     const RecheckFile& recheck = {},
                                     const std::vector<ProjectFindings>& projects = {});

}  // namespace agent_run
