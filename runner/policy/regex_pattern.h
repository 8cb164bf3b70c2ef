#pragma once

#include "base/expected.h"

#include <memory>
#include <string>
#include <string_view>

namespace agent_run {

/// An RE2 pattern compiled once when a policy loads and matched against whole strings (implicitly
/// anchored). The RE2 object stays in regex_pattern.cpp; copies share it.
class RegexPattern {
 public:
  /// Compiles `pattern` with bounded memory; errors carry RE2's reason (backreferences and
  /// lookarounds are not RE2 syntax, so they are errors too).
  static Expected<RegexPattern> compile(const std::string& pattern);

  /// True when the whole of `text` matches.
  bool full_match(std::string_view text) const;
  /// The pattern as written.
  const std::string& text() const { return m_text; }

 private:
  struct Compiled;
  std::shared_ptr<const Compiled> m_compiled;
  std::string m_text;
};

}  // namespace agent_run
