#include "policy/survey_checks.h"

#include "base/paths.h"
#include "policy/path_classes.h"
#include "policy/recursive_readers.h"
#include "search/hidden_paths.h"

#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>

namespace agent_run {

namespace {

std::string shown(const CanonicalPath& path) { return path.inside ? path.relative : path.absolute; }

Decision hidden_by(const std::string& rule, std::string reason, std::vector<std::string>& steps) {
  steps.push_back(reason);
  return Decision{Verdict::deny, DecisionBasis::rule, innermost_rule(rule), std::move(reason), std::move(steps)};
}

/// A hidden path at or under the folder `folder` (absolute), or nullptr.
const SurveyedPath* hidden_under(const Survey& survey, const std::filesystem::path& folder) {
  for (const SurveyedPath& path : survey.hidden) {
    if (is_at_or_under(path.absolute, folder)) return &path;
  }
  return nullptr;
}

std::optional<Decision> recursive_denial(const CheckedCommand& checked, const Survey& survey,
                                         const DecisionContext& context, const std::string& label,
                                         std::vector<std::string>& steps) {
  for (const std::vector<std::string>& argv : checked.views.argvs) {
    RecursiveRead read = recursive_read(argv);
    if (read.reader.empty()) continue;
    for (const std::string& operand : read.operands) {
      for (const CanonicalPath& path : canonical_paths(context.workspace, operand)) {
        std::error_code ec;
        if (!std::filesystem::is_directory(path.absolute, ec)) continue;
        if (const SurveyedPath* hidden = hidden_under(survey, path.absolute)) {
          return hidden_by(hidden->rule,
                           label + ": `" + read.reader + "` of '" + shown(path) + "' would read '" + hidden->relative +
                               "', which the policy hides (" + hidden->rule +
                               "); name the folders or files to read instead",
                           steps);
        }
      }
    }
  }
  return std::nullopt;
}

/// A stand-in name for each pattern of a hiding rule: `*` and `**` dropped, `?` an `x`, a class or
/// group its first choice (`.env.*` gives `.env.`, `*.pem` gives `.pem`).
std::string sample_of(std::string_view pattern) {
  std::string sample;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '*') continue;
    if (c == '?') sample += 'x';
    else if (c == '\\' && i + 1 < pattern.size()) sample += pattern[++i];
    else if (c == '[' || c == '{') {
      const char close = c == '[' ? ']' : '}';
      std::size_t end = pattern.find(close, i + 1);
      std::size_t first = i + 1;
      if (c == '[' && first < pattern.size() && (pattern[first] == '!' || pattern[first] == '^')) ++first;
      if (first < pattern.size()) sample += pattern[first];
      i = end == std::string_view::npos ? pattern.size() : end;
    } else sample += c;
  }
  while (sample.find("//") != std::string::npos) sample.erase(sample.find("//"), 1);
  while (!sample.empty() && sample.front() == '/') sample.erase(0, 1);
  return sample;
}

bool glob_matches(const std::string& glob, const std::string& path) {
  return ::fnmatch(glob.c_str(), path.c_str(), 0) == 0;  // git's pathspec glob: '*' crosses '/'
}

/// What a git pathspec glob could name that the policy hides: a surveyed hidden path, or a stand-in
/// for a hiding pattern (so history-only names are judged too). Empty when nothing.
std::string pathspec_hides(const Policy& policy, const Survey* survey, const std::string& glob, std::string& rule) {
  if (survey) {
    for (const SurveyedPath& path : survey->hidden) {
      if (!path.relative.empty() && glob_matches(glob, path.relative)) {
        rule = path.rule;
        return path.relative;
      }
    }
  }
  const std::size_t literal = glob.find_first_of("*?[");
  const std::size_t slash = glob.rfind('/', literal);
  const std::string folder = slash == std::string::npos ? "" : glob.substr(0, slash + 1);
  for (const Rule& candidate : policy.rules) {
    if (!hides_paths(candidate)) continue;
    for (const PathPattern& pattern : candidate.paths) {
      if (pattern.anchor == PathPattern::Anchor::absolute) continue;
      const std::string sample = sample_of(pattern.text);
      for (const std::string& name : {sample, folder + sample}) {
        if (!sample.empty() && glob_matches(glob, name)) {
          rule = candidate.id;
          return name + " (rule '" + candidate.id + "' hides names like it)";
        }
      }
    }
  }
  return {};
}

std::optional<Decision> pathspec_denial(const Policy& policy, const CheckedCommand& checked, const Survey* survey,
                                        const std::string& label, std::vector<std::string>& steps) {
  for (const std::vector<std::string>& argv : checked.views.argvs) {
    if (argv.empty() || program_name(argv[0]) != "git") continue;
    for (std::size_t i = 1; i < argv.size(); ++i) {
      std::string word = argv[i];
      if (word.find_first_of("*?[") == std::string::npos) continue;
      if (word.size() > 1 && word[0] == ':' && word[1] == '(')
        word = word.substr(std::min(word.find(')'), word.size() - 1) + 1);
      std::string rule;
      std::string named = pathspec_hides(policy, survey, word, rule);
      if (named.empty()) continue;
      return hidden_by(rule,
                       label + ": the pathspec '" + argv[i] + "' could name " + named +
                           ", which the policy hides; name the paths instead",
                       steps);
    }
  }
  return std::nullopt;
}

}  // namespace

const Survey* decision_survey(const Policy& policy, const DecisionContext& context, std::optional<Survey>& made) {
  if (context.survey) return context.survey;
  if (made) return &*made;
  if (context.workspace.empty()) return nullptr;
  std::error_code ec;
  std::filesystem::path workspace = std::filesystem::weakly_canonical(context.workspace, ec);
  if (ec) return nullptr;
  Expected<Survey> survey = survey_paths(SurveyRequest{workspace, {}, path_classifier(policy, context)});
  if (!survey) return nullptr;
  made = std::move(*survey);
  return &*made;
}

std::optional<Decision> hidden_file_denial(const std::vector<CanonicalPath>& paths, const Survey& survey,
                                           const std::string& label, std::vector<std::string>& steps) {
  for (const CanonicalPath& path : paths) {
    struct stat status {};
    if (::stat(path.absolute.c_str(), &status) != 0 || !S_ISREG(status.st_mode)) continue;
    const SurveyedPath* hidden = survey.hidden_file(FileIdentity{status.st_dev, status.st_ino});
    if (hidden == nullptr) continue;
    const std::string same = hidden->relative == shown(path) ? "" : ", the same file as '" + hidden->relative + "'";
    return hidden_by(hidden->rule,
                     label + " names '" + shown(path) + "'" + same + ", which the policy hides (" + hidden->rule + ")",
                     steps);
  }
  return std::nullopt;
}

std::optional<Decision> survey_denial(const Policy& policy, const CheckedCommand& checked,
                                      const DecisionContext& context, const std::string& label,
                                      std::vector<std::string>& steps) {
  std::optional<Survey> made;
  const bool linked = std::any_of(checked.paths.paths.begin(), checked.paths.paths.end(), [](const CanonicalPath& p) {
    struct stat status {};
    return ::stat(p.absolute.c_str(), &status) == 0 && S_ISREG(status.st_mode) && status.st_nlink > 1;
  });
  // Inside the sandbox the kernel masks what the survey lists; until a survey (the mount plan's) is
  // in the context, the policy cannot know that, so it checks recursive readers there too.
  const bool masked_by_kernel = context.sandboxed && context.survey != nullptr;
  const bool reads_recursively =
      !masked_by_kernel &&
      std::any_of(checked.views.argvs.begin(), checked.views.argvs.end(),
                  [](const std::vector<std::string>& argv) { return !recursive_read(argv).reader.empty(); });
  const Survey* survey =
      context.survey || linked || reads_recursively ? decision_survey(policy, context, made) : nullptr;
  if (survey) {
    if (auto denied = hidden_file_denial(checked.paths.paths, *survey, label, steps)) return denied;
    if (reads_recursively) {
      if (auto denied = recursive_denial(checked, *survey, context, label, steps)) return denied;
    }
  }
  return pathspec_denial(policy, checked, survey, label, steps);
}

}  // namespace agent_run
