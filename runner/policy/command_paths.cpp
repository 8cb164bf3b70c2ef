#include "policy/command_paths.h"

#include <algorithm>

namespace agent_run {

namespace {

/// A git word without its pathspec magic: `:(top,glob)x`, `:/x` (from the top), `:!x` and `:^x` (excluded).
std::string_view without_pathspec_magic(std::string_view word) {
  if (word.size() > 1 && word[0] == ':' && word[1] == '(') {
    std::size_t close = word.find(')');
    return close == std::string_view::npos ? word : word.substr(close + 1);
  }
  if (word.size() > 1 && word[0] == ':' && (word[1] == '/' || word[1] == '!' || word[1] == '^')) return word.substr(2);
  return word;
}

/// Collects the paths of a command's words, stopping at the first problem.
class PathCollector {
 public:
  PathCollector(const DecisionContext& context, std::string folder) : m_context(context), m_folder(std::move(folder)) {}

  void add_word(std::string_view word, bool git) {
    if (!m_result.problem.empty()) return;
    if (word.size() > k_max_path_bytes) {
      m_result.problem = "a word of " + std::to_string(word.size()) + " bytes is too long to check as a path";
      return;
    }
    for (std::string_view part : word_parts(word)) {
      add_path(part, word);
      if (git) {
        std::string_view stripped = without_pathspec_magic(part);
        if (stripped.size() != part.size()) add_path(stripped, word);
      }
    }
  }

  CommandPaths take() { return std::move(m_result); }

 private:
  void add_path(std::string_view text, std::string_view word) {
    add_views(text, word);
    if (!m_folder.empty() && !text.empty() && text[0] != '/') add_views(m_folder + "/" + std::string(text), word);
  }

  void add_views(std::string_view text, std::string_view word) {
    for (CanonicalPath& path : canonical_paths(m_context.workspace, text)) {
      if (!path.magic.empty() && !m_context.sandboxed && m_result.problem.empty()) {
        m_result.problem = magic_path_problem(word, path);
      }
      m_result.paths.push_back(std::move(path));
    }
  }

  const DecisionContext& m_context;
  std::string m_folder;
  CommandPaths m_result;
};

}  // namespace

std::vector<std::string_view> word_parts(std::string_view word) {
  std::vector<std::string_view> parts{word};
  auto add = [&](std::string_view part) {
    if (!part.empty() && std::find(parts.begin(), parts.end(), part) == parts.end()) parts.push_back(part);
  };
  for (std::size_t equals = word.find('='); equals != std::string_view::npos; equals = word.find('=', equals + 1)) {
    add(word.substr(equals + 1));
  }
  std::size_t start = 0;
  for (std::size_t i = 0; i <= word.size(); ++i) {
    if (i == word.size() || word[i] == '=' || word[i] == ':' || word[i] == ',') {
      if (start > 0 || i < word.size()) add(word.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

std::string magic_path_problem(std::string_view written, const CanonicalPath& path) {
  std::string shown(written.substr(0, 200));
  return "'" + shown + "' goes through " + path.magic +
         ", which names a different process for the command than for the policy, so it cannot be checked "
         "outside the sandbox";
}

CommandPaths command_paths(const CommandViews& views, const DecisionContext& context) {
  PathCollector collector(context, views.folder);
  for (const std::vector<std::string>& argv : views.argvs) {
    const bool git = !argv.empty() && program_name(argv[0]) == "git";
    for (const std::string& word : argv) collector.add_word(word, git);
  }
  for (const ShellRedirect& redirect : views.redirects) {
    if (redirect.op != ">&") collector.add_word(redirect.target, false);
  }
  for (const std::string& assignment : views.assignments) collector.add_word(assignment, false);
  return collector.take();
}

}  // namespace agent_run
