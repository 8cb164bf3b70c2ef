#pragma once

#include "base/expected.h"

#include <memory>
#include <string>
#include <string_view>

namespace agent_run {

/// One glob, with the syntax and meaning ripgrep gives the globs of .gitignore files and of `rg -g`
/// (its globset crate, with `/` literal and backslash escapes), matched against '/'-separated
/// relative paths: `*` and `?` never cross a `/`, `**/`, `/**` and `/**/` span folders, `{a,b}`
/// alternates, `[a-z]` and `[!a]` are classes. It is compiled to the same regular expression
/// globset builds, so a walk filtered by it agrees with ripgrep's.
class GlobPattern {
 public:
  /// Compiles `glob`; an error names what is wrong with it (an unclosed `[` or `{`, a bad range).
  static Expected<GlobPattern> compile(std::string_view glob);

  /// True when the whole of `path` matches.
  bool matches(std::string_view path) const;

  /// The glob as it was written.
  const std::string& text() const { return m_text; }

  struct Regex;  // the compiled regular expression, defined where RE2 is included

 private:
  enum class Strategy { literal, basename_literal, extension, regex };

  std::string m_text;
  Strategy m_strategy = Strategy::regex;
  std::string m_literal;  // the literal, basename or extension (with its dot) the fast strategies compare
  std::shared_ptr<const Regex> m_regex;
};

}  // namespace agent_run
