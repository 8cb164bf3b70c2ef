#pragma once

#include "base/expected.h"
#include "base/json.h"
#include "model/model_client.h"
#include "model/wire_try.h"

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

/// One recorded call: its tries over the wire (a model behind an API), or the provider-neutral
/// request and the turn (the scripted model).
struct RecordedExchange {
  std::vector<WireTry> tries;    // API: every try, failed ones first, as they happened
  Json request;                  // scripted: the request as the agent loop made it
  std::optional<Json> response;  // scripted: the turn; nullopt when the call failed
  std::string error;             // the call's error when it failed
};

/// A recording read back: the file, the model it was made with and its provider (`script` for
/// the scripted model), its workspace, its exchanges in order.
struct Recording {
  std::filesystem::path file;
  std::string model;
  std::string provider;
  std::string workspace;
  std::vector<RecordedExchange> exchanges;
};

/// Reads a model_exchanges.jsonl that RecordingClient wrote; errors name the file and line, and a
/// recording in another format (an older agent-run's) says which it is and which is read.
Expected<Recording> read_recording(const std::filesystem::path& file);

/// Plays the scripted model's recording back (it has no wire: see ReplayTransport for the APIs).
/// Each request the agent loop sends is compared with the recorded one, both normalised (the
/// workspace folder, dates, durations); the tools still run for real, so a changed tool, policy
/// or prompt shows up as a request that differs.
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
