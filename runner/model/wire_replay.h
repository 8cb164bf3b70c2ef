#pragma once

#include "model/forwarding_client.h"
#include "model/replay_client.h"
#include "model/wire_transport.h"

#include <memory>
#include <string>
#include <vector>

namespace agent_run {

/// A transport that answers each try with the one recorded (`--replay` of a model behind an API):
/// the recorded status, headers and body bytes, read line by line as the network's are, so the
/// provider's request builder, the retry policy and the stream decoder all run as they did live
/// (a 429 then a 200 replays as such, with the waits computed but not slept). Before the first try
/// of each call, the request body sent is compared with the recorded one, both as pretty JSON with
/// the volatile parts normalised: in strict mode a difference fails the call (never retried) with
/// the first difference; in loose mode it is a warning and the recorded answer is played.
class ReplayTransport final : public WireTransport {
 public:
  ReplayTransport(Recording recording, ReplayMode mode, std::string workspace, std::vector<std::string> secret_values);

  WireOpening open(const HttpRequest& request, const HttpLimits& limits, HttpInterrupt* interrupt) override;
  bool reaches_network() const override { return false; }

  /// The next call begins: its tries are the next recorded exchange's.
  void next_exchange();
  /// What loose mode let pass: one line for each request that differed.
  const std::vector<std::string>& warnings() const { return m_warnings; }
  const std::string& model() const { return m_recording.model; }

 private:
  ApiFailure refusal(std::string message) const;
  std::optional<ApiFailure> compare(const HttpRequest& request, const WireTry& recorded);

  Recording m_recording;
  ReplayMode m_mode;
  std::string m_workspace;
  std::vector<std::string> m_secrets;
  std::size_t m_exchange = 0;  // from 1 once a call began
  std::size_t m_try = 0;       // tries served of the current exchange
  std::vector<std::string> m_warnings;
};

/// The client of a replayed API model: the real client (ApiModelClient over a ReplayTransport),
/// which it tells when each call begins.
class ReplayedApiClient final : public ForwardingClient {
 public:
  ReplayedApiClient(std::unique_ptr<ModelClient> inner, std::shared_ptr<ReplayTransport> transport);

  Expected<ModelTurn> complete(const Conversation& conversation, const std::vector<ToolSchema>& tools) override;

 private:
  std::shared_ptr<ReplayTransport> m_transport;
};

}  // namespace agent_run
