#include "app/cli_options.h"
#include "app/load_inputs.h"
#include "app/model_factory.h"
#include "model/wire_replay.h"
#include "support/fakes.h"

#include <boost/test/unit_test.hpp>

#include <sstream>

using namespace agent_run;
using namespace agent_run::test;

BOOST_AUTO_TEST_SUITE(model_options)

BOOST_AUTO_TEST_CASE(model_names_take_a_provider_and_a_name) {
  BOOST_TEST(check_model_name("script").has_value());
  BOOST_TEST(check_model_name("anthropic/claude-sonnet-4-5").has_value());
  BOOST_TEST(check_model_name("openai/llama3.1:8b").has_value());
  BOOST_TEST(check_model_name("anthropic/").error().message ==
             "model 'anthropic/' needs a model name after 'anthropic/', e.g. anthropic/claude-sonnet-4-5");
  BOOST_TEST(check_model_name("antropic/claude-x").error().message ==
             "unknown model 'antropic/claude-x' (did you mean 'anthropic/claude-x'?): use anthropic/NAME, openai/NAME "
             "(any OpenAI-compatible server, see OPENAI_BASE_URL), script or replay");
}

BOOST_AUTO_TEST_CASE(endpoints_and_keys_come_from_the_four_variables_with_defaults) {
  std::vector<std::string> entries = {"ANTHROPIC_API_KEY=sk-ant-x", "OPENAI_BASE_URL=http://127.0.0.1:11434/v1",
                                      "ANTHROPIC_BASE_URL=", "PATH=/usr/bin"};
  std::vector<char*> environ_entries;
  for (std::string& entry : entries) environ_entries.push_back(entry.data());
  environ_entries.push_back(nullptr);
  ModelAccess access = read_model_access(environ_entries.data());
  BOOST_TEST(access.anthropic.api_key == "sk-ant-x");
  BOOST_TEST(access.anthropic.base_url == "https://api.anthropic.com");
  BOOST_TEST(access.openai.base_url == "http://127.0.0.1:11434/v1");
  BOOST_TEST(access.openai.api_key == "");
}

BOOST_AUTO_TEST_CASE(a_missing_key_for_the_official_endpoint_is_the_attempts_error) {
  FakeClock clock;
  PriceTable prices = builtin_price_table();
  ModelWiring wiring;
  wiring.prices = &prices;
  wiring.clock = &clock;
  ModelFactory factory = make_model_factory(wiring);
  Task task;
  auto missing = factory(task, "openai/gpt-4o", 1, nullptr);
  BOOST_REQUIRE(!missing.has_value());
  BOOST_TEST(missing.error().message ==
             "openai/gpt-4o: OPENAI_API_KEY is not set; export the API key for https://api.openai.com/v1 (or set "
             "OPENAI_BASE_URL to a server that needs none)");
  wiring.access.openai.base_url = "http://127.0.0.1:8000/v1";
  auto local = make_model_factory(wiring)(task, "openai/qwen", 1, nullptr);
  BOOST_REQUIRE(local.has_value());
  BOOST_TEST((*local)->model_name() == "openai/qwen");
  BOOST_TEST(factory(task, "script", 1, nullptr).has_value());
  // A replay reaches no network: no key is needed for the official endpoint.
  auto replay = std::make_shared<ReplayTransport>(Recording{}, ReplayMode::strict, "", std::vector<std::string>{});
  auto replayed = factory(task, "openai/gpt-4o", 1, replay);
  BOOST_TEST(replayed.has_value());
}

BOOST_AUTO_TEST_CASE(model_options_are_parsed_and_checked) {
  auto options = parse_cli({"t.yaml", "--prices", "p.json", "--max-output-tokens", "4096", "--temperature", "0.5",
                            "--model-retries", "0", "--model-idle-timeout", "2m"});
  BOOST_REQUIRE(options.has_value());
  BOOST_TEST(*options->prices == "p.json");
  BOOST_TEST(*options->max_output_tokens == 4096);
  BOOST_TEST(*options->temperature == 0.5);
  BOOST_TEST(*options->model_retries == 0);
  BOOST_TEST(options->model_idle_timeout->count() == 120000);
  BOOST_TEST(parse_cli({"t.yaml", "--temperature", "3"}).error().message ==
             "--temperature needs a number from 0 to 2, got '3'");
  BOOST_TEST(parse_cli({"t.yaml", "--model-retries", "-1"}).error().message ==
             "--model-retries needs a whole number of at least 0, got '-1'");
  BOOST_TEST(parse_cli({"t.yaml", "--model-idle-timeout", "soon"}).error().message ==
             "--model-idle-timeout needs a duration such as 90s or 5m, got 'soon'");
}

BOOST_AUTO_TEST_CASE(an_unenforceable_cost_limit_is_warned_about_once_per_task_and_model) {
  Task task;
  task.source = "tasks/a.yaml";
  task.model = "openai/llama3";
  task.limits.cost_usd = 2.0;
  Task priced = task;
  priced.model = "anthropic/claude-sonnet-4-5";
  std::ostringstream err;
  warn_about_unenforceable_cost_limits({task, priced}, {}, builtin_price_table(), err);
  BOOST_TEST(err.str() ==
             "agent-run: warning: tasks/a.yaml: limits.cost_usd cannot be enforced with openai/llama3: the price table "
             "(version " +
                 builtin_price_table().version +
                 ") has no price for it, so its cost is unknown; give one with --prices FILE\n");
}

BOOST_AUTO_TEST_SUITE_END()
