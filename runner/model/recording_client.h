#pragma once

#include "model/forwarding_client.h"
#include "model/wire_recorder.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace agent_run {

/// The format a recording is written in and the only one replay reads.
inline constexpr const char* k_recording_format = "agent-run-model-exchanges/2";

/// A model client that keeps every exchange of the one it wraps (`--record`) in `file`
/// (model_exchanges.jsonl). The first line names the format, the model, its provider and the
/// attempt's workspace, which replay normalises away. Then one line per call: for a model behind
/// an API, each try as it went over the wire (`wire`: the request as sent, the response as
/// streamed, secrets and key redacted); for the scripted model, which has no wire, the request as
/// the agent loop made it (provider-neutral) and the turn it played. A line is appended as soon as
/// the call ends, so a crash keeps the rest.
class RecordingClient final : public ForwardingClient {
 public:
  RecordingClient(std::unique_ptr<ModelClient> inner, std::filesystem::path file, std::string workspace,
                  std::vector<std::string> secret_values, std::shared_ptr<WireRecorder> wire);

  Expected<ModelTurn> complete(const Conversation& conversation, const std::vector<ToolSchema>& tools) override;

 private:
  void append(const std::string& line);

  std::filesystem::path m_file;
  std::string m_workspace;
  std::vector<std::string> m_secrets;
  std::shared_ptr<WireRecorder> m_wire;  // the inner client's transport; null for the scripted model
  int m_exchanges = 0;
};

}  // namespace agent_run
