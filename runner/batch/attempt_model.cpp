#include "batch/attempt_model.h"

#include "batch/attempt_environment.h"
#include "model/recording_client.h"

namespace agent_run {

std::filesystem::path exchanges_file(const std::filesystem::path& report_folder, const AttemptPlan& plan) {
  return report_folder / plan.folder / "model_exchanges.jsonl";
}

Expected<AttemptModel> make_attempt_model(const AttemptPlan& plan, const AttemptSettings& settings,
                                          const std::filesystem::path& workspace) {
  std::vector<std::string> secrets = secret_values_of(*plan.task, settings);
  AttemptModel model;
  if (settings.replay) {
    auto recording = read_recording(exchanges_file(settings.replay->folder, plan));
    if (!recording) return recording.error();
    auto replay = std::make_unique<ReplayClient>(std::move(*recording), settings.replay->mode, workspace.string(), secrets);
    model.replay = replay.get();
    model.client = std::move(replay);
  } else {
    auto made = settings.make_model(*plan.task, plan.model, plan.n);
    if (!made) return made.error();
    model.client = std::move(*made);
  }
  if (settings.record) {
    model.client = std::make_unique<RecordingClient>(std::move(model.client), exchanges_file(settings.reports->root(), plan),
                                                     workspace.string(), std::move(secrets));
  }
  return model;
}

}  // namespace agent_run
