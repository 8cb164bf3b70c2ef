#include "model/replay_client.h"

#include "base/files.h"
#include "base/redaction.h"
#include "model/model_exchange.h"

#include <sstream>

namespace agent_run {

Expected<Recording> read_recording(const std::filesystem::path& file) {
  auto text = read_file(file);
  if (!text) return make_error("replay: cannot read " + file.string() + ": " + text.error().message);
  Recording recording;
  std::istringstream in(*text);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    auto json = parse_json(line);
    if (!json || !json->is_object()) {
      return make_error(file.string() + ":" + std::to_string(number) + ": not a recorded exchange" +
                        (json ? std::string() : ": " + json.error().message));
    }
    if (number == 1) {
      recording.model = json->get_string("model");
      recording.workspace = json->get_string("workspace");
      continue;
    }
    const Json* request = json->find("request");
    if (!request) return make_error(file.string() + ":" + std::to_string(number) + ": no 'request'");
    const Json* response = json->find("response");
    recording.exchanges.push_back(RecordedExchange{
        *request, response ? std::optional<Json>(*response) : std::nullopt, json->get_string("error")});
  }
  return recording;
}

ReplayClient::ReplayClient(Recording recording, ReplayMode mode, std::string workspace,
                           std::vector<std::string> secret_values)
    : m_recording(std::move(recording)), m_mode(mode), m_workspace(std::move(workspace)),
      m_secrets(std::move(secret_values)) {}

Expected<ModelTurn> ReplayClient::complete(const Conversation& conversation, const std::vector<ToolSchema>& tools) {
  std::size_t number = ++m_next;
  if (number > m_recording.exchanges.size()) {
    return make_error("replay: request " + std::to_string(number) + " was never recorded (the recording has " +
                      std::to_string(m_recording.exchanges.size()) + ")");
  }
  const RecordedExchange& recorded = m_recording.exchanges[number - 1];
  std::string sent = normalise_volatile(
      redact_values(exchange_request_to_json(conversation, tools).dump_pretty(), m_secrets), m_workspace);
  std::string expected = normalise_volatile(recorded.request.dump_pretty(), m_recording.workspace);
  if (std::string diff = first_difference(expected, sent); !diff.empty()) {
    std::string problem = "replay: request " + std::to_string(number) + " differs from the recording:\n" + diff;
    if (m_mode == ReplayMode::strict) return make_error(problem + "(--replay-loose plays it all the same)");
    m_warnings.push_back(problem);
  }
  if (!recorded.response) return make_error("replay: the recorded call failed: " + recorded.error);
  return exchange_turn_from_json(*recorded.response);
}

}  // namespace agent_run
