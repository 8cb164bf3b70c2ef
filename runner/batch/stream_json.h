#pragma once

#include "batch/attempt_observer.h"
#include "report/run_report.h"

#include <functional>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>

namespace agent_run {

/// Where `--output-format stream-json` writes: one JSON event a line, whole lines only, from any
/// attempt's thread.
class StreamJsonSink {
 public:
  explicit StreamJsonSink(std::ostream& out) : m_out(out) {}
  /// Writes `event` (with the attempt's folder as `attempt`) as one line and flushes it.
  void write(const std::string& attempt, Json event);
  /// Writes the run's last event, `run_finished`, after every attempt's: the totals of `report`
  /// (attempts, passed, failed, errors, skipped, tokens, cost, the run's duration), agent-run's
  /// `exit_code` and its `outcome` word.
  void finish(const RunReport& report, int exit_code, const std::string& outcome);

 private:
  void put(const Json& event);

  std::ostream& m_out;
  std::mutex m_mutex;
};

/// Where an attempt's policy was named (`--policy`, the FILE:LINE:COL of a task's or agent-run.yaml's
/// `policy:`, `built-in`), for the `init` event.
using PolicyOrigin = std::function<std::string(const AttemptPlan& plan)>;

/// The stream-json observer of each attempt: its start, what the agent was given (init), each turn,
/// each tool call with its decision (and the file an edit changed), context steps, notices, work
/// sent back, each round of checks, and the end with the outcome and the final answer.
AttemptObserverFactory stream_json_observers(StreamJsonSink& sink, PolicyOrigin policy_origin);

}  // namespace agent_run
