#pragma once

#include "report/run_report.h"

#include <cstddef>
#include <string>

namespace agent_run {

/// How one attempt is shown on the HTML report's page.
struct AttemptView {
  std::string anchor;       // the section's id, stable from run to run (`task-fix-bug-2`)
  bool show_model = false;  // the label names the model (the report has several)
  std::size_t model = 0;    // the model's index, for the model filter's class `m<model>`
  std::string patch;        // what is shown of the patch; empty: none, or not included
  bool patch_cut = false;   // the patch was longer than what is shown
};

/// The outcome as a word with its mark (`✅ passed`), as the page shows it.
std::string outcome_html(Outcome outcome);

/// One attempt as a collapsed <details> section: its summary line; its message and facts; the
/// turn-by-turn timeline (model and tool time as bars, each tool call with its decision, each edit
/// with the problems it introduced), setup and checks with the output tail of a failed one; the final
/// message; the patch as a coloured diff, with a link to patch.diff.
std::string attempt_html(const AttemptResult& attempt, const AttemptView& view);

}  // namespace agent_run
