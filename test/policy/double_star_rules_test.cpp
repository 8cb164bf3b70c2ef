// A rule with `paths: ["**"]`, the most natural path pattern: it allows and denies every path, in
// decide() and through `agent-run policy explain` (which died with SIGSEGV when `**` alone met a path).
#include "model/conversation.h"
#include "policy/policy.h"
#include "policy/policy_loader.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

BOOST_TEST_DONT_PRINT_LOG_VALUE(agent_run::Verdict)
BOOST_TEST_DONT_PRINT_LOG_VALUE(agent_run::DecisionBasis)

namespace {

const char* const k_policy = R"(version: 1
sandbox: off
rules:
  - id: write-anything
    allow: [write_file, edit_file]
    paths: ["**"]
  - id: no-reading
    deny: read_file
    paths: ["**"]
)";

Decision decide_path(const Policy& policy, const std::string& tool, const std::string& path,
                     const std::filesystem::path& workspace) {
  DecisionContext context;
  context.workspace = workspace;
  return decide(policy, ToolCall{"id", tool, Json::object().set("path", path).set("content", "x")}, context);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(double_star_rules)

BOOST_AUTO_TEST_CASE(an_allow_rule_with_double_star_allows_every_path) {
  Expected<Policy> policy = load_policy(k_policy, "policy.yaml");
  BOOST_REQUIRE_MESSAGE(policy.has_value(), (policy ? std::string() : policy.error().message));
  TempFolder workspace;
  for (const char* path : {"a.txt", "src/deep/er/b.py", ".hidden"}) {
    BOOST_TEST_CONTEXT(path) {
      Decision decision = decide_path(*policy, "write_file", path, workspace.path());
      BOOST_TEST(decision.verdict == Verdict::allow);
      BOOST_TEST(decision.basis == DecisionBasis::rule);
      BOOST_TEST(decision.rule_id == "write-anything");
    }
  }
}

BOOST_AUTO_TEST_CASE(a_deny_rule_with_double_star_denies_every_path_inside_and_out) {
  Expected<Policy> policy = load_policy(k_policy, "policy.yaml");
  BOOST_REQUIRE_MESSAGE(policy.has_value(), (policy ? std::string() : policy.error().message));
  TempFolder workspace;
  for (const char* path : {"a.txt", "src/deep/er/b.py", ".", "/etc/hostname", "../elsewhere"}) {
    BOOST_TEST_CONTEXT(path) {
      Decision decision = decide_path(*policy, "read_file", path, workspace.path());
      BOOST_TEST(decision.verdict == Verdict::deny);
      BOOST_TEST(decision.basis == DecisionBasis::rule);
      BOOST_TEST(decision.rule_id == "no-reading");
    }
  }
  // In the virtual workspace of policy examples too.
  BOOST_TEST(decide_path(*policy, "read_file", "x/y", {}).rule_id == "no-reading");
}

BOOST_AUTO_TEST_CASE(policy_explain_of_a_double_star_rule_answers_instead_of_crashing) {
  TempFolder folder;
  folder.write("policy.yaml", k_policy);
  CommandResult denied = run_agent_run({"policy", "explain", "--policy", "policy.yaml", "--tool", "read_file",
                                        "--input", R"j({"path": "src/a.py"})j"},
                                       folder.path());
  BOOST_TEST_INFO(denied.output);
  BOOST_TEST(denied.exit_code == 1);  // denied; 139 was the segfault
  BOOST_TEST(denied.output.find("decided by: rule 'no-reading'") != std::string::npos);
  CommandResult allowed = run_agent_run({"policy", "explain", "--policy", "policy.yaml", "--tool", "write_file",
                                         "--input", R"j({"path": "src/a.py", "content": "x"})j"},
                                        folder.path());
  BOOST_TEST_INFO(allowed.output);
  BOOST_TEST(allowed.exit_code == 0);
  BOOST_TEST(allowed.output.find("decided by: rule 'write-anything'") != std::string::npos);
  CommandResult validated = run_agent_run({"validate", "--policy", "policy.yaml"}, folder.path());
  BOOST_TEST(validated.exit_code != 139, validated.output);
}

BOOST_AUTO_TEST_SUITE_END()
