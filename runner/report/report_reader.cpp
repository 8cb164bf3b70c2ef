#include "report/report_reader.h"

#include "base/digest.h"
#include "base/files.h"
#include "report/field_reader.h"
#include "report/problem_json.h"
#include "report/report_journal.h"
#include "report/report_schema.h"

#include <algorithm>
#include <set>

namespace agent_run {

namespace {

Usage read_usage(FieldReader& in, const Json& json, const std::string& path) {
  Usage usage;
  in.read(json, "input_tokens", path, usage.input_tokens);
  in.read(json, "output_tokens", path, usage.output_tokens);
  in.read(json, "cache_read_input_tokens", path, usage.cache_read_input_tokens);
  in.read(json, "cache_creation_input_tokens", path, usage.cache_creation_input_tokens);
  in.read(json, "reasoning_tokens", path, usage.reasoning_tokens);
  in.read(json, "estimated", path, usage.estimated);
  if (const Json* cost = in.member(json, "cost_usd", path)) {
    if (!cost->is_number()) in.fail(FieldReader::join_path(path, "cost_usd"), "expected a number or null");
    else usage.cost_usd = cost->as_double();
  }
  return usage;
}

ToolCallRecord read_tool_call(FieldReader& in, const Json& json, const std::string& path) {
  ToolCallRecord call;
  in.read(json, "turn", path, call.turn);
  in.read(json, "id", path, call.id);
  in.read(json, "name", path, call.name);
  in.read(json, "input_summary", path, call.input_summary);
  in.read(json, "decision", path, call.decision);
  in.read(json, "decided_by", path, call.decided_by);
  in.read(json, "rule_id", path, call.rule_id);
  in.read(json, "reason", path, call.reason);
  in.read(json, "duration_ms", path, call.duration_ms);
  in.read(json, "result_bytes", path, call.result_bytes);
  in.read(json, "is_error", path, call.is_error);
  if (const Json* mcp = in.member(json, "mcp", path)) {
    in.read(*mcp, "server", FieldReader::join_path(path, "mcp"), call.mcp_server);
    in.read(*mcp, "tool", FieldReader::join_path(path, "mcp"), call.mcp_tool);
  }
  in.read(json, "error", path, call.error);
  return call;
}

EditDiagnostics read_edit_diagnostics(FieldReader& in, const Json& json, const std::string& path) {
  EditDiagnostics diagnostics;
  in.read(json, "checker", path, diagnostics.checker);
  in.read(json, "checker_version", path, diagnostics.checker_version);
  in.read(json, "checker_kind", path, diagnostics.checker_kind);
  in.read(json, "status", path, diagnostics.status);
  in.read(json, "note", path, diagnostics.note);
  for (auto field : {std::pair{"problems", &diagnostics.problems}, std::pair{"introduced", &diagnostics.introduced},
                     std::pair{"resolved", &diagnostics.resolved}}) {
    std::vector<Problem>* list = field.second;  // a named variable: clang 14 cannot capture a structured binding
    in.for_each(json, field.first, path,
                [&](const Json& item, const std::string& at) { list->push_back(read_problem(in, item, at)); });
  }
  in.read(json, "compared", path, diagnostics.compared);
  in.read(json, "duration_ms", path, diagnostics.duration_ms);
  return diagnostics;
}

CheckRecord read_check(FieldReader& in, const Json& json, const std::string& path);

EditRecord read_edit(FieldReader& in, const Json& json, const std::string& path) {
  EditRecord edit;
  in.read(json, "turn", path, edit.turn);
  in.read(json, "tool_call_id", path, edit.tool_call_id);
  in.read(json, "tool", path, edit.tool);
  in.read(json, "path", path, edit.path);
  in.read(json, "lines_added", path, edit.lines_added);
  in.read(json, "lines_removed", path, edit.lines_removed);
  if (const Json* diagnostics = in.member(json, "diagnostics", path)) {  // null: diagnostics were off
    edit.diagnostics = read_edit_diagnostics(in, *diagnostics, path + ".diagnostics");
  }
  if (const Json* checks = json.find("checks"); checks && checks->is_array()) {  // absent: none ran
    for (std::size_t i = 0; i < checks->as_array().size(); ++i) {
      edit.checks.push_back(read_check(in, checks->as_array()[i], path + ".checks[" + std::to_string(i) + "]"));
    }
  }
  return edit;
}

CheckRecord read_check(FieldReader& in, const Json& json, const std::string& path) {
  CheckRecord check;
  in.read(json, "run", path, check.run);
  in.read(json, "passed", path, check.passed);
  in.read(json, "exit_code", path, check.exit_code);
  in.read(json, "timed_out", path, check.timed_out);
  in.read(json, "duration_ms", path, check.duration_ms);
  in.read(json, "output_tail", path, check.output_tail);
  return check;
}

Durations read_durations(FieldReader& in, const Json& json, const std::string& path) {
  Durations durations;
  in.read(json, "total_ms", path, durations.total_ms);
  in.read(json, "setup_ms", path, durations.setup_ms);
  in.read(json, "model_ms", path, durations.model_ms);
  in.read(json, "tools_ms", path, durations.tools_ms);
  in.read(json, "checks_ms", path, durations.checks_ms);
  in.read(json, "workspace_ms", path, durations.workspace_ms);
  in.read(json, "cleanup_ms", path, durations.cleanup_ms);
  in.read(json, "baseline_ms", path, durations.baseline_ms);
  return durations;
}

ModelTryRecord read_model_try(FieldReader& in, const Json& json, const std::string& path) {
  ModelTryRecord failed;
  in.read(json, "try", path, failed.try_number);
  in.read(json, "status", path, failed.status);
  in.read(json, "error_type", path, failed.error_type);
  in.read(json, "message", path, failed.message);
  in.read(json, "request_id", path, failed.request_id);
  in.read(json, "wait_ms", path, failed.wait_ms);
  in.read(json, "duration_ms", path, failed.duration_ms);
  return failed;
}

ModelCallRecord read_model_call(FieldReader& in, const Json& json, const std::string& path) {
  ModelCallRecord call;
  in.read(json, "turn", path, call.turn);
  in.read(json, "purpose", path, call.purpose);
  in.read(json, "request_id", path, call.request_id);
  in.read(json, "response_model", path, call.response_model);
  in.read(json, "stop_reason", path, call.stop_reason);
  in.read(json, "error", path, call.error);
  if (const Json* usage = in.member(json, "usage", path)) call.usage = read_usage(in, *usage, path + ".usage");
  in.read(json, "duration_ms", path, call.duration_ms);
  in.for_each(json, "failed_tries", path, [&](const Json& item, const std::string& at) {
    call.failed_tries.push_back(read_model_try(in, item, at));
  });
  return call;
}

TodoItem read_todo(FieldReader& in, const Json& json, const std::string& path) {
  TodoItem item;
  in.read(json, "content", path, item.content);
  in.read(json, "status", path, item.status);
  return item;
}

QuestionRecord read_question(FieldReader& in, const Json& json, const std::string& path) {
  QuestionRecord question;
  in.read(json, "turn", path, question.turn);
  in.read(json, "question", path, question.question);
  in.read_strings(json, "options", path, question.options);
  in.read(json, "answer", path, question.answer);
  in.read(json, "answered_by", path, question.answered_by);
  in.read(json, "rule_index", path, question.rule_index);
  return question;
}

BackgroundProcessRecord read_background_process(FieldReader& in, const Json& json, const std::string& path) {
  BackgroundProcessRecord process;
  in.read(json, "handle", path, process.handle);
  in.read(json, "command", path, process.command);
  in.read(json, "pid", path, process.pid);
  in.read(json, "ended_by", path, process.ended_by);
  in.read(json, "exit_code", path, process.exit_code);
  in.read(json, "signal", path, process.signal);
  in.read(json, "output_bytes", path, process.output_bytes);
  in.read(json, "duration_ms", path, process.duration_ms);
  return process;
}

EscapedProcessRecord read_escaped_process(FieldReader& in, const Json& json, const std::string& path) {
  EscapedProcessRecord process;
  in.read(json, "pid", path, process.pid);
  in.read(json, "command", path, process.command);
  return process;
}

LateMaskRecord read_late_mask(FieldReader& in, const Json& json, const std::string& path) {
  LateMaskRecord mask;
  in.read(json, "path", path, mask.path);
  in.read(json, "why", path, mask.why);
  in.read(json, "during", path, mask.during);
  in.read(json, "first_masked_at", path, mask.first_masked_at);
  return mask;
}

SandboxRecord read_sandbox(FieldReader& in, const Json& json, const std::string& path) {
  SandboxRecord sandbox;
  in.read(json, "kind", path, sandbox.kind);
  in.read(json, "why_none", path, sandbox.why_none);
  in.read(json, "set_by", path, sandbox.set_by);
  in.read(json, "network", path, sandbox.network);
  in.read(json, "write", path, sandbox.write);
  in.read(json, "bubblewrap", path, sandbox.bubblewrap);
  in.read_strings(json, "masked", path, sandbox.masked);
  in.read(json, "masked_total", path, sandbox.masked_total);
  in.for_each(json, "masked_later", path, [&](const Json& item, const std::string& at) {
    sandbox.masked_later.push_back(read_late_mask(in, item, at));
  });
  in.read(json, "masked_later_total", path, sandbox.masked_later_total);
  in.read_strings(json, "read_only", path, sandbox.read_only);
  in.for_each(json, "shown", path, [&](const Json& item, const std::string& at) {
    ShownRecord shown;
    in.read(item, "path", at, shown.path);
    in.read(item, "why", at, shown.why);
    in.read(item, "writable", at, shown.writable);
    sandbox.shown.push_back(std::move(shown));
  });
  in.read(json, "survey_complete", path, sandbox.survey_complete);
  in.read(json, "survey_note", path, sandbox.survey_note);
  return sandbox;
}

WithheldPath read_withheld(FieldReader& in, const Json& json, const std::string& path) {
  WithheldPath withheld;
  in.read(json, "path", path, withheld.path);
  in.read(json, "why", path, withheld.why);
  return withheld;
}

ContextEvent read_context_event(FieldReader& in, const Json& json, const std::string& path) {
  ContextEvent event;
  in.read(json, "turn", path, event.turn);
  in.read(json, "kind", path, event.kind);
  in.read(json, "tokens_before", path, event.tokens_before);
  in.read(json, "tokens_after", path, event.tokens_after);
  in.read(json, "results_pruned", path, event.results_pruned);
  if (const Json* cost = in.member(json, "cost_usd", path)) {
    if (cost->is_number()) event.cost_usd = cost->as_double();
    else in.fail(path + ".cost_usd", "expected a number or null");
  }
  in.read(json, "message", path, event.message);
  return event;
}

void read_context(FieldReader& in, const Json& json, const std::string& path, ContextRecord& context) {
  if (const Json* window = in.member(json, "window", path)) {
    if (window->is_integer()) context.window = window->as_int();
    else in.fail(path + ".window", "expected a whole number or null");
  }
  in.read(json, "prunings", path, context.prunings);
  in.read(json, "compactions", path, context.compactions);
  in.read(json, "failed_compactions", path, context.failed_compactions);
  in.for_each(json, "events", path, [&](const Json& item, const std::string& at) {
    context.events.push_back(read_context_event(in, item, at));
  });
}

CheckRound read_check_round(FieldReader& in, const Json& json, const std::string& path) {
  CheckRound round;
  in.read(json, "round", path, round.round);
  in.read(json, "turn", path, round.turn);
  in.read(json, "passed", path, round.passed);
  in.for_each(json, "checks", path,
              [&](const Json& item, const std::string& at) { round.checks.push_back(read_check(in, item, at)); });
  in.read(json, "fed_back", path, round.fed_back);
  return round;
}

/// Reads what the agent loop recorded beyond its calls (fields older reports lack are left empty).
void read_agent_extras(FieldReader& in, const Json& json, const std::string& path, AttemptResult& attempt) {
  in.read(json, "final_message", path, attempt.final_message);
  in.read(json, "system_prompt_sha256", path, attempt.system_prompt_sha256);
  in.read_strings(json, "instruction_files", path, attempt.instruction_files);
  if (const Json* context = in.member(json, "context", path))
    read_context(in, *context, path + ".context", attempt.context);
  if (const Json* output = in.member(json, "structured_output", path)) attempt.structured_output = *output;
  in.read(json, "output_path", path, attempt.output_path);
  in.for_each(json, "check_rounds", path, [&](const Json& item, const std::string& at) {
    attempt.check_rounds.push_back(read_check_round(in, item, at));
  });
}

McpServerRecord read_mcp_server(FieldReader& in, const Json& json, const std::string& path) {
  McpServerRecord server;
  in.read(json, "name", path, server.name);
  in.read(json, "transport", path, server.transport);
  in.read(json, "required", path, server.required);
  in.read(json, "sandboxed", path, server.sandboxed);
  in.read(json, "status", path, server.status);
  in.read(json, "error", path, server.error);
  in.read(json, "server_name", path, server.server_name);
  in.read(json, "server_version", path, server.server_version);
  in.read(json, "protocol_version", path, server.protocol_version);
  in.read(json, "startup_ms", path, server.startup_ms);
  in.read_strings(json, "tools", path, server.tools);
  in.read_strings(json, "skipped_tools", path, server.skipped_tools);
  in.read(json, "stderr_tail", path, server.stderr_tail);
  in.read(json, "stderr_bytes", path, server.stderr_bytes);
  in.read(json, "ending", path, server.ending);
  in.for_each(json, "log", path, [&](const Json& item, const std::string& at) {
    McpLogRecord entry;
    in.read(item, "level", at, entry.level);
    in.read(item, "logger", at, entry.logger);
    in.read(item, "text", at, entry.text);
    server.log.push_back(std::move(entry));
  });
  in.read(json, "log_count", path, server.log_count);
  in.for_each(json, "elicitations", path, [&](const Json& item, const std::string& at) {
    McpElicitationRecord elicitation;
    in.read(item, "message", at, elicitation.message);
    in.read(item, "action", at, elicitation.action);
    in.read(item, "answered_by", at, elicitation.answered_by);
    in.read(item, "reason", at, elicitation.reason);
    server.elicitations.push_back(std::move(elicitation));
  });
  return server;
}

/// Reads what the model, the session tools and the processes of an attempt left in its record.
void read_attempt_session(FieldReader& in, const Json& json, const std::string& path, AttemptResult& attempt) {
  in.for_each(json, "model_calls", path, [&](const Json& item, const std::string& at) {
    attempt.model_calls.push_back(read_model_call(in, item, at));
  });
  in.read_strings(json, "warnings", path, attempt.warnings);
  in.for_each(json, "todos", path,
              [&](const Json& item, const std::string& at) { attempt.todos.push_back(read_todo(in, item, at)); });
  in.for_each(json, "questions", path, [&](const Json& item, const std::string& at) {
    attempt.questions.push_back(read_question(in, item, at));
  });
  in.for_each(json, "background_processes", path, [&](const Json& item, const std::string& at) {
    attempt.background_processes.push_back(read_background_process(in, item, at));
  });
  in.for_each(json, "escaped_processes", path, [&](const Json& item, const std::string& at) {
    attempt.escaped_processes.push_back(read_escaped_process(in, item, at));
  });
  in.read(json, "sandboxed", path, attempt.sandboxed);
  if (const Json* sandbox = in.member(json, "sandbox", path))
    attempt.sandbox = read_sandbox(in, *sandbox, path + ".sandbox");
  if (const Json* environment = in.member(json, "environment", path))
    in.read_strings(*environment, "dropped", path + ".environment", attempt.environment_dropped);
  in.for_each(json, "patch_withheld", path, [&](const Json& item, const std::string& at) {
    attempt.patch_withheld.push_back(read_withheld(in, item, at));
  });
  in.for_each(json, "mcp_servers", path, [&](const Json& item, const std::string& at) {
    attempt.mcp_servers.push_back(read_mcp_server(in, item, at));
  });
}

/// Reads `n`, or the older format's 0-based `repeat_index`.
void read_attempt_number(FieldReader& in, const Json& json, const std::string& path, AttemptResult& attempt) {
  if (in.format_1()) {
    int repeat_index = 0;
    in.read(json, "repeat_index", path, repeat_index);
    attempt.n = repeat_index + 1;
    return;
  }
  in.read(json, "n", path, attempt.n);
  if (in.ok() && attempt.n < 1)
    in.fail(FieldReader::join_path(path, "n"), "expected a number from 1, got " + std::to_string(attempt.n));
}

/// Reads the attempt's identity and outcome; the rest is read by read_attempt.
void read_attempt_identity(FieldReader& in, const Json& json, const std::string& path, AttemptResult& attempt) {
  in.read(json, "task_id", path, attempt.task_id);
  if (in.ok() && attempt.task_id.empty()) in.fail(path, "has no task_id");
  in.read(json, "task_file", path, attempt.task_file);
  in.read(json, "task_sha256", path, attempt.task_sha256);
  in.read(json, "policy_file", path, attempt.policy_file);
  in.read(json, "policy_sha256", path, attempt.policy_sha256);
  in.read(json, "model", path, attempt.model);
  read_attempt_number(in, json, path, attempt);
  std::string outcome;
  in.read(json, "outcome", path, outcome);
  if (auto parsed = outcome_named(outcome)) attempt.outcome = *parsed;
  else if (in.ok()) in.fail(path + ".outcome", "expected passed, failed, error or skipped, got '" + outcome + "'");
  if (const Json* type = in.member(json, "outcome_type", path)) {
    std::optional<OutcomeType> parsed = type->is_string() ? outcome_type_named(type->as_string()) : std::nullopt;
    if (parsed) attempt.outcome_type = *parsed;
    else if (in.ok())
      in.fail(path + ".outcome_type", "expected an outcome type (passed, check.failed, ...), got " + type->dump());
  }
  in.read(json, "message", path, attempt.message);
  in.read(json, "started_at", path, attempt.started_at);
}

AttemptResult read_attempt(FieldReader& in, const Json& json, const std::string& path) {
  AttemptResult attempt;
  read_attempt_identity(in, json, path, attempt);
  std::string stop;
  in.read(json, "stop_reason", path, stop);
  if (auto parsed = agent_stop_named(stop)) attempt.stop_reason = *parsed;
  else if (!stop.empty() && in.ok())
    in.fail(path + ".stop_reason", "expected a stop reason (end_turn, limit.turns, ...), got '" + stop + "'");
  in.read(json, "final_message", path, attempt.final_message);
  in.read(json, "turns", path, attempt.turns);
  in.for_each(json, "tool_calls", path, [&](const Json& item, const std::string& at) {
    attempt.tool_calls.push_back(read_tool_call(in, item, at));
  });
  in.for_each(json, "edits", path,
              [&](const Json& item, const std::string& at) { attempt.edits.push_back(read_edit(in, item, at)); });
  if (const Json* usage = in.member(json, "usage", path)) attempt.usage = read_usage(in, *usage, path + ".usage");
  if (const Json* durations = in.member(json, "durations", path)) {
    attempt.durations = read_durations(in, *durations, path + ".durations");
  }
  in.for_each(json, "setup", path,
              [&](const Json& item, const std::string& at) { attempt.setup.push_back(read_check(in, item, at)); });
  in.for_each(json, "checks", path,
              [&](const Json& item, const std::string& at) { attempt.checks.push_back(read_check(in, item, at)); });
  if (const Json* patch = in.member(json, "patch", path)) {
    in.read(*patch, "files_changed", path + ".patch", attempt.patch.files_changed);
    in.read(*patch, "lines_added", path + ".patch", attempt.patch.lines_added);
    in.read(*patch, "lines_removed", path + ".patch", attempt.patch.lines_removed);
  }
  in.read(json, "transcript_path", path, attempt.transcript_path);
  in.read(json, "patch_path", path, attempt.patch_path);
  if (const Json* commit = in.member(json, "commit", path)) {
    CommitRecord record;
    in.read(*commit, "branch", path + ".commit", record.branch);
    in.read(*commit, "sha", path + ".commit", record.sha);
    attempt.commit = record;
  }
  read_attempt_session(in, json, path, attempt);
  read_agent_extras(in, json, path, attempt);
  return attempt;
}

void read_run(FieldReader& in, const Json& run, RunReport& report) {
  in.read(run, "runner_version", "run", report.runner_version);
  in.read(run, "started_at", "run", report.started_at);
  in.read(run, "duration_ms", "run", report.duration_ms);
  in.for_each(run, "command_line", "run", [&](const Json& word, const std::string& at) {
    if (!word.is_string()) return in.fail(at, "expected a string");
    report.command_line.push_back(word.as_string());
  });
  if (const Json* policy = in.member(run, "policy", "run")) {
    in.read(*policy, "file", "run.policy", report.policy_file);
    in.read(*policy, "sha256", "run.policy", report.policy_sha256);
  }
  in.read(run, "interrupted", "run", report.interrupted);
  if (const Json* shard = in.member(run, "shard", "run")) {
    ShardRecord record;
    in.read(*shard, "index", "run.shard", record.index);
    in.read(*shard, "total", "run.shard", record.total);
    report.shard = record;
  }
  if (const Json* prices = in.member(run, "price_table", "run")) {
    in.read(*prices, "version", "run.price_table", report.price_table_version);
    in.read(*prices, "file", "run.price_table", report.price_table_file);
  }
}

/// The attempt's identity in a report: task id and content, model, number.
std::string identity(const AttemptResult& attempt) {
  return attempt.task_id + "\n" + attempt.task_sha256 + "\n" + attempt.model + "\n" + std::to_string(attempt.n);
}

/// Adds to `report` (read from `report_text`) the attempts of the journal at `journal` that it does
/// not hold, and the run's duration when the last of them finished: when the journal continues this
/// report.json (its first line names the file's SHA-256). A journal that is not there, a first line
/// cut short and one that names another report.json add nothing; so does a last line without its
/// newline (a run killed while appending it). A whole line that does not read is an error.
Expected<void> add_journal(const std::filesystem::path& journal, std::string_view report_text, RunReport& report) {
  std::error_code ec;
  if (!std::filesystem::exists(journal, ec)) return {};
  AR_TRY_ASSIGN(std::string text, read_file(journal));
  std::size_t end = text.find('\n');
  if (end == std::string::npos) return {};
  auto header = parse_json(std::string_view(text).substr(0, end));
  if (!header || !header->is_object()) return {};
  if (header->get_string("schema") != k_journal_schema) {
    return make_error(journal.string() + ":1: not a journal this version reads (schema '" +
                      header->get_string("schema") + "', expected '" + std::string(k_journal_schema) + "')");
  }
  if (header->get_string("report_sha256") != sha256_hex(report_text)) return {};
  std::set<std::string> held;
  for (const AttemptResult& attempt : report.attempts) held.insert(identity(attempt));
  for (std::size_t start = end + 1, line = 2; (end = text.find('\n', start)) != std::string::npos;
       start = end + 1, ++line) {
    const std::string where = journal.string() + ":" + std::to_string(line);
    auto entry = parse_json(std::string_view(text).substr(start, end - start));
    if (!entry) return make_error(where + ": not valid JSON: " + entry.error().message);
    const Json* attempt_json = entry->find("attempt");
    const Json* duration = entry->find("run_duration_ms");
    if (!attempt_json || !duration || !duration->is_integer()) {
      return make_error(where + ": expected an object with `attempt` and `run_duration_ms`");
    }
    AR_TRY_ASSIGN(AttemptResult attempt, attempt_from_json(*attempt_json, where));
    report.duration_ms = std::max<long long>(report.duration_ms, duration->as_int());
    if (held.insert(identity(attempt)).second) report.attempts.push_back(std::move(attempt));
  }
  return {};
}

}  // namespace

Expected<RunReport> report_from_json(const Json& json, const std::string& source) {
  if (!json.is_object()) return make_error(source + ": not an agent-run report (expected a JSON object)");
  std::string schema = json.get_string("schema");
  if (schema != k_report_schema && schema != k_report_schema_1) {
    return make_error(source + ": not an agent-run report this version reads (schema '" + schema + "', expected '" +
                      std::string(k_report_schema) + "' or the older '" + std::string(k_report_schema_1) + "')");
  }
  FieldReader in(source, schema == k_report_schema_1);
  RunReport report;
  if (const Json* run = in.member(json, "run", "")) read_run(in, *run, report);
  in.for_each(json, "attempts", "",
              [&](const Json& item, const std::string& at) { report.attempts.push_back(read_attempt(in, item, at)); });
  if (!in.ok()) return in.error();
  return report;
}

Expected<AttemptResult> attempt_from_json(const Json& json, const std::string& source) {
  FieldReader in(source, false);
  AttemptResult attempt = read_attempt(in, json, "attempt");
  if (!in.ok()) return in.error();
  return attempt;
}

Expected<RunReport> read_report_file(const std::filesystem::path& file) {
  auto text = read_file(file);
  if (!text) return text.error();
  auto json = parse_json(*text);
  if (!json) return make_error(file.string() + ": not valid JSON: " + json.error().message);
  auto report = report_from_json(*json, file.string());
  if (!report) return report;
  AR_TRY(add_journal(journal_path(file), *text, *report));
  return report;
}

}  // namespace agent_run
