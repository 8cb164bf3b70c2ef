#include "agent/answer_call.h"
#include "app/commands.h"
#include "app/grep_setting.h"
#include "app/load_inputs.h"
#include "app/run_configuration.h"
#include "app/signal_scope.h"
#include "base/cancellation.h"
#include "base/clock.h"
#include "base/files.h"
#include "base/json.h"
#include "base/text.h"
#include "batch/attempt_session.h"
#include "batch/sandbox_setup.h"
#include "batch/task_programs.h"
#include "diagnostics/edit_checker.h"
#include "exec/child_process.h"
#include "exec/sandbox_probe.h"
#include "policy/policy_loader.h"
#include "report/report_writers.h"
#include "report/workflow_commands.h"
#include "tools/diagnostics_hook.h"

#include <istream>

namespace agent_run {

namespace {

/// Everything one `agent-run tool` session shares: one attempt's task, policy, tools, scope and state.
/// A folder removed when the session ends (after its sandbox, declared after it).
struct SessionFolder {
  std::filesystem::path path;
  ~SessionFolder() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

struct ToolSession {
  SessionFolder scratch;                  // the sandbox's folder goes here
  std::optional<StartedSandbox> sandbox;  // the attempt's sandbox, as a run would have it; none when off
  SandboxSite site;                       // where it is, for what the session says of it
  SandboxSpec sandbox_spec;
  LoadedInputs inputs;  // the --task file and its policy (or --policy), when given
  Task task;            // an empty task without --task: no keys, nothing of its own to protect
  const Policy* policy = nullptr;
  Policy builtin = builtin_policy();
  ToolRegistry tools;
  std::optional<EditChecker> diagnostics;  // per-edit diagnostics, as in a run; none with --no-diagnostics
  ToolScope scope;
  SessionState state;
  std::optional<std::string> grep;  // agent-run.yaml's `grep:`, with --task
};

/// The --task file and its policy (--policy over the task's own), or --policy alone, or the built-in policy.
Expected<void> load_task_and_policy(const CliOptions& options, ToolSession& session) {
  if (options.task) {
    auto configuration = configuration_for(options);  // the task's defaults, as in a run
    if (!configuration) return configuration.error();
    session.grep = configuration->grep;
    auto inputs = load_inputs({*options.task}, options.policy, {}, configuration->defaults);
    if (!inputs) return inputs.error();
    session.inputs = std::move(*inputs);
    session.task = session.inputs.tasks.front();
    session.policy = session.inputs.policy_of.front();
  } else if (options.policy) {
    auto policy = load_policy_file(*options.policy);
    if (!policy) return policy.error();
    session.policy = &session.inputs.policies.emplace_back(std::move(*policy));
  } else {
    session.policy = &session.builtin;
  }
  return {};
}

/// Starts the session's sandbox as a run starts an attempt's: --sandbox, else the task's sandbox:,
/// else the policy's, else the default; probed, surveyed, and laid out over the workspace as it is
/// (there is no setup). Says on stderr which sandbox it is, or warns that there is none.
Expected<void> open_sandbox(const CliOptions& options, const ProgramContext& program, const AttemptSettings& settings,
                            ToolSession& session) {
  session.sandbox_spec = attempt_sandbox(session.task, *session.policy, sandbox_flag(options.sandbox));
  if (session.sandbox_spec.mode == SandboxMode::off) {
    if (auto refused = sandbox_off_refusal(*session.policy, session.sandbox_spec)) return make_error(*refused);
    program.err << "agent-run tool: warning: " << unsandboxed_warning(session.sandbox_spec, 1) << "\n";
    return {};
  }
  auto scratch = make_unique_folder(std::filesystem::temp_directory_path(), "agent-run-tool-");
  if (!scratch) return scratch.error();
  session.scratch.path = *scratch;
  SandboxProbe probe(settings.environment, *scratch / "probe",
                     read_machine_facts(environment_value(program.environment, "KUBERNETES_SERVICE_HOST").has_value()));
  AR_TRY(probe.check(session.sandbox_spec));
  SandboxSite site;
  site.spec = session.sandbox_spec;
  site.workspace = session.scope.workspace;
  site.origin = in_place_origin(site.workspace);
  site.policy = session.policy;
  site.protected_paths = session.scope.protected_paths;
  site.runner_home = settings.runner_home;
  site.scratch = *scratch;
  site.environment = session.scope.environment;
  site.shown = task_shown_folders(session.task, site.spec, site.environment, site.workspace, settings.runner_home);
  auto started = start_sandbox(site);
  if (!started) {
    return make_error("the sandbox (" + sandbox_asker(site.spec) + ") cannot start: " + started.error().message + "; " +
                      sandbox_advice(started.error().message, read_machine_facts(false)));
  }
  session.sandbox = std::move(*started);
  session.site = site;
  SandboxRecord record = sandbox_record(site, &*session.sandbox, "");
  program.err << "agent-run tool: sandbox: bubblewrap, network " << record.network << ", writes: " << record.write
              << ", " << record.masked_total << (record.masked_total == 1 ? " path" : " paths") << " masked";
  for (std::size_t i = 0; i < record.masked.size() && i < 5; ++i)
    program.err << (i == 0 ? " (" : ", ") << record.masked[i];
  program.err << (record.masked.empty() ? "" : record.masked_total > 5 ? ", ...)" : ")") << "\n";
  return {};
}

/// Fills `session` from the command line (the session holds processes, so it is filled in place),
/// building the tools' scope the way a run builds an attempt's (make_tool_scope).
Expected<void> open_session(const CliOptions& options, const ProgramContext& program, const Cancellation& cancellation,
                            ToolSession& session) {
  std::error_code ec;
  std::filesystem::path workspace = std::filesystem::weakly_canonical(*options.workspace, ec);
  if (ec || !std::filesystem::is_directory(workspace)) {
    return make_error("--workspace " + *options.workspace + ": not a folder");
  }
  AR_TRY(load_task_and_policy(options, session));
  auto grep_backend = grep_backend_setting(program.environment, session.grep);
  if (!grep_backend) return grep_backend.error();
  AttemptSettings settings;  // a run of one attempt, with no report folder
  settings.environment = program.environment;
  settings.cancellation = &cancellation;
  settings.grep_backend = *grep_backend;
  settings.runner_home = environment_value(program.environment, "HOME");
  if (!options.no_diagnostics) settings.diagnostics = &session.diagnostics.emplace();
  session.scope = make_tool_scope(session.task, *session.policy, workspace, settings, nullptr, nullptr);
  AR_TRY(open_sandbox(options, program, settings, session));
  if (session.sandbox) {
    session.scope.sandbox = session.sandbox->sandbox.get();
    session.scope.survey = &session.sandbox->survey;
  }
  session.tools = make_tool_registry(session.task.tools);
  warm_diagnostics(session.scope);  // as an attempt's: the first edit finds its language server started
  return {};
}

/// One line of the input: `{"tool": NAME, "input": {...}}`.
Expected<ToolCall> parse_call(const std::string& line, int number) {
  const std::string where = "<stdin>:" + std::to_string(number) + ": ";
  auto json = parse_json(line);
  if (!json) return make_error(where + json.error().message);
  if (!json->is_object())
    return make_error(where + "expected an object like {\"tool\": \"read_file\", \"input\": {...}}");
  for (const auto& [key, value] : json->as_object()) {
    if (key == "tool" || key == "input") continue;
    auto suggestion = closest_match(key, {"tool", "input"});
    return make_error(where + "unknown key '" + key + "'" +
                      (suggestion ? " (did you mean '" + *suggestion + "'?)" : ""));
  }
  const Json* tool = json->find("tool");
  if (tool == nullptr || !tool->is_string()) return make_error(where + "'tool' must be a tool name (a string)");
  ToolCall call{"call-" + std::to_string(number), tool->as_string(), Json::object()};
  if (const Json* input = json->find("input")) {
    if (!input->is_object()) return make_error(where + "'input' must be an object, got " + input->dump());
    call.input = *input;
  }
  return call;
}

Json json_line(int number, const ToolCall& call, const AnsweredCall& answered, bool sandboxed) {
  Json images = Json::array();
  for (const ImageBlock& image : answered.output.images) {
    images.push(Json::object().set("media_type", image.media_type).set("data_base64", image.data_base64));
  }
  Json edit = nullptr;
  if (answered.output.edit) {
    edit = Json::object()
               .set("path", answered.output.edit->path)
               .set("lines_added", answered.output.edit->lines_added)
               .set("lines_removed", answered.output.edit->lines_removed)
               .set("diagnostics", edit_diagnostics_to_json(answered.output.edit->diagnostics));
  }
  return Json::object()
      .set("call", number)
      .set("tool", call.name)
      .set("input", call.input)
      .set("decision", Json::object()
                           .set("verdict", answered.record.decision)
                           .set("decided_by", answered.record.decided_by)
                           .set("rule_id", answered.record.rule_id)
                           .set("reason", answered.record.reason))
      .set("result", Json::object()
                         .set("content", answered.output.content)
                         .set("is_error", answered.output.is_error)
                         .set("images", std::move(images)))
      .set("edit", std::move(edit))
      .set("duration_ms", answered.record.duration_ms)
      .set("sandbox", sandboxed ? "bubblewrap" : "none");
}

std::string text_block(int number, const ToolCall& call, const AnsweredCall& answered) {
  std::string rule = answered.record.rule_id.empty() ? "" : " by rule '" + answered.record.rule_id + "'";
  std::string text = "=== " + std::to_string(number) + " " + call.name + " " + summarize_input(call) + " (" +
                     answered.record.decision + rule + ") ===\n" + answered.output.content;
  if (!text.empty() && text.back() != '\n') text += '\n';
  for (const ImageBlock& image : answered.output.images) {
    text += "[image " + image.media_type + ", " + std::to_string(image.data_base64.size()) + " bytes of base64]\n";
  }
  return text;
}

}  // namespace

int tool_command(const CliOptions& options, const ProgramContext& program, std::istream& in) {
  Cancellation cancellation;
  SignalScope signals(cancellation);  // SIGINT and SIGTERM kill what runs, as in a run
  ToolSession session;
  if (auto opened = open_session(options, program, cancellation, session); !opened) {
    program.err << "agent-run: " << opened.error().message << "\n";
    return static_cast<int>(ExitCode::invalid);
  }
  SystemClock clock;
  ExitCode exit_code = ExitCode::all_passed;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (trim(line).empty()) continue;
    auto call = parse_call(line, number);
    if (!call) {
      program.err << call.error().message << "\nagent-run: calls after this line were not run\n";
      exit_code = ExitCode::invalid;
      break;
    }
    if (cancellation.cancelled()) break;
    AnsweredCall answered = answer_call(*call, number, session.tools, *session.policy, clock, session.scope,
                                        session.state, session.task.limits.tool_timeout);
    if (answered.output.is_error) exit_code = ExitCode::some_failed;
    program.out << (options.json ? json_log_line(json_line(number, *call, answered, session.sandbox.has_value()).dump()) + "\n"
                                 : log_lines(text_block(number, *call, answered)));  // never a workflow command
    program.out.flush();
  }
  AttemptResult ended;  // what the session tools recorded; `agent-run tool` prints results as it goes
  finish_session(session.state, ended);
  if (session.sandbox) {
    session.sandbox->sandbox->stop();  // what the last calls created read-only is removed
    for (const std::string& warning : removed_warnings(*session.sandbox, session.site))
      program.err << "agent-run tool: warning: " << warning << "\n";
  }
  if (cancellation.cancelled()) return exit_code_for_signal(cancellation.signal());
  return static_cast<int>(exit_code);
}

}  // namespace agent_run
