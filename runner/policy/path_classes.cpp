#include "policy/path_classes.h"

#include "base/paths.h"
#include "policy/rule_matching.h"
#include "tools/protected_paths.h"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
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

/// The class the rules alone give a path seen as `facts` (hidden or read-only), or nullopt.
std::optional<PathVerdict> rules_verdict(const Policy& policy, const CallFacts& facts) {
  std::optional<std::string> read_only_rule;
  for (const Rule& rule : policy.rules) {
    if (!is_path_rule(rule) || !rule_matches_facts(rule, facts)) continue;
    if (hides_paths(rule)) return PathVerdict{PathClass::hidden, rule.id};
    if (!read_only_rule && (rule_names_tool(rule, "edit_file") || rule_names_tool(rule, "write_file"))) {
      read_only_rule = rule.id;
    }
  }
  if (read_only_rule) return PathVerdict{PathClass::read_only, *read_only_rule};
  return std::nullopt;
}

/// The class of a path seen as `views`.
PathVerdict classify_views(const Policy& policy, std::vector<CanonicalPath> views, const DecisionContext& context) {
  if (views.empty()) return PathVerdict{PathClass::hidden, "a path that cannot be checked"};
  const CallFacts facts{std::move(views), std::nullopt, ""};
  if (std::optional<PathVerdict> verdict = rules_verdict(policy, facts)) return *verdict;
  for (const CanonicalPath& view : facts.paths) {
    if (is_protected(view, policy, context)) return PathVerdict{PathClass::read_only, "protected path"};
  }
  return PathVerdict{};
}

/// classify_path for the many paths of one survey, with what does not change between them worked out
/// once: the workspace resolved, the protected paths resolved. A path the survey walked to through
/// real folders (PathForm::as_written) is matched as written, without looking at the disk, which is
/// what classify_path's views of it come to; any other is classify_path's.
class SurveyClasses {
 public:
  SurveyClasses(const Policy& policy, const DecisionContext& context, SurveyedText text)
      : m_policy(policy), m_context(context), m_text(text) {
    const std::vector<CanonicalPath> root = canonical_paths(context.workspace, ".");
    m_root = root.front().absolute;
    m_protection_root = root.back().absolute;
    std::vector<std::filesystem::path> protected_paths = context.protected_paths;
    if (!policy.source.empty()) protected_paths.push_back(policy.source);
    for (const std::filesystem::path& path : protected_paths) m_protected.push_back(resolved_path(path).string());
  }

  PathVerdict operator()(const std::string& absolute, std::string_view relative, PathForm form) const {
    const bool by_relative = m_text == SurveyedText::relative_inside && !relative.empty();
    const std::string_view text = by_relative ? relative : std::string_view(absolute);
    const bool as_written = form == PathForm::as_written && m_root != "/" && is_plain_text(text) &&
                            is_plain_text(absolute) && (!by_relative || is_beneath_root(absolute, relative));
    if (!as_written) return classify_path(m_policy, text, m_context);
    const CallFacts facts{{view_as_written(absolute)}, std::nullopt, ""};
    if (std::optional<PathVerdict> verdict = rules_verdict(m_policy, facts)) return *verdict;
    if (write_protection_of_normal(absolute, m_protection_root, m_protected)) {
      return PathVerdict{PathClass::read_only, "protected path"};
    }
    return PathVerdict{};
  }

 private:
  /// A path canonical_paths reads as written: not empty, no NUL, not too long, absolute and normal.
  static bool is_plain_text(std::string_view text) {
    return !text.empty() && text.size() <= k_max_path_bytes && text.find('\0') == std::string_view::npos;
  }

  /// True when `absolute` is the resolved workspace's `relative`: both texts name one path.
  bool is_beneath_root(std::string_view absolute, std::string_view relative) const {
    return absolute.size() == m_root.size() + 1 + relative.size() && absolute.starts_with(m_root) &&
           absolute[m_root.size()] == '/' && absolute.ends_with(relative);
  }

  /// canonical_paths' lexical view of `absolute` (normal, below or beside the resolved workspace),
  /// without `magic`, which no path rule reads (a walked path reaches no magic link but through a link).
  CanonicalPath view_as_written(const std::string& absolute) const {
    CanonicalPath view;
    view.absolute = absolute;
    if (absolute.size() > m_root.size() && absolute.compare(0, m_root.size(), m_root) == 0 &&
        absolute[m_root.size()] == '/') {
      view.inside = true;
      view.relative = absolute.substr(m_root.size() + 1);
    } else if (absolute == m_root) {
      view.inside = true;
      view.relative = ".";
    }
    return view;
  }

  const Policy& m_policy;
  const DecisionContext m_context;
  const SurveyedText m_text;
  std::string m_root;                              // the workspace as canonical_paths resolves it
  std::string m_protection_root;         // the workspace as is_protected resolves it
  std::vector<std::string> m_protected;  // the protected paths and the policy file, resolved
};

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

PathClassifier path_classifier(const Policy& policy, const DecisionContext& context, SurveyedText text) {
  auto classes = std::make_shared<const SurveyClasses>(policy, context, text);
  return [classes](const std::string& absolute, std::string_view relative, PathForm form) {
    return (*classes)(absolute, relative, form);
  };
}

}  // namespace agent_run
