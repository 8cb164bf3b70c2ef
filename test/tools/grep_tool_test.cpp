#include "tools_fixture.h"

using namespace agent_run;
using namespace agent_run::test;

namespace {

/// Runs one grep call with ripgrep and with the built-in search; both must answer the same, byte for byte.
struct GrepFixture : ToolsFixture {
  ToolOutput grep(Json input) {
    scope.grep_backend = GrepBackend::ripgrep;
    ToolOutput by_ripgrep = call("grep", input);
    scope.grep_backend = GrepBackend::builtin;
    ToolOutput by_builtin = call("grep", input);
    BOOST_TEST(by_ripgrep.content == by_builtin.content, "ripgrep and the built-in search differ for " << input.dump());
    BOOST_TEST(by_ripgrep.is_error == by_builtin.is_error);
    return by_builtin;
  }
  std::string grep_text(Json input) { return grep(std::move(input)).content; }
};

Json pattern(const std::string& text) { return Json::object().set("pattern", text); }

}  // namespace

BOOST_FIXTURE_TEST_SUITE(grep_tool, GrepFixture)

BOOST_AUTO_TEST_CASE(groups_matches_by_file_in_path_order) {
  folder.write("b.txt", "foo two\n");
  folder.write("a.txt", "alpha foo\nbeta\nfoo gamma foo\n");
  folder.write("sub/c.txt", "no\nfoo here");
  BOOST_TEST(grep_text(pattern("foo")) ==
             "a.txt\n1:alpha foo\n3:foo gamma foo\n\nb.txt\n1:foo two\n\nsub/c.txt\n2:foo here\n");
}

BOOST_AUTO_TEST_CASE(context_lines_and_separators) {
  folder.write("a.txt", "1\n2\nfoo\n4\n5\n6\n7\nfoo\n9\n");
  BOOST_TEST(grep_text(pattern("foo").set("context", 1)) == "a.txt\n2-2\n3:foo\n4-4\n--\n7-7\n8:foo\n9-9\n");
  BOOST_TEST(grep_text(pattern("foo").set("before", 2).set("after", 0)) ==
             "a.txt\n1-1\n2-2\n3:foo\n--\n6-6\n7-7\n8:foo\n");
  BOOST_TEST(grep_text(pattern("foo").set("context", 2)) == "a.txt\n1-1\n2-2\n3:foo\n4-4\n5-5\n6-6\n7-7\n8:foo\n9-9\n");
}

BOOST_AUTO_TEST_CASE(files_with_matches_and_count) {
  folder.write("a.py", "x = 1\nx = 2\n");
  folder.write("b.py", "y = 1\n");
  folder.write("c.py", "x = 3\n");
  BOOST_TEST(grep_text(pattern("x =").set("output", "files_with_matches")) == "a.py\nc.py\n");
  BOOST_TEST(grep_text(pattern("x =").set("output", "count")) == "a.py:2\nc.py:1\n");
}

BOOST_AUTO_TEST_CASE(glob_filter_path_and_case) {
  folder.write("src/a.py", "Value\n");
  folder.write("src/b.js", "value\n");
  folder.write("lib/c.py", "VALUE\n");
  BOOST_TEST(grep_text(pattern("value").set("case_insensitive", true).set("glob", "*.py")) ==
             "lib/c.py\n1:VALUE\n\nsrc/a.py\n1:Value\n");
  BOOST_TEST(grep_text(pattern("value").set("path", "src")) == "src/b.js\n1:value\n");
  BOOST_TEST(grep_text(pattern("(?i)value").set("path", "src/a.py")) == "src/a.py\n1:Value\n");
  BOOST_TEST(grep_text(pattern("value").set("glob", "!*.js")) == "No matches found.\n");
}

BOOST_AUTO_TEST_CASE(skips_gitignored_binary_and_git_files_but_not_hidden_ones) {
  make_git_repository(folder.path(),
                      {{".gitignore", "*.log\n"}, {"a.txt", "needle\n"}, {".github/ci.yml", "needle\n"}});
  folder.write("debug.log", "needle\n");
  folder.write("blob.bin", std::string("needle\0\x01", 8));
  folder.write(".git/needle", "needle\n");
  BOOST_TEST(grep_text(pattern("needle")) == ".github/ci.yml\n1:needle\n\na.txt\n1:needle\n");
  BOOST_TEST(grep_text(pattern("needle").set("path", "blob.bin")) ==
             "grep: 'blob.bin' is a binary file; grep searches text files only");
}

BOOST_AUTO_TEST_CASE(max_results_stops_the_answer_and_says_so) {
  std::string text;
  for (int i = 1; i <= 10; ++i) text += "hit " + std::to_string(i) + "\n";
  folder.write("a.txt", text);
  folder.write("b.txt", "hit b\n");
  BOOST_TEST(grep_text(pattern("hit").set("max_results", 3)) ==
             "a.txt\n1:hit 1\n2:hit 2\n3:hit 3\n"
             "[only the first 3 matching lines are shown; narrow the pattern, path or glob, or raise max_results]\n");
  BOOST_TEST(grep_text(pattern("hit").set("max_results", 1).set("output", "files_with_matches")) ==
             "a.txt\n[only the first 1 files are shown; narrow the pattern, path or glob, or raise max_results]\n");
  BOOST_TEST(grep_text(pattern("hit").set("max_results", 10)).find("b.txt") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(long_lines_are_cut_and_the_answer_is_capped) {
  folder.write("min.js", std::string(700, 'a') + "needle" + std::string(300, 'b') + "\n");
  BOOST_TEST(grep_text(pattern("needle")) ==
             "min.js\n1:" + std::string(500, 'a') + " [... line cut at 500 of 1006 bytes]\n");
  std::string many;
  for (int i = 0; i < 2000; ++i) many += "needle " + std::string(40, 'x') + "\n";
  folder.write("many.txt", many);
  std::string capped = grep_text(pattern("needle").set("path", "many.txt").set("max_results", 5000));
  BOOST_TEST(capped.size() < 41000u);
  BOOST_TEST(
      capped.find(
          "[output cut at 40000 bytes; narrow the pattern, path or glob, or use output: files_with_matches]\n") !=
      std::string::npos);
}

BOOST_AUTO_TEST_CASE(perl_classes_are_ascii_in_both_engines) {
  folder.write("u.txt", "caf\xc3\xa9 ok\nnaive\n\xce\xa9mega 42\n");
  BOOST_TEST(grep_text(pattern("\\bcaf\\w\\b")) == "No matches found.\n");  // é is not a word character here
  BOOST_TEST(grep_text(pattern("caf.")) == "u.txt\n1:caf\xc3\xa9 ok\n");    // but `.` is one character
  BOOST_TEST(grep_text(pattern("\\d+$")) == "u.txt\n3:\xce\xa9mega 42\n");
  BOOST_TEST(grep_text(pattern("\xcf\x89MEGA").set("case_insensitive", true)) == "u.txt\n3:\xce\xa9mega 42\n");
}

BOOST_AUTO_TEST_CASE(refusals_have_exact_messages) {
  folder.write("a.txt", "x\n");
  BOOST_TEST(grep_text(pattern("foo(")) == "grep: invalid pattern 'foo(': missing ): foo(");
  BOOST_TEST(grep_text(pattern("a\\nb")) ==
             "grep: the pattern contains \\n (a line break); grep matches one line at a time");
  BOOST_TEST(grep_text(pattern("(a)\\1")) == "grep: invalid pattern '(a)\\1': invalid escape sequence: \\1");
  BOOST_TEST(grep_text(pattern("x").set("path", "../etc")) == "grep: '../etc' is outside the workspace");
  BOOST_TEST(grep_text(pattern("x").set("path", "missing")) == "grep: 'missing' does not exist");
  BOOST_TEST(grep_text(pattern("x").set("glob", "{a")) ==
             "grep: invalid glob '{a': an alternate group '{' is not closed");
  BOOST_TEST(grep_text(pattern("x").set("output", "lines")) ==
             "grep: output must be content, files_with_matches or count, got 'lines'");
  BOOST_TEST(grep_text(pattern("x").set("context", 99)) == "grep: context lines must be between 0 and 50");
  BOOST_TEST(grep_text(Json::object()) == "grep: missing required parameter 'pattern'");
}

BOOST_AUTO_TEST_CASE(without_ripgrep_on_path_the_builtin_search_answers) {
  folder.write("a.txt", "found\n");
  scope.environment = {"PATH=/nonexistent"};
  scope.grep_backend = GrepBackend::automatic;
  BOOST_TEST(call("grep", pattern("found")).content == "a.txt\n1:found\n");
  scope.grep_backend = GrepBackend::ripgrep;
  BOOST_TEST(call("grep", pattern("found")).content == "grep: ripgrep (rg) is not on PATH");
}

BOOST_AUTO_TEST_SUITE_END()
