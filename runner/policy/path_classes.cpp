#include "policy/path_classes.h"

#include "policy/rule_matching.h"

#include <algorithm>
#include <array>
#include <span>

namespace agent_run {

namespace {

constexpr std::array<std::string_view, 4> k_reading_tools = {"read_file", "glob", "grep", "bash"};

/// True for a deny rule that names paths and nothing else to narrow them: it speaks of the paths
/// themselves, whatever program or tool reaches them.
bool is_path_rule(const Rule& rule) {
  return rule.verdict == Verdict::deny && !rule.paths.empty() && rule.argv_prefix.empty() && rule.argv_regex.empty();
}

bool names_any(const Rule& rule, std::span<const std::string_view> tools) {
  return std::any_of(tools.begin(), tools.end(), [&](std::string_view tool) { return rule_names_tool(rule, tool); });
}

}  // namespace

PathVerdict classify_path(const Policy& policy, std::string_view path, const DecisionContext& context) {
  const std::vector<CanonicalPath> views = canonical_paths(context.workspace, path);
  if (views.empty()) return PathVerdict{PathClass::hidden, "a path that cannot be checked"};
  const CallFacts facts{views, std::nullopt, ""};
  std::optional<std::string> read_only_rule;
  for (const Rule& rule : policy.rules) {
    if (!is_path_rule(rule) || !rule_matches_facts(rule, facts)) continue;
    if (names_any(rule, k_reading_tools)) return PathVerdict{PathClass::hidden, rule.id};
    if (!read_only_rule && (rule_names_tool(rule, "edit_file") || rule_names_tool(rule, "write_file"))) {
      read_only_rule = rule.id;
    }
  }
  if (read_only_rule) return PathVerdict{PathClass::read_only, *read_only_rule};
  for (const CanonicalPath& view : views) {
    if (is_protected(view, policy, context)) return PathVerdict{PathClass::read_only, "protected path"};
  }
  return PathVerdict{};
}

}  // namespace agent_run
