#pragma once

#include "base/clock.h"
#include "batch/run_observer.h"

#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace agent_run {

/// How progress is shown: redrawn status lines on a terminal, plain lines in a log, or plain lines
/// folded into GitHub Actions groups (`::group::`) when GITHUB_ACTIONS is set.
enum class ProgressStyle { live, plain, github };

/// How much progress says: only the closing summary, a line per attempt, or every turn and detail.
enum class Verbosity { quiet, normal, verbose };

/// How the console shows a run.
struct ProgressOptions {
  ProgressStyle style = ProgressStyle::plain;
  Verbosity verbosity = Verbosity::normal;
  int width = 100;  // terminal columns, for live status lines
};

/// Progress on the console: per running attempt a status line (task, phase, turn, tokens, cost,
/// elapsed) on a terminal or a start line in a log, a line per finished attempt, then the totals
/// and where the reports are.
class ConsoleProgress final : public RunObserver {
 public:
  ConsoleProgress(std::ostream& out, std::filesystem::path report_folder);
  ConsoleProgress(std::ostream& out, std::filesystem::path report_folder, ProgressOptions options, const Clock& clock);

  void attempt_started(const AttemptPlan& plan) override;
  void attempt_progress(const AttemptPlan& plan, const AttemptProgress& progress) override;
  void attempt_finished(const AttemptResult& result) override;
  void time_passed() override;
  void run_finished(const RunReport& report) override;

 private:
  /// A running attempt as the live lines show it.
  struct Running {
    std::string label;  // task #n [model]
    AttemptProgress progress;
    Clock::SteadyTime started;
  };

  std::string status_line(const Running& running) const;
  void clear_live_lines();
  void draw_live_lines();
  void print_details(const AttemptResult& result);

  std::ostream& m_out;
  std::filesystem::path m_report_folder;
  ProgressOptions m_options;
  SystemClock m_system_clock;
  const Clock& m_clock;
  std::map<std::string, Running> m_running;  // by task, model and repeat
  int m_drawn_lines = 0;
};

/// The label of an attempt in progress lines: `task #n`, with ` [model]` when its folder names the model.
std::string attempt_label(const AttemptPlan& plan);

/// The details of a finished attempt, a line each, for --verbose and GitHub groups: why it ended,
/// failed commands, denied calls, figures, where its transcript and patch are.
std::vector<std::string> attempt_detail_lines(const AttemptResult& result);

}  // namespace agent_run
