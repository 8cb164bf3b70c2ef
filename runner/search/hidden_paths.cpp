#include "search/hidden_paths.h"

#include <fcntl.h>

#include <algorithm>

namespace agent_run {

std::string HiddenPaths::rule_of(std::string_view relative, int folder_fd, const char* name, int fd) const {
  if (rule_of_path) {
    if (std::string rule = rule_of_path(relative); !rule.empty()) return rule;
  }
  if (!rule_of_file) return {};
  struct stat status {};
  const int found = fd >= 0 ? ::fstat(fd, &status) : ::fstatat(folder_fd, name, &status, AT_SYMLINK_NOFOLLOW);
  if (found != 0 || !S_ISREG(status.st_mode)) return {};
  return rule_of_file(status);
}

void Withheld::add(const std::string& rule) {
  ++count;
  if (std::find(rules.begin(), rules.end(), rule) == rules.end()) rules.push_back(rule);
}

std::string Withheld::note(std::string_view done) const {
  if (count == 0) return {};
  std::string names;
  for (const std::string& rule : rules) names += (names.empty() ? "'" : ", '") + rule + "'";
  return "[" + std::to_string(count) + (count == 1 ? " path" : " paths") + " here that the policy hides (" +
         (rules.size() == 1 ? "rule " : "rules ") + names + ") " + (count == 1 ? "was" : "were") + " not " +
         std::string(done) + "]\n";
}

std::string innermost_rule(const std::string& reason) {
  std::size_t open = reason.rfind('(');
  if (open == std::string::npos) return reason;
  std::string id = reason.substr(open + 1);
  while (!id.empty() && id.back() == ')') id.pop_back();
  return id;
}

}  // namespace agent_run
