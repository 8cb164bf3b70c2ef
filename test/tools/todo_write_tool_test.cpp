#include "support/fixtures.h"
#include "tools/tool_registry.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

namespace {

Json item(const std::string& content, const std::string& status) {
  return Json::object().set("content", content).set("status", status);
}

struct TodoFixture {
  TempFolder folder;
  ToolRegistry tools = make_tool_registry(std::nullopt);
  ToolScope scope;
  SessionState session;
  TodoFixture() { scope.workspace = folder.path(); }
  ToolOutput write(Json::Array items) {
    return tools.find("todo_write")
        ->run(Json::object().set("todos", Json(std::move(items))), scope, session, std::chrono::minutes(2));
  }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(todo_write_tool, TodoFixture)

BOOST_AUTO_TEST_CASE(the_whole_list_replaces_the_last_one_and_is_kept_for_the_report) {
  ToolOutput first =
      write({item("Read the loader", "in_progress"), item("Rename it", "pending"), item("Run the tests", "pending")});
  BOOST_TEST(!first.is_error);
  BOOST_TEST(first.content ==
             "Plan (3 items: 0 completed, 1 in progress, 2 pending):\n[>] Read the loader\n[ ] Rename it\n[ ] Run the "
             "tests\n");
  ToolOutput second = write({item("Read the loader", "completed"), item("Rename it", "in_progress")});
  BOOST_TEST(second.content ==
             "Plan (2 items: 1 completed, 1 in progress, 0 pending):\n[x] Read the loader\n[>] Rename it\n");
  BOOST_REQUIRE_EQUAL(session.todos.size(), 2u);
  BOOST_TEST(session.todos[1].content == "Rename it");
  BOOST_TEST(session.todos[1].status == "in_progress");
  BOOST_TEST(write({}).content == "The plan is empty.\n");
  BOOST_TEST(session.todos.empty());
}

BOOST_AUTO_TEST_CASE(a_bad_list_is_refused_and_the_last_one_kept) {
  write({item("Keep me", "pending")});
  ToolOutput bad_status = write({item("Do it", "doing")});
  BOOST_TEST(bad_status.is_error);
  BOOST_TEST(bad_status.content ==
             "todo_write: todos[0].status must be pending, in_progress or completed, not 'doing'");
  BOOST_TEST(write({item("", "pending")}).content == "todo_write: todos[0].content must not be empty");
  BOOST_TEST(write({Json("just text")}).content == "todo_write: todos[0] must be an object with content and status");
  ToolOutput not_a_list =
      tools.find("todo_write")->run(Json::object().set("todos", "a"), scope, session, std::chrono::minutes(2));
  BOOST_TEST(not_a_list.content == "todo_write: todos must be an array of {content, status}");
  BOOST_REQUIRE_EQUAL(session.todos.size(), 1u);
  BOOST_TEST(session.todos[0].content == "Keep me");
}

BOOST_AUTO_TEST_SUITE_END()
