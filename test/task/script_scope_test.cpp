// A script's turns narrowed to some repeats (`repeats:`) and some scripted variants (`variants:`):
// how the loader reads them and which turns each attempt of each variant plays.
#include "model/scripted_turn.h"
#include "task/task_loader.h"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace agent_run;

namespace {

const char* const k_task = R"(prompt: p
script:
  - say: Looking.
  - call: {tool: bash, input: {command: "true"}}
    repeats: [2, 4]
  - say: Variant b only.
    variants: [b]
  - say: The third attempt.
    repeats: [3]
  - say: Done.
)";

std::vector<std::string> said(const std::vector<ScriptedTurn>& turns) {
  std::vector<std::string> out;
  for (const ScriptedTurn& turn : turns) out.push_back(turn.calls.empty() ? turn.say : "call " + turn.calls[0].tool);
  return out;
}

std::string error_of(const std::string& text) {
  Expected<Task> task = load_task(text, "tasks/x.yaml");
  return task ? std::string() : task.error().message;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(script_scope)

BOOST_AUTO_TEST_CASE(turns_are_played_only_in_their_repeats_and_variants) {
  Expected<Task> task = load_task(k_task, "tasks/x.yaml");
  BOOST_REQUIRE_MESSAGE(task.has_value(), (task ? std::string() : task.error().message));
  BOOST_TEST(task->script[1].repeats == (std::vector<int>{2, 4}), boost::test_tools::per_element());
  BOOST_TEST(task->script[2].variants == std::vector<std::string>{"b"}, boost::test_tools::per_element());
  BOOST_TEST(said(script_for(task->script, "", 1)) == (std::vector<std::string>{"Looking.", "Done."}),
             boost::test_tools::per_element());
  BOOST_TEST(said(script_for(task->script, "", 2)) == (std::vector<std::string>{"Looking.", "call bash", "Done."}),
             boost::test_tools::per_element());
  BOOST_TEST(said(script_for(task->script, "", 3)) ==
                 (std::vector<std::string>{"Looking.", "The third attempt.", "Done."}),
             boost::test_tools::per_element());
  BOOST_TEST(said(script_for(task->script, "b", 3)) ==
                 (std::vector<std::string>{"Looking.", "Variant b only.", "The third attempt.", "Done."}),
             boost::test_tools::per_element());
  BOOST_TEST(said(script_for(task->script, "b", 4)) ==
                 (std::vector<std::string>{"Looking.", "call bash", "Variant b only.", "Done."}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(repeats_and_variants_are_checked) {
  BOOST_TEST(error_of("prompt: p\nscript:\n  - say: a\n    repeats: [0]\n").starts_with(
      "tasks/x.yaml:4:15: 'script[0].repeats[0]' must be a positive integer"));
  BOOST_TEST(error_of("prompt: p\nscript:\n  - say: a\n    repeats: 2\n") != "");
  BOOST_TEST(error_of("prompt: p\nscript:\n  - repeats: [1]\n") ==
             "tasks/x.yaml:3:5: 'script[0]' needs 'say', 'call' or 'calls'");
}

BOOST_AUTO_TEST_SUITE_END()
