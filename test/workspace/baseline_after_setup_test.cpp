#include "support/fixtures.h"
#include "workspace/workspace.h"

#include <boost/test/unit_test.hpp>

#include <fstream>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

std::string git(const std::string& arguments, const fs::path& cwd) {
  return test::run_shell("git " + arguments, cwd).output;
}

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

/// A workspace of a three-file repository made with `isolation`, and what "setup" did to it.
struct SetUpWorkspace {
  test::TempFolder temp;
  fs::path repo = temp.path() / "repo";
  std::unique_ptr<Workspace> workspace;

  explicit SetUpWorkspace(Isolation isolation) {
    test::make_git_repository(repo, {{"a.txt", "one\ntwo\n"}, {"b.txt", "bee\n"}, {".gitignore", "*.log\n"}});
    WorkspaceSpec spec;
    spec.repo = repo;
    spec.isolation = isolation;
    auto made = Workspace::prepare(spec, temp.path() / "scratch", "baseline");
    BOOST_REQUIRE_MESSAGE(made.has_value(), (made ? std::string() : made.error().message));
    workspace = std::move(*made);
    workspace->withhold([](std::string_view path) { return path == ".env" ? std::string("hidden by rule 's'") : ""; });
  }
  fs::path at(const std::string& relative) const { return workspace->root() / relative; }
  Patch patch() const {
    auto diff = workspace->diff();
    BOOST_REQUIRE_MESSAGE(diff.has_value(), (diff ? std::string() : diff.error().message));
    return *diff;
  }
};

void check_only_the_agents_changes_are_in_the_patch(Isolation isolation) {
  SetUpWorkspace fixture(isolation);
  write(fixture.at("a.txt"), "one\ntwo\nsetup\n");  // what setup does
  write(fixture.at("setup.txt"), "made by setup\n");
  fs::remove(fixture.at("b.txt"));
  write(fixture.at(".env"), "TOKEN=setup-secret\n");
  write(fixture.at("build.log"), "ignored\n");
  BOOST_REQUIRE(fixture.workspace->take_baseline(fixture.temp.path() / "objects").has_value());
  write(fixture.at("a.txt"), "one\nTWO\nsetup\n");  // what the agent does
  write(fixture.at("agent.txt"), "made by the agent\n");
  Patch patch = fixture.patch();
  BOOST_TEST(patch.files_changed == 2, patch.text);
  BOOST_TEST(patch.text.find("-two\n+TWO\n setup\n") != std::string::npos, patch.text);
  BOOST_TEST(patch.text.find("+++ b/agent.txt") != std::string::npos, patch.text);
  for (const char* setup : {"+setup", "setup.txt", "b.txt", "setup-secret", ".env"}) {
    BOOST_TEST(patch.text.find(setup) == std::string::npos, setup << " in " << patch.text);
  }
  BOOST_TEST(patch.withheld.empty());  // the hidden .env did not change after setup
  // Its content never entered the object database: only its hash was kept.
  std::string id = git("hash-object .env", fixture.workspace->root());
  BOOST_TEST(git("cat-file -t " + id, fixture.workspace->root()).find("blob") == std::string::npos);
  BOOST_TEST(git("cat-file -t " + git("hash-object agent.txt", fixture.workspace->root()), fixture.workspace->root())
                 .find("blob") == std::string::npos);  // the control: nor did an agent's file (diff writes none)
  // Nor did setup's: the snapshot's objects are kept outside the repository, which stays as it was.
  BOOST_TEST(git("cat-file -t " + git("hash-object setup.txt", fixture.workspace->root()), fixture.workspace->root())
                 .find("blob") == std::string::npos);
  BOOST_TEST(fs::exists(fixture.temp.path() / "objects"));
  write(fixture.at(".env"), "TOKEN=agent-changed\n");
  Patch later = fixture.patch();
  BOOST_REQUIRE_EQUAL(later.withheld.size(), 1u);
  BOOST_TEST(later.withheld[0].path == ".env");
  BOOST_TEST(later.text.find("agent-changed") == std::string::npos);
  BOOST_TEST(fixture.workspace->finish(KeepWorkspace::no).has_value());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(baseline_after_setup)

BOOST_AUTO_TEST_CASE(a_worktree_patch_holds_only_what_changed_after_setup) {
  check_only_the_agents_changes_are_in_the_patch(Isolation::worktree);
}

BOOST_AUTO_TEST_CASE(a_copy_patch_holds_only_what_changed_after_setup) {
  check_only_the_agents_changes_are_in_the_patch(Isolation::copy);
}

BOOST_AUTO_TEST_CASE(an_in_place_patch_holds_only_what_changed_after_setup_and_the_index_is_untouched) {
  SetUpWorkspace fixture(Isolation::in_place);
  write(fixture.at("untracked.txt"), "the user's\n");
  std::string status = git("status --porcelain", fixture.repo);
  BOOST_REQUIRE(fixture.workspace->take_baseline(fixture.temp.path() / "objects").has_value());
  BOOST_TEST(git("status --porcelain", fixture.repo) == status);  // nothing staged by the snapshot
  write(fixture.at("b.txt"), "bee\nsting\n");
  Patch patch = fixture.patch();
  BOOST_TEST(patch.files_changed == 1, patch.text);
  BOOST_TEST(patch.text.find("untracked") == std::string::npos, patch.text);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
