#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// What the policy hides from the file tools, asked of each path a walk or a search meets. Built
/// above (policy/scope_context) from the policy's deny rules and the survey; empty: nothing hidden.
struct HiddenPaths {
  /// The id of the rule that hides a workspace-relative path as walked (it holds no symlink), or "".
  std::function<std::string(std::string_view relative)> rule_of_path;
  /// The id of the rule that hides a regular file, by what stat says of it (its device and inode:
  /// another name of it, or the file renamed since the survey), or "".
  std::function<std::string(const struct stat& file)> rule_of_file;

  explicit operator bool() const { return rule_of_path || rule_of_file; }

  /// The rule hiding `relative`, found by path and then, for a regular file, by the file open as
  /// `fd` (or, with fd < 0, named `name` in `folder_fd`); "" when nothing hides it.
  std::string rule_of(std::string_view relative, int folder_fd, const char* name, int fd = -1) const;
};

/// The paths a search or listing left out because the policy hides them.
struct Withheld {
  std::size_t count = 0;
  std::vector<std::string> rules;  // each hiding rule once, in the order met

  void add(const std::string& rule);
  /// The line the model reads, the same whichever backend searched: "[2 paths here that the policy
  /// hides (rule 'secrets') were not searched]" (`done`: "searched", "listed"); "" when none.
  std::string note(std::string_view done) const;
};

/// The rule id inside a survey's reason ("another name of .env (secrets)" gives "secrets"; a plain id is itself).
std::string innermost_rule(const std::string& reason);

}  // namespace agent_run
