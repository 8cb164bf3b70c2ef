#include "tools/tool_table.h"
#include "policy/policy.h"
#include "tools/tool_registry.h"

#include <boost/test/unit_test.hpp>

#include <span>
#include <string>
#include <vector>

using namespace agent_run;

namespace {

/// One row as this test expects it, written out by hand: the table is checked against these facts,
/// never against itself.
struct ExpectedTool {
  std::string name;
  ApprovalClass approval;
  bool on_by_default;
  std::string path_key;
  std::string path_default;
  bool writes_files;
};

using enum ApprovalClass;

// The seed's built-in tools, in the order the model sees them.
const std::vector<ExpectedTool> k_expected = {
    {"read_file", automatic, true, "path", "", false},
    {"glob", automatic, true, "path", ".", false},
    {"grep", automatic, true, "path", ".", false},
    {"edit_file", prompts, true, "path", "", true},
    {"write_file", prompts, true, "path", "", true},
    {"bash", prompts, true, "", "", false},
    {"process_output", never, true, "", "", false},
    {"process_kill", never, true, "", "", false},
    {"todo_write", never, true, "", "", false},
    {"context_status", never, true, "", "", false},
    {"ask_user", never, true, "", "", false},
    {"web_fetch", prompts, false, "", "", false},
    {"web_search", prompts, false, "", "", false},
};

std::string approval_word(ApprovalClass approval) {
  return approval == automatic ? "automatic" : approval == prompts ? "prompts" : "never";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tool_table)

BOOST_AUTO_TEST_CASE(the_table_holds_the_seeds_tools_in_order_with_their_facts) {
  std::span<const BuiltinTool> table = builtin_tools();
  BOOST_REQUIRE_EQUAL(table.size(), k_expected.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    const BuiltinTool& row = table[i];
    const ExpectedTool& expected = k_expected[i];
    BOOST_TEST_CONTEXT("row " << i << " (" << expected.name << ")") {
      BOOST_TEST(std::string(row.name) == expected.name);
      BOOST_TEST(approval_word(row.approval) == approval_word(expected.approval));
      BOOST_TEST(row.on_by_default == expected.on_by_default);
      BOOST_TEST(std::string(row.path_key) == expected.path_key);
      BOOST_TEST(std::string(row.path_default) == expected.path_default);
      BOOST_TEST(row.writes_files == expected.writes_files);
      BOOST_TEST(row.make()->schema().name == expected.name);
    }
  }
}

BOOST_AUTO_TEST_CASE(each_name_is_found_and_no_other) {
  for (const ExpectedTool& expected : k_expected) {
    const BuiltinTool* found = find_builtin_tool(expected.name);
    BOOST_REQUIRE_MESSAGE(found != nullptr, expected.name);
    BOOST_TEST(std::string(found->name) == expected.name);
  }
  BOOST_TEST(find_builtin_tool("mcp__github__get_issue") == nullptr);
  BOOST_TEST(find_builtin_tool("Bash") == nullptr);
  BOOST_TEST(find_builtin_tool("") == nullptr);
}

BOOST_AUTO_TEST_CASE(the_registry_enables_the_tools_on_by_default_in_the_tables_order) {
  BOOST_TEST(make_tool_registry(std::nullopt).names() ==
                 (std::vector<std::string>{"read_file", "glob", "grep", "edit_file", "write_file", "bash",
                                           "process_output", "process_kill", "todo_write", "context_status",
                                           "ask_user"}),
             boost::test_tools::per_element());
  BOOST_TEST(make_tool_registry(std::vector<std::string>{"web_search", "grep"}).names() ==
                 (std::vector<std::string>{"grep", "web_search"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_policy_reads_its_approval_classes_and_paths_from_the_table) {
  for (const ExpectedTool& expected : k_expected) {
    BOOST_TEST(approval_word(approval_class(expected.name)) == approval_word(expected.approval), expected.name);
    BOOST_TEST(takes_a_path(expected.name) == !expected.path_key.empty(), expected.name);
  }
  BOOST_TEST(approval_word(approval_class("mcp__github__get_issue")) == "prompts");  // not in the table
  BOOST_TEST(!takes_a_path("mcp__filesystem__read_file"));
}

BOOST_AUTO_TEST_SUITE_END()
