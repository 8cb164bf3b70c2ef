#include "batch/stream_json.h"

#include "base/digest.h"
#include "base/text.h"
#include "batch/attempt_plan.h"
#include "report/report_writers.h"
#include "report/run_totals.h"
#include "report/workflow_commands.h"

namespace agent_run {

namespace {

/// The most of a tool's result a `tool_call` event carries; the report's transcript has it whole.
constexpr std::size_t k_result_bytes = 2000;
// What of a longer result is kept: its start and, since a command's verdict is often at the end, its end.
constexpr std::size_t k_result_head_bytes = 1400;
constexpr std::size_t k_result_tail_bytes = 500;

Json checks_json(const std::vector<CheckRecord>& checks) {
  Json list = Json::array();
  for (const CheckRecord& check : checks) {
    list.push(Json::object()
                  .set("run", check.run)
                  .set("passed", check.passed)
                  .set("exit_code", check.exit_code)
                  .set("timed_out", check.timed_out));
  }
  return list;
}

Json policy_json(const AttemptPlan& plan, const PolicyOrigin& origin) {
  std::error_code ec;
  const std::filesystem::path file = std::filesystem::absolute(plan.policy->source, ec);
  return Json::object()
      .set("file", plan.policy->source.empty() ? Json(nullptr) : Json(file.lexically_normal().string()))
      .set("from", origin ? origin(plan) : std::string(plan.policy->source.empty() ? "built-in" : ""))
      .set("sha256", plan.policy->sha256);
}

/// Which sandbox the agent's commands run in (`kind`, `on`), who said so, and why none.
Json sandbox_json(const SandboxRecord& sandbox) {
  Json json = Json::object()
                  .set("kind", sandbox.kind)
                  .set("on", sandbox.kind != "none")
                  .set("set_by", sandbox.set_by);
  if (sandbox.kind != "none") json.set("network", sandbox.network).set("write", sandbox.write);
  else json.set("why_none", sandbox.why_none);
  return json;
}

/// One attempt's events, written to the run's sink.
class StreamJsonObserver final : public AttemptObserver {
 public:
  StreamJsonObserver(StreamJsonSink& sink, const AttemptPlan& plan, const PolicyOrigin& origin)
      : m_sink(sink), m_attempt(plan.folder), m_model(plan.model), m_policy(policy_json(plan, origin)) {
    write(Json::object()
              .set("type", "attempt_started")
              .set("task", plan.task->id)
              .set("model", plan.model)
              .set("n", plan.n));
  }

  void agent_starting(const std::filesystem::path& workspace, const SandboxRecord& sandbox) override {
    m_workspace = workspace.string();
    m_sandbox = sandbox_json(sandbox);
  }

  /// `init`, as claude's system/init: what the agent was given before its first turn, where it
  /// works, under which policy and in which sandbox.
  void started(const Conversation& conversation, const std::vector<ToolSchema>& tools) override {
    Json names = Json::array();
    for (const ToolSchema& tool : tools) names.push(tool.name);
    write(Json::object()
              .set("type", "init")
              .set("model", m_model)
              .set("tools", std::move(names))
              .set("system_prompt_sha256", sha256_hex(conversation.system))
              .set("workspace", m_workspace)
              .set("policy", m_policy)
              .set("sandbox", m_sandbox));
  }

  void turn(int turn, const ModelTurn& response, const ModelCallRecord& call) override {
    Json calls = Json::array();
    for (const ToolCall& tool_call : response.message.tool_calls) calls.push(tool_call.name);
    write(Json::object()
              .set("type", "turn")
              .set("turn", turn)
              .set("text", response.message.text)
              .set("tool_calls", std::move(calls))
              .set("stop_reason", call.stop_reason)
              .set("usage", usage_to_json(response.usage)));
  }

  void model_error(const ModelCallRecord& call) override {
    write(Json::object().set("type", "model_error").set("turn", call.turn).set("error", call.error));
  }

  void tool_result(const ToolCall& call, const ToolCallRecord& record, const ToolResult& result) override {
    Json event = Json::object()
                     .set("type", "tool_call")
                     .set("turn", record.turn)
                     .set("tool", call.name)
                     .set("input", call.input)
                     .set("decision", record.decision)
                     .set("reason", record.reason)
                     .set("is_error", result.is_error)
                     .set("result", result.content.size() > k_result_bytes
                                         ? repair_utf8(cap_head_tail(result.content, k_result_head_bytes, k_result_tail_bytes))
                                         : repair_utf8(result.content))
                     .set("result_truncated", result.content.size() > k_result_bytes);
    const bool edits = call.name == "edit_file" || call.name == "write_file";
    if (edits && record.decision == "allowed" && !result.is_error) event.set("edit", call.input.get_string("path"));
    write(std::move(event));
  }

  void context_changed(const ContextEvent& event, const Conversation&) override {
    write(Json::object()
              .set("type", "context")
              .set("turn", event.turn)
              .set("kind", event.kind)
              .set("tokens_before", event.tokens_before)
              .set("tokens_after", event.tokens_after));
  }

  void notice(int turn, const std::string& text) override {
    write(Json::object().set("type", "notice").set("turn", turn).set("text", text));
  }

  void sent_back(int turn, const std::string& review, const std::string& message) override {
    write(Json::object().set("type", "sent_back").set("turn", turn).set("review", review).set("message", message));
  }

  void checks_ran(int round, const std::vector<CheckRecord>& checks) override {
    write(Json::object().set("type", "checks").set("round", round).set("checks", checks_json(checks)));
  }

  void finished(const AttemptResult& result) override {
    write(Json::object()
              .set("type", "attempt_finished")
              .set("outcome", to_string(result.outcome))
              .set("outcome_type", to_string(result.outcome_type))
              .set("message", result.message)
              .set("turns", result.turns)
              .set("duration_ms", result.durations.total_ms)
              .set("final_answer", result.final_message)
              .set("structured_output", result.structured_output ? *result.structured_output : Json(nullptr))
              .set("usage", usage_to_json(result.usage)));
  }

 private:
  void write(Json event) { m_sink.write(m_attempt, std::move(event)); }

  StreamJsonSink& m_sink;
  std::string m_attempt;
  std::string m_model;
  Json m_policy;
  std::string m_workspace;              // from agent_starting
  Json m_sandbox = Json(nullptr);       // from agent_starting
};

}  // namespace

void StreamJsonSink::write(const std::string& attempt, Json event) {
  event.set("attempt", attempt);
  put(event);
}

void StreamJsonSink::finish(const RunReport& report, int exit_code, const std::string& outcome) {
  RunTotals totals = compute_totals(report.attempts);
  Json event = Json::object()
                   .set("type", "run_finished")
                   .set("outcome", outcome)
                   .set("exit_code", exit_code)
                   .set("attempts", totals.attempts)
                   .set("passed", totals.passed)
                   .set("failed", totals.failed)
                   .set("errors", totals.error)
                   .set("skipped", totals.skipped)
                   .set("tokens", totals.usage.total_tokens())
                   .set("cost_usd", totals.usage.cost_usd ? Json(*totals.usage.cost_usd) : Json(nullptr))
                   .set("duration_ms", report.duration_ms)
                   .set("usage", usage_to_json(totals.usage));
  put(event);
}

void StreamJsonSink::put(const Json& event) {
  const std::string line = json_log_line(event.dump()) + "\n";  // the events quote the agent
  std::lock_guard lock(m_mutex);
  m_out << line;
  m_out.flush();
}

AttemptObserverFactory stream_json_observers(StreamJsonSink& sink, PolicyOrigin policy_origin) {
  return [&sink, policy_origin = std::move(policy_origin)](const AttemptPlan& plan) -> std::unique_ptr<AttemptObserver> {
    return std::make_unique<StreamJsonObserver>(sink, plan, policy_origin);
  };
}

}  // namespace agent_run
