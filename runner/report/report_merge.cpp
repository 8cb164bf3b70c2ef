#include "report/report_merge.h"

#include "base/files.h"
#include "base/text.h"
#include "report/report_folder.h"
#include "report/utc_time.h"

#include <algorithm>
#include <map>
#include <set>

namespace agent_run {

namespace {

std::string name_of(const MergeInput& input) { return "'" + input.folder.string() + "'"; }

std::string attempt_name(const AttemptResult& attempt) {
  return "'" + attempt.task_id + " #" + std::to_string(attempt.n) + " [" + attempt.model + "]'";
}

/// The same runner version and price table and, where set, the same policy in every input.
Expected<void> check_same_run_settings(const std::vector<MergeInput>& inputs) {
  const MergeInput* with_policy = nullptr;
  for (const MergeInput& input : inputs) {
    const MergeInput& first = inputs.front();
    if (input.report.runner_version != first.report.runner_version) {
      return make_error("mismatched runs: " + name_of(first) + " was written by agent-run " +
                        first.report.runner_version + " and " + name_of(input) + " by " + input.report.runner_version +
                        "; merge reports of one runner version");
    }
    if (input.report.price_table_version != first.report.price_table_version ||
        input.report.price_table_file != first.report.price_table_file) {
      return make_error("mismatched runs: " + name_of(first) + " priced its model calls with the price table " +
                        first.report.price_table_version + " (" + first.report.price_table_file + ") and " +
                        name_of(input) + " with " + input.report.price_table_version + " (" +
                        input.report.price_table_file + "); merge runs priced by one table (--prices)");
    }
    if (input.report.policy_sha256.empty()) continue;
    if (with_policy && with_policy->report.policy_sha256 != input.report.policy_sha256) {
      return make_error("mismatched runs: " + name_of(*with_policy) + " and " + name_of(input) +
                        " ran under different policies (--policy " + with_policy->report.policy_file + " and " +
                        input.report.policy_file + ")");
    }
    if (!with_policy) with_policy = &input;
  }
  return {};
}

/// Shards of one total, each at most once; returns the warnings for missing ones.
Expected<std::vector<std::string>> check_shards(const std::vector<MergeInput>& inputs) {
  std::map<int, const MergeInput*> seen;
  std::optional<int> total;
  const MergeInput* first_sharded = nullptr;
  for (const MergeInput& input : inputs) {
    if (!input.report.shard) continue;
    const ShardRecord& shard = *input.report.shard;
    if (total && *total != shard.total) {
      return make_error("mismatched runs: " + name_of(*first_sharded) + " is a shard of " + std::to_string(*total) +
                        " and " + name_of(input) + " a shard of " + std::to_string(shard.total));
    }
    total = shard.total;
    if (!first_sharded) first_sharded = &input;
    auto [at, inserted] = seen.emplace(shard.index, &input);
    if (!inserted) {
      return make_error("overlapping runs: " + name_of(*at->second) + " and " + name_of(input) + " are both shard " +
                        std::to_string(shard.index) + "/" + std::to_string(shard.total));
    }
  }
  std::vector<std::string> warnings;
  for (int index = 1; total && index <= *total; ++index) {
    if (!seen.count(index)) {
      warnings.push_back("shard " + std::to_string(index) + "/" + std::to_string(*total) +
                         " is missing: its attempts are not in the merged report");
    }
  }
  return warnings;
}

/// No attempt in two inputs, and every task's file the same wherever it ran.
Expected<void> check_attempts(const std::vector<MergeInput>& inputs) {
  std::map<std::tuple<std::string, std::string, int>, const MergeInput*> owners;
  std::map<std::string, std::pair<std::string, const MergeInput*>> task_files;
  for (const MergeInput& input : inputs) {
    for (const AttemptResult& attempt : input.report.attempts) {
      if (!is_identifier(attempt.task_id)) {
        return make_error(name_of(input) + ": '" + attempt.task_id + "' is not a task id");
      }
      auto [owner, fresh] = owners.emplace(std::tuple(attempt.task_id, attempt.model, attempt.n), &input);
      if (!fresh) {
        return make_error("overlapping runs: attempt " + attempt_name(attempt) + " is in both " +
                          name_of(*owner->second) + " and " + name_of(input));
      }
      auto [file, first_seen] = task_files.emplace(attempt.task_id, std::pair(attempt.task_sha256, &input));
      if (!first_seen && file->second.first != attempt.task_sha256) {
        return make_error("mismatched runs: task '" + attempt.task_id + "' has different task files in " +
                          name_of(*file->second.second) + " (sha256 " + file->second.first.substr(0, 12) + ") and " +
                          name_of(input) + " (sha256 " + attempt.task_sha256.substr(0, 12) +
                          "); merge runs of the same task files");
      }
    }
  }
  return {};
}

/// A relative path inside a report folder, as written by agent-run (no `..`, not absolute).
bool is_inside_path(const std::string& path) {
  std::filesystem::path relative(path);
  if (relative.is_absolute()) return false;
  return std::none_of(relative.begin(), relative.end(), [](const std::filesystem::path& part) { return part == ".."; });
}

/// The merged run's own fields: earliest start, the span to the latest end, any interruption.
RunReport merged_run(const std::vector<MergeInput>& inputs, const std::vector<std::string>& command_line) {
  RunReport run;
  run.runner_version = inputs.front().report.runner_version;
  run.price_table_version = inputs.front().report.price_table_version;
  run.price_table_file = inputs.front().report.price_table_file;
  run.command_line = command_line;
  std::optional<long long> first_start;
  long long last_end = 0;
  for (const MergeInput& input : inputs) {
    const RunReport& report = input.report;
    if (!report.policy_sha256.empty()) {
      run.policy_file = report.policy_file;
      run.policy_sha256 = report.policy_sha256;
    }
    run.interrupted = run.interrupted || report.interrupted;
    run.duration_ms = std::max(run.duration_ms, report.duration_ms);
    if (std::optional<long long> start = parse_utc_ms(report.started_at)) {
      if (!first_start || *start < *first_start) {
        first_start = *start;
        run.started_at = report.started_at;
      }
      last_end = std::max(last_end, *start + report.duration_ms);
    }
  }
  if (first_start) run.duration_ms = std::max(run.duration_ms, last_end - *first_start);
  return run;
}

/// Moves an attempt's file path to its merged folder and records the copy.
void relocate(std::string& path, const std::string& folder, const MergeInput& input, MergedReport& merged) {
  if (path.empty()) return;
  std::string moved = folder + "/" + std::filesystem::path(path).filename().string();
  merged.copies.push_back(FileCopy{input.folder / path, moved});
  path = moved;
}

}  // namespace

Expected<MergedReport> merge_reports(const std::vector<MergeInput>& inputs,
                                     const std::vector<std::string>& command_line) {
  if (inputs.empty()) return make_error("nothing to merge");
  AR_TRY(check_same_run_settings(inputs));
  auto warnings = check_shards(inputs);
  if (!warnings) return warnings.error();
  AR_TRY(check_attempts(inputs));
  MergedReport merged{merged_run(inputs, command_line), {}, std::move(*warnings)};
  std::vector<std::pair<const AttemptResult*, const MergeInput*>> attempts;
  std::map<std::string, std::set<std::string>> models_of_task;
  for (const MergeInput& input : inputs) {
    for (const AttemptResult& attempt : input.report.attempts) {
      if (!is_inside_path(attempt.transcript_path) || !is_inside_path(attempt.patch_path)) {
        return make_error(name_of(input) + ": attempt " + attempt_name(attempt) + " names a file outside its folder");
      }
      attempts.emplace_back(&attempt, &input);
      models_of_task[attempt.task_id].insert(attempt.model);
    }
  }
  std::stable_sort(attempts.begin(), attempts.end(),
                   [](const auto& a, const auto& b) { return a.first->task_id < b.first->task_id; });
  for (const auto& [source, input] : attempts) {
    AttemptResult attempt = *source;
    ModelInPath model_in_path = models_of_task[attempt.task_id].size() > 1 ? ModelInPath::shown : ModelInPath::omitted;
    std::string folder = ReportFolder::attempt_folder(attempt.task_id, attempt.model, attempt.n, model_in_path);
    relocate(attempt.transcript_path, folder, *input, merged);
    relocate(attempt.patch_path, folder, *input, merged);
    merged.report.attempts.push_back(std::move(attempt));
  }
  return merged;
}

Expected<std::vector<std::string>> copy_merged_files(const MergedReport& merged, const std::filesystem::path& out) {
  std::vector<std::string> missing;
  for (const FileCopy& copy : merged.copies) {
    std::error_code ec;
    if (!std::filesystem::exists(copy.from, ec)) {
      missing.push_back(copy.from.string());
      continue;
    }
    auto content = read_file(copy.from);
    if (!content) return content.error();
    AR_TRY(write_file_atomically(out / copy.to, *content));
  }
  return missing;
}

}  // namespace agent_run
