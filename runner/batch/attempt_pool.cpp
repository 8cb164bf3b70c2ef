#include "batch/attempt_pool.h"

#include "base/cancellation.h"
#include "workspace/repository_discovery.h"

#include <exception>

namespace agent_run {

namespace {

/// The result of an attempt whose run threw: an error, so the run carries on.
AttemptResult crashed(const AttemptPlan& plan, const std::string& what) {
  return unrun_result(plan, OutcomeType::runner_crashed, "agent-run failed while running this attempt: " + what);
}

}  // namespace

void EventQueue::push(RunEvent event) {
  {
    std::lock_guard lock(m_mutex);
    m_events.push_back(std::move(event));
  }
  m_ready.notify_one();
}

std::optional<RunEvent> EventQueue::pop(std::chrono::milliseconds timeout) {
  std::unique_lock lock(m_mutex);
  if (!m_ready.wait_for(lock, timeout, [&] { return !m_events.empty(); })) return std::nullopt;
  RunEvent event = std::move(m_events.front());
  m_events.pop_front();
  return event;
}

AttemptPool::AttemptPool(std::vector<const AttemptPlan*> todo, const AttemptSettings& settings, int jobs,
                         EventQueue& events, BudgetWatch* budget)
    : m_todo(std::move(todo)), m_settings(settings), m_events(events), m_budget(budget) {
  std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(std::max(jobs, 1)), m_todo.size());
  for (std::size_t i = 0; i < count; ++i) m_threads.emplace_back([this] { work(); });
}

AttemptPool::~AttemptPool() {
  for (std::thread& thread : m_threads) thread.join();
}

const AttemptPlan* AttemptPool::next() {
  if (m_stop || (m_settings.cancellation && m_settings.cancellation->cancelled())) return nullptr;
  if (m_budget && m_budget->reached(m_settings.clock->now())) return nullptr;
  std::lock_guard lock(m_mutex);
  return m_next < m_todo.size() ? m_todo[m_next++] : nullptr;
}

std::mutex& AttemptPool::in_place_lock(const AttemptPlan& plan) {
  std::filesystem::path repository = plan.task->workspace.repo;
  if (repository.empty()) repository = find_enclosing_repository(plan.task->source).value_or(std::filesystem::path());
  std::lock_guard lock(m_mutex);
  return m_in_place[repository];
}

void AttemptPool::work() {
  while (const AttemptPlan* plan = next()) {
    std::unique_lock<std::mutex> in_place;
    if (plan->task->workspace.isolation == Isolation::in_place) in_place = std::unique_lock(in_place_lock(*plan));
    m_events.push(RunEvent{RunEvent::Kind::started, plan, {}, {}});
    ProgressSink sink = [&](const AttemptProgress& progress) {
      m_events.push(RunEvent{RunEvent::Kind::progress, plan, progress, {}});
    };
    RunEvent finished{RunEvent::Kind::finished, plan, {}, {}};
    try {
      finished.result = run_attempt(*plan, m_settings, sink);
    } catch (const std::exception& error) {
      finished.result = crashed(*plan, error.what());
    }
    if (m_budget) m_budget->add(finished.result);
    m_events.push(std::move(finished));
  }
  m_events.push(RunEvent{RunEvent::Kind::worker_done, nullptr, {}, {}});
}

}  // namespace agent_run
