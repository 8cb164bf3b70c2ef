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

/// The class of a path seen as `views`.
PathVerdict classify_views(const Policy& policy, std::vector<CanonicalPath> views, const DecisionContext& context) {
  if (views.empty()) return PathVerdict{PathClass::hidden, "a path that cannot be checked"};
  const CallFacts facts{std::move(views), std::nullopt, ""};
  std::optional<std::string> read_only_rule;
  for (const Rule& rule : policy.rules) {
    if (!is_path_rule(rule) || !rule_matches_facts(rule, facts)) continue;
    if (hides_paths(rule)) return PathVerdict{PathClass::hidden, rule.id};
    if (!read_only_rule && (rule_names_tool(rule, "edit_file") || rule_names_tool(rule, "write_file"))) {
      read_only_rule = rule.id;
    }
  }
  if (read_only_rule) return PathVerdict{PathClass::read_only, *read_only_rule};
  for (const CanonicalPath& view : facts.paths) {
    if (is_protected(view, policy, context)) return PathVerdict{PathClass::read_only, "protected path"};
  }
  return PathVerdict{};
}

}  // namespace

PathVerdict classify_path(const Policy& policy, std::string_view path, const DecisionContext& context) {
  return classify_views(policy, canonical_paths(context.workspace, path), context);
}

std::string walked_path_hidden_by(const Policy& policy, std::string_view relative, const std::filesystem::path& root) {
  if (relative.empty() || relative.size() > k_max_path_bytes) return "a path that cannot be checked";
  CanonicalPath view;
  view.inside = true;
  view.relative = std::string(relative);
  view.absolute = (root / std::string(relative)).lexically_normal().generic_string();
  const CallFacts facts{{std::move(view)}, std::nullopt, ""};
  for (const Rule& rule : policy.rules) {
    if (hides_paths(rule) && rule_matches_facts(rule, facts)) return rule.id;
  }
  return {};
}

bool hides_paths(const Rule& rule) { return is_path_rule(rule) && names_any(rule, k_reading_tools); }

PathClassifier path_classifier(const Policy& policy, const DecisionContext& context) {
  return [&policy, context](const std::filesystem::path& absolute, std::string_view relative) {
    return classify_path(policy, relative.empty() ? std::string_view(absolute.native()) : relative, context);
  };
}

}  // namespace agent_run
