#include "task/task_loader.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

std::string error_of(const std::string& text) {
  Expected<Task> task = load_task(text, "tasks/x.yaml");
  return task ? std::string() : task.error().message;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(commit_key)

BOOST_AUTO_TEST_CASE(commit_takes_a_branch_and_a_message_with_placeholders) {
  auto task = load_task("prompt: p\ncommit: {branch: \"agent/{id}-{n}\", message: \"Refactor {id} with {model}\"}\n",
                        "tasks/x.yaml");
  BOOST_REQUIRE_MESSAGE(task.has_value(), (task ? std::string() : task.error().message));
  BOOST_REQUIRE(task->commit.has_value());
  BOOST_TEST(task->commit->branch == "agent/{id}-{n}");
  BOOST_TEST(task->commit->message == "Refactor {id} with {model}");
  auto plain = load_task("prompt: p\ncommit:\n  branch: refactor/x\n", "tasks/x.yaml");
  BOOST_REQUIRE(plain.has_value());
  BOOST_TEST(plain->commit->message == "");
  BOOST_TEST(!load_task("prompt: p\n", "tasks/x.yaml")->commit.has_value());
}

BOOST_AUTO_TEST_CASE(a_bad_commit_key_is_reported_where_it_is) {
  BOOST_TEST(error_of("prompt: p\ncommit: {message: m}\n") ==
             "tasks/x.yaml:2:9: 'commit' needs 'branch': the branch that receives a passed attempt's changes");
  BOOST_TEST(error_of("prompt: p\ncommit: {brnch: b}\n") ==
             "tasks/x.yaml:2:10: unknown key 'brnch' in 'commit' (did you mean 'branch'?)");
  BOOST_TEST(error_of("prompt: p\ncommit: {branch: \"agent/{idd}\"}\n") ==
             "tasks/x.yaml:2:18: 'commit.branch' has an unknown placeholder '{idd}' (did you mean '{id}'?)");
  BOOST_TEST(error_of("prompt: p\ncommit: {branch: \"bad name..x\"}\n") ==
             "tasks/x.yaml:2:18: 'commit.branch' is not a valid git branch name: 'bad name..x'");
  BOOST_TEST(error_of("prompt: p\ncommit: {branch: b, message: \"{when}\"}\n") ==
             "tasks/x.yaml:2:30: 'commit.message' has an unknown placeholder '{when}' (known: {id}, {n}, {model})");
  BOOST_TEST(error_of("prompt: p\ncommit: true\n") == "tasks/x.yaml:2:9: 'commit' must be a map, got 'true'");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
