#include "app/input_review.h"
#include "app/load_inputs.h"
#include "batch/sandbox_setup.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace agent_run;
using namespace agent_run::test;

namespace {

/// A git repository holding task files, loaded and reviewed as a run does.
struct Project {
  TempFolder folder;
  PriceTable prices = builtin_price_table();

  Project() { make_git_repository(folder.path(), {{"app.py", "print(1)\n"}}); }

  std::string task(const std::string& name, const std::string& text) const {
    return folder.write("tasks/" + name, text).string();
  }
  std::string at(const std::string& name) const { return (folder.path() / "tasks" / name).string(); }

  /// The error, or the warnings one per line when it loads.
  Expected<LoadedInputs> load(const std::vector<std::string>& files, ChecksRequired checks = ChecksRequired::no,
                              const std::vector<std::string>& models = {}) const {
    InputReviewSettings review{&prices, checks};
    return load_inputs(files, std::nullopt, models, Task{}, {}, &review);
  }
};

const char* const k_script = "script:\n  - say: done\n";
const char* const k_checks = "checks:\n  - run: 'true'\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(input_review)

BOOST_AUTO_TEST_CASE(an_unknown_model_is_refused_at_its_position_in_a_file_with_other_errors) {
  Project project;
  std::string file = project.task("t.yaml", std::string("prompt: p\nmodel: gpt4\nlimits: {turns: 0}\n") + k_checks);
  auto loaded = project.load({file});
  BOOST_REQUIRE(!loaded);
  BOOST_TEST(loaded.error().message.find(file + ":2:8: unknown model 'gpt4' (did you mean 'openai/") !=
                 std::string::npos,
             loaded.error().message);
  BOOST_TEST(loaded.error().message.find(file + ":3:17: 'limits.turns'") != std::string::npos,
             loaded.error().message);
}

BOOST_AUTO_TEST_CASE(a_model_without_a_price_is_a_warning_at_its_position) {
  Project project;
  std::string file = project.task("t.yaml", std::string("prompt: p\nmodel: openai/llama3\n") + k_checks);
  auto loaded = project.load({file});
  BOOST_REQUIRE_MESSAGE(loaded.has_value(), (loaded ? std::string() : loaded.error().message));
  BOOST_REQUIRE(loaded->warnings.size() == 1u);
  BOOST_TEST(loaded->warnings[0] == file + ":2:8: warning: the price table (version " + project.prices.version +
                                        ", built-in) has no price for 'openai/llama3': its cost is reported as "
                                        "unknown; give one with --prices FILE");
}

BOOST_AUTO_TEST_CASE(a_missing_workspace_repo_is_refused_before_anything_runs) {
  Project project;
  std::string file = project.task("t.yaml", std::string("prompt: p\nworkspace:\n  repo: ../nope\n") + k_script +
                                                k_checks);
  auto loaded = project.load({file});
  BOOST_REQUIRE(!loaded);
  BOOST_TEST(loaded.error().message ==
             file + ":3:9: 'workspace.repo': '" + (project.folder.path() / "nope").string() + "' does not exist");
}

BOOST_AUTO_TEST_CASE(a_ref_that_names_no_commit_is_refused_at_the_ref) {
  Project project;
  std::string file =
      project.task("t.yaml", std::string("prompt: p\nworkspace: {repo: .., ref: v9}\n") + k_script + k_checks);
  auto loaded = project.load({file});
  BOOST_REQUIRE(!loaded);
  const std::string expected =
      file + ":2:28: 'workspace.ref': 'v9' names no commit of '" + project.folder.path().string() + "': ";
  BOOST_TEST(loaded.error().message.starts_with(expected), loaded.error().message);
  std::string good = project.task("g.yaml", std::string("prompt: p\nworkspace: {repo: .., ref: main}\n") +
                                                k_script + k_checks);
  BOOST_TEST(project.load({good}).has_value());
}

BOOST_AUTO_TEST_CASE(a_task_without_checks_is_a_warning_and_with_require_checks_an_error) {
  Project project;
  std::string file = project.task("t.yaml", std::string("prompt: p\n") + k_script);
  auto loaded = project.load({file});
  BOOST_REQUIRE(loaded.has_value());
  BOOST_REQUIRE(loaded->warnings.size() == 1u);
  BOOST_TEST(loaded->warnings[0] ==
             file + ": warning: task 't' has no checks: every attempt that ends without an error passes; add "
                    "'checks:' (--require-checks or require_checks: true in agent-run.yaml makes this an error)");
  auto required = project.load({file}, ChecksRequired::yes);
  BOOST_REQUIRE(!required);
  BOOST_TEST(required.error().message == file + ": task 't' has no checks, and require_checks (--require-checks "
                                                "or agent-run.yaml) needs them: add 'checks:'");
}

BOOST_AUTO_TEST_CASE(a_scripted_task_without_a_script_is_refused) {
  Project project;
  std::string plain = project.task("plain.yaml", std::string("prompt: p\n") + k_checks);
  std::string said = project.task("said.yaml", std::string("prompt: p\nmodel: script\n") + k_checks);
  auto loaded = project.load({plain, said});
  BOOST_REQUIRE(!loaded);
  BOOST_TEST(loaded.error().message ==
             plain + ": task 'plain' runs the scripted model (no 'model:', so the scripted model) but has no "
                     "'script:'; add the turns it plays, or set model: PROVIDER/NAME\n" +
                 said + ":2:8: task 'said' runs the scripted model (model: script) but has no 'script:'; add the "
                        "turns it plays, or set model: PROVIDER/NAME");
  BOOST_TEST(project.load({plain, said}, ChecksRequired::no, {"anthropic/claude-sonnet-4-5"}).has_value());
}

BOOST_AUTO_TEST_CASE(the_same_file_twice_is_refused_as_such) {
  Project project;
  std::string file = project.task("t.yaml", std::string("prompt: p\n") + k_script + k_checks);
  std::string again = (project.folder.path() / "tasks" / "." / "t.yaml").string();
  auto loaded = project.load({file, again});
  BOOST_REQUIRE(!loaded);
  BOOST_TEST(loaded.error().message ==
             again + ": this task file is given twice (also as " + file + "); name it once (--repeat N runs it N times)");
}

BOOST_AUTO_TEST_CASE(every_problem_in_every_file_is_said_at_once) {
  Project project;
  std::string first = project.task("a.yaml", std::string("prompt: p\nmodel: gpt4\n") + k_checks);
  std::string second = project.task("b.yaml", std::string("prompt: p\nworkspace: {repo: ../nope}\n") + k_script +
                                                   k_checks);
  std::string third =
      project.task("c.yaml", std::string("prompt: p\nscript:\n  - call: {tool: raed_file, input: {path: a}}\n") +
                                 k_checks);
  auto loaded = project.load({first, second, third});
  BOOST_REQUIRE(!loaded);
  const std::string& error = loaded.error().message;
  BOOST_TEST(error.find(first + ":2:8: unknown model 'gpt4'") != std::string::npos, error);
  BOOST_TEST(error.find(second + ":2:19: 'workspace.repo':") != std::string::npos, error);
  BOOST_TEST(error.find(third + ":3:18: 'script[0].call.tool': unknown tool 'raed_file'") != std::string::npos,
             error);
}

BOOST_AUTO_TEST_SUITE_END()
