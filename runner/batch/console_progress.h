#pragma once

#include "batch/run_observer.h"

#include <filesystem>
#include <ostream>

namespace agent_run {

/// Progress on the console: a line per finished attempt, then the totals and where the reports are.
class ConsoleProgress final : public RunObserver {
 public:
  ConsoleProgress(std::ostream& out, std::filesystem::path report_folder);

  void attempt_started(const AttemptPlan& plan) override;
  void attempt_finished(const AttemptResult& result) override;
  void run_finished(const RunReport& report) override;

 private:
  std::ostream& m_out;
  std::filesystem::path m_report_folder;
};

}  // namespace agent_run
