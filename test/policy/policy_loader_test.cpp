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

BOOST_AUTO_TEST_CASE(a_sandbox_key_is_read_like_the_task_files) {
  BOOST_TEST(!load_policy("version: 1\n", "p.yaml")->sandbox.has_value());
  Expected<Policy> boxed = load_policy("version: 1\nsandbox: {network: off, write: workspace}\n", "p.yaml");
  BOOST_REQUIRE_MESSAGE(boxed.has_value(), (boxed ? std::string() : boxed.error().message));
  BOOST_REQUIRE(boxed->sandbox.has_value());
  BOOST_TEST((boxed->sandbox->network == SandboxNetwork::off));
  BOOST_TEST((boxed->sandbox->write == SandboxWrite::workspace));
  Expected<Policy> open = load_policy("version: 1\nsandbox:\n  network: on\n  write: anywhere\n", "p.yaml");
  BOOST_REQUIRE(open.has_value());
  BOOST_TEST((open->sandbox->network == SandboxNetwork::on));
  BOOST_TEST((open->sandbox->write == SandboxWrite::anywhere));
  BOOST_TEST(load_policy("version: 1\nsandbox:\n", "p.yaml")->sandbox.has_value());  // empty: the defaults
  BOOST_TEST(error_of("version: 1\nsandbox: {network: none}\n") ==
             "policies/p.yaml:2:20: 'sandbox.network' must be off or on, got 'none' (did you mean 'on'?)");
  BOOST_TEST(error_of("version: 1\nsandbox: {write: everywhere}\n") ==
             "policies/p.yaml:2:18: 'sandbox.write' must be workspace, none or anywhere, got 'everywhere'");
  BOOST_TEST(error_of("version: 1\nsandbox: {netwrk: off}\n") ==
             "policies/p.yaml:2:11: unknown key 'netwrk' in 'sandbox' (did you mean 'network'?)");
  Expected<Policy> off = load_policy("version: 1\nsandbox: off\n", "p.yaml");
  BOOST_REQUIRE(off.has_value());
  BOOST_TEST((off->sandbox->mode == SandboxMode::off));
  BOOST_TEST(off->sandbox->set_by == "p.yaml:2");
  BOOST_TEST(error_of("version: 1\nsandbox: no\n") ==
             "policies/p.yaml:2:10: 'sandbox' must be on, off or a map such as {network: off}, got 'no' (write 'on' or "
             "'off')");
  BOOST_TEST(error_of("version: 1\nsandbx: {}\n") ==
             "policies/p.yaml:2:1: unknown key 'sandbx' (did you mean 'sandbox'?)");
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
  BOOST_TEST(error_of("version: 1\nrules:\n  - id: r\n    deny: [bsh, web_fetch, mcp__github__get_*, web_*]\n") ==
             "policies/p.yaml:4:12: unknown tool 'bsh' (did you mean 'bash'?)\n"
             "policies/p.yaml:4:48: tool name patterns such as 'web_*' are for MCP tools only (mcp__SERVER__*)");
  BOOST_TEST(error_of("version: 1\nrules:\n  - id: r\n    allow: teleport\n") ==
             "policies/p.yaml:4:12: unknown tool 'teleport' (known tools: read_file, glob, grep, edit_file, "
             "write_file, bash, process_output, process_kill, todo_write, context_status, ask_user, web_fetch, "
             "web_search, or mcp__SERVER__TOOL)");
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

BOOST_AUTO_TEST_CASE(matchers_load_into_the_rule) {
  Expected<Policy> policy = load_policy(
      "version: 1\n"
      "rules:\n"
      "  - id: no-secrets\n"
      "    deny: [read_file, bash]\n"
      "    paths: [\"**/.env\", \"*.pem\", \"//etc/shadow\"]\n"
      "  - id: run-tests\n"
      "    allow: bash\n"
      "    argv_prefix: [npm, run, [test, lint]]\n"
      "    redirects: [/dev/null, \"&1\"]\n"
      "    examples: {match: [npm run test], not_match: [npm run testx]}\n"
      "  - id: git\n"
      "    allow: bash\n"
      "    argv_regex: [git, \"status|log\", ...]\n"
      "  - id: docs\n"
      "    allow: web_fetch\n"
      "    hosts: [docs.python.org, \"*.readthedocs.io\"]\n"
      "    schemes: [https, http]\n"
      "    ports: [443, 8443]\n",
      "p.yaml");
  BOOST_REQUIRE_MESSAGE(policy.has_value(), (policy ? std::string() : policy.error().message));
  const std::vector<Rule>& rules = policy->rules;
  BOOST_REQUIRE_EQUAL(rules[0].paths.size(), 3u);
  BOOST_TEST((rules[0].paths[0].anchor == PathPattern::Anchor::workspace));
  BOOST_TEST((rules[0].paths[1].anchor == PathPattern::Anchor::any_depth));
  BOOST_TEST((rules[0].paths[2].anchor == PathPattern::Anchor::absolute));
  BOOST_TEST((rules[1].argv_prefix == std::vector<std::vector<std::string>>{{"npm"}, {"run"}, {"test", "lint"}}));
  BOOST_TEST((rules[1].redirects == std::vector<std::string>{"/dev/null", "&1"}));
  BOOST_REQUIRE_EQUAL(rules[1].examples.size(), 2u);
  BOOST_TEST(rules[1].examples[1].text == "npm run testx");
  BOOST_TEST(!rules[1].examples[1].should_match);
  BOOST_TEST(rules[1].examples[1].line == 10);
  BOOST_REQUIRE_EQUAL(rules[2].argv_regex.size(), 2u);
  BOOST_TEST(rules[2].argv_regex_any_tail);
  BOOST_TEST(rules[2].argv_regex[1].full_match("log"));
  BOOST_TEST(!rules[2].argv_regex[1].full_match("logx"));
  BOOST_TEST((rules[3].hosts == std::vector<std::string>{"docs.python.org", "*.readthedocs.io"}));
  BOOST_TEST((rules[3].schemes == std::vector<std::string>{"https", "http"}));
  BOOST_TEST((rules[3].ports == std::vector<int>{443, 8443}));
}

BOOST_AUTO_TEST_CASE(bad_regular_expressions_are_load_errors) {
  BOOST_TEST(
      error_of(
          "version: 1\nrules:\n  - id: r\n    allow: bash\n    argv_regex: [git, \"(a\", \"(x)\\\\1\", \"(?=x)\"]\n") ==
      "policies/p.yaml:5:23: invalid regular expression '(a': missing ): (a\n"
      "policies/p.yaml:5:29: invalid regular expression '(x)\\1': invalid escape sequence: \\1\n"
      "policies/p.yaml:5:39: invalid regular expression '(?=x)': invalid perl operator: (?=");
  BOOST_TEST(error_of("version: 1\nrules:\n  - id: r\n    allow: bash\n    argv_regex: [\"a{1000}{1000}\"]\n") ==
             "policies/p.yaml:5:18: invalid regular expression 'a{1000}{1000}': bad repetition operator: {1000}{1000}");
  // Compiled with a bounded memory budget: a pattern over it is refused, not built.
  BOOST_TEST(error_of("version: 1\nrules:\n  - id: r\n    allow: bash\n    argv_regex: [\"\\\\pL{1000}\"]\n") ==
             "policies/p.yaml:5:18: invalid regular expression '\\pL{1000}': pattern too large - compile failed");
  BOOST_TEST(
      error_of("version: 1\nrules:\n  - id: r\n    allow: bash\n    argv_regex: [\"...\", x, ..., y]\n") ==
      "policies/p.yaml:5:18: '...' (any further words) may only end 'rules[0].argv_regex', after at least one pattern\n"
      "policies/p.yaml:5:28: '...' (any further words) may only end 'rules[0].argv_regex', after at least one pattern");
}

BOOST_AUTO_TEST_CASE(bad_path_and_host_patterns_are_load_errors) {
  BOOST_TEST(
      error_of("version: 1\nrules:\n  - id: r\n    deny: read_file\n    paths: [\"/src/**\", \"!x\", \"~/.ssh\", "
               "\"a/[b\", \"a/../b\"]\n") ==
      "policies/p.yaml:5:13: '/src/**': a leading '/' is ambiguous: write 'src/**' for the workspace's, or "
      "'//src/**' for the absolute path\n"
      "policies/p.yaml:5:24: '!x': negated patterns ('!') are not supported: write a deny rule instead\n"
      "policies/p.yaml:5:30: '~/.ssh': '~' is not expanded: name the folder inside the workspace, or an absolute "
      "path as //PATH\n"
      "policies/p.yaml:5:40: 'a/[b': the pattern has a '[' without its ']'\n"
      "policies/p.yaml:5:48: 'a/../b': the pattern has a '..' segment, which means nothing in a pattern");
  BOOST_TEST(
      error_of("version: 1\nrules:\n  - id: r\n    allow: web_fetch\n    hosts: [Docs.Python.org, \"*.\", a..b]\n"
               "    ports: [70000]\n    schemes: [ftp]\n") ==
      "policies/p.yaml:5:13: 'Docs.Python.org' is not a lower-case host name (letters, digits, '-' and '.'; '*.' "
      "only at the start; internationalised names as xn--...)\n"
      "policies/p.yaml:5:30: a host pattern must name a host\n"
      "policies/p.yaml:5:36: 'a..b' has an empty label\n"
      "policies/p.yaml:6:13: 'rules[0].ports[0]' must be at most 65535, got '70000'\n"
      "policies/p.yaml:7:15: 'rules[0].schemes[0]' must be http or https, got 'ftp' (did you mean 'http'?)");
}

BOOST_AUTO_TEST_CASE(matchers_that_do_not_fit_the_rule_are_load_errors) {
  BOOST_TEST(
      error_of("version: 1\nrules:\n"
               "  - id: a\n    allow: [bash, read_file]\n    argv_prefix: [make]\n"
               "  - id: b\n    allow: bash\n    paths: [src]\n"
               "  - id: c\n    deny: [web_fetch]\n    paths: [x]\n    redirects: [/dev/null]\n"
               "  - id: d\n    allow: bash\n    argv_prefix: [make]\n    argv_regex: [make]\n"
               "  - id: e\n    deny: bash\n    hosts: [example.com]\n") ==
      "policies/p.yaml:5:5: 'argv_prefix' applies to bash only, not to 'read_file': put them in a rule of their own\n"
      "policies/p.yaml:8:12: 'paths' cannot allow bash (not every argument is a path): allow bash commands with "
      "argv_prefix or argv_regex, and deny paths in their arguments with a deny rule\n"
      "policies/p.yaml:11:12: 'paths' applies to the file tools and bash, not to 'web_fetch': put them in a rule of "
      "their own\n"
      "policies/p.yaml:12:5: 'redirects' applies to bash only, not to 'web_fetch': put them in a rule of their own\n"
      "policies/p.yaml:12:16: 'redirects' opts an allow rule in to redirections; a deny rule cannot take it\n"
      "policies/p.yaml:16:17: a rule takes argv_prefix or argv_regex, not both\n"
      "policies/p.yaml:19:5: 'hosts' applies to web_fetch only, not to 'bash': put them in a rule of their own");
}

BOOST_AUTO_TEST_CASE(mcp_names_that_could_collide_are_load_errors) {
  BOOST_TEST(
      error_of("version: 1\nrules:\n  - id: r\n    allow: [mcp__gh___x, mcp___x__y, mcp__a.b__c, mcp__gh__]\n") ==
      "policies/p.yaml:4:13: 'mcp__gh___x' could be server 'gh_' or tool '_x': MCP names must not put '___' between "
      "server and tool\n"
      "policies/p.yaml:4:26: in 'mcp___x__y', the MCP server name '_x' starts or ends with '_' or holds '__', so "
      "mcp__SERVER__TOOL names with it could be read as another server's\n"
      "policies/p.yaml:4:38: in 'mcp__a.b__c', the MCP server name 'a.b' may hold only letters, digits, '-' and '_'\n"
      "policies/p.yaml:4:51: 'mcp__gh__' is not a tool name: MCP tools are written mcp__SERVER__TOOL");
  BOOST_TEST(error_of("version: 1\nrules:\n  - id: r\n    allow: [mcp__github, \"mcp__*\", \"mcp__*__get_*\"]\n") ==
             "");
}

BOOST_AUTO_TEST_CASE(examples_are_checked_at_load_each_at_its_position) {
  const std::string text =
      "version: 1\nrules:\n  - id: no-rm\n    deny: bash\n    argv_prefix: [rm]\n"
      "    examples: {match: [\"sudo rm x\", \"echo rm\", \"rm $(x)\"], not_match: [\"rm -rf /\"]}\n";
  BOOST_TEST(error_of(text) ==
             "policies/p.yaml:6:37: example 'echo rm' of rule 'no-rm' should match, but the rule does not deny it\n"
             "policies/p.yaml:6:48: example 'rm $(x)' of rule 'no-rm' should match, but the rule does not deny it (the "
             "command is not understood, so no rule decides it: '$' (a variable, substitution or $'...' quoting))\n"
             "policies/p.yaml:6:72: example 'rm -rf /' of rule 'no-rm' should not match, but the rule denies it");
  Expected<Policy> unchecked = load_policy(text, "p.yaml", ExampleCheck::by_caller);
  BOOST_TEST(unchecked.has_value());
  BOOST_TEST(error_of("version: 1\nrules:\n  - id: r\n    allow: bash\n"
                      "    examples: {matches: [x], match: [{tool: bsh}, {tool: bash, input: 3}, {input: {}}]}\n") ==
             "policies/p.yaml:5:16: unknown key 'matches' in 'rules[0].examples' (did you mean 'match'?)\n"
             "policies/p.yaml:5:45: unknown tool 'bsh' (did you mean 'bash'?)\n"
             "policies/p.yaml:5:71: 'rules[0].examples.match[1].input' must be a map\n"
             "policies/p.yaml:5:75: 'rules[0].examples.match[2]' needs 'tool' (and 'input')");
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
