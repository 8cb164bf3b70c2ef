#pragma once

#include "batch/attempt_plan.h"
#include "batch/run_attempt.h"
#include "model/replay_client.h"

#include <filesystem>
#include <memory>
#include <string>

namespace agent_run {

/// The model client one attempt talks to, and the replay behind it when there is one.
struct AttemptModel {
  std::unique_ptr<ModelClient> client;
  const ReplayClient* replay = nullptr;  // --replay: its warnings (loose mode) go on the attempt
};

/// Where an attempt's recorded exchanges are, inside a report folder.
std::filesystem::path exchanges_file(const std::filesystem::path& report_folder, const AttemptPlan& plan);

/// The attempt's model: with --replay, the recording of the same attempt in the replayed report
/// folder (no model API, no key); else the run's factory. With --record, wrapped to keep every
/// exchange in the attempt's folder, the task's secret values redacted.
Expected<AttemptModel> make_attempt_model(const AttemptPlan& plan, const AttemptSettings& settings,
                                          const std::filesystem::path& workspace);

}  // namespace agent_run
