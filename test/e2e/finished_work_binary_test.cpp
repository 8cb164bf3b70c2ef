#include "base/digest.h"
#include "base/json.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <optional>
#include <sstream>

using namespace agent_run;
using namespace agent_run::test;

namespace {

const char* const k_policy = "version: 1\nunmatched: deny\nrules:\n  - id: all\n    allow: [write_file, bash]\n";

/// A task whose agent first writes a wrong answer, ends its turn, then (when told why) writes the
/// right one and ends again. `extra` adds keys.
std::string two_tries_task(const std::string& extra) {
  return "prompt: Write fixed into answer.txt.\npolicy: ../policy.yaml\nchecks:\n  - run: \"grep -q fixed "
         "answer.txt\"\n" +
         extra +
         "script:\n"
         "  - call: {tool: write_file, input: {path: answer.txt, content: \"broken\\n\"}}\n"
         "  - say: Done.\n"
         "  - call: {tool: write_file, input: {path: answer.txt, content: \"fixed\\n\"}}\n"
         "  - say: Done, really.\n";
}

/// A repository with policy.yaml and the tasks under tasks/, and a report folder.
struct FinishedWorkFixture {
  TempFolder repo;
  TempFolder out;

  void make(const std::map<std::string, std::string>& files) {
    std::map<std::string, std::string> all = files;
    all["policy.yaml"] = k_policy;
    make_git_repository(repo.path(), all);
  }

  CommandResult run(const std::string& task) {
    return run_agent_run({"tasks/" + task + ".yaml", "--out", out.path().string()}, repo.path());
  }

  Json attempt() const { return parse_json(out.read("report.json")).value().find("attempts")->as_array().at(0); }

  /// The transcript lines of the run's only attempt.
  std::vector<Json> transcript() const {
    std::vector<Json> lines;
    std::istringstream in(out.read(attempt().get_string("transcript_path")));
    for (std::string line; std::getline(in, line);) lines.push_back(parse_json(line).value());
    return lines;
  }

  /// True when report.json matches reports/report.schema.json (the check's output in the log).
  bool report_matches_schema() const {
    CommandResult schema = run_shell(
        "/usr/bin/python3 " + shell_quote((source_root() / "test/fixtures/report/validate_json_schema.py").string()) +
            " " + shell_quote((source_root() / "reports/report.schema.json").string()) + " report.json",
        out.path());
    BOOST_TEST_MESSAGE(schema.output);
    return schema.exit_code == 0;
  }

  std::vector<Json> transcript_of_type(const std::string& type) const {
    std::vector<Json> found;
    for (const Json& line : transcript()) {
      if (line.get_string("type") == type) found.push_back(line);
    }
    return found;
  }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(check_feedback_binary, FinishedWorkFixture)

BOOST_AUTO_TEST_CASE(failed_checks_go_back_to_the_agent_and_the_attempt_passes_in_round_2_with_each_round_recorded) {
  make({{"tasks/t.yaml", two_tries_task("check_feedback: 1\n")}});
  CommandResult result = run("t");
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  const Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("outcome_type") == "passed");
  BOOST_TEST(attempt.get_string("message") == "the check passed in round 2");
  const auto& rounds = attempt.find("check_rounds")->as_array();
  BOOST_REQUIRE(rounds.size() == 2u);
  BOOST_TEST(!rounds[0].find("passed")->as_bool());
  BOOST_TEST(rounds[0].find("fed_back")->as_bool());
  BOOST_TEST(rounds[1].find("passed")->as_bool());
  BOOST_TEST(!rounds[1].find("fed_back")->as_bool());
  BOOST_TEST(rounds[0].find("turn")->as_int() < rounds[1].find("turn")->as_int());
  BOOST_TEST(attempt.find("checks")->as_array().at(0).find("passed")->as_bool());  // the last round's
  const std::vector<Json> sent_back = transcript_of_type("sent_back");
  BOOST_REQUIRE(sent_back.size() == 1u);
  BOOST_TEST(sent_back[0].get_string("review") == "checks");
  const std::string message = sent_back[0].get_string("message");
  BOOST_TEST(message.find("round 1 of 2") != std::string::npos, message);
  BOOST_TEST(message.find("$ grep -q fixed answer.txt\nexit code 1") != std::string::npos, message);
  BOOST_TEST(report_matches_schema());
}

BOOST_AUTO_TEST_CASE(without_check_feedback_the_same_agent_fails_on_its_first_answer) {
  make({{"tasks/t.yaml", two_tries_task("")}});
  CommandResult result = run("t");
  BOOST_TEST(result.exit_code == 1);
  BOOST_TEST(attempt().get_string("outcome_type") == "check.failed");
  BOOST_TEST(attempt().find("check_rounds")->as_array().empty());
  BOOST_TEST(attempt().find("turns")->as_int() == 2);
}

BOOST_AUTO_TEST_CASE(the_last_round_decides_when_the_feedback_rounds_run_out) {
  std::string task = two_tries_task("check_feedback: 1\n");
  task.replace(task.find("content: \"fixed"), 16, "content: \"still");
  make({{"tasks/t.yaml", task}});
  CommandResult result = run("t");
  BOOST_TEST(result.exit_code == 1);
  BOOST_TEST(attempt().get_string("outcome_type") == "check.failed");
  BOOST_TEST(attempt().find("check_rounds")->as_array().size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_SUITE(output_schema_binary, FinishedWorkFixture)

const char* const k_schema_task =
    "prompt: Review the change.\npolicy: ../policy.yaml\n"
    "output_schema:\n  type: object\n  required: [verdict]\n  properties:\n    verdict: {enum: [approve, reject]}\n"
    "script:\n  - say: \"The change looks fine to me.\"\n  - say: '{\"verdict\": \"approve\"}'\n";

BOOST_AUTO_TEST_CASE(an_invalid_structured_answer_is_sent_back_once_and_the_corrected_one_lands_in_the_report) {
  make({{"tasks/t.yaml", k_schema_task}});
  CommandResult result = run("t");
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  const Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("outcome_type") == "passed");
  BOOST_TEST(attempt.find("structured_output")->dump() == R"({"verdict":"approve"})");
  BOOST_TEST(parse_json(out.read(attempt.get_string("output_path"))).value().dump() == R"({"verdict":"approve"})");
  const std::vector<Json> sent_back = transcript_of_type("sent_back");
  BOOST_REQUIRE(sent_back.size() == 1u);
  BOOST_TEST(sent_back[0].get_string("review") == "output_schema");
  BOOST_TEST(sent_back[0].get_string("message").find("not JSON") != std::string::npos);
  BOOST_TEST(transcript().front().get_string("system").find("\"verdict\"") != std::string::npos);  // the schema
  BOOST_TEST(report_matches_schema());
}

BOOST_AUTO_TEST_CASE(a_second_invalid_answer_ends_the_attempt_as_output_invalid) {
  std::string task = k_schema_task;
  task.replace(task.find("approve\"}'"), 7, "maybe");
  make({{"tasks/t.yaml", task}});
  CommandResult result = run("t");
  BOOST_TEST(result.exit_code == 1);
  const Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("outcome_type") == "output.invalid");
  BOOST_TEST(attempt.find("structured_output")->is_null());
  BOOST_TEST(attempt.get_string("message").find("even after one correction") != std::string::npos,
             attempt.get_string("message"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_SUITE(instructions_binary, FinishedWorkFixture)

const char* const k_plain_task =
    "prompt: Say hello.\npolicy: ../policy.yaml\ninstructions: Answer in one word.\n"
    "script:\n  - say: Hello.\n";

BOOST_AUTO_TEST_CASE(agents_md_and_the_tasks_instructions_are_in_the_recorded_system_prompt_with_its_hash) {
  make({{"AGENTS.md", "Run make test before you stop.\n"},
        {"CLAUDE.md", "Never read me.\n"},
        {"tasks/t.yaml", k_plain_task}});
  CommandResult result = run("t");
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  const std::string system = transcript().front().get_string("system");
  BOOST_TEST(system.find("# Project instructions (AGENTS.md)\nRun make test before you stop.") != std::string::npos);
  BOOST_TEST(system.find("# Instructions for this task\nAnswer in one word.") != std::string::npos);
  BOOST_TEST(system.find("Never read me.") == std::string::npos);
  BOOST_TEST(system.find("No human is watching") != std::string::npos);
  BOOST_TEST(system.find("- operating system: Linux") != std::string::npos);
  BOOST_TEST(system.find("- allowed only where the policy allows them: ") != std::string::npos);  // by approval class
  const Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("system_prompt_sha256") == sha256_hex(system));
  BOOST_TEST(attempt.find("instruction_files")->as_array().at(0).as_string() == "AGENTS.md");
}

BOOST_AUTO_TEST_CASE(claude_md_is_the_fallback_and_system_prompt_replaces_it_all) {
  make({{"CLAUDE.md", "Use tabs.\n"},
        {"tasks/t.yaml", k_plain_task},
        {"tasks/own.yaml", std::string(k_plain_task) + "system_prompt: You are a parrot.\n"}});
  BOOST_TEST(run("t").exit_code == 0);
  BOOST_TEST(transcript().front().get_string("system").find("# Project instructions (CLAUDE.md)\nUse tabs.") !=
             std::string::npos);
  BOOST_TEST(run("own").exit_code == 0);
  BOOST_TEST(transcript().front().get_string("system") == "You are a parrot.");
  BOOST_TEST(attempt().find("instruction_files")->as_array().empty());
}

BOOST_AUTO_TEST_CASE(a_workspace_made_of_a_monorepo_folder_reads_the_instructions_from_the_top_down_to_it) {
  make({{"AGENTS.md", "Root: use the shared Makefile.\n"},
        {"services/CLAUDE.md", "Services: every handler logs.\n"},
        {"services/pay/AGENTS.md", "Pay: amounts are integer cents.\n"},
        {"services/pay/api/AGENTS.md", "Below the workspace: never read here.\n"},
        {"services/pay/main.py", "print('pay')\n"},
        {"docs/AGENTS.md", "A sibling folder: never read.\n"},
        {"tasks/t.yaml", std::string(k_plain_task) + "workspace: {repo: ../services/pay}\n"}});
  CommandResult result = run("t");
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  const std::string system = transcript().front().get_string("system");
  const std::size_t root = system.find("# Project instructions (../../AGENTS.md)\nRoot: use the shared Makefile.");
  const std::size_t services = system.find("# Project instructions (../CLAUDE.md)\nServices: every handler logs.");
  const std::size_t pay = system.find("# Project instructions (AGENTS.md)\nPay: amounts are integer cents.");
  BOOST_TEST(root != std::string::npos, system);
  BOOST_TEST(services != std::string::npos, system);
  BOOST_TEST(pay != std::string::npos, system);
  BOOST_TEST((root < services && services < pay));  // the nearest, last, has the last word
  BOOST_TEST(system.find("never read") == std::string::npos, system);
  std::vector<std::string> files;
  const Json attempt = this->attempt();  // kept: the loop reads into it
  for (const Json& file : attempt.find("instruction_files")->as_array()) files.push_back(file.as_string());
  BOOST_TEST(files == (std::vector<std::string>{"../../AGENTS.md", "../CLAUDE.md", "AGENTS.md"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_instructions_of_all_the_folders_share_one_64_kib_budget) {
  make({{"AGENTS.md", std::string(60 * 1024, 'r') + "\n"},
        {"services/AGENTS.md", std::string(10 * 1024, 's') + "\n"},
        {"tasks/t.yaml", std::string(k_plain_task) + "workspace: {repo: ../services}\n"}});
  BOOST_TEST(run("t").exit_code == 0);
  const std::string system = transcript().front().get_string("system");
  BOOST_TEST(system.find(std::string(60 * 1024, 'r')) != std::string::npos);
  BOOST_TEST(system.find(std::string(3 * 1024, 's')) != std::string::npos);
  BOOST_TEST(system.find(std::string(5 * 1024, 's')) == std::string::npos);
  BOOST_TEST(system.find("the rest of AGENTS.md was cut]") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_SUITE(stream_json_binary, FinishedWorkFixture)

BOOST_AUTO_TEST_CASE(stream_json_prints_one_event_a_line_on_stdout_turns_calls_edits_checks_and_the_end) {
  make({{"tasks/t.yaml", two_tries_task("check_feedback: 1\n")}});
  CommandResult result = run_shell(shell_quote(test::agent_run_binary()) + " tasks/t.yaml --out " +
                                       shell_quote(out.path().string()) + " --output-format stream-json 2>/dev/null",
                                   repo.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  std::vector<std::string> types;
  std::vector<Json> events;
  std::istringstream lines(result.output);
  for (std::string line; std::getline(lines, line);) {
    auto event = parse_json(line);  // every line of stdout is one JSON event: no progress among them
    BOOST_REQUIRE_MESSAGE(event.has_value(), "not JSON: " << line);
    types.push_back(event->get_string("type"));
    if (types.back() != "run_finished") BOOST_TEST(event->get_string("attempt") == "attempts/t/1");
    events.push_back(std::move(*event));
  }
  BOOST_TEST(types == (std::vector<std::string>{"attempt_started", "init", "turn", "tool_call", "turn", "checks",
                                                "sent_back", "turn", "tool_call", "turn", "checks", "attempt_finished",
                                                "run_finished"}),
             boost::test_tools::per_element());
  BOOST_REQUIRE(events.size() == 13u);
  // init: what the agent was given, as claude's system/init event.
  BOOST_TEST(events[1].get_string("model") == "script");
  BOOST_TEST(events[1].get_string("system_prompt_sha256").size() == 64u);
  BOOST_TEST(events[1].find("tools")->as_array().size() > 0u);
  BOOST_TEST(events[3].get_string("decision") == "allowed");
  BOOST_TEST(events[3].get_string("edit") == "answer.txt");
  BOOST_TEST(events[3].find("result") != nullptr);  // the tool's result, capped
  BOOST_TEST(!events[3].find("result_truncated")->as_bool());
  BOOST_TEST(events[11].get_string("outcome_type") == "passed");
  BOOST_TEST(events[11].get_string("final_answer") == "Done, really.");
  BOOST_TEST(events[11].find("duration_ms") != nullptr);
  // The usage of each turn and of the attempt has the report's fields (one writer: usage_to_json).
  const Json* usage = events[11].find("usage");
  BOOST_REQUIRE(usage != nullptr);
  for (const char* field : {"input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens",
                            "reasoning_tokens", "estimated", "cost_usd"}) {
    BOOST_TEST((usage->find(field) != nullptr), field);
  }
  BOOST_TEST((events[2].find("usage")->find("reasoning_tokens") != nullptr));
}

/// The stream-json events of `command` (run in `folder`, stderr dropped), one a line.
std::vector<Json> stream_events(const std::string& command, const std::filesystem::path& folder, int& exit_code) {
  CommandResult result = run_shell(command + " --output-format stream-json 2>/dev/null", folder);
  exit_code = result.exit_code;
  std::vector<Json> events;
  std::istringstream lines(result.output);
  for (std::string line; std::getline(lines, line);) {
    auto event = parse_json(line);
    BOOST_REQUIRE_MESSAGE(event.has_value(), "not JSON: " << line);
    events.push_back(std::move(*event));
  }
  return events;
}

const Json* event_of(const std::vector<Json>& events, const std::string& type) {
  for (const Json& event : events) {
    if (event.get_string("type") == type) return &event;
  }
  return nullptr;
}

BOOST_AUTO_TEST_CASE(init_names_the_workspace_the_policy_and_where_it_came_from_and_the_sandbox) {
  make({{"tasks/t.yaml", two_tries_task("check_feedback: 1\nsandbox: off\n")}});
  const std::string command = shell_quote(test::agent_run_binary()) + " tasks/t.yaml --no-diagnostics --out " +
                              shell_quote(out.path().string());
  int code = 0;
  std::vector<Json> events = stream_events(command, repo.path(), code);
  BOOST_TEST(code == 0);
  const Json* init = event_of(events, "init");
  BOOST_REQUIRE(init != nullptr);
  BOOST_TEST_INFO(init->dump());
  // The attempt's own workspace: a worktree of the repository, outside it, gone once the attempt ended.
  const std::filesystem::path workspace = init->get_string("workspace");
  BOOST_TEST(workspace.is_absolute());
  BOOST_TEST(workspace.filename() == repo.path().filename());  // the repository's name,
  BOOST_TEST(workspace.parent_path().filename().string().starts_with("t-"));  // in a folder named after the task
  BOOST_TEST(!workspace.string().starts_with(repo.path().string()));
  const Json* policy = init->find("policy");
  BOOST_REQUIRE(policy != nullptr);
  BOOST_TEST(std::filesystem::equivalent(policy->get_string("file"), repo.path() / "policy.yaml"));
  BOOST_TEST(policy->get_string("from") == "tasks/t.yaml:2:9");  // where the task names it
  BOOST_TEST(policy->get_string("sha256").size() == 64u);
  const Json* sandbox = init->find("sandbox");
  BOOST_REQUIRE(sandbox != nullptr);
  BOOST_TEST(sandbox->get_string("kind") == "none");
  BOOST_TEST(!sandbox->find("on")->as_bool());
  BOOST_TEST(sandbox->get_string("set_by").find("tasks/t.yaml:6") != std::string::npos);

  // --policy over the task's own, a sandbox turned on by the command line.
  TempFolder other_out;
  std::vector<Json> flagged = stream_events(shell_quote(test::agent_run_binary()) +
                                                " tasks/t.yaml --no-diagnostics --policy policy.yaml --sandbox on --out " +
                                                shell_quote(other_out.path().string()),
                                            repo.path(), code);
  const Json* flagged_init = event_of(flagged, "init");
  BOOST_REQUIRE(flagged_init != nullptr);
  BOOST_TEST_INFO(flagged_init->dump());
  BOOST_TEST(flagged_init->find("policy")->get_string("from") == "--policy");
  BOOST_TEST(flagged_init->find("sandbox")->get_string("kind") == "bubblewrap");
  BOOST_TEST(flagged_init->find("sandbox")->find("on")->as_bool());
  BOOST_TEST(flagged_init->find("sandbox")->get_string("set_by") == "--sandbox on");
}

BOOST_AUTO_TEST_CASE(the_last_event_is_the_runs_with_its_totals_and_exit_code) {
  make({{"tasks/t.yaml", two_tries_task("")}, {"tasks/u.yaml", two_tries_task("check_feedback: 1\n")}});
  int code = 0;
  std::vector<Json> events = stream_events(shell_quote(test::agent_run_binary()) +
                                               " tasks/t.yaml tasks/u.yaml --no-diagnostics --out " +
                                               shell_quote(out.path().string()),
                                           repo.path(), code);
  BOOST_TEST(code == 1);  // t fails its check: no feedback round
  BOOST_REQUIRE(!events.empty());
  const Json& last = events.back();
  BOOST_TEST_INFO(last.dump());
  BOOST_TEST(last.get_string("type") == "run_finished");
  BOOST_TEST(last.find("attempt") == nullptr);  // the run's, not an attempt's
  BOOST_TEST(last.get_string("outcome") == "failed");
  BOOST_TEST(last.find("exit_code")->as_int() == 1);
  BOOST_TEST(last.find("attempts")->as_int() == 2);
  BOOST_TEST(last.find("passed")->as_int() == 1);
  BOOST_TEST(last.find("failed")->as_int() == 1);
  BOOST_TEST(last.find("errors")->as_int() == 0);
  BOOST_TEST(last.find("skipped")->as_int() == 0);
  const Json report = parse_json(out.read("report.json")).value();
  const Json* totals = report.find("run")->find("totals");
  const Json* usage = totals->find("usage");
  BOOST_TEST(last.find("tokens")->as_int() ==
             usage->find("input_tokens")->as_int() + usage->find("output_tokens")->as_int() +
                 usage->find("cache_read_input_tokens")->as_int() + usage->find("cache_creation_input_tokens")->as_int());
  BOOST_TEST(last.find("tokens")->as_int() > 0);
  BOOST_TEST(last.find("cost_usd") != nullptr);
  BOOST_TEST(last.find("duration_ms")->as_int() == report.find("run")->find("duration_ms")->as_int());
}

BOOST_AUTO_TEST_CASE(stream_json_keeps_the_start_and_the_end_of_a_long_tool_result) {
  make({{"tasks/t.yaml", "prompt: Count.\npolicy: ../policy.yaml\nchecks:\n  - run: \"true\"\nscript:\n"
                         "  - call: {tool: bash, input: {command: \"seq -f line-%g 1 2000\"}}\n"
                         "  - say: Done.\n"}});
  CommandResult result = run_shell(shell_quote(test::agent_run_binary()) + " tasks/t.yaml --out " +
                                       shell_quote(out.path().string()) + " --output-format stream-json 2>/dev/null",
                                   repo.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  std::optional<Json> call;
  std::istringstream lines(result.output);
  for (std::string line; std::getline(lines, line);) {
    auto event = parse_json(line);
    BOOST_REQUIRE_MESSAGE(event.has_value(), "not JSON: " << line);
    if (event->get_string("type") == "tool_call") call = std::move(*event);
  }
  BOOST_REQUIRE(call.has_value());
  const std::string text = call->get_string("result");
  BOOST_TEST(call->find("result_truncated")->as_bool());
  BOOST_TEST(text.size() <= 2000u);
  BOOST_TEST(text.find("line-1\n") != std::string::npos);     // the start
  BOOST_TEST(text.find("line-2000") != std::string::npos);     // and the end, where a command's verdict is
  BOOST_TEST(text.find("bytes omitted") != std::string::npos);  // with the cut marked
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_SUITE(prompt_binary, FinishedWorkFixture)

BOOST_AUTO_TEST_CASE(p_runs_an_ad_hoc_task_in_the_workspace_with_the_configurations_defaults) {
  make({{"agent-run.yaml", "model: script\nlimits: {turns: 3}\ninstructions: Be brief.\n"}, {"notes.txt", "x\n"}});
  CommandResult result = run_agent_run(
      {"-p", "Say hello.", "--workspace", repo.path().string(), "--out", out.path().string(), "--no-diagnostics"},
      repo.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  const Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("task_id") == "prompt");
  BOOST_TEST(attempt.get_string("model") == "script");
  BOOST_TEST(transcript().front().get_string("prompt") == "Say hello.");
  BOOST_TEST(transcript().front().get_string("system").find("Be brief.") != std::string::npos);
  BOOST_TEST(report_matches_schema());
}

BOOST_AUTO_TEST_CASE(p_with_check_judges_the_ad_hoc_task_and_satisfies_require_checks) {
  make({{"agent-run.yaml", "model: script\nlimits: {turns: 3}\nrequire_checks: true\n"}, {"notes.txt", "x\n"}});
  const std::vector<std::string> base = {"-p", "Say hello.", "--workspace", repo.path().string(), "--out",
                                         out.path().string(), "--no-diagnostics"};
  CommandResult unchecked = run_agent_run(base, repo.path());
  BOOST_TEST(unchecked.exit_code == 2, unchecked.output);
  BOOST_TEST(unchecked.output.find("has no checks") != std::string::npos, unchecked.output);
  BOOST_TEST(unchecked.output.find("add --check CMD") != std::string::npos, unchecked.output);

  std::vector<std::string> passing = base;
  passing.insert(passing.end(), {"--check", "test -f notes.txt", "--check", "true"});
  CommandResult passed = run_agent_run(passing, repo.path());
  BOOST_TEST(passed.exit_code == 0, passed.output);
  BOOST_TEST(attempt().find("checks")->as_array().size() == 2u);

  std::vector<std::string> failing = base;
  failing.insert(failing.end(), {"--check", "test -f missing.txt"});
  CommandResult failed = run_agent_run(failing, repo.path());
  BOOST_TEST(failed.exit_code == 1, failed.output);
  BOOST_TEST(attempt().get_string("outcome") == "failed");
}

BOOST_AUTO_TEST_CASE(check_without_p_is_refused) {
  make({{"tasks/t.yaml", "prompt: p\nmodel: script\n"}});
  CommandResult result = run_agent_run({"tasks/t.yaml", "--check", "true"}, repo.path());
  BOOST_TEST(result.exit_code == 2);
  BOOST_TEST(result.output.find("--check adds a check to the -p task") != std::string::npos, result.output);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_SUITE(edit_checks_binary, FinishedWorkFixture)

/// A task whose agent writes a broken answer.txt, then fixes it, then stops; its first check runs
/// after each edit too, the second only when the agent stops.
const char* const k_edit_checks_task =
    "prompt: Write fixed into answer.txt.\npolicy: ../policy.yaml\n"
    "checks:\n"
    "  - run: \"echo looking; ! grep -n broken answer.txt\"\n    during: edit\n"
    "  - run: \"grep -q fixed answer.txt\"\n"
    "script:\n"
    "  - call: {tool: write_file, input: {path: answer.txt, content: \"broken\\n\"}}\n"
    "  - call: {tool: write_file, input: {path: answer.txt, content: \"fixed\\n\"}}\n"
    "  - say: Done.\n";

/// The tool results the model was sent, in order, from the transcript's requests.
std::vector<std::string> tool_results_sent(const std::vector<Json>& requests) {
  std::vector<std::string> sent;
  for (const Json& request : requests) {
    for (const Json& message : request.find("new_messages")->as_array()) {
      const Json* results = message.find("tool_results");
      if (results == nullptr) continue;
      for (const Json& result : results->as_array()) sent.push_back(result.get_string("content"));
    }
  }
  return sent;
}

BOOST_AUTO_TEST_CASE(a_check_marked_during_edit_tells_the_model_of_a_bad_edit_then_that_it_passes_after_the_fix) {
  make({{"tasks/t.yaml", k_edit_checks_task}});
  CommandResult result = run("t");
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  const Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("outcome_type") == "passed");
  const std::vector<std::string> sent = tool_results_sent(transcript_of_type("request"));
  BOOST_REQUIRE(sent.size() == 2u);
  BOOST_TEST(sent[0].find("agent-run: the task's checks that run after each edit found a problem") != std::string::npos,
             sent[0]);
  BOOST_TEST(sent[0].find("$ echo looking; ! grep -n broken answer.txt\nexit code 1; the end of its output:\n"
                          "looking\n1:broken") != std::string::npos,
             sent[0]);
  BOOST_TEST(sent[1].find("pass again:\n\n$ echo looking; ! grep -n broken answer.txt\npasses now") != std::string::npos,
             sent[1]);
  const auto& edits = attempt.find("edits")->as_array();
  BOOST_REQUIRE(edits.size() == 2u);
  const auto& first = edits[0].find("checks")->as_array();
  BOOST_REQUIRE(first.size() == 1u);  // only the check marked `during: edit`
  BOOST_TEST(!first[0].find("passed")->as_bool());
  BOOST_TEST(first[0].find("exit_code")->as_int() == 1);
  BOOST_TEST(first[0].get_string("output_tail").find("1:broken") != std::string::npos);
  const auto& second = edits[1].find("checks")->as_array();
  BOOST_REQUIRE(second.size() == 1u);
  BOOST_TEST(second[0].find("passed")->as_bool());
  BOOST_TEST(second[0].get_string("output_tail").empty());  // a pass keeps no output
  BOOST_TEST(attempt.find("checks")->as_array().size() == 2u);  // both decide when the agent stops
  BOOST_TEST(report_matches_schema());
}

BOOST_AUTO_TEST_CASE(without_during_edit_no_check_runs_after_edits_and_the_results_carry_no_note) {
  std::string task = k_edit_checks_task;
  task.erase(task.find("    during: edit\n"), 17);
  make({{"tasks/t.yaml", task}});
  BOOST_TEST(run("t").exit_code == 0);
  for (const std::string& sent : tool_results_sent(transcript_of_type("request"))) {
    BOOST_TEST(sent.find("agent-run: the task's checks") == std::string::npos, sent);
  }
  const Json attempt = this->attempt();  // kept: the loop reads into it
  BOOST_TEST(attempt.find("edits")->as_array().size() == 2u);
  for (const Json& edit : attempt.find("edits")->as_array()) BOOST_TEST(edit.find("checks") == nullptr);
}

BOOST_AUTO_TEST_SUITE_END()
