#pragma once

#include "model/model_client.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace agent_run {

/// A model client that keeps every exchange of the one it wraps (`--record`): after each turn, a
/// line of `file` (model_exchanges.jsonl) with the request as sent, the secrets' values redacted,
/// and the turn as answered. The first line names the model and the attempt's workspace, which
/// replay normalises away. A line is appended as soon as the turn is in, so a crash keeps the rest.
class RecordingClient final : public ModelClient {
 public:
  RecordingClient(std::unique_ptr<ModelClient> inner, std::filesystem::path file, std::string workspace,
                  std::vector<std::string> secret_values);

  std::string model_name() const override { return m_inner->model_name(); }
  Expected<ModelTurn> complete(const Conversation& conversation, const std::vector<ToolSchema>& tools) override;
  void set_deadline(Clock::SteadyTime deadline) override { m_inner->set_deadline(deadline); }
  ModelCallRecord last_call() const override { return m_inner->last_call(); }
  std::optional<std::int64_t> context_window() const override { return m_inner->context_window(); }

 private:
  void append(const std::string& line);

  std::unique_ptr<ModelClient> m_inner;
  std::filesystem::path m_file;
  std::string m_workspace;
  std::vector<std::string> m_secrets;
  int m_exchanges = 0;
};

}  // namespace agent_run
