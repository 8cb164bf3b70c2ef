#include "search/file_walk.h"
#include "tools/tools_fixture.h"

#include <sys/stat.h>

using namespace agent_run;
using namespace agent_run::test;

namespace {

std::vector<std::string> walked(const std::filesystem::path& workspace, const std::string& start,
                                const std::vector<std::string>& globs = {}) {
  auto overrides = search_overrides(globs);
  BOOST_REQUIRE(overrides.has_value());
  std::vector<std::string> paths;
  auto done = walk_files(workspace, start, *overrides, [&](const WalkedFile& file) {
    paths.emplace_back(file.path);
    return WalkStep::go_on;
  });
  BOOST_REQUIRE_MESSAGE(done.has_value(), (done ? std::string() : done.error().message));
  return paths;
}

/// What ripgrep lists with the flags the grep tool gives it.
std::vector<std::string> ripgrep_files(const std::filesystem::path& workspace, const std::string& start,
                                       const std::vector<std::string>& globs = {}) {
  std::string command =
      "rg --files --sort path --no-config --hidden --no-ignore-dot --no-ignore-exclude --no-ignore-global";
  for (const std::string& glob : globs) command += " -g " + shell_quote(glob);
  command += " -g '!.git'";
  if (start != ".") command += " -- " + shell_quote(start);
  CommandResult result = run_shell(command + " 2>/dev/null", workspace);
  BOOST_REQUIRE_MESSAGE(result.exit_code == 0 || result.exit_code == 1,
                        "rg failed (is ripgrep installed?): " + result.output);
  std::vector<std::string> paths;
  std::size_t start_at = 0;
  for (std::size_t end; (end = result.output.find('\n', start_at)) != std::string::npos; start_at = end + 1) {
    paths.push_back(result.output.substr(start_at, end - start_at));
  }
  return paths;
}

/// A repository with most of what a walk must get right.
void make_tricky_tree(const TempFolder& folder) {
  make_git_repository(
      folder.path(),
      {{".gitignore",
        "*.log\n!important.log\nbuild/\n/anchored.txt\ndocs/**/*.tmp\n**/cache\n*.{bak,orig}\nnested/deep/\n"},
       {"important.log", "x"},
       {"debug.log", "x"},
       {"anchored.txt", "x"},
       {"sub/anchored.txt", "x"},
       {"build/out.o", "x"},
       {"docs/a/b/c.tmp", "x"},
       {"docs/keep.md", "x"},
       {"src/cache/blob", "x"},
       {"src/main.c", "x"},
       {"src/main.c.bak", "x"},
       {"nested/deep/file.txt", "x"},
       {"other/nested/deep/file.txt", "x"},
       {"sub/.gitignore", "!*.log\nlocal.txt\n"},
       {"sub/kept.log", "x"},
       {"sub/local.txt", "x"},
       {"sub/z/local.txt", "x"},
       {".config/settings.json", "x"},
       {".hidden", "x"},
       {"a-b.txt", "x"},
       {"a.txt", "x"},
       {"a/x.txt", "x"},
       {"B.txt", "x"},
       {"_u.txt", "x"},
       {"10.txt", "x"},
       {"9.txt", "x"},
       {"with space.txt", "x"},
       {"caf\xc3\xa9.txt", "x"},
       {"notes.md", "x"}});
  folder.write("vendor/lib/.git/HEAD", "ref: refs/heads/main\n");  // a nested repository: the root's rules stop at it
  folder.write("vendor/lib/trace.log", "x");
  folder.write("vendor/lib/.gitignore", "*.tmp\n");
  folder.write("vendor/lib/x.tmp", "x");
  folder.write("vendor/other.log", "x");
  std::filesystem::create_symlink("a.txt", folder.path() / "link-to-file.txt");
  std::filesystem::create_directory_symlink("src", folder.path() / "link-to-dir");
  BOOST_REQUIRE(::mkfifo((folder.path() / "fifo").c_str(), 0600) == 0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(file_walk)

BOOST_AUTO_TEST_CASE(lists_what_ripgrep_lists_in_the_same_order) {
  TempFolder folder;
  make_tricky_tree(folder);
  std::vector<std::string> ours = walked(folder.path(), ".");
  BOOST_TEST(ours == ripgrep_files(folder.path(), "."), boost::test_tools::per_element());
  BOOST_TEST(ours.size() > 15u);
  // Spot checks of what the comparison relies on.
  auto listed = [&](const std::string& path) { return std::find(ours.begin(), ours.end(), path) != ours.end(); };
  BOOST_TEST(listed("important.log"));
  BOOST_TEST(!listed("debug.log"));
  BOOST_TEST(listed("sub/kept.log"));          // a deeper .gitignore re-includes
  BOOST_TEST(listed("vendor/lib/trace.log"));  // the root's rules stop at a nested repository
  BOOST_TEST(!listed("vendor/lib/x.tmp"));
  BOOST_TEST(!listed("vendor/other.log"));
  BOOST_TEST(listed(".config/settings.json"));
  BOOST_TEST(!listed("link-to-file.txt"));
  BOOST_TEST(!listed("fifo"));
  BOOST_TEST(std::none_of(ours.begin(), ours.end(),
                          [](const std::string& p) { return p.find(".git/") != std::string::npos; }));
}

BOOST_AUTO_TEST_CASE(a_subfolder_start_still_applies_the_rules_above_it) {
  TempFolder folder;
  make_tricky_tree(folder);
  for (const std::string start : {"sub", "docs", "vendor", "build", "src/main.c", "debug.log"}) {
    BOOST_TEST(walked(folder.path(), start) == ripgrep_files(folder.path(), start), boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(glob_overrides_match_ripgrep) {
  TempFolder folder;
  make_tricky_tree(folder);
  for (const std::vector<std::string>& globs : std::vector<std::vector<std::string>>{
           {"*.txt"}, {"!*.txt"}, {"*.log"}, {"src/**"}, {"*.{md,json}"}, {"**/deep/*"}, {"!sub/**", "*.txt"}}) {
    BOOST_TEST(walked(folder.path(), ".", globs) == ripgrep_files(folder.path(), ".", globs),
               boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(gitignore_files_apply_only_inside_a_repository) {
  TempFolder folder;
  folder.write(".gitignore", "*.log\n");
  folder.write("a.log", "x");
  folder.write("b.txt", "x");
  BOOST_TEST(walked(folder.path(), ".") == (std::vector<std::string>{".gitignore", "a.log", "b.txt"}),
             boost::test_tools::per_element());
  BOOST_TEST(walked(folder.path(), ".") == ripgrep_files(folder.path(), "."), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
