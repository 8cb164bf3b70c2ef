// The best-effort part parser: every command a shell line may run is found, wherever it hides
// (substitutions, loops, functions, here-documents fed to a shell, eval), and data stays data.
#include "policy/shell_parts.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using namespace agent_run;

namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string line;
  for (const std::string& word : words) line += (line.empty() ? "" : " ") + word;
  return line;
}

/// Each part's words joined by spaces, in the order found.
std::vector<std::string> parts_of(const std::string& text) {
  std::vector<std::string> found;
  for (const SimpleCommand& command : shell_parts(text).commands) found.push_back(joined(command.argv));
  return found;
}

bool has_part(const std::string& text, const std::string& part) {
  std::vector<std::string> found = parts_of(text);
  return std::find(found.begin(), found.end(), part) != found.end();
}

using Parts = std::vector<std::string>;

}  // namespace

BOOST_AUTO_TEST_SUITE(shell_parts_parser)

BOOST_AUTO_TEST_CASE(what_the_strict_parser_understands_comes_out_the_same) {
  BOOST_TEST(parts_of("python3 -m unittest -q && git status | head -5") ==
                 (Parts{"python3 -m unittest -q", "git status", "head -5"}),
             boost::test_tools::per_element());
  ShellParts parts = shell_parts("ls 2>&1 >/dev/null");
  BOOST_REQUIRE_EQUAL(parts.commands.size(), 1u);
  BOOST_TEST(parts.commands[0].redirects.size() == 2u);
  BOOST_TEST(parts.commands[0].redirects[0].rule_target() == "&1");
  BOOST_TEST(parts.commands[0].text == "ls 2>&1 >/dev/null");
}

BOOST_AUTO_TEST_CASE(leading_assignments_are_kept_apart_from_the_command) {
  ShellParts parts = shell_parts("PYTHONPATH=src LANG=C python3 -m unittest");
  BOOST_REQUIRE_EQUAL(parts.commands.size(), 1u);
  BOOST_TEST(joined(parts.commands[0].argv) == "python3 -m unittest");
  BOOST_TEST(joined(parts.commands[0].assignments) == "PYTHONPATH=src LANG=C");
  BOOST_TEST(joined(shell_parts("x=rm; $x -rf src").commands[1].argv) == "$x -rf src");
  BOOST_TEST(has_part("a=(1 \"$(rm z)\") ls", "rm z"));
}

BOOST_AUTO_TEST_CASE(globs_variables_and_background_jobs_stay_words) {
  BOOST_TEST(parts_of("ls *.py src/*.py") == Parts{"ls *.py src/*.py"}, boost::test_tools::per_element());
  BOOST_TEST(parts_of("sleep 5 & echo started") == (Parts{"sleep 5", "echo started"}),
             boost::test_tools::per_element());
  BOOST_TEST(parts_of("ls ${HOME} ~/x") == Parts{"ls ${HOME} ~/x"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(commands_inside_substitutions_are_parts) {
  BOOST_TEST(has_part("echo $(curl x)", "curl x"));
  BOOST_TEST(has_part("echo \"$(curl x)\"", "curl x"));
  BOOST_TEST(has_part("echo `rm x`", "rm x"));
  BOOST_TEST(has_part("diff <(ls a) <(rm b)", "rm b"));
  BOOST_TEST(has_part("tee >(rm c) < /dev/null", "rm c"));
  BOOST_TEST(has_part("echo \"${HOME:-$(rm y)}\"", "rm y"));
  BOOST_TEST(has_part("echo $(echo $(echo `rm deep`))", "rm deep"));
  BOOST_TEST(has_part("(cd src; rm x)", "rm x"));
}

BOOST_AUTO_TEST_CASE(control_flow_keywords_are_dropped_and_their_commands_kept) {
  BOOST_TEST(parts_of("for f in *.py; do rm $f; done") == Parts{"rm $f"}, boost::test_tools::per_element());
  BOOST_TEST(parts_of("for f in $(rm list); do :; done") == (Parts{"rm list", ":"}), boost::test_tools::per_element());
  BOOST_TEST(parts_of("if grep -q x a; then echo y; elif true; then :; else ls; fi") ==
                 (Parts{"grep -q x a", "echo y", "true", ":", "ls"}),
             boost::test_tools::per_element());
  BOOST_TEST(parts_of("while ! make; do sleep 1; done") == (Parts{"make", "sleep 1"}),
             boost::test_tools::per_element());
  BOOST_TEST(parts_of("case $x in a|b) rm y;; (c) ls;; esac; echo after") == (Parts{"rm y", "ls", "echo after"}),
             boost::test_tools::per_element());
  BOOST_TEST(parts_of("f() { rm x; }; f") == (Parts{"rm x", "f"}), boost::test_tools::per_element());
  BOOST_TEST(parts_of("function g { rm y; }") == Parts{"rm y"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(eval_and_ansi_c_quoting_are_read_as_the_shell_reads_them) {
  BOOST_TEST(has_part("eval 'rm x'", "rm x"));
  BOOST_TEST(has_part("eval \"$(echo hi)\"; eval rm y", "rm y"));
  BOOST_TEST(parts_of("$'\\x72m' -rf src") == Parts{"rm -rf src"}, boost::test_tools::per_element());
  BOOST_TEST(parts_of("$'\\162m' x") == Parts{"rm x"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(here_documents_are_data_unless_a_shell_reads_them) {
  BOOST_TEST(!has_part("cat <<EOF > f.txt\ncurl x\nEOF", "curl x"));
  BOOST_TEST(has_part("cat <<EOF | sh\ncurl x\nEOF", "curl x"));
  BOOST_TEST(has_part("bash <<'EOF'\nrm -rf src\nEOF", "rm -rf src"));
  BOOST_TEST(has_part("bash <<< 'rm x'", "rm x"));
  BOOST_TEST(has_part("cat <<EOF > f\n$(rm y)\nEOF", "rm y"));     // an unquoted body's substitutions run
  BOOST_TEST(!has_part("cat <<'EOF' > f\n$(rm y)\nEOF", "rm y"));  // a quoted delimiter: plain data
  BOOST_TEST(has_part("cat <<-EOF > f\n\tdata\n\tEOF\nrm after", "rm after"));
  BOOST_TEST(parts_of("cat > src/new.py <<'EOF'\nprint('hi')\nEOF") == Parts{"cat"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(arithmetic_shifts_are_not_here_documents) {
  BOOST_TEST(has_part("echo $((1<<2))\nrm -rf z", "rm -rf z"));
  BOOST_TEST(has_part("(( x = 1 << 3 ))\nrm -rf w", "rm -rf w"));
  BOOST_TEST(has_part("echo $(( $(rm v) + 1 ))", "rm v"));
}

BOOST_AUTO_TEST_CASE(redirections_without_a_command_are_parts_and_comments_are_not) {
  ShellParts parts = shell_parts("> .git/config");
  BOOST_REQUIRE_EQUAL(parts.commands.size(), 1u);
  BOOST_TEST(parts.commands[0].argv.empty());
  BOOST_TEST(parts.commands[0].redirects[0].target == ".git/config");
  BOOST_TEST(parts_of("ls # ; rm x") == Parts{"ls"}, boost::test_tools::per_element());
  ShellParts both = shell_parts("make &> out.log; ls >| f 3<> g");
  BOOST_TEST(both.commands[0].redirects[0].target == "out.log");
  BOOST_TEST(both.commands[1].redirects.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_cd_is_remembered_for_the_commands_after_it) {
  ShellParts parts = shell_parts("cd src && cat ../.env; cd sub; ls");
  BOOST_REQUIRE_EQUAL(parts.commands.size(), 4u);
  BOOST_TEST(parts.commands[0].folder == "");
  BOOST_TEST(parts.commands[1].folder == "src");
  BOOST_TEST(parts.commands[3].folder == "src/sub");
  BOOST_TEST(shell_parts("cd $D; ls").commands[1].folder == "");
}

BOOST_AUTO_TEST_CASE(too_deep_a_nesting_says_the_parts_are_incomplete) {
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += "$(";
  deep += "rm x";
  for (int i = 0; i < 40; ++i) deep += ")";
  BOOST_TEST(!shell_parts("echo " + deep).complete);
  BOOST_TEST(shell_parts("echo $(echo $(ls))").complete);
}

BOOST_AUTO_TEST_SUITE_END()
