#pragma once

#include "policy/command_views.h"
#include "policy/path_pattern.h"
#include "policy/policy.h"

#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// The paths one command names, as path rules and protected paths see them, or why they cannot
/// all be checked.
struct CommandPaths {
  std::vector<CanonicalPath> paths;
  std::string problem;  // a word too long to be a path; without the sandbox, a path through /proc/self and kin
};

/// Every path a command may name: each word of each view, each redirection target (not a `2>&1`
/// duplication) and each NAME=value assignment; for every such word also each part after an `=`
/// and each piece between `=`, `:` and `,` (`--override-ini=cache_dir=.git/x` gives `.git/x`,
/// `HEAD:.env` gives `.env`); for git, pathspec magic is removed first (`:(top).env`, `:/x`,
/// `:!x`). Relative words are also resolved from the folder an earlier `cd` of the line moved to.
/// A word over 4,096 bytes is a problem (no path check could see what it names); so, unless
/// `context.sandboxed`, is a path through /proc/self, /proc/thread-self, /proc/<pid>, /dev/fd or
/// /dev/std*, which name another process for the command than for agent-run.
CommandPaths command_paths(const CommandViews& views, const DecisionContext& context);

/// The texts of a word that are checked as paths: the word, each part after an `=`, each piece
/// between `=`, `:` and `,`, without repeats.
std::vector<std::string_view> word_parts(std::string_view word);

/// The problem a magic path makes for a process outside the sandbox, naming `written` as the call wrote it.
std::string magic_path_problem(std::string_view written, const CanonicalPath& path);

}  // namespace agent_run
