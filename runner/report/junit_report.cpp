#include "report/aggregates.h"
#include "report/report_writers.h"
#include "report/run_totals.h"
#include "report/utc_time.h"
#include "report/xml_text.h"

#include "base/text.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>

namespace agent_run {

namespace {

constexpr std::size_t k_body_head_bytes = 8 * 1024;   // a text body keeps its head and its tail,
constexpr std::size_t k_body_tail_bytes = 56 * 1024;  // 64 KiB in all, with a marker at the cut
constexpr std::size_t k_max_message_bytes = 1024;     // the one-line `message` attribute
constexpr const char* k_classname_prefix = "agent-run.";

/// Whether a test case's name carries the model: only when a task ran with several models.
enum class ModelInName { omitted, shown };

/// The attempts of one task, in the order the report lists them (pointers into the report: the
/// document is written many times in a run, and a copy of the run's attempts each time is what
/// made memory grow with the run).
struct TaskGroup {
  std::string task_id;
  std::vector<const AttemptResult*> attempts;
};

std::vector<TaskGroup> group_by_task(const std::vector<AttemptResult>& attempts) {
  std::vector<TaskGroup> groups;
  std::map<std::string_view, std::size_t> group_of;  // task id to its index in `groups`
  for (const AttemptResult& attempt : attempts) {
    auto [found, added] = group_of.emplace(attempt.task_id, groups.size());
    if (added) groups.push_back(TaskGroup{attempt.task_id, {}});
    groups[found->second].attempts.push_back(&attempt);
  }
  return groups;
}

std::string attribute(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + xml_escape_attribute(value) + "\"";
}

std::string attribute(std::string_view name, long long value) { return attribute(name, std::to_string(value)); }

/// Seconds with exactly three decimals, independent of the locale: `1234` ms is `1.234`.
std::string seconds_text(long long ms) {
  ms = std::max(ms, 0LL);
  std::string fraction = std::to_string(ms % 1000);
  return std::to_string(ms / 1000) + "." + std::string(3 - fraction.size(), '0') + fraction;
}

std::string shortest_number(double value) {
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc() ? std::string(buffer, end) : "0";
}

std::string cost_text(const Usage& usage) { return usage.cost_usd ? shortest_number(*usage.cost_usd) : "unknown"; }

/// `text` cut to at most k_max_message_bytes on a UTF-8 boundary, with a marker when it was cut.
std::string cap_message(std::string_view text) {
  if (text.size() <= k_max_message_bytes) return std::string(text);
  std::size_t end = k_max_message_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end)) + " [... cut]";
}

/// Distinct models of a task's attempts, in order of first use.
std::vector<std::string> models_of(const TaskGroup& group) {
  std::vector<std::string> models;
  for (const AttemptResult* attempt : group.attempts) {
    if (std::find(models.begin(), models.end(), attempt->model) == models.end()) models.push_back(attempt->model);
  }
  return models;
}

/// Start of the task's first attempt, when every attempt's start time can be read.
std::optional<long long> first_start_ms(const TaskGroup& group) {
  std::optional<long long> first;
  for (const AttemptResult* attempt : group.attempts) {
    std::optional<long long> start = parse_utc_ms(attempt->started_at);
    if (!start) return std::nullopt;
    first = std::min(first.value_or(*start), *start);
  }
  return first;
}

/// Wall time of a task, first start to last end (repeats may run in parallel); the sum of the
/// attempts' durations when a start time is missing.
long long task_wall_ms(const TaskGroup& group) {
  std::optional<long long> first = first_start_ms(group);
  long long last = 0;
  long long sum = 0;
  for (const AttemptResult* attempt : group.attempts) {
    sum += attempt->durations.total_ms;
    if (first) last = std::max(last, *parse_utc_ms(attempt->started_at) + attempt->durations.total_ms);
  }
  return first ? last - *first : sum;
}

std::string property(std::string_view name, std::string_view value) {
  return "      <property" + attribute("name", name) + attribute("value", value) + "/>\n";
}

/// The MCP servers that failed or crashed in any of the group's attempts, each once, in order.
std::string unavailable_mcp_servers(const TaskGroup& group) {
  std::vector<std::string> names;
  for (const AttemptResult* attempt : group.attempts) {
    for (const McpServerRecord& server : attempt->mcp_servers) {
      const std::string entry = server.name + " (" + server.status + ")";
      if (server.status != "connected" && std::find(names.begin(), names.end(), entry) == names.end()) {
        names.push_back(entry);
      }
    }
  }
  return join(names, ", ");
}

std::string properties(const TaskGroup& group, const RunTotals& totals) {
  const Usage& usage = totals.usage;
  std::string out = "    <properties>\n";
  out += property("agent.model", join(models_of(group), ", "));
  out += property("agent.attempts", std::to_string(totals.attempts));
  out += property("task.file", group.attempts.front()->task_file);
  out += property("usage.input_tokens", std::to_string(usage.input_tokens));
  out += property("usage.output_tokens", std::to_string(usage.output_tokens));
  out += property("usage.cache_read_input_tokens", std::to_string(usage.cache_read_input_tokens));
  out += property("usage.cache_creation_input_tokens", std::to_string(usage.cache_creation_input_tokens));
  out += property("usage.reasoning_tokens", std::to_string(usage.reasoning_tokens));
  out += property("usage.estimated", usage.estimated ? "true" : "false");
  out += property("cost.usd", cost_text(usage));
  if (std::string servers = unavailable_mcp_servers(group); !servers.empty()) out += property("mcp.unavailable", servers);
  out += "    </properties>\n";
  return out;
}

/// Why a setup or check command failed, followed by the tail of its output.
std::string failed_command_text(std::string_view kind, const CheckRecord& check) {
  std::string text = std::string(kind) + " `" + check.run + "` ";
  text += check.timed_out ? "timed out" : "exited " + std::to_string(check.exit_code);
  text += " after " + seconds_text(check.duration_ms) + "s\n";
  text += check.output_tail;
  if (!check.output_tail.empty() && check.output_tail.back() != '\n') text += '\n';
  return text;
}

/// The body of <failure>, <error> or <skipped>: the message, failed commands, denied calls;
/// printable, and capped after the control characters were made visible.
std::string result_body(const AttemptResult& attempt) {
  std::vector<std::string> sections;
  if (!attempt.message.empty()) sections.push_back(attempt.message + "\n");
  for (const CheckRecord& setup : attempt.setup) {
    if (!setup.passed) sections.push_back(failed_command_text("setup", setup));
  }
  for (const CheckRecord& check : attempt.checks) {
    if (!check.passed) sections.push_back(failed_command_text("check", check));
  }
  std::string denied;
  for (const ToolCallRecord& call : attempt.tool_calls) {
    if (call.decision != "denied") continue;
    denied += "denied (turn " + std::to_string(call.turn) + "): " + call.name + " " + call.input_summary;
    if (!call.rule_id.empty()) denied += " [rule " + call.rule_id + "]";
    if (!call.reason.empty()) denied += ": " + call.reason;
    denied += "\n";
  }
  if (!denied.empty()) sections.push_back(denied);
  return cap_head_tail(xml_printable(join(sections, "\n")), k_body_head_bytes, k_body_tail_bytes);
}

/// The result element of an attempt that did not pass; empty for a passed one.
std::string result_element(const AttemptResult& attempt) {
  if (attempt.outcome == Outcome::passed) return {};
  const char* element = attempt.outcome == Outcome::failed  ? "failure"
                        : attempt.outcome == Outcome::error ? "error"
                                                            : "skipped";
  std::string type = to_string(attempt.outcome_type);
  std::string out = "      <" + std::string(element);
  out += attribute("message", cap_message(xml_printable(attempt.message))) + attribute("type", type) + ">";
  out += xml_escape_text(result_body(attempt));
  out += "</" + std::string(element) + ">\n";
  return out;
}

/// One short line of figures for every UI that shows <system-out>.
std::string figures_line(const AttemptResult& attempt) {
  std::string tokens = (attempt.usage.estimated ? "~" : "") + std::to_string(attempt.usage.total_tokens());
  return "turns=" + std::to_string(attempt.turns) + " tool_calls=" + std::to_string(attempt.tool_calls.size()) +
         " denied=" + std::to_string(denied_calls(attempt)) + " tokens=" + tokens +
         " cost_usd=" + cost_text(attempt.usage);
}

/// <system-out>: the figures line, then the agent's final message (capped like a result's body).
std::string system_out(const AttemptResult& attempt) {
  std::string text = figures_line(attempt);
  if (!attempt.warnings.empty()) text += "\n\nwarnings:\n" + xml_printable(join(attempt.warnings, "\n"));
  if (!attempt.final_message.empty()) {
    text += "\n\nfinal message:\n" +
            cap_head_tail(xml_printable(attempt.final_message), k_body_head_bytes, k_body_tail_bytes);
  }
  return text;
}

std::string testcase(const AttemptResult& attempt, ModelInName model_in_name) {
  std::string name = attempt_label(attempt, model_in_name == ModelInName::shown);
  std::string out = "    <testcase" + attribute("classname", k_classname_prefix + attempt.task_id);
  out += attribute("name", name) + attribute("time", seconds_text(attempt.durations.total_ms)) + ">\n";
  out += result_element(attempt);
  out += "      <system-out>" + xml_escape_text(system_out(attempt)) + "</system-out>\n";
  out += "    </testcase>\n";
  return out;
}

/// A task's <testsuite> start tag and its properties; its test cases follow.
std::string testsuite_head(const TaskGroup& group) {
  RunTotals totals;
  for (const AttemptResult* attempt : group.attempts) add_to_totals(totals, *attempt);
  std::string out = "  <testsuite" + attribute("name", group.task_id) + attribute("tests", totals.attempts);
  out += attribute("failures", totals.failed) + attribute("errors", totals.error);
  out += attribute("skipped", totals.skipped) + attribute("time", seconds_text(task_wall_ms(group)));
  if (std::optional<long long> start = first_start_ms(group)) {
    out += attribute("timestamp", format_utc_seconds(*start));
  }
  out += ">\n" + properties(group, totals);
  return out;
}

}  // namespace

void write_report_junit(const RunReport& report, const WritePiece& write) {
  RunTotals totals = compute_totals(report.attempts);
  std::string text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  text += "<testsuites" + attribute("name", "agent-run") + attribute("tests", totals.attempts);
  text += attribute("failures", totals.failed) + attribute("errors", totals.error);
  text += attribute("time", seconds_text(report.duration_ms)) + ">\n";
  for (const TaskGroup& group : group_by_task(report.attempts)) {
    text += testsuite_head(group);
    ModelInName model_in_name = models_of(group).size() > 1 ? ModelInName::shown : ModelInName::omitted;
    for (const AttemptResult* attempt : group.attempts) {
      text += testcase(*attempt, model_in_name);
      write(text);
      text.clear();
    }
    text += "  </testsuite>\n";
  }
  text += "</testsuites>\n";
  write(text);
}

std::string report_to_junit(const RunReport& report) {
  std::string document;
  write_report_junit(report, [&](std::string_view piece) { document += piece; });
  return document;
}

}  // namespace agent_run
