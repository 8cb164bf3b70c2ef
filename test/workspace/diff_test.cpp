#include "support/fixtures.h"
#include "workspace/workspace.h"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <string>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

std::string git(const std::string& arguments, const fs::path& cwd) {
  test::CommandResult result =
      test::run_shell("git -c user.name=test -c user.email=test@example.invalid " + arguments, cwd);
  BOOST_REQUIRE_MESSAGE(result.exit_code == 0, "git " + arguments + ": " + result.output);
  return result.output;
}

/// git's own `git diff --binary <base>` of the folder `root` with untracked files included: they are added
/// as intent-to-add on a scratch copy of the index, so the workspace's index is left alone.
std::string git_diff(const fs::path& root, const std::string& base) {
  test::CommandResult result = test::run_shell(
      "index=$(mktemp) && cp \"$(git rev-parse --git-path index)\" \"$index\" && "
      "GIT_INDEX_FILE=\"$index\" git add -N . && "
      "GIT_INDEX_FILE=\"$index\" git diff --binary --no-color --no-ext-diff --no-renames " +
          base + "; status=$?; rm -f \"$index\"; exit $status",
      root);
  BOOST_REQUIRE_MESSAGE(result.exit_code == 0, "git diff: " + result.output);
  return result.output;
}

/// `patch` with the compressed data lines of its binary patches replaced by `<data>`: libgit2 and
/// git compress at different zlib levels, so those bytes differ while both decode to the same file.
std::string without_binary_data(const std::string& patch) {
  std::string out;
  bool in_binary = false;
  std::size_t start = 0;
  while (start < patch.size()) {
    std::size_t end = patch.find('\n', start);
    end = end == std::string::npos ? patch.size() : end + 1;
    std::string line = patch.substr(start, end - start);
    start = end;
    if (line.starts_with("diff --git ")) in_binary = false;
    if (line == "GIT binary patch\n") in_binary = true;
    bool data = in_binary && line != "\n" && !line.starts_with("literal ") && !line.starts_with("delta ") &&
                line != "GIT binary patch\n";
    out += data ? "<data>\n" : line;
  }
  return out;
}

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

/// Modifies, deletes, stages, adds an untracked file in a new folder, a binary file and an ignored one.
void make_every_kind_of_change(const fs::path& root) {
  write(root / "a.txt", "one\ntwo\nmore\n");
  fs::remove(root / "b.txt");
  write(root / "src/c.txt", "ocean\n");
  git("add src/c.txt", root);
  write(root / "new/deep/file.txt", "first\nsecond\n");
  write(root / "bin.dat", std::string("\0\1\2binary\0", 10));
  write(root / "ignored.log", "noise\n");
}

const std::map<std::string, std::string> k_files = {
    {".gitignore", "*.log\n"}, {"a.txt", "one\ntwo\n"}, {"b.txt", "bee\n"}, {"src/c.txt", "sea\n"}};

std::unique_ptr<Workspace> prepare(const fs::path& repo, const fs::path& scratch,
                                   std::optional<Isolation> isolation = std::nullopt) {
  WorkspaceSpec spec;
  spec.repo = repo;
  spec.isolation = isolation;
  auto workspace = Workspace::prepare(spec, scratch, "diff");
  BOOST_REQUIRE_MESSAGE(workspace.has_value(), (workspace ? std::string() : workspace.error().message));
  return std::move(*workspace);
}

Patch diff_of(const Workspace& workspace) {
  auto patch = workspace.diff();
  BOOST_REQUIRE_MESSAGE(patch.has_value(), (patch ? std::string() : patch.error().message));
  return *patch;
}

void check_every_kind_of_change(const Patch& patch, const std::string& expected) {
  BOOST_TEST(without_binary_data(patch.text) == without_binary_data(expected));
  BOOST_TEST(patch.files_changed == 5);
  BOOST_TEST(patch.lines_added == 4);
  BOOST_TEST(patch.lines_removed == 2);
  BOOST_TEST(patch.text.find("diff --git a/a.txt b/a.txt\n") != std::string::npos);
  BOOST_TEST(patch.text.find(" two\n+more\n") != std::string::npos);
  BOOST_TEST(patch.text.find("deleted file mode 100644\n") != std::string::npos);
  BOOST_TEST(patch.text.find("-sea\n+ocean\n") != std::string::npos);
  BOOST_TEST(patch.text.find("+++ b/new/deep/file.txt\n@@ -0,0 +1,2 @@\n+first\n+second\n") != std::string::npos);
  BOOST_TEST(
      patch.text.find(
          "diff --git a/bin.dat b/bin.dat\nnew file mode 100644\nindex 0000000000000000000000000000000000000000..") !=
      std::string::npos);
  BOOST_TEST(patch.text.find("GIT binary patch\nliteral 10\n") != std::string::npos);
  BOOST_TEST(patch.text.find("ignored.log") == std::string::npos);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(workspace_diff)

BOOST_AUTO_TEST_CASE(a_fresh_workspace_has_an_empty_diff_in_every_isolation) {
  test::TempFolder temp;
  test::make_git_repository(temp.path() / "repo", k_files);
  for (Isolation isolation : {Isolation::worktree, Isolation::copy, Isolation::in_place}) {
    auto workspace = prepare(temp.path() / "repo", temp.path() / "scratch", isolation);
    Patch patch = diff_of(*workspace);
    BOOST_TEST(patch.text == "");
    BOOST_TEST(patch.files_changed == 0);
    BOOST_TEST(patch.lines_added == 0);
    BOOST_TEST(patch.lines_removed == 0);
    BOOST_REQUIRE(workspace->finish(KeepWorkspace::no));
  }
}

BOOST_AUTO_TEST_CASE(the_worktree_diff_is_git_diff_with_untracked_files) {
  test::TempFolder temp;
  test::make_git_repository(temp.path() / "repo", k_files);
  auto workspace = prepare(temp.path() / "repo", temp.path() / "scratch");
  std::string baseline = git("rev-parse HEAD", workspace->root()).substr(0, 40);
  make_every_kind_of_change(workspace->root());
  check_every_kind_of_change(diff_of(*workspace), git_diff(workspace->root(), baseline));
  BOOST_REQUIRE(workspace->finish(KeepWorkspace::no));
}

BOOST_AUTO_TEST_CASE(the_copy_diff_is_git_diff_with_untracked_files) {
  test::TempFolder temp;
  for (const auto& [path, text] : k_files) write(temp.path() / "plain" / path, text);
  auto workspace = prepare(temp.path() / "plain", temp.path() / "scratch");
  make_every_kind_of_change(workspace->root());
  check_every_kind_of_change(diff_of(*workspace), git_diff(workspace->root(), "HEAD"));
  BOOST_REQUIRE(workspace->finish(KeepWorkspace::no));
}

BOOST_AUTO_TEST_CASE(a_commit_made_in_the_workspace_stays_in_the_diff) {
  test::TempFolder temp;
  test::make_git_repository(temp.path() / "repo", k_files);
  auto workspace = prepare(temp.path() / "repo", temp.path() / "scratch");
  write(workspace->root() / "a.txt", "one\n");
  git("commit -q -am 'agent commit'", workspace->root());
  Patch patch = diff_of(*workspace);
  BOOST_TEST(patch.text.find(" one\n-two\n") != std::string::npos);
  BOOST_TEST(patch.files_changed == 1);
  BOOST_TEST(patch.lines_removed == 1);
  BOOST_REQUIRE(workspace->finish(KeepWorkspace::no));
}

BOOST_AUTO_TEST_CASE(in_place_in_a_repository_without_commits_diffs_against_nothing) {
  test::TempFolder temp;
  write(temp.path() / "fresh/a.txt", "a\n");
  git("init -q", temp.path() / "fresh");
  auto workspace = prepare(temp.path() / "fresh", temp.path() / "scratch", Isolation::in_place);
  Patch patch = diff_of(*workspace);
  BOOST_TEST(patch.text.find("new file mode 100644\n") != std::string::npos);
  BOOST_TEST(patch.text.find("+++ b/a.txt\n@@ -0,0 +1 @@\n+a\n") != std::string::npos);
  BOOST_TEST(patch.files_changed == 1);
  BOOST_TEST(patch.lines_added == 1);
}

BOOST_AUTO_TEST_CASE(withheld_paths_stay_out_of_the_diff_in_every_isolation_and_are_listed_with_why) {
  test::TempFolder temp;
  test::make_git_repository(temp.path() / "repo", k_files);
  for (Isolation isolation : {Isolation::worktree, Isolation::copy, Isolation::in_place}) {
    auto workspace = prepare(temp.path() / "repo", temp.path() / "scratch", isolation);
    std::ofstream(workspace->root() / ".env.local") << "TOKEN=secret-value\n";
    std::ofstream(workspace->root() / "a.txt") << "changed\n";
    std::ofstream(workspace->root() / "src" / "c.txt") << "changed too\n";
    workspace->withhold(
        [](std::string_view path) { return path == ".env.local" || path == "src/c.txt" ? "hidden" : ""; });
    Patch patch = diff_of(*workspace);
    BOOST_TEST(patch.text.find("a/a.txt") != std::string::npos);
    BOOST_TEST(patch.text.find("secret-value") == std::string::npos);
    BOOST_TEST(patch.text.find("c.txt") == std::string::npos);
    BOOST_TEST(patch.files_changed == 1);
    BOOST_REQUIRE_EQUAL(patch.withheld.size(), 2u);
    BOOST_TEST(patch.withheld[0].path == ".env.local");
    BOOST_TEST(patch.withheld[1].path == "src/c.txt");
    BOOST_TEST(patch.withheld[1].why == "hidden");
    if (isolation == Isolation::in_place) {  // leave the repository as it was for the next isolation
      test::run_shell("git checkout -- . && rm -f .env.local", workspace->root());
    }
    BOOST_REQUIRE(workspace->finish(KeepWorkspace::no));
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
