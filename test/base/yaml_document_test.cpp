#include "base/yaml_document.h"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace agent_run;

namespace {

/// The problems of a parse, as `LINE:COL: message` lines.
std::string problems_of(const YamlDocument& document) {
  std::string out;
  for (const YamlProblem& problem : document.problems) {
    out +=
        std::to_string(problem.mark.line) + ":" + std::to_string(problem.mark.column) + ": " + problem.message + "\n";
  }
  return out;
}

std::string position(const YamlMark& mark) { return std::to_string(mark.line) + ":" + std::to_string(mark.column); }

}  // namespace

BOOST_AUTO_TEST_SUITE(yaml_document)

BOOST_AUTO_TEST_CASE(builds_maps_sequences_and_scalars_with_one_based_positions) {
  YamlDocument document = parse_yaml("name: demo\nitems:\n  - one\n  - {k: v}\nflow: [a, b]\n");
  BOOST_TEST(problems_of(document) == "");
  BOOST_REQUIRE(document.root.has_value());
  const YamlNode& root = *document.root;
  BOOST_REQUIRE(root.is_map());
  BOOST_REQUIRE_EQUAL(root.entries.size(), 3u);
  BOOST_TEST(root.entries[0].key == "name");
  BOOST_TEST(position(root.entries[1].key_mark) == "2:1");
  BOOST_TEST(root.find("name")->scalar == "demo");
  BOOST_TEST(position(root.find("name")->mark) == "1:7");
  const YamlNode& items = *root.find("items");
  BOOST_REQUIRE(items.is_sequence());
  BOOST_REQUIRE_EQUAL(items.items.size(), 2u);
  BOOST_TEST(position(items.items[0].mark) == "3:5");
  BOOST_TEST(items.items[1].is_map());
  BOOST_TEST(position(items.items[1].find("k")->mark) == "4:9");
  BOOST_TEST(root.find("flow")->items[1].scalar == "b");
  BOOST_TEST(root.find("missing") == nullptr);
}

BOOST_AUTO_TEST_CASE(quoted_and_block_scalars_are_marked_as_quoted) {
  YamlDocument document = parse_yaml("a: 30\nb: \"30\"\nc: '30'\nd: |\n  text\n");
  BOOST_REQUIRE(document.root.has_value());
  BOOST_TEST((document.root->find("a")->style == ScalarStyle::plain));
  BOOST_TEST((document.root->find("b")->style == ScalarStyle::quoted));
  BOOST_TEST((document.root->find("c")->style == ScalarStyle::quoted));
  BOOST_TEST((document.root->find("d")->style == ScalarStyle::quoted));
  BOOST_TEST(document.root->find("d")->scalar == "text\n");
}

BOOST_AUTO_TEST_CASE(a_key_without_value_is_null_at_the_key) {
  YamlDocument document = parse_yaml("first: 1\nempty:\nlast: 2\n");
  BOOST_REQUIRE(document.root.has_value());
  const YamlNode& empty = *document.root->find("empty");
  BOOST_TEST(empty.is_null());
  BOOST_TEST(position(empty.mark) == "2:1");
  BOOST_TEST(position(document.root->find("last")->mark) == "3:7");
}

BOOST_AUTO_TEST_CASE(an_empty_file_is_a_null_root) {
  YamlDocument document = parse_yaml("# nothing here\n");
  BOOST_TEST(problems_of(document) == "");
  BOOST_REQUIRE(document.root.has_value());
  BOOST_TEST(document.root->is_null());
  BOOST_TEST(position(document.root->mark) == "1:1");
}

BOOST_AUTO_TEST_CASE(duplicate_keys_are_problems_naming_both_positions) {
  YamlDocument document = parse_yaml("a: 1\nb:\n  x: 1\n  x: 2\na: 3\n");
  BOOST_TEST(problems_of(document) == "4:3: duplicate key 'x' (first at 3:3)\n5:1: duplicate key 'a' (first at 1:1)\n");
  BOOST_REQUIRE(document.root.has_value());
  BOOST_TEST(document.root->find("a")->scalar == "1");
}

BOOST_AUTO_TEST_CASE(syntax_errors_have_one_based_positions_and_no_tree) {
  YamlDocument tab = parse_yaml("a:\n\tb: 1");
  BOOST_TEST(problems_of(tab) == "2:3: YAML syntax error: illegal map value\n");
  BOOST_TEST(!tab.root.has_value());
  YamlDocument flow = parse_yaml("a: [1, 2\nb: 3");
  BOOST_TEST(problems_of(flow) == "2:2: YAML syntax error: end of sequence flow not found\n");
}

BOOST_AUTO_TEST_CASE(an_unterminated_quote_at_the_end_of_the_file_is_a_syntax_error) {
  YamlDocument double_quoted = parse_yaml("a: 1\nb: \"oops\n");
  BOOST_TEST(problems_of(double_quoted) == "2:4: YAML syntax error: unterminated quoted string (no closing \")\n");
  BOOST_TEST(!double_quoted.root.has_value());
  YamlDocument single_quoted = parse_yaml("a: 'it''s\nb: 2\nc: 3\n");
  BOOST_TEST(problems_of(single_quoted) == "1:4: YAML syntax error: unterminated quoted string (no closing ')\n");
}

BOOST_AUTO_TEST_CASE(closed_quotes_with_escapes_are_fine) {
  YamlDocument document = parse_yaml("a: \"say \\\"hi\\\"\"\nb: 'it''s'\nc: !!str \"y\"\n");
  BOOST_TEST(problems_of(document) == "");
  BOOST_REQUIRE(document.root.has_value());
  BOOST_TEST(document.root->find("a")->scalar == "say \"hi\"");
  BOOST_TEST(document.root->find("b")->scalar == "it's");
  BOOST_TEST(document.root->find("c")->scalar == "y");
}

BOOST_AUTO_TEST_CASE(a_second_document_is_a_problem) {
  YamlDocument document = parse_yaml("a: 1\n---\nb: 2\n");
  BOOST_TEST(problems_of(document) == "2:1: a second YAML document starts here; the file must hold one\n");
  YamlDocument markers = parse_yaml("---\na: 1\n...\n");
  BOOST_TEST(problems_of(markers) == "");
}

BOOST_AUTO_TEST_CASE(anchors_and_aliases_are_refused) {
  YamlDocument document = parse_yaml("a: &shared 1\nb: *shared\n");
  BOOST_TEST(problems_of(document) ==
             "1:4: YAML anchors (&name) are not supported\n2:4: YAML aliases (*name) are not supported\n");
}

BOOST_AUTO_TEST_CASE(plain_scalars_become_typed_json_and_quoted_ones_stay_strings) {
  YamlDocument document = parse_yaml(
      "int: 30\nnegative: -4\nfloat: 0.5\nexp: 1e3\nyes: true\nno: False\nnil: ~\nempty:\n"
      "quoted: \"30\"\nword: hello\nversion: 1.2.3\noctal: 010\nlist: [1, \"2\", x]\nmap: {k: null}\n");
  BOOST_REQUIRE(document.root.has_value());
  Json json = yaml_to_json(*document.root);
  BOOST_TEST(json.dump() ==
             "{\"int\":30,\"negative\":-4,\"float\":0.5,\"exp\":1000,\"yes\":true,\"no\":false,\"nil\":null,"
             "\"empty\":null,\"quoted\":\"30\",\"word\":\"hello\",\"version\":\"1.2.3\",\"octal\":\"010\","
             "\"list\":[1,\"2\",\"x\"],\"map\":{\"k\":null}}");
  BOOST_TEST(json.find("int")->is_integer());
  BOOST_TEST(!json.find("exp")->is_integer());
  BOOST_TEST(json.find("exp")->as_double() == 1000.0);
}

BOOST_AUTO_TEST_CASE(checker_reports_every_problem_in_file_order) {
  YamlChecker checker("tasks/x.yaml");
  BOOST_TEST(checker.ok());
  checker.add({7, 9}, "late");
  checker.add({2, 1}, "early");
  checker.add({7, 3}, "middle");
  BOOST_TEST(!checker.ok());
  BOOST_TEST(checker.error().message == "tasks/x.yaml:2:1: early\ntasks/x.yaml:7:3: middle\ntasks/x.yaml:7:9: late");
}

BOOST_AUTO_TEST_CASE(checker_names_the_value_and_suggests_a_key) {
  YamlDocument document = parse_yaml(
      "limits:\n  turns: abc\n  tokens: \"5\"\n  time: 15 minutes\n  tool_timeout: 0s\n  cost_us: 2\n"
      "mode: inplace\nlist: one\n");
  BOOST_REQUIRE(document.root.has_value());
  const YamlNode& root = *document.root;
  const YamlNode& limits = *root.find("limits");
  YamlChecker checker("f.yaml");
  checker.check_map(limits, "limits", {"turns", "tokens", "time", "tool_timeout", "cost_usd"});
  BOOST_TEST(!checker.integer(*limits.find("turns"), "limits.turns", 1, 100).has_value());
  BOOST_TEST(!checker.integer(*limits.find("tokens"), "limits.tokens", 1, 100).has_value());
  BOOST_TEST(!checker.duration(*limits.find("time"), "limits.time").has_value());
  BOOST_TEST(!checker.duration(*limits.find("tool_timeout"), "limits.tool_timeout").has_value());
  BOOST_TEST(!checker.choice(*root.find("mode"), "mode", {"worktree", "copy", "in-place"}).has_value());
  BOOST_TEST(!checker.text_list(*root.find("list"), "list").has_value());
  BOOST_TEST(!checker.text(*root.find("limits"), "limits").has_value());
  BOOST_TEST(checker.error().message ==
             "f.yaml:2:3: 'limits' must be a string, got a map\n"
             "f.yaml:2:10: 'limits.turns' must be a positive integer, got 'abc'\n"
             "f.yaml:3:11: 'limits.tokens' must be a positive integer, got the string '5'\n"
             "f.yaml:4:9: 'limits.time' is not a duration: '15 minutes' (use 90s, 15m or 1h)\n"
             "f.yaml:5:17: 'limits.tool_timeout' must be longer than 0, got '0s'\n"
             "f.yaml:6:3: unknown key 'cost_us' in 'limits' (did you mean 'cost_usd'?)\n"
             "f.yaml:7:7: 'mode' must be worktree, copy or in-place, got 'inplace' (did you mean 'in-place'?)\n"
             "f.yaml:8:7: 'list' must be a list, got 'one'");
}

BOOST_AUTO_TEST_CASE(checker_reads_good_values) {
  YamlDocument document = parse_yaml("n: 42\nbig: 99\ncost: 2.5\ntime: 1h30m\nnames: [a, b]\n");
  BOOST_REQUIRE(document.root.has_value());
  const YamlNode& root = *document.root;
  YamlChecker checker("f.yaml");
  BOOST_TEST(checker.integer(*root.find("n"), "n", 1, 100).value() == 42);
  BOOST_TEST(!checker.integer(*root.find("big"), "big", 1, 50).has_value());
  BOOST_TEST(checker.positive_number(*root.find("cost"), "cost").value() == 2.5);
  BOOST_TEST(checker.duration(*root.find("time"), "time").value().count() == 5'400'000);
  BOOST_TEST((checker.text_list(*root.find("names"), "names").value() == std::vector<std::string>{"a", "b"}));
  BOOST_TEST(checker.error().message == "f.yaml:2:6: 'big' must be at most 50, got '99'");
}

BOOST_AUTO_TEST_CASE(checker_refuses_huge_and_ambiguous_integers) {
  YamlDocument document = parse_yaml("huge: 99999999999999999999999\noctal: 010\nfloat: 1e3\nnegative: -2\n");
  BOOST_REQUIRE(document.root.has_value());
  const YamlNode& root = *document.root;
  YamlChecker checker("f.yaml");
  for (const char* key : {"huge", "octal", "float", "negative"}) {
    BOOST_TEST(!checker.integer(*root.find(key), key, 1, 1000).has_value());
  }
  BOOST_TEST(checker.error().message ==
             "f.yaml:1:7: 'huge' must be at most 1000, got '99999999999999999999999'\n"
             "f.yaml:2:8: 'octal' must be a positive integer, got '010'\n"
             "f.yaml:3:8: 'float' must be a positive integer, got '1e3'\n"
             "f.yaml:4:11: 'negative' must be a positive integer, got '-2'");
}

BOOST_AUTO_TEST_CASE(describe_cuts_long_and_multi_line_values) {
  YamlNode node;
  node.kind = YamlNode::Kind::scalar;
  node.scalar = "first line\nsecond line\n";
  BOOST_TEST(describe_yaml(node) == "'first line...'");
  node.scalar = "only line\n";
  BOOST_TEST(describe_yaml(node) == "'only line'");
  node.scalar = std::string(70, 'x');
  BOOST_TEST(describe_yaml(node) == "'" + std::string(60, 'x') + "...'");
}

BOOST_AUTO_TEST_SUITE_END()
