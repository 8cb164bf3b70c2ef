#include "policy/shell_parser.h"
#include "policy/command_views.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <random>
#include <string>
#include <vector>

using namespace agent_run;
using agent_run::test::TempFolder;

namespace {

using Words = std::vector<std::string>;

/// The argv of each simple command, or the problem.
std::vector<Words> argvs_of(const std::string& text) {
  ShellParse parse = parse_shell(text);
  BOOST_TEST_INFO("input: " << text << " problem: " << parse.problem);
  BOOST_REQUIRE(parse.understood());
  std::vector<Words> argvs;
  for (const SimpleCommand& command : parse.commands) argvs.push_back(command.argv);
  return argvs;
}

std::string problem_of(const std::string& text) { return parse_shell(text).problem; }

/// What a real shell makes of `line` as the arguments of one command: each word in brackets.
/// Every line is run by one script, with a marker line between the outputs.
std::vector<std::string> real_shell_words(const std::string& shell, const std::vector<std::string>& lines) {
  TempFolder folder;
  std::string script = "show() { for word in \"$@\"; do printf '[%s]' \"$word\"; done; printf '\\n#end\\n'; }\n";
  for (const std::string& line : lines) script += "show " + line + "\n";
  folder.write("script.sh", script);
  agent_run::test::CommandResult result = agent_run::test::run_shell(shell + " script.sh", folder.path());
  BOOST_REQUIRE_MESSAGE(result.exit_code == 0, shell + " failed: " + result.output);
  std::vector<std::string> outputs;
  std::size_t start = 0;
  for (std::size_t end; (end = result.output.find("\n#end\n", start)) != std::string::npos; start = end + 6) {
    outputs.push_back(result.output.substr(start, end - start));
  }
  return outputs;
}

std::string bracketed(const Words& words) {
  std::string text;
  for (const std::string& word : words) text += "[" + word + "]";
  return text;
}

/// Random words built from the characters that matter to quoting, kept when the parser accepts
/// them as one simple command without redirections.
std::vector<std::string> random_accepted_words(std::size_t count) {
  static const std::string k_pieces[] = {"a",          "b",        "'",       "\"",   "\\",     " ",   "\t", "\\\n",
                                         "=",          "~",        "#",       ":",    "-",      "/",   ".",  "'x y'",
                                         "\"q\\\"r\"", "\"\\\\\"", "\"\\a\"", "%",    "^",      "@",   "+",  ",",
                                         "\\'",        "\\\"",     "''",      "\"\"", "\"\n\"", "\\ ", "é"};
  std::mt19937 random(20240611);
  std::vector<std::string> accepted;
  while (accepted.size() < count) {
    std::string line = "w";
    std::size_t pieces = 1 + random() % 8;
    for (std::size_t i = 0; i < pieces; ++i) line += k_pieces[random() % std::size(k_pieces)];
    ShellParse parse = parse_shell(line);
    if (parse.understood() && parse.commands.size() == 1 && parse.commands[0].redirects.empty()) {
      accepted.push_back(line);
    }
  }
  return accepted;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shell_parser)

BOOST_AUTO_TEST_CASE(quote_removal_and_escapes_give_the_real_argv) {
  BOOST_TEST((argvs_of("r''m -rf 'a b' \"c d\"") == std::vector<Words>{{"rm", "-rf", "a b", "c d"}}));
  BOOST_TEST((argvs_of("\\rm a\\ b \"x\\\"y\" \"p\\q\" 'it'\\''s'") ==
              std::vector<Words>{{"rm", "a b", "x\"y", "p\\q", "it's"}}));
  BOOST_TEST(
      (argvs_of("ec\\\nho \"one\\\ntwo\" 'three\nfour'") == std::vector<Words>{{"echo", "onetwo", "three\nfour"}}));
  BOOST_TEST((argvs_of("git log HEAD~2 a#b --x=1") == std::vector<Words>{{"git", "log", "HEAD~2", "a#b", "--x=1"}}));
}

BOOST_AUTO_TEST_CASE(operators_split_simple_commands) {
  BOOST_TEST((argvs_of("a && b || c; d | e\nf") == std::vector<Words>{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}, {"f"}}));
  BOOST_TEST((argvs_of("a &&\n  b |\n c;\n\n") == std::vector<Words>{{"a"}, {"b"}, {"c"}}));
  BOOST_TEST((argvs_of("a&&b||c;d|e") == std::vector<Words>{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}}));
  BOOST_TEST((argvs_of("'a&&b' \"c;d\" e\\|f") == std::vector<Words>{{"a&&b", "c;d", "e|f"}}));
}

BOOST_AUTO_TEST_CASE(redirections_are_parsed_with_their_descriptors) {
  ShellParse parse = parse_shell("make 2>&1 >out.log 2> 'err file' <in >>append 12>x");
  BOOST_REQUIRE(parse.understood());
  const SimpleCommand& command = parse.commands.at(0);
  BOOST_TEST((command.argv == Words{"make"}));
  std::vector<ShellRedirect> expected = {{2, ">&", "1"}, {1, ">", "out.log"}, {2, ">", "err file"},
                                         {0, "<", "in"}, {1, ">>", "append"}, {12, ">", "x"}};
  BOOST_TEST((command.redirects == expected));
  BOOST_TEST(command.redirects[0].rule_target() == "&1");
  ShellParse quoted = parse_shell("echo \"2\">x a2>y");
  BOOST_TEST((quoted.commands.at(0).argv == Words{"echo", "2", "a2"}));
  BOOST_TEST(quoted.commands.at(0).redirects.size() == 2u);
}

BOOST_AUTO_TEST_CASE(what_is_not_understood_fails_closed_with_a_reason_and_a_position) {
  BOOST_TEST(problem_of("ls $(id)") == "'$' (a variable, substitution or $'...' quoting)");
  BOOST_TEST(parse_shell("ls $(id)").problem_at == 3u);
  BOOST_TEST(problem_of("a && && b") == "'&&' with no command before it");
  BOOST_TEST(problem_of("; ls") == "';' with no command before it");
  BOOST_TEST(problem_of("ls |") == "the command ends with '|'");
  BOOST_TEST(problem_of("") == "the command is empty");
  BOOST_TEST(problem_of("  \n ") == "the command is empty");
  BOOST_TEST(problem_of("> out") == "a redirection with no command");
  BOOST_TEST(problem_of("ls >") == "a redirection with no target");
  BOOST_TEST(problem_of("ls >&x") == "'>&' must name a file descriptor, as in 2>&1");
  BOOST_TEST(problem_of("ls >&-") == "'>&' must name a file descriptor, as in 2>&1");
  BOOST_TEST(problem_of("ls 'x") == "an unterminated single quote");
  BOOST_TEST(problem_of("ls \"x") == "an unterminated double quote");
  BOOST_TEST(problem_of("ls x\\") == "a backslash at the end of the command");
  BOOST_TEST(problem_of("ls 99999>x") == "the file descriptor 99999 is too large");
  BOOST_TEST(problem_of("# comment") == "a comment");
  BOOST_TEST(problem_of("ls --dir=~/x") == "tilde expansion; quote it");
  BOOST_TEST(problem_of("ls a:~") == "tilde expansion; quote it");
  BOOST_TEST(problem_of("ls \\\n~") == "tilde expansion; quote it");
  BOOST_TEST(problem_of("A=1") == "a leading assignment such as A=1");
  BOOST_TEST(problem_of("x+=1 ls") == "a leading assignment such as x+=1");
  BOOST_TEST(problem_of("do ls") == "the shell keyword 'do'");
  BOOST_TEST(problem_of("'caf\xc3\xa9' x") == "a program name with non-ASCII characters");
  BOOST_TEST(problem_of("cd x; ls") == "'cd' followed by more commands: the paths after it cannot be checked");
  BOOST_TEST(problem_of("ls " + std::string(20000, 'x')) == "the command is 20003 bytes long, over the limit of 10000");
  BOOST_TEST(parse_shell("cd src").understood());
  BOOST_TEST(parse_shell("ls; cd src").understood());
}

BOOST_AUTO_TEST_CASE(what_sh_and_bash_do_with_accepted_words_is_what_the_parser_says) {
  std::vector<std::string> lines = {
      "r''m -rf 'a b' \"c d\"",
      "\\rm a\\ b",
      "\"x\\\"y\" \"p\\q\" \"\\\\\" \"\\$\" \"\\`\"",
      "'it'\\''s' a\\'b",
      "ec\\\nho \"one\\\ntwo\"",
      "HEAD~2 a#b --x=1 %^@+,:",
      "'multi\nline' \"tab\there\"",
      "\"caf\xc3\xa9\" '\xe2\x82\xac'",
      "a\\\\b 'a\\b' \"a\\b\"",
      "\\# \\~ \\* \\$x",
      "'' \"\" x''y",
  };
  for (const std::string& line : random_accepted_words(300)) lines.push_back(line);
  std::vector<std::string> expected;
  for (const std::string& line : lines) {
    ShellParse parse = parse_shell("show " + line);
    BOOST_TEST_INFO("line: " << line << " problem: " << parse.problem);
    BOOST_REQUIRE(parse.understood());
    BOOST_REQUIRE_EQUAL(parse.commands.size(), 1u);
    Words words = parse.commands[0].argv;
    words.erase(words.begin());
    expected.push_back(bracketed(words));
  }
  for (const std::string shell : {"sh", "bash"}) {
    std::vector<std::string> real = real_shell_words(shell, lines);
    BOOST_REQUIRE_EQUAL(real.size(), lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
      BOOST_TEST_INFO(shell << " line: " << lines[i]);
      BOOST_TEST(real[i] == expected[i]);
    }
  }
}

BOOST_AUTO_TEST_CASE(quoted_words_read_back_as_themselves) {
  for (const std::string word : {"plain", "a b", "it's", "", "$(x)", "x=1", "~", "#", "*", "a\nb", "\\"}) {
    ShellParse parse = parse_shell("echo " + quote_shell_word(word));
    BOOST_REQUIRE(parse.understood());
    BOOST_TEST((parse.commands.at(0).argv == Words{"echo", word}));
  }
}

BOOST_AUTO_TEST_CASE(wrappers_show_the_commands_they_run) {
  auto views_of = [](const std::string& text) {
    ShellParse parse = parse_shell(text);
    BOOST_REQUIRE(parse.understood());
    return command_views(parse.commands.at(0));
  };
  BOOST_TEST((views_of("sudo -u me env A=1 timeout -k 1 5 nice -n 3 rm x").argvs.back() == Words{"rm", "x"}));
  BOOST_TEST((views_of("sh -c 'ls; rm y' name").argvs.back() == Words{"rm", "y"}));
  BOOST_TEST((views_of("find . -execdir rm '{}' + -exec ls ';'").argvs.size() == 3u));
  BOOST_TEST((views_of("xargs -I X -P 2 cp X y").argvs.back() == Words{"cp", "X", "y"}));
  BOOST_TEST((views_of("bash script.sh").argvs.size() == 1u));
  BOOST_TEST(views_of("sh -c 'ls *'").problem ==
             "the script run by sh is not understood: the unquoted glob character '*'; quote it");
  BOOST_TEST((views_of("sh -c \"sh -c 'sh -c \\\"rm z\\\"'\"").argvs.back() == Words{"rm", "z"}));
  BOOST_TEST(views_of("sh -c 'echo x > out'").redirects.size() == 1u);
  BOOST_TEST(program_name("/usr/bin/rm") == "rm");
}

BOOST_AUTO_TEST_SUITE_END()
