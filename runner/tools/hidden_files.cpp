#include "tools/hidden_files.h"

#include "search/file_walk.h"

#include <memory>
#include <optional>

namespace agent_run {

namespace {

/// The survey's reason for a hidden file, as a rule id; "" when it does not hide it.
std::string hidden_by(const Survey& survey, const struct stat& file) {
  const SurveyedPath* path = survey.hidden_file(FileIdentity{file.st_dev, file.st_ino});
  return path ? innermost_rule(path->rule) : std::string();
}

/// Without a survey, another name of a hidden file can only be a hard link: the first file with
/// more than one name makes a survey of the workspace from the path rule, once per call.
std::function<std::string(const struct stat&)> survey_on_demand(const ToolScope& scope) {
  auto made = std::make_shared<std::optional<Survey>>();
  std::filesystem::path workspace = scope.workspace;
  std::function<std::string(std::string_view)> rule_of_path = scope.hidden_rule;
  return [made, workspace, rule_of_path](const struct stat& file) -> std::string {
    if (file.st_nlink < 2) return {};
    if (!*made) {
      SurveyRequest request;
      std::error_code ec;
      request.workspace = std::filesystem::weakly_canonical(workspace, ec);
      request.classify = [&rule_of_path](const std::string&, std::string_view relative, PathForm) {
        std::string rule = relative.empty() ? std::string() : rule_of_path(relative);
        return rule.empty() ? PathVerdict{} : PathVerdict{PathClass::hidden, rule};
      };
      Expected<Survey> survey = survey_paths(request);
      *made = survey ? std::move(*survey) : Survey{};
    }
    return hidden_by(**made, file);
  };
}

}  // namespace

HiddenPaths hidden_paths(const ToolScope& scope) {
  HiddenPaths hidden;
  if (!scope.hidden_rule && !scope.survey) return hidden;
  hidden.rule_of_path = scope.hidden_rule;
  if (const Survey* survey = scope.survey) {
    hidden.rule_of_file = [survey](const struct stat& file) { return hidden_by(*survey, file); };
  } else {
    hidden.rule_of_file = survey_on_demand(scope);
  }
  return hidden;
}

Withheld withheld_under(const ToolScope& scope, const std::string& folder, const std::vector<std::string>& globs) {
  Withheld withheld;
  HiddenPaths hidden = hidden_paths(scope);
  if (!hidden) return withheld;
  if (scope.survey) {
    for (const SurveyedPath& path : scope.survey->hidden) {
      const std::string& name = path.relative;
      if (name.empty() || name[0] == '/') continue;  // outside the workspace
      const bool under =
          folder == "." || name == folder ||
          (name.size() > folder.size() && name.compare(0, folder.size(), folder) == 0 && name[folder.size()] == '/');
      if (under) withheld.add(innermost_rule(path.rule));
    }
    return withheld;
  }
  auto overrides = search_overrides(globs);
  if (!overrides) return withheld;
  (void)walk_files(
      scope.workspace, folder, *overrides, [](const WalkedFile&) { return WalkStep::go_on; }, &hidden, &withheld);
  return withheld;
}

}  // namespace agent_run
