#pragma once

#include "model/model_client.h"

#include <memory>
#include <utility>

namespace agent_run {

/// A model client that passes every call to the one it wraps, so that a client adding to one call
/// (RecordingClient, ReplayedApiClient) overrides only that call and the rest cannot fall behind
/// ModelClient.
class ForwardingClient : public ModelClient {
 public:
  explicit ForwardingClient(std::unique_ptr<ModelClient> inner) : m_inner(std::move(inner)) {}

  std::string model_name() const override { return m_inner->model_name(); }
  Expected<ModelTurn> complete(const Conversation& conversation, const std::vector<ToolSchema>& tools) override {
    return m_inner->complete(conversation, tools);
  }
  void set_deadline(Clock::SteadyTime deadline) override { m_inner->set_deadline(deadline); }
  ModelCallRecord last_call() const override { return m_inner->last_call(); }
  std::optional<std::int64_t> context_window() const override { return m_inner->context_window(); }

 private:
  std::unique_ptr<ModelClient> m_inner;
};

}  // namespace agent_run
