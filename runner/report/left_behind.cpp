#include "report/left_behind.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

namespace agent_run {

namespace {

std::string key_of(const Problem& problem) {
  return problem.path + '\0' + problem.severity + '\0' + problem.code + '\0' + problem.message;
}

/// The problems of one key that the edits so far introduced and did not resolve, each at its own position.
struct Open {
  std::vector<std::pair<std::size_t, Problem>> problems;  // (order of introduction, problem)
  int fixed = 0;  // resolved beyond those introduced: problems from before the edits that an edit fixed
};

void resolve(Open& open, const Problem& resolved) {
  if (open.problems.empty()) {
    ++open.fixed;
    return;
  }
  auto same_place = std::find_if(open.problems.begin(), open.problems.end(), [&](const auto& entry) {
    return entry.second.line == resolved.line && entry.second.column == resolved.column;
  });
  open.problems.erase(same_place != open.problems.end() ? same_place : open.problems.begin());
}

}  // namespace

std::vector<Problem> problems_left_behind(const std::vector<EditRecord>& edits) {
  std::set<std::string> edited;
  for (const EditRecord& edit : edits) edited.insert(edit.path);
  std::map<std::string, Open> net;
  std::size_t order = 0;
  for (const EditRecord& edit : edits) {
    if (!edit.diagnostics) continue;
    for (const Problem& problem : edit.diagnostics->introduced) {
      if (!edited.count(problem.path)) continue;  // a file the agent never edited: never the edits' doing
      Open& open = net[key_of(problem)];
      if (open.fixed > 0) --open.fixed;  // fixed before, back again: as it was before the edits
      else open.problems.emplace_back(order++, problem);
    }
    for (const Problem& problem : edit.diagnostics->resolved) resolve(net[key_of(problem)], problem);
  }
  std::vector<std::pair<std::size_t, Problem>> ordered;
  for (auto& [key, open] : net) ordered.insert(ordered.end(), open.problems.begin(), open.problems.end());
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Problem> left;
  for (auto& [first, problem] : ordered) left.push_back(std::move(problem));
  return left;
}

std::vector<Problem> problems_left_behind(const AttemptResult& attempt) {
  for (const CheckRecord& check : attempt.checks) {
    if (check.run != "no_new_diagnostics" || (check.exit_code != 0 && check.exit_code != 1)) continue;
    if (check.passed) return {};  // the final tree was checked: nothing is left
    // Its output lists them, one a line, as batch/no_new_diagnostics writes them (at most ten).
    static const std::regex k_line(R"(^(.+?)(?::(\d+):(\d+))?: (error|warning): (.*)$)");
    std::vector<Problem> listed;
    std::size_t start = 0;
    while (start < check.output_tail.size()) {
      std::size_t end = check.output_tail.find('\n', start);
      if (end == std::string::npos) end = check.output_tail.size();
      const std::string line = check.output_tail.substr(start, end - start);
      start = end + 1;
      std::smatch match;
      if (!std::regex_match(line, match, k_line)) continue;
      Problem problem{match[1].str(), match[2].matched ? std::stoi(match[2].str()) : 0,
                      match[3].matched ? std::stoi(match[3].str()) : 0, match[4].str(), match[5].str(), "", false};
      std::size_t open = problem.message.rfind(" [");
      if (!problem.message.empty() && problem.message.back() == ']' && open != std::string::npos) {
        problem.code = problem.message.substr(open + 2, problem.message.size() - open - 3);
        problem.message.erase(open);
      }
      listed.push_back(std::move(problem));
    }
    return listed;
  }
  return problems_left_behind(attempt.edits);
}

}  // namespace agent_run
