#include "workspace/scratch_area.h"
#include "base/files.h"
#include "support/fixtures.h"
#include "support/waiting.h"

#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

std::string git(const std::string& arguments, const fs::path& cwd) {
  test::CommandResult result =
      test::run_shell("git -c user.name=test -c user.email=test@example.invalid " + arguments, cwd);
  BOOST_REQUIRE_MESSAGE(result.exit_code == 0, "git " + arguments + ": " + result.output);
  return result.output;
}

bool is_running(pid_t pid) {
  auto stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return false;
  std::size_t state = stat->rfind(')') + 2;
  return state < stat->size() && (*stat)[state] != 'Z';
}

/// Starts `sleep 60` in a session of its own (as a daemon a command left behind would be), in
/// `cwd` with `environment` added; returns its pid.
pid_t start_leftover(const fs::path& cwd, const std::string& environment, const fs::path& pid_file) {
  test::CommandResult started =
      test::run_shell(environment + " setsid -f sh -c 'echo $$ > " + pid_file.string() +
                          "; exec sleep 60' </dev/null >/dev/null 2>&1; " + "while [ ! -s " + pid_file.string() +
                          " ]; do sleep 0.01; done",  // leave only once it left the group
                      cwd);
  BOOST_REQUIRE(started.exit_code == 0);
  std::string pid = test::wait_for_line_in(pid_file);
  BOOST_REQUIRE_MESSAGE(!pid.empty(), "the leftover process did not start");
  return static_cast<pid_t>(std::stol(pid));
}

std::unique_ptr<Workspace> worktree_in(const fs::path& repo, const fs::path& scratch, const std::string& name) {
  WorkspaceSpec spec;
  spec.repo = repo;
  auto workspace = Workspace::prepare(spec, scratch, name);
  BOOST_REQUIRE_MESSAGE(workspace.has_value(), (workspace ? std::string() : workspace.error().message));
  return std::move(*workspace);
}

/// What a killed run leaves behind: its Workspace never destroyed (so never cleaned up), held
/// here so that LeakSanitizer does not report the test's deliberate leak.
void abandon(std::unique_ptr<Workspace> workspace) {
  static std::vector<std::unique_ptr<Workspace>>* never_finished = new std::vector<std::unique_ptr<Workspace>>;
  never_finished->push_back(std::move(workspace));
}

/// Whether `folder` is on ext2/3/4, the file systems that spread a folder flagged FS_TOPDIR_FL
/// over block groups (tmpfs and others answer FS_IOC_GETFLAGS but drop the flag).
bool on_ext_file_system(const fs::path& folder) {
  struct statfs facts {};
  return ::statfs(folder.c_str(), &facts) == 0 && facts.f_type == EXT4_SUPER_MAGIC;
}

/// The ext2/3/4 attribute flags of `folder` (chattr), or nullopt where the filesystem has none.
std::optional<int> attribute_flags(const fs::path& folder) {
  int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int flags = 0;
  bool known = fd >= 0 && ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
  if (fd >= 0) ::close(fd);
  return known ? std::optional<int>(flags) : std::nullopt;
}

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scratch_area)

BOOST_AUTO_TEST_CASE(a_claimed_folder_is_locked_and_removed_or_kept_when_closed) {
  test::TempFolder temp;
  auto area = ScratchArea::claim(temp.path());
  BOOST_REQUIRE(area.has_value());
  fs::path folder = area->path();
  BOOST_TEST(folder.filename().string().starts_with("run-"));
  BOOST_TEST(fs::exists(folder / "lock"));
  BOOST_TEST(area->environment_marker() == "AGENT_RUN_SCRATCH=" + folder.string());
  if (on_ext_file_system(temp.path())) {  // ext2/3/4: workspaces are spread over block groups (chattr +T)
    BOOST_REQUIRE(attribute_flags(folder).has_value());
    BOOST_TEST((*attribute_flags(folder) & FS_TOPDIR_FL) != 0);
  }
  BOOST_TEST(clean_stale_runs(temp.path()).runs == 0);  // held: a live run's folder
  BOOST_TEST(fs::exists(folder));
  auto closed = area->close(KeepWorkspace::no);
  BOOST_REQUIRE(closed.has_value());
  BOOST_TEST(!fs::exists(folder));

  auto kept = ScratchArea::claim(temp.path());
  BOOST_REQUIRE(kept.has_value());
  BOOST_REQUIRE(kept->close(KeepWorkspace::yes).has_value());
  BOOST_TEST(fs::exists(kept->path()));
  BOOST_TEST(!fs::exists(kept->path() / "lock"));
  BOOST_TEST(clean_stale_runs(temp.path()).runs == 0);  // kept workspaces are the user's
  BOOST_TEST(fs::exists(kept->path()));
}

BOOST_AUTO_TEST_CASE(a_dead_runs_worktrees_branches_processes_and_folder_are_cleaned_and_live_runs_left_alone) {
  test::TempFolder temp;
  fs::path repo = temp.path() / "repo";
  fs::path parent = temp.path() / "scratch";
  test::make_git_repository(repo, {{"a.txt", "a\n"}});
  fs::path dead = parent / "run-dead01";
  fs::create_directories(dead);
  BOOST_REQUIRE(write_file_atomically(dead / "lock", ""));  // nobody holds it: its run was killed
  auto orphan = worktree_in(repo, dead, "orphan");
  fs::path orphan_root = orphan->root();
  abandon(std::move(orphan));  // the killed run never finished it
  pid_t in_folder = start_leftover(orphan_root, "", temp.path() / "pid1");
  pid_t by_marker = start_leftover(temp.path(), "AGENT_RUN_SCRATCH=" + dead.string(), temp.path() / "pid2");
  pid_t unrelated = start_leftover(temp.path(), "AGENT_RUN_SCRATCH=" + dead.string() + "x", temp.path() / "pid3");

  auto live = ScratchArea::claim(parent);
  BOOST_REQUIRE(live.has_value());
  auto busy = worktree_in(repo, live->path(), "busy");
  BOOST_TEST(line_count(git("worktree list", repo)) == 3u);

  StaleCleanup cleanup = clean_stale_runs(parent);
  BOOST_TEST(cleanup.runs == 1);
  BOOST_TEST(cleanup.workspaces == 1);
  BOOST_TEST(cleanup.processes == 2);
  BOOST_TEST(cleanup.problems.empty());
  BOOST_TEST(!fs::exists(dead));
  BOOST_TEST(test::wait_until([&] { return !is_running(in_folder); }));  // SIGKILL takes effect on its own time
  BOOST_TEST(test::wait_until([&] { return !is_running(by_marker); }));
  BOOST_TEST(is_running(unrelated));
  ::kill(unrelated, SIGKILL);
  BOOST_TEST(line_count(git("worktree list", repo)) == 2u);
  BOOST_TEST(git("branch --list 'agent-run/orphan-*'", repo) == "");
  BOOST_TEST(git("branch --list 'agent-run/busy-*'", repo) != "");
  BOOST_TEST(fs::exists(busy->root() / "a.txt"));
  BOOST_REQUIRE(busy->finish(KeepWorkspace::no));
  BOOST_REQUIRE(live->close(KeepWorkspace::no).has_value());
  BOOST_TEST(fs::is_empty(parent));
}

BOOST_AUTO_TEST_CASE(worktrees_whose_folder_was_wiped_are_pruned_once_a_minute_old) {
  test::TempFolder temp;
  fs::path repo = temp.path() / "repo";
  test::make_git_repository(repo, {{"a.txt", "a\n"}});
  auto old_one = worktree_in(repo, temp.path() / "scratch", "old");
  auto young = worktree_in(repo, temp.path() / "scratch", "young");
  std::string old_name = "agent-run-" + old_one->root().parent_path().filename().string();
  abandon(std::move(old_one));
  abandon(std::move(young));
  fs::remove_all(temp.path() / "scratch");  // a reboot emptied /tmp
  test::run_shell("touch -d '2 minutes ago' .git/worktrees/" + old_name, repo);
  StaleCleanup cleanup = prune_orphaned_worktrees(repo);
  BOOST_TEST(cleanup.workspaces == 1);
  BOOST_TEST(cleanup.problems.empty());
  BOOST_TEST(line_count(git("worktree list", repo)) == 2u);
  BOOST_TEST(git("branch --list 'agent-run/old-*'", repo) == "");
  BOOST_TEST(git("branch --list 'agent-run/young-*'", repo) != "");
}

// Found by the crash_safety e2e test: a run killed while libgit2 rewrote its branch left the ref's
// lock file, which refused the branch's deletion for good; one killed while adding its worktree left
// bookkeeping that `git worktree list` shows but libgit2 cannot prune. Both are the dead run's own.
BOOST_AUTO_TEST_CASE(what_a_run_killed_inside_git_left_is_removed_with_its_branch) {
  test::TempFolder temp;
  fs::path repo = temp.path() / "repo";
  fs::path dead = temp.path() / "scratch" / "run-dead02";
  test::make_git_repository(repo, {{"a.txt", "a\n"}});
  fs::create_directories(dead / "t-abc123");
  BOOST_REQUIRE(write_file_atomically(dead / "lock", ""));
  BOOST_REQUIRE(write_file_atomically(
      dead / "t-abc123" / k_workspace_manifest,
      "{\"source\":\"" + repo.string() + "\",\"isolation\":\"worktree\",\"label\":\"t-abc123\"}"));
  git("branch agent-run/t-abc123", repo);
  BOOST_REQUIRE(write_file_atomically(repo / ".git/refs/heads/agent-run/t-abc123.lock", ""));  // killed mid-rewrite
  fs::create_directories(repo / ".git/worktrees/agent-run-t-abc123");  // killed before its HEAD was written
  BOOST_REQUIRE(write_file_atomically(repo / ".git/worktrees/agent-run-t-abc123/gitdir",
                                      (dead / "t-abc123/repo/.git").string() + "\n"));
  BOOST_REQUIRE(line_count(git("worktree list", repo)) == 2u);

  StaleCleanup cleanup = clean_stale_runs(temp.path() / "scratch");
  BOOST_TEST(cleanup.runs == 1);
  BOOST_TEST(git("branch --list 'agent-run/*'", repo) == "");
  BOOST_TEST(!fs::exists(repo / ".git/refs/heads/agent-run/t-abc123.lock"));
  BOOST_TEST(line_count(git("worktree list", repo)) == 1u);
  BOOST_TEST(!fs::exists(dead));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
