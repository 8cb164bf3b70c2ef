#pragma once

#include "exec/mount_survey.h"
#include "policy/command_checks.h"
#include "policy/policy.h"

#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// The survey one decision reads: the context's; or, when there is none and the call works in a
/// real workspace, one made now from the policy (kept in `made`, so once per decision at most).
const Survey* decision_survey(const Policy& policy, const DecisionContext& context, std::optional<Survey>& made);

/// A path a call names that is, by device and inode, a file the survey hides (under this name or
/// another: a hard link, or the file renamed since): the denial, with the hiding rule's id; nullopt
/// when none is. Callers check path rules first, so what this adds is what patterns cannot see.
std::optional<Decision> hidden_file_denial(const std::vector<CanonicalPath>& paths, const Survey& survey,
                                           const std::string& label, std::vector<std::string>& steps);

/// Checks of one command that need to know which files the policy hides: another name of a hidden
/// file; outside the sandbox (or inside one with no survey in the context: no mask plan known), a recursive reader
/// (policy/recursive_readers) of a folder that holds a hidden path; and, for git, a pathspec glob that could name a
/// hidden path (in the workspace or in the history, judged by the hiding rules' own patterns). nullopt when none denies
/// it.
std::optional<Decision> survey_denial(const Policy& policy, const CheckedCommand& checked,
                                      const DecisionContext& context, const std::string& label,
                                      std::vector<std::string>& steps);

}  // namespace agent_run
