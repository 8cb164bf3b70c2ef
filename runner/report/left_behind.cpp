#include "report/left_behind.h"

#include <algorithm>
#include <map>
#include <optional>

namespace agent_run {

namespace {

std::string key_of(const Problem& problem) {
  return problem.path + '\0' + problem.severity + '\0' + problem.code + '\0' + problem.message;
}

}  // namespace

std::vector<Problem> problems_left_behind(const std::vector<EditRecord>& edits) {
  struct Net {
    int count = 0;                     // introduced minus resolved (below zero: a problem from before the edits fixed)
    std::optional<std::size_t> first;  // order of first introduction
    Problem latest;
  };
  std::map<std::string, Net> net;
  std::size_t order = 0;
  for (const EditRecord& edit : edits) {
    if (!edit.diagnostics) continue;
    for (const Problem& problem : edit.diagnostics->introduced) {
      Net& entry = net[key_of(problem)];
      if (!entry.first) entry.first = order++;
      entry.count += 1;
      entry.latest = problem;
    }
    for (const Problem& problem : edit.diagnostics->resolved) net[key_of(problem)].count -= 1;
  }
  std::vector<std::pair<std::size_t, Problem>> ordered;
  for (const auto& [key, entry] : net) {
    for (int i = 0; i < entry.count; ++i) ordered.emplace_back(*entry.first, entry.latest);
  }
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Problem> left;
  for (auto& [first, problem] : ordered) left.push_back(std::move(problem));
  return left;
}

}  // namespace agent_run
