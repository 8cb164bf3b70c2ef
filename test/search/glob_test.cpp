#include "search/glob_pattern.h"
#include "search/ignore_rules.h"
#include "tools/tools_fixture.h"

#include <sys/stat.h>
#include <utime.h>

using namespace agent_run;
using namespace agent_run::test;

namespace {

bool matches(const std::string& glob, const std::string& path) {
  auto pattern = GlobPattern::compile(glob);
  BOOST_REQUIRE_MESSAGE(pattern.has_value(), glob);
  return pattern->matches(path);
}

void set_mtime(const std::filesystem::path& path, long seconds) {
  utimbuf times{seconds, seconds};
  BOOST_REQUIRE(::utime(path.c_str(), &times) == 0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(glob_patterns)

BOOST_AUTO_TEST_CASE(star_and_question_mark_stay_inside_one_folder) {
  BOOST_TEST(matches("*.go", "main.go"));
  BOOST_TEST(!matches("*.go", "cmd/main.go"));
  BOOST_TEST(matches("src/?.c", "src/a.c"));
  BOOST_TEST(!matches("src/?.c", "src/ab.c"));
  BOOST_TEST(!matches("a*b", "a/b"));
}

BOOST_AUTO_TEST_CASE(double_star_spans_folders) {
  BOOST_TEST(matches("**/*.go", "main.go"));
  BOOST_TEST(matches("**/*.go", "a/b/c.go"));
  BOOST_TEST(matches("src/**", "src/a/b.txt"));
  BOOST_TEST(matches("a/**/b", "a/b"));
  BOOST_TEST(matches("a/**/b", "a/x/y/b"));
  BOOST_TEST(!matches("a/**/b", "a/xb"));
  BOOST_TEST(matches("a**b", "axxb"));  // not a whole component: like `*`
  BOOST_TEST(!matches("a**b", "a/b"));
}

BOOST_AUTO_TEST_CASE(braces_classes_and_escapes) {
  BOOST_TEST(matches("src/**/*.{ts,tsx}", "src/ui/app.tsx"));
  BOOST_TEST(matches("src/**/*.{ts,tsx}", "src/app.ts"));
  BOOST_TEST(!matches("src/**/*.{ts,tsx}", "src/app.js"));
  BOOST_TEST(matches("file[0-9].txt", "file7.txt"));
  BOOST_TEST(matches("file[!0-9].txt", "filex.txt"));
  BOOST_TEST(!matches("file[!0-9].txt", "file7.txt"));
  BOOST_TEST(matches("\\*.txt", "*.txt"));
  BOOST_TEST(!matches("\\*.txt", "a.txt"));
  BOOST_TEST(matches("caf\xc3\xa9.md", "caf\xc3\xa9.md"));
}

BOOST_AUTO_TEST_CASE(bad_globs_say_what_is_wrong) {
  BOOST_TEST(GlobPattern::compile("{a,b").error().message ==
             "invalid glob '{a,b': an alternate group '{' is not closed");
  BOOST_TEST(GlobPattern::compile("[abc").error().message ==
             "invalid glob '[abc': a character class '[' is not closed");
  BOOST_TEST(GlobPattern::compile("[z-a]").error().message == "invalid glob '[z-a]': the range 'z-a' is backwards");
  BOOST_TEST(GlobPattern::compile("{a,{b}}").error().message ==
             "invalid glob '{a,{b}}': nested alternate groups are not supported");
}

BOOST_AUTO_TEST_CASE(gitignore_rules_follow_git) {
  IgnoreRules rules = IgnoreRules::from_gitignore("# comment\n*.log\n!keep.log\nbuild/\n/root-only.txt\ndocs/*.html\n");
  BOOST_TEST((rules.match("a/b/debug.log", EntryKind::file) == IgnoreMatch::ignore));
  BOOST_TEST((rules.match("keep.log", EntryKind::file) == IgnoreMatch::include));
  BOOST_TEST((rules.match("build", EntryKind::folder) == IgnoreMatch::ignore));
  BOOST_TEST((rules.match("build", EntryKind::file) == IgnoreMatch::none));  // a trailing '/' matches folders only
  BOOST_TEST((rules.match("root-only.txt", EntryKind::file) == IgnoreMatch::ignore));
  BOOST_TEST((rules.match("sub/root-only.txt", EntryKind::file) == IgnoreMatch::none));
  BOOST_TEST((rules.match("docs/a.html", EntryKind::file) == IgnoreMatch::ignore));
  BOOST_TEST((rules.match("x/docs/a.html", EntryKind::file) == IgnoreMatch::none));
}

BOOST_AUTO_TEST_CASE(override_globs_include_and_exclude) {
  auto rules = IgnoreRules::from_overrides({"*.py", "!.git"});
  BOOST_REQUIRE(rules.has_value());
  BOOST_TEST((rules->match("src/a.py", EntryKind::file) == IgnoreMatch::include));
  BOOST_TEST((rules->match("src/a.txt", EntryKind::file) == IgnoreMatch::ignore));
  BOOST_TEST((rules->match("src", EntryKind::folder) == IgnoreMatch::none));
  BOOST_TEST((rules->match("x/.git", EntryKind::folder) == IgnoreMatch::ignore));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_SUITE(glob_tool, ToolsFixture)

BOOST_AUTO_TEST_CASE(lists_newest_first_and_matches_a_bare_pattern_at_any_depth) {
  make_git_repository(folder.path(), {{"main.go", "package main\n"},
                                      {"cmd/tool/run.go", "package tool\n"},
                                      {"pkg/util.go", "package pkg\n"},
                                      {"README.md", "# hi\n"}});
  set_mtime(folder.path() / "main.go", 1000);
  set_mtime(folder.path() / "cmd/tool/run.go", 3000);
  set_mtime(folder.path() / "pkg/util.go", 2000);
  ToolOutput output = call("glob", Json::object().set("pattern", "*.go"));
  BOOST_TEST(!output.is_error);
  BOOST_TEST(output.content == "cmd/tool/run.go\npkg/util.go\nmain.go\n");
}

BOOST_AUTO_TEST_CASE(double_star_braces_and_a_search_folder) {
  make_git_repository(folder.path(),
                      {{"src/app.ts", "x"}, {"src/ui/view.tsx", "x"}, {"src/ui/style.css", "x"}, {"test/app.ts", "x"}});
  set_mtime(folder.path() / "src/app.ts", 1000);
  set_mtime(folder.path() / "src/ui/view.tsx", 2000);
  BOOST_TEST(call("glob", Json::object().set("pattern", "src/**/*.{ts,tsx}")).content ==
             "src/ui/view.tsx\nsrc/app.ts\n");
  BOOST_TEST(call("glob", Json::object().set("pattern", "**/*.ts").set("path", "test")).content == "test/app.ts\n");
  BOOST_TEST(call("glob", Json::object().set("pattern", "ui/*").set("path", "src")).content ==
             "src/ui/style.css\nsrc/ui/view.tsx\n");  // style.css was written just now, view.tsx "in 1970"
}

BOOST_AUTO_TEST_CASE(respects_gitignore_and_never_lists_git) {
  make_git_repository(folder.path(),
                      {{".gitignore", "*.log\nbuild/\n"}, {"src/a.c", "x"}, {"src/.gitignore", "gen_*\n"}});
  folder.write("debug.log", "x");
  folder.write("build/out.c", "x");
  folder.write("src/gen_table.c", "x");
  std::string listed = call("glob", Json::object().set("pattern", "**")).content;
  BOOST_TEST(listed.find("src/a.c\n") != std::string::npos);
  BOOST_TEST(listed.find(".gitignore\n") != std::string::npos);
  BOOST_TEST(listed.find(".log") == std::string::npos);
  BOOST_TEST(listed.find("build/") == std::string::npos);
  BOOST_TEST(listed.find("gen_table") == std::string::npos);
  BOOST_TEST(listed.find(".git/") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(bounds_the_list_and_says_the_total) {
  for (int i = 0; i < 12; ++i) folder.write("f" + std::to_string(i) + ".txt", "x");
  ToolOutput output = call("glob", Json::object().set("pattern", "*.txt").set("max_results", 10));
  BOOST_TEST(std::count(output.content.begin(), output.content.end(), '\n') == 11);
  BOOST_TEST(
      output.content.find("[10 of 12 files, newest first; narrow the pattern or the path to see the others]\n") !=
      std::string::npos);
}

BOOST_AUTO_TEST_CASE(says_when_nothing_matches_and_when_the_input_is_wrong) {
  BOOST_TEST(call("glob", Json::object().set("pattern", "*.zig")).content == "No files match '*.zig'.\n");
  BOOST_TEST(call("glob", Json::object().set("pattern", "{a,b")).content ==
             "glob: invalid glob '{a,b': an alternate group '{' is not closed");
  BOOST_TEST(call("glob", Json::object().set("pattern", "*").set("path", "../")).content ==
             "glob: '../' is outside the workspace");
  folder.write("file.txt", "x");
  BOOST_TEST(call("glob", Json::object().set("pattern", "*").set("path", "file.txt")).content ==
             "glob: 'file.txt' is not a folder");
}

BOOST_AUTO_TEST_SUITE_END()
