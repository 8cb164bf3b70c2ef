#include "batch/resume.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace agent_run {

namespace {

/// Why `attempt`, finished and not kept, is dropped.
std::string why_dropped(const AttemptResult& attempt, const std::vector<AttemptPlan>& plans,
                        const std::set<std::string>& planned, const std::set<std::string>& kept) {
  const std::string key = attempt_key(attempt);
  if (kept.count(key)) return "another result of the same attempt is kept";
  if (planned.count(key)) return "";
  auto same_task = [&](const AttemptPlan& plan) { return plan.task->id == attempt.task_id; };
  auto plan = std::find_if(plans.begin(), plans.end(), same_task);
  if (plan == plans.end()) return "its task is not in this run";
  if (plan->task->source_sha256 != attempt.task_sha256) return "its task file changed";
  return "this run does not plan it (another --model, --repeat or --shard)";
}

/// The attempt's folder in the report folder, from its transcript's or patch's path.
std::string folder_of(const AttemptResult& attempt) {
  const std::string& file = !attempt.transcript_path.empty() ? attempt.transcript_path : attempt.patch_path;
  return std::filesystem::path(file).parent_path().string();
}

}  // namespace

ResumeState resume_from(const RunReport& previous, const std::vector<AttemptPlan>& plans) {
  std::set<std::string> planned;
  for (const AttemptPlan& plan : plans) planned.insert(attempt_key(plan));
  ResumeState state;
  std::set<std::string> kept;
  for (const AttemptResult& attempt : previous.attempts) {
    if (attempt.outcome_type == OutcomeType::interrupted) {
      ++state.interrupted;
    } else if (attempt.outcome_type == OutcomeType::run_budget) {
      ++state.over_budget;
    } else if (std::string why = why_dropped(attempt, plans, planned, kept); !why.empty()) {
      state.dropped.push_back({attempt, why});
    } else {
      kept.insert(attempt_key(attempt));
      state.done.push_back(attempt);
    }
  }
  return state;
}

std::vector<const AttemptPlan*> plans_to_run(const std::vector<AttemptPlan>& plans,
                                             const std::vector<AttemptResult>& held) {
  std::set<std::string> keys;
  for (const AttemptResult& attempt : held) keys.insert(attempt_key(attempt));
  std::vector<const AttemptPlan*> todo;
  for (const AttemptPlan& plan : plans) {
    if (!keys.count(attempt_key(plan))) todo.push_back(&plan);
  }
  return todo;
}

std::string folder_to_remove(const DroppedResult& dropped, const ResumeState& state) {
  const std::string folder = folder_of(dropped.attempt);
  const std::filesystem::path path(folder);
  if (folder.empty() || path.is_absolute() || !folder.starts_with("attempts/")) return "";
  for (const auto& part : path) {
    if (part == "..") return "";
  }
  auto shares = [&](const AttemptResult& kept) { return folder_of(kept) == folder; };
  if (std::any_of(state.done.begin(), state.done.end(), shares)) return "";
  return folder;
}

}  // namespace agent_run
