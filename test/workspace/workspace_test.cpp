#include "workspace/workspace.h"
#include "base/files.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

/// Runs git with a test identity in `cwd` and returns what it printed; it must succeed.
std::string git(const std::string& arguments, const fs::path& cwd) {
  test::CommandResult result =
      test::run_shell("git -c user.name=test -c user.email=test@example.invalid " + arguments, cwd);
  BOOST_REQUIRE_MESSAGE(result.exit_code == 0, "git " + arguments + ": " + result.output);
  return result.output;
}

/// A git repository with two commits (a.txt "one" then "two"; b.txt unchanged) and a scratch folder.
struct TwoCommitRepository {
  test::TempFolder temp;
  fs::path repo = temp.path() / "repo";
  fs::path scratch = temp.path() / "scratch";

  TwoCommitRepository() {
    test::make_git_repository(repo, {{"a.txt", "one\n"}, {"b.txt", "bee\n"}, {"src/c.txt", "sea\n"}});
    temp.write("repo/a.txt", "two\n");
    git("commit -q -am second", repo);
  }

  WorkspaceSpec spec(std::optional<Isolation> isolation = std::nullopt, std::string ref = "HEAD") const {
    WorkspaceSpec spec;
    spec.repo = repo;
    spec.ref = std::move(ref);
    spec.isolation = isolation;
    return spec;
  }
};

std::unique_ptr<Workspace> prepare(const WorkspaceSpec& spec, const fs::path& scratch, const std::string& name) {
  auto workspace = Workspace::prepare(spec, scratch, name);
  BOOST_REQUIRE_MESSAGE(workspace.has_value(), (workspace ? std::string() : workspace.error().message));
  return std::move(*workspace);
}

std::string content(const fs::path& file) {
  auto text = read_file(file);
  return text ? *text : "(cannot read " + file.string() + ")";
}

void write(const fs::path& file, const std::string& text) { std::ofstream(file, std::ios::binary) << text; }

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

bool is_empty_folder(const fs::path& folder) { return fs::is_empty(folder); }

}  // namespace

BOOST_AUTO_TEST_SUITE(workspace)

BOOST_AUTO_TEST_CASE(a_git_repository_gets_a_worktree_at_head_on_a_branch_of_its_own) {
  TwoCommitRepository fixture;
  auto workspace = prepare(fixture.spec(), fixture.scratch, "task 1");
  fs::path root = workspace->root();
  BOOST_TEST(root.parent_path().parent_path() == fixture.scratch);
  BOOST_TEST(root.filename() == "repo");
  BOOST_TEST(content(root / "a.txt") == "two\n");
  BOOST_TEST(content(root / "src/c.txt") == "sea\n");
  BOOST_TEST(fs::is_regular_file(root / ".git"));
  std::string branch = git("symbolic-ref --short HEAD", root);
  BOOST_TEST(branch.starts_with("agent-run/task-1-"));
  BOOST_TEST(branch.size() == std::string("agent-run/task-1-XXXXXX\n").size());
  BOOST_TEST(git("status --porcelain", root) == "");
  BOOST_TEST(line_count(git("worktree list", fixture.repo)) == 2);
  BOOST_REQUIRE(workspace->finish(KeepWorkspace::no));
}

BOOST_AUTO_TEST_CASE(a_worktree_starts_at_the_ref_of_the_task) {
  TwoCommitRepository fixture;
  git("tag first HEAD~1", fixture.repo);
  auto by_expression = prepare(fixture.spec(std::nullopt, "HEAD~1"), fixture.scratch, "t");
  auto by_tag = prepare(fixture.spec(std::nullopt, "first"), fixture.scratch, "t");
  BOOST_TEST(content(by_expression->root() / "a.txt") == "one\n");
  BOOST_TEST(content(by_tag->root() / "a.txt") == "one\n");
  BOOST_TEST(content(by_tag->root() / "b.txt") == "bee\n");
  BOOST_TEST(by_expression->root() != by_tag->root());
  BOOST_REQUIRE(by_expression->finish(KeepWorkspace::no));
  BOOST_REQUIRE(by_tag->finish(KeepWorkspace::no));
}

BOOST_AUTO_TEST_CASE(the_source_repository_index_head_and_files_are_untouched) {
  TwoCommitRepository fixture;
  fixture.temp.write("repo/a.txt", "staged\n");
  git("add a.txt", fixture.repo);
  fixture.temp.write("repo/b.txt", "unstaged\n");
  fixture.temp.write("repo/new.txt", "untracked\n");
  std::string head = git("rev-parse HEAD", fixture.repo);
  std::string status = git("status --porcelain", fixture.repo);
  std::string staged = git("diff --cached", fixture.repo);

  auto worktree = prepare(fixture.spec(), fixture.scratch, "w");
  auto copy = prepare(fixture.spec(Isolation::copy, "HEAD~1"), fixture.scratch, "c");
  BOOST_TEST(content(worktree->root() / "a.txt") == "two\n");
  BOOST_TEST(!fs::exists(worktree->root() / "new.txt"));
  BOOST_REQUIRE(worktree->finish(KeepWorkspace::no));
  BOOST_REQUIRE(copy->finish(KeepWorkspace::no));

  BOOST_TEST(git("rev-parse HEAD", fixture.repo) == head);
  BOOST_TEST(git("status --porcelain", fixture.repo) == status);
  BOOST_TEST(git("diff --cached", fixture.repo) == staged);
  BOOST_TEST(staged.find("+staged") != std::string::npos);
  BOOST_TEST(content(fixture.repo / "b.txt") == "unstaged\n");
}

BOOST_AUTO_TEST_CASE(finish_removes_the_worktree_its_bookkeeping_and_its_branch) {
  TwoCommitRepository fixture;
  auto workspace = prepare(fixture.spec(), fixture.scratch, "gone");
  fs::path root = workspace->root();
  write(root / "edit.txt", "x\n");
  BOOST_REQUIRE(workspace->finish(KeepWorkspace::no));
  BOOST_TEST(!fs::exists(root.parent_path()));
  BOOST_TEST(is_empty_folder(fixture.scratch));
  BOOST_TEST(line_count(git("worktree list", fixture.repo)) == 1);
  BOOST_TEST(git("branch --list 'agent-run/*'", fixture.repo) == "");
  BOOST_TEST(!fs::exists(fixture.repo / ".git/worktrees" / ("agent-run-" + root.parent_path().filename().string())));
}

BOOST_AUTO_TEST_CASE(a_kept_worktree_stays_with_its_branch) {
  TwoCommitRepository fixture;
  auto workspace = prepare(fixture.spec(), fixture.scratch, "kept");
  BOOST_REQUIRE(workspace->finish(KeepWorkspace::yes));
  BOOST_TEST(content(workspace->root() / "a.txt") == "two\n");
  BOOST_TEST(line_count(git("worktree list", fixture.repo)) == 2);
  BOOST_TEST(git("branch --list 'agent-run/*'", fixture.repo).find("agent-run/kept-") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(worktrees_of_one_repository_can_be_prepared_at_once) {
  TwoCommitRepository fixture;
  WorkspaceSpec spec = fixture.spec();
  std::vector<Expected<std::unique_ptr<Workspace>>> results;
  for (int i = 0; i < 4; ++i) results.emplace_back(Error{"not run"});
  std::vector<std::thread> threads;
  for (auto& result : results) {
    threads.emplace_back([&] { result = Workspace::prepare(spec, fixture.scratch, "parallel"); });
  }
  for (std::thread& thread : threads) thread.join();
  for (auto& result : results) {
    BOOST_REQUIRE_MESSAGE(result.has_value(), (result ? std::string() : result.error().message));
    BOOST_TEST(content((*result)->root() / "a.txt") == "two\n");
  }
  BOOST_TEST(line_count(git("worktree list", fixture.repo)) == 5);
  for (auto& result : results) BOOST_REQUIRE((*result)->finish(KeepWorkspace::no));
  BOOST_TEST(line_count(git("worktree list", fixture.repo)) == 1);
}

BOOST_AUTO_TEST_CASE(worktrees_of_one_repository_made_and_removed_by_six_threads_at_once_never_fail) {
  // Without GitRepository's bookkeeping lock, libgit2's branch deletion takes a worktree another
  // thread is adding or pruning for one holding the branch, and a few of these finishes fail.
  TwoCommitRepository fixture;
  WorkspaceSpec spec = fixture.spec();
  std::mutex mutex;
  std::vector<std::string> failures;
  std::vector<std::thread> threads;
  for (int thread = 0; thread < 6; ++thread) {
    threads.emplace_back([&] {
      for (int round = 0; round < 15; ++round) {
        auto workspace = Workspace::prepare(spec, fixture.scratch, "busy");
        auto finished = workspace ? (*workspace)->finish(KeepWorkspace::no) : Expected<void>(workspace.error());
        std::lock_guard<std::mutex> guard(mutex);
        if (!finished) failures.push_back(finished.error().message);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  BOOST_TEST(failures.size() == 0u, (failures.empty() ? std::string() : failures.front()));
  BOOST_TEST(line_count(git("worktree list", fixture.repo)) == 1);
  BOOST_TEST(git("branch --list 'agent-run/*'", fixture.repo) == "");
}

BOOST_AUTO_TEST_CASE(an_unknown_ref_is_an_error_naming_it_and_the_repository_and_leaves_nothing) {
  TwoCommitRepository fixture;
  auto workspace = Workspace::prepare(fixture.spec(std::nullopt, "v9"), fixture.scratch, "t");
  BOOST_REQUIRE(!workspace.has_value());
  BOOST_TEST(workspace.error().message == "'v9' is not a commit, branch or tag in '" + fixture.repo.string() + "'");
  BOOST_TEST(is_empty_folder(fixture.scratch));
  BOOST_TEST(git("branch --list 'agent-run/*'", fixture.repo) == "");
  auto copy = Workspace::prepare(fixture.spec(Isolation::copy, "v9"), fixture.scratch, "t");
  BOOST_REQUIRE(!copy.has_value());
  BOOST_TEST(copy.error().message == workspace.error().message);
  BOOST_TEST(is_empty_folder(fixture.scratch));
}

BOOST_AUTO_TEST_CASE(a_plain_folder_is_copied_into_a_repository_with_a_baseline_commit) {
  test::TempFolder temp;
  temp.write("project/main.py", "print(1)\n");
  temp.write("project/lib/util.py", "X = 1\n");
  temp.write("project/vendor/.git/HEAD", "not ours\n");
  temp.write("project/vendor/code.c", "int x;\n");
  fs::create_directories(temp.path() / "project/empty");
  fs::create_symlink("main.py", temp.path() / "project/link.py");
  WorkspaceSpec spec;
  spec.repo = temp.path() / "project";
  auto workspace = prepare(spec, temp.path() / "scratch", "copy");
  fs::path root = workspace->root();
  BOOST_TEST(root.filename() == "project");
  BOOST_TEST(content(root / "lib/util.py") == "X = 1\n");
  BOOST_TEST(content(root / "vendor/code.c") == "int x;\n");
  BOOST_TEST(!fs::exists(root / "vendor/.git"));
  BOOST_TEST(fs::is_symlink(root / "link.py"));
  BOOST_TEST(fs::is_directory(root / "empty"));
  BOOST_TEST(git("log --format='%an <%ae> %s'", root) == "agent-run <agent-run@localhost> agent-run baseline\n");
  BOOST_TEST(git("status --porcelain", root) == "");
  BOOST_TEST(git("ls-files", root) == "lib/util.py\nlink.py\nmain.py\nvendor/code.c\n");
  BOOST_REQUIRE(workspace->finish(KeepWorkspace::no));
  BOOST_TEST(!fs::exists(root));
  BOOST_TEST(content(spec.repo / "main.py") == "print(1)\n");
}

BOOST_AUTO_TEST_CASE(a_folder_inside_a_repository_is_copied_as_a_plain_folder) {
  TwoCommitRepository fixture;
  WorkspaceSpec spec;
  spec.repo = fixture.repo / "src";
  auto workspace = prepare(spec, fixture.scratch, "sub");
  BOOST_TEST(git("ls-files", workspace->root()) == "c.txt\n");
  BOOST_TEST(line_count(git("worktree list", fixture.repo)) == 1);
  BOOST_REQUIRE(workspace->finish(KeepWorkspace::no));
}

BOOST_AUTO_TEST_CASE(a_scratch_folder_inside_the_copied_folder_is_not_copied) {
  test::TempFolder temp;
  temp.write("project/a.txt", "a\n");
  WorkspaceSpec spec;
  spec.repo = temp.path() / "project";
  auto first = prepare(spec, spec.repo / ".scratch", "one");
  auto second = prepare(spec, spec.repo / ".scratch", "two");
  BOOST_TEST(git("ls-files", second->root()) == "a.txt\n");
  BOOST_TEST(!fs::exists(second->root() / ".scratch"));
}

BOOST_AUTO_TEST_CASE(an_explicit_copy_of_a_repository_holds_its_files_at_the_ref) {
  TwoCommitRepository fixture;
  fixture.temp.write("repo/untracked.txt", "u\n");
  fixture.temp.write("repo/b.txt", "changed\n");
  auto workspace = prepare(fixture.spec(Isolation::copy, "HEAD~1"), fixture.scratch, "export");
  fs::path root = workspace->root();
  BOOST_TEST(content(root / "a.txt") == "one\n");
  BOOST_TEST(content(root / "b.txt") == "bee\n");
  BOOST_TEST(content(root / "src/c.txt") == "sea\n");
  BOOST_TEST(!fs::exists(root / "untracked.txt"));
  BOOST_TEST(fs::is_directory(root / ".git"));
  BOOST_TEST(git("log --format=%s", root) == "agent-run baseline\n");
  BOOST_TEST(git("status --porcelain", root) == "");
  BOOST_TEST(line_count(git("worktree list", fixture.repo)) == 1);
  BOOST_REQUIRE(workspace->finish(KeepWorkspace::no));
  BOOST_TEST(is_empty_folder(fixture.scratch));
}

BOOST_AUTO_TEST_CASE(in_place_works_in_the_repository_itself_and_finish_keeps_it) {
  TwoCommitRepository fixture;
  auto workspace = prepare(fixture.spec(Isolation::in_place), fixture.scratch, "here");
  BOOST_TEST(workspace->root() == fixture.repo);
  fixture.temp.write("repo/a.txt", "three\n");
  auto patch = workspace->diff();
  BOOST_REQUIRE(patch.has_value());
  BOOST_TEST(patch->text.find("-two\n+three\n") != std::string::npos);
  BOOST_REQUIRE(workspace->finish(KeepWorkspace::no));
  BOOST_TEST(content(fixture.repo / "a.txt") == "three\n");
  BOOST_TEST(!fs::exists(fixture.scratch));
}

BOOST_AUTO_TEST_CASE(an_explicit_worktree_of_a_plain_folder_is_an_error) {
  test::TempFolder temp;
  temp.write("plain/a.txt", "a\n");
  WorkspaceSpec spec;
  spec.repo = temp.path() / "plain";
  spec.isolation = Isolation::worktree;
  auto workspace = Workspace::prepare(spec, temp.path() / "scratch", "t");
  BOOST_REQUIRE(!workspace.has_value());
  BOOST_TEST(workspace.error().message ==
             "'" + spec.repo.string() +
                 "' is not the top folder of a git repository (isolation: worktree needs one; use isolation: copy)");
  BOOST_TEST(!fs::exists(temp.path() / "scratch"));
}

BOOST_AUTO_TEST_CASE(in_place_in_a_plain_folder_is_an_error) {
  test::TempFolder temp;
  temp.write("plain/a.txt", "a\n");
  WorkspaceSpec spec;
  spec.repo = temp.path() / "plain";
  spec.isolation = Isolation::in_place;
  auto workspace = Workspace::prepare(spec, temp.path() / "scratch", "t");
  BOOST_REQUIRE(!workspace.has_value());
  BOOST_TEST(workspace.error().message ==
             "'" + spec.repo.string() + "' is not the top folder of a git repository (isolation: in-place needs one)");
}

BOOST_AUTO_TEST_CASE(a_missing_folder_is_an_error) {
  test::TempFolder temp;
  WorkspaceSpec spec;
  spec.repo = temp.path() / "nowhere";
  auto workspace = Workspace::prepare(spec, temp.path() / "scratch", "t");
  BOOST_REQUIRE(!workspace.has_value());
  BOOST_TEST(workspace.error().message == "'" + spec.repo.string() + "' does not exist");
  temp.write("file", "x");
  spec.repo = temp.path() / "file";
  auto file = Workspace::prepare(spec, temp.path() / "scratch", "t");
  BOOST_REQUIRE(!file.has_value());
  BOOST_TEST(file.error().message == "'" + spec.repo.string() + "' is not a folder");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
