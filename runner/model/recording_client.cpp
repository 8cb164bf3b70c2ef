#include "model/recording_client.h"

#include "base/redaction.h"
#include "model/model_exchange.h"

#include <fstream>

namespace agent_run {

RecordingClient::RecordingClient(std::unique_ptr<ModelClient> inner, std::filesystem::path file,
                                 std::string workspace, std::vector<std::string> secret_values,
                                 std::shared_ptr<WireRecorder> wire)
    : ForwardingClient(std::move(inner)), m_file(std::move(file)), m_workspace(std::move(workspace)),
      m_secrets(std::move(secret_values)), m_wire(std::move(wire)) {
  std::error_code ec;
  std::filesystem::create_directories(m_file.parent_path(), ec);
  { std::ofstream truncated(m_file, std::ios::trunc); }  // an attempt run again records afresh
  const std::string model = model_name();
  append(Json::object()
             .set("recording", k_recording_format)
             .set("model", model)
             .set("provider", m_wire ? model.substr(0, model.find('/')) : "script")
             .set("workspace", m_workspace)
             .dump());
}

Expected<ModelTurn> RecordingClient::complete(const Conversation& conversation, const std::vector<ToolSchema>& tools) {
  auto turn = ForwardingClient::complete(conversation, tools);
  Json line = Json::object();
  line.set("exchange", ++m_exchanges);
  if (m_wire) {
    Json tries = Json::array();
    for (const WireTry& wire : m_wire->take_tries()) tries.push(wire_try_to_json(wire));
    line.set("tries", std::move(tries));
  } else {
    line.set("request", exchange_request_to_json(conversation, tools));
    if (turn) line.set("response", exchange_turn_to_json(*turn));
  }
  if (!turn) line.set("error", turn.error().message);
  append(redact_values(line.dump(), m_secrets));
  return turn;
}

void RecordingClient::append(const std::string& line) {
  std::ofstream out(m_file, std::ios::app);
  out << line << "\n";
}

}  // namespace agent_run
