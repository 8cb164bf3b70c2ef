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
  auto origins = stock_rule_origins(k_extending);
  BOOST_TEST(origins.at("secrets") == "stock policy 'default'");
  BOOST_TEST(origins.count("edit-files") == 0u);  // replaced here
  BOOST_TEST(origins.count("nox") == 0u);         // added here
  BOOST_TEST(stock_rule_origins("version: 1\nrules: []\n").empty());
}

BOOST_AUTO_TEST_CASE(an_unknown_stock_name_a_file_and_sandbox_off_under_sandboxed_bash_are_refused) {
  BOOST_TEST(load_policy("version: 1\nextends: defualt\n", "p.yaml").error().message ==
             "p.yaml:2:10: 'extends': no stock policy is named 'defualt' (did you mean 'default'?); the stock "
             "policies are default, permissive, read-only");
  BOOST_TEST(load_policy("version: 1\nextends: ../team.yaml\n", "p.yaml").error().message ==
             "p.yaml:2:10: 'extends': a policy can extend a stock policy only, not a file yet ('../team.yaml'); the "
             "stock policies are default, permissive, read-only");
  // permissive.yaml refuses `sandbox: off` in itself; a file extending it cannot slip it in.
  BOOST_TEST(load_policy("version: 1\nextends: permissive\nsandbox: off\n", "p.yaml").error().message ==
             "p.yaml:3:1: 'sandbox: off', but the stock policy this one extends says 'sandboxed_bash: allow', which "
             "needs the sandbox: set 'sandboxed_bash: rules' here too, or keep the sandbox");
  BOOST_TEST(load_policy("version: 1\nextends: permissive\nsandbox: off\nsandboxed_bash: rules\n", "p.yaml")
                 .has_value());
}

BOOST_AUTO_TEST_SUITE_END()
