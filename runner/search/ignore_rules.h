#pragma once

#include "base/expected.h"
#include "search/glob_pattern.h"

#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// What a set of ignore rules says about one path.
enum class IgnoreMatch { none, ignore, include };

enum class EntryKind { file, folder };

/// The globs of one .gitignore file (or the `-g` globs of a search), parsed as ripgrep's ignore crate
/// parses them: `#` comments, `!` negation, a leading `/` or an inner `/` anchors to the file's folder,
/// a trailing `/` matches folders only, a glob without `/` matches at any depth. The last matching
/// glob decides.
class IgnoreRules {
 public:
  /// The rules of a .gitignore file's text; lines that are not valid globs are skipped, as ripgrep does.
  static IgnoreRules from_gitignore(std::string_view text);

  /// ripgrep's `-g GLOB` overrides, in order: `GLOB` includes, `!GLOB` excludes, matched against paths
  /// relative to the workspace. Once one includes, any file no glob matches is excluded.
  static Expected<IgnoreRules> from_overrides(const std::vector<std::string>& globs);

  /// What the rules say about `path` (relative to the rules' folder).
  IgnoreMatch match(std::string_view path, EntryKind kind) const;

  bool empty() const { return m_rules.empty(); }

 private:
  struct Rule {
    GlobPattern glob;
    bool negated = false;       // written with a leading '!'
    bool folders_only = false;  // written with a trailing '/'
  };

  /// Adds one line; an error when it is not a valid glob.
  Expected<void> add_line(std::string_view line);
  IgnoreMatch match_rules(std::string_view path, EntryKind kind) const;

  std::vector<Rule> m_rules;
  bool m_overrides = false;    // `!` means exclude and a plain glob include (inverted)
  bool m_any_include = false;  // overrides: at least one glob includes
};

}  // namespace agent_run
