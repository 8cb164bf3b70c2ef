#include "report/problem_json.h"
#include "report/report_schema.h"
#include "report/report_writers.h"
#include "report/run_totals.h"

#include <set>
#include <utility>

namespace agent_run {

Json usage_to_json(const Usage& usage) {
  Json json = Json::object();
  json.set("input_tokens", usage.input_tokens)
      .set("output_tokens", usage.output_tokens)
      .set("cache_read_input_tokens", usage.cache_read_input_tokens)
      .set("cache_creation_input_tokens", usage.cache_creation_input_tokens)
      .set("reasoning_tokens", usage.reasoning_tokens)
      .set("estimated", usage.estimated)
      .set("cost_usd", usage.cost_usd ? Json(*usage.cost_usd) : Json(nullptr));
  return json;
}

namespace {

Json tool_call_to_json(const ToolCallRecord& call) {
  Json json = Json::object();
  json.set("turn", call.turn)
      .set("id", call.id)
      .set("name", call.name)
      .set("input_summary", call.input_summary)
      .set("decision", call.decision)
      .set("decided_by", call.decided_by)
      .set("rule_id", call.rule_id)
      .set("reason", call.reason)
      .set("duration_ms", call.duration_ms)
      .set("result_bytes", call.result_bytes)
      .set("is_error", call.is_error);
  if (!call.mcp_server.empty())
    json.set("mcp", Json::object().set("server", call.mcp_server).set("tool", call.mcp_tool));
  if (!call.error.empty()) json.set("error", call.error);
  return json;
}

Json check_to_json(const CheckRecord& check);

Json edit_to_json(const EditRecord& edit) {
  Json json = Json::object();
  json.set("turn", edit.turn)
      .set("tool_call_id", edit.tool_call_id)
      .set("tool", edit.tool)
      .set("path", edit.path)
      .set("lines_added", edit.lines_added)
      .set("lines_removed", edit.lines_removed)
      .set("diagnostics", edit_diagnostics_to_json(edit.diagnostics));
  if (!edit.checks.empty()) {  // the task's `during: edit` checks
    Json checks = Json::array();
    for (const CheckRecord& check : edit.checks) checks.push(check_to_json(check));
    json.set("checks", std::move(checks));
  }
  return json;
}

template <typename T, typename Convert>
Json array_of(const std::vector<T>& items, Convert convert);

Json check_to_json(const CheckRecord& check) {
  Json json = Json::object();
  json.set("run", check.run)
      .set("passed", check.passed)
      .set("exit_code", check.exit_code)
      .set("timed_out", check.timed_out)
      .set("duration_ms", check.duration_ms)
      .set("output_tail", check.output_tail);
  return json;
}

Json durations_to_json(const Durations& durations) {
  Json json = Json::object();
  json.set("total_ms", durations.total_ms)
      .set("setup_ms", durations.setup_ms)
      .set("model_ms", durations.model_ms)
      .set("tools_ms", durations.tools_ms)
      .set("checks_ms", durations.checks_ms)
      .set("workspace_ms", durations.workspace_ms)
      .set("cleanup_ms", durations.cleanup_ms);
  if (durations.baseline_ms > 0) json.set("baseline_ms", durations.baseline_ms);
  return json;
}

Json patch_to_json(const PatchStats& patch) {
  Json json = Json::object();
  json.set("files_changed", patch.files_changed)
      .set("lines_added", patch.lines_added)
      .set("lines_removed", patch.lines_removed);
  return json;
}

Json model_try_to_json(const ModelTryRecord& failed) {
  Json json = Json::object();
  json.set("try", failed.try_number)
      .set("status", failed.status)
      .set("error_type", failed.error_type)
      .set("message", failed.message)
      .set("request_id", failed.request_id)
      .set("wait_ms", failed.wait_ms)
      .set("duration_ms", failed.duration_ms);
  return json;
}

Json todo_to_json(const TodoItem& item) {
  Json json = Json::object();
  json.set("content", item.content).set("status", item.status);
  return json;
}

Json question_to_json(const QuestionRecord& question) {
  Json options = Json::array();
  for (const std::string& option : question.options) options.push(option);
  Json json = Json::object();
  json.set("turn", question.turn)
      .set("question", question.question)
      .set("options", std::move(options))
      .set("answer", question.answer)
      .set("answered_by", question.answered_by)
      .set("rule_index", question.rule_index);
  return json;
}

Json background_process_to_json(const BackgroundProcessRecord& process) {
  Json json = Json::object();
  json.set("handle", process.handle)
      .set("command", process.command)
      .set("pid", process.pid)
      .set("ended_by", process.ended_by)
      .set("exit_code", process.exit_code)
      .set("signal", process.signal)
      .set("output_bytes", process.output_bytes)
      .set("duration_ms", process.duration_ms);
  return json;
}

Json escaped_process_to_json(const EscapedProcessRecord& process) {
  Json json = Json::object();
  json.set("pid", process.pid).set("command", process.command);
  return json;
}

Json mcp_log_to_json(const McpLogRecord& entry) {
  return Json::object().set("level", entry.level).set("logger", entry.logger).set("text", entry.text);
}

Json mcp_elicitation_to_json(const McpElicitationRecord& elicitation) {
  return Json::object()
      .set("message", elicitation.message)
      .set("action", elicitation.action)
      .set("answered_by", elicitation.answered_by)
      .set("reason", elicitation.reason);
}

Json strings_of(const std::vector<std::string>& items) {
  Json json = Json::array();
  for (const std::string& item : items) json.push(item);
  return json;
}

Json mcp_server_to_json(const McpServerRecord& server) {
  Json json = Json::object();
  json.set("name", server.name)
      .set("transport", server.transport)
      .set("required", server.required)
      .set("sandboxed", server.sandboxed)
      .set("status", server.status)
      .set("error", server.error)
      .set("server_name", server.server_name)
      .set("server_version", server.server_version)
      .set("protocol_version", server.protocol_version)
      .set("startup_ms", server.startup_ms)
      .set("tools", strings_of(server.tools))
      .set("skipped_tools", strings_of(server.skipped_tools))
      .set("stderr_tail", server.stderr_tail)
      .set("stderr_bytes", server.stderr_bytes)
      .set("ending", server.ending)
      .set("log", array_of(server.log, mcp_log_to_json))
      .set("log_count", server.log_count)
      .set("elicitations", array_of(server.elicitations, mcp_elicitation_to_json));
  return json;
}

template <typename T, typename Convert>
Json array_of(const std::vector<T>& items, Convert convert) {
  Json json = Json::array();
  for (const T& item : items) json.push(convert(item));
  return json;
}

Json context_event_to_json(const ContextEvent& event) {
  Json json = Json::object();
  json.set("turn", event.turn)
      .set("kind", event.kind)
      .set("tokens_before", event.tokens_before)
      .set("tokens_after", event.tokens_after)
      .set("results_pruned", event.results_pruned)
      .set("cost_usd", event.cost_usd ? Json(*event.cost_usd) : Json(nullptr))
      .set("message", event.message);
  return json;
}

Json context_to_json(const ContextRecord& context) {
  Json json = Json::object();
  json.set("window", context.window ? Json(*context.window) : Json(nullptr))
      .set("prunings", context.prunings)
      .set("compactions", context.compactions)
      .set("failed_compactions", context.failed_compactions)
      .set("events", array_of(context.events, context_event_to_json));
  return json;
}

Json check_round_to_json(const CheckRound& round) {
  Json json = Json::object();
  json.set("round", round.round)
      .set("turn", round.turn)
      .set("passed", round.passed)
      .set("checks", array_of(round.checks, check_to_json))
      .set("fed_back", round.fed_back);
  return json;
}

/// What the agent loop recorded beyond its calls: its last words, the system prompt, the context
/// window's care, the structured answer and the rounds of checks it saw.
void set_agent_extras(const AttemptResult& attempt, Json& json) {
  json.set("final_message", attempt.final_message)
      .set("system_prompt_sha256", attempt.system_prompt_sha256)
      .set("instruction_files", array_of(attempt.instruction_files, [](const std::string& file) { return Json(file); }))
      .set("context", context_to_json(attempt.context))
      .set("structured_output", attempt.structured_output ? *attempt.structured_output : Json(nullptr))
      .set("output_path", attempt.output_path)
      .set("check_rounds", array_of(attempt.check_rounds, check_round_to_json));
}

Json model_call_to_json(const ModelCallRecord& call) {
  Json json = Json::object();
  json.set("turn", call.turn)
      .set("purpose", call.purpose)
      .set("request_id", call.request_id)
      .set("response_model", call.response_model)
      .set("stop_reason", call.stop_reason)
      .set("error", call.error)
      .set("usage", usage_to_json(call.usage))
      .set("duration_ms", call.duration_ms)
      .set("failed_tries", array_of(call.failed_tries, model_try_to_json));
  return json;
}

Json strings_json(const std::vector<std::string>& strings) {
  return array_of(strings, [](const std::string& text) { return Json(text); });
}

Json late_mask_to_json(const LateMaskRecord& mask) {
  return Json::object()
      .set("path", mask.path)
      .set("why", mask.why)
      .set("during", mask.during)
      .set("first_masked_at", mask.first_masked_at);
}

Json shown_to_json(const ShownRecord& shown) {
  return Json::object().set("path", shown.path).set("why", shown.why).set("writable", shown.writable);
}

Json sandbox_to_json(const SandboxRecord& sandbox) {
  Json json = Json::object();
  json.set("kind", sandbox.kind)
      .set("why_none", sandbox.why_none.empty() ? Json(nullptr) : Json(sandbox.why_none))
      .set("set_by", sandbox.set_by)
      .set("network", sandbox.network)
      .set("write", sandbox.write)
      .set("bubblewrap", sandbox.bubblewrap)
      .set("masked", strings_json(sandbox.masked))
      .set("masked_total", sandbox.masked_total)
      .set("masked_later", array_of(sandbox.masked_later, late_mask_to_json))
      .set("masked_later_total", sandbox.masked_later_total)
      .set("read_only", strings_json(sandbox.read_only))
      .set("shown", array_of(sandbox.shown, shown_to_json))
      .set("survey_complete", sandbox.survey_complete)
      .set("survey_note", sandbox.survey_note);
  return json;
}

Json withheld_to_json(const WithheldPath& withheld) {
  return Json::object().set("path", withheld.path).set("why", withheld.why);
}


Json totals_to_json(const RunTotals& totals) {
  Json tool_calls = Json::object();
  tool_calls.set("total", totals.tool_calls).set("denied", totals.denied);
  Json json = Json::object();
  json.set("attempts", totals.attempts)
      .set("passed", totals.passed)
      .set("failed", totals.failed)
      .set("error", totals.error)
      .set("skipped", totals.skipped)
      .set("usage", usage_to_json(totals.usage))
      .set("tool_calls", std::move(tool_calls));
  return json;
}

/// Every policy the attempts used (each task's own, or --policy's), once each, in the attempts' order:
/// `{file, sha256}`, file `built-in` for the built-in one. Recomputed from the attempts, so a merge is right too.
Json policies_used(const std::vector<AttemptResult>& attempts) {
  Json used = Json::array();
  std::set<std::pair<std::string, std::string>> seen;
  for (const AttemptResult& attempt : attempts) {
    std::string file = attempt.policy_file.empty() ? "built-in" : attempt.policy_file;
    if (!seen.emplace(file, attempt.policy_sha256).second) continue;
    used.push(Json::object().set("file", file).set("sha256", attempt.policy_sha256));
  }
  return used;
}

Json run_to_json(const RunReport& report) {
  Json command_line = Json::array();
  for (const std::string& word : report.command_line) command_line.push(word);
  Json policy = Json::object();
  policy.set("file", report.policy_file).set("sha256", report.policy_sha256);
  policy.set("used", policies_used(report.attempts));
  Json json = Json::object();
  json.set("runner_version", report.runner_version)
      .set("started_at", report.started_at)
      .set("duration_ms", report.duration_ms)
      .set("command_line", std::move(command_line))
      .set("policy", std::move(policy))
      .set("interrupted", report.interrupted)
      .set("shard", report.shard ? Json::object().set("index", report.shard->index).set("total", report.shard->total)
                                 : Json(nullptr))
      .set("price_table",
           Json::object().set("version", report.price_table_version).set("file", report.price_table_file))
      .set("totals", totals_to_json(compute_totals(report.attempts)))
      .set("aggregates", aggregates_to_json(report));
  return json;
}

}  // namespace

Json attempt_to_json(const AttemptResult& attempt) {
  Json json = Json::object();
  json.set("task_id", attempt.task_id)
      .set("task_file", attempt.task_file)
      .set("task_sha256", attempt.task_sha256)
      .set("policy_file", attempt.policy_file)
      .set("policy_sha256", attempt.policy_sha256)
      .set("model", attempt.model)
      .set("n", attempt.n)
      .set("outcome", to_string(attempt.outcome))
      .set("outcome_type", to_string(attempt.outcome_type))
      .set("message", attempt.message)
      .set("started_at", attempt.started_at)
      .set("stop_reason", attempt.stop_reason ? to_string(*attempt.stop_reason) : "")
      .set("final_message", attempt.final_message)
      .set("turns", attempt.turns)
      .set("tool_calls", array_of(attempt.tool_calls, tool_call_to_json))
      .set("edits", array_of(attempt.edits, edit_to_json))
      .set("usage", usage_to_json(attempt.usage))
      .set("durations", durations_to_json(attempt.durations))
      .set("setup", array_of(attempt.setup, check_to_json))
      .set("checks", array_of(attempt.checks, check_to_json))
      .set("patch", patch_to_json(attempt.patch))
      .set("transcript_path", attempt.transcript_path)
      .set("patch_path", attempt.patch_path)
      .set("commit", attempt.commit
                         ? Json::object().set("branch", attempt.commit->branch).set("sha", attempt.commit->sha)
                         : Json(nullptr))
      .set("model_calls", array_of(attempt.model_calls, model_call_to_json))
      .set("warnings", array_of(attempt.warnings, [](const std::string& warning) { return Json(warning); }))
      .set("todos", array_of(attempt.todos, todo_to_json))
      .set("questions", array_of(attempt.questions, question_to_json))
      .set("background_processes", array_of(attempt.background_processes, background_process_to_json))
      .set("escaped_processes", array_of(attempt.escaped_processes, escaped_process_to_json))
      .set("sandboxed", attempt.sandboxed)
      .set("sandbox", sandbox_to_json(attempt.sandbox))
      .set("environment", Json::object().set("dropped", array_of(attempt.environment_dropped, [](const std::string& name) {
             return Json(name);
           })))
      .set("patch_withheld", array_of(attempt.patch_withheld, withheld_to_json))
      .set("mcp_servers", array_of(attempt.mcp_servers, mcp_server_to_json));
  set_agent_extras(attempt, json);
  return json;
}

Json report_to_json(const RunReport& report) {
  Json json = Json::object();
  json.set("schema", std::string(k_report_schema))
      .set("run", run_to_json(report))
      .set("attempts", array_of(report.attempts, attempt_to_json));
  return json;
}

namespace {

/// `json` as dump_pretty writes it `depth` levels down: every line after the first indented by
/// two spaces a level (a JSON text has no newline but between its tokens), without the last newline.
std::string pretty_at_depth(const Json& json, int depth) {
  std::string pretty = json.dump_pretty();
  pretty.pop_back();
  const std::string indent(static_cast<std::size_t>(2 * depth), ' ');
  std::string text;
  text.reserve(pretty.size() + pretty.size() / 8);
  for (char c : pretty) {
    text += c;
    if (c == '\n') text += indent;
  }
  return text;
}

}  // namespace

void write_report_json(const RunReport& report, const WritePiece& write) {
  std::string text = "{\n  \"schema\": " + Json(std::string(k_report_schema)).dump() + ",\n  \"run\": " +
                     pretty_at_depth(run_to_json(report), 1) + ",\n  \"attempts\": [";
  for (std::size_t i = 0; i < report.attempts.size(); ++i) {
    text += i ? ",\n    " : "\n    ";
    text += pretty_at_depth(attempt_to_json(report.attempts[i]), 2);
    write(text);
    text.clear();
  }
  text += report.attempts.empty() ? "]\n}\n" : "\n  ]\n}\n";
  write(text);
}

Json edit_diagnostics_to_json(const std::optional<EditDiagnostics>& diagnostics) {
  if (!diagnostics) return Json(nullptr);
  Json json = Json::object();
  json.set("checker", diagnostics->checker)
      .set("checker_version", diagnostics->checker_version)
      .set("checker_kind", diagnostics->checker_kind)
      .set("status", diagnostics->status)
      .set("note", diagnostics->note)
      .set("problems", array_of(diagnostics->problems, problem_to_json))
      .set("introduced", array_of(diagnostics->introduced, problem_to_json))
      .set("resolved", array_of(diagnostics->resolved, problem_to_json))
      .set("compared", diagnostics->compared)
      .set("duration_ms", diagnostics->duration_ms);
  return json;
}

}  // namespace agent_run
