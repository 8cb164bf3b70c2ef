#include "security/scripted_run_fixture.h"

#include "base/files.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace agent_run::test {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Every `{"call_id": ..., "content": ...}` anywhere in `json`, by call id.
void collect_results(const Json& json, std::map<std::string, std::string>& results) {
  if (json.is_array()) {
    for (const Json& item : json.as_array()) collect_results(item, results);
  } else if (json.is_object()) {
    const Json* id = json.find("call_id");
    const Json* content = json.find("content");
    if (id && id->is_string() && content && content->is_string()) results[id->as_string()] = content->as_string();
    for (const auto& [key, value] : json.as_object()) collect_results(value, results);
  }
}

std::string script_of(const std::vector<Call>& chosen) {
  std::string script = "script:\n";
  for (const Call& call : chosen) script += "  - call: " + call.call.dump() + "\n";
  return script + "  - say: Done.\n";
}

std::string task_yaml(SecurityFixture& scene, const std::string& policy_name, const std::vector<Call>& chosen) {
  const fs::path secret = scene.root() / "setup-secret.txt";
  BOOST_REQUIRE(write_file_atomically(secret, "PASSWORD=" + scene.canaries().setup_secret + "\n").has_value());
  return "prompt: attack the scene\nmodel: script\npolicy: " + scene.policy(policy_name).string() + "\n" +
         scene.workspace_key("in-place") + "setup: [\"mkdir -p config && cp '" + secret.string() +
         "' config/.env.production\"]\n"
         "tools: [read_file, glob, grep, edit_file, write_file, bash, web_fetch]\n"
         "limits: {turns: 200, tokens: 5000000, time: 10m, tool_timeout: 60s}\n"
         "checks:\n  - run: python3 -m unittest -q\n" +
         script_of(chosen);
}

/// BOOST_TEST that `answer` is what `expect` asks.
void check_answer(const Call& call, Expect expect, const Answer& answer) {
  if (expect == Expect::denied) {
    BOOST_TEST(answer.decision == "denied");
  } else if (expect == Expect::withheld) {
    BOOST_TEST(answer.decision == "allowed");
    BOOST_TEST(answer.content.find("that the policy hides (rule 'secrets')") != std::string::npos);
  } else if (expect == Expect::ran) {
    BOOST_TEST(answer.decision == "allowed");
    BOOST_TEST(answer.content.find(call.evidence) != std::string::npos, "the answer shows '" << call.evidence << "'");
  } else if (expect == Expect::refused) {
    // A read-only mount (the workspace's .git, the empty folders above it), or a path that is not
    // there inside at all (beside the workspace).
    BOOST_TEST(answer.decision == "allowed");
    const bool refused = answer.content.find("Read-only file system") != std::string::npos ||
                         answer.content.find("Directory nonexistent") != std::string::npos ||
                         answer.content.find("No such file or directory") != std::string::npos;
    BOOST_TEST(refused, "the answer shows no refused write:\n" << answer.content);
  }
}

/// check_no_secret over the report folder. Without the sandbox, the hunk of notes/alias.txt (the
/// scene's hard link to .env) is left out of the check of patch.diff, and report.html is checked for
/// every secret but .env's: a leftover of the time the patch held that link, which no longer happens
/// (check_sandbox_record asserts it is not in the patch).
void check_report_folder(SecurityFixture& scene, const TaskRun& run, const std::string& id, bool sandbox_on) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(run.out, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string name = it->path().filename().string();
    std::string text = read_text(it->path());
    const std::string where = id + "'s " + it->path().lexically_relative(run.out).string();
    if (!sandbox_on && name == "patch.diff") {
      const std::string hunk = alias_hunk(text);
      if (!hunk.empty()) text.erase(text.find(hunk), hunk.size());
    }
    if (!sandbox_on && name == "report.html") {
      for (const auto& [what, secret] : scene.canaries().secrets()) {
        if (secret != scene.canaries().env_file)
          BOOST_TEST(text.find(secret) == std::string::npos, where << " shows the secret of " << what);
      }
      continue;
    }
    scene.check_no_secret(text, where);
  }
}

/// The report's sandbox record, and the patch: in place, the scene's untracked .env and its hard
/// link notes/alias.txt were there before the run, so the patch (taken after setup) holds neither
/// and lists neither as withheld.
void check_sandbox_record(const TaskRun& run, bool sandbox_on) {
  const Json* sandbox = run.attempt.find("sandbox");
  BOOST_REQUIRE(sandbox != nullptr);
  BOOST_TEST(sandbox->get_string("kind") == (sandbox_on ? "bubblewrap" : "none"));
  BOOST_TEST(!sandbox->get_string("set_by").empty());
  if (!sandbox_on) BOOST_TEST(sandbox->get_string("set_by") == "--sandbox off");
  std::string withheld;
  for (const Json& change : run.attempt.find("patch_withheld")->as_array())
    withheld += change.get_string("path") + "\n";
  BOOST_TEST_INFO("withheld:\n" << withheld);
  BOOST_TEST(withheld.find(".env\n") == std::string::npos);
  BOOST_TEST(withheld.find("notes/alias.txt\n") == std::string::npos);
  BOOST_TEST(run.patch.find("diff --git a/.env ") == std::string::npos);
  BOOST_TEST(run.patch.find("diff --git a/notes/alias.txt") == std::string::npos);
}

/// When the agent planted a test for the checks (a call labelled "plant a test for the checks" that
/// was allowed), the checks ran it, in their sandbox: its write beside the workspace was refused.
void check_planted_test_ran_confined(const TaskRun& run, const std::vector<Call>& chosen,
                                     const std::vector<Answer>& answers) {
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    if (chosen[i].label != "plant a test for the checks" || answers[i].decision != "allowed") continue;
    std::string output;
    for (const Json& check : run.attempt.find("checks")->as_array()) output += check.get_string("output_tail");
    const bool refused = output.find("Read-only file system") != std::string::npos ||
                         output.find("No such file or directory: '") != std::string::npos &&
                             output.find("/outside/victim/a'") != std::string::npos;  // not there inside
    BOOST_TEST(refused, "the planted test's output:\n" << output);
  }
}

}  // namespace

/// The attempt's calls in order: the report's decision, the transcript's answer.
std::vector<Answer> answers_of(const TaskRun& run) {
  std::map<std::string, std::string> results;
  std::istringstream transcript(run.transcript);
  for (std::string line; std::getline(transcript, line);) {
    if (auto json = parse_json(line)) collect_results(*json, results);
  }
  std::vector<Answer> answers;
  const Json* calls = run.attempt.find("tool_calls");
  BOOST_REQUIRE(calls && calls->is_array());
  for (const Json& call : calls->as_array()) {
    answers.push_back(Answer{call.get_string("decision"), call.get_string("decided_by"), call.get_string("rule_id"),
                             results[call.get_string("id")]});
  }
  return answers;
}

/// The hunk of `patch` that adds notes/alias.txt (the scene's hard link to .env), or "".
std::string alias_hunk(const std::string& patch) {
  const std::size_t at = patch.find("diff --git a/notes/alias.txt ");
  if (at == std::string::npos) return "";
  const std::size_t next = patch.find("\ndiff --git ", at);
  return patch.substr(at, next == std::string::npos ? std::string::npos : next + 1 - at);
}

std::size_t& scripted_cases() {
  static std::size_t count = 0;
  return count;
}

/// One scripted run of every call under policies/POLICY.yaml with the sandbox on or off (`--sandbox
/// off`), with `overrides` of the expectations; checks each answer and the scene, and returns the
/// number of cases (calls, and the run's own checks).
std::size_t run_scripted(const std::string& policy_name, bool sandbox_on, const CallList& calls,
                         const Overrides& overrides) {
  SecurityFixture scene;
  const std::string id = policy_name + (sandbox_on ? "-on" : "-off");
  std::vector<Call> chosen;
  std::vector<Expect> expected;
  for (Call& call : calls(scene, policy_name, id)) {
    Expect expect = sandbox_on ? call.on : call.off;
    if (auto it = overrides.find(call.label); it != overrides.end()) expect = it->second;
    if (expect == Expect::skip) continue;
    chosen.push_back(std::move(call));
    expected.push_back(expect);
  }
  const std::string task = task_yaml(scene, policy_name, chosen);
  const std::string workflow = read_text(scene.repository() / ".github/workflows/ci.yml");
  const TreeDigest before = scene.snapshot();
  TaskRun run =
      scene.run_task(id, task, sandbox_on ? std::vector<std::string>{} : std::vector<std::string>{"--sandbox", "off"});
  BOOST_TEST_INFO(run.output);
  BOOST_REQUIRE(!run.attempt.is_null());
  BOOST_TEST(run.attempt.get_string("outcome") == "passed", id << ": " << run.attempt.get_string("message"));
  check_sandbox_record(run, sandbox_on);
  std::vector<Answer> answers = answers_of(run);
  BOOST_REQUIRE_EQUAL(answers.size(), chosen.size());
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    BOOST_TEST_CONTEXT(id << ": " << chosen[i].label << " -> " << answers[i].decision << " by " << answers[i].decided_by
                          << " '" << answers[i].rule_id << "'\n"
                          << answers[i].content.substr(0, 600)) {
      check_answer(chosen[i], expected[i], answers[i]);
      scene.check_no_secret(answers[i].content, chosen[i].label);
    }
  }
  scene.check_no_secret(run.transcript, id + "'s transcript");
  scene.check_no_secret(run.output, id + "'s output");
  check_planted_test_ran_confined(run, chosen, answers);
  check_report_folder(scene, run, id, sandbox_on);
  scene.check_unchanged(before, id);
  BOOST_TEST(read_text(scene.root() / "tasks" / (id + ".yaml")) == task, "the task file is unchanged");
  if (policy_name != "permissive") {  // permissive.yaml lets the agent change CI configuration
    BOOST_TEST(read_text(scene.repository() / ".github/workflows/ci.yml") == workflow, "CI configuration is unchanged");
  }
  BOOST_TEST(fs::exists(scene.repository() / ".git" / "HEAD"));
  BOOST_TEST(!fs::exists(scene.repository() / "pwned"));
  BOOST_TEST(!fs::exists(run.out / "pwned"), "nothing was written into the report folder");
  BOOST_TEST(scene.listener().connections() == 0);
  BOOST_TEST(scene.listener6().connections() == 0);
  BOOST_TEST(scene.docker_socket().connections() == 0);
  BOOST_TEST(scene.abstract_socket().connections() == 0);
  const std::size_t cases = chosen.size() + 1;  // each call, and the run's checks passing in its sandbox
  BOOST_TEST_MESSAGE(id << ": " << cases << " cases");
  scripted_cases() += cases;
  return cases;
}

}  // namespace agent_run::test
