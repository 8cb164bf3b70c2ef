// The `options:` matcher of deny rules: long options and their abbreviations, short clusters,
// Go's single-dash flags, valued options, assignment words, exceptions, and git's leading scan.
#include "policy/option_matching.h"
#include "policy/policy_loader.h"

#include <boost/test/unit_test.hpp>

#include <sstream>

using namespace agent_run;

namespace {

Rule rule_with(std::vector<std::string> prefix, std::vector<std::string> options,
               OptionSyntax syntax = OptionSyntax::getopt, OptionsScan scan = OptionsScan::all) {
  Rule rule;
  rule.id = "r";
  for (std::string& word : prefix) rule.argv_prefix.push_back({std::move(word)});
  rule.options = std::move(options);
  rule.option_syntax = syntax;
  rule.options_scan = scan;
  return rule;
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> argv;
  for (std::string word; in >> word;) argv.push_back(word);
  return argv;
}

bool matches(const Rule& rule, const std::string& line) { return options_match(rule, words(line)); }

}  // namespace

BOOST_AUTO_TEST_SUITE(option_matching)

BOOST_AUTO_TEST_CASE(long_options_match_with_a_value_and_when_abbreviated) {
  Rule rule = rule_with({"git"}, {"--output"});
  for (const char* line : {"git log --output=x", "git log --output x", "git diff --outp=x", "git diff --o=x",
                           "git log -p -- --output=x"}) {
    BOOST_TEST(matches(rule, line), line);
  }
  for (const char* line : {"git log --oneline", "git log --output-indicator-new=+", "git log -o", "git log output"}) {
    BOOST_TEST(!matches(rule, line), line);
  }
}

BOOST_AUTO_TEST_CASE(short_options_match_alone_with_a_value_and_in_clusters) {
  Rule rule = rule_with({"make"}, {"-C"});
  for (const char* line : {"make -C /tmp", "make -C/tmp", "make -kC /tmp", "make -C=/tmp", "make --C"}) {
    BOOST_TEST(matches(rule, line), line);
  }
  for (const char* line : {"make -j2", "make -k", "make C=1", "make --directory"})
    BOOST_TEST(!matches(rule, line), line);
}

BOOST_AUTO_TEST_CASE(go_syntax_has_no_clusters_and_no_abbreviations) {
  Rule rule = rule_with({"go"}, {"-o", "-exec", "--toolexec"}, OptionSyntax::go);
  for (const char* line : {"go build -o x", "go build -o=x", "go build --o x", "go test -exec=x", "go test -exec x",
                           "go test --exec=x", "go test --toolexec x"}) {
    BOOST_TEST(matches(rule, line), line);
  }
  for (const char* line :
       {"go test -json -count=1 -short -cover", "go test -execx", "go test -ex=x", "go test -outputdir"}) {
    BOOST_TEST(!matches(rule, line), line);
  }
}

BOOST_AUTO_TEST_CASE(single_dash_long_options_match_their_name_only) {
  Rule rule = rule_with({"ctest"}, {"-SP"});
  BOOST_TEST(matches(rule, "ctest -SP x"));
  BOOST_TEST(matches(rule, "ctest --SP=x"));
  BOOST_TEST(!matches(rule, "ctest -S"));
  BOOST_TEST(!matches(rule, "ctest -SPX"));
}

BOOST_AUTO_TEST_CASE(valued_options_match_attached_or_as_the_next_word) {
  Rule rule = rule_with({"cmake", "--build"}, {"--target=install", "-t=install"});
  BOOST_TEST(matches(rule, "cmake --build b --target install"));
  BOOST_TEST(matches(rule, "cmake --build b --target=install"));
  BOOST_TEST(matches(rule, "cmake --build b -t install"));
  BOOST_TEST(!matches(rule, "cmake --build b --target all"));
  BOOST_TEST(!matches(rule, "cmake --build b --target"));
}

BOOST_AUTO_TEST_CASE(assignment_entries_match_words_that_start_with_them) {
  Rule rule = rule_with({"make"}, {"SHELL="});
  BOOST_TEST(matches(rule, "make SHELL=/tmp/sh test"));
  BOOST_TEST(!matches(rule, "make V=1 test"));
  BOOST_TEST(!matches(rule, "make XSHELL=1"));
}

BOOST_AUTO_TEST_CASE(exceptions_keep_a_real_option_from_reading_as_an_abbreviation) {
  Rule rule = rule_with({"pytest"}, {"--confcutdir", "--cov-report", "!--co", "!--cov"});
  BOOST_TEST(!matches(rule, "pytest --co"));
  BOOST_TEST(!matches(rule, "pytest --cov=src"));
  BOOST_TEST(matches(rule, "pytest --conf=/"));
  BOOST_TEST(matches(rule, "pytest --cov-report=html:/tmp/x"));
}

BOOST_AUTO_TEST_CASE(a_leading_scan_stops_at_the_first_operand) {
  Rule rule = rule_with({"git"}, {"-c", "-p"}, OptionSyntax::getopt, OptionsScan::leading);
  BOOST_TEST(matches(rule, "git -c core.pager=sh log"));
  BOOST_TEST(matches(rule, "git --no-pager -c x=y log"));
  BOOST_TEST(matches(rule, "git -p log"));
  BOOST_TEST(!matches(rule, "git log -p"));
  BOOST_TEST(!matches(rule, "git grep -c x"));
}

BOOST_AUTO_TEST_CASE(a_rule_without_options_matches_any_words) {
  BOOST_TEST(matches(rule_with({"git"}, {}), "git log"));
}

BOOST_AUTO_TEST_CASE(the_loader_checks_where_options_may_stand) {
  auto error_of = [](const std::string& rule) {
    Expected<Policy> policy = load_policy("version: 1\nrules:\n  - id: r\n" + rule, "p.yaml");
    return policy ? std::string() : policy.error().message;
  };
  BOOST_TEST(
      error_of("    deny: bash\n    argv_prefix: [git]\n    options: [--output, \"!--co\", \"SHELL=\"]\n").empty());
  BOOST_TEST(error_of("    allow: bash\n    argv_prefix: [git]\n    options: [--output]\n")
                 .find("an allow rule cannot take it") != std::string::npos);
  BOOST_TEST(error_of("    deny: bash\n    argv_regex: [git]\n    options: [--output]\n").find("needs 'argv_prefix'") !=
             std::string::npos);
  BOOST_TEST(error_of("    deny: bash\n    argv_prefix: [git]\n    options: [output]\n").find("neither an option") !=
             std::string::npos);
  BOOST_TEST(error_of("    deny: bash\n    argv_prefix: [git]\n    option_syntax: go\n").find("has none") !=
             std::string::npos);
  BOOST_TEST(error_of("    deny: bash\n    argv_prefix: [go]\n    options: [-o]\n    option_syntax: rust\n")
                 .find("'rules[0].option_syntax' must be getopt or go") != std::string::npos);
  BOOST_TEST(error_of("    deny: read_file\n    options: [-o]\n").find("applies to bash only") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
