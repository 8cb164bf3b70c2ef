#pragma once

#include "policy/command_paths.h"
#include "policy/command_views.h"
#include "policy/policy.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// One simple command seen every way deny rules and protected paths look at it.
struct CheckedCommand {
  const SimpleCommand* command = nullptr;
  CommandViews views;
  CommandPaths paths;
};

/// The views of `command` (its wrapped scripts read as `reading` says) and the paths they name.
CheckedCommand check_command(const SimpleCommand& command, ScriptReading reading, const DecisionContext& context);

/// Why a checked command cannot be decided (a wrapped script, a word or a path that cannot be
/// checked), or an empty string.
std::string check_problem(const CheckedCommand& checked);

/// Protected paths, deny rules and then what the survey knows (policy/survey_checks: other names of
/// hidden files, recursive readers, git pathspec globs) over every view of one checked command;
/// nullopt when none denies it. `label` names the command in the reason and in `steps`, which gains the deciding step.
std::optional<Decision> command_denial(const Policy& policy, const CheckedCommand& checked,
                                       const DecisionContext& context, const std::string& label,
                                       std::vector<std::string>& steps);

/// A deny rule for bash with no matcher at all: it denies every bash call, whatever the command.
std::optional<Decision> bash_denied_outright(const Policy& policy, std::vector<std::string>& steps);

/// A denial because the call cannot be checked, with `reason` as its last step.
Decision not_understood(std::string reason, std::vector<std::string> steps);

/// How messages name one command of a line: "command 2 `ls -la`" (`noun` "command" or "part"; one
/// line, cut when long).
std::string command_label(std::string_view noun, std::size_t index, std::string_view text);

/// "rule 'ID' (line N)", or "(line N of ORIGIN)" for a rule taken over by `extends:`.
std::string rule_label(const Rule& rule);

}  // namespace agent_run
