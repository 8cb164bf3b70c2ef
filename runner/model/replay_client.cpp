#include "model/replay_client.h"

#include "base/files.h"
#include "base/redaction.h"
#include "model/model_exchange.h"
#include "model/recording_client.h"

#include <sstream>

namespace agent_run {

namespace {

Expected<void> read_header(const Json& json, const std::filesystem::path& file, Recording& recording) {
  const std::string format = json.get_string("recording");
  if (format != k_recording_format) {
    return make_error(file.string() + ":1: a recording in the format '" + (format.empty() ? "unknown" : format) +
                      "'; this agent-run replays '" + k_recording_format +
                      "' (the requests as sent on the wire, the responses as streamed): record it again with --record");
  }
  recording.file = file;
  recording.model = json.get_string("model");
  recording.provider = json.get_string("provider");
  recording.workspace = json.get_string("workspace");
  return {};
}

Expected<RecordedExchange> read_exchange(const Json& json, const Recording& recording) {
  RecordedExchange exchange;
  exchange.error = json.get_string("error");
  if (recording.provider == "script") {
    const Json* request = json.find("request");
    if (!request) return make_error("no 'request'");
    exchange.request = *request;
    if (const Json* response = json.find("response")) exchange.response = *response;
    return exchange;
  }
  const Json* tries = json.find("tries");
  if (!tries || !tries->is_array()) return make_error("no 'tries' array");
  for (const Json& entry : tries->as_array()) {
    auto wire = wire_try_from_json(entry);
    if (!wire) return make_error("try " + std::to_string(exchange.tries.size() + 1) + ": " + wire.error().message);
    exchange.tries.push_back(std::move(*wire));
  }
  return exchange;
}

}  // namespace

Expected<Recording> read_recording(const std::filesystem::path& file) {
  auto text = read_file(file);
  if (!text) return make_error("replay: cannot read " + file.string() + ": " + text.error().message);
  Recording recording;
  std::istringstream in(*text);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    auto json = parse_json(line);
    const std::string where = file.string() + ":" + std::to_string(number) + ": ";
    if (!json || !json->is_object()) {
      return make_error(where + "not a recorded exchange" + (json ? std::string() : ": " + json.error().message));
    }
    if (number == 1) {
      AR_TRY(read_header(*json, file, recording));
      continue;
    }
    auto exchange = read_exchange(*json, recording);
    if (!exchange) return make_error(where + exchange.error().message);
    recording.exchanges.push_back(std::move(*exchange));
  }
  if (number == 0) return make_error(file.string() + ": an empty recording (no header line)");
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
