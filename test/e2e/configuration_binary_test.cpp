#include "base/json.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <sstream>

using namespace agent_run;
using namespace agent_run::test;

namespace {

const char* const k_configuration = R"(model: anthropic/claude-sonnet-4-5
limits: {turns: 40, time: 20m}
max_output_tokens: 12000
models:
  anthropic/claude-sonnet-4-5: {thinking_budget: 4096}
)";

const char* const k_task = R"(prompt: Say hello.
limits: {turns: 7}
script:
  - call: {tool: bash, input: {command: "echo one"}}
  - call: {tool: bash, input: {command: "echo two"}}
  - say: Done.
)";

/// A git repository holding agent-run.yaml and tasks/t.yaml.
struct ConfigurationFixture {
  TempFolder repo;
  TempFolder out;

  ConfigurationFixture() {
    make_git_repository(repo.path(), {{"agent-run.yaml", k_configuration}, {"tasks/t.yaml", k_task}});
  }

  /// The line of `agent-run config` output that shows `setting`.
  static std::string line_of(const std::string& output, const std::string& setting) {
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind(setting + " ", 0) == 0) return line;
    }
    return "";
  }
};

bool ends_with_origin(const std::string& line, const std::string& value, const std::string& origin) {
  return line.find(" " + value + " ") != std::string::npos && line.ends_with(" " + origin);
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(configuration_binary, ConfigurationFixture)

BOOST_AUTO_TEST_CASE(config_prints_each_setting_and_where_it_came_from_flag_over_task_over_file_over_built_in) {
  CommandResult result = run_agent_run({"config", "tasks/t.yaml", "--thinking-budget", "2048"}, repo.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(result.output.rfind("configuration: agent-run.yaml\ntask: tasks/t.yaml\n", 0) == 0u);
  const std::string model = "models.anthropic/claude-sonnet-4-5.";
  BOOST_TEST(ends_with_origin(line_of(result.output, model + "thinking_budget"), "2048", "--thinking-budget"));
  BOOST_TEST(ends_with_origin(line_of(result.output, "limits.turns"), "7", "tasks/t.yaml:2:17"));
  BOOST_TEST(ends_with_origin(line_of(result.output, "limits.time"), "20m", "agent-run.yaml:2:27"));
  BOOST_TEST(ends_with_origin(line_of(result.output, "model"), "anthropic/claude-sonnet-4-5", "agent-run.yaml:1:8"));
  BOOST_TEST(ends_with_origin(line_of(result.output, model + "max_output_tokens"), "12000", "agent-run.yaml:3:20"));
  BOOST_TEST(ends_with_origin(line_of(result.output, "limits.tool_timeout"), "2m", "built-in"));
  // Without the flag the model's own entry in agent-run.yaml decides.
  CommandResult plain = run_agent_run({"config", "tasks/t.yaml"}, repo.path());
  BOOST_TEST(ends_with_origin(line_of(plain.output, model + "thinking_budget"), "4096", "agent-run.yaml:5:50"));
  CommandResult flagged = run_agent_run({"config", "tasks/t.yaml", "--model", "openai/gpt-4o"}, repo.path());
  BOOST_TEST(ends_with_origin(line_of(flagged.output, "model"), "openai/gpt-4o", "--model"));
}

BOOST_AUTO_TEST_CASE(config_says_the_sandbox_a_run_would_use_and_who_said_so) {
  CommandResult plain = run_agent_run({"config", "tasks/t.yaml"}, repo.path());
  BOOST_TEST_INFO(plain.output);
  // The built-in policy says nothing of the sandbox: a run uses bubblewrap by default.
  BOOST_TEST(ends_with_origin(line_of(plain.output, "sandbox"), "bubblewrap (network off, write workspace)", "built-in"));
  CommandResult off = run_agent_run({"config", "tasks/t.yaml", "--sandbox", "off"}, repo.path());
  BOOST_TEST(ends_with_origin(line_of(off.output, "sandbox"), "off", "--sandbox off"));
  repo.write("tasks/net.yaml", std::string(k_task) + "sandbox: {network: on}\n");
  CommandResult task = run_agent_run({"config", "tasks/net.yaml"}, repo.path());
  BOOST_TEST(ends_with_origin(line_of(task.output, "sandbox"), "bubblewrap (network on, write workspace)",
                              "tasks/net.yaml:7"));
  CommandResult policy =
      run_agent_run({"config", "tasks/t.yaml", "--policy", (source_root() / "policies/read-only.yaml").string()},
                    repo.path());
  BOOST_TEST(line_of(policy.output, "sandbox").find("write none") != std::string::npos, policy.output);
}

BOOST_AUTO_TEST_CASE(a_run_takes_its_defaults_from_the_configuration_and_config_file_replaces_it) {
  repo.write("agent-run.yaml", "limits: {turns: 1}\n");
  repo.write("tasks/t.yaml", "prompt: Say hello.\nscript:\n  - call: {tool: read_file, input: {path: agent-run.yaml}}\n"
                             "  - say: Done.\n");
  CommandResult limited = run_agent_run({"tasks/t.yaml", "--out", out.path().string()}, repo.path());
  BOOST_TEST_INFO(limited.output);
  BOOST_TEST(limited.exit_code == 1);
  Json report = parse_json(out.read("report.json")).value();
  BOOST_TEST(report.find("attempts")->as_array().at(0).get_string("outcome_type") == "limit.turns");
  repo.write("other.yaml", "limits: {turns: 5}\n");
  CommandResult other =
      run_agent_run({"tasks/t.yaml", "--out", out.path().string(), "--config", "other.yaml"}, repo.path());
  BOOST_TEST_INFO(other.output);
  BOOST_TEST(other.exit_code == 0);
}

BOOST_AUTO_TEST_CASE(an_invalid_configuration_stops_the_run_and_validate_names_its_problems) {
  repo.write("agent-run.yaml", "modle: anthropic/x\nlimits: {turns: 2}\n");
  CommandResult run = run_agent_run({"tasks/t.yaml", "--out", out.path().string()}, repo.path());
  BOOST_TEST(run.exit_code == 2);
  BOOST_TEST(run.output == "agent-run.yaml:1:1: unknown key 'modle' (did you mean 'model'?)\nagent-run: nothing ran\n");
  BOOST_TEST(!std::filesystem::exists(out.path() / "report.json"));
  CommandResult validate = run_agent_run({"validate", "tasks/t.yaml"}, repo.path());
  BOOST_TEST(validate.exit_code == 2);
  BOOST_TEST(validate.output.find("agent-run.yaml:1:1: unknown key 'modle' (did you mean 'model'?)") !=
             std::string::npos);
  repo.write("agent-run.yaml", "model: script\n");
  CommandResult valid = run_agent_run({"validate", "tasks/t.yaml"}, repo.path());
  BOOST_TEST(valid.exit_code == 0);
  BOOST_TEST(valid.output ==
             "agent-run.yaml: valid configuration\n"
             "tasks/t.yaml: warning: task 't' has no checks: every attempt that ends without an error passes; add "
             "'checks:' (--require-checks or require_checks: true in agent-run.yaml makes this an error)\n"
             "tasks/t.yaml: valid task 't'\n");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(env_and_secrets)

BOOST_AUTO_TEST_CASE(env_reaches_the_agent_and_the_checks_and_secrets_reach_setup_and_the_checks_only_redacted) {
  TempFolder repo;
  TempFolder out;
  TempFolder seen;
  const std::string setup_file = (seen.path() / "setup-saw.txt").string();
  make_git_repository(
      repo.path(),
      {{"agent-run.yaml", "env: {FROM_CONFIG: configured}\n"},
       {"policy.yaml", "version: 1\nrules:\n  - id: env\n    allow: bash\n    argv_prefix: [env]\n"},
       {"show.sh", "echo \"sees FROM_TASK=$FROM_TASK FROM_CONFIG=$FROM_CONFIG token=$DEPLOY_TOKEN db=$DATABASE_URL\"\n"},
       {"tasks/t.yaml", R"(prompt: Show the environment.
policy: ../policy.yaml
env: {FROM_TASK: tasked, DEPLOY_TOKEN: s3cr3t-from-the-task-file}
secrets: [DEPLOY_TOKEN, DATABASE_URL]
setup: ["sh show.sh > )" + setup_file + R"("]
checks:
  - run: "sh show.sh; exit 1"
script:
  - call: {tool: bash, input: {command: env}}
  - say: Done.
)"}});
  CommandResult result = run_shell("env DATABASE_URL=postgres://user:pw-from-the-environment@db/app " +
                                       shell_quote(test::agent_run_binary()) + " tasks/t.yaml --out " + shell_quote(out.path()),
                                   repo.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 1);  // the check fails on purpose, to put its output in the report
  std::string setup_saw = seen.read("setup-saw.txt");
  BOOST_TEST(setup_saw.find("token=s3cr3t-from-the-task-file db=postgres://user:pw-from-the-environment@db/app") !=
             std::string::npos);
  Json attempt = parse_json(out.read("report.json")).value().find("attempts")->as_array().at(0);
  std::string check_output = attempt.find("checks")->as_array().at(0).get_string("output_tail");
  BOOST_TEST(check_output == "sees FROM_TASK=tasked FROM_CONFIG=configured token=[redacted] db=[redacted]\n");
  std::string transcript = out.read("attempts/t/1/transcript.jsonl");
  BOOST_TEST(transcript.find("FROM_TASK=tasked") != std::string::npos);     // the agent's command got env:
  BOOST_TEST(transcript.find("FROM_CONFIG=configured") != std::string::npos);
  BOOST_TEST(transcript.find("DEPLOY_TOKEN") == std::string::npos);         // and none of the secrets
  BOOST_TEST(transcript.find("DATABASE_URL") == std::string::npos);
  std::string everything = run_shell("cat -- $(find . -type f)", out.path()).output;
  BOOST_TEST(everything.find("s3cr3t-from-the-task-file") == std::string::npos);
  BOOST_TEST(everything.find("pw-from-the-environment") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
