#pragma once

#include "base/expected.h"
#include "base/json.h"
#include "model/model_client.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// How a replay treats a request that differs from the recorded one.
enum class ReplayMode {
  strict,  // an error: the attempt ends as model.unavailable, with the first difference shown
  loose,   // a warning on the attempt; the recorded answer is played all the same
};

/// One recorded exchange: the request (as JSON text, for comparing) and the answer.
struct RecordedExchange {
  Json request;
  std::optional<Json> response;  // nullopt: the call failed when it was recorded
  std::string error;
};

/// A recording read back: the model it was made with, its workspace, its exchanges in order.
struct Recording {
  std::string model;
  std::string workspace;
  std::vector<RecordedExchange> exchanges;
};

/// Reads a model_exchanges.jsonl that RecordingClient wrote; errors name the file and line.
Expected<Recording> read_recording(const std::filesystem::path& file);

/// Plays a recording back instead of a model (`--replay DIR`): no network, no key. Each request
/// the agent loop sends is compared with the recorded one, both normalised (the workspace folder,
/// dates); the tools still run for real, so a changed tool, policy or prompt shows up as a
/// request that differs.
class ReplayClient final : public ModelClient {
 public:
  ReplayClient(Recording recording, ReplayMode mode, std::string workspace, std::vector<std::string> secret_values);

  std::string model_name() const override { return m_recording.model; }
  Expected<ModelTurn> complete(const Conversation& conversation, const std::vector<ToolSchema>& tools) override;

  /// What loose mode let pass: one line for each request that differed.
  const std::vector<std::string>& warnings() const { return m_warnings; }

 private:
  Recording m_recording;
  ReplayMode m_mode;
  std::string m_workspace;
  std::vector<std::string> m_secrets;
  std::size_t m_next = 0;
  std::vector<std::string> m_warnings;
};

}  // namespace agent_run
