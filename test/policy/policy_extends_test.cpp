#include "policy/policy_loader.h"

#include "base/digest.h"
#include "base/files.h"
#include "policy/policy.h"
#include "policy/stock_policies.h"
#include "support/fixtures.h"
#include "tools/tool_call.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>

using namespace agent_run;

namespace {

const Rule* rule_named(const Policy& policy, const std::string& id) {
  auto rule = std::find_if(policy.rules.begin(), policy.rules.end(), [&](const Rule& r) { return r.id == id; });
  return rule == policy.rules.end() ? nullptr : &*rule;
}

Decision bash(const Policy& policy, const std::string& command, bool sandboxed) {
  DecisionContext context;
  context.sandboxed = sandboxed;
  return decide(policy, ToolCall{"c", "bash", Json::object().set("command", command)}, context);
}

Decision edit(const Policy& policy, const std::string& path) {
  return decide(policy, ToolCall{"c", "edit_file", Json::object().set("path", path)}, DecisionContext{});
}

const char* const k_extending = R"(version: 1
extends: default
rules:
  - id: nox
    allow: bash
    argv_prefix: [nox, -s]
  - id: edit-files
    allow: edit_file
    paths: ["src/**"]
)";

}  // namespace

BOOST_AUTO_TEST_SUITE(policy_extends)

BOOST_AUTO_TEST_CASE(the_stock_policies_compiled_in_are_the_files_in_policies) {
  for (const std::string& name : stock_policy_names()) {
    auto file = read_file(agent_run::test::source_root() / "policies" / (name + ".yaml"));
    BOOST_REQUIRE(file.has_value());
    BOOST_TEST(std::string(stock_policy_text(name)) == *file, name);
  }
  BOOST_TEST((stock_policy_names() == std::vector<std::string>{"default", "permissive", "read-only"}));
  BOOST_TEST(stock_policy_text("nope") == nullptr);
}

BOOST_AUTO_TEST_CASE(a_policy_extending_default_adds_rules_and_replaces_one_by_id) {
  auto policy = load_policy(k_extending, "ci/policy.yaml");
  BOOST_REQUIRE_MESSAGE(policy.has_value(), (policy ? std::string() : policy.error().message));
  auto stock = load_policy(stock_policy_text("default"), "policies/default.yaml");
  BOOST_REQUIRE(stock.has_value());
  BOOST_TEST(policy->rules.size() == stock->rules.size() + 1);  // nox added, edit-files replaced in place
  BOOST_TEST((policy->sandboxed_bash == stock->sandboxed_bash));  // the stock policy's, not set here
  BOOST_TEST((policy->unmatched == Verdict::deny));
  BOOST_TEST(policy->source == "ci/policy.yaml");
  BOOST_TEST(policy->sha256 == sha256_hex(std::string(k_extending) + "\n" + stock_policy_text("default")));
  const Rule* replaced = rule_named(*policy, "edit-files");
  BOOST_REQUIRE(replaced);
  BOOST_TEST(replaced->line == 7);  // this file's rule
  BOOST_TEST(replaced->tools == std::vector<std::string>{"edit_file"});
  BOOST_REQUIRE(rule_named(*policy, "nox"));
  BOOST_REQUIRE(rule_named(*policy, "secrets"));

  // Outside the sandbox the added rule allows nox (the stock policy does not), and the stock ones
  // still allow pytest.
  Decision nox = bash(*policy, "nox -s lint", false);
  BOOST_TEST((nox.verdict == Verdict::allow), nox.reason);
  BOOST_TEST(nox.rule_id == "nox");
  BOOST_TEST((bash(*stock, "nox -s lint", false).verdict == Verdict::deny));
  BOOST_TEST((bash(*policy, "python3 -m pytest -q", false).verdict == Verdict::allow));
  // The stock secrets rule still denies; the replaced edit rule allows src/ only.
  Decision env = bash(*policy, "cat .env", true);
  BOOST_TEST((env.verdict == Verdict::deny));
  BOOST_TEST(env.rule_id == "secrets");
  BOOST_TEST((edit(*policy, "src/app.py").verdict == Verdict::allow));
  BOOST_TEST((edit(*policy, "README.md").verdict == Verdict::deny));
  BOOST_TEST((edit(*stock, "README.md").verdict == Verdict::allow));
}

BOOST_AUTO_TEST_CASE(the_origin_of_each_rule_is_the_stock_policy_unless_the_file_wrote_it) {
  auto policy = load_policy(k_extending, "ci/policy.yaml");
  BOOST_REQUIRE_MESSAGE(policy.has_value(), (policy ? std::string() : policy.error().message));
  BOOST_TEST(rule_named(*policy, "secrets")->origin == "stock policy 'default'");
  BOOST_TEST(rule_named(*policy, "edit-files")->origin.empty());  // replaced here
  BOOST_TEST(rule_named(*policy, "nox")->origin.empty());         // added here
  BOOST_TEST(policy->bases == std::vector<std::string>{"stock policy 'default'"});
  auto plain = load_policy("version: 1\nrules: []\n", "p.yaml");
  BOOST_REQUIRE(plain.has_value());
  BOOST_TEST(plain->bases.empty());
}

// A team policy in a file, extended by a project's: the path is read relative to the extending
// file, the team file may itself extend a stock policy, and each rule names the file it came from.
BOOST_AUTO_TEST_CASE(a_policy_extends_a_file_relative_to_itself_which_may_extend_a_stock_policy) {
  agent_run::test::TempFolder folder;
  folder.write("team/base.yaml", "version: 1\nextends: default\nrules:\n  - id: nox\n    allow: bash\n"
                                 "    argv_prefix: [nox, -s]\n");
  const std::string project = "version: 1\nextends: ../team/base.yaml\nrules:\n  - id: tox\n    allow: bash\n"
                              "    argv_prefix: [tox, -e]\n";
  folder.write("ci/policy.yaml", project);
  auto policy = load_policy_file(folder.path() / "ci/policy.yaml");
  BOOST_REQUIRE_MESSAGE(policy.has_value(), (policy ? std::string() : policy.error().message));
  const std::string base = (folder.path() / "team/base.yaml").string();
  BOOST_TEST(rule_named(*policy, "nox")->origin == base);
  BOOST_TEST(rule_named(*policy, "secrets")->origin == "stock policy 'default'");
  BOOST_TEST(rule_named(*policy, "tox")->origin.empty());
  BOOST_TEST((policy->bases == std::vector<std::string>{base, "stock policy 'default'"}));
  BOOST_TEST((bash(*policy, "nox -s lint", false).verdict == Verdict::allow));  // the team file's rule
  BOOST_TEST((bash(*policy, "tox -e py", false).verdict == Verdict::allow));    // this file's
  BOOST_TEST((bash(*policy, "cat .env", true).verdict == Verdict::deny));       // the stock one's
  // The hash covers the chain: changing the team file changes the project policy's hash.
  const std::string before = policy->sha256;
  folder.write("team/base.yaml", "version: 1\nextends: default\n");
  auto changed = load_policy_file(folder.path() / "ci/policy.yaml");
  BOOST_REQUIRE(changed.has_value());
  BOOST_TEST(changed->sha256 != before);
  BOOST_TEST((bash(*changed, "nox -s lint", false).verdict == Verdict::deny));
}

BOOST_AUTO_TEST_CASE(a_cycle_of_extends_is_refused_with_the_chain_named) {
  agent_run::test::TempFolder folder;
  folder.write("a.yaml", "version: 1\nextends: b.yaml\n");
  folder.write("b.yaml", "version: 1\nextends: sub/c.yaml\n");
  folder.write("sub/c.yaml", "version: 1\nextends: ../a.yaml\n");
  folder.write("self.yaml", "version: 1\nextends: ./self.yaml\n");
  const std::string a = (folder.path() / "a.yaml").string();
  const std::string b = (folder.path() / "b.yaml").string();
  const std::string c = (folder.path() / "sub/c.yaml").string();
  auto cycle = load_policy_file(folder.path() / "a.yaml");
  BOOST_REQUIRE(!cycle.has_value());
  BOOST_TEST(cycle.error().message.find(c + ":2:10: 'extends': '../a.yaml' makes a cycle: " + a + " extends " + b +
                                        " extends " + c + " extends " + a) != std::string::npos,
             cycle.error().message);
  BOOST_TEST(cycle.error().message.find(a + ":2:10: 'extends': the policy '" + b + "' does not load:") == 0u,
             cycle.error().message);
  auto self = load_policy_file(folder.path() / "self.yaml");
  BOOST_REQUIRE(!self.has_value());
  const std::string itself = (folder.path() / "self.yaml").string();
  BOOST_TEST(self.error().message == itself + ":2:10: 'extends': './self.yaml' makes a cycle: " + itself +
                                         " extends " + itself);
}

BOOST_AUTO_TEST_CASE(a_missing_or_broken_base_file_is_refused_naming_it) {
  agent_run::test::TempFolder folder;
  folder.write("broken.yaml", "version: 1\nunmatched: perhaps\n");
  folder.write("p.yaml", "version: 1\nextends: broken.yaml\n");
  folder.write("q.yaml", "version: 1\nextends: missing.yaml\n");
  const std::string broken = (folder.path() / "broken.yaml").string();
  auto from_broken = load_policy_file(folder.path() / "p.yaml");
  BOOST_REQUIRE(!from_broken.has_value());
  BOOST_TEST(from_broken.error().message.find("p.yaml:2:10: 'extends': the policy '" + broken + "' does not load: " +
                                              broken + ":2:12: ") != std::string::npos,
             from_broken.error().message);
  auto from_missing = load_policy_file(folder.path() / "q.yaml");
  BOOST_REQUIRE(!from_missing.has_value());
  BOOST_TEST(from_missing.error().message.find("q.yaml:2:10: 'extends': cannot read the policy '" +
                                               (folder.path() / "missing.yaml").string() + "'") != std::string::npos,
             from_missing.error().message);
}

BOOST_AUTO_TEST_CASE(an_unknown_stock_name_and_sandbox_off_under_sandboxed_bash_are_refused) {
  BOOST_TEST(load_policy("version: 1\nextends: defualt\n", "p.yaml").error().message ==
             "p.yaml:2:10: 'extends': no stock policy is named 'defualt' (did you mean 'default'?); the stock "
             "policies are default, permissive, read-only, or name a policy file (a path ending in .yaml)");
  // permissive.yaml refuses `sandbox: off` in itself; a file extending it cannot slip it in.
  BOOST_TEST(load_policy("version: 1\nextends: permissive\nsandbox: off\n", "p.yaml").error().message ==
             "p.yaml:3:1: 'sandbox: off', but the policy this one extends says 'sandboxed_bash: allow', which "
             "needs the sandbox: set 'sandboxed_bash: rules' here too, or keep the sandbox");
  BOOST_TEST(load_policy("version: 1\nextends: permissive\nsandbox: off\nsandboxed_bash: rules\n", "p.yaml")
                 .has_value());
}

BOOST_AUTO_TEST_SUITE_END()
