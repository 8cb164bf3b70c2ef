#pragma once

#include "agent/agent_observer.h"
#include "report/usage.h"

#include <functional>
#include <string>

namespace agent_run {

/// What a running attempt is doing, for live progress lines.
struct AttemptProgress {
  std::string phase;            // workspace | setup | agent | checks | patch | commit | cleanup
  int turn = 0;                 // model turns so far
  Usage usage = Usage::zero();  // tokens and cost so far
  std::string activity;         // the tools the model called in its last turn, if any
};

/// Where run_attempt reports its progress; called on the attempt's own thread.
using ProgressSink = std::function<void(const AttemptProgress&)>;

/// Tells a progress sink about an attempt's phases and, as an observer of the agent loop, about
/// each model turn: its number, the usage so far and the tools it called.
class ProgressReporter final : public AgentObserver {
 public:
  explicit ProgressReporter(const ProgressSink& sink) : m_sink(sink) {}

  /// The attempt moved on to `name` (workspace, setup, agent, ...).
  void phase(std::string name);
  void turn(int turn, const ModelTurn& response, const ModelCallRecord& call) override;

 private:
  void send();

  const ProgressSink& m_sink;
  AttemptProgress m_progress;
};

}  // namespace agent_run
