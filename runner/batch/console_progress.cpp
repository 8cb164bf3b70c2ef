#include "batch/console_progress.h"

#include "report/report_writers.h"

namespace agent_run {

ConsoleProgress::ConsoleProgress(std::ostream& out, std::filesystem::path report_folder)
    : m_out(out), m_report_folder(std::move(report_folder)) {}

void ConsoleProgress::attempt_started(const AttemptPlan&) {}

void ConsoleProgress::attempt_finished(const AttemptResult& result) {
  m_out << attempt_summary_line(result) << '\n' << std::flush;
}

void ConsoleProgress::run_finished(const RunReport& report) {
  m_out << run_summary_lines(report);
  m_out << "reports: " << (m_report_folder / "report.json").string() << ", "
        << (m_report_folder / "junit.xml").string() << '\n'
        << std::flush;
}

}  // namespace agent_run
