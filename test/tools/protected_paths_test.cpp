#include "tools/protected_paths.h"
#include "policy/policy.h"
#include "support/fixtures.h"
#include "tools/tools_fixture.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

BOOST_AUTO_TEST_SUITE(protected_paths)

BOOST_AUTO_TEST_CASE(git_folders_are_found_whatever_their_case_and_trailing_dots) {
  for (const char* path :
       {"/w/.git/config", "/w/sub/.git/hooks/x", "/w/.GIT/config", "/w/.git./config", "/w/.Git. /x", "/w/.git"}) {
    BOOST_TEST_INFO(path);
    BOOST_TEST((write_protection(path, "/w", {}) == Protection::git_folder));
  }
  BOOST_TEST(!write_protection("/w/.gitignore", "/w", {}).has_value());
  BOOST_TEST(!write_protection("/w/.github/x", "/w", {}).has_value());
  BOOST_TEST(is_git_folder_name(".GiT "));
  BOOST_TEST(!is_git_folder_name(".gitx"));
}

BOOST_AUTO_TEST_CASE(inside_the_workspace_only_its_own_segments_count) {
  BOOST_TEST(!write_protection("/home/me/.git/wt/src/a.py", "/home/me/.git/wt", {}).has_value());
  BOOST_TEST((write_protection("/srv/.git/x", "/home/me/wt", {}) == Protection::git_folder));
}

BOOST_AUTO_TEST_CASE(a_protected_path_protects_itself_and_what_is_under_it_but_not_the_workspace_it_holds) {
  TempFolder folder;
  folder.write("reports/report.json", "{}");
  std::filesystem::path workspace = std::filesystem::weakly_canonical(folder.path());
  BOOST_TEST(
      (write_protection(workspace / "reports", workspace, {workspace / "reports"}) == Protection::protected_path));
  BOOST_TEST((write_protection(workspace / "reports/report.json", workspace, {workspace / "reports"}) ==
              Protection::protected_path));
  BOOST_TEST(!write_protection(workspace / "reportsx", workspace, {workspace / "reports"}).has_value());
  BOOST_TEST(!write_protection(workspace / "src/a.py", workspace, {workspace.parent_path()}).has_value());
}

/// The file tools and the policy give the same answer for each path: they ask one rule.
BOOST_FIXTURE_TEST_CASE(the_file_tools_refuse_what_the_policy_denies_as_protected, ToolsFixture) {
  folder.write("out/report.json", "{}");
  scope.protected_paths.push_back(folder.path() / "out");
  Policy allow_writes;
  allow_writes.unmatched = Verdict::allow;
  const DecisionContext where{folder.path(), scope.protected_paths};
  for (const char* path : {".GIT/config", "sub/.git./hooks/x", "out/report.json", "out/new.txt", "src/ok.txt"}) {
    BOOST_TEST_CONTEXT(path) {
      Decision decision = decide(allow_writes, ToolCall{"c", "write_file", Json::object().set("path", path)}, where);
      ToolOutput output = write(path, "x");
      BOOST_TEST((decision.basis == DecisionBasis::protected_path) == output.is_error, output.content);
      BOOST_TEST((std::filesystem::exists(folder.path() / path) && folder.read(path) == "x") == !output.is_error);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
