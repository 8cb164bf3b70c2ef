#include "base/files.h"
#include "support/fixtures.h"
#include "workspace/workspace.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

std::string git(const std::string& arguments, const fs::path& cwd) {
  test::CommandResult result =
      test::run_shell("git -c user.name=test -c user.email=test@example.invalid " + arguments, cwd);
  BOOST_REQUIRE_MESSAGE(result.exit_code == 0, "git " + arguments + ": " + result.output);
  return result.output;
}

/// A worktree of `repo` (whose files were just committed): its a.txt and sub/b.txt as checked out.
std::pair<std::string, std::string> checked_out(const fs::path& repo, const fs::path& scratch) {
  WorkspaceSpec spec;
  spec.repo = repo;
  auto workspace = Workspace::prepare(spec, scratch, "filters");
  BOOST_REQUIRE_MESSAGE(workspace.has_value(), (workspace ? std::string() : workspace.error().message));
  std::pair<std::string, std::string> files{*read_file((*workspace)->root() / "a.txt"),
                                            *read_file((*workspace)->root() / "sub/b.txt")};
  BOOST_TEST(git("status --porcelain", (*workspace)->root()) == "");
  BOOST_REQUIRE((*workspace)->finish(KeepWorkspace::no));
  return files;
}

const std::map<std::string, std::string> k_files = {{"a.txt", "one\ntwo\n"}, {"sub/b.txt", "bee\n"}};

}  // namespace

BOOST_AUTO_TEST_SUITE(checkout_filters)

BOOST_AUTO_TEST_CASE(without_attributes_files_are_checked_out_as_committed) {
  test::TempFolder temp;
  test::make_git_repository(temp.path() / "repo", k_files);
  auto [a, b] = checked_out(temp.path() / "repo", temp.path() / "scratch");
  BOOST_TEST(a == "one\ntwo\n");
  BOOST_TEST(b == "bee\n");
}

BOOST_AUTO_TEST_CASE(attributes_in_the_tree_still_convert_line_endings) {
  test::TempFolder temp;
  auto files = k_files;
  files["sub/.gitattributes"] = "*.txt eol=crlf\n";
  test::make_git_repository(temp.path() / "repo", files);
  auto [a, b] = checked_out(temp.path() / "repo", temp.path() / "scratch");
  BOOST_TEST(a == "one\ntwo\n");
  BOOST_TEST(b == "bee\r\n");
}

BOOST_AUTO_TEST_CASE(info_attributes_and_autocrlf_still_convert_line_endings) {
  test::TempFolder temp;
  fs::path repo = temp.path() / "repo";
  test::make_git_repository(repo, k_files);
  temp.write("repo/.git/info/attributes", "a.txt eol=crlf\n");
  auto [a, b] = checked_out(repo, temp.path() / "scratch");
  BOOST_TEST(a == "one\r\ntwo\r\n");
  BOOST_TEST(b == "bee\n");
  fs::remove(repo / ".git/info/attributes");
  git("config core.autocrlf true", repo);
  auto [crlf_a, crlf_b] = checked_out(repo, temp.path() / "scratch");
  BOOST_TEST(crlf_a == "one\r\ntwo\r\n");
  BOOST_TEST(crlf_b == "bee\r\n");
  git("config core.autocrlf input", repo);
  BOOST_TEST(checked_out(repo, temp.path() / "scratch").second == "bee\n");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
