#include "policy/rule_reading.h"

#include "policy/host_pattern.h"
#include "policy/option_matching.h"
#include "policy/policy_loader.h"
#include "tools/tool_table.h"

#include <algorithm>

namespace agent_run {

namespace {

/// The tools of `rule` that `accepted` does not accept, quoted, or empty when all are accepted.
template <typename Accepts>
std::string tools_outside(const Rule& rule, Accepts accepted) {
  std::string outside;
  for (const std::string& tool : rule.tools) {
    if (!accepted(tool)) outside += (outside.empty() ? "'" : ", '") + tool + "'";
  }
  return outside;
}

void read_paths(const YamlNode& node, const std::string& name, YamlChecker& checker, Rule& rule) {
  const std::vector<YamlNode>* items = checker.list(node, name);
  if (!items) return;
  if (items->empty()) checker.add(node.mark, "'" + name + "' must hold at least one pattern");
  for (std::size_t i = 0; i < items->size(); ++i) {
    std::optional<std::string> text = checker.text((*items)[i], name + "[" + std::to_string(i) + "]");
    if (!text) continue;
    Expected<PathPattern> pattern = compile_path_pattern(*text);
    if (pattern) rule.paths.push_back(std::move(*pattern));
    else checker.add((*items)[i].mark, "'" + *text + "': " + pattern.error().message);
  }
  std::string outside =
      tools_outside(rule, [](const std::string& tool) { return takes_a_path(tool) || tool == "bash"; });
  if (!outside.empty()) {
    checker.add(node.mark,
                "'paths' applies to the file tools and bash, not to " + outside + ": put them in a rule of their own");
  } else if (rule.verdict == Verdict::allow && std::count(rule.tools.begin(), rule.tools.end(), "bash")) {
    checker.add(node.mark,
                "'paths' cannot allow bash (not every argument is a path): allow bash commands with "
                "argv_prefix or argv_regex, and deny paths in their arguments with a deny rule");
  }
}

void read_argv_prefix(const YamlNode& node, const std::string& name, YamlChecker& checker, Rule& rule) {
  const std::vector<YamlNode>* items = checker.list(node, name);
  if (!items) return;
  if (items->empty()) checker.add(node.mark, "'" + name + "' must hold at least one word");
  for (std::size_t i = 0; i < items->size(); ++i) {
    const YamlNode& item = (*items)[i];
    const std::string item_name = name + "[" + std::to_string(i) + "]";
    std::vector<std::string> choices;
    if (item.is_sequence()) {
      if (auto words = checker.text_list(item, item_name)) choices = std::move(*words);
      if (item.items.empty()) checker.add(item.mark, "'" + item_name + "' must list at least one alternative");
    } else if (auto word = checker.text(item, item_name)) {
      choices.push_back(std::move(*word));
    }
    rule.argv_prefix.push_back(std::move(choices));
  }
}

void read_argv_regex(const YamlNode& node, const std::string& name, YamlChecker& checker, Rule& rule) {
  const std::vector<YamlNode>* items = checker.list(node, name);
  if (!items) return;
  if (items->empty()) checker.add(node.mark, "'" + name + "' must hold at least one pattern");
  for (std::size_t i = 0; i < items->size(); ++i) {
    const YamlNode& item = (*items)[i];
    std::optional<std::string> text = checker.text(item, name + "[" + std::to_string(i) + "]");
    if (!text) continue;
    if (*text == "...") {
      if (i + 1 != items->size() || i == 0) {
        checker.add(item.mark, "'...' (any further words) may only end '" + name + "', after at least one pattern");
      }
      rule.argv_regex_any_tail = true;
      continue;
    }
    Expected<RegexPattern> pattern = RegexPattern::compile(*text);
    if (pattern) rule.argv_regex.push_back(std::move(*pattern));
    else checker.add(item.mark, pattern.error().message);
  }
}

void read_options(const YamlNode& node, const std::string& name, YamlChecker& checker, Rule& rule) {
  const std::vector<YamlNode>* items = checker.list(node, name);
  if (!items) return;
  if (items->empty()) checker.add(node.mark, "'" + name + "' must list at least one option");
  for (std::size_t i = 0; i < items->size(); ++i) {
    std::optional<std::string> entry = checker.text((*items)[i], name + "[" + std::to_string(i) + "]");
    if (!entry) continue;
    if (std::string problem = option_entry_problem(*entry); !problem.empty()) checker.add((*items)[i].mark, problem);
    else rule.options.push_back(*entry);
  }
}

void read_hosts(const YamlNode& node, const std::string& name, YamlChecker& checker, Rule& rule) {
  const std::vector<YamlNode>* items = checker.list(node, name);
  if (!items) return;
  for (std::size_t i = 0; i < items->size(); ++i) {
    std::optional<std::string> host = checker.text((*items)[i], name + "[" + std::to_string(i) + "]");
    if (!host) continue;
    if (auto problem = host_pattern_problem(*host)) checker.add((*items)[i].mark, *problem);
    else rule.hosts.push_back(*host);
  }
}

void read_ports(const YamlNode& node, const std::string& name, YamlChecker& checker, Rule& rule) {
  const std::vector<YamlNode>* items = checker.list(node, name);
  if (!items) return;
  for (std::size_t i = 0; i < items->size(); ++i) {
    if (auto port = checker.integer((*items)[i], name + "[" + std::to_string(i) + "]", 1, 65535)) {
      rule.ports.push_back(static_cast<int>(*port));
    }
  }
}

void read_example(const YamlNode& item, const std::string& name, bool should_match, YamlChecker& checker, Rule& rule) {
  RuleExample example;
  example.should_match = should_match;
  example.line = item.mark.line;
  example.column = item.mark.column;
  if (item.is_map()) {
    if (!checker.check_map(item, name, {"tool", "input"})) return;
    const YamlNode* tool = item.find("tool");
    const YamlNode* input = item.find("input");
    if (!tool) return checker.add(item.mark, "'" + name + "' needs 'tool' (and 'input')");
    example.tool = checker.text(*tool, name + ".tool").value_or("");
    if (auto problem = example.tool.empty() ? std::nullopt : tool_name_problem(example.tool)) {
      return checker.add(tool->mark, *problem);
    }
    if (input && !input->is_map()) return checker.add(input->mark, "'" + name + ".input' must be a map");
    if (input) example.input = yaml_to_json(*input);
  } else if (auto text = checker.text(item, name)) {
    example.text = *text;
  } else {
    return;
  }
  rule.examples.push_back(std::move(example));
}

void read_examples(const YamlNode& node, const std::string& name, YamlChecker& checker, Rule& rule) {
  if (!checker.check_map(node, name, {"match", "not_match"})) return;
  for (const YamlEntry& entry : node.entries) {
    const std::string list_name = name + "." + entry.key;
    const std::vector<YamlNode>* items = checker.list(entry.value, list_name);
    if (!items) continue;
    for (std::size_t i = 0; i < items->size(); ++i) {
      read_example((*items)[i], list_name + "[" + std::to_string(i) + "]", entry.key == "match", checker, rule);
    }
  }
}

/// A matcher that fits only some tools: a problem at `key` when the rule names others.
void require_tools(const YamlNode& rule_node, const std::string& key, const std::string& only, YamlChecker& checker,
                   const Rule& rule) {
  const YamlEntry* entry = nullptr;
  for (const YamlEntry& candidate : rule_node.entries) {
    if (candidate.key == key) entry = &candidate;
  }
  if (!entry) return;
  std::string outside = tools_outside(rule, [&](const std::string& tool) { return tool == only; });
  if (!outside.empty()) {
    checker.add(entry->key_mark,
                "'" + key + "' applies to " + only + " only, not to " + outside + ": put them in a rule of their own");
  }
}

void check_combinations(const YamlNode& value, YamlChecker& checker, const Rule& rule) {
  for (const char* key : {"argv_prefix", "argv_regex", "redirects", "options", "option_syntax", "options_scan"}) {
    require_tools(value, key, "bash", checker, rule);
  }
  for (const char* key : {"hosts", "schemes", "ports"}) require_tools(value, key, "web_fetch", checker, rule);
  if (value.find("argv_prefix") && value.find("argv_regex")) {
    checker.add(value.find("argv_regex")->mark, "a rule takes argv_prefix or argv_regex, not both");
  }
  if (const YamlNode* options = value.find("options")) {
    if (rule.verdict == Verdict::allow) {
      checker.add(options->mark,
                  "'options' narrows a deny rule to commands that use them; an allow rule cannot take it");
    } else if (!value.find("argv_prefix")) {
      checker.add(options->mark, "'options' needs 'argv_prefix': the program (and subcommand) whose options they are");
    }
  }
  for (const char* key : {"option_syntax", "options_scan"}) {
    if (const YamlNode* node = value.find(key); node && !value.find("options")) {
      checker.add(node->mark, "'" + std::string(key) + "' applies to a rule's 'options', and this rule has none");
    }
  }
  if (const YamlNode* redirects = value.find("redirects"); redirects && rule.verdict != Verdict::allow) {
    checker.add(redirects->mark, "'redirects' opts an allow rule in to redirections; a deny rule cannot take it");
  }
}

}  // namespace

std::vector<std::string> matcher_keys() {
  return {"paths",     "argv_prefix", "argv_regex", "options", "option_syntax", "options_scan",
          "redirects", "hosts",       "schemes",    "ports",   "examples"};
}

void read_rule_matchers(const YamlNode& value, const std::string& name, YamlChecker& checker, Rule& rule) {
  for (const YamlEntry& entry : value.entries) {
    const std::string key_name = name + "." + entry.key;
    if (entry.key == "paths") read_paths(entry.value, key_name, checker, rule);
    else if (entry.key == "argv_prefix") read_argv_prefix(entry.value, key_name, checker, rule);
    else if (entry.key == "argv_regex") read_argv_regex(entry.value, key_name, checker, rule);
    else if (entry.key == "options") read_options(entry.value, key_name, checker, rule);
    else if (entry.key == "option_syntax") {
      if (checker.choice(entry.value, key_name, {"getopt", "go"}) == "go") rule.option_syntax = OptionSyntax::go;
    } else if (entry.key == "options_scan") {
      if (checker.choice(entry.value, key_name, {"all", "leading"}) == "leading")
        rule.options_scan = OptionsScan::leading;
    } else if (entry.key == "hosts") read_hosts(entry.value, key_name, checker, rule);
    else if (entry.key == "ports") read_ports(entry.value, key_name, checker, rule);
    else if (entry.key == "examples") read_examples(entry.value, key_name, checker, rule);
    else if (entry.key == "redirects")
      rule.redirects = checker.text_list(entry.value, key_name).value_or(std::vector<std::string>{});
    else if (entry.key == "schemes") {
      const std::vector<YamlNode>* items = checker.list(entry.value, key_name);
      for (std::size_t i = 0; items && i < items->size(); ++i) {
        auto scheme = checker.choice((*items)[i], key_name + "[" + std::to_string(i) + "]", {"http", "https"});
        if (scheme) rule.schemes.push_back(*scheme);
      }
    }
  }
  check_combinations(value, checker, rule);
}

}  // namespace agent_run
