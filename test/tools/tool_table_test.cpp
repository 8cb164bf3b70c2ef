#include "tools/tool_table.h"
#include "policy/policy.h"
#include "tools/tool_registry.h"

#include <boost/test/unit_test.hpp>

#include <set>

using namespace agent_run;

BOOST_AUTO_TEST_SUITE(tool_table)

BOOST_AUTO_TEST_CASE(each_row_makes_the_tool_it_names_and_no_name_is_listed_twice) {
  std::set<std::string_view> names;
  for (const BuiltinTool& row : builtin_tools()) {
    BOOST_TEST(row.make()->schema().name == std::string(row.name));
    BOOST_TEST(names.insert(row.name).second, row.name << " is listed twice");
    BOOST_TEST(find_builtin_tool(row.name) == &row);
  }
  BOOST_TEST(names.size() == 13u);
  BOOST_TEST(find_builtin_tool("mcp__github__get_issue") == nullptr);
}

BOOST_AUTO_TEST_CASE(the_registry_enables_the_rows_on_by_default_in_the_tables_order) {
  std::vector<std::string> expected;
  for (const BuiltinTool& row : builtin_tools()) {
    if (row.on_by_default) expected.emplace_back(row.name);
  }
  BOOST_TEST(make_tool_registry(std::nullopt).names() == expected, boost::test_tools::per_element());
  BOOST_TEST(make_tool_registry(std::vector<std::string>{"web_search", "grep"}).names() ==
                 (std::vector<std::string>{"grep", "web_search"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_policy_reads_its_approval_classes_and_paths_from_the_table) {
  BOOST_TEST((approval_class("grep") == ApprovalClass::automatic));
  BOOST_TEST((approval_class("write_file") == ApprovalClass::prompts));
  BOOST_TEST((approval_class("todo_write") == ApprovalClass::never));
  BOOST_TEST((approval_class("mcp__github__get_issue") == ApprovalClass::prompts));
  for (const BuiltinTool& row : builtin_tools()) {
    BOOST_TEST((approval_class(row.name) == row.approval), row.name);
    BOOST_TEST(takes_a_path(row.name) == !row.path_key.empty(), row.name);
  }
  BOOST_TEST(!takes_a_path("bash"));
  BOOST_TEST(takes_a_path("glob"));
}

BOOST_AUTO_TEST_SUITE_END()
