#pragma once

#include "batch/attempt_plan.h"
#include "batch/run_attempt.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// The model client one attempt talks to, and what its replay let pass when it is one.
struct AttemptModel {
  std::unique_ptr<ModelClient> client;
  std::function<std::vector<std::string>()> replay_warnings;  // loose mode's: they go on the attempt; unset: none
};

/// Where an attempt's recorded exchanges are, inside a report folder.
std::filesystem::path exchanges_file(const std::filesystem::path& report_folder, const AttemptPlan& plan);

/// The report folder an attempt is replayed from: --replay's, else the task's `replay:` when it
/// runs `model: replay`; nullopt when the attempt talks to its model.
std::optional<std::filesystem::path> replay_folder_of(const AttemptPlan& plan, const AttemptSettings& settings);

/// The attempt's model: replayed from the recording of the same attempt (no model API, no key:
/// a model behind an API through its real client over the recorded bytes, the scripted model from
/// its recorded turns); else the run's factory. With --record, every exchange is kept in the
/// attempt's folder, the task's secret values and the API key redacted.
Expected<AttemptModel> make_attempt_model(const AttemptPlan& plan, const AttemptSettings& settings,
                                          const std::filesystem::path& workspace);

}  // namespace agent_run
