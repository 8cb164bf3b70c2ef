#include "batch/batch_run.h"

#include "base/cancellation.h"
#include "batch/attempt_pool.h"
#include "batch/resume.h"

#include <algorithm>
#include <map>

namespace agent_run {

namespace {

constexpr std::chrono::milliseconds k_quiet_interval{500};

/// The report being built: attempts kept in plan order, written after each change.
class ReportInProgress {
 public:
  ReportInProgress(const std::vector<AttemptPlan>& plans, RunReport report) : m_report(std::move(report)) {
    for (std::size_t i = 0; i < plans.size(); ++i) m_order.emplace(attempt_key(plans[i]), i);
    std::stable_sort(m_report.attempts.begin(), m_report.attempts.end(),
                     [&](const AttemptResult& a, const AttemptResult& b) { return order_of(a) < order_of(b); });
  }

  /// The plans whose attempts the report does not hold yet.
  std::vector<const AttemptPlan*> missing(const std::vector<AttemptPlan>& plans) const {
    return plans_to_run(plans, m_report.attempts);
  }

  void add(AttemptResult result) {
    std::size_t order = order_of(result);
    auto at =
        std::upper_bound(m_report.attempts.begin(), m_report.attempts.end(), order,
                         [&](std::size_t value, const AttemptResult& attempt) { return value < order_of(attempt); });
    m_report.attempts.insert(at, std::move(result));
  }

  RunReport& report() { return m_report; }

 private:
  std::size_t order_of(const AttemptResult& attempt) const {
    auto found = m_order.find(attempt_key(attempt));
    return found == m_order.end() ? m_order.size() : found->second;
  }

  std::map<std::string, std::size_t> m_order;
  RunReport m_report;
};

/// Whether the reports are rewritten whole after an attempt (the journal has it either way): when the
/// report holds twice the attempts it held when they were last written (`written_at`), so a run of N
/// attempts rewrites them about log2(N) times and writes O(N) bytes in all.
bool rewrite_due(std::size_t attempts, std::size_t& written_at) {
  if (attempts < 2 * written_at) return false;
  written_at = attempts;
  return true;
}

/// Records a finished attempt that `building` already holds: appended to the journal, and the
/// reports rewritten when due. When the journal cannot take it, the reports are rewritten whole, so
/// that what finished is on disk in one or the other; the error is then theirs.
Expected<void> record(const ReportFolder& reports, const AttemptResult& finished, const RunReport& building,
                      std::size_t& written_at) {
  bool appended = reports.append(finished, building.duration_ms).has_value();
  if (!rewrite_due(building.attempts.size(), written_at) && appended) return {};
  return reports.write(building, Journal::restarted);
}

}  // namespace

Expected<RunReport> run_batch(const std::vector<AttemptPlan>& plans, const AttemptSettings& settings, RunReport report,
                              RunObserver& observer, int jobs, const RunBudget& budget, Cancellation* stop) {
  const Clock::SteadyTime started = settings.clock->now();
  const long long earlier_ms = report.duration_ms;  // a resumed run's previous sessions
  ReportInProgress building(plans, std::move(report));
  std::size_t written_at = building.report().attempts.size();
  AR_TRY(settings.reports->write(building.report(), Journal::restarted));
  EventQueue events;
  std::optional<Error> write_failure;
  BudgetWatch spending(budget, started);
  std::optional<std::string> budget_reached;
  {
    AttemptPool pool(building.missing(plans), settings, jobs, events, &spending);
    auto check_budget = [&] {
      if (budget_reached) return;
      budget_reached = spending.reached(settings.clock->now());
      if (!budget_reached) return;
      pool.stop_taking();
      if (stop && spending.time_is_up(settings.clock->now())) stop->cancel(k_max_time_stop);
    };
    for (int running_workers = pool.workers(); running_workers > 0;) {
      std::optional<RunEvent> event = events.pop(k_quiet_interval);
      check_budget();
      if (!event) {
        observer.time_passed();
      } else if (event->kind == RunEvent::Kind::started) {
        observer.attempt_started(*event->plan);
      } else if (event->kind == RunEvent::Kind::progress) {
        observer.attempt_progress(*event->plan, event->progress);
      } else if (event->kind == RunEvent::Kind::worker_done) {
        --running_workers;
      } else {
        AttemptResult finished = event->result;
        check_budget();
        building.add(std::move(event->result));
        building.report().duration_ms = earlier_ms + elapsed_ms(started, settings.clock->now());
        if (auto written = record(*settings.reports, finished, building.report(), written_at);
            !written && !write_failure) {
          write_failure = written.error();
          pool.stop_taking();
        }
        observer.attempt_finished(finished);
      }
    }
  }
  RunReport& done = building.report();
  if (budget_reached) {
    for (const AttemptPlan* plan : building.missing(plans)) {
      AttemptResult skipped = skipped_for_budget(*plan, *budget_reached);
      building.add(skipped);
      observer.attempt_finished(skipped);
    }
  }
  done.duration_ms = earlier_ms + elapsed_ms(started, settings.clock->now());
  done.interrupted = settings.cancellation && settings.cancellation->cancelled() &&
                     settings.cancellation->signal() != k_max_time_stop;
  if (write_failure) return *write_failure;
  AR_TRY(settings.reports->write(done, Journal::removed));
  observer.run_finished(done);
  return std::move(done);
}

}  // namespace agent_run
