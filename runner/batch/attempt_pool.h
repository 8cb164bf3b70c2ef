#pragma once

#include "batch/run_attempt.h"
#include "batch/run_budget.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace agent_run {

/// What a worker tells the run loop. Only the run loop touches the report and the observer.
struct RunEvent {
  enum class Kind { started, progress, finished, worker_done };
  Kind kind = Kind::started;
  const AttemptPlan* plan = nullptr;  // null for worker_done
  AttemptProgress progress;           // for progress
  AttemptResult result;               // for finished
};

/// A queue of RunEvents from the workers to the run loop.
class EventQueue {
 public:
  void push(RunEvent event);
  /// The next event, waiting up to `timeout`; nullopt when none came.
  std::optional<RunEvent> pop(std::chrono::milliseconds timeout);

 private:
  std::mutex m_mutex;
  std::condition_variable m_ready;
  std::deque<RunEvent> m_events;
};

/// Runs planned attempts on `jobs` threads, each attempt in its own workspace: a worker takes the
/// next plan in order, runs it and posts its events, until none is left, the cancellation fires
/// or stop_taking() is called, or `budget` (when given) is reached: each worker counts its finished
/// attempt into it before it takes the next. Attempts working in place on one repository run one at a time.
/// One attempt's crash (an exception) becomes its error result; the others carry on.
class AttemptPool {
 public:
  AttemptPool(std::vector<const AttemptPlan*> todo, const AttemptSettings& settings, int jobs, EventQueue& events,
              BudgetWatch* budget = nullptr);
  /// Joins the workers (call stop_taking() first to end early).
  ~AttemptPool();
  AttemptPool(const AttemptPool&) = delete;
  AttemptPool& operator=(const AttemptPool&) = delete;

  /// Number of worker threads started; each posts one worker_done when it ends.
  int workers() const { return static_cast<int>(m_threads.size()); }
  /// No new attempt starts after this; running ones finish.
  void stop_taking() { m_stop = true; }

 private:
  void work();
  const AttemptPlan* next();
  std::mutex& in_place_lock(const AttemptPlan& plan);

  std::vector<const AttemptPlan*> m_todo;
  const AttemptSettings& m_settings;
  EventQueue& m_events;
  BudgetWatch* m_budget;
  std::mutex m_mutex;  // guards m_next and m_in_place
  std::size_t m_next = 0;
  std::map<std::filesystem::path, std::mutex> m_in_place;  // one per repository worked on in place
  std::atomic<bool> m_stop{false};
  std::vector<std::thread> m_threads;
};

}  // namespace agent_run
