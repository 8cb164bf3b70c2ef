#pragma once

namespace agent_run {

/// The HTML report's stylesheet, inlined in the page (the filters' rules are made per report).
extern const char* const k_report_css;

}  // namespace agent_run
