#include "base/json.h"
#include "hello_task_fixture.h"
#include "model/price_table.h"
#include "support/fixtures.h"
#include "support/replay_server.h"

#include <boost/test/unit_test.hpp>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

using namespace agent_run;
using namespace agent_run::test;

namespace {

constexpr const char* k_fake_anthropic_key = "sk-ant-api03-E2EFAKEKEY-do-not-leak-0123456789";
constexpr const char* k_fake_openai_key = "sk-proj-E2EFAKEKEY-do-not-leak-9876543210";

const std::string k_task = hello_task("limits: {turns: 10, cost_usd: 5.0}\n");

/// Token counts as a stream reports them, summed the simple way: Anthropic's last usage values per
/// stream (message_delta repeats them cumulatively); OpenAI's usage-only chunk.
struct StreamedUsage {
  std::int64_t input = 0;
  std::int64_t output = 0;
  std::int64_t cache_read = 0;
  std::int64_t cache_write = 0;
};

void add_streamed_usage(const std::string& stream, StreamedUsage& sum) {
  StreamedUsage last;
  std::istringstream lines(stream);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("data: {", 0) != 0) continue;
    Json data = parse_json(line.substr(6)).value();
    const Json* usage = data.find("usage");
    if (const Json* message = data.find("message")) usage = message->find("usage");
    if (usage == nullptr || !usage->is_object()) continue;
    auto field = [&](const Json& object, const char* name) {
      const Json* value = object.find(name);
      return value ? value->as_int() : 0;
    };
    if (usage->find("prompt_tokens")) {
      last.cache_read = field(*usage->find("prompt_tokens_details"), "cached_tokens");
      last.input = field(*usage, "prompt_tokens") - last.cache_read;
      last.output = field(*usage, "completion_tokens");
    } else {
      last = StreamedUsage{field(*usage, "input_tokens"), field(*usage, "output_tokens"),
                           field(*usage, "cache_read_input_tokens"), field(*usage, "cache_creation_input_tokens")};
    }
  }
  sum.input += last.input;
  sum.output += last.output;
  sum.cache_read += last.cache_read;
  sum.cache_write += last.cache_write;
}

/// A git repository made by the test with a tiny project, a policy and the task file.
struct ModelApiFixture {
  TempFolder repo;
  TempFolder out;
  TempFolder certificates;

  ModelApiFixture() {
    make_git_repository(repo.path(),
                        {{"greet.sh", "echo bye\n"}, {"policy.yaml", k_hello_policy}, {"tasks/hello.yaml", k_task}});
  }

  /// Runs the built binary with `environment` (NAME=value words) and `arguments` in the repository.
  CommandResult run(const std::vector<std::string>& environment, const std::vector<std::string>& arguments) const {
    std::string command =
        binary_with_model_environment(environment) + " tasks/hello.yaml --out " + shell_quote(out.path().string());
    for (const std::string& argument : arguments) command += " " + shell_quote(argument);
    return run_shell(command, repo.path());
  }

  Json attempt() const {
    Json report = parse_json(out.read("report.json")).value();
    return report.find("attempts")->as_array().at(0);
  }

  /// Every file the run wrote, for the test that no secret leaked into any.
  std::string every_file_in_out() const {
    std::string all;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(out.path())) {
      if (!entry.is_regular_file()) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::ostringstream content;
      content << in.rdbuf();
      all += content.str();
    }
    return all;
  }

  /// Starts the binary as run() does, in the background (output to run.log); returns its pid.
  pid_t start(const std::vector<std::string>& environment, const std::vector<std::string>& arguments) const {
    std::string command = "exec " + binary_with_model_environment(environment) + " tasks/hello.yaml --out " +
                          shell_quote(out.path().string());
    for (const std::string& argument : arguments) command += " " + shell_quote(argument);
    std::string line = "cd " + shell_quote(repo.path().string()) + " && " + command + " >" +
                       shell_quote((certificates.path() / "run.log").string()) + " 2>&1";
    const char* argv[] = {"/bin/sh", "-c", line.c_str(), nullptr};
    pid_t pid = -1;
    BOOST_REQUIRE(::posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) == 0);
    return pid;
  }

  void check_report_schema() const { check_report_folder(out.path()); }

  /// The three turns of `provider` (`anthropic` or `openai`) and the usage they stream.
  static std::vector<ScriptedResponse> three_turns(const std::string& provider, StreamedUsage& usage) {
    std::vector<ScriptedResponse> turns;
    for (int n = 1; n <= 3; ++n) {
      std::string stream = hello_turn_stream(provider, n);
      add_streamed_usage(stream, usage);
      turns.push_back(sse_response(stream, "req_e2e_" + provider + "_" + std::to_string(n)));
    }
    return turns;
  }
};

void check_usage_totals(const Json& report_usage, const StreamedUsage& streamed, const std::string& model) {
  BOOST_TEST(report_usage.find("input_tokens")->as_int() == streamed.input);
  BOOST_TEST(report_usage.find("output_tokens")->as_int() == streamed.output);
  BOOST_TEST(report_usage.find("cache_read_input_tokens")->as_int() == streamed.cache_read);
  BOOST_TEST(report_usage.find("cache_creation_input_tokens")->as_int() == streamed.cache_write);
  BOOST_TEST(!report_usage.find("estimated")->as_bool());
  Usage as_usage;
  as_usage.input_tokens = streamed.input;
  as_usage.output_tokens = streamed.output;
  as_usage.cache_read_input_tokens = streamed.cache_read;
  as_usage.cache_creation_input_tokens = streamed.cache_write;
  const PriceTable prices = builtin_price_table();  // a copy: find() points into it
  const ModelPrice* price = prices.find(model);
  BOOST_REQUIRE(price != nullptr);
  BOOST_TEST(report_usage.find("cost_usd")->as_double() == cost_usd(*price, as_usage),
             boost::test_tools::tolerance(1e-9));
}

/// An Anthropic stream of one turn reporting `input_tokens` and `cache_read` tokens of input: a
/// context_status call, or (without `tool_id`) a last text.
std::string anthropic_turn(const std::string& tool_id, int input_tokens, int cache_read) {
  std::string usage = R"("usage":{"input_tokens":)" + std::to_string(input_tokens) +
                      R"(,"cache_creation_input_tokens":0,"cache_read_input_tokens":)" + std::to_string(cache_read) +
                      R"(,"output_tokens":7})";
  std::string block = tool_id.empty()
                          ? R"({"type":"text","text":"done"})"
                          : R"({"type":"tool_use","id":")" + tool_id + R"(","name":"context_status","input":{}})";
  return "event: message_start\ndata: "
         "{\"type\":\"message_start\",\"message\":{\"model\":\"claude-sonnet-4-5-20250929\","
         "\"id\":\"msg_status\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"stop_reason\":null," +
         usage +
         "}}\n\n"
         "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":" +
         block +
         "}\n\n"
         "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
         "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"" +
         (tool_id.empty() ? "end_turn" : "tool_use") + "\",\"stop_sequence\":null}," + usage +
         "}\n\n"
         "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(model_api_end_to_end, ModelApiFixture)

BOOST_AUTO_TEST_CASE(p_prints_the_model_s_final_answer_alone_on_stdout_and_progress_on_stderr) {
  ReplayServer server({sse_response(hello_turn_stream("anthropic", 3), "req_p")});
  const std::string command =
      binary_with_model_environment({"ANTHROPIC_BASE_URL=" + server.url(),
                                     std::string("ANTHROPIC_API_KEY=") + k_fake_anthropic_key}) +
      " -p 'Say what hello.sh prints.' --model anthropic/claude-sonnet-4-5 --no-diagnostics --out " +
      shell_quote(out.path().string()) + " 2>" + shell_quote((certificates.path() / "progress.txt").string());
  CommandResult result = run_shell(command, repo.path());
  const std::string progress = certificates.read("progress.txt");
  BOOST_TEST_INFO(progress);
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(result.output == "hello.sh prints hello.\n");  // the answer alone, as `claude -p` prints it
  BOOST_TEST(progress.find("1 attempt") != std::string::npos);
  BOOST_TEST(progress.find("reports: ") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(anthropic_over_tls_completes_a_multi_turn_task_with_parallel_tool_calls) {
  StreamedUsage streamed;
  ServerTls tls = make_self_signed_certificate(certificates.path().string());
  ReplayServer server(three_turns("anthropic", streamed), tls);
  CommandResult result =
      run({"ANTHROPIC_BASE_URL=" + server.url(), std::string("ANTHROPIC_API_KEY=") + k_fake_anthropic_key,
           "SSL_CERT_FILE=" + tls.certificate_file},
          {"--model", "anthropic/claude-sonnet-4-5"});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("outcome") == "passed");
  BOOST_TEST(attempt.find("turns")->as_int() == 3);
  BOOST_TEST(attempt.find("tool_calls")->as_array().size() == 3u);
  check_usage_totals(*attempt.find("usage"), streamed, "anthropic/claude-sonnet-4-5");
  Json report = parse_json(out.read("report.json")).value();
  check_usage_totals(*report.find("run")->find("totals")->find("usage"), streamed, "anthropic/claude-sonnet-4-5");
  BOOST_TEST(report.find("run")->find("price_table")->get_string("version") == builtin_price_table().version);
  const Json::Array& calls = attempt.find("model_calls")->as_array();
  BOOST_REQUIRE(calls.size() == 3u);
  BOOST_TEST(calls[1].get_string("request_id") == "req_e2e_anthropic_2");
  BOOST_TEST(calls[1].get_string("response_model") == "claude-sonnet-4-5-20250929");
  BOOST_TEST(calls[2].get_string("stop_reason") == "end_turn");
  BOOST_TEST(attempt.find("warnings")->as_array().empty());
  auto requests = server.requests();
  BOOST_REQUIRE(requests.size() == 3u);
  BOOST_TEST(requests[0].header("x-api-key") == k_fake_anthropic_key);
  BOOST_TEST(requests[1].body.find(R"("tool_use_id":"toolu_e2e_read_greet")") != std::string::npos);
  BOOST_TEST(requests[1].body.find("echo bye") != std::string::npos);
  BOOST_TEST(requests[2].body.find(R"("tool_use_id":"toolu_e2e_write_hello")") != std::string::npos);
  BOOST_TEST(requests[2].body.find(R"("tool_use_id":"toolu_e2e_read_hello")") != std::string::npos);
  std::string transcript = out.read("attempts/hello/1/transcript.jsonl");
  BOOST_TEST(transcript.find(R"("type":"request")") != std::string::npos);
  BOOST_TEST(transcript.find(R"("request_id":"req_e2e_anthropic_3")") != std::string::npos);
  BOOST_TEST(every_file_in_out().find(k_fake_anthropic_key) == std::string::npos);
  BOOST_TEST(result.output.find(k_fake_anthropic_key) == std::string::npos);
  check_report_schema();
}

BOOST_AUTO_TEST_CASE(openai_compatible_completes_a_multi_turn_task_with_parallel_tool_calls) {
  StreamedUsage streamed;
  ReplayServer server(three_turns("openai", streamed));
  CommandResult result =
      run({"OPENAI_BASE_URL=" + server.url() + "/v1", std::string("OPENAI_API_KEY=") + k_fake_openai_key},
          {"--model", "openai/gpt-4o"});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("outcome") == "passed");
  BOOST_TEST(attempt.find("turns")->as_int() == 3);
  check_usage_totals(*attempt.find("usage"), streamed, "openai/gpt-4o");
  auto requests = server.requests();
  BOOST_REQUIRE(requests.size() == 3u);
  BOOST_TEST(requests[0].uri == "/v1/chat/completions");
  BOOST_TEST(requests[0].header("Authorization") == std::string("Bearer ") + k_fake_openai_key);
  BOOST_TEST(requests[1].body.find(R"("role":"tool","tool_call_id":"call_e2e_read_greet")") != std::string::npos);
  BOOST_TEST(requests[2].body.find(R"("tool_call_id":"call_e2e_read_hello")") != std::string::npos);
  BOOST_TEST(every_file_in_out().find(k_fake_openai_key) == std::string::npos);
  check_report_schema();
}

BOOST_AUTO_TEST_CASE(a_429_and_a_529_are_retried_and_every_try_is_in_the_report) {
  StreamedUsage streamed;
  std::vector<ScriptedResponse> responses = {
      json_response(
          429,
          R"({"type":"error","error":{"type":"rate_limit_error","message":"synthetic: rate limited"},"request_id":"req_e2e_429"})",
          {{"retry-after-ms", "30"}, {"request-id", "req_e2e_429"}}),
      json_response(
          529,
          R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_e2e_529"})",
          {{"retry-after-ms", "40"}, {"request-id", "req_e2e_529"}})};
  for (ScriptedResponse& turn : three_turns("anthropic", streamed)) responses.push_back(turn);
  ReplayServer server(responses);
  CommandResult result =
      run({"ANTHROPIC_BASE_URL=" + server.url(), std::string("ANTHROPIC_API_KEY=") + k_fake_anthropic_key},
          {"--model", "anthropic/claude-sonnet-4-5"});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  Json attempt = this->attempt();
  check_usage_totals(*attempt.find("usage"), streamed, "anthropic/claude-sonnet-4-5");
  const Json::Array& tries = attempt.find("model_calls")->as_array().at(0).find("failed_tries")->as_array();
  BOOST_REQUIRE(tries.size() == 2u);
  BOOST_TEST(tries[0].find("status")->as_int() == 429);
  BOOST_TEST(tries[0].get_string("error_type") == "rate_limit_error");
  BOOST_TEST(tries[0].get_string("request_id") == "req_e2e_429");
  BOOST_TEST(tries[0].find("wait_ms")->as_int() == 30);
  BOOST_TEST(tries[1].find("status")->as_int() == 529);
  BOOST_TEST(tries[1].get_string("error_type") == "overloaded_error");
  BOOST_TEST(tries[1].find("wait_ms")->as_int() == 40);
  check_report_schema();
}

BOOST_AUTO_TEST_CASE(a_rejected_key_is_an_error_with_a_message_to_act_on_and_no_retry) {
  ReplayServer server({json_response(
      401,
      R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_e2e_401"})",
      {{"request-id", "req_e2e_401"}})});
  CommandResult result =
      run({"ANTHROPIC_BASE_URL=" + server.url(), std::string("ANTHROPIC_API_KEY=") + k_fake_anthropic_key},
          {"--model", "anthropic/claude-sonnet-4-5"});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 3);
  Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("outcome") == "error");
  BOOST_TEST(attempt.get_string("outcome_type") == "model.unavailable");
  BOOST_TEST(attempt.get_string("message") ==
             "anthropic/claude-sonnet-4-5: HTTP 401 authentication_error: invalid x-api-key (request id req_e2e_401); "
             "check ANTHROPIC_API_KEY");
  const Json::Array& tries = attempt.find("model_calls")->as_array().at(0).find("failed_tries")->as_array();
  BOOST_REQUIRE(tries.size() == 1u);
  BOOST_TEST(tries[0].find("wait_ms")->as_int() == 0);
  BOOST_TEST(server.requests().size() == 1u);
  BOOST_TEST(every_file_in_out().find(k_fake_anthropic_key) == std::string::npos);
  check_report_schema();
}

BOOST_AUTO_TEST_CASE(a_server_that_goes_silent_ends_the_attempt_in_bounded_time) {
  ScriptedResponse silent = sse_response(model_fixture("e2e_anthropic_1.sse").substr(0, 300), "req_e2e_silent");
  silent.end = ResponseEnd::go_silent;
  ReplayServer server({silent, silent});
  CommandResult result =  // the server stays silent for good: only the idle timeout ends each try
      run({"ANTHROPIC_BASE_URL=" + server.url(), std::string("ANTHROPIC_API_KEY=") + k_fake_anthropic_key},
          {"--model", "anthropic/claude-sonnet-4-5", "--model-idle-timeout", "300ms", "--model-retries", "1"});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 3);
  Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("message").find("gave up after 2 tries") != std::string::npos);
  const Json::Array& tries = attempt.find("model_calls")->as_array().at(0).find("failed_tries")->as_array();
  BOOST_REQUIRE(tries.size() == 2u);
  BOOST_TEST(tries[0].get_string("error_type") == "timeout");
  BOOST_TEST(tries[0].get_string("request_id") == "req_e2e_silent");
  BOOST_TEST(tries[0].find("wait_ms")->as_int() > 0);
  // The bound: each try ended by the 300 ms idle timeout, not by the default 90 s one nor by the
  // end of the stream (which never comes). Within 10 s: the idle timeout with a loaded machine's
  // slack, and far below what any other limit would give.
  for (const Json& failed : tries) {
    const std::int64_t took = failed.find("duration_ms")->as_int();
    BOOST_TEST(took >= 300, "a try that ended before its idle timeout: " << took << " ms");
    BOOST_TEST(took < 10000, "a try the idle timeout did not end: " << took << " ms");
  }
  check_report_schema();
}

BOOST_AUTO_TEST_CASE(an_unpriced_model_has_an_unknown_cost_and_its_cost_limit_is_reported_unenforced) {
  StreamedUsage streamed;
  ReplayServer server(three_turns("openai", streamed));
  CommandResult result = run({"OPENAI_BASE_URL=" + server.url() + "/v1"}, {"--model", "openai/llama3.1:8b"});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(result.output.find("limits.cost_usd cannot be enforced with openai/llama3.1:8b") != std::string::npos);
  Json attempt = this->attempt();
  BOOST_TEST(attempt.find("usage")->find("cost_usd")->is_null());
  BOOST_TEST(attempt.find("usage")->find("input_tokens")->as_int() == streamed.input);
  const Json::Array& warnings = attempt.find("warnings")->as_array();
  BOOST_REQUIRE(warnings.size() == 1u);
  BOOST_TEST(warnings[0].as_string().find("limits.cost_usd ($5.00) was not enforced") != std::string::npos);
  BOOST_TEST(server.requests().at(0).header("Authorization") == "");  // a local server with no key gets none
  check_report_schema();
}

BOOST_AUTO_TEST_CASE(context_status_reports_the_context_against_a_priced_models_window) {
  ReplayServer server({sse_response(anthropic_turn("toolu_status_1", 1500, 1000), "req_status_1"),
                       sse_response(anthropic_turn("", 2600, 1000), "req_status_2")});
  CommandResult result =
      run({"ANTHROPIC_BASE_URL=" + server.url(), std::string("ANTHROPIC_API_KEY=") + k_fake_anthropic_key},
          {"--model", "anthropic/claude-sonnet-4-5-20250929"});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 1);  // the agent wrote no hello.sh: its check fails
  auto requests = server.requests();
  BOOST_REQUIRE(requests.size() == 2u);
  BOOST_TEST_INFO(requests[1].body);
  // 1500 uncached + 1000 cached input in the last request, against the table's 200000 for the model.
  BOOST_TEST(requests[1].body.find("context: 2500 of 200000 tokens (1%) in the last request") != std::string::npos);
  BOOST_TEST(requests[1].body.find("window is not known") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(context_status_says_an_unlisted_models_window_is_not_known) {
  ReplayServer server({sse_response(anthropic_turn("toolu_status_1", 1500, 0), "req_status_1"),
                       sse_response(anthropic_turn("", 2600, 0), "req_status_2")});
  TempFolder prices;  // a table that prices the model but gives no window
  std::filesystem::path table = prices.write(
      "prices.json", R"({"version": "t", "models": {"anthropic/claude-sonnet-4-5": {"input": 3, "output": 15}}})");
  CommandResult result =
      run({"ANTHROPIC_BASE_URL=" + server.url(), std::string("ANTHROPIC_API_KEY=") + k_fake_anthropic_key},
          {"--model", "anthropic/claude-sonnet-4-5", "--prices", table.string()});
  BOOST_TEST_INFO(result.output);
  auto requests = server.requests();
  BOOST_REQUIRE(requests.size() == 2u);
  BOOST_TEST_INFO(requests[1].body);
  BOOST_TEST(requests[1].body.find("context: 1500 tokens in the last request; the model's window is not known") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(sigint_cuts_a_model_call_in_flight_and_the_attempt_is_reported_interrupted) {
  // The server answers the first call with a stream's first event, then holds the connection
  // silent until the test ends: only cutting the call in flight lets agent-run exit before that.
  std::string stream = model_fixture("e2e_anthropic_1.sse");
  ScriptedResponse held = sse_response(stream.substr(0, stream.find("\n\n") + 2), "req_held");
  held.end = ResponseEnd::hold;
  ReplayServer server({held});
  pid_t agent_run =
      start({"ANTHROPIC_BASE_URL=" + server.url(), std::string("ANTHROPIC_API_KEY=") + k_fake_anthropic_key},
            {"--model", "anthropic/claude-sonnet-4-5", "--model-idle-timeout", "10m"});
  BOOST_REQUIRE(server.wait_for_requests(1));
  ::kill(agent_run, SIGINT);
  // Without the cut, agent-run would wait 10 minutes for the held stream: give it two.
  int status = 0;
  for (int i = 0; i < 1200 && ::waitpid(agent_run, &status, WNOHANG) != agent_run; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (::kill(agent_run, 0) == 0 && ::waitpid(agent_run, &status, WNOHANG) == 0) {
    ::kill(agent_run, SIGKILL);
    ::waitpid(agent_run, &status, 0);
    BOOST_FAIL("agent-run was still waiting for the model two minutes after SIGINT");
  }
  BOOST_TEST_INFO(certificates.read("run.log"));
  BOOST_TEST(WIFEXITED(status));
  BOOST_TEST(WEXITSTATUS(status) == 130);
  BOOST_TEST(server.requests().size() == 1u);  // no try followed the cut one
  Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("outcome") == "error");
  BOOST_TEST(attempt.get_string("outcome_type") == "interrupted");
  BOOST_TEST(attempt.get_string("stop_reason") == "interrupted");
  const Json::Array& calls = attempt.find("model_calls")->as_array();
  BOOST_REQUIRE(calls.size() == 1u);
  const Json::Array& tries = calls[0].find("failed_tries")->as_array();
  BOOST_REQUIRE(tries.size() == 1u);
  BOOST_TEST(tries[0].get_string("error_type") == "interrupted");
  check_report_schema();
}

BOOST_AUTO_TEST_SUITE_END()
