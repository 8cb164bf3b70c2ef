#include "report/aggregates.h"

#include <map>

namespace agent_run {

namespace {

template <typename KeyOf>
std::vector<AttemptGroup> group_by(const RunReport& report, KeyOf key_of) {
  std::vector<AttemptGroup> groups;
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < report.attempts.size(); ++i) {
    const AttemptResult& attempt = report.attempts[i];
    auto [entry, fresh] = index.try_emplace(key_of(attempt), groups.size());
    if (fresh) groups.push_back(AttemptGroup{entry->first, RunTotals{}, {}});
    AttemptGroup& group = groups[entry->second];
    add_to_totals(group.totals, attempt);
    group.attempts.push_back(i);
  }
  return groups;
}

}  // namespace

std::vector<AttemptGroup> group_by_task(const RunReport& report) {
  return group_by(report, [](const AttemptResult& attempt) { return attempt.task_id; });
}

std::vector<AttemptGroup> group_by_model(const RunReport& report) {
  return group_by(report, [](const AttemptResult& attempt) { return attempt.model; });
}

std::string attempt_label(const AttemptResult& attempt, bool show_model) {
  std::string label = attempt.task_id + " #" + std::to_string(attempt.n);
  return show_model ? label + " [" + attempt.model + "]" : label;
}

bool several_models(const RunReport& report) {
  for (const AttemptResult& attempt : report.attempts) {
    if (attempt.model != report.attempts.front().model) return true;
  }
  return false;
}

}  // namespace agent_run
