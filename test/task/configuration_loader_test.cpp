#include "task/configuration_loader.h"

#include "support/fixtures.h"
#include "task/task_loader.h"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace agent_run;
using agent_run::test::TempFolder;

namespace {

/// The error message of loading `text` as agent-run.yaml; empty when it loads.
std::string error_of(const std::string& text) {
  auto configuration = load_configuration(text, "agent-run.yaml");
  return configuration ? std::string() : configuration.error().message;
}

RunConfiguration configuration_of(const std::string& text) {
  auto configuration = load_configuration(text, "agent-run.yaml");
  BOOST_REQUIRE_MESSAGE(configuration.has_value(), (configuration ? "" : configuration.error().message));
  return *configuration;
}

Task task_over(const RunConfiguration& configuration, const std::string& text) {
  auto task = load_task(text, "tasks/x.yaml", configuration.defaults);
  BOOST_REQUIRE_MESSAGE(task.has_value(), (task ? "" : task.error().message));
  return *task;
}

const char* const k_team_defaults = R"(model: anthropic/claude-sonnet-4-5
limits: {turns: 40, time: 20m}
tools: [read_file, edit_file, bash]
env: {PIP_INDEX_URL: "https://pypi.example/simple", CI: "true"}
secrets: [DATABASE_URL]
answers:
  - otherwise: first
context: {threshold: 85%, keep_turns: 5}
)";

}  // namespace

BOOST_AUTO_TEST_SUITE(configuration_loader)

BOOST_AUTO_TEST_CASE(a_task_starts_from_the_configuration_and_overrides_what_it_sets) {
  RunConfiguration configuration = configuration_of(k_team_defaults);
  Task task = task_over(configuration, R"(prompt: p
limits: {turns: 5}
env: {CI: "false", MODE: test}
secrets: [API_TOKEN]
answers:
  - question: "(?i)python"
    choose: "3.11"
)");
  BOOST_TEST(task.model == "anthropic/claude-sonnet-4-5");  // the configuration's
  BOOST_TEST(task.limits.turns == 5);                       // the task's, over it
  BOOST_TEST(task.limits.time.count() == 20 * 60 * 1000);   // merged key by key
  BOOST_TEST(task.tools->size() == 3u);
  BOOST_TEST(task.env.at("PIP_INDEX_URL").value == "https://pypi.example/simple");
  BOOST_TEST(task.env.at("CI").value == "false");
  BOOST_TEST(task.env.at("MODE").value == "test");
  BOOST_TEST((task.secrets == std::vector<std::string>{"DATABASE_URL", "API_TOKEN"}));  // names add up
  BOOST_TEST(task.answers.rules.size() == 1u);  // a list replaces the configuration's
  BOOST_TEST((task.answers.otherwise == AnswerFallback::deny));
  BOOST_TEST(task.context.threshold == 0.85);
  BOOST_TEST(task.context.keep_turns == 5);
}

BOOST_AUTO_TEST_CASE(each_setting_remembers_the_file_line_and_column_it_came_from) {
  RunConfiguration configuration = configuration_of(k_team_defaults);
  Task task = task_over(configuration, "prompt: p\nlimits: {turns: 5}\n");
  BOOST_TEST(task.origins.at("model") == "agent-run.yaml:1:8");
  BOOST_TEST(task.origins.at("limits.time") == "agent-run.yaml:2:27");
  BOOST_TEST(task.origins.at("limits.turns") == "tasks/x.yaml:2:17");
  BOOST_TEST(task.env.at("CI").origin == "agent-run.yaml:4:57");
  BOOST_TEST(task.origins.count("limits.tool_timeout") == 0u);  // built-in
}

BOOST_AUTO_TEST_CASE(run_wide_settings_and_per_model_options_are_read) {
  RunConfiguration configuration = configuration_of(R"(prices: tables/prices.json
grep: builtin
endpoints: {openai: "http://127.0.0.1:11434/v1"}
model_retries: 2
model_idle_timeout: 2m
max_output_tokens: 12000
temperature: 0
models:
  anthropic/claude-sonnet-4-5: {thinking_budget: 4096, max_output_tokens: 20000}
  openai/o3-mini: {reasoning_effort: high, context_window: 200000}
)");
  BOOST_TEST(configuration.prices->filename() == "prices.json");
  BOOST_TEST(configuration.prices->is_absolute());
  BOOST_TEST(*configuration.grep == "builtin");
  BOOST_TEST(*configuration.openai_base_url == "http://127.0.0.1:11434/v1");
  BOOST_TEST(*configuration.model_retries == 2);
  BOOST_TEST(configuration.model_idle_timeout->count() == 120000);
  ModelOptions claude = configuration.options_for("anthropic/claude-sonnet-4-5");
  BOOST_TEST(*claude.max_output_tokens == 20000);  // the model's entry over the top-level key
  BOOST_TEST(*claude.thinking_budget == 4096);
  BOOST_TEST(*claude.temperature == 0.0);
  ModelOptions o3 = configuration.options_for("openai/o3-mini");
  BOOST_TEST(*o3.reasoning_effort == "high");
  BOOST_TEST(*o3.context_window == 200000);
  BOOST_TEST(*o3.max_output_tokens == 12000);
  BOOST_TEST(configuration.origins.at("models.openai/o3-mini.reasoning_effort") == "agent-run.yaml:10:38");
}

BOOST_AUTO_TEST_CASE(an_empty_file_is_an_empty_configuration) {
  RunConfiguration configuration = configuration_of("");
  BOOST_TEST(configuration.defaults.model == "script");
  BOOST_TEST(configuration.origins.empty());
}

BOOST_AUTO_TEST_CASE(every_problem_is_reported_at_once_with_its_position_and_a_did_you_mean) {
  BOOST_TEST(error_of("modle: x\nlimits: {turns: 0, tme: 5m}\ngrep: rg\n") ==
             "agent-run.yaml:1:1: unknown key 'modle' (did you mean 'model'?)\n"
             "agent-run.yaml:2:17: 'limits.turns' must be a positive integer, got '0'\n"
             "agent-run.yaml:2:20: unknown key 'tme' in 'limits' (did you mean 'time'?)\n"
             "agent-run.yaml:3:7: 'grep' must be auto, ripgrep or builtin, got 'rg'");
}

BOOST_AUTO_TEST_CASE(a_key_that_belongs_to_a_task_only_is_refused_here) {
  BOOST_TEST(error_of("prompt: do it\n").find("agent-run.yaml:1:1: unknown key 'prompt'") == 0u);
}

BOOST_AUTO_TEST_CASE(api_keys_are_never_read_from_the_file) {
  BOOST_TEST(error_of("endpoints: {anthropic: \"https://x.example\", api_key: sk-1}\n") ==
             "agent-run.yaml:1:54: 'endpoints.api_key': API keys are never read from a file; export "
             "ANTHROPIC_API_KEY or OPENAI_API_KEY in agent-run's environment");
}

BOOST_AUTO_TEST_CASE(a_secret_looking_env_name_must_be_listed_under_secrets) {
  BOOST_TEST(error_of("env: {DEPLOY_TOKEN: abc}\n") ==
             "agent-run.yaml:1:7: 'env.DEPLOY_TOKEN' looks like a secret: list 'DEPLOY_TOKEN' under 'secrets:' too "
             "(then only setup and the checks get it), or give the agent's commands a name that does not look "
             "secret");
  BOOST_TEST(error_of("env: {DEPLOY_TOKEN: abc}\nsecrets: [DEPLOY_TOKEN]\n") == "");
  BOOST_TEST(error_of("env: {1BAD: x, GOOD: [a]}\n").find("'env.1BAD': '1BAD' is not an environment variable name") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(context_and_model_settings_are_checked) {
  BOOST_TEST(error_of("context: {threshold: 50%, target: 60%}\n") ==
             "agent-run.yaml:1:10: 'context.target' must be below 'context.threshold' (pruning brings the "
             "conversation down from the threshold to the target)");
  BOOST_TEST(error_of("context: {threshold: 0}\n").find("'context.threshold' must be a share above 0") !=
             std::string::npos);
  BOOST_TEST(error_of("models: {claude: {thinking_budget: 100}}\n") ==
             "agent-run.yaml:1:10: 'models.claude': a model is named provider/name, e.g. anthropic/claude-sonnet-4-5");
  BOOST_TEST(error_of("models: {anthropic/x: {thinking_budget: 100, reasoning_efort: low}}\n") ==
             "agent-run.yaml:1:41: 'models.anthropic/x.thinking_budget' must be an integer of at least 1024, got "
             "'100'\n"
             "agent-run.yaml:1:46: unknown key 'reasoning_efort' in 'models.anthropic/x' (did you mean "
             "'reasoning_effort'?)");
  BOOST_TEST(error_of("temperature: 3\n") ==
             "agent-run.yaml:1:14: 'temperature' must be a number from 0 to 2, got '3'");
}

BOOST_AUTO_TEST_CASE(an_output_schema_is_compiled_when_the_file_loads) {
  BOOST_TEST(error_of("output_schema: {type: object, required: [verdict]}\n") == "");
  BOOST_TEST(error_of("output_schema: {type: objekt}\n").find("agent-run.yaml:1:16: 'output_schema': not a schema") ==
             0u);
  BOOST_TEST(error_of("output_schema: {\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"}\n")
                 .find("cannot check; use draft-07") != std::string::npos);
  TempFolder folder;
  folder.write("schema.json", R"({"type": "array", "items": {"type": "string"}})");
  auto configuration = load_configuration("output_schema: schema.json\n", folder.path() / "agent-run.yaml");
  BOOST_REQUIRE(configuration.has_value());
  BOOST_TEST(configuration->defaults.output_schema->get_string("type") == "array");
  BOOST_TEST(error_of("output_schema: missing.json\n").find("'output_schema': cannot read a JSON schema from") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(mcp_servers_of_the_configuration_serve_every_task_and_a_tasks_own_replace_them) {
  RunConfiguration configuration =
      configuration_of("mcp_servers:\n  fs: {command: npx, args: [server-filesystem, .]}\n");
  Task inherits = task_over(configuration, "prompt: p\n");
  BOOST_REQUIRE(inherits.mcp_servers.size() == 1u);
  BOOST_TEST(inherits.mcp_servers[0].name == "fs");
  BOOST_TEST(inherits.mcp_servers[0].origin == "agent-run.yaml:2:3");
  BOOST_TEST(inherits.origins.at("mcp_servers") == "agent-run.yaml:2:3");
  Task own = task_over(configuration, "prompt: p\nmcp_servers:\n  web: {url: \"http://127.0.0.1:9/mcp\"}\n");
  BOOST_REQUIRE(own.mcp_servers.size() == 1u);
  BOOST_TEST(own.mcp_servers[0].name == "web");
  BOOST_TEST(own.mcp_servers[0].origin == "tasks/x.yaml:3:3");
  BOOST_TEST(error_of("mcp_servers: {bad__name: {command: x}}\n").find("agent-run.yaml:1:") == 0u);
}

BOOST_AUTO_TEST_CASE(find_configuration_looks_in_the_folder_only) {
  TempFolder folder;
  BOOST_TEST(!find_configuration(folder.path()).has_value());
  folder.write("agent-run.yaml", "model: script\n");
  BOOST_TEST(find_configuration(folder.path())->filename() == "agent-run.yaml");
}

BOOST_AUTO_TEST_SUITE_END()
