#include "policy/policy_examples.h"

#include "policy/shell_parser.h"
#include "tools/tool_call.h"
#include "tools/tool_table.h"

namespace agent_run {

namespace {

/// The calls a text example stands for, one per tool of the rule that reads such a text.
std::vector<ToolCall> calls_of(const Rule& rule, const std::string& text) {
  std::vector<ToolCall> calls;
  for (const std::string& tool : rule.tools) {
    if (tool == "bash") calls.push_back(ToolCall{"example", tool, Json::object().set("command", text)});
    else if (tool == "web_fetch") calls.push_back(ToolCall{"example", tool, Json::object().set("url", text)});
    else if (tool.rfind("mcp__", 0) == 0) calls.push_back(ToolCall{"example", text, Json::object()});
    else if (takes_a_path(tool)) {
      calls.push_back(
          ToolCall{"example", tool, Json::object().set(std::string(find_builtin_tool(tool)->path_key), text)});
    }
  }
  return calls;
}

std::string verb_of(const Rule& rule) { return rule.verdict == Verdict::allow ? "allow" : "deny"; }
std::string verbs_of(const Rule& rule) { return rule.verdict == Verdict::allow ? "allows" : "denies"; }

ExampleOutcome try_example(const Rule& rule, const RuleExample& example) {
  const std::string shown = example.tool.empty() ? example.text : example.tool + " " + example.input.dump();
  std::vector<ToolCall> calls = example.tool.empty()
                                    ? calls_of(rule, example.text)
                                    : std::vector<ToolCall>{ToolCall{"example", example.tool, example.input}};
  const DecisionContext context;  // a virtual workspace: examples never depend on the machine
  bool matched = false;
  for (const ToolCall& call : calls) matched = matched || rule_decides(rule, call, context);
  ExampleOutcome outcome{rule.id, example.line, example.column, matched == example.should_match, ""};
  const std::string subject = "example '" + shown + "' of rule '" + rule.id + "'";
  if (example.should_match) {
    outcome.message = subject + (matched ? " matches: the rule " + verbs_of(rule) + " it"
                                         : " should match, but the rule does not " + verb_of(rule) + " it");
  } else {
    outcome.message = subject + (matched ? " should not match, but the rule " + verbs_of(rule) + " it"
                                         : " does not match, as it should not");
  }
  bool runs_bash = example.tool.empty() ? !calls.empty() && calls.front().name == "bash" : example.tool == "bash";
  if (!outcome.passed && runs_bash) {
    ShellParse parse = parse_shell(example.tool.empty() ? example.text : example.input.get_string("command"));
    if (!parse.understood())
      outcome.message += " (the command is not understood, so no rule decides it: " + parse.problem + ")";
  }
  return outcome;
}

}  // namespace

std::vector<ExampleOutcome> check_examples(const Policy& policy) {
  std::vector<ExampleOutcome> outcomes;
  for (const Rule& rule : policy.rules) {
    for (const RuleExample& example : rule.examples) outcomes.push_back(try_example(rule, example));
  }
  return outcomes;
}

}  // namespace agent_run
