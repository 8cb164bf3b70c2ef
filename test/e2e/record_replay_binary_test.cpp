// --record against a real loopback model server, then --replay (and `model: replay`) with no server,
// no key: the same outcome, tool calls and patch through the provider's client and decoder; a
// changed prompt fails strict with a diff of the wire JSON; no key or secret in any recorded byte.
#include "base/json.h"
#include "hello_task_fixture.h"
#include "support/fixtures.h"
#include "support/replay_server.h"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <sstream>

using namespace agent_run;
using namespace agent_run::test;

namespace {

constexpr const char* k_key = "sk-ant-api03-RECORDFAKEKEY-do-not-leak-0123456789";
constexpr const char* k_secret = "deploy-token-7f3a9c-do-not-leak";

const std::string k_task = hello_task("secrets: [DEPLOY_TOKEN]\nlimits: {turns: 10}\n");

/// A repository with the task (greet.sh holds the secret's value, so the model's second request does).
struct RecordReplayFixture {
  TempFolder repo;
  TempFolder runs;

  RecordReplayFixture() {
    make_git_repository(repo.path(), {{"greet.sh", std::string("echo bye # ") + k_secret + "\n"},
                                      {"policy.yaml", k_hello_policy},
                                      {"tasks/hello.yaml", k_task}});
  }
  std::filesystem::path out(const std::string& name) const { return runs.path() / name; }

  /// The binary in the repository with only `environment` of the model variables, DEPLOY_TOKEN set.
  CommandResult run(const std::vector<std::string>& environment, const std::vector<std::string>& arguments) const {
    std::vector<std::string> words{std::string("DEPLOY_TOKEN=") + k_secret};
    words.insert(words.end(), environment.begin(), environment.end());
    std::string command = binary_with_model_environment(words);
    for (const std::string& argument : arguments) command += " " + shell_quote(argument);
    return run_shell(command, repo.path());
  }

  /// Records the three-turn Anthropic run into out("recorded") from a real loopback server, after
  /// the `before` responses (failed tries of the first call).
  void record(std::vector<ScriptedResponse> before = {}) const {
    std::vector<ScriptedResponse> turns = std::move(before);
    for (int n = 1; n <= 3; ++n) {
      turns.push_back(sse_response(hello_turn_stream("anthropic", n),
                                   "req_rec_" + std::to_string(n)));
    }
    ReplayServer server(turns);
    CommandResult result = run({"ANTHROPIC_BASE_URL=" + server.url(), std::string("ANTHROPIC_API_KEY=") + k_key},
                               {"tasks/hello.yaml", "--model", "anthropic/claude-sonnet-4-5", "--record", "--out",
                                out("recorded").string()});
    BOOST_TEST_INFO(result.output);
    BOOST_REQUIRE_EQUAL(result.exit_code, 0);
    BOOST_REQUIRE_EQUAL(server.requests().size(), turns.size());
  }

  Json attempt(const std::string& name) const {
    std::ifstream in(out(name) / "report.json");
    std::stringstream text;
    text << in.rdbuf();
    return parse_json(text.str()).value().find("attempts")->as_array().at(0);
  }

  void write_task(const std::string& text) const { std::ofstream(repo.path() / "tasks/hello.yaml") << text; }
};

std::string every_byte_in(const std::filesystem::path& folder) {
  std::string all;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream content;
    content << in.rdbuf();
    all += content.str();
  }
  return all;
}

std::vector<std::string> calls_of(const Json& attempt) {
  std::vector<std::string> calls;
  for (const Json& call : attempt.find("tool_calls")->as_array()) {
    calls.push_back(call.get_string("name") + " " + call.get_string("input_summary") + " " + call.get_string("decision"));
  }
  return calls;
}

std::string patch_of(const std::filesystem::path& out, const Json& attempt) {
  std::ifstream in(out / attempt.get_string("patch_path"));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Each attempt of a report folder as `task #n outcome`, in order.
std::vector<std::string> outcomes_in(const std::filesystem::path& out) {
  std::ifstream in(out / "report.json");
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> outcomes;
  const Json report = parse_json(text.str()).value();
  for (const Json& attempt : report.find("attempts")->as_array()) {
    outcomes.push_back(attempt.get_string("task_id") + " #" + std::to_string(attempt.find("n")->as_int()) + " " +
                       attempt.get_string("outcome"));
  }
  return outcomes;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(nightly_replay)

BOOST_AUTO_TEST_CASE(a_nightly_set_recorded_once_replays_from_agent_run_yaml_with_model_replay) {
  TempFolder runs;
  const std::string binary = shell_quote(test::agent_run_binary());
  const std::string tasks = " tasks/nightly/fib.yaml tasks/nightly/median.yaml";
  CommandResult recorded = run_shell(binary + tasks + " --model script/b --record --out " +
                                         shell_quote((runs.path() / "recorded").string()),
                                     source_root());
  BOOST_TEST_INFO(recorded.output);
  BOOST_REQUIRE_EQUAL(recorded.exit_code, 1);  // variant b fails fib on repeat 3
  runs.write("replay.yaml", "model: replay\nreplay: recorded\n");
  CommandResult replayed = run_shell(binary + tasks + " --config " + shell_quote((runs.path() / "replay.yaml").string()) +
                                         " --out " + shell_quote((runs.path() / "replayed").string()),
                                     source_root());
  BOOST_TEST_INFO(replayed.output);
  BOOST_TEST(replayed.exit_code == 1);
  const std::vector<std::string> outcomes = outcomes_in(runs.path() / "recorded");
  BOOST_REQUIRE_EQUAL(outcomes.size(), 10u);
  BOOST_TEST(outcomes_in(runs.path() / "replayed") == outcomes, boost::test_tools::per_element());
  CommandResult compared = run_shell(binary + " compare " + shell_quote((runs.path() / "recorded").string()) + " " +
                                         shell_quote((runs.path() / "replayed").string()) + " --fail-on-regression",
                                     source_root());
  BOOST_TEST_INFO(compared.output);
  BOOST_TEST(compared.exit_code == 0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_SUITE(record_replay_end_to_end, RecordReplayFixture)

BOOST_AUTO_TEST_CASE(a_recorded_api_run_replays_with_no_server_and_no_key_to_the_same_outcome_calls_and_patch) {
  record();
  const std::string recorded_bytes = every_byte_in(out("recorded"));
  BOOST_TEST(recorded_bytes.find(k_key) == std::string::npos);
  BOOST_TEST(recorded_bytes.find("RECORDFAKEKEY") == std::string::npos);
  BOOST_TEST(recorded_bytes.find(k_secret) == std::string::npos);
  BOOST_TEST(recorded_bytes.find(R"("x-api-key":"[redacted]")") != std::string::npos);
  BOOST_TEST(recorded_bytes.find(R"("recording":"agent-run-model-exchanges/2")") != std::string::npos);

  CommandResult result = run({}, {"tasks/hello.yaml", "--model", "anthropic/claude-sonnet-4-5", "--replay",
                                  out("recorded").string(), "--out", out("replayed").string()});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  Json recorded = attempt("recorded");
  Json replayed = attempt("replayed");
  BOOST_TEST(replayed.get_string("outcome") == "passed");
  BOOST_TEST(replayed.find("turns")->as_int() == recorded.find("turns")->as_int());
  BOOST_TEST(calls_of(replayed) == calls_of(recorded), boost::test_tools::per_element());
  BOOST_TEST(patch_of(out("replayed"), replayed) == patch_of(out("recorded"), recorded));
  BOOST_TEST(patch_of(out("recorded"), recorded).find("+echo hello") != std::string::npos);
  // The usage comes out of the replayed stream's decoder, priced as live.
  BOOST_TEST(replayed.find("usage")->dump() == recorded.find("usage")->dump());
  BOOST_TEST(replayed.find("model_calls")->as_array().at(2).get_string("request_id") == "req_rec_3");
  BOOST_TEST(replayed.find("warnings")->as_array().empty());
  check_report_folder(out("replayed"));
}

BOOST_AUTO_TEST_CASE(a_recorded_429_is_replayed_as_a_failed_try_then_the_answer) {
  record({json_response(
      429, R"({"type":"error","error":{"type":"rate_limit_error","message":"synthetic: rate limited"},"request_id":"req_429"})",
      {{"retry-after-ms", "30"}, {"request-id", "req_429"}})});
  CommandResult result = run({}, {"tasks/hello.yaml", "--model", "anthropic/claude-sonnet-4-5", "--replay",
                                  out("recorded").string(), "--out", out("replayed").string()});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  for (const std::string name : {"recorded", "replayed"}) {
    const Json one = attempt(name);
    const Json::Array& tries = one.find("model_calls")->as_array().at(0).find("failed_tries")->as_array();
    BOOST_REQUIRE_EQUAL(tries.size(), 1u);
    BOOST_TEST(tries[0].find("status")->as_int() == 429);
    BOOST_TEST(tries[0].get_string("request_id") == "req_429");
    BOOST_TEST(tries[0].find("wait_ms")->as_int() == 30);
  }
  BOOST_TEST(attempt("replayed").get_string("outcome") == "passed");
}

BOOST_AUTO_TEST_CASE(a_changed_prompt_fails_a_strict_replay_with_the_wire_json_diff_and_a_loose_one_warns) {
  record();
  std::string task = k_task;
  task.replace(task.find("prints hello."), 13, "prints hello twice.");
  write_task(task);
  CommandResult strict = run({}, {"tasks/hello.yaml", "--model", "anthropic/claude-sonnet-4-5", "--replay",
                                  out("recorded").string(), "--out", out("strict").string()});
  BOOST_TEST_INFO(strict.output);
  BOOST_TEST(strict.exit_code == 3);
  Json failed = attempt("strict");
  BOOST_TEST(failed.get_string("outcome_type") == "model.unavailable");
  const std::string message = failed.get_string("message");
  BOOST_TEST(message.find("anthropic/claude-sonnet-4-5: replay: request 1 differs from the recording (") == 0, message);
  BOOST_TEST(message.find("\n-") != std::string::npos, message);
  BOOST_TEST(message.find("then create hello.sh that prints hello.\"") != std::string::npos, message);
  BOOST_TEST(message.find("then create hello.sh that prints hello twice.\"") != std::string::npos, message);

  CommandResult loose = run({}, {"tasks/hello.yaml", "--model", "anthropic/claude-sonnet-4-5", "--replay",
                                 out("recorded").string(), "--replay-loose", "--out", out("loose").string()});
  BOOST_TEST_INFO(loose.output);
  BOOST_TEST(loose.exit_code == 0);
  BOOST_TEST(attempt("loose").find("warnings")->as_array().size() == 3u);  // each request carries the prompt
}

BOOST_AUTO_TEST_CASE(model_replay_in_the_task_plays_its_recording_and_validate_checks_the_folder) {
  record();
  std::filesystem::rename(out("recorded"), repo.path() / "recordings");
  write_task(k_task + "model: replay\nreplay: ../recordings\n");
  CommandResult valid = run({}, {"validate", "tasks/hello.yaml"});
  BOOST_TEST_INFO(valid.output);
  BOOST_TEST(valid.exit_code == 0);
  CommandResult replayed = run({}, {"tasks/hello.yaml", "--out", out("replayed").string()});
  BOOST_TEST_INFO(replayed.output);
  BOOST_TEST(replayed.exit_code == 0);
  BOOST_TEST(attempt("replayed").get_string("outcome") == "passed");
  BOOST_TEST(attempt("replayed").get_string("model") == "replay");

  write_task(k_task + "repeat: 2\nmodel: replay\nreplay: ../recordings\n");
  CommandResult second = run({}, {"validate", "tasks/hello.yaml"});
  BOOST_TEST(second.exit_code == 2);
  BOOST_TEST(second.output.find("tasks/hello.yaml:10:9: 'replay': ") != std::string::npos, second.output);
  BOOST_TEST(second.output.find("holds no recording of task 'hello' #2 (no attempts/hello/2/model_exchanges.jsonl)") !=
                 std::string::npos,
             second.output);

  write_task(k_task + "model: replay\nreplay: ../nowhere\n");
  CommandResult missing = run({}, {"tasks/hello.yaml", "--out", out("missing").string()});
  BOOST_TEST(missing.exit_code == 2);
  BOOST_TEST(missing.output.find("tasks/hello.yaml:9:9: 'replay': ") != std::string::npos, missing.output);
  BOOST_TEST(missing.output.find("nowhere is not a folder") != std::string::npos, missing.output);

  write_task(k_task + "model: replay\n");
  CommandResult unnamed = run({}, {"validate", "tasks/hello.yaml"});
  BOOST_TEST(unnamed.exit_code == 2);
  BOOST_TEST(unnamed.output.find("tasks/hello.yaml:8:8: task 'hello' runs model: replay but names no recording") !=
                 std::string::npos,
             unnamed.output);
}

BOOST_AUTO_TEST_SUITE_END()
