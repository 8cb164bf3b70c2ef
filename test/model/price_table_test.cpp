#include "model/price_table.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

BOOST_AUTO_TEST_SUITE(price_table)

BOOST_AUTO_TEST_CASE(the_shipped_table_parses_and_has_a_version) {
  auto table = parse_price_table(builtin_prices_json(), "built-in");
  BOOST_REQUIRE_MESSAGE(table.has_value(), (table ? std::string() : table.error().message));
  BOOST_TEST(table->version == "2025-11-24");
  BOOST_TEST(table->models.size() > 10u);
  BOOST_TEST(builtin_price_table().version == table->version);
  const ModelPrice* sonnet = table->find("anthropic/claude-sonnet-4-5");
  BOOST_REQUIRE(sonnet != nullptr);
  BOOST_TEST(sonnet->input == 3.0);
  BOOST_TEST(sonnet->cache_write == 3.75);
  BOOST_TEST(sonnet->context_window.value_or(0) == 200000);
  BOOST_TEST(table->find("anthropic/claude-haiku-4-5-20251001")->context_window.value_or(0) == 200000);
  BOOST_TEST(!table->find("openai/gpt-4o")->context_window.has_value());  // not given: context_status says unknown
}

BOOST_AUTO_TEST_CASE(a_dated_model_name_finds_its_undated_entry_and_an_unknown_one_finds_nothing) {
  PriceTable table = builtin_price_table();
  BOOST_TEST(table.find("anthropic/claude-sonnet-4-5-20250929") == table.find("anthropic/claude-sonnet-4-5"));
  BOOST_TEST(table.find("openai/gpt-4o-2024-08-06") == table.find("openai/gpt-4o"));
  BOOST_TEST(table.find("openai/llama3.1:8b") == nullptr);
  BOOST_TEST(table.find("anthropic/claude-sonnet-4-5-x") == nullptr);
}

BOOST_AUTO_TEST_CASE(the_cost_prices_each_kind_of_token) {
  ModelPrice price{3.0, 15.0, 0.3, 3.75};
  Usage usage;
  usage.input_tokens = 1'000'000;
  usage.output_tokens = 100'000;
  usage.cache_read_input_tokens = 2'000'000;
  usage.cache_creation_input_tokens = 400'000;
  BOOST_TEST(cost_usd(price, usage) == 3.0 + 1.5 + 0.6 + 1.5, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(a_users_table_is_read_from_a_file_and_cache_prices_default_to_input) {
  TempFolder folder;
  auto path = folder.write("prices.json",
                           R"({"version": "team-7", "models": {"openai/llama3": {"input": 0.1, "output": 0.2}}})");
  auto table = load_price_table(path);
  BOOST_REQUIRE(table.has_value());
  BOOST_TEST(table->version == "team-7");
  BOOST_TEST(table->file == path.string());
  BOOST_TEST(table->find("openai/llama3")->cache_read == 0.1);
}

BOOST_AUTO_TEST_CASE(a_context_window_is_read_when_given_and_must_be_a_positive_whole_number) {
  auto table = parse_price_table(
      R"({"version": "1", "models": {"openai/a": {"input": 1, "output": 2, "context_window": 128000}, "openai/b": {"input": 1, "output": 2}}})",
      "p.json");
  BOOST_REQUIRE_MESSAGE(table.has_value(), (table ? std::string() : table.error().message));
  BOOST_TEST(table->find("openai/a")->context_window.value_or(0) == 128000);
  BOOST_TEST(table->find("openai/a")->output == 2.0);
  BOOST_TEST(!table->find("openai/b")->context_window.has_value());
  for (const char* bad : {"0", "-5", "1.5", "\"big\""}) {
    auto wrong = parse_price_table(
        std::string(R"({"version": "1", "models": {"openai/x": {"input": 1, "output": 2, "context_window": )") + bad +
            "}}}",
        "p.json");
    BOOST_REQUIRE(!wrong.has_value());
    BOOST_TEST(wrong.error().message ==
               "p.json: models.\"openai/x\".context_window: must be a whole number of tokens, at least 1");
  }
}

BOOST_AUTO_TEST_CASE(mistakes_in_a_table_name_the_entry_and_suggest_the_key) {
  auto typo = parse_price_table(R"({"version": "1", "models": {"openai/x": {"input": 1, "ouput": 2}}})", "p.json");
  BOOST_REQUIRE(!typo.has_value());
  BOOST_TEST(typo.error().message ==
             "p.json: models.\"openai/x\": unknown key 'ouput' (did you mean 'output'?); the keys are input, output, "
             "cache_read, cache_write, context_window");
  auto negative =
      parse_price_table(R"({"version": "1", "models": {"openai/x": {"input": -1, "output": 2}}})", "p.json");
  BOOST_TEST(negative.error().message ==
             "p.json: models.\"openai/x\".input: must be a number of USD per million tokens, at least 0");
  auto unversioned = parse_price_table(R"({"models": {}})", "p.json");
  BOOST_TEST(unversioned.error().message == "p.json: 'version' is missing; it is written in every report");
  BOOST_TEST(!load_price_table("/nonexistent/prices.json").has_value());
}

BOOST_AUTO_TEST_SUITE_END()
