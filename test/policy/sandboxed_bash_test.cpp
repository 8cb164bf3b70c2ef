// `sandboxed_bash: allow`: inside the sandbox a real shell is allowed and only deny rules and
// protected paths decide, on every part the part parser finds; outside it the rules decide as
// before; the key cannot be written with `sandbox: off`, and turning the sandbox off under such a
// policy is an error that names both.
#include "policy/sandboxed_bash.h"
#include "policy/policy_loader.h"
#include "support/fixtures.h"
#include "tools/tool_call.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using agent_run::test::TempFolder;

BOOST_TEST_DONT_PRINT_LOG_VALUE(agent_run::Verdict)
BOOST_TEST_DONT_PRINT_LOG_VALUE(agent_run::DecisionBasis)

namespace {

const char* const k_policy = R"(version: 1
unmatched: deny
sandboxed_bash: allow
rules:
  - id: secrets
    deny: [read_file, bash]
    paths: [".env", "*.pem"]
  - id: no-rm
    deny: bash
    argv_prefix: [rm]
  - id: no-network
    deny: bash
    argv_prefix: [[curl, wget]]
  - id: tests
    allow: bash
    argv_prefix: [python3, -m, unittest]
)";

struct Sandboxed {
  TempFolder workspace;
  Policy policy;
  DecisionContext context;

  Sandboxed() {
    agent_run::test::make_git_repository(workspace.path(), {{"src/app.py", "print(1)\n"}});
    workspace.write(".env", "KEY=1\n");
    Expected<Policy> loaded = load_policy(k_policy, workspace.path() / "policy.yaml");
    BOOST_REQUIRE_MESSAGE(loaded.has_value(), (loaded ? std::string() : loaded.error().message));
    policy = std::move(*loaded);
    context.workspace = workspace.path();
    context.sandboxed = true;
  }

  Decision on(const std::string& command) const {
    return decide(policy, ToolCall{"c", "bash", Json::object().set("command", command)}, context);
  }
  Decision off(const std::string& command) const {
    DecisionContext outside = context;
    outside.sandboxed = false;
    return decide(policy, ToolCall{"c", "bash", Json::object().set("command", command)}, outside);
  }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(sandboxed_bash, Sandboxed)

BOOST_AUTO_TEST_CASE(the_ordinary_shell_is_allowed_in_the_sandbox_and_not_outside) {
  for (const char* command :
       {"PYTHONPATH=src python3 -m unittest", "cd src && ls", "ls *.py",
        "for f in src/*.py; do python3 -m py_compile \"$f\"; done", "echo $(git rev-parse HEAD)",
        "cat > src/new.py <<'EOF'\nprint('hi')\nEOF", "sleep 5 & echo started", "sort x | uniq -c",
        "mkdir -p build && cd build && cmake ..", "python3 x.py", "cat /proc/self/status"}) {
    Decision inside = on(command);
    BOOST_TEST_CONTEXT(command << " -> " << inside.reason) {
      BOOST_TEST(inside.verdict == Verdict::allow);
      BOOST_TEST(inside.basis == DecisionBasis::sandboxed);
      BOOST_TEST(off(command).verdict == Verdict::deny);
    }
  }
  BOOST_TEST(off("python3 -m unittest").rule_id == "tests");  // outside, the rules decide as before
}

BOOST_AUTO_TEST_CASE(deny_rules_see_every_part_in_the_sandbox) {
  BOOST_TEST(on("for f in *.py; do rm $f; done").rule_id == "no-rm");
  BOOST_TEST(on("echo $(curl x)").rule_id == "no-network");
  BOOST_TEST(on("cat <<EOF | sh\ncurl x\nEOF").rule_id == "no-network");
  BOOST_TEST(on("f() { rm x; }; f").rule_id == "no-rm");
  BOOST_TEST(on("`rm x`").rule_id == "no-rm");
  BOOST_TEST(on("eval 'rm x'").rule_id == "no-rm");
  BOOST_TEST(on("sh -c 'ls; rm -rf src &'").rule_id == "no-rm");
  BOOST_TEST(on("exec rm x").rule_id == "no-rm");
  BOOST_TEST(on("cd src && cat ../.env").rule_id == "secrets");
  BOOST_TEST(on("X=.env cat x").rule_id == "secrets");  // an assignment's value is a path too
  BOOST_TEST(on("cat <<EOF > notes.txt\ncurl x\nEOF").verdict == Verdict::allow);  // data, not a command
  BOOST_TEST(on("x=rm; $x -rf src").verdict == Verdict::allow);                    // opaque: the kernel confines it
}

BOOST_AUTO_TEST_CASE(protected_paths_and_unreadable_text_are_denied_in_the_sandbox_too) {
  BOOST_TEST(on("echo x > .git/config").basis == DecisionBasis::protected_path);
  BOOST_TEST(on("for f in a; do echo x > policy.yaml; done").basis == DecisionBasis::protected_path);
  BOOST_TEST(on("> .git/HEAD").basis == DecisionBasis::protected_path);
  BOOST_TEST(on("ls\xe2\x80\x8b -la").basis == DecisionBasis::not_understood);
  BOOST_TEST(on("ls \r").basis == DecisionBasis::not_understood);
  BOOST_TEST(on("ls " + std::string(5000, 'a')).reason.find("too long to check") != std::string::npos);
  std::string deep = "echo ";
  for (int i = 0; i < 40; ++i) deep += "$(";
  BOOST_TEST(on(deep).basis == DecisionBasis::not_understood);
  BOOST_TEST(on("   ").basis == DecisionBasis::not_understood);
}

BOOST_AUTO_TEST_CASE(a_deny_rule_without_matchers_denies_every_call_in_the_sandbox_too) {
  Expected<Policy> no_bash =
      load_policy("version: 1\nsandboxed_bash: allow\nrules:\n  - id: no-bash\n    deny: bash\n", "p.yaml");
  BOOST_REQUIRE(no_bash.has_value());
  Decision decision = decide(*no_bash, ToolCall{"c", "bash", Json::object().set("command", "ls")}, context);
  BOOST_TEST(decision.rule_id == "no-bash");
}

BOOST_AUTO_TEST_CASE(the_key_needs_the_sandbox_in_the_same_file) {
  Expected<Policy> both = load_policy("version: 1\nsandbox: off\nsandboxed_bash: allow\n", "policies/x.yaml");
  BOOST_REQUIRE(!both.has_value());
  BOOST_TEST(
      both.error().message.find("policies/x.yaml:3:1: 'sandboxed_bash: allow' needs the sandbox, but this policy "
                                "turns it off ('sandbox: off' at line 2): remove one of them") != std::string::npos);
  Expected<Policy> rules = load_policy("version: 1\nsandboxed_bash: rules\n", "p.yaml");
  BOOST_REQUIRE(rules.has_value());
  BOOST_TEST((rules->sandboxed_bash == SandboxedBash::rules));
  Expected<Policy> typo = load_policy("version: 1\nsandboxed_bash: yes\n", "p.yaml");
  BOOST_REQUIRE(!typo.has_value());
  BOOST_TEST(typo.error().message.find("'sandboxed_bash' must be allow or rules") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(turning_the_sandbox_off_under_the_key_is_an_error_unless_unmatched_calls_are_denied) {
  BOOST_TEST(!sandbox_off_problem(policy, "tasks/t.yaml:9:10: 'sandbox: off'").has_value());  // falls back to rules
  Policy open = policy;
  open.unmatched = Verdict::allow;
  std::optional<std::string> problem = sandbox_off_problem(open, "tasks/t.yaml:9:10: 'sandbox: off'");
  BOOST_REQUIRE(problem.has_value());
  BOOST_TEST(*problem == "tasks/t.yaml:9:10: 'sandbox: off' turns the sandbox off, but its policy " +
                             (workspace.path() / "policy.yaml").string() +
                             " says 'sandboxed_bash: allow' (line 3) and does not deny unmatched calls, so without "
                             "the sandbox every command that no rule names would run unconfined: remove one of them, "
                             "or use another policy");
  BOOST_TEST(!sandbox_off_problem(builtin_policy(), "'--sandbox off'").has_value());
}

BOOST_AUTO_TEST_CASE(the_stock_policies_allow_the_shell_only_in_the_sandbox) {
  for (const char* file : {"policies/default.yaml", "policies/permissive.yaml"}) {
    Expected<Policy> stock = load_policy_file(agent_run::test::source_root() / file);
    BOOST_REQUIRE_MESSAGE(stock.has_value(), (stock ? std::string() : stock.error().message));
    BOOST_TEST_CONTEXT(file) {
      BOOST_TEST((stock->sandboxed_bash == SandboxedBash::allow));
      // permissive.yaml (unmatched: allow) refuses to run without the sandbox; default.yaml falls back to its rules.
      const bool needs_the_sandbox = std::string(file) == "policies/permissive.yaml";
      BOOST_TEST(sandbox_off_problem(*stock, "'--sandbox off'").has_value() == needs_the_sandbox);
      ToolCall call{"c", "bash", Json::object().set("command", "PYTHONPATH=src python3 -m unittest")};
      BOOST_TEST(decide(*stock, call, context).verdict == Verdict::allow);
      DecisionContext outside = context;
      outside.sandboxed = false;
      BOOST_TEST(decide(*stock, call, outside).verdict == Verdict::deny);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
