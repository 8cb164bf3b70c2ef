// The run's budgets (--max-cost, --max-time) through run_batch: no new attempt starts once one is
// reached, what runs finishes (or stops at --max-time), and the rest are skipped as run.budget.
#include "batch/batch_fixture.h"

#include "model/scripted_model.h"
#include "support/waiting.h"

#include <boost/test/unit_test.hpp>

#include <atomic>

namespace agent_run {
namespace {

using test::BatchFixture;
using test::RecordingObserver;

/// The scripted model with a price: each turn costs `usd`.
class PricedModel final : public ModelClient {
 public:
  PricedModel(std::vector<ScriptedTurn> script, double usd) : m_script(std::move(script)), m_usd(usd) {}
  std::string model_name() const override { return m_script.model_name(); }
  Expected<ModelTurn> complete(const Conversation& conversation, const std::vector<ToolSchema>& tools) override {
    auto turn = m_script.complete(conversation, tools);
    if (turn) turn->usage.cost_usd = m_usd;
    return turn;
  }

 private:
  ScriptedModel m_script;
  double m_usd;
};

/// A steady clock the test moves forward from another thread (the run loop and the attempts read it).
class SteppingClock final : public Clock {
 public:
  SteadyTime now() const override { return SteadyTime{} + std::chrono::milliseconds(m_ms.load()); }
  WallTime wall_now() const override { return WallTime{} + std::chrono::milliseconds(m_ms.load()); }
  void advance(std::chrono::milliseconds by) { m_ms += by.count(); }

 private:
  std::atomic<long long> m_ms{3'600'000};
};

std::vector<std::string> outcomes(const RunReport& report) {
  std::vector<std::string> out;
  for (const AttemptResult& attempt : report.attempts) {
    out.push_back(attempt.task_id + " " + to_string(attempt.outcome) + " " + to_string(attempt.outcome_type));
  }
  return out;
}

const char* const k_one_turn = "prompt: p\npolicy: ../policy.yaml\nscript:\n  - say: Done.\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(run_budget)

// $0.40 an attempt against $1.00: a, b and c start (after c, $1.20 is spent), d never does.
BOOST_AUTO_TEST_CASE(the_cost_budget_stops_new_attempts_and_marks_the_rest_skipped) {
  BatchFixture fixture({{"a.yaml", k_one_turn}, {"b.yaml", k_one_turn}, {"c.yaml", k_one_turn}, {"d.yaml", k_one_turn}});
  fixture.settings.make_model = [](const Task& task, const std::string&, int,
                                   std::shared_ptr<WireTransport>) -> Expected<std::unique_ptr<ModelClient>> {
    return std::unique_ptr<ModelClient>(std::make_unique<PricedModel>(task.script, 0.40));
  };
  RecordingObserver observer;
  RunBudget budget;
  budget.max_cost_usd = 1.00;
  auto report = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 1, budget);
  BOOST_REQUIRE(report.has_value());
  BOOST_TEST(outcomes(*report) == (std::vector<std::string>{"a passed passed", "b passed passed", "c passed passed",
                                                            "d skipped run.budget"}),
             boost::test_tools::per_element());
  BOOST_TEST(report->attempts[3].message ==
             "not started: the run's budget was reached (--max-cost $1.0000: $1.2000 spent); agent-run --resume runs it");
  BOOST_TEST(!report->interrupted);
}

BOOST_AUTO_TEST_CASE(a_budget_never_reached_changes_nothing) {
  BatchFixture fixture({{"a.yaml", k_one_turn}, {"b.yaml", k_one_turn}});
  RecordingObserver observer;
  RunBudget budget;
  budget.max_cost_usd = 5.0;
  budget.max_time = std::chrono::hours(2);
  auto report = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 1, budget, &fixture.cancellation);
  BOOST_REQUIRE(report.has_value());
  BOOST_TEST(outcomes(*report) == (std::vector<std::string>{"a passed passed", "b passed passed"}),
             boost::test_tools::per_element());
  BOOST_TEST(!fixture.cancellation.cancelled());
}

// The slow task's bash sleeps 1000 s; once that command runs, the clock passes the hour. The slow
// attempt is stopped, the two not started are skipped, and the report is not marked interrupted
// (no signal stopped it).
BOOST_AUTO_TEST_CASE(the_time_budget_stops_what_runs_and_skips_what_did_not_start) {
  test::TempFolder marks;
  std::filesystem::path pid_file = marks.path() / "pid";
  std::filesystem::path script = marks.write("slow.sh", "echo $$ > " + pid_file.string() + "\nexec sleep 1000\n");
  BatchFixture fixture({{"a-slow.yaml", "prompt: p\npolicy: ../policy.yaml\nsandbox: off\nlimits: {time: 100h}\n"
                                        "script:\n  - call: {tool: bash, input: {command: \"sh " +
                                            script.string() + "\"}}\n  - say: x\n"},
                        {"b-next.yaml", k_one_turn},
                        {"c-last.yaml", k_one_turn}});
  SteppingClock clock;
  fixture.settings.clock = &clock;
  RecordingObserver observer;
  std::thread mover;
  observer.on_progress = [&](const AttemptPlan&, const AttemptProgress& progress) {
    if (progress.turn != 1 || mover.joinable()) return;
    mover = std::thread([&] {
      test::wait_for_line_in(pid_file);  // the slow command runs
      clock.advance(std::chrono::minutes(61));
    });
  };
  RunBudget budget;
  budget.max_time = std::chrono::hours(1);
  auto report = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 1, budget, &fixture.cancellation);
  if (mover.joinable()) mover.join();
  BOOST_REQUIRE(report.has_value());
  BOOST_TEST(outcomes(*report) == (std::vector<std::string>{"a-slow error interrupted", "b-next skipped run.budget",
                                                            "c-last skipped run.budget"}),
             boost::test_tools::per_element());
  BOOST_TEST(report->attempts[0].message ==
             "interrupted by the run's --max-time during the agent loop; agent-run --resume runs it again");
  BOOST_TEST(report->attempts[1].message.find("(--max-time 1h: 1h1m") != std::string::npos, report->attempts[1].message);
  BOOST_TEST(!report->interrupted);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
