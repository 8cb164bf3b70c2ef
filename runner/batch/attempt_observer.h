#pragma once

#include "agent/agent_observer.h"
#include "report/run_report.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

namespace agent_run {

struct AttemptPlan;

/// Hears one attempt as it goes: its agent loop (as an AgentObserver), each round of its checks
/// and its end. The stream-json printer is one; called on the attempt's own thread.
class AttemptObserver : public AgentObserver {
 public:
  /// The agent is about to start in `workspace` (absolute), its commands in the sandbox `sandbox`
  /// describes; called before the agent loop's `started`.
  virtual void agent_starting(const std::filesystem::path& /*workspace*/, const SandboxRecord& /*sandbox*/) {}
  /// Round `round` (1-based) of the task's checks ran.
  virtual void checks_ran(int /*round*/, const std::vector<CheckRecord>& /*checks*/) {}
  /// The attempt ended: its outcome is in `result`.
  virtual void finished(const AttemptResult& /*result*/) {}
};

/// Makes the observer of one attempt, or nullptr for none. Called once per attempt, from the
/// attempt's thread.
using AttemptObserverFactory = std::function<std::unique_ptr<AttemptObserver>(const AttemptPlan& plan)>;

}  // namespace agent_run
