#include "policy/policy_loader.h"

#include "base/digest.h"
#include "base/files.h"
#include "base/text.h"
#include "base/yaml_document.h"

#include <algorithm>
#include <map>

namespace agent_run {

std::vector<std::string> builtin_tool_names() {
  return {"read_file",    "glob",       "grep",           "edit_file", "write_file", "bash",     "process_output",
          "process_kill", "todo_write", "context_status", "ask_user",  "web_search", "web_fetch"};
}

namespace {

/// True for the SERVER and TOOL parts of `mcp__SERVER__TOOL`.
bool is_mcp_part(std::string_view part) {
  return !part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.';
  });
}


}  // namespace

std::optional<std::string> tool_name_problem(std::string_view name) {
  std::vector<std::string> known = builtin_tool_names();
  if (std::find(known.begin(), known.end(), name) != known.end()) return std::nullopt;
  std::string quoted = "'" + std::string(name) + "'";
  if (name.find('*') != std::string_view::npos) {
    return "tool name patterns such as " + quoted + " are not supported yet";
  }
  if (name.substr(0, 5) == "mcp__") {
    std::string_view rest = name.substr(5);
    std::size_t separator = rest.find("__");
    if (separator != std::string_view::npos && is_mcp_part(rest.substr(0, separator)) &&
        is_mcp_part(rest.substr(separator + 2))) {
      return std::nullopt;
    }
    return quoted + " is not a tool name: MCP tools are written mcp__SERVER__TOOL";
  }
  if (std::optional<std::string> suggestion = closest_match(name, known)) {
    return "unknown tool " + quoted + " (did you mean '" + *suggestion + "'?)";
  }
  return "unknown tool " + quoted + " (known tools: " + join(known, ", ") + ", or mcp__SERVER__TOOL)";
}

namespace {

void read_version(const YamlNode& root, YamlChecker& checker) {
  const YamlNode* version = root.find("version");
  if (!version) {
    if (!has_misspelling_of(root, "version", {"version", "unmatched", "rules"})) {
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
    std::optional<std::string> problem = tool ? tool_name_problem(*tool) : std::nullopt;
    if (problem) checker.add(node->mark, *problem);
    if (tool && !problem) tools.push_back(*tool);
  }
  return tools;
}

/// The keys of a rule this version reads.
std::vector<std::string> rule_keys() { return {"id", "allow", "deny", "ask", "message"}; }

/// The keys of a rule a later version reads: refused, never ignored (an ignored `paths` would widen a rule).
std::vector<std::string> later_rule_keys() { return {"paths", "argv_prefix", "argv_regex", "hosts", "examples"}; }

/// Every key a rule may hold, read now or later.
std::vector<std::string> all_rule_keys() {
  std::vector<std::string> keys = rule_keys();
  for (std::string& key : later_rule_keys()) keys.push_back(std::move(key));
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
  if (!checker.check_map(value, name, rule_keys(), later_rule_keys())) return std::nullopt;
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
  return rule;
}

void read_rules(const YamlNode& root, YamlChecker& checker, Policy& policy) {
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
    policy.rules.push_back(std::move(*rule));
  }
}

}  // namespace

Expected<Policy> load_policy(std::string_view yaml_text, const std::filesystem::path& source) {
  Policy policy;
  policy.source = source;
  policy.sha256 = sha256_hex(yaml_text);
  YamlChecker checker(source.string());
  YamlDocument document = parse_yaml(yaml_text);
  checker.add_all(document.problems);
  if (document.root && checker.check_map(*document.root, "", {"version", "unmatched", "rules"})) {
    read_version(*document.root, checker);
    read_unmatched(*document.root, checker, policy);
    read_rules(*document.root, checker, policy);
  }
  if (!checker.ok()) return checker.error();
  return policy;
}

Expected<Policy> load_policy_file(const std::filesystem::path& path) {
  Expected<std::string> text = read_file(path);
  if (!text) return text.error();
  return load_policy(*text, path);
}

}  // namespace agent_run
