// The files a report names are there, through the real binary: a patch.diff, an output.json or a
// transcript that cannot be written makes the attempt an error (runner.crashed, exit 3: agent-run
// failed at its own job) whose report names no such file; a project gate's baseline cache that
// cannot store is a warning. The write is made to fail as a full disk would, by something root
// cannot write past either: a non-empty folder where the file goes, made by the task's setup (the
// attempt clears its report folder before it starts, so one made beforehand would be undone).
#include "base/json.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <map>

using namespace agent_run;
using namespace agent_run::test;
namespace fs = std::filesystem;

namespace {

// No bash: the run turns the sandbox off (so that setup can reach the report folder under /tmp),
// which a policy allowing only file writes does not refuse.
const char* const k_policy = "version: 1\nunmatched: deny\nrules:\n  - id: files\n    allow: [write_file]\n";

/// A repository with the policy and a report folder beside it.
struct ArtifactsFixture {
  TempFolder repo;
  TempFolder out;

  /// Commits tasks/t.yaml holding `task` (in which `{out}` is the report folder's path), and `files`.
  void task(std::string task, std::map<std::string, std::string> files = {}) {
    for (std::size_t at = task.find("{out}"); at != std::string::npos; at = task.find("{out}")) {
      task.replace(at, 5, out.path().string());
    }
    files["policy.yaml"] = k_policy;
    files["tasks/t.yaml"] = task;
    make_git_repository(repo.path(), files);
  }

  /// The binary on tasks/t.yaml with the sandbox off; `environment` (NAME=value words) before it.
  CommandResult run(const std::vector<std::string>& environment = {}) const {
    std::string command = "env";
    for (const std::string& word : environment) command += " " + shell_quote(word);
    command += " " + shell_quote(agent_run_binary()) + " tasks/t.yaml --sandbox off --out " +
               shell_quote(out.path().string());
    return run_shell(command, repo.path());
  }

  Json report() const {
    auto parsed = parse_json(out.read("report.json"));
    BOOST_REQUIRE_MESSAGE(parsed.has_value(), "report.json does not parse: " + out.read("report.json"));
    return *parsed;
  }

  Json attempt() const { return report().find("attempts")->as_array().at(0); }

  /// Each file the attempt names (patch, transcript, structured output) is a regular file in the
  /// report folder; and the pages written about it are whole.
  void require_named_files_exist(const Json& attempt) const {
    for (const char* key : {"patch_path", "transcript_path", "output_path"}) {
      const std::string named = attempt.get_string(key);
      if (!named.empty()) BOOST_TEST(fs::is_regular_file(out.path() / named), key << " names " << named);
    }
    check_report_folder(out.path());
  }
};

/// A task whose setup puts a non-empty folder where the attempt's `file` goes, and whose scripted
/// agent writes greeting.txt (`more`: keys such as output_schema, `final`: its last answer).
std::string blocking_task(const std::string& file, const std::string& more = "",
                          const std::string& final = "Done.") {
  return "prompt: Write the greeting.\npolicy: ../policy.yaml\n" + more +
         "setup:\n  - mkdir -p '{out}/attempts/t/1/" + file +
         "/in-the-way'\n"
         "checks:\n  - run: grep -q hello greeting.txt\n"
         "script:\n"
         "  - call: {tool: write_file, input: {path: greeting.txt, content: \"hello\\n\"}}\n"
         "  - say: '" + final + "'\n";
}

const char* const k_verdict_schema =
    "output_schema:\n  type: object\n  required: [verdict]\n  properties:\n    verdict: {enum: [approve]}\n";

}  // namespace

BOOST_FIXTURE_TEST_SUITE(report_artifacts_binary, ArtifactsFixture)

BOOST_AUTO_TEST_CASE(an_attempt_whose_files_are_written_passes_and_names_each) {
  task(blocking_task("unrelated", k_verdict_schema, "{\"verdict\": \"approve\"}"));
  CommandResult result = run();
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  const Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("outcome_type") == "passed");
  for (const char* key : {"patch_path", "transcript_path", "output_path"}) BOOST_TEST(!attempt.get_string(key).empty(), key);
  require_named_files_exist(attempt);
}

BOOST_AUTO_TEST_CASE(a_patch_that_cannot_be_written_makes_a_passing_attempt_an_error_that_names_no_patch) {
  task(blocking_task("patch.diff"));
  CommandResult result = run();
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 3);  // not judged: the runner lost the attempt's work
  const Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("outcome") == "error");
  BOOST_TEST(attempt.get_string("outcome_type") == "runner.crashed");
  const std::string message = attempt.get_string("message");
  BOOST_TEST(message.find("could not write patch.diff: ") == 0, message);
  BOOST_TEST(message.find("(the attempt had passed)") != std::string::npos, message);
  BOOST_TEST(attempt.get_string("patch_path") == "");
  BOOST_TEST(attempt.find("patch")->find("lines_added")->as_int() == 1);  // computed: only its file is lost
  BOOST_TEST(fs::is_directory(out.path() / "attempts/t/1/patch.diff"));  // what stood in the way
  require_named_files_exist(attempt);
}

BOOST_AUTO_TEST_CASE(a_transcript_that_cannot_be_written_makes_the_attempt_an_error_that_does_not_name_it) {
  task(blocking_task("transcript.jsonl"));
  CommandResult result = run();
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 3);
  const Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("outcome_type") == "runner.crashed");
  BOOST_TEST(attempt.get_string("message").find("could not write the transcript: cannot open ") == 0,
             attempt.get_string("message"));
  BOOST_TEST(attempt.get_string("transcript_path") == "");
  BOOST_TEST(attempt.get_string("patch_path") != "");  // the patch was written
  require_named_files_exist(attempt);
}

BOOST_AUTO_TEST_CASE(a_structured_answer_that_cannot_be_saved_makes_the_attempt_an_error_that_does_not_name_it) {
  task(blocking_task("output.json", k_verdict_schema, "{\"verdict\": \"approve\"}"));
  CommandResult result = run();
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 3);
  const Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("outcome_type") == "runner.crashed");
  BOOST_TEST(attempt.get_string("message").find("could not write output.json: ") == 0, attempt.get_string("message"));
  BOOST_TEST(attempt.get_string("output_path") == "");
  BOOST_TEST(attempt.find("structured_output")->get_string("verdict") == "approve");  // the answer stays in report.json
  require_named_files_exist(attempt);
}

BOOST_AUTO_TEST_CASE(a_baseline_cache_that_cannot_store_is_a_warning_and_the_attempt_still_passes) {
  task("prompt: Write the script.\npolicy: ../policy.yaml\n"
       "checks:\n  - no_new_diagnostics: project\n    checker: shellcheck\n"
       "script:\n"
       "  - call: {tool: write_file, input: {path: hello.sh, content: \"#!/bin/sh\\necho hello\\n\"}}\n"
       "  - say: Done.\n",
       {{"greet.sh", "#!/bin/sh\necho hi\n"}});
  repo.write("cache-is-a-file", "not a folder\n");  // the cache folder's parent: no folder can be made under it
  CommandResult result = run({"AGENT_RUN_CACHE=" + (repo.path() / "cache-is-a-file").string()});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  const Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("outcome_type") == "passed", attempt.get_string("message"));
  std::string warnings;
  for (const Json& warning : attempt.find("warnings")->as_array()) warnings += warning.as_string() + "\n";
  BOOST_TEST(warnings.find("cannot store the baseline in the cache (" + (repo.path() / "cache-is-a-file").string() +
                           "/project-gate/") != std::string::npos,
             warnings);
  BOOST_TEST(warnings.find("; later runs check this baseline again") != std::string::npos, warnings);
  require_named_files_exist(attempt);
}

BOOST_AUTO_TEST_SUITE_END()
