// What a command's words are checked as: every `=`, `:` and `,` part, git's REV:path and pathspec
// magic, assignments, the folder of an earlier cd; words too long to check and, outside the
// sandbox, /proc/self-style paths are problems.
#include "policy/command_paths.h"
#include "policy/shell_parser.h"
#include "policy/shell_parts.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace agent_run;

namespace {

CommandPaths paths_of(const std::string& command, bool sandboxed = false) {
  ShellParts parts = shell_parts(command);
  BOOST_REQUIRE_EQUAL(parts.commands.size(), 1u);
  DecisionContext context;  // a virtual workspace at /workspace
  context.sandboxed = sandboxed;
  return command_paths(command_views(parts.commands[0], ScriptReading::parts), context);
}

bool names(const CommandPaths& paths, const std::string& relative) {
  return std::any_of(paths.paths.begin(), paths.paths.end(),
                     [&](const CanonicalPath& path) { return path.inside && path.relative == relative; });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(command_paths_of_words)

BOOST_AUTO_TEST_CASE(every_equals_colon_and_comma_part_is_a_path) {
  BOOST_TEST(names(paths_of("pytest --override-ini=cache_dir=.git/x"), ".git/x"));
  BOOST_TEST(names(paths_of("pytest --override-ini=cache_dir=.git/x"), "cache_dir=.git/x"));
  BOOST_TEST(names(paths_of("cat x=y=.env"), ".env"));
  BOOST_TEST(names(paths_of("cat a:.env"), ".env"));
  BOOST_TEST(names(paths_of("cp src,.env x"), ".env"));
  BOOST_TEST(names(paths_of("PYTHONPATH=src:lib python3 x"), "lib"));
  std::vector<std::string_view> parts = word_parts("--a=b:c,d");
  BOOST_TEST(parts.size() == 6u);  // the word, b:c,d, --a, b, c, d
}

BOOST_AUTO_TEST_CASE(git_rev_paths_and_pathspec_magic_are_paths) {
  BOOST_TEST(names(paths_of("git show HEAD:.env"), ".env"));
  BOOST_TEST(names(paths_of("git show :.env"), ".env"));
  BOOST_TEST(names(paths_of("git cat-file -p HEAD~2:config/.env.production"), "config/.env.production"));
  BOOST_TEST(names(paths_of("git show main:./src/../.env"), ".env"));
  BOOST_TEST(names(paths_of("git show ':(top).env'"), ".env"));
  BOOST_TEST(names(paths_of("git log -- ':/config/.env'"), "config/.env"));
  BOOST_TEST(names(paths_of("git log -- ':!secret'"), "secret"));
}

BOOST_AUTO_TEST_CASE(a_folder_an_earlier_cd_moved_to_is_a_second_base) {
  ShellParts parts = shell_parts("cd src && cat ../.env");
  DecisionContext context;
  CommandPaths paths = command_paths(command_views(parts.commands[1], ScriptReading::parts), context);
  BOOST_TEST(names(paths, ".env"));
}

BOOST_AUTO_TEST_CASE(a_word_too_long_to_be_a_path_is_a_problem) {
  std::string basetemp = "--basetemp=" + std::string(4100, 'a');
  BOOST_TEST(paths_of("pytest " + basetemp).problem == "a word of 4111 bytes is too long to check as a path");
  BOOST_TEST(paths_of("pytest " + basetemp, true).problem != "");
  BOOST_TEST(paths_of("ls " + std::string(4096, 'a')).problem.empty());
}

BOOST_AUTO_TEST_CASE(magic_paths_are_problems_only_outside_the_sandbox) {
  BOOST_TEST(paths_of("cat /proc/self/cwd/../policy.yaml").problem.find("goes through /proc/self") !=
             std::string::npos);
  BOOST_TEST(paths_of("cat /proc/4242/environ").problem.find("/proc/4242") != std::string::npos);
  BOOST_TEST(paths_of("cat x > /dev/stderr").problem.find("/dev/stderr") != std::string::npos);
  BOOST_TEST(paths_of("cat /proc/self/status", true).problem.empty());
  BOOST_TEST(paths_of("ls 2>&1").problem.empty());  // a duplication is not a path
  BOOST_TEST(paths_of("cat /proc/cpuinfo").problem.empty());
}

BOOST_AUTO_TEST_SUITE_END()
