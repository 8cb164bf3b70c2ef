#include "report/html_attempt.h"

#include "base/text.h"
#include "report/aggregates.h"
#include "report/figures.h"
#include "report/html_text.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace agent_run {

namespace {

constexpr std::size_t k_output_tail_bytes = 2048;
constexpr std::size_t k_reason_bytes = 160;  // of a denial's reason; report.json has it whole
constexpr std::size_t k_final_message_bytes = 16 * 1024;
constexpr std::size_t k_problems_shown = 10;  // per edit, as the tool result shows them

/// What happened in one turn of the attempt.
struct Turn {
  long long model_ms = 0;
  long long tools_ms = 0;
  int failed_tries = 0;
  std::vector<const ToolCallRecord*> calls;
  std::vector<const EditRecord*> edits;
};

std::map<int, Turn> turns_of(const AttemptResult& attempt) {
  std::map<int, Turn> turns;
  for (int turn = 1; turn <= attempt.turns; ++turn) turns[turn];
  for (const ModelCallRecord& call : attempt.model_calls) {
    Turn& turn = turns[call.turn];
    turn.model_ms += call.duration_ms;
    turn.failed_tries += static_cast<int>(call.failed_tries.size());
  }
  for (const ToolCallRecord& call : attempt.tool_calls) {
    Turn& turn = turns[call.turn];
    turn.tools_ms += call.duration_ms;
    turn.calls.push_back(&call);
  }
  for (const EditRecord& edit : attempt.edits) turns[edit.turn].edits.push_back(&edit);
  return turns;
}

std::string code(std::string_view text) { return "<code>" + html_text(text) + "</code>"; }

std::string percent_width(long long part, long long whole) {
  return std::to_string(whole > 0 ? std::clamp<long long>(part * 100 / whole, 0, 100) : 0) + "%";
}

std::string problem_text(const Problem& problem) {
  std::string where = problem.path;
  if (problem.line > 0) where += ":" + std::to_string(problem.line) + ":" + std::to_string(problem.column);
  std::string text = where + " " + problem.severity + ": " + problem.message.substr(0, problem.message.find('\n'));
  return problem.code.empty() ? text : text + " [" + problem.code + "]";
}

std::string call_html(const ToolCallRecord& call) {
  bool denied = call.decision == "denied";
  std::string item = denied ? "<li class=\"denied\">\xE2\x8A\x98 " : "<li>";
  item += html_text(call.name) + " " + code(call.input_summary);
  if (denied) {
    item += " denied by " +
            (call.rule_id.empty() ? html_text(call.decided_by) : "rule <b>" + html_text(call.rule_id) + "</b>");
    if (!call.reason.empty()) item += ": " + html_text(cap_head_tail(call.reason, k_reason_bytes, 0));
  } else {
    item += " <span class=\"note\">" + short_duration(call.duration_ms) + (call.is_error ? ", failed" : "") + "</span>";
  }
  return item + "</li>";
}

std::string command_html(const CheckRecord& check);

/// One edit as the model saw it: its checker and status, the problems its result showed (the new
/// ones marked), or that the check gave no answer, then the task's `during: edit` checks after it.
std::string edit_html(const EditRecord& edit) {
  std::string item = "<li>\xE2\x9C\x8E " + html_text(edit.tool) + " " + code(edit.path) + " +" +
                     std::to_string(edit.lines_added) + " \xE2\x88\x92" + std::to_string(edit.lines_removed);
  std::string nested;
  if (!edit.diagnostics) {
    item += " <span class=\"note\">diagnostics off</span>";
  } else {
    const EditDiagnostics& diagnostics = *edit.diagnostics;
    item += " <span class=\"note\">" + html_text(diagnostics.checker.empty() ? "no checker" : diagnostics.checker) +
            ": " + html_text(diagnostics.status == "timeout" ? "no answer in time" : diagnostics.status) + ", " +
            std::to_string(diagnostics.introduced.size()) + " new, " + std::to_string(diagnostics.resolved.size()) +
            " resolved</span>";
    std::vector<Problem> shown = diagnostics.problems;  // what the tool result showed, errors first
    std::stable_sort(shown.begin(), shown.end(), [](const Problem& a, const Problem& b) {
      return std::tuple(a.severity != "error", a.other_file) < std::tuple(b.severity != "error", b.other_file);
    });
    for (std::size_t i = 0; i < shown.size() && i < k_problems_shown; ++i) {
      const Problem& problem = shown[i];
      bool is_new = std::find(diagnostics.introduced.begin(), diagnostics.introduced.end(), problem) !=
                    diagnostics.introduced.end();
      nested += "<li class=\"problem\">" + std::string(problem.other_file ? "[other file] " : "") +
                html_text(problem_text(problem)) + (is_new ? " <span class=\"note\">new</span>" : "") + "</li>";
    }
    if (shown.size() > k_problems_shown) {
      nested += "<li class=\"note\">and " + std::to_string(shown.size() - k_problems_shown) + " more</li>";
    }
  }
  for (const CheckRecord& check : edit.checks) nested += command_html(check);  // `during: edit`
  if (!nested.empty()) item += "<ul>" + nested + "</ul>";
  return item + "</li>";
}

/// How much of a turn's tool calls the timeline lists: every one (an attempt that did not pass), or,
/// for a passed attempt, the denied ones and a count per tool of the rest (the page stays light with
/// thousands of attempts; report.json has every call).
enum class CallDetail { every_call, denials_and_counts };

std::string counted_calls_html(const std::vector<const ToolCallRecord*>& calls) {
  std::map<std::string, std::pair<int, long long>> counts;  // tool -> (calls, milliseconds)
  std::string html;
  for (const ToolCallRecord* call : calls) {
    if (call->decision == "denied") {
      html += call_html(*call);
    } else {
      auto& [count, ms] = counts[call->name];
      ++count;
      ms += call->duration_ms;
    }
  }
  for (const auto& [tool, figures] : counts) {
    html += "<li>" + html_text(tool) + (figures.first > 1 ? " \xC3\x97" + std::to_string(figures.first) : "") +
            " <span class=\"note\">" + short_duration(figures.second) + "</span></li>";
  }
  return html;
}

std::string turn_html(int number, const Turn& turn, long long longest_ms, CallDetail detail) {
  std::string item = "<li><span class=\"turn\">Turn " + std::to_string(number) + "</span>";
  item += "<span class=\"time\"><span class=\"m\" style=\"width:" + percent_width(turn.model_ms, longest_ms) +
          "\"></span><span class=\"t\" style=\"width:" + percent_width(turn.tools_ms, longest_ms) + "\"></span></span>";
  item += "model " + short_duration(turn.model_ms) + " \xC2\xB7 tools " + short_duration(turn.tools_ms);
  if (turn.failed_tries > 0)
    item += " \xC2\xB7 <span class=\"denied\">" + std::to_string(turn.failed_tries) + " failed tries</span>";
  if (turn.calls.empty() && turn.edits.empty()) return item + "</li>";
  item += "<ul class=\"calls\">";
  if (detail == CallDetail::every_call) {
    for (const ToolCallRecord* call : turn.calls) item += call_html(*call);
  } else {
    item += counted_calls_html(turn.calls);
  }
  for (const EditRecord* edit : turn.edits) item += edit_html(*edit);
  return item + "</ul></li>";
}

std::string command_html(const CheckRecord& check) {
  std::string item = check.passed ? "<li class=\"check-passed\">" : "<li class=\"check-failed\">";
  item += code(check.run) + " ";
  item += check.passed ? "passed" : check.timed_out ? "timed out" : "exited " + std::to_string(check.exit_code);
  item += " <span class=\"note\">" + short_duration(check.duration_ms) + "</span>";
  if (!check.passed && !check.output_tail.empty())
    item += "<pre class=\"tail\"><span>" + html_text(tail_of(check.output_tail, k_output_tail_bytes)) + "</span></pre>";
  return item + "</li>";
}

std::string commands_html(const char* label, const std::vector<CheckRecord>& commands) {
  if (commands.empty()) return {};
  std::string item = "<li><span class=\"turn\">" + std::string(label) + "</span><ul class=\"calls\">";
  for (const CheckRecord& check : commands) item += command_html(check);
  return item + "</ul></li>";
}

std::string timeline_html(const AttemptResult& attempt) {
  std::map<int, Turn> turns = turns_of(attempt);
  long long longest = 0;
  for (const auto& [number, turn] : turns) longest = std::max(longest, turn.model_ms + turn.tools_ms);
  std::string html =
      "<h3>Timeline</h3><p class=\"legend note\">time per turn:<span class=\"m\"></span>model"
      "<span class=\"t\"></span>tools</p><ol class=\"timeline\">";
  html += commands_html("Setup", attempt.setup);
  CallDetail detail = attempt.outcome == Outcome::passed ? CallDetail::denials_and_counts : CallDetail::every_call;
  for (const auto& [number, turn] : turns) html += turn_html(number, turn, longest, detail);
  html += commands_html("Checks", attempt.checks);
  return html + "</ol>";
}

std::string diff_html(const std::string& patch) {
  std::string html = "<pre class=\"diff\">";
  for (const std::string& line : split(patch, '\n')) {
    const char* kind = line.starts_with("diff --git") || line.starts_with("--- ") || line.starts_with("+++ ") ? "f"
                       : line.starts_with("@@")                                                               ? "h"
                       : line.starts_with("+")                                                                ? "a"
                       : line.starts_with("-")                                                                ? "d"
                                                                                                              : nullptr;
    html +=
        kind ? "<span class=\"" + std::string(kind) + "\">" + html_text(line) + "</span>\n" : html_text(line) + "\n";
  }
  return html + "</pre>";
}

std::string patch_html(const AttemptResult& attempt, const AttemptView& view) {
  const PatchStats& stats = attempt.patch;
  if (stats.files_changed == 0 && view.patch.empty()) return {};
  std::string html = "<h3>Patch</h3><p class=\"note\">" + std::to_string(stats.files_changed) + " files, +" +
                     std::to_string(stats.lines_added) + " \xE2\x88\x92" + std::to_string(stats.lines_removed);
  if (!attempt.patch_path.empty())
    html += " \xC2\xB7 <a href=\"" + html_attribute(attempt.patch_path) + "\">patch.diff</a>";
  if (view.patch.empty()) return html + " (not included on this page)</p>";
  if (view.patch_cut) html += " (cut here: the whole patch is in patch.diff)";
  return html + "</p>" + diff_html(view.patch);
}

std::string facts_html(const AttemptResult& attempt) {
  std::string facts = "started " + html_text(attempt.started_at) + " \xC2\xB7 task file " + code(attempt.task_file);
  if (attempt.stop_reason) facts += " \xC2\xB7 stopped: " + html_text(to_string(*attempt.stop_reason));
  facts += attempt.sandboxed ? " \xC2\xB7 sandboxed" : "";
  if (attempt.commit)
    facts += " \xC2\xB7 committed to " + code(attempt.commit->branch) + " " + code(attempt.commit->sha.substr(0, 12));
  if (!attempt.transcript_path.empty())
    facts += " \xC2\xB7 <a href=\"" + html_attribute(attempt.transcript_path) + "\">transcript</a>";
  return "<p class=\"note\">" + facts + "</p>";
}

/// The attempt's MCP servers when one failed, stopped or crashed: each one's status, what it
/// offered, and why it failed or ended.
std::string mcp_html(const AttemptResult& attempt) {
  if (std::all_of(attempt.mcp_servers.begin(), attempt.mcp_servers.end(),
                  [](const McpServerRecord& server) { return server.status == "connected"; })) {
    return {};
  }
  std::string html = "<h3>MCP servers</h3><ul class=\"mcp\">";
  for (const McpServerRecord& server : attempt.mcp_servers) {
    html += "<li>" + code(server.name) + " " + html_text(server.status);
    if (server.status == "connected" || !server.tools.empty()) {
      html += " \xC2\xB7 " + std::to_string(server.tools.size()) + " tools";
    }
    if (!server.skipped_tools.empty()) html += " \xC2\xB7 " + std::to_string(server.skipped_tools.size()) + " not offered";
    if (!server.error.empty()) html += "<br><span class=\"note\">" + html_text(server.error) + "</span>";
    html += "</li>";
  }
  return html + "</ul>";
}

std::string summary_html(const AttemptResult& attempt, const AttemptView& view) {
  std::string why = attempt.outcome == Outcome::passed ? "" : html_text(to_string(attempt.outcome_type)) + " \xC2\xB7 ";
  return "<summary><span class=\"outcome-" + std::string(to_string(attempt.outcome)) + "\">" +
         outcome_html(attempt.outcome) + "</span> <b>" + html_text(attempt_label(attempt, view.show_model)) +
         "</b> <span class=\"figures\">" + why + html_text(attempt.model) + " \xC2\xB7 " +
         std::to_string(attempt.turns) + " turns \xC2\xB7 " + short_duration(attempt.durations.total_ms) +
         " \xC2\xB7 " + dollars(attempt.usage.cost_usd) + " \xC2\xB7 " + token_count(attempt.usage.total_tokens()) +
         " tokens</span></summary>";
}

}  // namespace

std::string outcome_html(Outcome outcome) {
  switch (outcome) {
    case Outcome::passed: return "\xE2\x9C\x93 passed";    // ✓
    case Outcome::failed: return "\xE2\x9C\x97 failed";    // ✗
    case Outcome::error: return "\xE2\x9A\xA0 error";      // ⚠
    case Outcome::skipped: return "\xE2\x80\x93 skipped";  // –
  }
  return "";
}

std::string attempt_html(const AttemptResult& attempt, const AttemptView& view) {
  // The id on the content, not on <details>: a link to it opens the section (the browser reveals a
  // target inside a closed <details>), which then closes like any other.
  std::string html = "<details class=\"attempt " + std::string(to_string(attempt.outcome)) + " m" +
                     std::to_string(view.model) + "\">";
  html += summary_html(attempt, view) + "<div id=\"" + view.anchor + "\">";
  if (!attempt.message.empty()) {
    html += "<p><b>" + html_text(to_string(attempt.outcome_type)) + "</b>: " + html_text(attempt.message) + "</p>";
  }
  html += facts_html(attempt) + mcp_html(attempt) + timeline_html(attempt);
  if (!attempt.final_message.empty()) {
    html += "<h3>Final message</h3><blockquote>" +
            html_text(cap_head_tail(attempt.final_message, k_final_message_bytes, 0)) + "</blockquote>";
  }
  return html + patch_html(attempt, view) + "</div></details>\n";
}

}  // namespace agent_run
