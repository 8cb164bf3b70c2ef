#pragma once

#include "base/clock.h"
#include "model/model_client.h"

#include <functional>
#include <vector>

namespace agent_run::test {

/// A clock that moves only when told to.
class FakeClock final : public Clock {
 public:
  SteadyTime now() const override { return m_now; }
  WallTime wall_now() const override { return WallTime{} + (m_now - SteadyTime{}); }
  void advance(std::chrono::milliseconds by) { m_now += by; }

 private:
  SteadyTime m_now{std::chrono::hours(1)};
};

/// A model that answers from a list of turns (then ends its turn), records every conversation it
/// was sent, and can run a side effect per call (e.g. advance a FakeClock).
class RecordingModel final : public ModelClient {
 public:
  explicit RecordingModel(std::vector<ModelTurn> turns) : m_turns(std::move(turns)) {}

  std::string model_name() const override { return "test/recording"; }
  Expected<ModelTurn> complete(const Conversation& conversation, const std::vector<ToolSchema>&) override {
    received.push_back(conversation);
    if (on_call) on_call();
    if (fail_with) return Error{*fail_with};
    if (m_next >= m_turns.size()) {
      ModelTurn done;
      done.message.role = Role::assistant;
      return done;
    }
    return m_turns[m_next++];
  }

  void set_deadline(Clock::SteadyTime at) override { deadline = at; }
  ModelCallRecord last_call() const override { return call_record; }

  std::vector<Conversation> received;
  std::function<void()> on_call;
  std::optional<std::string> fail_with;
  std::optional<Clock::SteadyTime> deadline;  // what the loop set
  ModelCallRecord call_record;                // what last_call() reports (request id, failed tries)

 private:
  std::vector<ModelTurn> m_turns;
  std::size_t m_next = 0;
};

/// A model turn that calls one tool.
inline ModelTurn calls_tool(const std::string& id, const std::string& tool, Json input, std::int64_t tokens = 10) {
  ModelTurn turn;
  turn.message.role = Role::assistant;
  turn.message.tool_calls.push_back(ToolCall{id, tool, std::move(input)});
  turn.stop_reason = StopReason::tool_use;
  turn.usage.input_tokens = tokens;
  turn.usage.cost_usd = 0.01;
  return turn;
}

/// A model turn that says something and ends.
inline ModelTurn says(const std::string& text) {
  ModelTurn turn;
  turn.message.role = Role::assistant;
  turn.message.text = text;
  turn.usage.cost_usd = 0.0;
  return turn;
}

}  // namespace agent_run::test
