#include "batch/attempt_model.h"

#include "batch/attempt_environment.h"
#include "model/model_names.h"
#include "model/recording_client.h"
#include "model/scripted_model.h"
#include "model/wire_recorder.h"
#include "model/wire_replay.h"

namespace agent_run {

namespace {

/// What a replay brings to the attempt's model: the scripted model's recorded turns as the client,
/// or, for a model behind an API, the transport that serves its recorded bytes.
struct Replayed {
  std::unique_ptr<ModelClient> client;
  std::shared_ptr<ReplayTransport> transport;
  std::function<std::vector<std::string>()> warnings;
};

Expected<Replayed> replay_of(const AttemptPlan& plan, const AttemptSettings& settings, Recording recording,
                             const std::string& workspace, const std::vector<std::string>& secrets) {
  const ReplayMode mode = settings.replay ? settings.replay->mode : ReplayMode::strict;
  if (!is_replayed_model(plan.model) && recording.model != plan.model) {
    return make_error("replay: " + recording.file.string() + " was recorded with " + recording.model +
                      "; this attempt runs " + plan.model + " (replay with the --model it was recorded with)");
  }
  Replayed replayed;
  if (recording.provider == "script") {
    auto client = std::make_unique<ReplayClient>(std::move(recording), mode, workspace, secrets);
    const ReplayClient* replay = client.get();  // owned by the attempt's model, which outlives the warnings' reading
    replayed.warnings = [replay] { return replay->warnings(); };
    replayed.client = std::move(client);
    return replayed;
  }
  replayed.transport = std::make_shared<ReplayTransport>(std::move(recording), mode, workspace, secrets);
  replayed.warnings = [transport = replayed.transport] { return transport->warnings(); };
  return replayed;
}

}  // namespace

std::filesystem::path exchanges_file(const std::filesystem::path& report_folder, const AttemptPlan& plan) {
  return report_folder / plan.folder / "model_exchanges.jsonl";
}

std::optional<std::filesystem::path> replay_folder_of(const AttemptPlan& plan, const AttemptSettings& settings) {
  if (settings.replay && !settings.replay->folder.empty()) return settings.replay->folder;
  if (is_replayed_model(plan.model) && plan.task->replay) return plan.task->replay;
  return std::nullopt;
}

Expected<AttemptModel> make_attempt_model(const AttemptPlan& plan, const AttemptSettings& settings,
                                          const std::filesystem::path& workspace) {
  std::vector<std::string> secrets = secret_values_of(*plan.task, settings);
  AttemptModel model;
  Replayed replayed;
  std::string model_name = plan.model;
  if (auto folder = replay_folder_of(plan, settings)) {
    auto recording = read_recording(exchanges_file(*folder, plan));
    if (!recording) return recording.error();
    model_name = recording->model;
    AR_TRY_ASSIGN(replayed, replay_of(plan, settings, std::move(*recording), workspace.string(), secrets));
    model.replay_warnings = replayed.warnings;
  }
  const bool has_wire = !is_scripted_model(model_name);
  std::shared_ptr<WireTransport> wire = replayed.transport;
  std::shared_ptr<WireRecorder> recorder;
  if (settings.record && has_wire) {
    recorder = std::make_shared<WireRecorder>(wire ? wire : network_transport(), secrets);
    wire = recorder;
  }
  if (replayed.client) {
    model.client = std::move(replayed.client);
  } else {
    auto made = settings.make_model(*plan.task, model_name, plan.n, wire);
    if (!made) return made.error();
    model.client = std::move(*made);
    if (replayed.transport) model.client = std::make_unique<ReplayedApiClient>(std::move(model.client), replayed.transport);
  }
  if (settings.record) {
    model.client = std::make_unique<RecordingClient>(std::move(model.client), exchanges_file(settings.reports->root(), plan),
                                                     workspace.string(), std::move(secrets), recorder);
  }
  return model;
}

}  // namespace agent_run
