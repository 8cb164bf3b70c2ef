#include "base/files.h"
#include "support/fixtures.h"
#include "workspace/workspace.h"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <map>
#include <string>

namespace agent_run {
namespace {

namespace fs = std::filesystem;
using Files = std::map<std::string, std::string>;

std::string git(const std::string& arguments, const fs::path& cwd) {
  test::CommandResult result =
      test::run_shell("git -c user.name=test -c user.email=test@example.invalid " + arguments, cwd);
  BOOST_REQUIRE_MESSAGE(result.exit_code == 0, "git " + arguments + ": " + result.output);
  return result.output;
}

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

std::string binary(char seed, std::size_t size) {
  std::string bytes;
  for (std::size_t i = 0; i < size; ++i)
    bytes += static_cast<char>((seed * 31 + i * 7) % 256 ^ (i % 3 == 0 ? 0 : 0x80));
  bytes[1] = '\0';
  return bytes;
}

const Files k_start = {{".gitignore", "*.log\n"},      {"a.txt", "one\ntwo\nthree\n"}, {"b.txt", "bee\n"},
                       {"data.bin", binary('x', 300)}, {"run.sh", "echo run\n"},       {"keep/k.txt", "keep\n"}};

/// Every file under `root` but .git and ignored *.log files, with its content; `+x` marks executables.
Files files_of(const fs::path& root) {
  Files files;
  for (auto entry = fs::recursive_directory_iterator(root); entry != fs::recursive_directory_iterator(); ++entry) {
    if (entry->path().filename() == ".git") {
      entry.disable_recursion_pending();
      continue;
    }
    if (!entry->is_regular_file() || entry->path().extension() == ".log") continue;
    bool executable = (entry->status().permissions() & fs::perms::owner_exec) != fs::perms::none;
    files[entry->path().lexically_relative(root).string() + (executable ? " +x" : "")] = *read_file(entry->path());
  }
  return files;
}

/// Modifies, deletes, adds (text and binary), changes a binary, stages a change, adds an
/// untracked file in a new folder and an ignored one, and makes a script executable.
void change_everything(const fs::path& root) {
  write(root / "a.txt", "one\n2\nthree\nfour\n");
  fs::remove(root / "b.txt");
  write(root / "data.bin", binary('y', 280));
  write(root / "new.bin", binary('z', 64));
  write(root / "keep/k.txt", "kept and staged\n");
  git("add keep/k.txt", root);
  write(root / "new/deep/file.txt", "first\nsecond\n");
  write(root / "noise.log", "ignored\n");
  fs::permissions(root / "run.sh", fs::perms::owner_exec, fs::perm_options::add);
}

/// The files of `commit` of `repository`, checked out into `folder`.
Files files_at(const fs::path& repository, const std::string& commit, const fs::path& folder) {
  fs::create_directories(folder);
  git("archive " + commit + " | tar -x -C " + test::shell_quote(folder.string()), repository);
  return files_of(folder);
}

/// `patch` applied with git apply to a copy of the files of `baseline`, and what that gives.
Files files_after_applying(const fs::path& repository, const std::string& baseline, const std::string& patch,
                           const fs::path& scratch) {
  fs::path folder = scratch / "applied";
  fs::remove_all(folder);
  files_at(repository, baseline, folder);
  write(scratch / "patch.diff", patch);
  test::CommandResult applied = test::run_shell(
      "git init -q . && git apply --whitespace=nowarn " + test::shell_quote((scratch / "patch.diff").string()), folder);
  BOOST_REQUIRE_MESSAGE(applied.exit_code == 0, "git apply: " + applied.output);
  return files_of(folder);
}

/// A repository holding k_start, and the workspace of `isolation` made from it.
struct PatchFixture {
  test::TempFolder temp;
  fs::path repo = temp.path() / "repo";
  fs::path scratch = temp.path() / "scratch";
  std::string baseline;
  std::unique_ptr<Workspace> workspace;

  explicit PatchFixture(std::optional<Isolation> isolation, bool plain_folder = false) {
    if (plain_folder) {
      for (const auto& [path, text] : k_start) write(repo / path, text);
    } else {
      test::make_git_repository(repo, k_start);
      baseline = git("rev-parse HEAD", repo).substr(0, 40);
    }
    WorkspaceSpec spec;
    spec.repo = repo;
    spec.isolation = isolation;
    auto made = Workspace::prepare(spec, scratch, "patch");
    BOOST_REQUIRE_MESSAGE(made.has_value(), (made ? std::string() : made.error().message));
    workspace = std::move(*made);
  }

  Patch patch() const {
    auto diff = workspace->diff();
    BOOST_REQUIRE_MESSAGE(diff.has_value(), (diff ? std::string() : diff.error().message));
    return *diff;
  }
};

void check_patch_reproduces_the_workspace(PatchFixture& fixture, const fs::path& baseline_repository,
                                          const std::string& baseline) {
  change_everything(fixture.workspace->root());
  Patch patch = fixture.patch();
  BOOST_TEST(patch.files_changed == 7);
  BOOST_TEST(patch.text.find("GIT binary patch") != std::string::npos);
  BOOST_TEST(patch.text.find("deleted file mode 100644") != std::string::npos);
  BOOST_TEST(patch.text.find("old mode 100644\nnew mode 100755") != std::string::npos);
  BOOST_TEST(patch.text.find("+++ b/new/deep/file.txt") != std::string::npos);
  BOOST_TEST(patch.text.find("noise.log") == std::string::npos);
  Files expected = files_of(fixture.workspace->root());
  BOOST_TEST(expected.count("run.sh +x") == 1u);
  BOOST_TEST(expected.count("b.txt") == 0u);
  Files applied = files_after_applying(baseline_repository, baseline, patch.text, fixture.temp.path());
  BOOST_TEST(applied == expected);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(patch_and_commit)

BOOST_AUTO_TEST_CASE(the_worktree_patch_applied_to_the_start_gives_the_agents_files) {
  PatchFixture fixture(Isolation::worktree);
  check_patch_reproduces_the_workspace(fixture, fixture.repo, fixture.baseline);
  BOOST_REQUIRE(fixture.workspace->finish(KeepWorkspace::no));
}

BOOST_AUTO_TEST_CASE(the_copy_patch_applied_to_the_start_gives_the_agents_files) {
  PatchFixture fixture(Isolation::copy);
  check_patch_reproduces_the_workspace(fixture, fixture.repo, fixture.baseline);
  BOOST_REQUIRE(fixture.workspace->finish(KeepWorkspace::no));
}

BOOST_AUTO_TEST_CASE(the_copy_of_a_plain_folder_patch_applied_to_the_start_gives_the_agents_files) {
  PatchFixture fixture(std::nullopt, true);
  fs::path root = fixture.workspace->root();
  std::string copy_baseline = git("rev-parse HEAD", root).substr(0, 40);
  test::TempFolder original;
  git("clone -q " + test::shell_quote(root.string()) + " start", original.path());  // the baseline, before changes
  check_patch_reproduces_the_workspace(fixture, original.path() / "start", copy_baseline);
  BOOST_REQUIRE(fixture.workspace->finish(KeepWorkspace::no));
}

BOOST_AUTO_TEST_CASE(the_in_place_patch_applied_to_the_start_gives_the_agents_files) {
  PatchFixture fixture(Isolation::in_place);
  check_patch_reproduces_the_workspace(fixture, fixture.repo, fixture.baseline);
}

BOOST_AUTO_TEST_CASE(every_isolation_commits_to_a_branch_of_the_task_repository_and_leaves_it_as_it_was) {
  for (Isolation isolation : {Isolation::worktree, Isolation::copy, Isolation::in_place}) {
    PatchFixture fixture(isolation);
    BOOST_TEST_CONTEXT("isolation " << static_cast<int>(isolation)) {
      change_everything(fixture.workspace->root());
      Files expected = files_of(fixture.workspace->root());
      std::string status_before = git("status --porcelain", fixture.repo);
      auto sha = fixture.workspace->commit("agent/refactor-1", "Refactor\n\nby agent-run");
      BOOST_REQUIRE_MESSAGE(sha.has_value(), (sha ? std::string() : sha.error().message));
      BOOST_TEST(git("rev-parse agent/refactor-1", fixture.repo) == *sha + "\n");
      BOOST_TEST(git("rev-parse agent/refactor-1^", fixture.repo) == fixture.baseline + "\n");
      BOOST_TEST(git("log -1 --format=%an%n%B agent/refactor-1", fixture.repo) ==
                 "agent-run\nRefactor\n\nby agent-run\n\n");
      BOOST_TEST(files_at(fixture.repo, "agent/refactor-1", fixture.temp.path() / "committed") == expected);
      BOOST_TEST(git("rev-parse HEAD", fixture.repo) == fixture.baseline + "\n");
      BOOST_TEST(git("symbolic-ref --short HEAD", fixture.repo) == "main\n");
      BOOST_TEST(git("status --porcelain", fixture.repo) == status_before);

      write(fixture.workspace->root() / "a.txt", "again\n");
      auto moved = fixture.workspace->commit("agent/refactor-1", "Refactor again");
      BOOST_REQUIRE(moved.has_value());
      BOOST_TEST(*moved != *sha);
      BOOST_TEST(git("rev-parse agent/refactor-1^", fixture.repo) == fixture.baseline + "\n");
      BOOST_TEST(git("show agent/refactor-1:a.txt", fixture.repo) == "again\n");
      BOOST_REQUIRE(fixture.workspace->finish(KeepWorkspace::no));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_commit_that_cannot_be_made_says_why) {
  PatchFixture worktree(Isolation::worktree);
  write(worktree.workspace->root() / "a.txt", "x\n");
  auto bad_name = worktree.workspace->commit("bad..name", "m");
  BOOST_REQUIRE(!bad_name.has_value());
  BOOST_TEST(bad_name.error().message == "'bad..name' is not a valid branch name");
  auto checked_out = worktree.workspace->commit("main", "m");
  BOOST_REQUIRE(!checked_out.has_value());
  BOOST_TEST(checked_out.error().message.starts_with("cannot commit the changes to the branch 'main' of '" +
                                                     worktree.repo.string() + "': "));
  BOOST_TEST(git("rev-parse main", worktree.repo) == worktree.baseline + "\n");
  BOOST_REQUIRE(worktree.workspace->finish(KeepWorkspace::no));

  PatchFixture plain(std::nullopt, true);
  auto no_repository = plain.workspace->commit("agent/x", "m");
  BOOST_REQUIRE(!no_repository.has_value());
  BOOST_TEST(no_repository.error().message ==
             "cannot commit to 'agent/x': the workspace is a copy of a folder that is not a git repository");
  BOOST_REQUIRE(plain.workspace->finish(KeepWorkspace::no));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
