#include "exec/mount_survey.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

/// A classifier like the policy's: `.env` and `*.pem` anywhere and `secrets/` are hidden, `.git`
/// and `.github` read-only.
PathVerdict classify(const std::string& absolute, std::string_view relative, PathForm) {
  std::string name = fs::path(absolute).filename().string();
  if (name == ".env" || name.ends_with(".pem") || relative == "secrets") return {PathClass::hidden, "secrets"};
  if (name == ".git") return {PathClass::read_only, "protected path"};
  if (relative == ".github") return {PathClass::read_only, "ci-config"};
  return {};
}

Survey survey(const fs::path& workspace, const Survey* previous = nullptr, std::vector<fs::path> extra = {}) {
  SurveyRequest request;
  request.workspace = workspace;
  request.classify = classify;
  request.previous = previous;
  request.extra_roots = std::move(extra);
  auto surveyed = survey_paths(request);
  BOOST_REQUIRE_MESSAGE(surveyed.has_value(), (surveyed ? std::string() : surveyed.error().message));
  return *surveyed;
}

std::vector<std::string> names(const std::vector<SurveyedPath>& paths) {
  std::vector<std::string> out;
  for (const SurveyedPath& path : paths) out.push_back(path.relative);
  std::sort(out.begin(), out.end());
  return out;
}

const SurveyedPath* find(const std::vector<SurveyedPath>& paths, const std::string& relative) {
  for (const SurveyedPath& path : paths) {
    if (path.relative == relative) return &path;
  }
  return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(mount_survey)

BOOST_AUTO_TEST_CASE(hidden_and_read_only_paths_are_found_at_any_depth) {
  test::TempFolder workspace;
  workspace.write(".env", "A=1\n");
  workspace.write("sub/deep/.env", "B=1\n");
  workspace.write("certs/server.pem", "key\n");
  workspace.write("src/app.py", "print(1)\n");
  workspace.write(".github/workflows/ci.yml", "on: push\n");
  workspace.write(".github/deploy.pem", "key\n");
  workspace.write(".git/config", "[core]\n");
  workspace.write(".git/objects/x.pem", "not walked\n");
  Survey found = survey(workspace.path());
  BOOST_TEST(names(found.hidden) ==
                 (std::vector<std::string>{".env", ".github/deploy.pem", "certs/server.pem", "sub/deep/.env"}),
             boost::test_tools::per_element());
  BOOST_TEST(names(found.read_only) == (std::vector<std::string>{".git", ".github"}), boost::test_tools::per_element());
  BOOST_TEST(find(found.read_only, ".git")->folder);
  BOOST_TEST(find(found.hidden, ".env")->rule == "secrets");
  BOOST_TEST(find(found.hidden, ".env")->absolute == workspace.path() / ".env");
  BOOST_TEST(found.hidden_files.size() == 4u);
  BOOST_TEST(found.complete);
  BOOST_TEST(found.hides_under("sub"));
  BOOST_TEST(!found.hides_under("src"));
  BOOST_TEST(found.hides_under(""));
}

BOOST_AUTO_TEST_CASE(a_hidden_folder_is_masked_whole_and_not_entered) {
  test::TempFolder workspace;
  workspace.write("secrets/a.txt", "A\n");
  workspace.write("secrets/b/.env", "B\n");
  Survey found = survey(workspace.path());
  BOOST_TEST(names(found.hidden) == (std::vector<std::string>{"secrets"}), boost::test_tools::per_element());
  BOOST_TEST(find(found.hidden, "secrets")->folder);
  BOOST_TEST(found.hidden_at_or_above("secrets/b/.env") != nullptr);
  BOOST_TEST(found.hidden_at_or_above("secretsx") == nullptr);
  BOOST_TEST(found.hides_under("secrets/b"));
}

BOOST_AUTO_TEST_CASE(every_other_name_of_a_hidden_file_is_hidden) {
  test::TempFolder workspace;
  workspace.write(".env", "A=1\n");
  fs::create_directories(workspace.path() / "notes");
  fs::create_hard_link(workspace.path() / ".env", workspace.path() / "notes" / "alias.txt");
  fs::create_hard_link(workspace.path() / ".env", workspace.path() / "a-first.txt");
  workspace.write("plain.txt", "x\n");
  fs::create_hard_link(workspace.path() / "plain.txt", workspace.path() / "plain-too.txt");
  Survey found = survey(workspace.path());
  BOOST_TEST(names(found.hidden) == (std::vector<std::string>{".env", "a-first.txt", "notes/alias.txt"}),
             boost::test_tools::per_element());
  BOOST_TEST(find(found.hidden, "notes/alias.txt")->rule == "another name of .env (secrets)");
  BOOST_TEST(found.hidden_files.size() == 1u);
  BOOST_TEST(found.hidden_file(find(found.hidden, ".env")->identity)->relative == ".env");
}

// Issue 27 case 7: a hidden folder is masked whole and not classified inside, but a file in it may
// have another name outside it, made before the run.
BOOST_AUTO_TEST_CASE(another_name_of_a_file_in_a_hidden_folder_is_hidden) {
  test::TempFolder workspace;
  workspace.write("secrets/aws/credentials", "KEY\n");
  workspace.write("secrets/plain.txt", "x\n");
  fs::create_directories(workspace.path() / "notes");
  fs::create_hard_link(workspace.path() / "secrets/aws/credentials", workspace.path() / "notes" / "aws.txt");
  Survey found = survey(workspace.path());
  BOOST_TEST(names(found.hidden) == (std::vector<std::string>{"notes/aws.txt", "secrets"}),
             boost::test_tools::per_element());
  const SurveyedPath* alias = find(found.hidden, "notes/aws.txt");
  BOOST_REQUIRE(alias != nullptr);
  BOOST_TEST(alias->rule == "another name of secrets/aws/credentials (secrets)");
  BOOST_TEST(found.hidden_file(alias->identity) == alias);  // what the file tools withhold by identity
  // Again, after the agent's turn: the same name is hidden, the previous survey given.
  Survey again = survey(workspace.path(), &found);
  BOOST_TEST(names(again.hidden) == (std::vector<std::string>{"notes/aws.txt", "secrets"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_file_hidden_before_stays_hidden_under_its_new_name) {
  test::TempFolder workspace;
  workspace.write("certs/server.pem", "key\n");
  Survey first = survey(workspace.path());
  fs::rename(workspace.path() / "certs" / "server.pem", workspace.path() / "innocent.txt");
  Survey second = survey(workspace.path(), &first);
  BOOST_TEST(names(second.hidden) == (std::vector<std::string>{"innocent.txt"}), boost::test_tools::per_element());
  BOOST_TEST(find(second.hidden, "innocent.txt")->rule == "moved from certs/server.pem (secrets)");
  Survey fresh = survey(workspace.path());
  BOOST_TEST(fresh.hidden.empty());  // without the earlier survey the new name says nothing
}

BOOST_AUTO_TEST_CASE(links_lead_to_what_they_name) {
  test::TempFolder workspace;
  test::TempFolder outside;
  outside.write("deep/.env", "OUTSIDE=1\n");
  outside.write("deep/readme", "x\n");
  workspace.write("real.txt", "x\n");
  fs::create_symlink(workspace.path() / "real.txt", workspace.path() / ".env");  // the link's name is hidden
  fs::create_symlink(outside.path() / "deep", workspace.path() / "elsewhere");
  fs::create_symlink(workspace.path() / "missing", workspace.path() / "dangling.pem");
  Survey found = survey(workspace.path());
  const SurveyedPath* link = find(found.hidden, ".env");
  BOOST_REQUIRE(link != nullptr);
  BOOST_TEST(link->absolute == workspace.path() / "real.txt");  // the content is what a mask protects
  const SurveyedPath* beyond = find(found.hidden, (outside.path() / "deep" / ".env").string());
  BOOST_REQUIRE(beyond != nullptr);
  BOOST_TEST(beyond->absolute == outside.path() / "deep" / ".env");
  BOOST_TEST(find(found.hidden, "dangling.pem") == nullptr);
}

BOOST_AUTO_TEST_CASE(a_walk_over_budget_says_it_is_incomplete) {
  test::TempFolder workspace;
  for (int i = 0; i < 20; ++i) workspace.write("f" + std::to_string(i), "x");
  SurveyRequest request;
  request.workspace = workspace.path();
  request.classify = classify;
  request.max_entries = 5;
  auto found = survey_paths(request);
  BOOST_REQUIRE(found.has_value());
  BOOST_TEST(!found->complete);
  BOOST_TEST(found->incomplete_reason == "the survey stopped after 5 entries");
  request.workspace = workspace.path() / "missing";
  BOOST_TEST(!survey_paths(request).has_value());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
