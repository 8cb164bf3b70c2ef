#include "policy/policy_loader.h"

#include "base/digest.h"
#include "base/files.h"
#include "base/text.h"
#include "base/yaml_document.h"
#include "policy/policy_examples.h"
#include "policy/rule_reading.h"
#include "policy/sandbox_reading.h"
#include "policy/stock_policies.h"
#include "policy/tool_names.h"
#include "tools/tool_table.h"

#include <algorithm>
#include <map>

namespace agent_run {

namespace {

/// Whether an MCP name is a tool's own or a rule's pattern, which may hold `*` and name a server.
enum class McpNameKind { tool, pattern };

/// True for the TOOL part of `mcp__SERVER__TOOL` (for a pattern, also for a glob of one).
bool is_mcp_tool_part(std::string_view part, McpNameKind kind) {
  return !part.empty() && std::all_of(part.begin(), part.end(), [&](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.' || (kind == McpNameKind::pattern && c == '*');
  });
}

/// What is wrong with `mcp__SERVER__TOOL` (or, for a pattern, a glob of one or `mcp__SERVER`).
std::optional<std::string> mcp_problem(std::string_view name, McpNameKind kind) {
  const bool pattern = kind == McpNameKind::pattern;
  const std::string quoted = "'" + std::string(name) + "'";
  std::optional<McpName> parsed = parse_mcp_name(name);
  if (!parsed || (!pattern && parsed->tool.empty()) ||
      (!parsed->tool.empty() && !is_mcp_tool_part(parsed->tool, kind)) ||
      (name.size() > 5 && name.substr(name.size() - 2) == "__")) {
    return quoted + " is not a tool name: MCP tools are written mcp__SERVER__TOOL";
  }
  if (!pattern && parsed->server.find('*') != std::string::npos) {
    return quoted + " is not a tool name: MCP tools are written mcp__SERVER__TOOL";
  }
  if (auto problem = mcp_server_name_problem(parsed->server)) return "in " + quoted + ", " + *problem;
  if (!parsed->tool.empty() && parsed->tool[0] == '_') {
    return quoted + " could be server '" + parsed->server + "_' or tool '" + parsed->tool +
           "': MCP names must not put '___' between server and tool";
  }
  return std::nullopt;
}

/// What is wrong with a name that is neither built in nor MCP: a "did you mean" or the list.
std::string unknown_tool(std::string_view name, const std::vector<std::string>& known) {
  std::string quoted = "'" + std::string(name) + "'";
  if (std::optional<std::string> suggestion = closest_match(name, known)) {
    return "unknown tool " + quoted + " (did you mean '" + *suggestion + "'?)";
  }
  return "unknown tool " + quoted + " (known tools: " + join(known, ", ") + ", or mcp__SERVER__TOOL)";
}

}  // namespace

std::optional<std::string> tool_name_problem(std::string_view name) {
  std::vector<std::string> known = builtin_tool_names();
  if (std::find(known.begin(), known.end(), name) != known.end()) return std::nullopt;
  if (name.find('*') != std::string_view::npos && name.substr(0, 5) != "mcp__") {
    return "tool name patterns such as '" + std::string(name) + "' are for MCP tools only (mcp__SERVER__*)";
  }
  if (name.substr(0, 5) == "mcp__") return mcp_problem(name, McpNameKind::tool);
  return unknown_tool(name, known);
}

std::optional<std::string> tool_pattern_problem(std::string_view pattern) {
  if (pattern.substr(0, 5) == "mcp__") return mcp_problem(pattern, McpNameKind::pattern);
  return tool_name_problem(pattern);
}

namespace {

void read_version(const YamlNode& root, YamlChecker& checker) {
  const YamlNode* version = root.find("version");
  if (!version) {
    if (!has_misspelling_of(root, "version", {"version", "extends", "unmatched", "rules", "sandbox", "sandboxed_bash"})) {
      checker.add(root.mark, "missing required key 'version' (write 'version: 1')");
    }
  } else if (!version->is_scalar() || version->style != ScalarStyle::plain || version->scalar != "1") {
    std::string quoted = version->is_scalar() && version->style == ScalarStyle::quoted ? "the string " : "";
    checker.add(version->mark, "'version' must be 1, got " + quoted + describe_yaml(*version));
  }
}

void read_unmatched(const YamlNode& root, YamlChecker& checker, Policy& policy) {
  const YamlNode* unmatched = root.find("unmatched");
  if (!unmatched) return;
  std::optional<std::string> choice = checker.choice(*unmatched, "unmatched", {"allow", "deny", "ask"});
  if (choice) policy.unmatched = *choice == "allow" ? Verdict::allow : Verdict::deny;  // ask: no human, so deny
}

/// The tools of a rule's `allow`, `deny` or `ask`: one name or a list of names.
std::vector<std::string> read_rule_tools(const YamlNode& value, const std::string& name, YamlChecker& checker) {
  std::vector<std::string> tools;
  std::vector<const YamlNode*> nodes;
  if (value.is_sequence()) {
    for (const YamlNode& item : value.items) nodes.push_back(&item);
    if (nodes.empty()) checker.add(value.mark, "'" + name + "' must name at least one tool");
  } else {
    nodes.push_back(&value);
  }
  for (const YamlNode* node : nodes) {
    std::optional<std::string> tool = checker.text(*node, name);
    std::optional<std::string> problem = tool ? tool_pattern_problem(*tool) : std::nullopt;
    if (problem) checker.add(node->mark, *problem);
    if (tool && !problem) tools.push_back(*tool);
  }
  return tools;
}

/// Every key a rule may hold.
std::vector<std::string> all_rule_keys() {
  std::vector<std::string> keys = {"id", "allow", "deny", "ask", "message"};
  for (std::string& key : matcher_keys()) keys.push_back(std::move(key));
  return keys;
}

/// Reads the one `allow`, `deny` or `ask` key of a rule.
void read_decision(const YamlNode& value, const std::string& name, YamlChecker& checker, Rule& rule) {
  const YamlEntry* decision = nullptr;
  for (const YamlEntry& entry : value.entries) {
    if (entry.key != "allow" && entry.key != "deny" && entry.key != "ask") continue;
    if (decision) {
      checker.add(entry.key_mark, "'" + name + "' has both '" + decision->key + "' and '" + entry.key +
                                      "': a rule takes exactly one of allow, deny or ask");
      continue;
    }
    decision = &entry;
  }
  if (!decision) {
    std::vector<std::string> keys = all_rule_keys();
    bool misspelt = has_misspelling_of(value, "allow", keys) || has_misspelling_of(value, "deny", keys) ||
                    has_misspelling_of(value, "ask", keys);
    if (!misspelt) {
      checker.add(value.mark, "'" + name + "' needs one of 'allow', 'deny' or 'ask'");
    }
    return;
  }
  rule.verdict = decision->key == "allow" ? Verdict::allow : Verdict::deny;
  rule.ask = decision->key == "ask";
  rule.tools = read_rule_tools(decision->value, name + "." + decision->key, checker);
}

/// One entry of `rules:`; nullopt when it is not even a map.
std::optional<Rule> read_rule(const YamlNode& value, const std::string& name, YamlChecker& checker) {
  if (!checker.check_map(value, name, all_rule_keys())) return std::nullopt;
  Rule rule;
  rule.line = value.mark.line;
  if (const YamlNode* id = value.find("id")) {
    std::optional<std::string> text = checker.text(*id, name + ".id");
    if (text && !is_identifier(*text)) {
      checker.add(id->mark, "'" + name + ".id' must be letters, digits, '.', '_' or '-', got " + describe_yaml(*id));
    }
    rule.id = text.value_or("");
  } else if (!has_misspelling_of(value, "id", all_rule_keys())) {
    checker.add(value.mark, "'" + name + "' needs 'id': a name for the rule, unique in the file");
  }
  read_decision(value, name, checker, rule);
  if (const YamlNode* message = value.find("message")) {
    rule.message = checker.text(*message, name + ".message").value_or("");
  }
  read_rule_matchers(value, name, checker, rule);
  return rule;
}

/// Reads `rules:` over those already in `policy` (a stock policy's, with `extends:`): a rule with the id
/// of one of those takes its place; any other is added.
void read_rules(const YamlNode& root, YamlChecker& checker, Policy& policy) {
  const std::size_t base_rules = policy.rules.size();
  const YamlNode* rules = root.find("rules");
  if (!rules) return;
  const std::vector<YamlNode>* items = checker.list(*rules, "rules");
  if (!items) return;
  std::map<std::string, YamlMark> first_use;
  for (std::size_t i = 0; i < items->size(); ++i) {
    std::optional<Rule> rule = read_rule((*items)[i], "rules[" + std::to_string(i) + "]", checker);
    if (!rule) continue;
    if (!rule->id.empty()) {
      YamlMark mark = (*items)[i].find("id")->mark;
      auto [first, inserted] = first_use.emplace(rule->id, mark);
      if (!inserted) {
        checker.add(mark, "duplicate rule id '" + rule->id + "' (first used at line " +
                              std::to_string(first->second.line) + ")");
      }
    }
    auto base_end = policy.rules.begin() + static_cast<std::ptrdiff_t>(base_rules);
    auto replaced = std::find_if(policy.rules.begin(), base_end, [&](const Rule& known) {
      return !rule->id.empty() && known.id == rule->id;
    });
    if (replaced != base_end) *replaced = std::move(*rule);
    else policy.rules.push_back(std::move(*rule));
  }
}

void read_sandbox(const YamlNode& root, YamlChecker& checker, Policy& policy) {
  const YamlNode* sandbox = root.find("sandbox");
  if (!sandbox) return;
  policy.sandbox = read_sandbox_spec(*sandbox, checker);
}

const YamlEntry* entry_of(const YamlNode& root, std::string_view key) {
  for (const YamlEntry& entry : root.entries) {
    if (entry.key == key) return &entry;
  }
  return nullptr;
}

/// `sandboxed_bash: allow | rules`; `allow` in a file that also says `sandbox: off` is an error.
void read_sandboxed_bash(const YamlNode& root, YamlChecker& checker, Policy& policy) {
  const YamlEntry* entry = entry_of(root, "sandboxed_bash");
  if (!entry) return;
  std::optional<std::string> choice = checker.choice(entry->value, "sandboxed_bash", {"allow", "rules"});
  if (!choice) return;
  policy.sandboxed_bash = *choice == "allow" ? SandboxedBash::allow : SandboxedBash::rules;
  policy.sandboxed_bash_line = entry->key_mark.line;
  const YamlEntry* sandbox = entry_of(root, "sandbox");
  if (policy.sandboxed_bash == SandboxedBash::allow && sandbox && sandbox->value.is_scalar() &&
      sandbox->value.scalar == "off") {
    checker.add(entry->key_mark,
                "'sandboxed_bash: allow' needs the sandbox, but this policy turns it off ('sandbox: "
                "off' at line " +
                    std::to_string(sandbox->key_mark.line) + "): remove one of them");
  }
}

/// The policy files being loaded, outermost first, as written and as resolved: a file that
/// extends one of them makes a cycle.
struct ExtendsChain {
  std::vector<std::string> shown;
  std::vector<std::filesystem::path> resolved;
};

/// What a policy extends: the base policy, and what of it the file's hash covers.
struct Extended {
  Policy policy;
  std::string hashed;  // a stock policy's text, or a base file's own hash
};

Expected<Policy> load_policy_in_chain(std::string_view yaml_text, const std::filesystem::path& source,
                                      ExampleCheck examples, ExtendsChain chain);

/// True when `extends:` names a file rather than a stock policy.
bool names_a_file(const std::string& name) {
  return name.find('/') != std::string::npos || name.ends_with(".yaml") || name.ends_with(".yml");
}

/// `extends: PATH`: the policy file at PATH (relative to this file's folder), loaded as any policy
/// is, its own `extends:` included; a file already being loaded is a cycle, refused with the chain.
std::optional<Extended> read_extended_file(const std::string& name, const YamlMark& mark,
                                           const std::filesystem::path& source, const ExtendsChain& chain,
                                           YamlChecker& checker) {
  const std::filesystem::path path = (source.parent_path() / name).lexically_normal();
  std::error_code ec;
  const std::filesystem::path resolved = std::filesystem::weakly_canonical(path, ec);
  if (std::find(chain.resolved.begin(), chain.resolved.end(), ec ? path : resolved) != chain.resolved.end()) {
    checker.add(mark, "'extends': '" + name + "' makes a cycle: " + join(chain.shown, " extends ") + " extends " +
                          path.string());
    return std::nullopt;
  }
  Expected<std::string> text = read_file(path);
  if (!text) {
    checker.add(mark, "'extends': cannot read the policy '" + path.string() + "': " + text.error().message);
    return std::nullopt;
  }
  ExtendsChain longer = chain;
  longer.shown.push_back(path.string());
  longer.resolved.push_back(ec ? path : resolved);
  Expected<Policy> base = load_policy_in_chain(*text, path, ExampleCheck::by_caller, std::move(longer));
  if (!base) {
    checker.add(mark, "'extends': the policy '" + path.string() + "' does not load: " +
                          join(split(base.error().message, '\n'), "; "));
    return std::nullopt;
  }
  std::string hashed = base->sha256;
  return Extended{std::move(*base), std::move(hashed)};
}

/// `extends: NAME`: the stock policy NAME (compiled in from policies/), or a policy file, that this
/// one starts from: its rules, unmatched, sandbox and sandboxed_bash, which this file's own keys then
/// add to or replace. Each rule taken over keeps the name of the policy it comes from (Rule::origin).
std::optional<Extended> read_extends(const YamlNode& root, YamlChecker& checker, const std::filesystem::path& source,
                                     const ExtendsChain& chain) {
  const YamlNode* extends = root.find("extends");
  if (!extends) return std::nullopt;
  std::optional<std::string> name = checker.text(*extends, "extends");
  if (!name) return std::nullopt;
  std::optional<Extended> base;
  std::string origin;
  if (names_a_file(*name)) {
    base = read_extended_file(*name, extends->mark, source, chain, checker);
    origin = (source.parent_path() / *name).lexically_normal().string();
  } else if (const char* text = stock_policy_text(*name)) {
    Expected<Policy> stock = load_policy(text, "policies/" + *name + ".yaml", ExampleCheck::by_caller);
    if (!stock) {  // the stock policies load: test/policy/policy_extends_test.cpp
      checker.add(extends->mark, "'extends': the stock policy '" + *name + "' does not load: " + stock.error().message);
      return std::nullopt;
    }
    base = Extended{std::move(*stock), text};
    origin = "stock policy '" + *name + "'";
  } else {
    auto suggestion = closest_match(*name, stock_policy_names());
    checker.add(extends->mark, "'extends': no stock policy is named '" + *name + "'" +
                                   (suggestion ? " (did you mean '" + *suggestion + "'?)" : "") +
                                   "; the stock policies are " + join(stock_policy_names(), ", ") +
                                   ", or name a policy file (a path ending in .yaml)");
  }
  if (!base) return std::nullopt;
  for (Rule& rule : base->policy.rules) {
    if (rule.origin.empty()) rule.origin = origin;
  }
  base->policy.bases.insert(base->policy.bases.begin(), origin);
  return base;
}

/// `sandbox: off` in a file whose stock policy says `sandboxed_bash: allow` (permissive, default): the
/// same contradiction read_sandboxed_bash refuses within one file.
void check_extended_sandbox(const YamlNode& root, YamlChecker& checker, const Policy& policy) {
  const YamlEntry* sandbox = entry_of(root, "sandbox");
  if (!root.find("extends") || entry_of(root, "sandboxed_bash") || !sandbox || !sandbox->value.is_scalar() ||
      sandbox->value.scalar != "off" || policy.sandboxed_bash != SandboxedBash::allow) {
    return;
  }
  checker.add(sandbox->key_mark, "'sandbox: off', but the policy this one extends says 'sandboxed_bash: allow', "
                                 "which needs the sandbox: set 'sandboxed_bash: rules' here too, or keep the sandbox");
}

/// Runs every example; each failure is a problem at the example's position.
void check_examples_at_load(const Policy& policy, YamlChecker& checker) {
  for (const ExampleOutcome& outcome : check_examples(policy)) {
    if (!outcome.passed) checker.add(YamlMark{outcome.line, outcome.column}, outcome.message);
  }
}

/// Loads one policy file whose `extends:` chain so far is `chain` (the files extending it).
Expected<Policy> load_policy_in_chain(std::string_view yaml_text, const std::filesystem::path& source,
                                      ExampleCheck examples, ExtendsChain chain) {
  Policy policy;
  YamlChecker checker(source.string());
  YamlDocument document = parse_yaml(yaml_text);
  checker.add_all(document.problems);
  std::string hashed(yaml_text);
  if (chain.shown.empty()) {
    std::error_code ec;
    std::filesystem::path resolved = std::filesystem::weakly_canonical(source, ec);
    chain.shown.push_back(source.string());
    chain.resolved.push_back(ec ? source : resolved);
  }
  if (document.root && checker.check_map(*document.root, "", {"version", "extends", "unmatched", "rules", "sandbox",
                                                              "sandboxed_bash"})) {
    read_version(*document.root, checker);
    if (std::optional<Extended> base = read_extends(*document.root, checker, source, chain)) {
      policy = std::move(base->policy);
      hashed += "\n" + base->hashed;  // what this file decides depends on what it extends
    }
    read_unmatched(*document.root, checker, policy);
    read_rules(*document.root, checker, policy);
    read_sandbox(*document.root, checker, policy);
    read_sandboxed_bash(*document.root, checker, policy);
    check_extended_sandbox(*document.root, checker, policy);
  }
  policy.source = source;
  policy.sha256 = sha256_hex(hashed);
  if (checker.ok() && examples == ExampleCheck::at_load) check_examples_at_load(policy, checker);
  if (!checker.ok()) return checker.error();
  return policy;
}

}  // namespace

Expected<Policy> load_policy(std::string_view yaml_text, const std::filesystem::path& source, ExampleCheck examples) {
  return load_policy_in_chain(yaml_text, source, examples, ExtendsChain{});
}

Expected<Policy> load_policy_file(const std::filesystem::path& path, ExampleCheck examples) {
  Expected<std::string> text = read_file(path);
  if (!text) return text.error();
  return load_policy(*text, path, examples);
}

}  // namespace agent_run
