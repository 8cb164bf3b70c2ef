#include "policy/policy_loader.h"

#include "base/digest.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace agent_run;
using agent_run::test::TempFolder;

namespace {

/// The error message of loading `text` as policies/p.yaml; empty when it loads.
std::string error_of(const std::string& text) {
  Expected<Policy> policy = load_policy(text, "policies/p.yaml");
  return policy ? std::string() : policy.error().message;
}

const char* const k_policy = R"(version: 1
unmatched: ask
rules:
  - id: no-bash
    deny: [bash]
    message: "no shell here"

  - id: edit-sources
    allow: [edit_file, write_file]
  - id: github.issues
    ask: mcp__github__create_issue
)";

}  // namespace

BOOST_AUTO_TEST_SUITE(policy_loader)

BOOST_AUTO_TEST_CASE(a_valid_policy_file_loads_into_the_policy) {
  TempFolder folder;
  std::filesystem::path file = folder.write("policies/default.yaml", k_policy);
  Expected<Policy> policy = load_policy_file(file);
  BOOST_REQUIRE_MESSAGE(policy.has_value(), (policy ? std::string() : policy.error().message));
  BOOST_TEST(policy->source == file);
  BOOST_TEST(policy->sha256 == sha256_hex(k_policy));
  BOOST_TEST((policy->unmatched == Verdict::deny));  // ask: no human in the loop
  BOOST_REQUIRE_EQUAL(policy->rules.size(), 3u);
  const Rule& no_bash = policy->rules[0];
  BOOST_TEST(no_bash.id == "no-bash");
  BOOST_TEST((no_bash.verdict == Verdict::deny));
  BOOST_TEST(!no_bash.ask);
  BOOST_TEST((no_bash.tools == std::vector<std::string>{"bash"}));
  BOOST_TEST(no_bash.message == "no shell here");
  BOOST_TEST(no_bash.line == 4);
  const Rule& edit = policy->rules[1];
  BOOST_TEST((edit.verdict == Verdict::allow));
  BOOST_TEST((edit.tools == std::vector<std::string>{"edit_file", "write_file"}));
  BOOST_TEST(edit.message == "");
  BOOST_TEST(edit.line == 8);
  const Rule& github = policy->rules[2];
  BOOST_TEST((github.verdict == Verdict::deny));
  BOOST_TEST(github.ask);
  BOOST_TEST((github.tools == std::vector<std::string>{"mcp__github__create_issue"}));
  BOOST_TEST(github.line == 10);
}

BOOST_AUTO_TEST_CASE(unmatched_defaults_to_deny_and_rules_to_none) {
  Expected<Policy> policy = load_policy("version: 1\n", "p.yaml");
  BOOST_REQUIRE(policy.has_value());
  BOOST_TEST((policy->unmatched == Verdict::deny));
  BOOST_TEST(policy->rules.empty());
  Expected<Policy> open = load_policy("version: 1\nunmatched: allow\n", "p.yaml");
  BOOST_REQUIRE(open.has_value());
  BOOST_TEST((open->unmatched == Verdict::allow));
}

BOOST_AUTO_TEST_CASE(version_is_required_and_must_be_1) {
  BOOST_TEST(error_of("rules: []\n") == "policies/p.yaml:1:1: missing required key 'version' (write 'version: 1')");
  BOOST_TEST(error_of("version: 2\n") == "policies/p.yaml:1:10: 'version' must be 1, got '2'");
  BOOST_TEST(error_of("version: \"1\"\n") == "policies/p.yaml:1:10: 'version' must be 1, got the string '1'");
}

BOOST_AUTO_TEST_CASE(unknown_keys_get_a_suggestion) {
  BOOST_TEST(error_of("version: 1\nunmached: deny\n") ==
             "policies/p.yaml:2:1: unknown key 'unmached' (did you mean 'unmatched'?)");
  BOOST_TEST(error_of("version: 1\nrules:\n  - id: r\n    deny: bash\n    mesage: m\n") ==
             "policies/p.yaml:5:5: unknown key 'mesage' in 'rules[0]' (did you mean 'message'?)");
  BOOST_TEST(error_of("version: 1\nunmatched: prompt\n") ==
             "policies/p.yaml:2:12: 'unmatched' must be allow, deny or ask, got 'prompt'");
}

BOOST_AUTO_TEST_CASE(unknown_tool_names_are_errors_with_a_suggestion) {
  BOOST_TEST(error_of("version: 1\nrules:\n  - id: r\n    deny: [bsh, web_fetch, mcp__github__get_*]\n") ==
             "policies/p.yaml:4:12: unknown tool 'bsh' (did you mean 'bash'?)\n"
             "policies/p.yaml:4:28: tool name patterns such as 'mcp__github__get_*' are not supported yet");
  BOOST_TEST(error_of("version: 1\nrules:\n  - id: r\n    allow: teleport\n") ==
             "policies/p.yaml:4:12: unknown tool 'teleport' (known tools: read_file, glob, grep, edit_file, "
             "write_file, bash, process_output, process_kill, todo_write, context_status, ask_user, web_search, "
             "web_fetch, or mcp__SERVER__TOOL)");
}

BOOST_AUTO_TEST_CASE(duplicate_rule_ids_are_errors_naming_both_lines) {
  BOOST_TEST(
      error_of("version: 1\nrules:\n  - id: no-bash\n    deny: bash\n  - id: no-bash\n    deny: [web_fetch]\n") ==
      "policies/p.yaml:5:9: duplicate rule id 'no-bash' (first used at line 3)");
}

BOOST_AUTO_TEST_CASE(a_rule_takes_exactly_one_decision) {
  BOOST_TEST(error_of("version: 1\nrules:\n  - id: both\n    allow: bash\n    deny: bash\n  - id: none\n") ==
             "policies/p.yaml:5:5: 'rules[0]' has both 'allow' and 'deny': a rule takes exactly one of allow, deny or "
             "ask\n"
             "policies/p.yaml:6:5: 'rules[1]' needs one of 'allow', 'deny' or 'ask'");
  BOOST_TEST(error_of("version: 1\nrules:\n  - deny: []\n") ==
             "policies/p.yaml:3:5: 'rules[0]' needs 'id': a name for the rule, unique in the file\n"
             "policies/p.yaml:3:11: 'rules[0].deny' must name at least one tool");
  BOOST_TEST(error_of("version: 1\nrules:\n  - id: \"no bash\"\n    deny: bash\n") ==
             "policies/p.yaml:3:9: 'rules[0].id' must be letters, digits, '.', '_' or '-', got 'no bash'");
}

BOOST_AUTO_TEST_CASE(a_misspelt_decision_or_id_gets_one_message) {
  BOOST_TEST(error_of("version: 1\nrules:\n  - id: r\n    alow: bash\n  - ids: s\n    deny: bash\n") ==
             "policies/p.yaml:4:5: unknown key 'alow' in 'rules[0]' (did you mean 'allow'?)\n"
             "policies/p.yaml:5:5: unknown key 'ids' in 'rules[1]' (did you mean 'id'?)");
  BOOST_TEST(error_of("verison: 1\n") == "policies/p.yaml:1:1: unknown key 'verison' (did you mean 'version'?)");
}

BOOST_AUTO_TEST_CASE(rule_keys_of_later_versions_are_not_supported_yet) {
  BOOST_TEST(error_of("version: 1\n"
                      "rules:\n"
                      "  - id: no-secrets\n"
                      "    deny: [read_file]\n"
                      "    paths: [\"**/.env\"]\n"
                      "  - id: run-tests\n"
                      "    allow: bash\n"
                      "    argv_prefix: [npm, test]\n"
                      "    argv_regex: x\n"
                      "    examples: {match: [npm test]}\n"
                      "  - id: docs\n"
                      "    allow: web_fetch\n"
                      "    hosts: [docs.python.org]\n") ==
             "policies/p.yaml:5:5: 'paths' is not supported yet\n"
             "policies/p.yaml:8:5: 'argv_prefix' is not supported yet\n"
             "policies/p.yaml:9:5: 'argv_regex' is not supported yet\n"
             "policies/p.yaml:10:5: 'examples' is not supported yet\n"
             "policies/p.yaml:13:5: 'hosts' is not supported yet");
}

BOOST_AUTO_TEST_CASE(yaml_problems_are_reported_with_the_file_name) {
  BOOST_TEST(error_of("version: 1\nversion: 1\n") == "policies/p.yaml:2:1: duplicate key 'version' (first at 1:1)");
  BOOST_TEST(error_of("version: 1\nrules: [\n") ==
             "policies/p.yaml:3:1: YAML syntax error: end of sequence flow not found");
  BOOST_TEST(error_of("- version: 1\n") == "policies/p.yaml:1:1: the file must hold a map of keys, got a list");
}

BOOST_AUTO_TEST_CASE(tool_names_are_builtin_or_mcp) {
  BOOST_TEST(!tool_name_problem("read_file").has_value());
  BOOST_TEST(!tool_name_problem("mcp__github__get_issue").has_value());
  BOOST_TEST(!tool_name_problem("mcp__my-server__do.it").has_value());
  BOOST_TEST(tool_name_problem("mcp____x").value() ==
             "'mcp____x' is not a tool name: MCP tools are written mcp__SERVER__TOOL");
  BOOST_TEST(tool_name_problem("gerp").value() == "unknown tool 'gerp' (did you mean 'grep'?)");
  BOOST_TEST(builtin_tool_names().size() == 13u);
}

BOOST_AUTO_TEST_SUITE_END()
